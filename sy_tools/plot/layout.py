"""Station coordinates: the board's own, or a layout computed for maps without them."""

from __future__ import annotations

import math

from ..engine.board import Board
from ..engine.stations import Station
from .style import Point


def layout(board: Board) -> tuple[dict[Station, Point], str | None]:
    """Station positions (data y grows downwards) and, when they were computed rather than
    taken from the map, why (for the title).

    The map's coordinates are used as they are; huge ones are rescaled into a 1000-unit box
    with arithmetic that cannot overflow (coordinates of 1e308 or 10**400 are refused by the map validator, but a picture
    must never crash on them); coordinates that are not finite or put every station on one
    point are replaced by a computed layout."""
    if board.coords:
        pts = _rescaled(board)
        if pts is not None:
            return pts, None
        why = "the map's coordinates are unusable"
    else:
        why = "no coordinates in the map"
    return _computed_layout(board), why


def _rescaled(board: Board) -> dict[Station, Point] | None:
    raw = board.coords or {}
    pts: dict[Station, Point] = {}
    try:
        for s in board.stations:
            x, y = raw[s]
            pts[s] = (float(x), float(y))
    except (KeyError, OverflowError, TypeError, ValueError):
        return None
    if not all(math.isfinite(v) for p in pts.values() for v in p):
        return None
    xs = [p[0] for p in pts.values()]
    ys = [p[1] for p in pts.values()]
    x0, y0 = min(xs), min(ys)
    if max(xs) - x0 > 0 or max(ys) - y0 > 0:
        if all(abs(v) < 1e9 for v in xs + ys):  # ordinary drawing coordinates: kept as they are
            return pts
    w = max(xs) / 2 - x0 / 2  # halves: the difference of two finite floats may overflow, halves never do
    h = max(ys) / 2 - y0 / 2
    span = max(w, h)
    if not span > 0:
        return None
    return {s: ((x / 2 - x0 / 2) / span * 1000.0, (y / 2 - y0 / 2) / span * 1000.0) for s, (x, y) in pts.items()}


def _computed_layout(board: Board) -> dict[Station, Point]:
    """A force-directed layout that needs no scipy (networkx's needs it from 500 nodes on):
    networkx's dense spring layout for small maps, our own numpy Fruchterman-Reingold up to
    2,000 stations, and breadth-first rows on a grid beyond that (linear time and memory)."""
    st = list(board.stations)
    n = len(st)
    if n == 0:
        return {}
    if n < 500:
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(st)
        g.add_edges_from((c.a, c.b) for c in board.connections)
        pos = nx.spring_layout(g, seed=1, iterations=200)
        return _spread(board, {s: (float(x) * 1000, float(-y) * 1000) for s, (x, y) in pos.items()})
    if n <= 2000:
        return _spring(board)
    return _grid(board)


def _spread(board: Board, pts: dict[Station, Point], rounds: int = 60) -> dict[Station, Point]:
    """Push apart stations a spring layout put almost on top of each other, so their numbers
    fit side by side: no two closer than a third of the median connection, measured in a space
    stretched as a station number is (wider than high)."""
    import numpy as np

    st = list(pts)
    if len(st) < 2:
        return pts
    xy = np.array([pts[s] for s in st], dtype=float)
    idx = {s: i for i, s in enumerate(st)}
    pairs = np.array([(idx[c.a], idx[c.b]) for c in board.connections], dtype=np.int64).reshape(-1, 2)
    if not len(pairs):
        return pts
    stretch = np.array([1 / 1.6, 1 / 1.2])
    q = xy * stretch
    edge = float(np.median(np.sqrt(((q[pairs[:, 0]] - q[pairs[:, 1]]) ** 2).sum(-1))))
    need = edge / 3
    if not need > 0:
        return pts
    for _ in range(rounds):
        delta = q[:, None, :] - q[None, :, :]
        dist = np.sqrt((delta ** 2).sum(-1))
        np.fill_diagonal(dist, np.inf)
        close = dist < need
        if not close.any():
            break
        push = np.where(close, (need - np.minimum(dist, need)) / np.maximum(dist, 1e-9) / 2, 0.0)
        q += (delta * push[:, :, None]).sum(1) * 0.6
    xy = q / stretch
    return {s: (float(xy[i, 0]), float(xy[i, 1])) for i, s in enumerate(st)}


def _spring(board: Board, iterations: int = 50) -> dict[Station, Point]:
    import numpy as np

    st = list(board.stations)
    n = len(st)
    idx = {s: i for i, s in enumerate(st)}
    edges = np.array(sorted({(idx[c.a], idx[c.b]) for c in board.connections}), dtype=np.int64).reshape(-1, 2)
    rng = np.random.default_rng(1)
    pos = rng.random((n, 2))
    k = 1.0 / math.sqrt(n)
    temp = 0.1
    chunk = 256
    for _ in range(iterations):
        disp = np.zeros((n, 2))
        for a in range(0, n, chunk):  # repulsion in row blocks: memory n * chunk
            delta = pos[a:a + chunk, None, :] - pos[None, :, :]
            dist2 = np.maximum((delta ** 2).sum(-1), 1e-9)
            disp[a:a + chunk] += (delta * (k * k / dist2)[:, :, None]).sum(1)
        if len(edges):
            d = pos[edges[:, 0]] - pos[edges[:, 1]]
            length = np.maximum(np.sqrt((d ** 2).sum(-1)), 1e-9)
            f = d * (length / k)[:, None]
            np.add.at(disp, edges[:, 0], -f)
            np.add.at(disp, edges[:, 1], f)
        length = np.maximum(np.sqrt((disp ** 2).sum(-1)), 1e-9)
        pos += disp / length[:, None] * np.minimum(length, temp)[:, None]
        temp *= 0.95
    pos -= pos.min(0)
    pos /= max(float(pos.max()), 1e-9)
    return {s: (float(pos[i, 0]) * 1000, float(pos[i, 1]) * 1000) for i, s in enumerate(st)}


def _grid(board: Board) -> dict[Station, Point]:
    from collections import deque

    adj: dict[Station, list[Station]] = {s: [] for s in board.stations}
    for c in board.connections:
        adj[c.a].append(c.b)
        adj[c.b].append(c.a)
    order: list[Station] = []
    seen: set[Station] = set()
    for root in board.stations:
        if root in seen:
            continue
        seen.add(root)
        todo = deque([root])
        while todo:
            s = todo.popleft()
            order.append(s)
            for d in adj[s]:
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
    side = max(1, math.ceil(math.sqrt(len(order))))
    return {s: (i % side * 1000 / side, i // side * 1000 / side) for i, s in enumerate(order)}
