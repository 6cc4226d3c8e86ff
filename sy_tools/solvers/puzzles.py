"""Puzzle positions: the detectives of a puzzle, checked."""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.board import Board
from ..engine.movement import reserved_name
from ..engine.stations import Station


def puzzle_detectives(board: Board, detectives: Iterable[tuple[str, Station]], limit: int = 5) -> dict[Station, str]:
    """Check a puzzle's detectives (name, station): at least one and at most ``limit``, names
    non-empty and unique, stations on the map and distinct.  Returns station -> name;
    :class:`~sy_tools.errors.InputError` naming ``--detectives`` otherwise."""
    from ..errors import InputError

    pairs = list(detectives)
    if not pairs:
        raise InputError("give the detectives, e.g. Red=13,Blue=26", where="--detectives")
    if len(pairs) > limit:
        raise InputError(f"at most {limit} detectives, got {len(pairs)}", where="--detectives")
    taken: dict[Station, str] = {}
    names: set[str] = set()
    for name, s in pairs:
        if not name or not name.strip():
            raise InputError("a detective needs a name", where="--detectives")
        if name in names:
            raise InputError(f"detective {name!r} is named twice", where="--detectives")
        if reserved_name(name):
            raise InputError(f"a detective cannot be called {name!r}: the name is Mr. X's", where="--detectives")
        names.add(name)
        if s not in board:
            raise InputError(f"{name}: station {s} is not on the map {board.name!r}", where="--detectives")
        if s in taken:
            raise InputError(f"{name} and {taken[s]} both stand on {s}", where="--detectives")
        taken[s] = name
    return taken
