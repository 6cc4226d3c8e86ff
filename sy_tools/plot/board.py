"""Drawing the board: connections, stations, pieces."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import matplotlib.colors as mcolors
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Wedge
from matplotlib.text import Text

from ..engine.board import Board
from ..engine.stations import Station
from ..engine.tickets import Transport
from ..formats.record import Record
from .style import (
    EMPTY_EDGE,
    EMPTY_FILL,
    MIN_NUMBER_PT,
    NUMBER_HEIGHT,
    NUMBER_WIDTH,
    PALETTE,
    PROB_CMAP,
    PROB_FLOOR,
    READABLE_PT,
    STAR_FILL,
    TRANSPORT_STYLE,
    Point,
)


@dataclass(frozen=True)
class Geometry:
    """How a board fits a drawing area: the data limits, points per data unit, the typical
    station spacing (data units), the station numbers' font size and the discs' diameter (points)."""

    xlim: tuple[float, float]
    ylim: tuple[float, float]
    pt_per_unit: float
    spacing: float
    number_size: float
    diameter: float

    @property
    def readable(self) -> bool:
        """Whether the station numbers are big enough to draw."""
        return self.number_size >= READABLE_PT


def board_geometry(board: Board, coords: Mapping[Station, Point], width_pt: float, height_pt: float,
                   view: Iterable[Station] | None = None, scale: float = 1.0) -> Geometry:
    """Fit ``view`` (default: every station) into ``width_pt`` x ``height_pt`` points.  The disc is a
    fraction of the typical station spacing; the numbers are at least ``MIN_NUMBER_PT`` where the
    map leaves room for them (no two overlapping: :func:`number_room`), and the disc grows to hold
    its number."""
    view = list(view or ())
    framed = [coords[s] for s in view] or list(coords.values()) or [(0.0, 0.0)]
    xs = [p[0] for p in framed]
    ys = [p[1] for p in framed]
    spacing = _typical_spacing(board, coords)
    pad = max(0.03 * max(max(xs) - min(xs), max(ys) - min(ys)), 2.5 * spacing if view else 0.0, 1.0)
    xlim = (min(xs) - pad, max(xs) + pad)
    ylim = (min(ys) - pad, max(ys) + pad)
    if view and coords:  # a zoomed view never reaches past the whole board's own frame
        whole = board_geometry(board, coords, width_pt, height_pt, None, scale)
        xlim = (max(xlim[0], whole.xlim[0]), min(xlim[1], whole.xlim[1]))
        ylim = (max(ylim[0], whole.ylim[0]), min(ylim[1], whole.ylim[1]))
    pt_per_unit = min(width_pt / (xlim[1] - xlim[0]), height_pt / (ylim[1] - ylim[0]))
    spacing_pt = spacing * pt_per_unit
    disc = 0.42 * spacing_pt * scale
    inside = [s for s, (x, y) in coords.items() if xlim[0] <= x <= xlim[1] and ylim[0] <= y <= ylim[1]]
    room = number_room(coords, spacing, inside) * spacing_pt
    number_size = min(room, max(0.42 * disc, MIN_NUMBER_PT), 0.42 * 40.0)
    diameter = max(3.0, min(max(disc, NUMBER_WIDTH * 3 * number_size * 0.9), 40.0))
    return Geometry(xlim, ylim, pt_per_unit, spacing, number_size, diameter)


class BoardAxes:
    """One drawn board: the axes, the positions, the marker size, and a label placer that keeps
    labels off station numbers and off each other."""

    def __init__(self, fig: Figure, rect: Sequence[float], board: Board, coords: Mapping[Station, Point],
                 labels: bool = True, scale: float = 1.0, view: Iterable[Station] | None = None) -> None:
        self.board = board
        self.coords = coords
        self.ax = ax = fig.add_axes((rect[0], rect[1], rect[2], rect[3]))
        g = board_geometry(board, coords, fig.get_figwidth() * 72 * rect[2], fig.get_figheight() * 72 * rect[3],
                           view, scale)
        self.xlim, self.ylim, self.pt_per_unit, spacing = g.xlim, g.ylim, g.pt_per_unit, g.spacing
        ax.set_xlim(*self.xlim)
        ax.set_ylim(self.ylim[1], self.ylim[0])  # y grows downwards in the data
        ax.set_aspect("equal", adjustable="box")
        ax.set_axis_off()
        #: the station numbers' font size (points) and the discs' diameter (points)
        self.number_size = g.number_size
        self.diameter = g.diameter
        self.labels = labels and g.readable
        #: the stations drawn (those wholly inside the axes) and their number labels
        self.drawn: list[Station] = []
        self.numbers: dict[Station, Text] = {}
        self._boxes: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
        self._cell = max(spacing, 1e-9)
        self._arcs: dict[frozenset[Station], Point] = {}  # control point of the first arrow per pair
        self._draw_connections()

    # -- geometry helpers

    def units(self, points: float) -> float:
        """``points`` (typographic) in data units."""
        return points / self.pt_per_unit

    def _visible(self, s: Station) -> bool:
        """Whether station ``s``'s disc (and a ring around it) lies wholly inside the axes: a
        station near a zoomed view's edge is left out rather than cut."""
        x, y = self.coords[s]
        m = self.units(self.diameter * 0.6 + 1.0)
        return self.xlim[0] + m <= x <= self.xlim[1] - m and self.ylim[0] + m <= y <= self.ylim[1] - m

    def _draw_connections(self) -> None:
        for t, style in TRANSPORT_STYLE.items():
            segs = [(self.coords[c.a], self.coords[c.b]) for c in self.board.connections if c.transport is t]
            if segs:
                self.ax.add_collection(LineCollection(segs, **style))

    # -- stations

    def stations(self, fills: Mapping[Station, Any] | None = None, edges: Mapping[Station, tuple[str, float]] | None
                 = None, texts: Mapping[Station, str] | None = None, text_colour: Mapping[Station, str] | None = None
                 ) -> None:
        """Every station inside the axes as a disc: ``fills`` (colours; others light grey),
        ``edges`` (colour, width; others a thin grey), and its number (or ``texts[s]``) on top."""
        order = [s for s in self.board.stations if self._visible(s)]
        self.drawn = order
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
        if self.labels:
            for s, fill in zip(order, face):
                colour = (text_colour or {}).get(s)
                if colour is None:
                    colour = "#111111" if _luminance(fill) > 0.5 else "white"
                    if s not in fills and s not in edges:
                        colour = "#666666"
                self.numbers[s] = self.ax.text(*self.coords[s], (texts or {}).get(s, str(s)), ha="center",
                                               va="center", fontsize=self.number_size, zorder=6, color=colour)

    def rings(self, stations: Iterable[Station], colour: str, factor: float, width: float, marker: str = "o",
              zorder: float = 6.5) -> None:
        """An outline marker ``factor`` times a station's size around each of ``stations`` (those
        inside the axes)."""
        pts = [self.coords[s] for s in stations if self._visible(s)]
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

    def detectives(self, positions: Mapping[str, Station], names: bool = True, stuck: Iterable[str] = (),
                   colours: Mapping[str, str] | None = None, fontsize: float | None = None) -> None:
        """Detectives as coloured rings around their stations, with their names placed clear of
        station numbers; a detective in ``stuck`` (stranded: no ticket for any way out) gets a
        cross on its ring and "stuck" after its name."""
        stuck = set(stuck)
        for i, (name, s) in enumerate(positions.items()):
            colour = (colours or {}).get(name) or detective_colour(name, i)
            self.rings([s], colour, 1.75, max(1.6, self.diameter * 0.14), zorder=7)
            if name in stuck and self._visible(s):
                x, y = self.coords[s]
                self.ax.scatter([x], [y], s=(self.diameter * 1.6) ** 2, marker="x", c=[colour], alpha=0.8,
                                linewidths=max(1.6, self.diameter * 0.12), zorder=5.5)  # under its number
            if names and self._visible(s):
                self.label(self.coords[s], name + (" stuck" if name in stuck else ""), colour,
                           fontsize=fontsize or max(6.0, self.diameter * 0.5), bold=True, distance=self.diameter * 1.2)

    def trails(self, trails: Mapping[str, Sequence[Station]], colours: Mapping[str, str] | None = None) -> None:
        """Each detective's way so far as a pale band in its colour (straight from station to
        station, under the connections, so it never reads as one of them)."""
        for i, (name, path) in enumerate(trails.items()):
            pts = [self.coords[s] for k, s in enumerate(path) if k == 0 or s != path[k - 1]]
            if len(pts) > 1:
                colour = (colours or {}).get(name) or detective_colour(name, i)
                self.ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, lw=max(2.0, self.diameter * 0.4),
                             alpha=0.3, zorder=0.5, solid_capstyle="round", solid_joinstyle="round")

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
              distance: float | None = None, box: bool = True, clear: bool = False) -> bool:
        """Place ``text`` near ``anchor`` (data units) where it covers the least of the stations
        and labels already placed (eight candidate directions, nearer ones first).  With
        ``clear``, only where it covers nothing at all (else it is left out: False)."""
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
                covered = self._overlap(rect) / (w * h)
                score = covered + 0.02 * k + 0.05 * (reach > 1)
                if rect[0] < self.xlim[0] or rect[2] > self.xlim[1] or rect[1] < self.ylim[0] or rect[3] > self.ylim[1]:
                    score += 5
                    covered += 5
                if best is None or score < best[0]:
                    best = (score, cx, cy, covered)
        assert best is not None
        _, cx, cy, covered = best
        if clear and covered > 1e-9:  # every place overlaps something (or leaves the axes)
            return False
        self._reserve((cx, cy), w, h)
        bbox = {"boxstyle": "round,pad=0.15", "fc": "white", "ec": colour, "lw": 0.8, "alpha": 0.92} if box else None
        self.ax.text(cx, cy, text, ha="center", va="center", fontsize=fontsize, color=colour, zorder=10,
                     fontweight="bold" if bold else "normal", bbox=bbox)
        return True

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


