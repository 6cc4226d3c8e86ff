
"""The referee: replay a record move by move through the rules engine (``sy-tools check``).

The engine replays the record (:meth:`~sy_tools.engine.game.Game.replay`); the referee asks
:class:`~sy_tools.engine.position.Position` what is legal at each step, reports every problem it finds with
the place in the record, keeps going after an illegal move (applying it as written) so one run
shows them all, and ends with the game's outcome.  Alongside the position it follows Mr. X's
possible set (the detectives' view) to judge hidden moves, reveals and captures.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.args import instance_arg
from ..engine.game import Game, Step, StepKind, extra_reveals
from ..engine.hops import MRX, mrx_targets
from ..engine.moves import Outcome
from ..engine.position import Position
from ..engine.stations import Station, StationMask, StationSet, mask_of
from ..errors import AnalysisError
from ..findings import Finding, Level, Location
from ..formats.record import RECORD_HINT, DetectiveMove, Record, Round

#: Where inside a Mr. X move each engine problem points.
_MRX_PLACE = {"mrx-ticket": ".ticket", "mrx-connection": ".to", "mrx-ferry": ".to", "mrx-onto-detective": ".to",
              "mrx-cutoff": ".to", "voluntary-reveal": ".shown", "reveal-ticket": ".took"}

_DET_PLACE = {"det-ticket": ".ticket", "det-connection": ".to", "det-collision": ".to"}

#: One finding of the referee (the located-finding type every command shares; the old name).
Problem = Finding

#: The replay's step kinds, as plain names (read once per move)
_MRX_STEP, _DETECTIVE_STEP, _AFTER_END = StepKind.MRX, StepKind.DETECTIVE, StepKind.AFTER_END

#: Problems that mean the record lacks what it must hold (exit 2, as for unreadable input).
INPUT_PROBLEMS = frozenset({"reveal-missing"})

#: The game's status as ``check`` reports it (the engine's outcome).
Status = Outcome


@dataclass(frozen=True)
class CheckResult:
    """Everything ``check`` found.  ``legal`` means no errors (warnings allowed); ``position``
    is the game as the record leaves it (Mr. X's station known only on a full record)."""

    file: str | None
    problems: tuple[Finding, ...]
    status: Outcome
    position: Position | None = None

    @property
    def legal(self) -> bool:
        return not any(p.level == "error" for p in self.problems)

    @property
    def errors(self) -> list[Finding]:
        return [p for p in self.problems if p.level == "error"]

    @property
    def exit_code(self) -> int:
        """0 legal; 2 when the record lacks something it must hold (bad input: a reveal move
        without its station, as ``possible`` says too); 1 when it breaks the rules."""
        if self.legal:
            return 0
        return 2 if any(p.code in INPUT_PROBLEMS for p in self.errors) else 1

    @property
    def tickets(self) -> dict[str, dict[str, int]]:
        """Tickets left: each detective's taxi/bus/underground and Mr. X's five kinds."""
        return self.position.ticket_table() if self.position is not None else {}

    def to_frame(self):  # -> pandas.DataFrame
        """The problems as a pandas DataFrame: ``level``, ``code``, ``where``, ``message``."""
        import pandas as pd

        return pd.DataFrame([p.to_dict() for p in self.problems], columns=["level", "code", "where", "message"])

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "legal": self.legal, "problems": [p.to_dict() for p in self.problems],
                "status": self.status.to_dict(), "tickets": self.tickets}


class IllegalRecord(AnalysisError):
    """A record ``check`` rules illegal, refused by an analysis that answers only on legal ones
    (exit 1): the message and place are ``check``'s first error's; ``result`` is the whole verdict."""

    def __init__(self, result: CheckResult, hint: str) -> None:
        first = result.errors[0]
        self.result = result
        self.code = first.code
        more = len(result.errors) - 1
        also = f"; {more} more error{'s' if more != 1 else ''}" if more else ""
        super().__init__(f"the record is illegal: {first.message} [{first.code}{also}] ({hint})", result.file,
                         first.where)


#: what a refused record's message suggests in ``possible`` and ``heatmap`` (which take the flag)
ILLEGAL_HINT = "run 'sy-tools check' for every finding, or add --ignore-illegal to analyse it anyway"


def require_legal(record: Record, hint: str = "run 'sy-tools check' for every finding") -> CheckResult:
    """``check(record)`` when it is legal (warnings allowed) or lacks what it must hold (a
    reveal without its station: bad input, exit 2, which the analysis reports in its own words);
    :class:`IllegalRecord` otherwise, naming ``check``'s first error and its place, then ``hint``
    (what the user may do)."""
    result = check(record)
    if not result.legal and result.exit_code == 1:
        raise IllegalRecord(result, hint)
    return result


def unreadable_dict(file: str | None, findings: Iterable[Finding]) -> dict[str, Any]:
    """``check``'s JSON document for a record that can't be read or used (exit 2): ``readable``
    false, the findings that say why, no status."""
    return {"file": file, "legal": False, "readable": False, "problems": [f.to_dict() for f in findings],
            "status": None}


