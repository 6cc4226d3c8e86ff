"""Small random maps for the tests and the benchmarks: :func:`small_board`."""

from __future__ import annotations

import random

from sy_tools.engine.board import Board, Connection


def small_board(rng: random.Random, n: int | None = None) -> Board:
    """A random connected map of 10-20 stations with every transport, ferry included."""
    n = n or rng.randint(10, 20)
    stations = list(range(1, n + 1))
    conns: set[Connection] = set()
    order = stations[:]
    rng.shuffle(order)
    for i in range(1, n):  # a random spanning tree of taxi
        conns.add(Connection.of(order[i], order[rng.randrange(i)], "taxi"))
    for _ in range(n // 2):
        a, b = rng.sample(stations, 2)
        conns.add(Connection.of(a, b, "taxi"))
    bus = rng.sample(stations, max(3, n // 3))
    for a, b in zip(bus, bus[1:]):
        conns.add(Connection.of(a, b, "bus"))
    ug = rng.sample(bus, 3)
    for a, b in zip(ug, ug[1:]):
        conns.add(Connection.of(a, b, "underground"))
    a, b = rng.sample(stations, 2)
    conns.add(Connection.of(a, b, "ferry"))
    coords = {s: (float(rng.randint(0, 999)), float(rng.randint(0, 999))) for s in stations}
    decks = {"classic": sorted(rng.sample(stations, min(n, 8)))}
    return Board.build("small", stations, conns, coords, decks)

