
"""Where can Mr. X be?  The possible-set filter, its history and probabilities.

Semantics (the detectives' point of view; ``to`` on hidden moves is never evidence):

* start: the record's start candidates (deck minus detective starts by default);
* a Mr. X move with ticket ``t`` from set ``S``: every station joined to ``S`` by ``t``'s transports
  (black: all four, the only way onto the ferry), minus the stations detectives occupy then;
  each leg of a double move is a move, blocked by the same detective positions;
* a reveal move, or a voluntary reveal (``"shown": true``): ``S`` becomes the shown station
  (inconsistent if it isn't in ``S``);
* a pass (a round without a Mr. X move) says he had no legal move: ``S`` keeps the stations
  where he had none, the detectives' stations and his tickets as they were
  (:meth:`~sy_tools.engine.position.Position.trapped_stations`);
* a detective move onto a station removes it (no capture was announced); a move marked
  ``"capture": true`` ends the game with Mr. X there;
* an empty set means the record contradicts the map or the rules (:class:`InconsistentRecord`).

Everything on the hot path is bitset algebra on :class:`~sy_tools.engine.board.Board` masks; the route
counts of the ``paths`` weights are exact Python integers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..engine.board import Board
from ..engine.budget import check_time
from ..engine.hops import mrx_targets
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, mask_of
from ..engine.tickets import Ticket
from ..errors import AnalysisError, RecordError
from ..formats.record import MrXMove, Record

Weight = int | float  # exact route counts, or rescaled floats (see EXACT_BITS)

Share = Callable[[Board, Station, "Step"], float]

WEIGHTS: tuple[str, ...] = ("paths", "uniform", "moves")


class InconsistentRecord(AnalysisError):
    """No route of Mr. X fits the record.  ``move``/``round``/``leg`` say where it broke."""

    def __init__(self, message: str, file: str | None, where: str, move: int, round: int, leg: int | None) -> None:
        self.move = move
        self.round = round
        self.leg = leg
        super().__init__(message, file, where)


@dataclass(frozen=True)
class Capture:
    """The move that caught Mr. X."""

    station: Station
    by: str
    round: int
    where: str


class Step(NamedTuple):
    """One Mr. X move as the filter saw it (a NamedTuple: made once per move, so cheap)."""

    move: int
    round: int
    leg: int
    ticket: Ticket
    occupied: StationMask  # detectives' stations when he moved
    revealed: Station | None
    where: str


@dataclass
class Trace:
    """The forward pass over a record: the start set, each move, and the set Mr. X may hold
    after it (pruned by everything that happened before his next move)."""

    start: StationMask
    steps: list[Step] = field(default_factory=list)
    sets: list[StationMask] = field(default_factory=list)
    positions: dict[str, Station] = field(default_factory=dict)  # detectives now
    capture: Capture | None = None
    round: int = 0
    last_reveal: tuple[int, Station] | None = None

    @property
    def current(self) -> StationMask:
        return self.sets[-1] if self.sets else self.start


def _set_current(tr: Trace, S: StationMask) -> None:
    """The set after his last move is now ``S`` (before his first move, passes included: the
    start set)."""
    if tr.sets:
        tr.sets[-1] = S
    else:
        tr.start = S


def trace(record: Record) -> Trace:
    """Run the possible-set filter over ``record`` (raises :class:`InconsistentRecord`)."""
    board = record.board
    reveals = frozenset(record.rules.reveal_moves)
    pos = {d.name: d.start for d in record.detectives}
    occupied = mask_of(pos.values())
    start = mask_of(record.start_candidates) & ~occupied
    tr = Trace(start=start, positions=pos)
    if not start:
        raise InconsistentRecord("no start candidate is free of detectives", record.file, "mrx.start_candidates",
                                 0, 0, None)
    S = start
    n = 0
    passes = _before_passes(record)
    for r_i, rnd in enumerate(record.rounds, 1):
        if r_i & 255 == 0:
            check_time()  # (a command's --time-limit covers the filter on a long record)
        tr.round = r_i
        if not rnd.mrx and r_i in passes:  # he had no legal move
            S = passes[r_i].trapped_stations(S)
            if not S:
                raise InconsistentRecord(f"the record is inconsistent at round {r_i}: Mr. X passes, but he has a "
                                         "legal move at every station he may be at", record.file, f"{rnd.where}.mrx",
                                         n, r_i, None)
            _set_current(tr, S)
        for leg, m in enumerate(rnd.mrx, 1):
            n += 1
            if _onto_detective(record, m, occupied):  # (rules: caught) he steps onto one, in the open
                reach = mrx_targets(board, S, m.ticket, occupied, record.rules, onto_detectives=True)
                assert m.to is not None
                if not reach >> m.to & 1:
                    raise _inconsistent(record, m.where, n, r_i, leg, m.ticket,
                                        f"Mr. X steps onto {m.to}, which no route fitting the record reaches")
                tr.steps.append(Step(n, r_i, leg, m.ticket, occupied, m.to, m.where))
                tr.sets.append(1 << m.to)
                tr.last_reveal = (n, m.to)
                by = next(name for name, at in pos.items() if at == m.to)
                tr.capture = Capture(m.to, by, r_i, m.where)
                return tr
            S = mrx_targets(board, S, m.ticket, occupied, record.rules)
            shown = None
            if n in reveals or m.took is not None:  # a fixed or a voluntary reveal
                if m.to is None:
                    raise RecordError(f"move {n} is a reveal move: 'to' (the station Mr. X showed) is required",
                                      record.file, f"{m.where}.to")
                shown = m.to
                if not S >> shown & 1:
                    raise _inconsistent(record, m.where, n, r_i, leg, m.ticket,
                                        f"Mr. X shows himself at {shown}, which no route fitting the record reaches")
                S = 1 << shown
                tr.last_reveal = (n, shown)
            if not S:
                raise _inconsistent(record, m.where, n, r_i, leg, m.ticket,
                                    "no station is left where Mr. X can be")
            tr.steps.append(Step(n, r_i, leg, m.ticket, occupied, shown, m.where))
            tr.sets.append(S)
        for dm in rnd.detectives:
            old = pos[dm.name]
            pos[dm.name] = dm.to
            occupied = (occupied & ~(1 << old)) | (1 << dm.to)
            if dm.capture:
                if not S >> dm.to & 1:
                    raise _inconsistent(record, dm.where, n, r_i, None, dm.ticket,
                                        f"{dm.name} is said to catch Mr. X at {dm.to}, where he cannot be")
                _set_current(tr, 1 << dm.to)
                tr.capture = Capture(dm.to, dm.name, r_i, dm.where)
                return tr
            S &= ~(1 << dm.to)
            if not S:
                raise _inconsistent(record, dm.where, n, r_i, None, dm.ticket,
                                    f"{dm.name} moved to {dm.to} without catching Mr. X, and he can be nowhere else")
            _set_current(tr, S)
    tr.round = len(record.rounds)
    return tr


def _before_passes(record: Record) -> dict[int, Any]:
    """Round -> the engine's position before Mr. X's pass in it, for each round of ``record``
    where he passes (the rules engine replays the record: his tickets then, the detectives'
    stations; nothing is replayed for a record without a pass)."""
    if all(rnd.mrx for rnd in record.rounds):
        return {}
    from ..engine.game import Game, StepKind

    return {step.round: step.before for step in Game.replay(record)
            if step.kind is StepKind.MRX and step.move is not None and step.move.is_pass}


def _onto_detective(record: Record, m: MrXMove, occupied: StationMask) -> bool:
    """Whether Mr. X's move ``m`` steps onto a detective, which ends the game under
    ``mrx_onto_detective: caught`` (the move is then made in the open: its station is known)."""
    return m.to is not None and bool(occupied >> m.to & 1) and record.rules.mrx_onto_detective == "caught"


def _inconsistent(record: Record, where: str, move: int, round: int, leg: int | None, ticket: Ticket,
                  why: str) -> InconsistentRecord:
    if leg is None:
        at = f"round {round}, detectives' move ({ticket.value})"
    else:
        double = len(record.rounds[round - 1].mrx) == 2
        part = f" (leg {leg} of a double move)" if double else ""
        at = f"round {round}, Mr. X's move {move}{part}, {ticket.value} ticket"
    return InconsistentRecord(f"the record is inconsistent at {at}: {why}", record.file, where, move, round, leg)


class FinalState(NamedTuple):
    """Where Mr. X can be at the end of a record (``mask``) and what a result reports with it."""

    mask: StationMask
    moves: int
    round: int
    positions: dict[str, Station]
    last_reveal: tuple[int, Station] | None
    capture: Capture | None


def final_state(record: Record) -> FinalState:
    """Just where Mr. X can be at the end, and what the result reports with it: the hot path of
    a batch (``--weights uniform`` without history), same semantics as :func:`trace`, which it
    falls back to, to name the move, when the record is inconsistent."""
    board = record.board
    stations = {d.start for d in record.detectives}
    stations.update([dm.to for rnd in record.rounds for dm in rnd.detectives])
    if not board.neighbours[Ticket.TAXI].keys() >= stations:  # (a record built by hand may name any number)
        return _final_state_of_trace(trace(record))
    return final_state_of_parts(board, record.rules, record.detectives, record.start_candidates, record.rounds,
                                lambda: trace(record))


def _final_state_of_trace(tr: Trace) -> FinalState:
    return FinalState(tr.current, len(tr.steps), tr.capture.round if tr.capture else tr.round, dict(tr.positions),
                      tr.last_reveal, tr.capture)


def final_state_of_parts(board: Board, rules: Rules, detectives: Iterable[Any], start_candidates: Iterable[Station],
                         rounds: Iterable[Any], slow: Callable[[], Trace]) -> FinalState:
    """:func:`final_state` of a record given by its parts.  ``detectives`` may be :class:`Detective` s
    or anything with their ``name`` and ``start``; ``rounds`` :class:`Round` s or anything with
    their attributes (``mrx``: moves with ``ticket``, ``to``, ``took``;
    ``detectives``: moves with ``name``, ``to``, ``capture``; a missing list false), so that a
    batch can filter its decoded records without building them.  ``slow()`` is called wherever
    the filter needs the move-by-move trace (an inconsistent record, which it raises; a capture
    by Mr. X's own move or a pass, which it returns)."""
    reveals = rules.reveal_moves
    caught = rules.mrx_onto_detective == "caught"
    bits, clears = board.bits, board.clears
    pos = {d.name: d.start for d in detectives}
    occupied = mask_of(pos.values())
    S = mask_of(start_candidates) & ~occupied
    if not S:
        slow()  # raises, naming the move
    n = 0
    last_reveal: tuple[int, Station] | None = None
    r_i = 0
    for r_i, rnd in enumerate(rounds, 1):
        if r_i & 255 == 0:
            check_time()
        if not rnd.mrx:  # a pass: where he had no legal move, which the move-by-move trace says
            return _final_state_of_trace(slow())
        for m in rnd.mrx:
            n += 1
            if caught and m.to is not None and occupied >> m.to & 1:  # (_onto_detective, inlined: hot path)
                return _final_state_of_trace(slow())
            S = mrx_targets(board, S, m.ticket, occupied, rules)
            if n in reveals or m.took is not None:
                if m.to is None:
                    slow()  # raises: a reveal needs its station
                    break
                S &= 1 << m.to
                last_reveal = (n, m.to)
            if not S:
                slow()  # raises, naming the move
        dms = rnd.detectives
        if dms:
            moved = 0  # (the round's stations, cleared from S at once: fewer temporary masks)
            for j, dm in enumerate(dms):
                to = dm.to
                name = dm.name
                occupied = (occupied & clears[pos[name]]) | bits[to]
                pos[name] = to
                if dm.capture:
                    S &= ~moved & bits[to]
                    if not S:
                        slow()
                    where = getattr(dm, "where", None) or f"rounds[{r_i - 1}].detectives[{j}]"  # (a struct has no place)
                    return FinalState(S, n, r_i, pos, last_reveal, Capture(to, name, r_i, where))
                moved |= bits[to]
            S &= ~moved
        if not S:
            slow()
    return FinalState(S, n, r_i, pos, last_reveal, None)


def possible_mask(record: Record) -> StationMask:
    """Just the current possible set, as a mask (raises like :func:`trace`)."""
    return final_state(record).mask


#: The name of 0.1 (``final_of`` did not say of what).
final_of = final_state_of_parts