@dataclass
class _Replay:
    """The referee's running state: the engine's position, the detectives' view of Mr. X, and
    the problems found so far."""

    record: Record
    pos: Position
    possible: StationMask = 0
    problems: list[Finding] = field(default_factory=list)

    def error(self, code: str, where: str, msg: str) -> None:
        self.problems.append(Finding(Level.ERROR, code, msg, self.at(where)))

    def warning(self, code: str, where: str, msg: str) -> None:
        self.problems.append(Finding(Level.WARNING, code, msg, self.at(where)))

    def at(self, where: str) -> Location:
        """The record's file and the JSON path ``where``; for a text record also the line and
        round as the player wrote them (``line 5 (Red, round 2)``), which messages name."""
        place = self.record.place(where)
        return Location(self.record.file, path=where, place=place if place != where else None)

    def lost_track(self, where: str, message: str) -> None:
        """The record contradicts itself: report it and carry on knowing nothing of Mr. X."""
        self.error("inconsistent", where, message)
        self.possible = self.record.board.all_mask & ~self.pos.occupied


def check(record: Record) -> CheckResult:
    """Replay ``record`` and report every illegal or suspicious move, then the game's status.

    The engine replays it (:meth:`Game.replay`, each move applied as written); this judges each
    step and follows the detectives' view of Mr. X alongside."""
    instance_arg(record, Record, "record", RECORD_HINT)
    rp = _setup(record)
    for step in Game.replay(record, rp.pos):
        kind = step.kind
        if kind is _AFTER_END and step.piece:  # a detective's move in the round that ended the game
            dm = step.written
            rp.error("after-end", dm.where, f"{dm.name}'s move to {dm.to} in round {step.round} comes after the game "
                     f"ended ({step.before.outcome.describe()})")
            break
        if kind is _MRX_STEP or kind is _AFTER_END:  # a round begins
            _trapped_unseen(rp)
            if rp.pos.ended is not None:
                rp.error("after-end", step.written.where,
                         f"round {step.round} comes after the game ended ({rp.pos.ended.describe()})")
                break
            _mrx_turn(rp, step)
        elif kind is _DETECTIVE_STEP:
            _detective_step(rp, step)
        else:
            _absent(rp, step.piece, f"{record.rounds[step.round - 1].where}.detectives", step.round)
        rp.pos = step.after
    if rp.pos.to_move == MRX:
        _trapped_unseen(rp)
    return CheckResult(record.file, tuple(rp.problems), rp.pos.outcome, rp.pos)


def _setup(record: Record) -> _Replay:
    """The start position, and the set-up checks (shared start stations, Mr. X's start)."""
    rp = _Replay(record, Game.start(record))
    from ..formats.map_check import cutoff_warning

    partial = cutoff_warning(record.board, record.rules)
    if partial is not None:  # never silently: the rule closed only the hops the map knows
        rp.warning("via-incomplete", "rules", partial)
    seen: dict[Station, str] = {}
    for i, d in enumerate(record.detectives):
        if d.start in seen:
            rp.error("det-start-shared", f"detectives[{i}].start",
                     f"{d.name} starts on {d.start}, where {seen[d.start]} already stands")
        seen.setdefault(d.start, d.name)
    rp.possible = mask_of(record.start_candidates) & ~mask_of(seen)
    if record.mrx_start is not None:
        if record.mrx_start in seen:
            rp.error("mrx-start", "mrx.start", f"Mr. X starts on {record.mrx_start}, where {seen[record.mrx_start]} stands")
        elif record.mrx_start not in record.start_candidates:
            rp.error("mrx-start", "mrx.start", f"Mr. X's start {record.mrx_start} is not among the start candidates")
    if not rp.possible:
        rp.error("inconsistent", "mrx.start_candidates", "no start candidate is free of detectives")
    return rp


def _trapped_unseen(rp: _Replay) -> None:
    """Mr. X to move, his station unknown, and no station he may be at has a legal move: trapped
    (the engine decides this itself when it knows his station)."""
    pos = rp.pos
    if pos.ended is not None or pos.to_move != MRX or not pos.rules.trapped_loses:
        return
    if pos.mrx_at is not None:
        if not pos.mrx_can_move_from(pos.mrx_at):
            rp.pos = pos.declare_trapped(pos.mrx_at)
        return
    if rp.possible and not any(pos.mrx_can_move_from(s) for s in StationSet(rp.possible)):
        rp.pos = pos.declare_trapped(None)


