"""Moves (:class:`Move`) and game outcomes (:class:`Outcome`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NamedTuple

from .args import integer
from .args import shown as _shown
from .hops import MRX
from .stations import Station
from .tickets import TICKET_LETTERS, Ticket


def plain_move(move: Any) -> Move | str:
    """``move`` as a plain :class:`Move` of plain values, or why it can't be one (one line).

    What a plug-in policy returns is checked here before any rule looks at it: stations must be
    integers (anything :func:`operator.index` takes, e.g. numpy's, becomes its ``int``; not a
    bool, a float or a string) and not negative, or None; tickets :class:`Ticket` s (or their
    names, ``"taxi"``); the piece a string.  A subclass of :class:`Move` becomes a plain one,
    so its own ``__eq__`` or fields can't pass for a legal move."""
    if not isinstance(move, Move):
        return f"not a Move: {_shown(move)}"
    piece, tickets, stations, shown, took = move.piece, move.tickets, move.stations, move.shown, move.took
    if (type(move) is Move and type(piece) is str and shown is None and took is None  # (the engine's own: fast)
            and type(tickets) is tuple and type(stations) is tuple
            and all(type(t) is Ticket for t in tickets) and all(type(s) is int and s >= 0 for s in stations)):
        return move
    if type(piece) is not str:
        return f"the piece must be a name (a str), got {_shown(piece)}"
    if not isinstance(tickets, tuple) or not isinstance(stations, tuple):
        return "tickets and stations must be tuples"
    plain_tickets = []
    for t in tickets:
        ticket = _ticket(t)
        if ticket is None:
            return f"not a ticket: {_shown(t)} (expected one of {', '.join(k.value for k in Ticket)})"
        plain_tickets.append(ticket)
    plain_stations: list[Station | None] = []
    for s in stations:
        if s is None:
            plain_stations.append(None)
            continue
        n = integer(s)  # (an __index__ that raises is no integer: a forfeit, never a traceback)
        if n is None:
            return f"a station must be an integer, got {_shown(s)}"
        if n < 0:
            return f"a station must not be negative, got {n}"
        plain_stations.append(n)
    if shown is not None and (type(shown) is not int or shown not in (0, 1)):  # (the type first: no odd __eq__ runs)
        return f"'shown' must be the hop 0 or 1, got {_shown(shown)}"
    plain_took = None
    if took is not None:
        taken = _ticket(took[1]) if isinstance(took, tuple) and len(took) == 2 and type(took[0]) is str else None
        if taken is None:
            return f"'took' must be (detective, ticket), got {_shown(took)}"
        plain_took = (took[0], taken)
    return Move(piece, tuple(plain_tickets), tuple(plain_stations), shown, plain_took)


def _ticket(t: Any) -> Ticket | None:
    if isinstance(t, Ticket):
        return Ticket(t.value)
    if type(t) is str:
        try:
            return Ticket(t)
        except ValueError:
            return None
    return None


def when_text(rounds: int, moves: int) -> str:
    """The one wording for a moment of a game, the same in every command and picture title:
    ``rounds`` as ``--round N`` counts them (the rounds a record holds, the last one perhaps
    under way) and the moves Mr. X has made: "round 3, after Mr. X's move 4"."""
    if moves == 0:
        return "before Mr. X's first move"
    return f"round {rounds}, after Mr. X's move {moves}"


