"""Advice results, the detectives' and Mr. X's, with their text and JSON, and the facts both
advisors report (his reach and his distance from the detectives, the tickets he holds)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..analysis.distances import distances
from ..engine.board import Board
from ..engine.hops import mrx_targets
from ..engine.moves import Move
from ..engine.position import Position
from ..engine.stations import Station, StationMask, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket, Tickets
from ..formats.notation import move_entry_text
from ..formats.report_text import plural


@dataclass(frozen=True)
class DetectiveAdvice:
    """One detective's advised move (``move`` None: it has no legal move and is out)."""

    name: str
    origin: Station
    move: Move | None
    tickets_left: Tickets
    reason: str
    warning: str | None = None

    @property
    def entry(self) -> str | None:
        """The move as the play prompt reads it (``Red U 128``); None without a move."""
        return None if self.move is None else move_entry_text(self.move)

    def to_dict(self) -> dict[str, Any]:
        m = self.move
        return {"name": self.name, "from": self.origin,
                "ticket": None if m is None else m.tickets[0].value, "to": None if m is None else m.to,
                "entry": self.entry, "tickets_left": self.tickets_left.to_dict(("taxi", "bus", "underground")),
                "reason": self.reason, "warning": self.warning}

    def line(self, width: int = 0) -> str:
        """The move as typed (padded to ``width``), then ``#`` and why: the play prompt reads
        the whole line as the move (``#`` starts a comment there)."""
        if self.move is None or self.entry is None:
            if self.reason.startswith(f"{self.name} "):  # (why it cannot move, in the engine's words)
                return self.reason
            return f"{self.name} at {self.origin}: stays ({self.reason})"
        t = self.move.tickets[0]
        left = self.tickets_left[t]
        text = f"{self.entry:<{width}}  # from {self.origin}, {left} {t.value} left: {self.reason}"
        return text + (f"  WARNING: {self.warning}" if self.warning else "")


@dataclass(frozen=True)
class MrXOption:
    """One of Mr. X's moves, judged.  ``risk`` is 0 when no detective can reach where he ends
    (otherwise the share of the detectives' possible set they could land on)."""

    move: Move
    capturers: tuple[str, ...]
    trappable: bool
    possible_after: int
    nearest: int | None
    reveal: bool
    reason: str
    key: tuple[float, ...] = field(repr=False, compare=False, default=())
    #: the detectives force a capture within this many turns after the move (proved by the
    #: forced-win search over what they will know); None: not proved
    loses_within: int | None = None
    #: the stations he could move on to next that no detective reaches within two of its moves
    escape_room: int | None = None

    @property
    def safe(self) -> bool:
        """No detective can catch him next turn, whatever they do."""
        return not self.capturers

    @property
    def sound(self) -> bool:
        """Safe next turn and not a proved loss further on."""
        return self.safe and self.loses_within is None

    @property
    def entry(self) -> str:
        """The move as the play prompt reads it with his log kept (``X T 46``, ``X 2X T 45/K 46``)."""
        return move_entry_text(self.move)

    def to_dict(self) -> dict[str, Any]:
        return {**self.move.to_dict(), "entry": self.entry, "reason": self.reason, "safe": self.safe,
                "can_be_caught_by": list(self.capturers), "trappable": self.trappable,
                "possible_after": self.possible_after, "nearest_detective": self.nearest,
                "reveal": self.reveal, "spends": tickets_spent(self.move),
                "loses_within": self.loses_within, "escape_room": self.escape_room}


@dataclass(frozen=True)
class MrXPick:
    """A chooser's verdict on Mr. X's ranked options: ``index`` into them (the move he should
    play), ``note`` (one line for the player) and ``detail`` (the JSON ``search`` object)."""

    index: int
    note: str
    detail: dict[str, Any]


class MrXChooser(Protocol):
    """Chooses among the best of Mr. X's ranked options (best first, the look-ahead having
    proved or cleared at least the ``candidates`` best) before ``deadline``
    (``time.monotonic()``); None leaves the ranking's first.  The self-play policy's tree search
    is one (``sy_tools.selfplay.policies.tree_search``): the advisor takes it as a hook, since
    self-play sits above the solvers."""

    candidates: int

    def __call__(self, position: Position, possible: StationMask, options: Sequence[MrXOption],
                 deadline: float) -> MrXPick | None: ...


