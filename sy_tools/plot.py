"""Heatmaps over the real board layout (matplotlib, Agg backend only).

Every function returns a :class:`matplotlib.figure.Figure`; :func:`save` writes one atomically.
The board is drawn from the map's station coordinates (y grows downwards in the data, so the
y axis is inverted: station 1 sits top left on the London board); a map without coordinates
gets a networkx layout and says so in the title.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import FancyArrowPatch  # noqa: E402

from .board import Board, Station, Ticket, Transport  # noqa: E402
from .errors import InputError  # noqa: E402
from .files import atomic_write_bytes  # noqa: E402
from .record import Record  # noqa: E402

LAYERS = ("possible", "history", "reach", "coverage", "cordon")
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
DEFAULT_SIZE = (16.0, 12.0)
DEFAULT_DPI = 100

#: probability scale (its top colour marks the most likely station)
PROB_CMAP = "BuPu"
#: moves scale (few moves = dark)
MOVES_CMAP = "YlGnBu_r"

TRANSPORT_STYLE: dict[Transport, dict[str, Any]] = {
    Transport.TAXI: {"color": "#e8b500", "linewidth": 1.0, "linestyle": "-", "zorder": 1},
    Transport.BUS: {"color": "#12876f", "linewidth": 2.0, "linestyle": "-", "zorder": 2},
    Transport.UNDERGROUND: {"color": "#d62728", "linewidth": 2.2, "linestyle": (0, (5, 3)), "zorder": 3},
    Transport.FERRY: {"color": "#111111", "linewidth": 2.0, "linestyle": (0, (1, 2)), "zorder": 3},
}
EMPTY_FILL = "#f4f4f4"
PALETTE = ["#e41a1c", "#377eb8", "#4daf4a", "#ff7f00", "#222222", "#984ea3", "#a65628", "#f781bf"]


# ---- layout and drawing primitives ----------------------------------------------------------


def layout(board: Board) -> tuple[dict[Station, tuple[float, float]], bool]:
    """Station positions (data y grows downwards) and whether they were computed."""
    if board.coords:
        return dict(board.coords), False
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(board.stations)
    g.add_edges_from((c.a, c.b) for c in board.connections)
    pos = nx.spring_layout(g, seed=1, iterations=200)
    return {s: (float(x) * 1000, float(-y) * 1000) for s, (x, y) in pos.items()}, True


class BoardAxes:
    """One drawn board: the axes, the positions and the sizes used."""

    def __init__(self, fig: Figure, rect: Sequence[float], board: Board, coords: Mapping[Station, tuple[float, float]],
                 labels: bool = True, scale: float = 1.0) -> None:
        self.board = board
        self.coords = coords
        self.ax = ax = fig.add_axes((rect[0], rect[1], rect[2], rect[3]))
        xs = [p[0] for p in coords.values()]
        ys = [p[1] for p in coords.values()]
        pad = 0.03 * max(max(xs) - min(xs), max(ys) - min(ys), 1)
        ax.set_xlim(min(xs) - pad, max(xs) + pad)
        ax.set_ylim(max(ys) + pad, min(ys) - pad)  # y grows downwards in the data
        ax.set_aspect("equal", adjustable="box")
        ax.set_axis_off()
        # marker size: about a 40th of the typical station spacing, in points
        width_pt = fig.get_figwidth() * 72 * rect[2]
        height_pt = fig.get_figheight() * 72 * rect[3]
        pt_per_unit = min(width_pt / (max(xs) - min(xs) + 2 * pad), height_pt / (max(ys) - min(ys) + 2 * pad))
        spacing = _typical_spacing(board, coords)
        self.diameter = max(3.0, 0.42 * spacing * pt_per_unit * scale)  # points
        self.labels = labels
        self._draw_connections()

    def _draw_connections(self) -> None:
        for t, style in TRANSPORT_STYLE.items():
            segs = [(self.coords[c.a], self.coords[c.b]) for c in self.board.connections if c.transport is t]
            if segs:
                self.ax.add_collection(LineCollection(segs, **style))

    def stations(self, values: Mapping[Station, float] | None = None, cmap: Any = None, norm: Any = None,
                 highlight: Mapping[Station, str] | None = None) -> None:
        """Draw every station: filled by ``values`` through ``cmap``/``norm`` (others light grey),
        with an edge colour from ``highlight`` where given."""
        order = list(self.board.stations)
        fills = []
        for s in order:
            if values is not None and s in values and cmap is not None:
                fills.append(cmap(norm(values[s])))
            else:
                fills.append(mcolors.to_rgba(EMPTY_FILL))
        edges = [mcolors.to_rgba((highlight or {}).get(s, "#555555")) for s in order]
        widths = [2.2 if highlight and s in highlight else 0.6 for s in order]
        xy = [self.coords[s] for s in order]
        self.ax.scatter([p[0] for p in xy], [p[1] for p in xy], s=self.diameter ** 2, c=fills, edgecolors=edges,
                        linewidths=widths, zorder=5)
        if self.labels and self.diameter >= 7:
            fs = self.diameter * 0.42
            for s, fill in zip(order, fills):
                light = _luminance(fill) > 0.5
                self.ax.text(*self.coords[s], str(s), ha="center", va="center", fontsize=fs, zorder=6,
                             color="#111111" if light else "white")

    def detectives(self, positions: Mapping[str, Station]) -> list[Line2D]:
        """Detectives as coloured pawns with their names; returns legend handles."""
        handles = []
        for i, (name, s) in enumerate(positions.items()):
            colour = detective_colour(name, i)
            x, y = self.coords[s]
            self.ax.scatter([x], [y], s=(self.diameter * 1.9) ** 2, marker="o", facecolors="none",
                            edgecolors=colour, linewidths=3.0, zorder=7)
            self.ax.annotate(name, (x, y), xytext=(0, self.diameter * 1.15), textcoords="offset points",
                             ha="center", va="bottom", fontsize=max(6.0, self.diameter * 0.55), color=colour,
                             fontweight="bold", zorder=8,
                             bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": colour, "lw": 0.8})
            handles.append(Line2D([], [], marker="o", ls="", mfc="none", mec=colour, mew=2.5, ms=10,
                                  label=f"{name} ({s})"))
        return handles

    def mrx(self, station: Station, move: int) -> Line2D:
        """Mr. X's last revealed station."""
        x, y = self.coords[station]
        self.ax.scatter([x], [y], s=(self.diameter * 2.6) ** 2, marker="*", facecolors="none",
                        edgecolors="black", linewidths=1.6, zorder=7)
        return Line2D([], [], marker="*", ls="", mfc="none", mec="black", ms=14,
                      label=f"Mr. X last seen ({station}, move {move})")