def _mrx_turn(rp: _Replay, step: Step) -> None:
    """Mr. X's entry (or two): the engine's verdict, then the detectives' view of him."""
    pos, rules, board = step.before, rp.record.rules, rp.record.board
    rnd: Round = step.written
    move = step.move
    assert move is not None
    if move.is_pass:
        _mrx_pass(rp, step, f"{rnd.where}.mrx")
        return
    for code, msg, hop in pos.problems(move):
        if code == "double-allowance":
            rp.error(code, rnd.mrx[0].where, msg)
        else:
            rp.error(code, rnd.mrx[hop or 0].where + _MRX_PLACE.get(code, ""), msg)
    for code, msg, hop in extra_reveals(pos, rnd.mrx):
        rp.error(code, f"{rnd.mrx[hop or 0].where}.shown", msg)
    occupied = pos.occupied
    here = pos.mrx_at
    for leg, m in enumerate(rnd.mrx):
        n = pos.move + leg + 1
        if m.to is not None and occupied >> m.to & 1 and rules.mrx_onto_detective == "caught":
            rp.possible = 1 << m.to  # he stepped onto a detective: caught there, in the open
            break
        rp.possible = mrx_targets(board, rp.possible, m.ticket, occupied, rules)
        reveal = rules.is_reveal(n) or m.took is not None  # a fixed or a voluntary reveal
        if reveal and m.to is None:
            rp.error("reveal-missing", f"{m.where}.to",
                     f"move {n} is a reveal move: the station Mr. X showed ('to') is missing")
        if m.to is not None and here is None and not occupied >> m.to & 1 and not rp.possible >> m.to & 1:
            rp.error("reveal-unreachable" if reveal else "mrx-unreachable", f"{m.where}.to",
                     f"the record contradicts itself at move {n} (round {step.round}): no route fitting the "
                     f"record so far reaches {m.to} with a {m.ticket.value} ticket")
        if reveal and m.to is not None:
            rp.possible = 1 << m.to
        here = m.to
        if not rp.possible:
            rp.lost_track(m.where, f"the record contradicts itself at move {n} (round {step.round}): no station "
                          "is left for Mr. X")


def _mrx_pass(rp: _Replay, step: Step, where: str) -> None:
    """Mr. X passes: the engine's verdict (never under ``trapped_loses``; not where his known
    station has a move); then he had no legal move, so he is at a station of his possible set
    where he has none (:meth:`Position.trapped_stations`), and there must be one."""
    pos, move = step.before, step.move
    assert move is not None
    problems = pos.problems(move)
    for code, msg, _ in problems:
        rp.error(code, where, msg)
    if problems:
        return
    trapped = pos.trapped_stations(rp.possible)
    if not trapped:
        rp.error("mrx-pass", where, f"Mr. X passes in round {step.round}, but he has a legal move at every "
                 "station he may be at")
        return
    rp.possible = trapped


def _detective_step(rp: _Replay, step: Step) -> None:
    """A detective's move: checked against the turn order the engine keeps (moved after it was
    stuck, twice, out of turn; the detectives it skipped), the engine's verdict on the move, the
    capture flag, then the view of Mr. X."""
    pos = step.before
    dm: DetectiveMove = step.written
    if dm.name in pos.out:
        rp.error("det-after-stuck", dm.where, f"{dm.name} moves after it was stuck (out of the game)")
    elif step.repeated:
        rp.error("det-twice", dm.where, f"{dm.name} moves twice in round {step.round}")
    elif not step.in_turn:
        rp.error("det-order", dm.where, f"{dm.name} moves out of turn (order: {', '.join(pos.names)})")
    else:
        for name in step.skipped:
            _absent(rp, name, f"{rp.record.rounds[step.round - 1].where}.detectives", step.round)
    move, after = step.move, step.after
    assert move is not None
    if step.in_turn:
        for code, msg, _ in pos.problems(move):
            if code not in ("det-stuck", "turn"):  # the record's turn order is judged above
                rp.error(code, dm.where + _DET_PLACE.get(code, ""), msg)
    if dm.capture:
        if pos.mrx_at is not None and pos.mrx_at != dm.to:
            rp.error("capture-wrong", f"{dm.where}.capture",
                     f"{dm.name}'s move to {dm.to} is marked a capture, but Mr. X is at {pos.mrx_at}")
        elif not rp.possible >> dm.to & 1:
            rp.error("capture-wrong", f"{dm.where}.capture",
                     f"{dm.name}'s move to {dm.to} is marked a capture, but Mr. X cannot be there")
    elif pos.mrx_at is not None and pos.mrx_at == dm.to:
        rp.warning("capture-unmarked", dm.where,
                   f"{dm.name} lands on Mr. X at {dm.to}: a capture (mark it \"capture\": true)")
    rp.pos = after
    if after.ended is not None:
        return
    rp.possible &= ~(1 << dm.to)
    if not rp.possible:
        rp.lost_track(dm.where, f"the record contradicts itself: after {dm.name}'s move to {dm.to} in round "
                      f"{step.round} there is no station left for Mr. X (was he caught? mark the move "
                      "\"capture\": true)")


def _absent(rp: _Replay, name: str, where: str, r_i: int) -> None:
    """A detective the record skips: fine if it is stuck (out), a warning if it could move."""
    if name in rp.pos.out:
        return
    opts = rp.pos.detective_moves(name)
    if opts:
        place = rp.record.absent_place(r_i - 1, name)  # its own line in the notation, not the round's
        rp.problems.append(Finding(Level.WARNING, "det-absent", f"{name} did not move in round {r_i} although it "
                                   f"could (e.g. {opts[0].tickets[0].value} to {opts[0].to})",
                                   rp.at(where) if place is None else Location(rp.record.file, path=where, place=place)))