@dataclass(frozen=True)
class Advice:
    """What :func:`advise_detectives` or :func:`advise_mrx` found.

    ``moves``: :class:`DetectiveAdvice` per detective still to move, or Mr. X's best
    :class:`MrXOption` first.  ``status``: ``exhaustive`` (every joint move was weighed),
    ``searched`` (the candidate cap was reached) or ``time-limit`` (stopped early)."""

    side: str
    moves: tuple[Any, ...]
    possible_count: int
    reach_by_reveal: int | None
    moves_to_reveal: int | None
    distances: dict[str, int | None]
    holds: dict[str, int]
    holds_note: str
    catch: float | None
    forced: dict[str, Any] | None
    status: str
    depth: int
    depth_reached: int
    candidates: int
    wall_time: float
    summary: str
    context: dict[str, Any] = field(default_factory=dict)
    out: tuple[str, ...] = ()
    #: Mr. X: what a chooser (:class:`MrXChooser`) made of the ranking's best moves; None without one
    search: MrXPick | None = None

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (docs/cli.md, "advise")."""
        return {"side": self.side, **self.context, "summary": self.summary,
                "moves": [m.to_dict() for m in self.moves],
                "possible_count": self.possible_count, "reach_by_reveal": self.reach_by_reveal,
                "moves_to_reveal": self.moves_to_reveal, "distances": dict(self.distances),
                "out": list(self.out), "mrx_holds": dict(self.holds), "holds_note": self.holds_note,
                "catch_probability": None if self.catch is None else round(self.catch, 4),
                "forced": self.forced, "status": self.status, "depth": self.depth,
                "depth_reached": self.depth_reached, "candidates": self.candidates,
                "wall_time": round(self.wall_time, 4),
                **({"search": None if self.search is None else self.search.detail} if self.side == "mrx" else {})}

    def describe(self) -> str:
        """The advice as a player reads it."""
        lines: list[str] = []
        ctx = self.context
        if "when" in ctx:
            lines.append(f"{ctx['when']}; {'Mr. X' if self.side == 'mrx' else 'the detectives'} to move")
        mrx = self.side == "mrx"
        # (every count is said with its noun: a bare number beside a name reads as a station)
        reach = "" if self.reach_by_reveal is None else \
            f"{'; you' if mrx else ' and'} may reach {plural(self.reach_by_reveal, 'station')} by the next reveal " \
            f"({plural(self.moves_to_reveal or 0, 'move')} away)"
        who = "the detectives think you may be" if mrx else "he may be"
        lines.append(f"{who} at {plural(self.possible_count, 'station')}{reach}")
        dist = ", ".join(f"{n} {'no route' if d is None else plural(d, 'hop')}{' (out)' if n in self.out else ''}"
                         for n, d in self.distances.items())
        lines.append(f"distances {'to you' if mrx else 'to his possible set'}: {dist}")
        lines.append(f"{'you hold' if mrx else 'he holds'} {self.holds_note}")
        lines.append("")
        # each suggested move as the play prompt reads it, then '#' and why (a comment there)
        width = max((len(m.entry or "") for m in self.moves), default=0)
        if self.side == "detectives":
            lines += [m.line(width) for m in self.moves]
        else:
            for i, m in enumerate(self.moves, 1):
                lines.append(f"{m.entry:<{width}}  # {i}{', the choice' if i == 1 else ''}: {m.reason}")
        lines.append("")
        if self.search is not None:
            lines.append(self.search.note)
        lines.append(self.summary)
        if "played" in ctx:  # a past round's advice: what the record has them play instead
            lines.append(f"the record has them play: {', '.join(ctx['played']) or 'no move'}")
        stop = " (stopped at the time limit)" if self.status == "time-limit" else ""
        if mrx:
            lines.append(f"search: {self.status}{stop}, {plural(self.candidates, 'move')} weighed, {self.wall_time:.2f} s")
        else:
            lines.append(f"search: {self.status}{stop}, depth {self.depth_reached}/{self.depth}, "
                         f"{plural(self.candidates, 'joint move')} weighed, {self.wall_time:.2f} s")
        return "\n".join(lines)



def mrx_move_words(m: Move) -> str:
    """``take the taxi to 3``, ``double move: taxi to 3, then black to 4``."""
    if m.is_pass:
        return "pass"
    legs = [f"{t.value} to {s}" + (" and show yourself" if m.shown == j else "")
            for j, (t, s) in enumerate(zip(m.tickets, m.stations))]
    took = "" if m.took is None else f", taking {m.took[0]}'s {m.took[1].value} ticket"
    return ("double move: " + ", then ".join(legs) if m.is_double else "take the " + legs[0]) + took


def tickets_spent(m: Move) -> list[str]:
    out = [t.value for t in m.tickets if t is Ticket.BLACK]
    if m.is_double:
        out.append("double")
    return out


#: Hops counted between stations no detective route joins (``distances(board, FAR)``); a
#: distance this large is shown as none ("-", null).
FAR = 99


def detective_reach(board: Board, station: Station, tickets: Tickets) -> StationMask:
    """Where a detective on ``station`` holding ``tickets`` may land next (others ignored)."""
    m = 0
    for t in DETECTIVE_TICKETS:
        if tickets[t] > 0:
            m |= board.neighbours[t][station]
    return m


def detective_reach_two(board: Board, station: Station, tickets: Tickets) -> StationMask:
    """Where a detective on ``station`` holding ``tickets`` may stand after two moves in a row,
    the second paid from what the first left (others ignored): a station one move away is in it
    only if two moves also lead there, ``station`` itself if it can go and come back."""
    m = 0
    for t in DETECTIVE_TICKETS:
        if tickets[t] > 0:
            left = tickets.spend(t)
            for d in stations_of(board.neighbours[t][station]):
                m |= detective_reach(board, d, left)
    return m


#: :func:`moves_left` looks at most this many moves ahead (a rules file may deal thousands of tickets)
MOVES_AHEAD = 24

#: :func:`moves_left` remembers at most about this many (station, hand, moves to go) answers
MOVES_LEFT_TABLE = 100_000

_LONGEST: dict[int, tuple[Board, dict[tuple[int, ...], int]]] = {}


def moves_left(board: Board, station: Station, tickets: Tickets, horizon: int) -> int:
    """How many moves in a row a detective on ``station`` holding ``tickets`` can still make, up
    to ``horizon`` (and :data:`MOVES_AHEAD`), other detectives ignored: the longest walk its
    tickets pay for.  A detective that burns the tickets a station's lines need strands the
    rest of its hand: a ticket it can no longer use is a round it sits out."""
    cap = max(0, min(horizon, MOVES_AHEAD))
    got = _LONGEST.get(id(board))
    if got is None or got[0] is not board:
        if len(_LONGEST) > 4:
            _LONGEST.clear()
        got = _LONGEST[id(board)] = (board, {})
    memo = got[1]
    if len(memo) > MOVES_LEFT_TABLE:
        memo.clear()  # (memory stays bounded over a long run of varied hands)
    lists = [board._lists[t] for t in DETECTIVE_TICKETS]

    def walk(s: Station, counts: tuple[int, ...], c: int) -> int:
        counts = tuple(min(k, c) for k in counts)  # (more of a kind than moves to go changes nothing)
        key = (s, c, *counts)
        v = memo.get(key)
        if v is not None:
            return v
        best = 0
        full = min(c, sum(counts))
        for i, k in enumerate(counts):
            if k <= 0 or best >= full:
                continue
            rest = counts[:i] + (k - 1,) + counts[i + 1:]
            for d in lists[i].get(s, ()):
                best = max(best, 1 + walk(d, rest, c - 1))
                if best >= full:
                    break
        memo[key] = best
        return best

    return walk(station, tuple(tickets[t] for t in DETECTIVE_TICKETS), cap)


def max_matching(options: list[list[Station]]) -> int:
    """The most stations distinct detectives can land on (each detective one of its list)."""
    owner: dict[Station, int] = {}

    def augment(i: int, seen: set[Station]) -> bool:
        for s in options[i]:
            if s in seen:
                continue
            seen.add(s)
            if s not in owner or augment(owner[s], seen):
                owner[s] = i
                return True
        return False

    n = 0
    for i in range(len(options)):
        if options[i] and augment(i, set()):
            n += 1
    return n


def _holds_note(mt: Tickets, side: str = "detectives") -> str:
    """What Mr. X holds of his special tickets (counted with their nouns) and what it means."""
    held = "no black ticket and no double move" if not mt.black and not mt.double else \
        f"{plural(mt.black, 'black ticket')}, {plural(mt.double, 'double move')}"
    notes = []
    if side == "mrx":
        if mt.black:
            notes.append("a black ticket hides your transport: best spent right after a reveal or to cross the ferry")
        if mt.double:
            notes.append("keep the double move to escape a detective next to you, or to hide again after a reveal")
        if not notes:
            notes.append("every ticket you show is your transport")
        return held + ": " + "; ".join(notes)
    if mt.black:
        notes.append("any ticket he shows may hide any transport, and the ferry is open to him")
    if mt.double:
        notes.append("a double move lets him slip two hops before you move: a seal must hold for two")
    if not notes:
        notes.append("every ticket he shows is the transport")
    return held + ": " + "; ".join(notes)


def advice_header(pos: Position, S: StationMask, occ_after: StationMask, side: str,
                  mrx_at: Station | None = None) -> dict[str, Any]:
    """The advice's header, for either side: how many stations he may reach by the next reveal
    (detectives on ``occ_after``), the moves to it, each detective's hops to his possible set ``S``
    (or to his station ``mrx_at``), what he holds and what that means."""
    board, rules = pos.board, pos.rules
    dist = distances(board, FAR)
    nr = rules.next_reveal(pos.move)
    to_reveal = None if nr is None else nr - pos.move
    reach = None
    if to_reveal is not None:
        R = S & ~occ_after
        held = pos.mrx_tickets.held(MRX_MOVE_TICKETS)
        for _ in range(to_reveal):
            nxt = 0
            for t in held:
                nxt |= mrx_targets(board, R, t, occ_after, rules)
            R = nxt
        reach = R.bit_count()
    targets = [mrx_at] if mrx_at is not None else stations_of(S)
    dists: dict[str, int | None] = {}
    for n, s in zip(pos.names, pos.stations):
        d = min((dist[s][x] for x in targets), default=FAR)
        dists[n] = None if d >= FAR else d
    mt = pos.mrx_tickets
    return {"reach": reach, "to_reveal": to_reveal, "distances": dists,
            "holds": {"black": mt.black, "double": mt.double}, "note": _holds_note(mt, side)}
