"""The referee: replay a record move by move under the rules and the map (``sy-tools check``).

It reports every problem it finds with the place in the record, keeps going after an illegal
move (applying it as written) so one run shows them all, and ends with the game's status.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from .board import Board, Station, StationMask, Ticket, Transport, mask_of
from .record import DetectiveMove, Record

Level = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One finding of the referee."""

    level: Level
    code: str
    where: str
    message: str

    def line(self, file: str | None) -> str:
        return ": ".join(p for p in (file, self.where, f"{self.level}: {self.message} [{self.code}]") if p)

    def to_dict(self) -> dict[str, str]:
        return {"level": self.level, "code": self.code, "where": self.where, "message": self.message}


@dataclass(frozen=True)
class Status:
    """Where the game stands.  ``state``: ``in-progress``, ``detectives-won`` or ``mrx-won``."""

    state: str
    reason: str  # in-progress: "mrx-to-move" / "detective-to-move"; won: capture, trapped, log-full, detectives-stuck
    round: int
    move: int  # Mr. X moves made
    to_move: str | None = None  # "mrx" or a detective's name, while in progress
    by: str | None = None  # the capturing detective
    station: Station | None = None  # where Mr. X was caught or trapped

    def describe(self) -> str:
        if self.state == "in-progress":
            who = "Mr. X" if self.to_move == "mrx" else self.to_move
            nxt = f" (his move {self.move + 1})" if self.to_move == "mrx" else ""
            return f"in progress: round {self.round}, {who} to move{nxt}"
        if self.reason == "capture":
            return f"detectives won: {self.by} caught Mr. X at {self.station} in round {self.round}"
        if self.reason == "trapped":
            at = f" at {self.station}" if self.station is not None else ""
            return f"detectives won: Mr. X trapped{at} in round {self.round} (no legal move)"
        if self.reason == "log-full":
            return f"Mr. X won: his travel log is full ({self.move} moves, round {self.round})"
        return f"Mr. X won: no detective can move any more (round {self.round})"

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "reason": self.reason, "round": self.round, "move": self.move,
                "to_move": self.to_move, "by": self.by, "station": self.station, "text": self.describe()}


@dataclass(frozen=True)
class GameState:
    """The position at the end of the record, as the detectives see it."""

    positions: dict[str, Station]
    detective_tickets: dict[str, dict[str, int]]
    mrx_tickets: dict[str, int]
    out: frozenset[str]  # detectives stuck for good
    mrx_at: Station | None  # known only on a full record


@dataclass(frozen=True)
class CheckResult:
    """Everything ``check`` found.  ``legal`` means no errors (warnings allowed)."""

    file: str | None
    problems: tuple[Problem, ...]
    status: Status
    state: GameState | None = None

    @property
    def legal(self) -> bool:
        return not any(p.level == "error" for p in self.problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "error"]

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "legal": self.legal, "problems": [p.to_dict() for p in self.problems],
                "status": self.status.to_dict()}


@dataclass
class _State:
    board: Board
    pos: dict[str, Station]
    tickets: dict[str, Counter[str]]
    out: set[str] = field(default_factory=set)  # stuck detectives (out for good)
    mrx_tickets: Counter[str] = field(default_factory=Counter)
    mrx_at: Station | None = None
    possible: StationMask = 0
    moves: int = 0
    doubles: int = 0

    def occupied(self, but: str | None = None) -> StationMask:
        return mask_of(s for n, s in self.pos.items() if n != but)

    def detective_options(self, name: str) -> list[tuple[Ticket, Station]]:
        blocked = self.occupied(but=name)
        here = self.pos[name]
        return [
            (t, d)
            for t in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND)
            if self.tickets[name][t.value] > 0
            for d in self.board.moves(here, t)
            if not blocked >> d & 1
        ]

    def mrx_exits(self, station: Station) -> StationMask:
        occ = self.occupied()
        out = 0
        for t in Ticket:
            if self.mrx_tickets[t.value] > 0:
                out |= self.board.neighbours[t][station]
        return out & ~occ


