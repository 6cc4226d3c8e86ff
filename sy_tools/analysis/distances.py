"""Detective hop distances between stations, computed once per board."""

from __future__ import annotations

from typing import Any

from ..engine.board import Board
from ..engine.stations import stations_of
from ..engine.tickets import Ticket

_DIST: dict[tuple[int, int | None], tuple[Board, list[list[int]]]] = {}


def distances(board: Board, unreachable: int | None = None) -> list[list[int]]:
    """``d[a][b]``: the fewest detective hops (taxi, bus, underground, tickets ignored) from
    ``a`` to ``b``; ``unreachable`` (default ``10 * (top station id + 1)``, more than any hop
    count) where no detective route joins them.  Computed once per board and ``unreachable``
    (breadth-first from every station).  The rows of ids that are no station are one shared
    row, so a map with a few stations and a large top id costs its stations, not the id's
    square."""
    key = (id(board), unreachable)
    cached = _DIST.get(key)
    if cached is not None and cached[0] is board:
        return cached[1]
    size = max(board.stations, default=0) + 1
    far = 10 * size if unreachable is None else unreachable
    nbr = [0] * size
    for t in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND):
        for s, m in board.neighbours[t].items():
            nbr[s] |= m
    nowhere = [far] * size
    table = [nowhere] * size
    for s in board.stations:
        row = table[s] = [far] * size
        seen = frontier = 1 << s
        d = 0
        while frontier:
            for x in stations_of(frontier):
                row[x] = d
            nxt = 0
            for x in stations_of(frontier):
                nxt |= nbr[x]
            frontier = nxt & ~seen
            seen |= frontier
            d += 1
    _DIST[key] = (board, table)
    return table

_DIST_ARRAY: dict[int, tuple[Board, Any]] = {}


def distance_array(board: Board) -> Any:
    """:func:`distances` as a numpy array (for summing many distances at once)."""
    cached = _DIST_ARRAY.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    import numpy as np

    arr = np.array(distances(board), dtype=np.int64)
    _DIST_ARRAY[id(board)] = (board, arr)
    return arr