@dataclass(frozen=True, slots=True)
class Move:
    """A move of one piece: a ticket and a station per hop (a double move has two of each).

    ``stations`` holds None for a hop whose destination is unknown (Mr. X's hidden moves in a
    detectives' record).  A move with no tickets is a pass (Mr. X trapped, where the rules let
    him pass)."""

    piece: str
    tickets: tuple[Ticket, ...]
    stations: tuple[Station | None, ...]
    #: voluntary reveal (``rules.voluntary_reveal``): the hop (0 or 1) after which Mr. X shows
    #: himself, and the detective and ticket he takes in return
    shown: int | None = None
    took: tuple[str, Ticket] | None = None

    @classmethod
    def mrx(cls, *hops: tuple[Ticket | str, Station | None]) -> Move:
        """Mr. X's move: ``Move.mrx((Ticket.TAXI, 86))`` or two hops for a double move."""
        return cls(MRX, tuple(Ticket(t) for t, _ in hops), tuple(s for _, s in hops))

    @classmethod
    def detective(cls, name: str, ticket: Ticket | str, to: Station) -> Move:
        """A detective's move."""
        return cls(name, (Ticket(ticket),), (to,))

    @property
    def is_double(self) -> bool:
        return len(self.tickets) == 2

    @property
    def is_pass(self) -> bool:
        return not self.tickets

    @property
    def to(self) -> Station | None:
        """Where the piece ends up (None when unknown or a pass)."""
        return self.stations[-1] if self.stations else None

    def to_dict(self) -> dict[str, Any]:
        """``{"tickets": [...], "stations": [...]}`` (the ``moves`` JSON entry)."""
        d: dict[str, Any] = {"tickets": [t.value for t in self.tickets], "stations": list(self.stations)}
        if self.shown is not None:
            d["shown"] = self.shown
        if self.took is not None:
            d["took"] = {"from": self.took[0], "ticket": self.took[1].value}
        return d

    def revealing(self, hop: int, detective: str, ticket: Ticket | str) -> Move:
        """This move with a voluntary reveal after ``hop``, taking ``ticket`` from ``detective``."""
        return Move(self.piece, self.tickets, self.stations, hop, (detective, Ticket(ticket)))

    def __str__(self) -> str:
        if self.is_pass:
            return f"{self.piece}: pass"
        hops = " ".join(f"-{TICKET_LETTERS[t]}-> {s if s is not None else '?'}" for t, s in zip(self.tickets, self.stations))
        shown = "" if self.took is None else f" (shows himself, takes {self.took[0]}'s {self.took[1].value})"
        return f"{self.piece} {'2X ' if self.is_double else ''}{hops}{shown}"



class Illegal(NamedTuple):
    """Why a move is illegal: a code, a message quoting the move, and which hop (0 or 1 of a
    double move; None for the move as a whole)."""

    code: str
    message: str
    hop: int | None = None


class OutcomeKind(str, enum.Enum):
    """How a game stands."""

    IN_PROGRESS = "in-progress"
    CAPTURE = "capture"
    TRAPPED = "trapped"
    DETECTIVES_STUCK = "detectives-stuck"
    LOG_FULL = "log-full"

    def __str__(self) -> str:
        return self.value

    @property
    def winner(self) -> str | None:
        """``"detectives"``, ``"mrx"``, or None while in progress."""
        if self is OutcomeKind.IN_PROGRESS:
            return None
        return "detectives" if self in (OutcomeKind.CAPTURE, OutcomeKind.TRAPPED) else "mrx"


