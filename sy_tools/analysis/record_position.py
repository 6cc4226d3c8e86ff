"""The position a record reached: the one way the commands and solvers that need a position
(``moves``, ``advise``, ``solve``, ``cordon``) turn a record into one.  The record must be
legal (the referee decides), and Mr. X may be placed on a station the record leaves him."""

from __future__ import annotations

from ..engine.args import int_arg
from ..engine.position import Position
from ..engine.stations import Station
from ..errors import AnalysisError, InputError
from ..formats.record import Record


def record_position(record: Record, at: Station | None = None, in_progress: bool = False) -> Position:
    """The engine's position at the end of ``record`` (which must be legal), with Mr. X placed
    at ``at`` when given (it must be a station where he may be); with ``in_progress`` the game
    must not be over.  :class:`AnalysisError` (an illegal record, a game over) or
    :class:`InputError` (a bad ``--at``) otherwise.  The one place that turns a record into a
    position: ``moves``, ``advise``, ``solve`` and ``cordon`` all read records through it."""
    from .referee import check

    result = check(record)
    if not result.legal:
        first = result.errors[0]
        raise AnalysisError(f"the record is illegal: {first.message} (run 'sy-tools check')", record.file,
                            first.where)
    pos = result.position
    assert pos is not None
    if at is not None:
        pos = _placed(record, pos, int_arg(at, "at", 0))
    if in_progress and pos.outcome.over:
        raise AnalysisError(f"the game is over: {pos.outcome.describe()}", record.file)
    return pos


def _placed(record: Record, pos: Position, at: Station) -> Position:
    """``pos`` with Mr. X at ``at``, which must be a station the record leaves him."""
    from .possible import possible

    if at not in record.board:
        raise InputError(f"station {at} is not on the map {record.board.name!r}", record.file, "--at")
    if pos.mrx_at is not None and pos.mrx_at != at:
        raise InputError(f"the record says Mr. X is at {pos.mrx_at}, not {at}", record.file, "--at")
    if pos.mrx_at is None:
        where = possible(record, weights="uniform")
        if at not in where.stations:
            shown = " ".join(map(str, where.stations[:12])) + (" ..." if len(where.stations) > 12 else "")
            raise InputError(f"Mr. X cannot be at {at}: the record leaves him {len(where.stations)} possible "
                             f"station(s): {shown}", record.file, "--at")
    return pos.with_mrx_at(at)