def detective_colour(name: str, index: int) -> str:
    """A detective's colour: its name if that is a colour (Red, Blue, ...), else a palette entry."""
    low = name.lower()
    if low in mcolors.CSS4_COLORS or low in mcolors.BASE_COLORS:
        return {"yellow": "#d4a600", "green": "#2e8b2e"}.get(low, low)
    return PALETTE[index % len(PALETTE)]


def transport_handles() -> list[Line2D]:
    return [Line2D([], [], label=t.value, **{k: v for k, v in st.items() if k != "zorder"})
            for t, st in TRANSPORT_STYLE.items()]


def _typical_spacing(board: Board, coords: Mapping[Station, tuple[float, float]]) -> float:
    lengths = sorted(
        ((coords[c.a][0] - coords[c.b][0]) ** 2 + (coords[c.a][1] - coords[c.b][1]) ** 2) ** 0.5
        for c in board.connections if c.transport is Transport.TAXI
    ) or [1.0]
    return lengths[len(lengths) // 4] or 1.0


def _luminance(rgba: Sequence[float]) -> float:
    r, g, b = rgba[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def _figure(size: tuple[float, float] | None, dpi: int | None) -> Figure:
    fig = plt.figure(figsize=size or DEFAULT_SIZE, dpi=dpi or DEFAULT_DPI)
    fig.patch.set_facecolor("white")
    return fig


MAIN_RECT = (0.01, 0.07, 0.88, 0.86)
CBAR_RECT = (0.91, 0.25, 0.018, 0.5)


def _finish(fig: Figure, title: str, handles: list[Line2D], computed: bool) -> None:
    if computed:
        title += "  (no coordinates in the map: networkx layout)"
    fig.suptitle(title, fontsize=13, y=0.975)
    fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 6), frameon=False, fontsize=9)


