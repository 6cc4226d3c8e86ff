"""Heatmaps over the real board layout (matplotlib, Agg backend only).

Every function returns a :class:`matplotlib.figure.Figure`; :func:`save` writes one atomically.
The board is drawn from the map's station coordinates (y grows downwards in the data, so the
y axis is inverted: station 1 sits top left on the London board); a map without usable
coordinates gets a computed layout and says so in the title.  Each figure is laid out for the
size asked: the title is wrapped, the legend takes as many columns as fit, and the board gets
what is left after the legend, title and colour bar are measured.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import FancyArrowPatch, Patch, Wedge  # noqa: E402

from .board import DETECTIVE_TICKET_KINDS, Board, Station, Ticket, Transport, stations_of  # noqa: E402
from .errors import AnalysisError, InputError  # noqa: E402
from .files import atomic_write_bytes  # noqa: E402
from .record import Record  # noqa: E402

LAYERS = ("possible", "history", "reach", "coverage", "cordon", "winrate")
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
DEFAULT_SIZE = (16.0, 12.0)
DEFAULT_DPI = 100

#: probability scale (its top colour marks the most likely station)
PROB_CMAP = "BuPu"
#: the share of the probability scale skipped at the bottom, so the least likely station is
#: still clearly coloured, unlike an impossible one (light grey, thin grey edge)
PROB_FLOOR = 0.25
#: moves scale (few moves = dark)
MOVES_CMAP = "YlGnBu_r"
#: Mr. X's win rate (0 = detectives always win, 1 = Mr. X always does); no pale end, so no rate
#: looks like "no game started here"
WINRATE_CMAP = "viridis"

TRANSPORT_STYLE: dict[Transport, dict[str, Any]] = {
    Transport.TAXI: {"color": "#e8b500", "linewidth": 1.0, "linestyle": "-", "zorder": 1},
    Transport.BUS: {"color": "#12876f", "linewidth": 2.0, "linestyle": "-", "zorder": 2},
    Transport.UNDERGROUND: {"color": "#d62728", "linewidth": 2.2, "linestyle": (0, (5, 3)), "zorder": 3},
    Transport.FERRY: {"color": "#111111", "linewidth": 2.0, "linestyle": (0, (1, 2)), "zorder": 3},
}
EMPTY_FILL = "#f4f4f4"
EMPTY_EDGE = "#b0b0b0"
PALETTE = ["#e41a1c", "#377eb8", "#4daf4a", "#ff7f00", "#222222", "#984ea3", "#a65628", "#f781bf"]
#: cordon rings and left-open markers: colours no detective or transport uses, and two shapes
CORDON_COLOUR = "#ff7f0e"
OPEN_COLOUR = "#d01c8b"
STAR_FILL = "#ffe14d"
LETTER = {Ticket.TAXI: "T", Ticket.BUS: "B", Ticket.UNDERGROUND: "U", Ticket.BLACK: "K"}

Point = tuple[float, float]
Rect = tuple[float, float, float, float]


# ---- layout -----------------------------------------------------------------------------------


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
        return {s: (float(x) * 1000, float(-y) * 1000) for s, (x, y) in pos.items()}
    if n <= 2000:
        return _spring(board)
    return _grid(board)


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


# ---- the frame: title, legend, colour bar, board area, measured for the size asked -------------


@dataclass
class Frame:
    fig: Figure
    main: Rect
    cbar: Rect | None
    fontsize: float


def _figure(size: tuple[float, float] | None, dpi: int | None) -> Figure:
    fig = plt.figure(figsize=size or DEFAULT_SIZE, dpi=dpi or DEFAULT_DPI)
    fig.patch.set_facecolor("white")
    return fig


def _frame(size: tuple[float, float] | None, dpi: int | None, title: str, handles: Sequence[Any],
           colorbar: bool) -> Frame:
    """A figure with its title and legend placed and measured; ``main`` is what is left for the
    board, ``cbar`` the colour bar's place (right side) when asked for."""
    import textwrap

    fig = _figure(size, dpi)
    w_in, h_in = (float(v) for v in fig.get_size_inches())
    scale = min(1.0, max(0.55, math.sqrt(min(w_in / 16, h_in / 12))))
    fs = 10 * scale
    title_fs = 13 * scale
    chars = max(20, int(w_in * 72 / (0.5 * title_fs)))
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    fig_w, fig_h = fig.bbox.width, fig.bbox.height
    while True:  # wrap the title until it fits the width (measured, not guessed)
        sup = fig.suptitle(textwrap.fill(title, chars), fontsize=title_fs, y=1 - 0.06 / h_in, va="top")
        if sup.get_window_extent(renderer).width <= 0.98 * fig_w or chars <= 20:
            break
        chars = max(20, int(chars * 0.9))
    legend_h = 0.0
    if handles:
        ncol = min(len(handles), 6)
        while True:
            leg = fig.legend(handles=list(handles), loc="lower center", ncol=ncol, frameon=False, fontsize=fs,
                             bbox_to_anchor=(0.5, 0.0), handlelength=1.8, columnspacing=1.2)
            if leg.get_window_extent(renderer).width <= 0.98 * fig_w or ncol == 1:
                break
            leg.remove()
            ncol -= 1
        legend_h = leg.get_window_extent(renderer).height / fig_h
        if legend_h > 0.35:  # a figure too small for its legend: the board comes first
            leg.remove()
            legend_h = 0.0
    title_h = (sup.get_window_extent(renderer).height + 0.12 * fig.dpi) / fig_h
    if title_h > 0.35:
        sup.set_text("")
        title_h = 0.02
    right = (1.25 * scale + 0.1) / w_in if colorbar else 0.01
    if right > 0.35:  # likewise the colour bar
        colorbar, right = False, 0.01
    bottom = legend_h + 0.01
    main = (0.01, bottom, 1 - 0.01 - right, max(0.1, 1 - bottom - title_h - 0.01))
    cbar = None
    if colorbar:
        cbar = (1 - right + 0.12 / w_in, main[1] + 0.15 * main[3], 0.22 * scale / w_in, 0.7 * main[3])
    return Frame(fig, main, cbar, fs)


