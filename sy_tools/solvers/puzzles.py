"""Puzzle inputs, checked and turned into what the solvers take.

A puzzle is typed in rather than read from a record: the possible stations (``--around``, or
Mr. X's own station ``--at``), the detectives (``--detectives``), their tickets and his, the
move number and the rules, on a map.  :func:`puzzle_possible` checks the stations;
:func:`puzzle_position` gives ``solve`` and ``advise`` the engine's position and Mr. X's
possible set; :func:`cordon_puzzle_inputs` gives ``cordon`` its weights, his tickets and the
detectives.  Every error is an :class:`~sy_tools.errors.InputError` naming the flag to fix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..engine.args import count_args, int_arg, shown, station_args
from ..engine.board import Board
from ..engine.hops import reserved_name
from ..engine.position import Position
from ..engine.rules import PRESETS, Rules
from ..engine.stations import Station, StationMask, mask_of
from ..engine.tickets import TICKET_KINDS, Tickets
from ..errors import ArgumentTypeError, InputError
from .cordon_result import DetectiveState


def puzzle_detectives(board: Board, detectives: Iterable[tuple[str, Station]], limit: int = 5) -> dict[Station, str]:
    """Check a puzzle's detectives (name, station): at least one and at most ``limit``, names
    non-empty and unique, stations on the map and distinct.  Returns station -> name;
    :class:`~sy_tools.errors.InputError` naming ``--detectives`` otherwise."""
    pairs = plain_detectives(detectives)
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


def plain_detectives(detectives: Iterable[tuple[str, Station]]) -> list[tuple[str, Station]]:
    """A puzzle's detectives as (name, station) pairs of a ``str`` and a plain ``int`` (numpy's
    integers taken as theirs); :class:`TypeError` naming ``detectives`` for anything else."""
    out = []
    for pair in detectives:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and isinstance(pair[0], str)):
            raise ArgumentTypeError(f"detectives must be (name, station) pairs, got {shown(pair)}")
        out.append((pair[0], int_arg(pair[1], f"detectives: {pair[0]}'s station", 0)))
    return out


def puzzle_possible(board: Board, around: Sequence[Station] | None, detectives: Sequence[tuple[str, Station]],
                    at: Station | None = None, need_detectives: bool = True) -> StationMask:
    """Mr. X's possible set in a puzzle: the ``around`` stations (or, without them, his station
    ``at``) less the detectives' stations.  Checked in this order: ``around`` on the map, the
    detectives (:func:`puzzle_detectives`; none at all is allowed without ``need_detectives``),
    ``at`` (on the map, free, one of ``around``), a set left non-empty."""
    for s in around or ():
        if s not in board:
            raise InputError(f"station {s} is not on the map {board.name!r}", where="--around")
    taken = puzzle_detectives(board, detectives) if detectives or need_detectives else {}
    if at is not None:
        if at not in board:
            raise InputError(f"station {at} is not on the map {board.name!r}", where="--at")
        if at in taken:
            raise InputError(f"Mr. X cannot stand on {at}: {taken[at]} is there", where="--at")
        if around and at not in around:
            raise InputError(f"--at {at} is not one of the --around stations", where="--at")
    S = mask_of(s for s in (around or ([at] if at is not None else [])) if s not in taken)
    if not S:
        raise InputError("every --around station is occupied by a detective", where="--around")
    return S


def check_move_number(move_number: int, rules: Rules) -> None:
    """A puzzle's ``--move-number``: Mr. X's travel-log entries so far, from 0 to one short of a
    full log (every puzzle command shares this bound)."""
    if not 0 <= move_number < rules.log_length:
        raise InputError(f"expected a move number from 0 to {rules.log_length - 1}, got {move_number}",
                         where="--move-number")


def puzzle_position(board: Board, around: Sequence[Station] | None, detectives: Sequence[tuple[str, Station]],
                    detective_tickets: Mapping[str, int] | None = None, mrx_tickets: Mapping[str, int] | None = None,
                    move_number: int = 0, rules: Rules | None = None, at: Station | None = None,
                    mrx_to_move: bool = False) -> tuple[Position, StationMask]:
    """A puzzle's position and Mr. X's possible set (:func:`puzzle_possible`): the detectives
    (name, station) each hold ``detective_tickets`` (default: the rules'), Mr. X holds
    ``mrx_tickets`` (default: the rules' start for this many detectives) and has made
    ``move_number`` moves.  The first detective is to move, Mr. X's station unknown; with
    ``mrx_to_move`` he is to move, standing on ``at``.  ``rules`` default to classic."""
    rules = rules or PRESETS["classic"]
    around = None if around is None else station_args(around, "around")
    detectives = plain_detectives(detectives)
    at = None if at is None else int_arg(at, "at", 0)
    detective_tickets = count_args(detective_tickets, "detective_tickets", TICKET_KINDS)
    mrx_tickets = count_args(mrx_tickets, "mrx_tickets", TICKET_KINDS)
    S = puzzle_possible(board, around, detectives, at)
    move_number = int_arg(move_number, "move_number")
    check_move_number(move_number, rules)
    names = tuple(n for n, _ in detectives)
    tks = Tickets.of(detective_tickets if detective_tickets is not None else rules.detective_tickets)
    mt = Tickets.of(mrx_tickets if mrx_tickets is not None else rules.mrx_start_tickets(len(names)))
    # rounds count his turns begun: the detectives move in the round of his last move (round 1
    # before he ever moved, as a game's first round)
    rnd = move_number if mrx_to_move else max(move_number, 1)
    pos = Position(board, rules, names, tuple(s for _, s in detectives), tuple(tks for _ in names), frozenset(), mt,
                   at if mrx_to_move else None, move_number, rnd, 0, 0 if mrx_to_move else 1)
    return pos, S


def cordon_puzzle_inputs(board: Board, around: Sequence[Station], detectives: Sequence[tuple[str, Station]] = (),
                         detective_tickets: Mapping[str, int] | None = None,
                         mrx_tickets: Mapping[str, int] | None = None, rules: Rules | None = None
                         ) -> tuple[dict[Station, int], dict[str, int], list[DetectiveState]]:
    """The cordon's inputs for a puzzle (:func:`puzzle_possible`; the detectives are optional:
    without them only the cordon's size is asked): the possible stations, each weighing 1, in
    ``around``'s order; Mr. X's tickets (default: the rules' table, whatever the number of
    detectives); the detectives, each holding ``detective_tickets`` (default: the rules') and
    moving in the first planned turn.  Empty ticket tables count as not given."""
    around = station_args(around, "around")
    detectives = plain_detectives(detectives)
    detective_tickets = count_args(detective_tickets, "detective_tickets", TICKET_KINDS)
    mrx_tickets = count_args(mrx_tickets, "mrx_tickets", TICKET_KINDS)
    S = puzzle_possible(board, around, detectives, need_detectives=False)
    base = rules or PRESETS["classic"]
    tickets = dict(detective_tickets or base.detective_tickets)
    weights = {s: 1 for s in around if S >> s & 1}
    return weights, dict(mrx_tickets or base.mrx_tickets), [DetectiveState(n, s, tickets, True) for n, s in detectives]
