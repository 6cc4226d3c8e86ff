"""The heatmap layers: possible, history, reach, coverage, cordon (the forced-win picture is
:mod:`.solve_picture`)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
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
    board_geometry,
    detective_colour,
    detective_handles,
    floor_cmap,
    percent,
    star_handle,
    transport_handles,
)
from .frame import _colorbar, _frame
from .layout import layout
from .pieces import detective_trails, stuck_detectives, true_route
from .solve_picture import solve_figure  # noqa: F401  (its old place)
from .style import (
    CORDON_COLOUR,
    DEFAULT_SIZE,
    EMPTY_EDGE,
    EMPTY_FILL,
    FEW_MARKS,
    MOVES_CMAP,
    OPEN_COLOUR,
    PANEL_NUMBER_PT,
    TRUE_COLOUR,
    Point,
)


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
              None if ticks is None else [percent(t) for t in ticks])
    return frame.fig


def history_figure(record: Record, weights: str = "paths", round: int | None = None,
                   size: tuple[float, float] | None = None, dpi: int | None = None, panels: bool = False) -> Figure:
    """Mr. X's most likely route given the whole record (:func:`sy_tools.analysis.route.likely_route`):
    each hop a curved arrow labelled with its move number and ticket, the stations filled by
    their probability at that move, reveals starred, the detectives where they stand now with
    their trails (a cross on a stranded one).  On a full record his true route is drawn too
    (black, dashed), the moves where it parts from the likely one boxed at his true station.
    With ``panels``: one small board per move instead, all at one zoom, each with its own
    colour scale."""
    if panels:
        return _history_panels(record, weights, round, size, dpi)
    from ..analysis.possible import possible
    from ..analysis.route import likely_route

    rec = record.at_round(round)
    route = likely_route(rec, weights)
    now = possible(rec, weights=weights)
    truth = true_route(rec)
    stuck = stuck_detectives(rec)
    coords, why = layout(rec.board)
    n = len(route)
    cmap = floor_cmap()
    norm = mcolors.Normalize(vmin=0.0, vmax=1.0)
    handles: list[Any] = transport_handles() + detective_handles(now.detectives, stuck)
    if route.reveals:
        handles.append(star_handle("revealed"))
    handles.append(Line2D([], [], color="#333333", lw=2, marker=">", label="likely hop: move number + ticket "
                          "(T taxi, B bus, U underground, K black)"))
    handles.append(Line2D([], [], color="#777777", lw=5, alpha=0.3, label="detectives' trails"))
    parted: list[int] = []
    if truth is not None:
        parted = [m for m in range(1, min(n, len(truth)) + 1) if truth[m - 1] != route.move(m)]
        handles.append(Line2D([], [], color=TRUE_COLOUR, lw=2, ls=(0, (4, 2)), marker=">",
                              label="his true route; boxed: moves where it parts from the likely one"))
    sure = sum(1 for p in route.probabilities if p > 0.999)
    title = (f"Mr. X's most likely route  {_name(rec)}: moves 1-{n} given the whole record, {_when(rec)}; "
             f"{sure} of {n} stations certain") if n else f"Mr. X's route  {_name(rec)}: no move yet"
    if truth is not None and n:
        title += f"; his true route known: the likely one matches it at {n - len(parted)} of {n} moves"
    if now.capture:
        title += f"; caught at {now.capture.station} by {now.capture.by}"
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    best: dict[Station, float] = {}
    for s, p in zip(route.stations, route.probabilities):
        best[s] = max(best.get(s, 0.0), p)
    fills = {s: cmap(norm(p)) for s, p in best.items()}
    ba.stations(fills, {s: ("#222222", 1.4) for s in fills})
    ba.trails(detective_trails(rec))
    for m in route.reveals:
        if m <= n:
            ba.mrx(route.move(m))
    ba.detectives(now.detectives, stuck=stuck)
    _likely_hops(ba, route)
    if truth is not None:
        _true_route(ba, rec.mrx_start, truth, parted)
    _colorbar(frame, cmap, norm, "probability he was there at that move")
    return frame.fig


def _likely_hops(ba: BoardAxes, route: Any) -> None:
    """One arrow per direction between two stations, coloured by its last move; one label per
    pair of stations listing every move along it both ways (a back-and-forth is one label, not
    two crowding each other)."""
    n = len(route)
    hop_cmap = matplotlib.colormaps["viridis"]
    hops: dict[tuple[Station | None, Station], int] = {}
    moves: dict[frozenset[Station | None], list[str]] = {}
    for m, a, b, t in route.hops():
        hops[(a, b)] = m
        moves.setdefault(frozenset((a, b)), []).append(f"{m}{TICKET_LETTERS[t]}")
    labelled: set[frozenset[Station | None]] = set()
    fs = max(ba.number_size, ba.diameter * 0.42)
    for (a, b), last in sorted(hops.items(), key=lambda kv: kv[1]):
        colour = mcolors.to_hex(hop_cmap(0.85 * (last - 1) / max(1, n - 1)))
        pair = frozenset((a, b))
        labels = moves[pair]
        text = None
        if pair not in labelled:
            labelled.add(pair)
            text = ",".join(labels[:4]) + (f" +{len(labels) - 4}" if len(labels) > 4 else "")
        if a is None or a == b:
            if text:
                ba.label(ba.coords[b], text, colour, fontsize=fs, bold=True, distance=ba.diameter * 0.8)
            continue
        ba.arrow(a, b, colour, text, width=max(1.2, ba.diameter * 0.12), fontsize=fs)


def _true_route(ba: BoardAxes, start: Station | None, truth: Sequence[Station], parted: Sequence[int]) -> None:
    """His true route as thin dashed black arrows (from his start when the record holds it), and
    at his true station the numbers of the moves where the likely route was elsewhere."""
    from matplotlib.patches import FancyArrowPatch

    stops = ([start] if start is not None else []) + list(truth)
    for a, b in zip(stops, stops[1:]):
        if a == b:
            continue
        shrink = ba.diameter / 2 + 1.0
        ba.ax.add_patch(FancyArrowPatch(ba.coords[a], ba.coords[b], arrowstyle="-|>", color=TRUE_COLOUR,
                                        mutation_scale=max(7.0, ba.diameter * 0.6), lw=max(1.0, ba.diameter * 0.09),
                                        ls=(0, (4, 2)), zorder=8.5, shrinkA=shrink, shrinkB=shrink))
    at: dict[Station, list[int]] = {}
    for m in parted:
        at.setdefault(truth[m - 1], []).append(m)
    for s, ms in at.items():
        ba.label(ba.coords[s], ",".join(map(str, ms)), TRUE_COLOUR, fontsize=max(ba.number_size, ba.diameter * 0.42),
                 bold=True, distance=ba.diameter * 0.9)


def _history_panels(record: Record, weights: str, round: int | None, size: tuple[float, float] | None,
                    dpi: int | None, max_panels: int = 30) -> Figure:
    """One board per move, the last ones: as many as fit with their station numbers readable,
    every board at the same zoom (framing every set shown), so a station sits at the same place
    in each."""
    from ..analysis.possible import possible
    from ..analysis.route import likely_route

    rec = record.at_round(round)
    res = possible(rec, weights=weights, history=True)
    hist = res.history or ()
    probs = res.history_probabilities or ()
    route = likely_route(rec, weights)
    coords, why = layout(rec.board)
    w, h = size or DEFAULT_SIZE
    # the board area the frame leaves, measured with the longest title this picture may get
    trial = _frame((w, h), dpi, _panels_title(rec, len(hist), len(hist) + 1, why), _panel_handles(rec, route, hist),
                   True)
    area = (trial.main[2] * w * 72, trial.main[3] * h * 72)
    plt.close(trial.fig)
    shown, cols, rows = _panel_grid(rec.board, coords, hist, area, max_panels)
    view = sorted({s for i in shown for s in hist[i]})
    cmap = floor_cmap()
    names = [d.name for d in rec.detectives]
    frame = _frame((w, h), dpi, _panels_title(rec, len(shown), len(hist), why), _panel_handles(rec, route, hist), True)
    x0, y0, fw, fh = frame.main
    cell_w, cell_h = fw / cols, fh / max(1, rows)
    for k, i in enumerate(shown):
        r, c = divmod(k, cols)
        rect = (x0 + c * cell_w, y0 + fh - (r + 1) * cell_h, cell_w * 0.98, cell_h * 0.86)
        stations = hist[i]
        p = probs[i] if i < len(probs) else {s: 1 / len(stations) for s in stations}
        dets = route.detectives[i] if i < len(route.detectives) else {}
        ba = BoardAxes(frame.fig, rect, rec.board, coords, view=view)
        top = max(p.values(), default=1.0) or 1.0
        norm = mcolors.Normalize(vmin=0.0, vmax=top)
        fills = _colour_of(p, cmap, norm)
        ba.stations(fills, {s: ("#222222", 1.0) for s in fills})
        if rec.rules.is_reveal(i + 1):
            ba.mrx(hist[i][0])
        ba.detectives(dets, colours={nm: detective_colour(nm, j) for j, nm in enumerate(names)},
                      fontsize=max(ba.number_size, 5.0))
        best_s = min(p, key=lambda s: (-p[s], s)) if p else None
        ticket = route.tickets[i] if i < len(route.tickets) else None
        head = f"move {i + 1}{' ' + TICKET_LETTERS[ticket] if ticket else ''}: {len(stations)} station" \
               f"{'s' if len(stations) != 1 else ''}"
        if best_s is not None:
            head += f", top {best_s} ({p[best_s]:.2f})"
        ba.ax.set_title(head, fontsize=frame.fontsize * 0.85, pad=2)
    _colorbar(frame, cmap, mcolors.Normalize(vmin=0.0, vmax=1.0), "share of that move's top probability")
    return frame.fig


def _panels_title(rec: Record, shown: int, moves: int, why: str | None) -> str:
    later = f" (the last {shown} of {moves} moves: more would not show readable station numbers)" \
        if shown < moves else ""
    return _note(f"Where could Mr. X have been?  {_name(rec)}, {_when(rec)}: one board per move given the whole "
                 f"record{later}; each board's colours run from 0 to that move's top probability", why)


def _panel_handles(rec: Record, route: Any, hist: Sequence[Any]) -> list[Any]:
    handles: list[Any] = [Line2D([], [], marker="o", ls="", mfc="none", mec=detective_colour(d.name, i), mew=2, ms=9,
                                 label=f"{d.name} then") for i, d in enumerate(rec.detectives)]
    if any(m in route.reveals for m in range(1, len(hist) + 1)):
        handles.append(star_handle("revealed"))
    return handles


def _panel_grid(board: Board, coords: Mapping[Station, Point], hist: Sequence[Sequence[Station]],
                area: tuple[float, float], max_panels: int) -> tuple[list[int], int, int]:
    """The moves to draw (the last ones), and the grid's columns and rows: the most panels whose
    common zoom keeps the station numbers at ``PANEL_NUMBER_PT`` or more (each count laid out in
    the columns that give the biggest numbers), else the layout that gives the biggest."""
    best: tuple[float, list[int], int, int] | None = None
    for k in range(min(len(hist), max_panels), 0, -1):
        shown = list(range(len(hist) - k, len(hist)))
        view = {s for i in shown for s in hist[i]}
        for cols in range(1, k + 1):
            rows = math.ceil(k / cols)
            g = board_geometry(board, coords, area[0] / cols * 0.98, area[1] / rows * 0.86, view)
            if best is None or g.number_size > best[0] + 1e-9:
                best = (g.number_size, shown, cols, rows)
        if best is not None and best[0] >= PANEL_NUMBER_PT and len(best[1]) == k:
            break
    if best is None:
        return [], 1, 1
    return best[1], best[2], best[3]


def round_half(x: float) -> int:
    return int(math.floor(x + 0.5))


def moves_palette(top: int) -> list[Any]:
    """One colour per move count 0..``top``, in order from few moves to many and distinct from
    each other (evenly spaced along a rainbow-like scale, not shades of one hue)."""
    import numpy as np

    cmap = matplotlib.colormaps[MOVES_CMAP]
    return [cmap(v) for v in np.linspace(0.08, 0.92, top + 1)] if top else [cmap(0.08)]


def _moves_legend(palette: Sequence[Any], counts: Mapping[int, int]) -> list[Any]:
    """A legend entry per move count, with its number and how many stations it colours."""
    return [Patch(facecolor=c, edgecolor="#333333", label=f"{m} move{'s' if m != 1 else ''} ({counts.get(m, 0)})")
            for m, c in enumerate(palette)]


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
    palette = moves_palette(max(dist.values(), default=0))
    counts = Counter(dist.values())
    handles: list[Any] = transport_handles() + [
        Line2D([], [], marker="o", ls="", mfc="none", mec="black", mew=2.5, ms=10, label="start")] + \
        _moves_legend(palette, counts)
    frame = _frame(size, dpi, _note(title, why), handles, False)
    ba = BoardAxes(frame.fig, frame.main, board, coords)
    fills = {s: palette[v] for s, v in dist.items()}
    ba.stations(fills, {s: ("#333333", 0.8) for s in fills})
    ba.rings(starts, "black", 1.6, 2.5)
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
    palette = moves_palette(max(mr.dist.values(), default=0))
    handles: list[Any] = transport_handles() + detective_handles(res.detectives) + [
        Line2D([], [], marker="o", ls="", mfc="white", mec="#111111", mew=2.0, ms=10,
               label=f"where he may stand after {moves} moves")] + _moves_legend(palette, Counter(mr.dist.values()))
    frame = _frame(size, dpi, _note(title, why), handles, False)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    fills = {s: palette[v] for s, v in mr.dist.items()}
    edges = {s: ("#777777", 0.6) for s in fills}
    edges.update({s: ("#111111", 2.0) for s in mr.at_end})
    ba.stations(fills, edges)
    ba.detectives(res.detectives)
    return frame.fig


def coverage_figure(record: Record, round: int | None = None, size: tuple[float, float] | None = None,
                    dpi: int | None = None) -> Figure:
    """Each station in the colour of the detective that reaches it in the fewest moves with its
    remaining tickets, the depth of the colour saying in how many moves (paler = farther; a
    split disc = a tie; the key beside the board); the station numbers stay."""
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
    title = (f"Detective coverage  {_name(rec)}: {_when(rec)}; colour = nearest detective, depth = its moves "
             f"(key on the right); {thin} stations 3+ moves away")
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
    text_colour = {s: "#111111" if _luminance(mcolors.to_rgba(f)) > 0.5 else "white" for s, f in fills.items()}
    ba.stations(fills, {s: ("#333333", 0.7) for s in fills}, text_colour=text_colour)
    for s, (n, names) in near.items():
        if len(names) > 1 and s in ba.numbers:
            ba.wedges(s, [shade(x, n) for x in names])
            ba.numbers[s].set_zorder(6)
    ba.detectives(pos.detective_stations(), stuck=[n for n in dets if n not in moving])
    _coverage_key(frame, [n for n in pos.names if n in dets], top, shade)
    return frame.fig


def _coverage_key(frame: Any, names: Sequence[str], top: int, shade: Any) -> None:
    """The key to the coverage colours, in the colour bar's place: a column per detective, a row
    per number of moves, each cell the shade a station that far from it gets."""
    if frame.cbar is None or not names:
        return
    import numpy as np

    x, y, w, h = frame.cbar
    w_in = frame.fig.get_figwidth()
    # as wide as the right margin allows once the move numbers and the title beside it fit
    wide = max(w, min(0.16 * len(names) / w_in, 1 - x - (1.8 * frame.fontsize / 72) / w_in))
    lift = 2.5 * frame.fontsize * max(len(n) for n in names) * 0.6 / 72 / frame.fig.get_figheight()
    cax = frame.fig.add_axes((x, y + lift, wide, h - lift))
    grid = np.array([[shade(n, m) for n in names] for m in range(top + 1)])
    cax.imshow(grid, aspect="auto", interpolation="nearest")
    cax.set_xticks(range(len(names)), list(names), fontsize=frame.fontsize * 0.8, rotation=90)
    cax.set_yticks(range(top + 1), [str(m) for m in range(top + 1)], fontsize=frame.fontsize * 0.85)
    cax.yaxis.tick_right()
    cax.set_title("moves to\nreach", fontsize=frame.fontsize * 0.9)
    for spine in cax.spines.values():
        spine.set_edgecolor("#888888")


def cordon_figure(record: Record, moves: int = 1, round: int | None = None, time_limit: float = 10.0,
                  size: tuple[float, float] | None = None, dpi: int | None = None) -> Figure:
    """What the detectives can act on: the plan's moves as curved arrows labelled turn and
    ticket, and the possible stations the plan seals (orange rings); his possible set filled by
    his probability, the rest grey.  The minimal cordon and the stations left open are drawn
    only when few (at most ``FEW_MARKS``); else the legend counts them."""
    from ..solvers.cordon import cordon

    rec = record.at_round(round)
    res = cordon(rec, moves=moves, time_limit=time_limit)
    coords, why = layout(rec.board)
    positions = {p.name: p.path[0] for p in res.plan}
    left = set(res.open)
    sealed = [s for s in res.target if s not in left]
    open_p = sum(res.probabilities.get(s, 0.0) for s in left)
    handles: list[Any] = transport_handles() + detective_handles(positions) + [
        Line2D([], [], color="#333333", lw=2, marker=">", label="planned move: turn + ticket (T, B, U)"),
        Line2D([], [], marker="o", ls="", mfc="white", mec=CORDON_COLOUR, mew=3, ms=12,
               label=f"sealed by the plan ({len(sealed)} of his {len(res.target)} stations)"),
    ]
    if len(left) <= FEW_MARKS:
        handles.append(Line2D([], [], marker="s", ls="", mfc="white", mec=OPEN_COLOUR, mew=2.5, ms=12,
                              label=f"left open ({len(left)}, {percent(open_p)} of his probability)"))
    else:
        handles.append(Patch(facecolor="white", edgecolor="#222222",
                             label=f"left open: the other {len(left)} outlined ({percent(open_p)} of his probability)"))
    if res.cordon and len(res.cordon) <= FEW_MARKS:
        handles.append(Line2D([], [], marker="D", ls="", mfc="none", mec=CORDON_COLOUR, mew=1.5, ms=9,
                              label=f"a minimal cordon ({res.cordon_size})"))
    verdict = "seals every possible station" if res.feasible else \
        f"seals {percent(res.sealed_probability)} of the probability"
    cordon_note = f", cordon size {res.cordon_size}" if res.cordon_size is not None else ""
    title = (f"Cordon  {_name(rec)}: {_when(rec)}; {len(res.target)} stations to seal{cordon_note}; "
             f"{moves}-turn plan {verdict}")
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
    cmap, norm, ticks = _probability_fills(ba, res.probabilities, 1.2)
    ba.rings(sealed, CORDON_COLOUR, 1.4, max(2.0, ba.diameter * 0.16), zorder=6.6)
    if len(left) <= FEW_MARKS:
        ba.rings(left, OPEN_COLOUR, 1.5, max(1.8, ba.diameter * 0.13), marker="s", zorder=6.7)
    if res.cordon and len(res.cordon) <= FEW_MARKS:
        ba.rings(res.cordon, CORDON_COLOUR, 1.15, max(1.2, ba.diameter * 0.08), marker="D", zorder=6.65)
    ba.detectives(positions)
    for i, p in enumerate(res.plan):
        colour = detective_colour(p.name, i)
        for turn, (a, b, t) in enumerate(zip(p.path, p.path[1:], p.tickets), 1):
            if t is None or a == b:
                continue
            ba.arrow(a, b, colour, f"{turn}{TICKET_LETTERS[Ticket(t)]}", width=max(1.5, ba.diameter * 0.14))
    _colorbar(frame, cmap, norm, "Mr. X's probability", ticks, None if ticks is None else [percent(t) for t in ticks])
    return frame.fig

