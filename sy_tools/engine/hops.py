
"""One hop on the board: where Mr. X may go (and come from), a detective's hops, and which
names are Mr. X's.

They belong to the rules engine (:mod:`sy_tools.engine.position` builds on them);
they live in this small module so that the possible-set filter, which steps whole sets of
stations, can use them without loading the engine's classes (start-up is a large share of a
``sy-tools possible`` run over a batch of small records)."""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .rules import Rules
from .stations import Station, StationMask, StationSet
from .tickets import DETECTIVE_TICKETS, Ticket, Tickets

#: The name the engine, the CLI and JSON use for Mr. X.
MRX = "Mr. X"


def mrx_targets(board: Board, mask: StationMask, ticket: Ticket, occupied: StationMask,
                rules: Rules | None = None, onto_detectives: bool = False) -> StationMask:
    """Where Mr. X may go from any station of ``mask`` with ``ticket`` while detectives stand on
    ``occupied``: the ticket's connections (black: every transport, the ferry included), never
    onto a detective.  The possible-set filter's step.

    Under ``rules.cutoff_escape`` a connection whose line passes over a detective (the board's
    ``via`` data) is closed at that moment.  ``onto_detectives`` keeps detectives' stations
    (``mrx_onto_detective: caught``: he may step there, and is caught; the possible-set filter
    leaves this off, since such a move ends the game in the open)."""
    out = board.step(mask, ticket)
    if not onto_detectives:
        out &= ~occupied
    if rules is not None and rules.cutoff_escape and board.via:
        for b in _closed_ends(board, mask, ticket, occupied, out):
            out &= ~(1 << b)
    return out


def _closed_ends(board: Board, mask: StationMask, ticket: Ticket, occupied: StationMask,
                 reached: StationMask) -> list[Station]:
    """Stations of ``reached`` that only closed connections (passing over a detective) join to
    ``mask`` for ``ticket``."""
    closed = {(a, b, tr) for (a, b, tr), v in board.via.items() if v & occupied and tr in ticket.transports}
    if not closed:
        return []
    ends = {x for a, b, _ in closed for x in (a, b)}
    out = []
    for b in ends:
        if not reached >> b & 1:
            continue
        open_ = False
        for tr in ticket.transports:
            srcs = StationSet(board.transport_neighbours[tr].get(b, 0) & mask)
            open_ = open_ or any((min(a, b), max(a, b), tr) not in closed for a in srcs)
        if not open_:
            out.append(b)
    return out


def mrx_sources(board: Board, mask: StationMask, ticket: Ticket, occupied: StationMask = 0,
                rules: Rules | None = None) -> StationMask:
    """Stations from which Mr. X reaches some station of ``mask`` with ``ticket`` while
    detectives stand on ``occupied`` (connections are undirected and a closed one is closed both
    ways; the smoothing pass of the possible-set filter steps back with this)."""
    return mrx_targets(board, mask, ticket, occupied, rules, onto_detectives=True)


def reserved_name(name: str) -> bool:
    """Whether ``name`` would be read as Mr. X's (:data:`MRX`, however spaced or cased): no
    detective may be called that, in a record or a puzzle."""
    return "".join(name.split()).casefold() in ("mr.x", "mrx")


def detective_hops(board: Board, station: Station, tickets: Tickets) -> Iterator[tuple[Ticket, Station]]:
    """``(ticket, destination)`` for each hop a detective at ``station`` holding ``tickets`` may
    make, other detectives ignored (detectives ride taxi, bus and underground only)."""
    for t in DETECTIVE_TICKETS:
        if getattr(tickets, t.value) > 0:
            for d in board.destinations(station, t):
                yield t, d


def _bits(mask: StationMask) -> Iterator[Station]:
    """The stations of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _nth_bit(mask: StationMask, k: int) -> Station:
    """The ``k``-th lowest station of ``mask`` (0-based)."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