def detective_handles(positions: Mapping[str, Station], stuck: Iterable[str] = ()) -> list[Line2D]:
    stuck = set(stuck)
    return [Line2D([], [], marker="o", ls="", mfc="none", mec=detective_colour(n, i), mew=2.5, ms=10,
                   label=f"{n} ({s}){' stuck: no way out' if n in stuck else ''}")
            for i, (n, s) in enumerate(positions.items())]


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


def number_room(coords: Mapping[Station, Point], spacing: float, stations: Iterable[Station] | None = None) -> float:
    """The largest station-number font size, in units of the typical spacing, at which no two
    numbers' boxes overlap (a number is ``NUMBER_WIDTH`` wide a digit and ``NUMBER_HEIGHT`` high,
    in font sizes) among ``stations`` (default: all).  Only pairs closer than a spacing can bind;
    a grid finds them in linear time."""
    cell = max(spacing, 1e-9)
    grid: dict[tuple[int, int], list[Station]] = {}
    for s in (coords if stations is None else stations):
        x, y = coords[s]
        grid.setdefault((int(x // cell), int(y // cell)), []).append(s)
    room = 1.0
    for (i, j), members in grid.items():
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for b in grid.get((i + di, j + dj), ()):
                    for a in members:
                        if a >= b:
                            continue
                        dx = abs(coords[a][0] - coords[b][0])
                        dy = abs(coords[a][1] - coords[b][1])
                        wide = NUMBER_WIDTH * (len(str(a)) + len(str(b))) / 2
                        room = min(room, max(dx / wide, dy / NUMBER_HEIGHT) / cell)
    return room


def _luminance(rgba: Sequence[float]) -> float:
    r, g, b = rgba[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def _name(record: Record) -> str:
    return Path(record.file).name if record.file else "record"


def _when(record: Record) -> str:
    """The same words for the same moment in every title: the rounds the record holds."""
    from ..engine.moves import when_text

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
        return mcolors.LogNorm(vmin=low, vmax=top), nice_ticks(low, top)
    return mcolors.Normalize(vmin=0.0, vmax=top), None


def nice_ticks(low: float, top: float) -> list[float]:
    """Ticks for a logarithmic scale from ``low`` to ``top``: the 1-2-5 steps inside it (at most
    about six), so they read as round numbers (0.1%, 0.2%, 0.5%, 1%), never 0.00099."""
    steps = []
    decade = 10.0 ** math.floor(math.log10(low))
    while decade <= top:
        steps += [m * decade for m in (1, 2, 5) if low * (1 - 1e-9) <= m * decade <= top * (1 + 1e-9)]
        decade *= 10
    while len(steps) > 6:
        steps = steps[::2]
    return steps or [low, top]


def percent(p: float) -> str:
    """A probability as a short percentage: 0.05 -> 5%, 0.002 -> 0.2%, 0.00025 -> 0.03%."""
    v = p * 100
    if v >= 10 or abs(v - round(v)) < 0.05:
        return f"{v:.0f}%"
    return f"{v:.1f}%" if v >= 1 else f"{v:.1g}%"


def _colour_of(values: Mapping[Station, float], cmap: Any, norm: Any) -> dict[Station, Any]:
    return {s: cmap(norm(v)) for s, v in values.items() if v > 0}
