"""A time budget for a whole command: ``--time-limit`` covers reading the record, replaying it,
building models and searching, not just the search.

A command opens :func:`time_budget` around everything it does; the long loops below it (reading
a record's rounds, the replay, the possible-set filter and its route weights) call
:func:`check_time` every few hundred rounds, and the solvers search until :func:`deadline_within`
their own limit.  Outside a budget :func:`check_time` costs one lookup and never raises, so
library calls and batches are unaffected.

Every time limit is checked here (:func:`check_time_limit`): a positive, finite number of
seconds, at most :data:`MAX_SECONDS`; ``nan``, ``inf``, 0, negatives and non-numbers are a
:class:`ValueError` (:class:`~sy_tools.errors.InputError`) naming ``time_limit`` and the value,
never a search without end.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import AnalysisError, ArgumentTypeError, InputError
from .args import shown as _shown

_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("sy_tools_deadline", default=None)


#: The longest time limit accepted (a day).
MAX_SECONDS = 86_400.0


class OutOfTime(AnalysisError):
    """The time budget ran out before the work could finish (exit 1)."""


def check_time_limit(seconds: object, name: str = "time_limit") -> float:
    """``seconds`` as a float if it is a usable time limit (a real number, numpy's too: positive,
    finite, at most :data:`MAX_SECONDS`); otherwise a :class:`TypeError` or :class:`ValueError`
    naming ``name`` and the value."""
    import numbers

    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise ArgumentTypeError(f"{name} must be a number of seconds, got {_shown(seconds)}")
    t = float(seconds)
    if not math.isfinite(t) or t <= 0 or t > MAX_SECONDS:
        raise InputError(f"{name} must be a positive, finite number of seconds up to {MAX_SECONDS:g}, "
                         f"got {_shown(seconds)}")
    return t


@contextmanager
def time_budget(seconds: float, since: float | None = None) -> Iterator[None]:
    """Run the block under a budget of ``seconds`` (checked: :func:`check_time_limit`;
    ``time.monotonic()``-based, counted from ``since`` when given, e.g. when a command began,
    else from now); an enclosing budget that ends sooner still rules."""
    seconds = check_time_limit(seconds)
    now = time.monotonic() if since is None else since
    outer = _DEADLINE.get()
    mine = (now + seconds, seconds)
    token = _DEADLINE.set(outer if outer is not None and outer[0] <= mine[0] else mine)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline_within(seconds: float) -> float:
    """The ``time.monotonic()`` moment a search given ``seconds`` (checked:
    :func:`check_time_limit`) must stop: ``seconds`` from now, or the end of the enclosing budget
    if that comes first."""
    own = time.monotonic() + check_time_limit(seconds)
    outer = _DEADLINE.get()
    return own if outer is None else min(own, outer[0])


def budget_deadline() -> float | None:
    """The ``time.monotonic()`` moment the enclosing budget ends (None outside one): a search
    with no limit of its own still stops there."""
    outer = _DEADLINE.get()
    return None if outer is None else outer[0]


def check_time() -> None:
    """Raise :class:`OutOfTime` if the enclosing budget has ended (nothing outside a budget)."""
    budget = _DEADLINE.get()
    if budget is not None and time.monotonic() > budget[0]:
        raise ran_out()


def ran_out() -> OutOfTime:
    """The error saying the enclosing budget ran out before the search began."""
    budget = _DEADLINE.get()
    limit = f" ({budget[1]:g} s)" if budget is not None else ""
    return OutOfTime(f"the time limit{limit} ran out before the search began (starting, reading and replaying the record took "
                     "it all); give a larger --time-limit")
