"""The heatmap layers: possible, history, reach, coverage, cordon (the forced-win picture is
:mod:`.solve_picture`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
import matplotlib.colors as mcolors
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..engine.board import Board
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_TICKET_KINDS, TICKET_LETTERS, Ticket
from ..errors import AnalysisError, InputError
from ..formats.record import Record
from .board import (
    BoardAxes,
    _colour_of,
    _luminance,
    _name,
    _note,
    _prob_norm,
    _when,
    detective_colour,
    detective_handles,
    floor_cmap,
    star_handle,
    transport_handles,
)
from .frame import _colorbar, _frame
from .layout import layout
from .solve_picture import solve_figure  # noqa: F401  (its old place)
from .style import CORDON_COLOUR, DEFAULT_SIZE, EMPTY_EDGE, EMPTY_FILL, MOVES_CMAP, OPEN_COLOUR


def _probability_fills(ba: BoardAxes, probabilities: Mapping[Station, float], edge: float) -> tuple[Any, Any, Any]:
    """Fill the stations by Mr. X's probability (outlined ``edge`` wide); the colour map, its
    norm and ticks, for the colour bar."""
    cmap = floor_cmap()
    norm, ticks = _prob_norm(probabilities)
    fills = _colour_of(probabilities, cmap, norm)
    ba.stations(fills, {s: ("#222222", edge) for s in fills})
    return cmap, norm, ticks


def possible_figure(record: Record, weights: str = "paths", round: int | None = None,
                    size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """Mr. X's probability per station, detectives as rings, his last reveal as a star."""
    from ..analysis.possible import possible

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
    cmap, norm, ticks = _probability_fills(ba, res.probabilities, 1.3)
    if res.last_reveal:
        ba.mrx(res.last_reveal[1])
    ba.detectives(res.detectives)
    scale = "log scale" if isinstance(norm, mcolors.LogNorm) else "linear"
    _colorbar(frame, cmap, norm, f"probability ({weights} weights, {scale})", ticks,
              None if ticks is None else [f"{t:.2g}" for t in ticks])
    return frame.fig


def history_figure(record: Record, weights: str = "paths", round: int | None = None,
                   size: tuple[float, float] | None = None, dpi: int | None = None, panels: bool = False) -> Figure:
    """Mr. X's most likely route given the whole record (:func:`sy_tools.analysis.route.likely_route`):
    each hop a curved arrow labelled with its move number and ticket, the stations filled by
    their probability at that move, reveals starred, detectives where they stand now.  With
    ``panels``: one small board per move instead, each with its own colour scale."""
    if panels:
        return _history_panels(record, weights, round, size, dpi)
    from ..analysis.possible import possible
    from ..analysis.route import likely_route

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
        hops.setdefault(key, []).append(f"{m}{TICKET_LETTERS[t]}")
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
    from ..analysis.possible import possible
    from ..analysis.route import likely_route

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
        head = f"move {i + 1}{' ' + TICKET_LETTERS[ticket] if ticket else ''}: {len(stations)} station" \
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
    from ..analysis.reach import reach_from
    from ..engine.tickets import DETECTIVE_TICKETS

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
    the tickets he holds, never onto a detective's station (:func:`sy_tools.analysis.reach.mrx_reach`)."""
    from ..analysis.possible import possible
    from ..analysis.reach import mrx_reach
    from ..analysis.referee import check

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
    from ..analysis.reach import nearest
    from ..analysis.referee import check

    rec = record.at_round(round)
    pos = check(rec).position
    assert pos is not None
    dets = {n: (s, t.to_dict(DETECTIVE_TICKET_KINDS))
            for n, s, t in zip(pos.names, pos.stations, pos.tickets) if n not in pos.out}
    near = nearest(rec.board, dets)
    moving = {n for n, (s, t) in dets.items() if any(rec.board.destinations(s, Ticket(k)) for k, v in t.items() if v > 0)}

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
    ba.detectives(pos.detective_stations())
    cmap = mcolors.ListedColormap([(min(0.8, 0.8 * m / max(top, 4)),) * 3 for m in range(top + 1)])
    norm = mcolors.BoundaryNorm([i - 0.5 for i in range(top + 2)], top + 1)
    _colorbar(frame, cmap, norm, "moves (paler = farther)", list(range(top + 1)))
    return frame.fig


def cordon_figure(record: Record, moves: int = 1, round: int | None = None, time_limit: float = 10.0,
                  size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """The minimal cordon (orange rings), the plan's moves as curved arrows labelled turn and
    ticket, stations the plan leaves open (magenta squares), Mr. X's probability as the fill."""
    from ..solvers.cordon import cordon

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
    cmap, norm, ticks = _probability_fills(ba, res.probabilities, 1.2)
    ba.rings(res.cordon, CORDON_COLOUR, 1.35, max(2.0, ba.diameter * 0.16), zorder=6.6)
    ba.rings(res.open, OPEN_COLOUR, 1.5, max(1.8, ba.diameter * 0.13), marker="s", zorder=6.7)
    ba.detectives(positions)
    for i, p in enumerate(res.plan):
        colour = detective_colour(p.name, i)
        for turn, (a, b, t) in enumerate(zip(p.path, p.path[1:], p.tickets), 1):
            if t is None or a == b:
                continue
            ba.arrow(a, b, colour, f"{turn}{TICKET_LETTERS[Ticket(t)]}", width=max(1.5, ba.diameter * 0.14))
    _colorbar(frame, cmap, norm, "Mr. X's probability", ticks, None if ticks is None else [f"{t:.2g}" for t in ticks])
    return frame.fig

