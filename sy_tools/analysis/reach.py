
"""How many moves a piece needs to reach each station (with or without ticket limits), and the
detectives' coverage of the board."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..engine.args import count_args, int_arg, station_args
from ..engine.board import Board
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, StationSet
from ..engine.tickets import DETECTIVE_TICKETS, TICKET_KINDS, Ticket
from ..errors import InputError

TicketVector = tuple[int, ...]


def reach(board: Board, start: Station, tickets: Mapping[str, int] | None = None,
          kinds: Sequence[Ticket] = DETECTIVE_TICKETS, max_moves: int = 30) -> dict[Station, int]:
    """Fewest moves from ``start`` to every reachable station.

    ``tickets`` (e.g. ``{"taxi": 10, "bus": 8, "underground": 4}``) limits how often each kind
    may be used; None means unlimited.  ``kinds`` are the tickets the piece may use (add
    ``Ticket.BLACK`` for Mr. X: black rides every transport and the ferry)."""
    return reach_from(board, (start,), tickets, kinds, max_moves)


def reach_from(board: Board, starts: Iterable[Station], tickets: Mapping[str, int] | None = None,
               kinds: Sequence[Ticket] = DETECTIVE_TICKETS, max_moves: int = 30) -> dict[Station, int]:
    """Fewest moves from the nearest of ``starts`` to every reachable station (each start with
    the same ``tickets``); see :func:`reach`.

    With ticket limits this is a breadth-first search over (station, tickets left) states that
    keeps, per station, only ticket vectors no earlier-or-equal state dominates (a state with at
    least as many of every kind, reached no later, reaches everything this one does, no later),
    and stops once every station reachable without limits has been reached.  Stations and counts
    are integers (numpy's too), counts not negative: anything else is a :class:`TypeError` or
    :class:`ValueError` naming the argument."""
    starts = tuple(dict.fromkeys(station_args(starts, "starts")))
    tickets = count_args(tickets, "tickets", TICKET_KINDS)
    max_moves = int_arg(max_moves, "max_moves", 0)
    for s in starts:
        if s not in board:
            raise InputError(f"starts: station {s} is not on the map {board.name!r}")
    dist = {s: 0 for s in starts}
    frontier = 0
    for s in starts:
        frontier |= 1 << s
    seen = frontier
    n = 0
    while frontier and n < max_moves:  # unlimited tickets: plain breadth-first search on masks
        n += 1
        new = board.step_any(frontier, kinds) & ~seen
        if tickets is None:
            for s in StationSet(new):
                dist[s] = n
        seen |= new
        frontier = new
    if tickets is None:
        return dist
    reachable = seen.bit_count()  # nothing beyond this, whatever the limits
    kinds = [t for t in kinds if tickets.get(t.value, 0) > 0]
    first = tuple(tickets.get(t.value, 0) for t in kinds)
    layer: dict[Station, list[TicketVector]] = {s: [first] for s in starts}
    best: dict[Station, list[TicketVector]] = {s: [first] for s in starts}  # per station, all layers so far
    n = 0
    while layer and n < max_moves and len(dist) < reachable:
        n += 1
        nxt: dict[Station, list[TicketVector]] = {}
        for s, vectors in layer.items():
            for i, t in enumerate(kinds):
                for d in board.destinations(s, t):
                    for v in vectors:
                        if v[i] > 0:
                            w = v[:i] + (v[i] - 1,) + v[i + 1:]
                            front = best.setdefault(d, [])
                            if _add_pareto(front, w):
                                _add_pareto(nxt.setdefault(d, []), w)
        for s in nxt:
            dist.setdefault(s, n)
        layer = nxt
    return dist


def _add_pareto(front: list[TicketVector], v: TicketVector) -> bool:
    """Keep only ticket vectors not dominated by another (more of every kind is better); whether
    ``v`` was added."""
    for u in front:
        if all(a >= b for a, b in zip(u, v)):
            return False
    front[:] = [u for u in front if not all(b >= a for a, b in zip(u, v))]
    front.append(v)
    return True


def coverage(board: Board, detectives: Mapping[str, tuple[Station, Mapping[str, int]]]) -> dict[Station, int]:
    """For each station, the fewest moves any detective needs to get there with its remaining
    tickets (stations no detective can reach are absent)."""
    return {s: n for s, (n, _) in nearest(board, detectives).items()}


def nearest(board: Board, detectives: Mapping[str, tuple[Station, Mapping[str, int]]]
            ) -> dict[Station, tuple[int, tuple[str, ...]]]:
    """For each station, the fewest moves any detective needs to get there with its remaining
    tickets, and every detective that needs that few (in the order given).  Stations no
    detective can reach are absent."""
    out: dict[Station, tuple[int, tuple[str, ...]]] = {}
    for name, (station, tickets) in detectives.items():
        for s, n in reach(board, station, tickets).items():
            old = out.get(s)
            if old is None or n < old[0]:
                out[s] = (n, (name,))
            elif n == old[0]:
                out[s] = (n, old[1] + (name,))
    return out


@dataclass(frozen=True)
class MrxReach:
    """Where Mr. X can get in ``moves`` moves: ``dist`` the fewest moves to each station
    (0 for where he may be now), ``at_end`` the stations where he may stand after exactly
    ``moves`` moves (he must move every turn, so this is not everything within reach)."""

    dist: dict[Station, int]
    at_end: tuple[Station, ...]
    moves: int

    def to_dict(self) -> dict[str, object]:
        return {"moves": self.moves, "dist": {str(s): n for s, n in sorted(self.dist.items())},
                "at_end": list(self.at_end)}


def mrx_reach(board: Board, stations: Iterable[Station], tickets: Iterable[Ticket], occupied: StationMask,
              moves: int, rules: Rules | None = None) -> MrxReach:
    """Mr. X's reach from any of ``stations`` in ``moves`` moves with any of ``tickets`` (those
    he holds; counts are not limiting), never onto ``occupied`` (the detectives' stations now;
    they do not move in this picture).  Each move is the engine's
    :func:`~sy_tools.engine.hops.mrx_targets`."""
    from ..engine.hops import mrx_targets

    tickets = tuple(tickets)
    here = 0
    for s in stations:
        here |= 1 << s
    dist = {s: 0 for s in StationSet(here)}
    seen = here
    for n in range(1, moves + 1):
        nxt = 0
        for t in tickets:
            nxt |= mrx_targets(board, here, t, occupied, rules)
        for s in StationSet(nxt & ~seen):
            dist[s] = n
        seen |= nxt
        here = nxt
    return MrxReach(dist, tuple(StationSet(here)), moves)