def _colorbar(fig: Figure, cmap: Any, norm: Any, label: str, ticks: Sequence[float] | None = None) -> None:
    cax = fig.add_axes(CBAR_RECT)  # a 4-tuple
    sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = fig.colorbar(sm, cax=cax, ticks=ticks)
    cb.set_label(label)


def _name(record: Record) -> str:
    return Path(record.file).name if record.file else "record"


# ---- layers -----------------------------------------------------------------------------------


def possible_figure(record: Record, weights: str = "paths", round: int | None = None,
                    size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """Mr. X's probability per station, detectives as pawns, his last reveal marked."""
    from .tracker import possible

    rec = record.at_round(round)
    res = possible(rec, weights=weights)
    coords, computed = layout(rec.board)
    fig = _figure(size, dpi)
    ba = BoardAxes(fig, MAIN_RECT, rec.board, coords)
    top = max(res.probabilities.values()) if res.probabilities else 1.0
    cmap = matplotlib.colormaps[PROB_CMAP]
    norm = mcolors.Normalize(vmin=0.0, vmax=top)
    ba.stations(res.probabilities, cmap, norm)
    handles = transport_handles() + ba.detectives(res.detectives)
    if res.last_reveal:
        handles.append(ba.mrx(res.last_reveal[1], res.last_reveal[0]))
    _colorbar(fig, cmap, norm, f"probability ({weights} weights)")
    if res.capture:
        what = f"Mr. X caught at {res.capture.station} by {res.capture.by}"
    else:
        what = f"{len(res.stations)} possible stations"
    _finish(fig, f"Where is Mr. X?  {_name(rec)}: round {res.round}, after move {res.move}: {what}", handles,
            computed)
    return fig


def history_figure(record: Record, weights: str = "paths", round: int | None = None,
                   size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """Small multiples: where Mr. X could have been after each move, given the whole record."""
    from .tracker import possible

    rec = record.at_round(round)
    res = possible(rec, weights=weights, history=True)
    hist = res.history or ()
    probs = res.history_probabilities or ()
    n = max(1, len(hist))
    cols = min(6, max(1, int(n ** 0.5 + 0.999)))
    rows = (n + cols - 1) // cols
    coords, computed = layout(rec.board)
    w, h = size or DEFAULT_SIZE
    fig = _figure((w, h), dpi)
    cmap = matplotlib.colormaps[PROB_CMAP]
    norm = mcolors.Normalize(vmin=0.0, vmax=1.0)
    for i in range(n):
        r, c = divmod(i, cols)
        cell_w, cell_h = 0.88 / cols, 0.84 / rows
        rect = (0.01 + c * cell_w, 0.93 - (r + 1) * cell_h, cell_w * 0.97, cell_h * 0.9)
        ba = BoardAxes(fig, rect, rec.board, coords, labels=False, scale=1.6)
        if i < len(hist):
            p = probs[i] if i < len(probs) else {s: 1 / len(hist[i]) for s in hist[i]}
            ba.stations(p, cmap, norm)
            step = rec.rules.is_reveal(i + 1)
            ba.ax.set_title(f"move {i + 1}: {len(hist[i])} station{'s' if len(hist[i]) != 1 else ''}"
                            + (" (reveal)" if step else ""), fontsize=9)
        else:
            ba.stations()
            ba.ax.set_title("no move yet", fontsize=9)
    _colorbar(fig, cmap, norm, "probability at that move")
    _finish(fig, f"Where could Mr. X have been?  {_name(rec)}: {res.move} moves, given the whole record",
            transport_handles(), computed)
    return fig


def _moves_norm(values: Mapping[Station, int]) -> tuple[Any, Any, list[int]]:
    top = max(values.values(), default=1)
    top = max(top, 1)
    cmap = matplotlib.colormaps[MOVES_CMAP].resampled(top + 1)
    norm = mcolors.BoundaryNorm([i - 0.5 for i in range(top + 2)], top + 1)
    return cmap, norm, list(range(top + 1))


def reach_figure(board: Board, start: Station, tickets: Mapping[str, int] | None = None, black: bool = False,
                 size: tuple[float, float] | None = None, dpi: int | None = None, title: str | None = None) -> Figure:
    """How many moves a piece on ``start`` needs to reach each station."""
    from .board import DETECTIVE_TICKETS
    from .reach import reach

    if start not in board:
        raise InputError(f"station {start} is not on the map {board.name!r}", where="--from")
    kinds = tuple(DETECTIVE_TICKETS) + ((Ticket.BLACK,) if black else ())
    dist = reach(board, start, tickets, kinds)
    coords, computed = layout(board)
    fig = _figure(size, dpi)
    ba = BoardAxes(fig, MAIN_RECT, board, coords)
    cmap, norm, ticks = _moves_norm(dist)
    ba.stations(dist, cmap, norm, highlight={start: "black"})
    _colorbar(fig, cmap, norm, "moves needed", ticks)
    limits = "unlimited tickets" if tickets is None else ", ".join(f"{k} {v}" for k, v in tickets.items())
    _finish(fig, title or f"Reach from {start} ({limits}): {len(dist)} stations within "
            f"{max(dist.values())} moves", transport_handles(), computed)
    return fig


def coverage_figure(record: Record, round: int | None = None, size: tuple[float, float] | None = None,
                    dpi: int | None = None) -> Figure:
    """For each station, the fewest moves any detective needs with its remaining tickets."""
    from .reach import coverage
    from .referee import check

    rec = record.at_round(round)
    res = check(rec)
    pos = res.position
    assert pos is not None
    dets = {n: (s, t.to_dict()) for n, s, t in zip(pos.names, pos.stations, pos.tickets) if n not in pos.out}
    cov = coverage(rec.board, dets)
    coords, computed = layout(rec.board)
    fig = _figure(size, dpi)
    ba = BoardAxes(fig, MAIN_RECT, rec.board, coords)
    cmap, norm, ticks = _moves_norm(cov)
    ba.stations(cov, cmap, norm)
    handles = transport_handles() + ba.detectives(pos.positions())
    _colorbar(fig, cmap, norm, "fewest detective moves", ticks)
    thin = sum(1 for s in rec.board.stations if cov.get(s, 99) >= 3)
    _finish(fig, f"Detective coverage  {_name(rec)}: round {res.status.round}; {thin} stations 3+ moves away "
            f"or out of reach", handles, computed)
    return fig


def cordon_figure(record: Record, moves: int = 1, round: int | None = None, time_limit: float = 10.0,
                  size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """The minimal cordon, the plan's moves as arrows, open stations highlighted."""
    from .cordon import cordon

    rec = record.at_round(round)
    res = cordon(rec, moves=moves, time_limit=time_limit)
    coords, computed = layout(rec.board)
    fig = _figure(size, dpi)
    ba = BoardAxes(fig, MAIN_RECT, rec.board, coords)
    cmap = matplotlib.colormaps[PROB_CMAP]
    top = max(res.probabilities.values(), default=1.0)
    norm = mcolors.Normalize(vmin=0.0, vmax=top)
    highlight = {s: "#ff8c00" for s in res.cordon}
    for s in res.open:
        highlight[s] = "#e00000"
    ba.stations(res.probabilities, cmap, norm, highlight=highlight)
    positions = {p.name: p.path[0] for p in res.plan}
    handles = transport_handles() + ba.detectives(positions)
    for i, p in enumerate(res.plan):
        colour = detective_colour(p.name, i)
        for a, b, t in zip(p.path, p.path[1:], p.tickets):
            if t is None or a == b:
                continue
            ba.ax.add_patch(FancyArrowPatch(coords[a], coords[b], arrowstyle="-|>", mutation_scale=18,
                                            color=colour, lw=2.4, zorder=9, shrinkA=6, shrinkB=8))
    handles += [
        Line2D([], [], marker="o", ls="", mfc="white", mec="#ff8c00", mew=2.2, ms=10,
               label=f"a minimal cordon ({res.cordon_size})"),
        Line2D([], [], marker="o", ls="", mfc="white", mec="#e00000", mew=2.2, ms=10,
               label=f"left open ({len(res.open)})"),
    ]
    _colorbar(fig, cmap, norm, "Mr. X's probability")
    verdict = "seals every possible station" if res.feasible else \
        f"seals {res.sealed_probability:.0%} of the probability"
    _finish(fig, f"Cordon  {_name(rec)}: {len(res.target)} possible stations, cordon size {res.cordon_size}; "
            f"{moves}-turn plan {verdict}", handles, computed)
    return fig


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
