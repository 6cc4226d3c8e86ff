"""How many moves a piece needs to reach each station (with or without ticket limits), and the
detectives' coverage of the board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .board import DETECTIVE_TICKETS, Board, Station, StationSet, Ticket

TicketVector = tuple[int, ...]


def reach(board: Board, start: Station, tickets: Mapping[str, int] | None = None,
          kinds: Sequence[Ticket] = DETECTIVE_TICKETS, max_moves: int = 30) -> dict[Station, int]:
    """Fewest moves from ``start`` to every reachable station.

    ``tickets`` (e.g. ``{"taxi": 10, "bus": 8, "underground": 4}``) limits how often each kind
    may be used; None means unlimited.  ``kinds`` are the tickets the piece may use (add
    ``Ticket.BLACK`` for Mr. X: black rides every transport and the ferry)."""
    if start not in board:
        raise ValueError(f"station {start} is not on the map {board.name!r}")
    dist = {start: 0}
    if tickets is None:
        frontier = 1 << start
        seen = frontier
        n = 0
        while frontier and n < max_moves:
            n += 1
            new = board.step_any(frontier, kinds) & ~seen
            for s in StationSet(new):
                dist[s] = n
            seen |= new
            frontier = new
        return dist
    kinds = [t for t in kinds if tickets.get(t.value, 0) > 0]
    layer: dict[Station, list[TicketVector]] = {start: [tuple(tickets.get(t.value, 0) for t in kinds)]}
    n = 0
    while layer and n < max_moves:
        n += 1
        nxt: dict[Station, list[TicketVector]] = {}
        for s, vectors in layer.items():
            for i, t in enumerate(kinds):
                for d in board.moves(s, t):
                    for v in vectors:
                        if v[i] > 0:
                            w = v[:i] + (v[i] - 1,) + v[i + 1:]
                            _add_pareto(nxt.setdefault(d, []), w)
        for s in nxt:
            dist.setdefault(s, n)
        layer = nxt
    return dist


def _add_pareto(front: list[TicketVector], v: TicketVector) -> None:
    """Keep only ticket vectors not dominated by another (more of every kind is better)."""
    for u in front:
        if all(a >= b for a, b in zip(u, v)):
            return
    front[:] = [u for u in front if not all(b >= a for a, b in zip(u, v))]
    front.append(v)


def coverage(board: Board, detectives: Mapping[str, tuple[Station, Mapping[str, int]]]) -> dict[Station, int]:
    """For each station, the fewest moves any detective needs to get there with its remaining
    tickets (stations no detective can reach are absent)."""
    out: dict[Station, int] = {}
    for station, tickets in detectives.values():
        for s, n in reach(board, station, tickets).items():
            if n < out.get(s, 1 << 30):
                out[s] = n
    return out

