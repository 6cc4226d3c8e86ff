"""The seam between the advisors and the forced-win search (``sy-tools solve``).

The advisors take ``forced``, a callable ``forced(position, possible, time_limit) -> result or
None`` (:data:`ForcedHook`); when the result says ``forced is True`` the detectives play its
``first_moves``.  :func:`solve_hook` gives the hook backed by :mod:`sy_tools.solvers.forced`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..engine.moves import Move
from ..engine.position import Position
from ..engine.stations import StationMask
from ..errors import SyToolsError


class ForcedResult(Protocol):
    """What a forced-win search returns (``sy_tools.solvers.forced_tree.SolveResult`` has these)."""

    @property
    def forced(self) -> bool | None: ...

    @property
    def first_moves(self) -> tuple[Move, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...

#: ``forced(position, possible, time_limit)``: a forced-win search from the detectives' view
#: (Mr. X's station unknown), or None when it found nothing usable.
ForcedHook = Callable[[Position, StationMask, float], "ForcedResult | None"]


def solve_hook(turns: int = 2, max_nodes: int | None = None) -> ForcedHook | None:
    """The hook backed by ``sy_tools.solvers.forced.solve`` (forced win within ``turns``, at most
    ``max_nodes`` search nodes when given: a budget that does not depend on the machine's speed)
    when that module is installed; None otherwise."""
    try:
        from . import forced as _solve  # type: ignore[attr-defined]
    except ImportError:
        return None
    fn = getattr(_solve, "solve", None)
    if fn is None:
        return None

    def hook(position: Position, possible: StationMask, time_limit: float) -> ForcedResult | None:
        try:
            budget = {} if max_nodes is None else {"max_nodes": max_nodes}
            return fn(position, possible, turns=turns, time_limit=time_limit, **budget)  # type: ignore[no-any-return]
        except SyToolsError:  # e.g. he is trapped already: the advisor says so itself
            return None

    return hook