@dataclass(frozen=True)
class Outcome:
    """How the game stands: its kind, who (the capturing detective, or who is to move), where
    (capture or trap station, when known) and when: ``round``, the rounds played (the last one
    perhaps under way; as ``--round N`` and ``possible`` count them), and ``move``, Mr. X's moves."""

    kind: OutcomeKind
    round: int
    move: int
    by: str | None = None
    station: Station | None = None
    to_move: str | None = None  # in progress: MRX or a detective's name

    @property
    def over(self) -> bool:
        return self.kind is not OutcomeKind.IN_PROGRESS

    @property
    def winner(self) -> str | None:
        return self.kind.winner

    @property
    def state(self) -> str:
        """``in-progress``, ``detectives-won`` or ``mrx-won``."""
        w = self.winner
        return "in-progress" if w is None else f"{w}-won"

    @property
    def reason(self) -> str:
        """The kind, or in progress ``mrx-to-move`` / ``detective-to-move``."""
        if self.kind is OutcomeKind.IN_PROGRESS:
            return "mrx-to-move" if self.to_move == MRX else "detective-to-move"
        return self.kind.value

    def describe(self) -> str:
        """One line a player can read."""
        k = self.kind
        if k is OutcomeKind.IN_PROGRESS:
            return f"in progress: {when_text(self.round, self.move)}; {self.to_move} to move"
        if k is OutcomeKind.CAPTURE:
            return f"detectives won: {self.by} caught Mr. X at {self.station} in round {self.round}"
        if k is OutcomeKind.TRAPPED:
            at = f" at {self.station}" if self.station is not None else ""
            return f"detectives won: Mr. X trapped{at} in round {self.round} (no legal move)"
        if k is OutcomeKind.LOG_FULL:
            return f"Mr. X won: his travel log is full ({self.move} moves, round {self.round})"
        return f"Mr. X won: no detective can move any more (round {self.round})"

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (``check --format json``'s ``status``)."""
        return {"state": self.state, "reason": self.reason, "round": self.round, "move": self.move,
                "to_move": None if self.kind is not OutcomeKind.IN_PROGRESS else
                "mrx" if self.to_move == MRX else self.to_move,
                "by": self.by, "station": self.station, "text": self.describe()}


@dataclass(frozen=True)
class Stuck:
    """Why a detective cannot move (:meth:`Position.stuck <sy_tools.engine.position.Position.stuck>`).

    ``tickets`` are the taxi, bus and underground tickets it holds; ``lines`` the detectives'
    transports that leave its station; ``blockers`` the detectives, with their stations, on every
    station a ticket it holds would take it to (empty: no ticket it holds rides a line from
    there); ``out`` whether it is out for the rest of the game (else it waits: it skips its turns
    until a move opens up); ``earlier`` that it is out since an earlier turn although it could
    move now (``blocked_detective: out``); ``rule`` the ``blocked_detective`` rule."""

    name: str
    station: Station
    tickets: dict[str, int]
    lines: tuple[str, ...]
    blockers: tuple[tuple[str, Station], ...]
    out: bool
    earlier: bool = False
    rule: str = "waits"

    @property
    def reason(self) -> str:
        """``blocked`` (other detectives hold every station it could reach), ``no-ticket`` (no
        ticket it holds rides a line from its station) or ``out-earlier``."""
        return "out-earlier" if self.earlier else "blocked" if self.blockers else "no-ticket"

    def describe(self) -> str:
        """The sentence a player reads, e.g. "Green cannot move from 108: every station it can
        reach is held by Blue (105) or Red (89); it waits, and moves again once a move opens up
        (blocked_detective: waits)"."""
        if self.earlier:
            return (f"{self.name} is out for the rest of the game: it had no legal move on an earlier turn "
                    f"(blocked_detective: {self.rule})")
        head = f"{self.name} cannot move from {self.station}: "
        if self.blockers:
            who = _listed([f"{n} ({s})" for n, s in self.blockers], "or")
            why = f"every station it can reach is held by {who}"
            if self.out:
                return f"{head}{why}; out for the rest of the game (blocked_detective: {self.rule})"
            return f"{head}{why}; it waits, and moves again once a move opens up (blocked_detective: {self.rule})"
        held = ", ".join(f"{k} {n}" for k, n in self.tickets.items() if n > 0)
        if not held:
            why = "it has no tickets left"
        elif not self.lines:
            why = f"no taxi, bus or underground line leaves {self.station}"
        else:
            why = f"only {_listed(self.lines, 'and')} lines leave {self.station}, and it holds no such ticket (it holds {held})"
        return f"{head}{why}; out for the rest of the game"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the fields, ``reason`` and ``text`` (:meth:`describe`)."""
        return {"name": self.name, "station": self.station, "reason": self.reason, "out": self.out,
                "blockers": [{"name": n, "station": s} for n, s in self.blockers], "text": self.describe()}


def _listed(words: tuple[str, ...] | list[str], last: str) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last``: the word before the last one)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"