def _colorbar(frame: Frame, cmap: Any, norm: Any, label: str, ticks: Sequence[float] | None = None,
              ticklabels: Sequence[str] | None = None) -> None:
    if frame.cbar is None:  # no room for it at this size
        return
    cax = frame.fig.add_axes(frame.cbar)
    sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = frame.fig.colorbar(sm, cax=cax, ticks=ticks)
    if ticklabels is not None:
        cb.ax.minorticks_off()
        cb.set_ticks(list(ticks or ()), labels=list(ticklabels))
    cb.ax.tick_params(labelsize=frame.fontsize * 0.9)
    cb.set_label(label, fontsize=frame.fontsize)


# ---- the board --------------------------------------------------------------------------------


class BoardAxes:
    """One drawn board: the axes, the positions, the marker size, and a label placer that keeps
    labels off station numbers and off each other."""

    def __init__(self, fig: Figure, rect: Sequence[float], board: Board, coords: Mapping[Station, Point],
                 labels: bool = True, scale: float = 1.0, view: Iterable[Station] | None = None) -> None:
        self.board = board
        self.coords = coords
        self.ax = ax = fig.add_axes((rect[0], rect[1], rect[2], rect[3]))
        framed = [coords[s] for s in (view or ())] or list(coords.values()) or [(0.0, 0.0)]
        xs = [p[0] for p in framed]
        ys = [p[1] for p in framed]
        spacing = _typical_spacing(board, coords)
        pad = max(0.03 * max(max(xs) - min(xs), max(ys) - min(ys)), 2.5 * spacing if view else 0.0, 1.0)
        self.xlim = (min(xs) - pad, max(xs) + pad)
        self.ylim = (min(ys) - pad, max(ys) + pad)
        ax.set_xlim(*self.xlim)
        ax.set_ylim(self.ylim[1], self.ylim[0])  # y grows downwards in the data
        ax.set_aspect("equal", adjustable="box")
        ax.set_axis_off()
        width_pt = fig.get_figwidth() * 72 * rect[2]
        height_pt = fig.get_figheight() * 72 * rect[3]
        self.pt_per_unit = min(width_pt / (self.xlim[1] - self.xlim[0]), height_pt / (self.ylim[1] - self.ylim[0]))
        # marker size: a fraction of the typical station spacing, in points
        self.diameter = max(3.0, min(0.42 * spacing * self.pt_per_unit * scale, 40.0))
        self.labels = labels
        self._boxes: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
        self._cell = max(spacing, 1e-9)
        self._arcs: dict[frozenset[Station], Point] = {}  # control point of the first arrow per pair
        self._draw_connections()

    # -- geometry helpers

    def units(self, points: float) -> float:
        """``points`` (typographic) in data units."""
        return points / self.pt_per_unit

    def _visible(self, s: Station) -> bool:
        x, y = self.coords[s]
        return self.xlim[0] <= x <= self.xlim[1] and self.ylim[0] <= y <= self.ylim[1]

    def _draw_connections(self) -> None:
        for t, style in TRANSPORT_STYLE.items():
            segs = [(self.coords[c.a], self.coords[c.b]) for c in self.board.connections if c.transport is t]
            if segs:
                self.ax.add_collection(LineCollection(segs, **style))

    # -- stations

    def stations(self, fills: Mapping[Station, Any] | None = None, edges: Mapping[Station, tuple[str, float]] | None
                 = None, texts: Mapping[Station, str] | None = None, text_colour: Mapping[Station, str] | None = None
                 ) -> None:
        """Every station as a disc: ``fills`` (colours; others light grey), ``edges`` (colour,
        width; others a thin grey), and its number (or ``texts[s]``) on top."""
        order = list(self.board.stations)
        fills = fills or {}
        edges = edges or {}
        face = [mcolors.to_rgba(fills.get(s, EMPTY_FILL)) for s in order]
        ec = [mcolors.to_rgba(edges[s][0]) if s in edges else mcolors.to_rgba(EMPTY_EDGE) for s in order]
        lw = [edges[s][1] if s in edges else 0.5 for s in order]
        xy = [self.coords[s] for s in order]
        self.ax.scatter([p[0] for p in xy], [p[1] for p in xy], s=self.diameter ** 2, c=face, edgecolors=ec,
                        linewidths=lw, zorder=5)
        for s in order:
            self._reserve(self.coords[s], self.units(self.diameter * 1.05), self.units(self.diameter * 1.05))
        if self.labels and self.diameter >= 7:
            fs = self.diameter * 0.42
            for s, fill in zip(order, face):
                if not self._visible(s):
                    continue
                colour = (text_colour or {}).get(s)
                if colour is None:
                    colour = "#111111" if _luminance(fill) > 0.5 else "white"
                    if s not in fills and s not in edges:
                        colour = "#777777"
                self.ax.text(*self.coords[s], (texts or {}).get(s, str(s)), ha="center", va="center", fontsize=fs,
                             zorder=6, color=colour)

    def rings(self, stations: Iterable[Station], colour: str, factor: float, width: float, marker: str = "o",
              zorder: float = 6.5) -> None:
        """An outline marker ``factor`` times a station's size around each of ``stations``."""
        pts = [self.coords[s] for s in stations]
        if pts:
            self.ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=(self.diameter * factor) ** 2, marker=marker,
                            facecolors="none", edgecolors=colour, linewidths=width, zorder=zorder)

    def wedges(self, station: Station, colours: Sequence[Any]) -> None:
        """Split a station's disc into equal wedges (a tie between detectives)."""
        r = self.units(self.diameter / 2)
        step = 360 / len(colours)
        for i, c in enumerate(colours):
            self.ax.add_patch(Wedge(self.coords[station], r, 90 + i * step, 90 + (i + 1) * step, facecolor=c,
                                    edgecolor="none", zorder=5.2))

    # -- pieces

    def detectives(self, positions: Mapping[str, Station], names: bool = True) -> None:
        """Detectives as coloured rings around their stations, with their names placed clear of
        station numbers."""
        for i, (name, s) in enumerate(positions.items()):
            colour = detective_colour(name, i)
            self.rings([s], colour, 1.75, max(1.6, self.diameter * 0.14), zorder=7)
            if names and self._visible(s):
                self.label(self.coords[s], name, colour, fontsize=max(6.0, self.diameter * 0.5), bold=True,
                           distance=self.diameter * 1.2)

    def mrx(self, station: Station, text: str | None = None) -> None:
        """A star behind the station: its points show around the disc, its number stays readable."""
        x, y = self.coords[station]
        self.ax.scatter([x], [y], s=(self.diameter * 2.15) ** 2, marker="*", facecolors=STAR_FILL,
                        edgecolors="black", linewidths=1.2, zorder=4.5)
        if text and self._visible(station):
            self.label((x, y), text, "black", fontsize=max(6.0, self.diameter * 0.45), distance=self.diameter * 1.3)

    # -- labels

    def _reserve(self, centre: Point, w: float, h: float) -> None:
        box = (centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2)
        for key in self._keys(box):
            self._boxes.setdefault(key, []).append(box)

    def _keys(self, box: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        c = self._cell
        return [(i, j) for i in range(int(box[0] // c), int(box[2] // c) + 1)
                for j in range(int(box[1] // c), int(box[3] // c) + 1)]

    def _overlap(self, box: tuple[float, float, float, float]) -> float:
        total = 0.0
        seen: set[tuple[float, float, float, float]] = set()
        for key in self._keys(box):
            for b in self._boxes.get(key, ()):
                if b in seen:
                    continue
                seen.add(b)
                dx = min(box[2], b[2]) - max(box[0], b[0])
                dy = min(box[3], b[3]) - max(box[1], b[1])
                if dx > 0 and dy > 0:
                    total += dx * dy
        return total

    def label(self, anchor: Point, text: str, colour: str, fontsize: float, bold: bool = False,
              distance: float | None = None, box: bool = True) -> None:
        """Place ``text`` near ``anchor`` (data units) where it covers the least of the stations
        and labels already placed (eight candidate directions, nearer ones first)."""
        lines = text.split("\n")
        w = self.units(fontsize * (0.62 * max(len(s) for s in lines) + 0.6))
        h = self.units(fontsize * (1.25 * len(lines) + 0.3))
        d = self.units(distance if distance is not None else self.diameter)
        best = None
        for k, (ux, uy) in enumerate(((0, -1), (0, 1), (1, 0), (-1, 0), (0.8, -0.8), (-0.8, -0.8), (0.8, 0.8),
                                      (-0.8, 0.8))):
            for reach in (1.0, 1.6):
                cx = anchor[0] + ux * (d * reach + w / 2 * abs(ux))
                cy = anchor[1] + uy * (d * reach + h / 2 * abs(uy))
                rect = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                score = self._overlap(rect) / (w * h) + 0.02 * k + 0.05 * (reach > 1)
                if rect[0] < self.xlim[0] or rect[2] > self.xlim[1] or rect[1] < self.ylim[0] or rect[3] > self.ylim[1]:
                    score += 5
                if best is None or score < best[0]:
                    best = (score, cx, cy)
        assert best is not None
        _, cx, cy = best
        self._reserve((cx, cy), w, h)
        bbox = {"boxstyle": "round,pad=0.15", "fc": "white", "ec": colour, "lw": 0.8, "alpha": 0.92} if box else None
        self.ax.text(cx, cy, text, ha="center", va="center", fontsize=fontsize, color=colour, zorder=10,
                     fontweight="bold" if bold else "normal", bbox=bbox)

    # -- arrows

    def arrow(self, a: Station, b: Station, colour: str, text: str | None = None, width: float = 2.2,
              fontsize: float | None = None) -> None:
        """A curved arrow from ``a`` to ``b``, bent to the side that passes farther from other
        stations, with ``text`` at its middle."""
        pa, pb = self.coords[a], self.coords[b]
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        length = math.hypot(dx, dy) or 1.0
        nx_, ny_ = -dy / length, dx / length
        best = None
        bend = 0.28 if length > self.units(self.diameter * 3.5) else 0.75  # short hops bend more, to show
        for rad in (bend, -bend):
            # arc3 puts the control point at the middle + rad * (b - a) turned 90 degrees
            cx = (pa[0] + pb[0]) / 2 + rad * length * nx_
            cy = (pa[1] + pb[1]) / 2 + rad * length * ny_
            clear = min((math.hypot(px - x, py - y) for px, py in _bezier(pa, (cx, cy), pb)
                         for s, (x, y) in self._near(pa, pb) if s not in (a, b)), default=1e9)
            used = self._arcs.get(frozenset((a, b)))
            if used is not None and math.hypot(used[0] - cx, used[1] - cy) < 1e-9:
                clear = -1.0  # the other direction already bends this way: take the other side
            if best is None or clear > best[0] + 1e-9:
                best = (clear, rad, cx, cy)
        assert best is not None
        _, rad, cx, cy = best
        self._arcs.setdefault(frozenset((a, b)), (cx, cy))
        # arc3's control point in display space, mapped back through the inverted y axis, is the
        # one computed above for the same rad
        shrink = self.diameter / 2 + 1.5
        self.ax.add_patch(FancyArrowPatch(pa, pb, arrowstyle="-|>", mutation_scale=max(8.0, self.diameter * 0.8),
                                          connectionstyle=f"arc3,rad={rad}", color=colour, lw=width, zorder=8,
                                          shrinkA=shrink, shrinkB=shrink))
        if text:
            mid = (0.25 * pa[0] + 0.5 * cx + 0.25 * pb[0], 0.25 * pa[1] + 0.5 * cy + 0.25 * pb[1])
            fs = fontsize or max(6.5, self.diameter * 0.45)
            self.label(mid, text, colour, fontsize=fs, bold=True, distance=2.0)
        # later labels keep off this arrow
        side = self.units(self.diameter * 0.35)
        for pt in _bezier(pa, (cx, cy), pb, 9):
            self._reserve(pt, side, side)

    def _near(self, pa: Point, pb: Point) -> list[tuple[Station, Point]]:
        lo_x, hi_x = min(pa[0], pb[0]), max(pa[0], pb[0])
        lo_y, hi_y = min(pa[1], pb[1]), max(pa[1], pb[1])
        m = 0.5 * max(hi_x - lo_x, hi_y - lo_y)
        return [(s, p) for s, p in self.coords.items()
                if lo_x - m <= p[0] <= hi_x + m and lo_y - m <= p[1] <= hi_y + m]


def _bezier(a: Point, c: Point, b: Point, n: int = 7) -> list[Point]:
    out = []
    for i in range(1, n):
        t = i / n
        out.append(((1 - t) ** 2 * a[0] + 2 * t * (1 - t) * c[0] + t * t * b[0],
                    (1 - t) ** 2 * a[1] + 2 * t * (1 - t) * c[1] + t * t * b[1]))
    return out


def detective_colour(name: str, index: int) -> str:
    """A detective's colour: its name if that is a colour (Red, Blue, ...), else a palette entry."""
    low = name.lower()
    if low in mcolors.CSS4_COLORS or low in mcolors.BASE_COLORS:
        return {"yellow": "#d4a600", "green": "#2e8b2e", "white": "#999999"}.get(low, low)
    return PALETTE[index % len(PALETTE)]


def transport_handles() -> list[Line2D]:
    return [Line2D([], [], label=t.value, **{k: v for k, v in st.items() if k != "zorder"})
            for t, st in TRANSPORT_STYLE.items()]


def detective_handles(positions: Mapping[str, Station]) -> list[Line2D]:
    return [Line2D([], [], marker="o", ls="", mfc="none", mec=detective_colour(n, i), mew=2.5, ms=10,
                   label=f"{n} ({s})") for i, (n, s) in enumerate(positions.items())]


def star_handle(label: str) -> Line2D:
    return Line2D([], [], marker="*", ls="", mfc=STAR_FILL, mec="black", ms=14, label=label)


def _typical_spacing(board: Board, coords: Mapping[Station, Point]) -> float:
    lengths = sorted(
        math.hypot(coords[c.a][0] - coords[c.b][0], coords[c.a][1] - coords[c.b][1])
        for c in board.connections if c.transport is Transport.TAXI
    ) or sorted(math.hypot(coords[c.a][0] - coords[c.b][0], coords[c.a][1] - coords[c.b][1])
                for c in board.connections) or [1.0]
    positive = [v for v in lengths if v > 0] or [1.0]
    return positive[len(positive) // 4]


def _luminance(rgba: Sequence[float]) -> float:
    r, g, b = rgba[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def _name(record: Record) -> str:
    return Path(record.file).name if record.file else "record"


def _when(record: Record) -> str:
    """The same words for the same moment in every title: the rounds the record holds."""
    from .position import when_text

    return when_text(len(record.rounds), record.n_moves)


def _note(title: str, why: str | None) -> str:
    return title if why is None else f"{title}  ({why}: computed layout)"


def floor_cmap(name: str = PROB_CMAP, floor: float = PROB_FLOOR) -> mcolors.Colormap:
    """``name`` without its palest ``floor``: the lowest value still has a clear colour."""
    import numpy as np

    base = matplotlib.colormaps[name]
    return mcolors.ListedColormap(base(np.linspace(floor, 1.0, 256)), name=f"{name}_floor")


def _prob_norm(values: Mapping[Station, float]) -> tuple[Any, list[float] | None]:
    """Linear from 0 to the top, or logarithmic when the values span more than a factor 10."""
    top = max(values.values(), default=1.0) or 1.0
    low = min((v for v in values.values() if v > 0), default=top)
    if top / low > 10:
        ticks = [low * (top / low) ** (i / 4) for i in range(5)]
        return mcolors.LogNorm(vmin=low, vmax=top), ticks
    return mcolors.Normalize(vmin=0.0, vmax=top), None


def _colour_of(values: Mapping[Station, float], cmap: Any, norm: Any) -> dict[Station, Any]:
    return {s: cmap(norm(v)) for s, v in values.items() if v > 0}


# ---- layers -----------------------------------------------------------------------------------


def possible_figure(record: Record, weights: str = "paths", round: int | None = None,
                    size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """Mr. X's probability per station, detectives as rings, his last reveal as a star."""
    from .tracker import possible

    rec = record.at_round(round)
    res = possible(rec, weights=weights)
    coords, why = layout(rec.board)
    handles: list[Any] = transport_handles() + detective_handles(res.detectives)
    if res.last_reveal:
        handles.append(star_handle(f"Mr. X last seen ({res.last_reveal[1]}, move {res.last_reveal[0]})"))
    handles.append(Patch(facecolor=EMPTY_FILL, edgecolor=EMPTY_EDGE, label="impossible"))
    if res.capture:
        what = f"Mr. X caught at {res.capture.station} by {res.capture.by}"
    else:
        what = f"{len(res.stations)} possible stations"
    frame = _frame(size, dpi, _note(f"Where is Mr. X?  {_name(rec)}: {_when(rec)}: {what}", why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    cmap = floor_cmap()
    norm, ticks = _prob_norm(res.probabilities)
    fills = _colour_of(res.probabilities, cmap, norm)
    ba.stations(fills, {s: ("#222222", 1.3) for s in fills})
    if res.last_reveal:
        ba.mrx(res.last_reveal[1])
    ba.detectives(res.detectives)
    scale = "log scale" if isinstance(norm, mcolors.LogNorm) else "linear"
    _colorbar(frame, cmap, norm, f"probability ({weights} weights, {scale})", ticks,
              None if ticks is None else [f"{t:.2g}" for t in ticks])
    return frame.fig


def history_figure(record: Record, weights: str = "paths", round: int | None = None,
                   size: tuple[float, float] | None = None, dpi: int | None = None, panels: bool = False) -> Figure:
    """Mr. X's most likely route given the whole record (:func:`sy_tools.route.likely_route`):
    each hop a curved arrow labelled with its move number and ticket, the stations filled by
    their probability at that move, reveals starred, detectives where they stand now.  With
    ``panels``: one small board per move instead, each with its own colour scale."""
    if panels:
        return _history_panels(record, weights, round, size, dpi)
    from .route import likely_route
    from .tracker import possible

    rec = record.at_round(round)
    route = likely_route(rec, weights)
    now = possible(rec, weights=weights)
    coords, why = layout(rec.board)
    n = len(route)
    cmap = floor_cmap()
    norm = mcolors.Normalize(vmin=0.0, vmax=1.0)
    handles: list[Any] = transport_handles() + detective_handles(now.detectives)
    if route.reveals:
        handles.append(star_handle("revealed"))
    handles.append(Line2D([], [], color="#333333", lw=2, marker=">", label="hop: move number + ticket "
                          "(T taxi, B bus, U underground, K black)"))
    sure = sum(1 for p in route.probabilities if p > 0.999)
    title = (f"Mr. X's most likely route  {_name(rec)}: moves 1-{n} given the whole record, {_when(rec)}; "
             f"{sure} of {n} stations certain") if n else f"Mr. X's route  {_name(rec)}: no move yet"
    if now.capture:
        title += f"; caught at {now.capture.station} by {now.capture.by}"
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    fills: dict[Station, Any] = {}
    best: dict[Station, float] = {}
    for s, p in zip(route.stations, route.probabilities):
        best[s] = max(best.get(s, 0.0), p)
    fills = {s: cmap(norm(p)) for s, p in best.items()}
    ba.stations(fills, {s: ("#222222", 1.4) for s in fills})
    for m in route.reveals:
        if m <= n:
            ba.mrx(route.move(m))
    ba.detectives(now.detectives)
    hop_cmap = matplotlib.colormaps["viridis"]
    # one arrow per direction between two stations, its label listing every move made along it
    hops: dict[tuple[Station | None, Station], list[str]] = {}
    last: dict[tuple[Station | None, Station], int] = {}
    for m, a, b, t in route.hops():
        key = (a, b)
        hops.setdefault(key, []).append(f"{m}{LETTER[t]}")
        last[key] = m
    for (a, b), labels in sorted(hops.items(), key=lambda kv: last[kv[0]]):
        colour = mcolors.to_hex(hop_cmap(0.85 * (last[(a, b)] - 1) / max(1, n - 1)))
        text = ",".join(labels[:3]) + (f" +{len(labels) - 3}" if len(labels) > 3 else "")
        if a is None or a == b:
            ba.label(coords[b], text, colour, fontsize=max(5.5, ba.diameter * 0.42), bold=True,
                     distance=ba.diameter * 0.8)
            continue
        ba.arrow(a, b, colour, text, width=max(1.2, ba.diameter * 0.12))
    _colorbar(frame, cmap, norm, "probability he was there at that move")
    return frame.fig


def _history_panels(record: Record, weights: str, round: int | None, size: tuple[float, float] | None,
                    dpi: int | None, max_panels: int = 30) -> Figure:
    from .route import likely_route
    from .tracker import possible

    rec = record.at_round(round)
    res = possible(rec, weights=weights, history=True)
    hist = res.history or ()
    probs = res.history_probabilities or ()
    route = likely_route(rec, weights)
    first = max(0, len(hist) - max_panels)
    shown = list(range(first, len(hist)))
    n = max(1, len(shown))
    w, h = size or DEFAULT_SIZE
    cols = max(1, min(n, round_half(math.sqrt(n * w / h))))
    rows = math.ceil(n / cols)
    cmap = floor_cmap()
    later = f" (the last {len(shown)} of {len(hist)} moves)" if first else ""
    coords, why = layout(rec.board)
    title = (f"Where could Mr. X have been?  {_name(rec)}, {_when(rec)}: one board per move given the whole "
             f"record{later}; each board's colours run from 0 to that move's top probability")
    handles: list[Any] = [Line2D([], [], marker="o", ls="", mfc="none", mec="#555555", mew=2, ms=9,
                                 label="detectives then")]
    if any(m in route.reveals for m in range(1, len(hist) + 1)):
        handles.append(star_handle("revealed"))
    frame = _frame((w, h), dpi, _note(title, why), handles, True)
    x0, y0, fw, fh = frame.main
    cell_w, cell_h = fw / cols, fh / rows
    for k, i in enumerate(shown):
        r, c = divmod(k, cols)
        rect = (x0 + c * cell_w, y0 + fh - (r + 1) * cell_h, cell_w * 0.98, cell_h * 0.86)
        stations = hist[i]
        p = probs[i] if i < len(probs) else {s: 1 / len(stations) for s in stations}
        dets = route.detectives[i] if i < len(route.detectives) else {}
        ba = BoardAxes(frame.fig, rect, rec.board, coords, labels=True, scale=1.0, view=stations)
        top = max(p.values(), default=1.0) or 1.0
        norm = mcolors.Normalize(vmin=0.0, vmax=top)
        fills = _colour_of(p, cmap, norm)
        ba.stations(fills, {s: ("#222222", 1.0) for s in fills})
        if rec.rules.is_reveal(i + 1):
            ba.mrx(hist[i][0])
        ba.detectives(dets, names=False)
        best_s = min(p, key=lambda s: (-p[s], s)) if p else None
        ticket = route.tickets[i] if i < len(route.tickets) else None
        head = f"move {i + 1}{' ' + LETTER[ticket] if ticket else ''}: {len(stations)} station" \
               f"{'s' if len(stations) != 1 else ''}"
        if best_s is not None:
            head += f", top {best_s} ({p[best_s]:.2f})"
        ba.ax.set_title(head, fontsize=frame.fontsize * 0.85, pad=2)
    _colorbar(frame, cmap, mcolors.Normalize(vmin=0.0, vmax=1.0), "share of that move's top probability")
    return frame.fig


def round_half(x: float) -> int:
    return int(math.floor(x + 0.5))


def _moves_norm(values: Mapping[Station, int]) -> tuple[Any, Any, list[int]]:
    top = max(values.values(), default=1)
    top = max(top, 1)
    import numpy as np

    # the scale's palest end is left out, so the farthest stations stay apart from unreached ones
    cmap = mcolors.ListedColormap(matplotlib.colormaps[MOVES_CMAP](np.linspace(0.0, 0.78, top + 1)))
    norm = mcolors.BoundaryNorm([i - 0.5 for i in range(top + 2)], top + 1)
    return cmap, norm, list(range(top + 1))


def reach_figure(board: Board, start: Station | Sequence[Station], tickets: Mapping[str, int] | None = None,
                 black: bool = False, size: tuple[float, float] | None = None, dpi: int | None = None,
                 title: str | None = None) -> Figure:
    """How many moves a piece needs to reach each station from the nearest of ``start``."""
    from .board import DETECTIVE_TICKETS
    from .reach import reach_from

    starts = (start,) if isinstance(start, int) else tuple(start)
    for s in starts:
        if s not in board:
            raise InputError(f"station {s} is not on the map {board.name!r}", where="--from")
    kinds = tuple(DETECTIVE_TICKETS) + ((Ticket.BLACK,) if black else ())
    dist = reach_from(board, starts, tickets, kinds)
    coords, why = layout(board)
    limits = "unlimited tickets" if tickets is None else ", ".join(f"{k} {v}" for k, v in tickets.items())
    where = " ".join(map(str, starts))
    title = title or f"Reach from {where} ({limits}): {len(dist)} stations within {max(dist.values())} moves"
    handles: list[Any] = transport_handles() + [
        Line2D([], [], marker="o", ls="", mfc="none", mec="black", mew=2.5, ms=10, label="start")]
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, board, coords)
    cmap, norm, ticks = _moves_norm(dist)
    fills = {s: cmap(norm(v)) for s, v in dist.items()}
    ba.stations(fills, {s: ("#333333", 0.8) for s in fills})
    ba.rings(starts, "black", 1.6, 2.5)
    _colorbar(frame, cmap, norm, "moves needed", ticks)
    return frame.fig


def mrx_reach_figure(record: Record, round: int | None = None, starts: Sequence[Station] | None = None,
                     size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """Where Mr. X can get before his next reveal: from his possible set (or ``starts``), with
    the tickets he holds, never onto a detective's station (:func:`sy_tools.reach.mrx_reach`)."""
    from .reach import mrx_reach
    from .referee import check
    from .tracker import possible

    rec = record.at_round(round)
    res = possible(rec)
    checked = check(rec)
    pos = checked.position
    assert pos is not None
    if checked.status.over:
        raise AnalysisError(f"the game is over: {checked.status.describe()}", rec.file)
    if starts:
        for s in starts:
            if s not in rec.board:
                raise InputError(f"station {s} is not on the map {rec.board.name!r}", where="--from")
    origin = tuple(starts) if starts else res.stations
    left = rec.rules.log_length - res.move
    moves = res.moves_to_reveal if res.moves_to_reveal is not None else min(5, left)
    mr = mrx_reach(rec.board, origin, pos.mrx_tickets.held(), pos.occupied, moves, rec.rules)
    coords, why = layout(rec.board)
    until = f"by his next reveal (move {res.next_reveal}, {moves} moves)" if res.next_reveal else \
        f"in his next {moves} moves"
    from_ = f"from {' '.join(map(str, origin))}" if starts else f"from his {len(origin)} possible stations"
    title = (f"Mr. X's reach {until}  {_name(rec)}, {_when(rec)}: {from_}; {len(mr.at_end)} stations where he "
             f"may stand then, {len(mr.dist)} within reach")
    handles: list[Any] = transport_handles() + detective_handles(res.detectives) + [
        Line2D([], [], marker="o", ls="", mfc="white", mec="#111111", mew=2.0, ms=10,
               label=f"where he may stand after {moves} moves")]
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    cmap, norm, ticks = _moves_norm(mr.dist)
    fills = {s: cmap(norm(v)) for s, v in mr.dist.items()}
    edges = {s: ("#777777", 0.6) for s in fills}
    edges.update({s: ("#111111", 2.0) for s in mr.at_end})
    ba.stations(fills, edges)
    ba.detectives(res.detectives)
    _colorbar(frame, cmap, norm, "fewest moves from where he may be now", ticks)
    return frame.fig


def coverage_figure(record: Record, round: int | None = None, size: tuple[float, float] | None = None,
                    dpi: int | None = None) -> Figure:
    """Each station in the colour of the detective that reaches it in the fewest moves with its
    remaining tickets (paler = farther; a split disc = a tie), the number in it being those
    moves."""
    from .reach import nearest
    from .referee import check

    rec = record.at_round(round)
    pos = check(rec).position
    assert pos is not None
    dets = {n: (s, t.to_dict(DETECTIVE_TICKET_KINDS))
            for n, s, t in zip(pos.names, pos.stations, pos.tickets) if n not in pos.out}
    near = nearest(rec.board, dets)
    moving = {n for n, (s, t) in dets.items() if any(rec.board.moves(s, Ticket(k)) for k, v in t.items() if v > 0)}

    def _stuck(name: str) -> str:
        return " out" if name in pos.out else ("" if name in moving else " stuck: no ticket for its station")
    colour = {n: detective_colour(n, i) for i, n in enumerate(pos.names)}
    coords, why = layout(rec.board)
    thin = sum(1 for s in rec.board.stations if near.get(s, (99,))[0] >= 3)
    title = (f"Detective coverage  {_name(rec)}: {_when(rec)}; colour = nearest detective, number = its moves; "
             f"{thin} stations 3+ moves away")
    handles: list[Any] = transport_handles() + [
        Patch(facecolor=colour[n], edgecolor="#333333", label=f"{n} ({s}){_stuck(n)}")
        for n, s in zip(pos.names, pos.stations)]
    handles.append(Patch(facecolor=EMPTY_FILL, edgecolor=EMPTY_EDGE, label="out of reach"))
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    top = max((v[0] for v in near.values()), default=1)

    def shade(name: str, moves: int) -> Any:
        fade = min(0.8, 0.8 * moves / max(top, 4))
        rgb = mcolors.to_rgb(colour[name])
        return tuple(c + (1 - c) * fade for c in rgb)

    fills = {s: shade(names[0], n) for s, (n, names) in near.items()}
    texts = {s: str(n) for s, (n, _) in near.items()}
    texts.update({s: "-" for s in rec.board.stations if s not in near})
    text_colour = {s: "#111111" if _luminance(mcolors.to_rgba(f)) > 0.5 else "white" for s, f in fills.items()}
    ba.stations(fills, {s: ("#333333", 0.7) for s in fills}, texts=texts, text_colour=text_colour)
    for s, (n, names) in near.items():
        if len(names) > 1:
            ba.wedges(s, [shade(x, n) for x in names])
            if ba.labels and ba.diameter >= 7:
                ba.ax.text(*coords[s], texts[s], ha="center", va="center", fontsize=ba.diameter * 0.42, zorder=6,
                           color="#111111", fontweight="bold")
    ba.detectives(pos.positions())
    cmap = mcolors.ListedColormap([(min(0.8, 0.8 * m / max(top, 4)),) * 3 for m in range(top + 1)])
    norm = mcolors.BoundaryNorm([i - 0.5 for i in range(top + 2)], top + 1)
    _colorbar(frame, cmap, norm, "moves (paler = farther)", list(range(top + 1)))
    return frame.fig


def cordon_figure(record: Record, moves: int = 1, round: int | None = None, time_limit: float = 10.0,
                  size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """The minimal cordon (orange rings), the plan's moves as curved arrows labelled turn and
    ticket, stations the plan leaves open (magenta squares), Mr. X's probability as the fill."""
    from .cordon import cordon

    rec = record.at_round(round)
    res = cordon(rec, moves=moves, time_limit=time_limit)
    coords, why = layout(rec.board)
    positions = {p.name: p.path[0] for p in res.plan}
    handles: list[Any] = transport_handles() + detective_handles(positions) + [
        Line2D([], [], marker="o", ls="", mfc="white", mec=CORDON_COLOUR, mew=3, ms=12,
               label=f"a minimal cordon ({res.cordon_size})"),
        Line2D([], [], marker="s", ls="", mfc="white", mec=OPEN_COLOUR, mew=2.5, ms=12,
               label=f"left open ({len(res.open)})"),
        Line2D([], [], color="#333333", lw=2, marker=">", label="move: turn + ticket (T, B, U)"),
    ]
    verdict = "seals every possible station" if res.feasible else \
        f"seals {res.sealed_probability:.0%} of the probability"
    title = (f"Cordon  {_name(rec)}: {_when(rec)}; {len(res.target)} stations to seal, cordon size "
             f"{res.cordon_size}; {moves}-turn plan {verdict}")
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    cmap = floor_cmap()
    norm, ticks = _prob_norm(res.probabilities)
    fills = _colour_of(res.probabilities, cmap, norm)
    ba.stations(fills, {s: ("#222222", 1.2) for s in fills})
    ba.rings(res.cordon, CORDON_COLOUR, 1.35, max(2.0, ba.diameter * 0.16), zorder=6.6)
    ba.rings(res.open, OPEN_COLOUR, 1.5, max(1.8, ba.diameter * 0.13), marker="s", zorder=6.7)
    ba.detectives(positions)
    for i, p in enumerate(res.plan):
        colour = detective_colour(p.name, i)
        for turn, (a, b, t) in enumerate(zip(p.path, p.path[1:], p.tickets), 1):
            if t is None or a == b:
                continue
            ba.arrow(a, b, colour, f"{turn}{LETTER[Ticket(t)]}", width=max(1.5, ba.diameter * 0.14))
    _colorbar(frame, cmap, norm, "Mr. X's probability", ticks, None if ticks is None else [f"{t:.2g}" for t in ticks])
    return frame.fig


# ---- win rates by Mr. X's start (simulation results) -------------------------------------------


@dataclass(frozen=True)
class WinRates:
    """Mr. X's wins and games per start station."""

    wins: dict[Station, int]
    games: dict[Station, int]

    def rate(self, s: Station) -> float:
        return self.wins.get(s, 0) / self.games[s]

    def to_dict(self) -> dict[str, Any]:
        return {str(s): {"games": g, "mrx_wins": self.wins.get(s, 0)} for s, g in sorted(self.games.items())}


WINNERS = ("mrx", "detectives")


def load_winrates(path: str | os.PathLike[str], board: Board) -> WinRates:
    """Read simulation results: a CSV with (at least) the columns ``mrx_start`` and ``winner``
    (``mrx`` or ``detectives``), a JSON list of objects with those keys, or the ``.parquet``
    that ``simulate --out`` writes.  Every bad row is an
    :class:`InputError` naming the file, the row and the column."""
    import csv

    from .files import read_text

    p = Path(path)
    if p.suffix.lower() == ".parquet":  # what simulate --out writes
        from .simulate import win_rates_from_file

        got = win_rates_from_file(str(p))
        for s in got:
            if s not in board:
                raise InputError(f"mrx_start {s} is not a station of the map {board.name!r}", str(path))
        if not got:
            raise InputError("no games in the file", str(path))
        return WinRates({s: round(r * n) for s, (n, r, _, _) in got.items()}, {s: v[0] for s, v in got.items()})
    text = read_text(p)
    rows: list[tuple[str, Any, Any]] = []
    if p.suffix.lower() == ".json" or text.lstrip().startswith("["):
        from . import jsonutil

        try:
            data = jsonutil.loads(text)
        except (ValueError, RecursionError) as e:
            raise InputError(f"not valid JSON: {str(e)[:200]}", str(path)) from None
        problems: list[tuple[str, str]] = []
        jsonutil.scan(data, "", lambda where, msg: problems.append((where, msg)))
        if problems:  # a repeated key, a lone surrogate: which value would count?
            raise InputError(problems[0][1], str(path), problems[0][0] or None)
        if not isinstance(data, list):
            raise InputError("expected a JSON list of {\"mrx_start\", \"winner\"} objects", str(path))
        for i, row in enumerate(data):
            if not isinstance(row, dict):
                raise InputError("expected an object", str(path), f"[{i}]")
            for key in ("mrx_start", "winner"):
                if key not in row:
                    raise InputError(f"missing key {key!r}", str(path), f"[{i}]")
            rows.append((f"[{i}]", row["mrx_start"], row["winner"]))
    else:
        reader = csv.DictReader(io.StringIO(text))
        fields = reader.fieldnames or []
        for key in ("mrx_start", "winner"):
            if key not in fields:
                raise InputError(f"missing column {key!r} (columns: {', '.join(fields) or 'none'})", str(path),
                                 "line 1")
            if fields.count(key) > 1:
                raise InputError(f"column {key!r} appears {fields.count(key)} times", str(path), "line 1")
        for row in reader:
            if row["mrx_start"] is None or row["winner"] is None:
                raise InputError(f"expected {len(fields)} cells, got fewer", str(path), f"line {reader.line_num}")
            rows.append((f"line {reader.line_num}", row["mrx_start"], row["winner"]))
    wins: dict[Station, int] = {}
    games: dict[Station, int] = {}
    for where, start, winner in rows:
        if isinstance(start, str) and start.strip().isascii() and start.strip().isdigit() and len(start) < 12:
            start = int(start)
        if not isinstance(start, int) or isinstance(start, bool) or start not in board:
            raise InputError(f"mrx_start {str(start)[:40]!r} is not a station of the map {board.name!r}", str(path),
                             where)
        if winner not in WINNERS:
            raise InputError(f"winner {str(winner)[:40]!r} must be 'mrx' or 'detectives'", str(path), where)
        games[start] = games.get(start, 0) + 1
        wins[start] = wins.get(start, 0) + (winner == "mrx")
    if not games:
        raise InputError("no games in the file", str(path))
    return WinRates(wins, games)


def winrate_figure(board: Board, rates: WinRates, size: tuple[float, float] | None = None, dpi: int | None = None,
                   source: str = "results") -> Figure:
    """Each start station coloured by Mr. X's win rate from there; the number under it is the
    number of games that started there."""
    coords, why = layout(board)
    total = sum(rates.games.values())
    won = sum(rates.wins.values())
    title = (f"Mr. X's win rate by start station  {Path(source).name}: {total} games, Mr. X won {won} "
             f"({won / total:.0%}); under a station: his win rate there and games from that start")
    handles: list[Any] = transport_handles() + [Patch(facecolor=EMPTY_FILL, edgecolor=EMPTY_EDGE,
                                                      label="no game started here")]
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, board, coords)
    cmap = matplotlib.colormaps[WINRATE_CMAP]
    # the scale spans the rates seen (rounded up to a tenth), so 8% and 16% look different
    top = max((rates.rate(s) for s in rates.games), default=1.0)
    norm = mcolors.Normalize(vmin=0.0, vmax=min(1.0, max(0.1, math.ceil(top * 10) / 10)))
    fills = {s: cmap(norm(rates.rate(s))) for s in rates.games}
    ba.stations(fills, {s: ("#222222", 1.2) for s in fills})
    if ba.diameter >= 7:
        for s, g in rates.games.items():
            x, y = coords[s]
            ba.ax.text(x, y + ba.units(ba.diameter * 0.6), f"{rates.rate(s):.0%} of {g}", ha="center", va="top",
                       fontsize=max(5.0, ba.diameter * 0.38), color="#222222", zorder=6,
                       bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})
    _colorbar(frame, cmap, norm, "Mr. X's win rate from that start")
    return frame.fig


def solve_figure(board: Board, result: Any, size: tuple[float, float] | None = None,
                 dpi: int | None = None) -> Figure:
    """A forced win (:class:`sy_tools.solve.SolveResult`) drawn: Mr. X's possible stations
    (magenta squares), the detectives, the first joint move as solid arrows labelled ``1`` and
    the ticket, and for each ticket he may show next the detectives' answer as thinner arrows
    labelled ``2`` and the ticket he showed (``2U/bus``)."""
    coords, why = layout(board)
    positions = dict(result.start)
    possible = stations_of(result.possible)
    handles: list[Any] = transport_handles() + detective_handles(positions) + [
        Line2D([], [], marker="s", ls="", mfc="white", mec=OPEN_COLOUR, mew=2.5, ms=12,
               label=f"Mr. X may be here ({len(possible)})"),
        Line2D([], [], color="#333333", lw=2.4, marker=">", label="turn 1: move + ticket"),
        Line2D([], [], color="#333333", lw=1.2, marker=">", label="turn 2: if he shows that ticket"),
    ]
    if result.forced:
        verdict = f"forced win in {result.turns} turn{'s' if result.turns != 1 else ''} (proved)"
    elif result.forced is False:
        verdict = f"no forced win within {result.max_turns} (proved)"
    else:
        verdict = "unknown (a limit stopped the search)"
    setup = ", ".join(f"{n} {st}" for n, st in positions.items())
    shown = " ".join(map(str, possible[:8])) + (" ..." if len(possible) > 8 else "")
    frame = _frame(size, dpi, f"Forced capture  Mr. X at {shown}; {setup}: {verdict}", handles, False)
    ba = BoardAxes(frame.fig, frame.main, board, coords)
    ba.stations({}, {s: ("#222222", 1.2) for s in possible})
    ba.rings(possible, OPEN_COLOUR, 1.5, max(1.8, ba.diameter * 0.13), marker="s", zorder=6.7)
    ba.detectives(positions)
    colour = {n: detective_colour(n, i) for i, n in enumerate(positions)}
    node = result.strategy
    if node is not None:
        where = dict(positions)
        for m in node.moves:
            if m.to is not None:
                ba.arrow(where[m.piece], m.to, colour[m.piece], f"1{LETTER[m.tickets[0]]}",
                         width=max(1.8, ba.diameter * 0.16))
                where[m.piece] = m.to
        for reply in node.replies:
            shown = "+".join(t.value for t in reply.tickets)
            after = dict(where)
            for m in reply.then.moves:
                if m.to is not None and after[m.piece] != m.to:
                    ba.arrow(after[m.piece], m.to, colour[m.piece], f"2{LETTER[m.tickets[0]]}/{shown}",
                             width=max(1.0, ba.diameter * 0.08), fontsize=max(5.0, ba.diameter * 0.3))
                    after[m.piece] = m.to
    return frame.fig


# ---- saving -----------------------------------------------------------------------------------


def save(fig: Figure, path: str | os.PathLike[str], dpi: int | None = None) -> Path:
    """Write ``fig`` atomically; the format comes from the suffix (.png, .svg, .pdf)."""
    p = Path(path)
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise InputError(f"unknown image format {p.suffix or '(none)'!r}, expected .png, .svg or .pdf", str(path))
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi or fig.dpi, facecolor="white")
    plt.close(fig)
    atomic_write_bytes(p, buf.getvalue())
    return p
