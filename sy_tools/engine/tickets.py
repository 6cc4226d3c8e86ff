"""Transports, tickets and a piece's ticket counts (:class:`Tickets`)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class Transport(str, enum.Enum):
    """A kind of connection on the board."""

    TAXI = "taxi"
    BUS = "bus"
    UNDERGROUND = "underground"
    FERRY = "ferry"

    def __str__(self) -> str:
        return self.value


class Ticket(str, enum.Enum):
    """A ticket that moves a piece one hop.  ``BLACK`` rides any transport, the ferry included."""

    TAXI = "taxi"
    BUS = "bus"
    UNDERGROUND = "underground"
    BLACK = "black"

    def __str__(self) -> str:
        return self.value

    @property
    def transports(self) -> tuple[Transport, ...]:
        """The transports this ticket may ride."""
        if self is Ticket.BLACK:
            return tuple(Transport)
        return (Transport(self.value),)

#: The one-letter name of each move ticket, as the notation, the text output and the pictures
#: write it (keyed by the enum; its plain string value looks it up too).
TICKET_LETTERS: dict[str, str] = {Ticket.TAXI: "T", Ticket.BUS: "B", Ticket.UNDERGROUND: "U", Ticket.BLACK: "K"}

#: Tickets a detective can hold (never black, never the ferry).
DETECTIVE_TICKETS: tuple[Ticket, ...] = (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND)

#: The kinds of ticket a detective holds, as records, options and JSON spell them.
DETECTIVE_TICKET_KINDS: tuple[str, ...] = tuple(t.value for t in DETECTIVE_TICKETS)

#: Mr. X's kinds: the four move tickets and the double-move card.
MRX_TICKET_KINDS: tuple[str, ...] = (*(t.value for t in Ticket), "double")

#: Mr. X's move tickets in the order moves are listed.
MRX_MOVE_TICKETS: tuple[Ticket, ...] = (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND, Ticket.BLACK)

#: Every kind of ticket a player can hold: the four move tickets and the double-move card.
TICKET_KINDS: tuple[str, ...] = MRX_TICKET_KINDS


class _HashSlot:
    """A slot outside the dataclass's fields (so never encoded, compared or copied) where
    :class:`Tickets` keeps its hash once asked: search tables key millions of look-ups on it."""

    __slots__ = ("_hash",)
    _hash: int


@dataclass(frozen=True, slots=True)
class Tickets(_HashSlot):
    """A player's ticket counts (a value: :meth:`spend` and :meth:`gain` return new ones)."""

    taxi: int = 0
    bus: int = 0
    underground: int = 0
    black: int = 0
    double: int = 0
    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            h = hash((self.taxi, self.bus, self.underground, self.black, self.double))
            object.__setattr__(self, "_hash", h)
            return h

    @classmethod
    def of(cls, counts: Mapping[str, int] | Tickets | None) -> Tickets:
        """From a mapping such as ``{"taxi": 10, "bus": 8}`` (missing kinds are 0)."""
        if isinstance(counts, Tickets):
            return counts
        if not counts:
            return cls()
        return cls(*(int(counts.get(k, 0)) for k in TICKET_KINDS))

    def __getitem__(self, kind: Ticket | str) -> int:
        return int(getattr(self, kind.value if isinstance(kind, Ticket) else kind))

    def get(self, kind: Ticket | str, default: int = 0) -> int:
        """Mapping-style access (the count is never missing, so ``default`` is unused)."""
        return self[kind]

    def spend(self, kind: Ticket | str, n: int = 1) -> Tickets:
        """These tickets less ``n`` of ``kind`` (never below zero: the referee replays illegal
        moves and reports them itself)."""
        k = kind.value if isinstance(kind, Ticket) else kind
        return _replace_count(self, k, max(0, getattr(self, k) - n))

    def gain(self, kind: Ticket | str, n: int = 1) -> Tickets:
        """These tickets plus ``n`` of ``kind``."""
        k = kind.value if isinstance(kind, Ticket) else kind
        return _replace_count(self, k, getattr(self, k) + n)

    def held(self, kinds: Iterable[Ticket] = MRX_MOVE_TICKETS) -> tuple[Ticket, ...]:
        """The move tickets of ``kinds`` held at least once."""
        return tuple(t for t in kinds if getattr(self, t.value) > 0)

    @property
    def total(self) -> int:
        """All move tickets (the double-move card not counted)."""
        return self.taxi + self.bus + self.underground + self.black

    def to_dict(self, kinds: Iterable[str] = TICKET_KINDS) -> dict[str, int]:
        """``{kind: count}`` for ``kinds`` (detectives: ``("taxi", "bus", "underground")``)."""
        return {k: getattr(self, k) for k in kinds}

    def __repr__(self) -> str:
        return "Tickets(" + ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if v) + ")"


def _replace_count(t: Tickets, kind: str, value: int) -> Tickets:
    counts = [t.taxi, t.bus, t.underground, t.black, t.double]
    counts[TICKET_KINDS.index(kind)] = value
    return Tickets(*counts)

DETECTIVE_KINDS: tuple[str, ...] = DETECTIVE_TICKET_KINDS