def check(record: Record) -> CheckResult:
    """Replay ``record`` and report every illegal or suspicious move, then the game's status."""
    board, rules = record.board, record.rules
    names = [d.name for d in record.detectives]
    st = _State(
        board=board,
        pos={d.name: d.start for d in record.detectives},
        tickets={d.name: Counter(d.tickets) for d in record.detectives},
        mrx_tickets=Counter(record.mrx_tickets),
    )
    probs: list[Problem] = []

    def error(code: str, where: str, msg: str) -> None:
        probs.append(Problem("error", code, where, msg))

    def warning(code: str, where: str, msg: str) -> None:
        probs.append(Problem("warning", code, where, msg))

    # ---- set-up --------------------------------------------------------------------------
    seen: dict[Station, str] = {}
    for i, d in enumerate(record.detectives):
        if d.start in seen:
            error("det-start-shared", f"detectives[{i}].start",
                  f"{d.name} starts on {d.start}, where {seen[d.start]} already stands")
        seen.setdefault(d.start, d.name)
    st.possible = mask_of(record.start_candidates) & ~mask_of(seen)
    if record.mrx_start is not None:
        if record.mrx_start in seen:
            error("mrx-start", "mrx.start", f"Mr. X starts on {record.mrx_start}, where {seen[record.mrx_start]} stands")
        elif record.mrx_start not in record.start_candidates:
            error("mrx-start", "mrx.start", f"Mr. X's start {record.mrx_start} is not among the start candidates")
        st.mrx_at = record.mrx_start
    if not st.possible:
        error("inconsistent", "mrx.start_candidates", "no start candidate is free of detectives")

    status: Status | None = None
    double_allowance = min(record.mrx_tickets.get("double", 0), rules.double_moves_per_game)
    n_rounds = len(record.rounds)

    for r_i, rnd in enumerate(record.rounds, 1):
        if status is not None:
            error("after-end", rnd.where, f"round {r_i} comes after the game ended ({status.describe()})")
            break
        # ---- Mr. X is trapped before he moves? -------------------------------------------
        trapped_at = _trapped(st)
        if trapped_at is not False:
            if rules.trapped_loses:
                status = Status("detectives-won", "trapped", r_i - 1, st.moves, station=trapped_at)
                error("after-end", rnd.where, f"round {r_i} comes after the game ended ({status.describe()})")
                break
        # ---- Mr. X ---------------------------------------------------------------------------
        if len(rnd.mrx) == 2:
            if rules.double_moves_per_round < 1:
                error("double-allowance", rnd.mrx[0].where, "these rules allow no double move in a round")
            elif st.doubles >= double_allowance:
                error("double-allowance", rnd.mrx[0].where,
                      f"a double move beyond the allowance ({double_allowance} per game, "
                      f"{st.doubles} used; double tickets held {st.mrx_tickets['double']})")
            st.doubles += 1
            st.mrx_tickets["double"] -= 1
        occupied = st.occupied()
        for m in rnd.mrx:
            st.moves += 1
            n = st.moves
            if n > rules.log_length:
                error("log-full", m.where, f"move {n}: the travel log holds only {rules.log_length} moves")
            if st.mrx_tickets[m.ticket.value] <= 0:
                error("mrx-ticket", f"{m.where}.ticket",
                      f"move {n}: Mr. X has no {m.ticket.value} ticket left")
            st.mrx_tickets[m.ticket.value] -= 1
            st.possible = board.step(st.possible, m.ticket) & ~occupied
            reveal = rules.is_reveal(n)
            if reveal and m.to is None:
                error("reveal-missing", f"{m.where}.to",
                      f"move {n} is a reveal move: the station Mr. X showed ('to') is missing")
            if m.to is not None:
                if st.mrx_at is not None:
                    _check_mrx_hop(st, m.ticket, m.to, occupied, n, f"{m.where}.to", error)
                elif occupied >> m.to & 1:
                    error("mrx-onto-detective", f"{m.where}.to", f"move {n}: Mr. X moves onto a detective at {m.to}")
                elif not st.possible >> m.to & 1:
                    code = "reveal-unreachable" if reveal else "mrx-unreachable"
                    error(code, f"{m.where}.to",
                          f"the record contradicts itself at move {n} (round {r_i}): no route fitting the "
                          f"record so far reaches {m.to} with a {m.ticket.value} ticket")
                if reveal:
                    st.possible = 1 << m.to
                st.mrx_at = m.to
            else:
                st.mrx_at = None
            if not st.possible:
                error("inconsistent", m.where,
                      f"the record contradicts itself at move {n} (round {r_i}): no station is left for Mr. X")
                st.possible = board.all_mask & ~occupied  # carry on with no knowledge
        # ---- detectives ----------------------------------------------------------------------
        moved: set[str] = set()
        turn = 0  # index into names of the next detective due
        for dm in rnd.detectives:
            i = names.index(dm.name)
            if dm.name in st.out:
                error("det-after-stuck", dm.where, f"{dm.name} moves after it was stuck (out of the game)")
            elif dm.name in moved:
                error("det-twice", dm.where, f"{dm.name} moves twice in round {r_i}")
            elif i < turn:
                error("det-order", dm.where,
                      f"{dm.name} moves out of turn (order: {', '.join(names)})")
            else:
                for skipped in names[turn:i]:
                    _absent(st, skipped, rnd.where, r_i, warning)
                turn = i + 1
            moved.add(dm.name)
            capture = _detective_move(st, dm, record, error, warning)
            if capture:
                status = Status("detectives-won", "capture", r_i, st.moves, by=dm.name, station=dm.to)
                break
            st.possible &= ~(1 << dm.to)
            if not st.possible:
                error("inconsistent", dm.where,
                      f"the record contradicts itself: after {dm.name}'s move to {dm.to} in round {r_i} "
                      "there is no station left for Mr. X (was he caught? mark the move \"capture\": true)")
                st.possible = board.all_mask & ~st.occupied()
        if status is not None:
            continue
        last_round = r_i == n_rounds
        if not last_round:
            for skipped in names[turn:]:
                _absent(st, skipped, rnd.where, r_i, warning)
        else:
            # remaining detectives have not moved yet, unless they are stuck
            for nm in names[turn:]:
                if nm in st.out:
                    continue
                if st.detective_options(nm):
                    status = Status("in-progress", "detective-to-move", r_i, st.moves, to_move=nm)
                    break
                st.out.add(nm)
        if status is not None:
            break
        if st.moves >= rules.log_length:
            status = Status("mrx-won", "log-full", r_i, st.moves)
        elif all(nm in st.out or not st.detective_options(nm) for nm in names):
            status = Status("mrx-won", "detectives-stuck", r_i, st.moves)

    if status is None:
        trapped_at = _trapped(st)
        if trapped_at is not False and rules.trapped_loses:
            status = Status("detectives-won", "trapped", n_rounds, st.moves, station=trapped_at)
        else:
            status = Status("in-progress", "mrx-to-move", n_rounds + 1, st.moves, to_move="mrx")
    final = GameState(
        positions=dict(st.pos),
        detective_tickets={n: {k: max(0, v) for k, v in c.items()} for n, c in st.tickets.items()},
        mrx_tickets={k: max(0, v) for k, v in st.mrx_tickets.items()},
        out=frozenset(st.out),
        mrx_at=st.mrx_at,
    )
    return CheckResult(record.file, tuple(probs), status, final)


