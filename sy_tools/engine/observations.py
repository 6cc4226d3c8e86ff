"""What each side sees: the observations a policy gets (OpenSpiel's observer, kept with its game)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .board import Board
from .hops import mrx_targets
from .moves import Move
from .position import Position
from .rules import Rules
from .stations import Station, StationMask, stations_of
from .tickets import Ticket, Tickets


@dataclass(frozen=True, eq=False)
class MrXObservation:
    """What Mr. X knows when he is to move: everything.  ``legal_moves`` (double moves
    included) and ``single_moves`` are listed when first asked for (tuples, unlike the lazy
    :attr:`Position.legal_moves` view: a policy looks at them many times)."""

    position: Position
    #: the stations the detectives consider possible for him now (before this move)
    possible: StationMask
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def board(self) -> Board:
        return self.position.board

    @cached_property
    def legal_moves(self) -> tuple[Move, ...]:
        return tuple(self.position.legal_moves())

    @cached_property
    def single_moves(self) -> tuple[Move, ...]:
        return tuple(self.position.legal_moves.singles())


@dataclass(frozen=True, eq=False)
class DetectiveObservation:
    """What the detectives know when detective ``to_move`` is to move.  Mr. X's station is not
    here: only what the detectives saw (tickets, reveals) and what follows from it."""

    board: Board
    rules: Rules
    to_move: str
    names: tuple[str, ...]
    stations: tuple[Station, ...]
    tickets: tuple[Tickets, ...]
    out: frozenset[str]
    mrx_tickets: Tickets
    #: the tickets Mr. X showed, one per travel-log entry
    shown: tuple[Ticket, ...]
    #: Mr. X's travel-log entry number -> the station he showed there
    reveals: Mapping[int, Station]
    #: the stations Mr. X may be at, from his start candidates, tickets and reveals
    possible: StationMask
    round: int
    move: int
    legal_moves: tuple[Move, ...]
    memo: dict[str, Any] = field(default_factory=dict)
    #: his probability per possible station (e.g. from :func:`sy_tools.analysis.possible.possible`);
    #: None: every possible station counts the same
    weights: Mapping[Station, float] | None = None

    @property
    def station(self) -> Station:
        """Where the detective to move stands."""
        return self.stations[self.names.index(self.to_move)]

    def possible_stations(self) -> list[Station]:
        return stations_of(self.possible)

    @classmethod
    def of(cls, position: Position, possible: StationMask, shown: tuple[Ticket, ...] = (),
           reveals: Mapping[int, Station] | None = None, weights: Mapping[Station, float] | None = None,
           memo: dict[str, Any] | None = None) -> DetectiveObservation:
        """The detectives' observation of ``position`` (a detective to move); Mr. X's station,
        if the position knows it, is left out."""
        if position.turn == 0 or position.ended is not None:
            raise ValueError("a detective observation needs a position where a detective is to move")
        return cls(position.board, position.rules, position.names[position.turn - 1], position.names,
                   position.stations, position.tickets, position.out, position.mrx_tickets, tuple(shown),
                   dict(reveals or {}), possible, position.round, position.move, tuple(position.legal_moves()),
                   memo if memo is not None else {}, weights)

    def position(self) -> Position:
        """A :class:`Position` of what the detectives see (``mrx_at`` None)."""
        return observed_position(self)


def observed_position(obs: Any) -> Position:
    """The :class:`Position` a detectives' observation describes, Mr. X's station unknown.  The
    double moves he used are inferred from his double tickets (the rules' start count less those
    he holds)."""
    names = tuple(obs.names)
    turn = names.index(obs.to_move) + 1
    used = max(0, int(obs.rules.mrx_tickets.get("double", 0)) - obs.mrx_tickets.double)
    return Position(obs.board, obs.rules, names, tuple(obs.stations), tuple(obs.tickets), frozenset(obs.out),
                    obs.mrx_tickets, None, obs.move, obs.round, used, turn)


def mrx_move_seen(pos: Position, possible: StationMask, move: Move
                  ) -> Iterator[tuple[int, Ticket, StationMask, Station | None]]:
    """Mr. X's ``move`` from ``pos`` as the detectives see it, leg by leg: the log entry, the
    ticket shown, their possible set after it (``possible`` is the set before the move), and
    the station shown when the leg is a reveal, fixed or voluntary (else None)."""
    occ = pos.occupied
    for leg, (t, to) in enumerate(zip(move.tickets, move.stations), pos.move + 1):
        possible = mrx_targets(pos.board, possible, t, occ, pos.rules)
        seen = to if (pos.rules.is_reveal(leg) or move.shown == leg - pos.move - 1) else None
        if seen is not None:
            possible = 1 << seen
        yield leg, t, possible, seen
