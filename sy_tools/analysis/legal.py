
"""What a piece may do now: the legal moves of the piece to move in a record (``sy-tools
moves``), and where a ticket takes a piece from a station (``sy-tools map neighbours``).

Both only ask the rules engine (:mod:`sy_tools.engine.position`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.stations import Station
from ..engine.tickets import Ticket
from ..errors import InputError
from ..formats.record import Record
from .record_position import record_position


@dataclass(frozen=True)
class LegalMoves:
    """The legal moves of the piece to move: ``piece`` is a detective's name or ``"Mr. X"``,
    ``origin`` its station."""

    piece: str
    origin: Station
    moves: tuple[Move, ...]
    round: int
    move: int
    #: the moment in the words every command uses ("round 3, after Mr. X's move 4")
    when: str = ""

    @property
    def singles(self) -> tuple[Move, ...]:
        return tuple(m for m in self.moves if len(m.tickets) == 1 and m.took is None)

    @property
    def doubles(self) -> tuple[Move, ...]:
        return tuple(m for m in self.moves if m.is_double and m.took is None)

    @property
    def reveals(self) -> tuple[Move, ...]:
        """Moves with a voluntary reveal (rules ``voluntary_reveal``)."""
        return tuple(m for m in self.moves if m.took is not None)

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (docs/cli.md, "moves")."""
        return {"piece": self.piece, "from": self.origin, "round": self.round, "move": self.move,
                "when": self.when, "count": len(self.moves), "moves": [m.to_dict() for m in self.moves]}

    def to_text(self, show_all: bool = False) -> str:
        """The moves as ``sy-tools moves`` prints them: the single
        moves by ticket, then the double moves (listed with ``show_all``, else counted) and the
        voluntary reveals (counted)."""
        lines = [f"{self.piece} at {self.origin} ({self.when}): {len(self.moves)} legal move{'s' if len(self.moves) != 1 else ''}"]
        if any(m.is_pass for m in self.moves):
            lines.append("  pass (no legal move; these rules let Mr. X pass)")
        for t in Ticket:
            dests = [m.to for m in self.singles if m.tickets[0] is t]
            if dests:
                lines.append(f"  {t.value}: " + " ".join(map(str, dests)))
        doubles = self.doubles
        if doubles:
            if show_all:
                lines.append(f"  double moves ({len(doubles)}):")
                lines += [f"    2X {m.tickets[0].value} {m.stations[0]} / {m.tickets[1].value} {m.stations[1]}"
                          for m in doubles]
            else:
                ends = len({m.to for m in doubles})
                lines.append(f"  double moves: {len(doubles)}, ending on {ends} stations (--all lists them)")
        if self.reveals:
            lines.append(f"  with a voluntary reveal: {len(self.reveals)} (any move above, shown, taking one detective's "
                         "ticket; JSON lists them)")
        return "\n".join(lines)


def legal_moves(record: Record, at: Station | None = None) -> LegalMoves:
    """The legal moves of the piece to move at the end of ``record``.  Mr. X's need his station:
    from a full record, or ``at``.  Raises :class:`AnalysisError` when the record is illegal or
    the game is over."""
    pos = record_position(record, at, in_progress=True)
    out = pos.outcome
    if pos.to_move == MRX:
        if pos.mrx_at is None:
            raise InputError("Mr. X is to move and the record does not say where he is: give --at STATION",
                             record.file)
        origin = pos.mrx_at
    else:
        if at is not None:
            raise InputError(f"--at places Mr. X, but {pos.to_move} is to move", record.file)
        origin = pos.detective_stations()[pos.to_move or ""]
    return LegalMoves(pos.to_move or "", origin, tuple(pos.legal_moves()), out.round, out.move, pos.when)


@dataclass(frozen=True)
class Neighbours:
    """Where each ticket takes a piece from ``station`` (black: Mr. X only; it alone rides the
    ferry)."""

    station: Station
    by_ticket: dict[Ticket, tuple[Station, ...]]

    def to_dict(self) -> dict[str, Any]:
        return {"station": self.station, "neighbours": {t.value: list(s) for t, s in self.by_ticket.items()}}

    def to_text(self) -> str:
        """``sy-tools map neighbours``: a line per ticket, its destinations (``-`` for none)."""
        lines = []
        for t, dests in self.by_ticket.items():
            note = " (Mr. X only; the only ticket for the ferry)" if t is Ticket.BLACK else ""
            lines.append(f"{t.value}{note}: {' '.join(map(str, dests)) or '-'}")
        return "\n".join(lines)


def neighbours(board: Board, station: Station, ticket: Ticket | None = None) -> Neighbours:
    """The stations one ``ticket`` hop from ``station`` (every ticket when None)."""
    if station not in board:
        raise InputError(f"station {station} is not on the map {board.name!r}", where="STATION")
    tickets = (ticket,) if ticket is not None else tuple(Ticket)
    return Neighbours(station, {t: board.destinations(station, t) for t in tickets})