def _trapped(st: _State) -> Station | None | bool:
    """False if Mr. X may have a legal move; else the station he is trapped at (None when only
    known to lie in the possible set)."""
    if st.mrx_at is not None:
        return st.mrx_at if not st.mrx_exits(st.mrx_at) else False
    if not st.possible:
        return False
    m = st.possible
    while m:
        low = m & -m
        if st.mrx_exits(low.bit_length() - 1):
            return False
        m ^= low
    return None


def _absent(st: _State, name: str, where: str, r_i: int, warning: Any) -> None:
    if name in st.out:
        return
    opts = st.detective_options(name)
    if opts:
        warning("det-absent", where, f"{name} did not move in round {r_i} although it could "
                f"(e.g. {opts[0][0].value} to {opts[0][1]})")
    else:
        st.out.add(name)


def _detective_move(st: _State, dm: DetectiveMove, record: Record, error: Any, warning: Any) -> bool:
    """Apply one detective move, reporting what is wrong with it.  Returns True on a capture."""
    board = st.board
    here = st.pos[dm.name]
    t = dm.ticket
    if t is Ticket.BLACK:
        error("det-ticket", f"{dm.where}.ticket", f"{dm.name} moves with a black ticket; detectives have none")
    elif st.tickets[dm.name][t.value] <= 0:
        error("det-ticket", f"{dm.where}.ticket", f"{dm.name} has no {t.value} ticket left")
    if dm.to not in board.moves(here, t):
        kinds = sorted(x.value for x in board.transports_between(here, dm.to))
        has = f" (only {', '.join(kinds)})" if kinds else ""
        error("det-connection", f"{dm.where}.to",
              f"{dm.name} moves {here} -> {dm.to} by {t.value}, but there is no such connection{has}")
    other = next((n for n, s in st.pos.items() if s == dm.to and n != dm.name), None)
    if other is not None:
        error("det-collision", f"{dm.where}.to", f"{dm.name} moves onto {dm.to}, where {other} stands")
    st.tickets[dm.name][t.value] -= 1
    if record.rules.tickets_to_mrx and t is not Ticket.BLACK:
        st.mrx_tickets[t.value] += 1
    st.pos[dm.name] = dm.to
    if dm.capture:
        if st.mrx_at is not None and st.mrx_at != dm.to:
            error("capture-wrong", f"{dm.where}.capture",
                  f"{dm.name}'s move to {dm.to} is marked a capture, but Mr. X is at {st.mrx_at}")
        elif not st.possible >> dm.to & 1:
            error("capture-wrong", f"{dm.where}.capture",
                  f"{dm.name}'s move to {dm.to} is marked a capture, but Mr. X cannot be there")
        return True
    if st.mrx_at is not None and st.mrx_at == dm.to:
        warning("capture-unmarked", dm.where,
                f"{dm.name} lands on Mr. X at {dm.to}: a capture (mark it \"capture\": true)")
        return True
    return False


def _check_mrx_hop(st: _State, t: Ticket, to: Station, occupied: StationMask, n: int, where: str, error: Any) -> None:
    board = st.board
    here = st.mrx_at
    assert here is not None
    if to not in board.moves(here, t):
        kinds = board.transports_between(here, to)
        if kinds == {Transport.FERRY}:
            error("mrx-ferry", where, f"move {n}: {here} -> {to} is a ferry crossing, which needs a black ticket, "
                  f"not {t.value}")
        else:
            has = f" (only {', '.join(sorted(k.value for k in kinds))})" if kinds else ""
            error("mrx-connection", where, f"move {n}: Mr. X moves {here} -> {to} by {t.value}, "
                  f"but there is no such connection{has}")
    if occupied >> to & 1:
        error("mrx-onto-detective", where, f"move {n}: Mr. X moves onto a detective at {to}")
