"""A time budget for a whole command: ``--time-limit`` covers reading the record, replaying it,
building models and searching, not just the search.

A command opens :func:`time_budget` around everything it does; the long loops below it (reading
a record's rounds, the replay, the possible-set filter and its route weights) call
:func:`check_time` every few hundred rounds, and the solvers search until :func:`deadline_within`
their own limit.  Outside a budget :func:`check_time` costs one lookup and never raises, so
library calls and batches are unaffected.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import AnalysisError

_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("sy_tools_deadline", default=None)


class OutOfTime(AnalysisError):
    """The time budget ran out before the work could finish (exit 1)."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Run the block under a budget of ``seconds`` (``time.monotonic()``-based); an enclosing
    budget that ends sooner still rules."""
    now = time.monotonic()
    outer = _DEADLINE.get()
    mine = (now + seconds, seconds)
    token = _DEADLINE.set(outer if outer is not None and outer[0] <= mine[0] else mine)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline_within(seconds: float) -> float:
    """The ``time.monotonic()`` moment a search given ``seconds`` must stop: ``seconds`` from
    now, or the end of the enclosing budget if that comes first."""
    own = time.monotonic() + seconds
    outer = _DEADLINE.get()
    return own if outer is None else min(own, outer[0])


def check_time() -> None:
    """Raise :class:`OutOfTime` if the enclosing budget has ended (nothing outside a budget)."""
    budget = _DEADLINE.get()
    if budget is not None and time.monotonic() > budget[0]:
        raise OutOfTime(f"the time limit ({budget[1]:g} s) ran out before the search began (reading and replaying "
                        "the record took it all); give a larger --time-limit")
