"""Heatmaps: every layer renders an image of the requested size; the most likely station
carries the top colour of the scale; the London picture is not mirrored."""

from __future__ import annotations

import matplotlib
import matplotlib.image as mpimg
import numpy as np
import pytest
from helpers import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from sy_tools import plot
from sy_tools.analysis.possible import possible
from sy_tools.formats.record_io import load_record
from sy_tools.plot import board as plot_board
from sy_tools.plot import frame as plot_frame
from sy_tools.plot import layout as plot_layout
from sy_tools.plot import style as plot_style

EX = REPO / "examples"
SIZE, DPI = (8.0, 6.0), 60


@pytest.fixture(scope="module")
def game():
    return load_record(EX / "in-progress.json")


def _title(fig):
    """The title with its wrapping undone."""
    return " ".join(fig._suptitle.get_text().split())


def _render(fig, tmp_path, name="f.png"):
    fig.canvas.draw()
    ax = fig.axes[0]
    path = tmp_path / name
    plot.save(fig, path, fig.dpi)
    return ax, mpimg.imread(path)


def _pixel(ax, img, xy):
    x, y = ax.transData.transform(xy)
    return int(round(x)), int(round(img.shape[0] - y))


@pytest.mark.parametrize("layer", ["possible", "history", "panels", "coverage", "cordon", "reach", "mrx-reach",
                                   "winrate"])
def test_each_layer_renders_requested_size(layer, game, tmp_path):
    if layer == "panels":
        fig = plot.history_figure(game, size=SIZE, dpi=DPI, panels=True)
    elif layer == "mrx-reach":
        fig = plot.mrx_reach_figure(game, size=SIZE, dpi=DPI)
    elif layer == "winrate":
        rates = plot.WinRates({13: 3, 50: 0}, {13: 4, 50: 2})
        fig = plot.winrate_figure(game.board, rates, size=SIZE, dpi=DPI)
    elif layer == "possible":
        fig = plot.possible_figure(game, size=SIZE, dpi=DPI)
    elif layer == "history":
        fig = plot.history_figure(game, size=SIZE, dpi=DPI)
    elif layer == "coverage":
        fig = plot.coverage_figure(game, size=SIZE, dpi=DPI)
    elif layer == "cordon":
        fig = plot.cordon_figure(game, size=SIZE, dpi=DPI)
    else:
        fig = plot.reach_figure(game.board, 1, {"taxi": 3, "bus": 2}, size=SIZE, dpi=DPI)
    _, img = _render(fig, tmp_path)
    assert img.shape[:2] == (SIZE[1] * DPI, SIZE[0] * DPI)
    # not blank: many distinct colours
    assert len(np.unique(img.reshape(-1, img.shape[2])[:, :3].round(2), axis=0)) > 20


def test_most_likely_station_has_the_top_colour(tmp_path):
    from sy_tools.engine.rules import PRESETS
    from sy_tools.formats.game_json import parse_record, record_to_json
    from sy_tools.selfplay.generate import detectives_view

    full = load_record(EX / "double-and-ferry.json")
    view = parse_record(detectives_view(record_to_json(full), PRESETS["classic"]))
    rec = view.truncated(len(view.rounds) - 1)
    best, p = possible(rec).ranked()[0]
    fig = plot.possible_figure(rec, size=(12, 9), dpi=80)
    ax, img = _render(fig, tmp_path)
    top = np.array(matplotlib.colormaps[plot_style.PROB_CMAP](1.0)[:3])
    low = np.array(matplotlib.colormaps[plot_style.PROB_CMAP](0.0)[:3])
    cx, cy = _pixel(ax, img, rec.board.coords[best])
    radius_px = 0.5 * _diameter_pt(fig) * 80 / 72
    hits = 0
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)):
        px, py = round(cx + dx * 0.7 * radius_px), round(cy + dy * 0.7 * radius_px)  # beside its number
        rgb = img[py, px, :3]
        hits += np.abs(rgb - top).max() < 0.06
    assert hits >= 5, "the most likely station is not drawn in the top colour"
    # and an impossible station is not
    other = next(s for s in rec.board.stations if s not in possible(rec).stations and s > 150)
    ox, oy = _pixel(ax, img, rec.board.coords[other])
    assert np.abs(img[oy + int(0.5 * radius_px), ox, :3] - top).max() > 0.2
    assert low is not None


def _diameter_pt(fig):
    # the station marker size used by BoardAxes: read it back from the scatter collection
    coll = next(c for c in fig.axes[0].collections if hasattr(c, "get_sizes") and c.get_sizes().size == 1
                and len(c.get_offsets()) == 199)
    return float(np.sqrt(coll.get_sizes()[0]))


def test_not_mirrored_station_1_top_left(game, tmp_path):
    fig = plot.possible_figure(game, size=SIZE, dpi=DPI)
    ax, img = _render(fig, tmp_path)
    h, w = img.shape[:2]
    x1, y1 = _pixel(ax, img, game.board.coords[1])
    assert x1 < w / 3 and y1 < h / 3, (x1, y1)
    x199, y199 = _pixel(ax, img, game.board.coords[199])
    assert y199 > h / 2
    # a station marker (dark edge) really is drawn at station 1's pixel neighbourhood
    patch = img[max(0, y1 - 6):y1 + 6, max(0, x1 - 6):x1 + 6, :3]
    assert patch.min() < 0.5


def test_map_without_coordinates_falls_back(tmp_path, london):
    from sy_tools.formats.map_write import write_map

    write_map(london, tmp_path / "g.txt")
    from sy_tools.formats.map_load import load_board

    board = load_board(tmp_path / "g.txt")
    fig = plot.reach_figure(board, 1, None, size=SIZE, dpi=DPI)
    assert "no coordinates in the map: computed layout" in _title(fig)
    plot.save(fig, tmp_path / "r.png")


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_cli_formats_and_path(cli, tmp_path, suffix):
    out = tmp_path / f"h{suffix}"
    r = cli("heatmap", str(EX / "in-progress.json"), "-o", str(out), "--size", "6x4.5", "--dpi", "40")
    assert r.exit_code == 0, r.output
    assert r.output.strip() == str(out) and out.stat().st_size > 1000
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temp file left


def test_cli_round_and_layers(cli, tmp_path):
    for args in (["--layer", "history", "--round", "5"], ["--layer", "coverage"], ["--layer", "cordon"],
                 ["--layer", "reach", "--from", "13"]):
        out = tmp_path / "x.png"
        r = cli("heatmap", str(EX / "in-progress.json"), *args, "-o", str(out), "--size", "6x4.5", "--dpi", "40")
        assert r.exit_code == 0, (args, r.output)


@pytest.mark.parametrize("args, message", [
    (["--layer", "nope"], "Invalid value for '--layer'"),
    (["-o", "x.gif"], "unknown image format '.gif'"),
    (["--round", "99"], "--round 99 is out of range: the record has rounds 0..10"),
    (["--layer", "reach", "--tickets", "taxi=3"], "--piece-tickets belongs to the reach layer without a GAME"),
    (["--layer", "coverage", "--from", "13"], "--from belongs to the reach layer"),
    (["--layer", "reach", "--from", "13,x"], "--from: expected station numbers"),
    (["--panels"], "--panels belongs to the history layer"),
    (["--layer", "winrate", "--round", "3"], "--round belongs to the layers drawn from a GAME record"),
    (["--size", "100x100", "--dpi", "600"], "--size: 100x100 inches at 600 dpi is 3600 million pixels; at most 100"),
    (["--size", "big"], "--size: expected WIDTHxHEIGHT"),
    (["--layer", "reach", "--from", "500"], "--from: station 500 is not on the map 'london'"),
])
def test_cli_bad_options(cli, tmp_path, args, message):
    r = cli("heatmap", str(EX / "in-progress.json"), *args)
    assert r.exit_code == 2
    assert message in r.stderr or message in r.output
    assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) <= 3


# ---- layout for the size asked ---------------------------------------------------------------------


def _inside(fig, artist):
    r = fig.canvas.get_renderer()
    bb = artist.get_window_extent(r)
    return bb.x0 >= -1 and bb.y0 >= -1 and bb.x1 <= fig.bbox.width + 1 and bb.y1 <= fig.bbox.height + 1


@pytest.mark.parametrize("size", [(8.0, 6.0), (6.0, 8.0)])
def test_legend_title_and_colour_bar_label_fit_the_size_asked(game, size):
    for fig in (plot.possible_figure(game, size=size, dpi=50), plot.coverage_figure(game, size=size, dpi=50),
                plot.history_figure(game, size=size, dpi=50)):
        fig.canvas.draw()
        assert _inside(fig, fig.legends[0]), "legend cut off"
        assert _inside(fig, fig._suptitle), "title cut off"
        cbar = fig.axes[-1]
        assert _inside(fig, cbar.yaxis.label), "colour-bar label cut off"
        board = fig.axes[0].get_window_extent(fig.canvas.get_renderer())
        legend = fig.legends[0].get_window_extent(fig.canvas.get_renderer())
        assert board.y0 >= legend.y1 - 1, "the board overlaps the legend"
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_titles_agree_about_rounds(game):
    titles = [_title(plot.possible_figure(game, round=7, size=SIZE, dpi=DPI)),
              _title(plot.history_figure(game, round=7, size=SIZE, dpi=DPI)),
              _title(plot.coverage_figure(game, round=7, size=SIZE, dpi=DPI)),
              _title(plot.cordon_figure(game, round=7, size=SIZE, dpi=DPI)),
              _title(plot.mrx_reach_figure(game, round=7, size=SIZE, dpi=DPI))]
    for t in titles:
        flat = " ".join(t.split())
        assert "round 7, after Mr. X's move 8" in flat, t
        assert "round 8" not in flat, t
    assert "before Mr. X's first move" in _title(plot.coverage_figure(game, round=0, size=SIZE, dpi=DPI))


# ---- what each layer shows ------------------------------------------------------------------------


def _station_colours(fig):
    coll = next(c for c in fig.axes[0].collections if len(c.get_offsets()) == 199 and c.get_sizes().size == 1)
    return coll


def test_least_likely_station_is_clearly_apart_from_impossible_ones(game):
    rec = game.at_round(6)
    res = possible(rec)
    low = min(res.probabilities, key=res.probabilities.get)
    assert res.probabilities[low] < 0.01  # a wide spread: the scale goes logarithmic
    fig = plot.possible_figure(rec, size=SIZE, dpi=DPI)
    coll = _station_colours(fig)
    faces, edges = coll.get_facecolors(), coll.get_edgecolors()
    order = list(rec.board.stations)
    empty = np.array(matplotlib.colors.to_rgba(plot_style.EMPTY_FILL))
    impossible = next(s for s in order if s not in res.probabilities)
    assert np.abs(faces[order.index(impossible)] - empty).max() < 1e-6
    assert np.abs(faces[order.index(low)][:3] - empty[:3]).max() > 0.15
    assert np.abs(edges[order.index(low)][:3] - edges[order.index(impossible)][:3]).max() > 0.3
    assert "log scale" in fig.axes[-1].yaxis.label.get_text()


def test_star_ring_and_number_stack_readably(game):
    """A detective on Mr. X's last-seen station: the star sits behind the disc, the ring
    outside it, the number on top."""
    fr = plot_frame._frame(SIZE, DPI, "t", [], False)
    coords, _ = plot_layout.layout(game.board)
    ba = plot_board.BoardAxes(fr.fig, fr.main, game.board, coords)
    ba.stations({55: "#4d004b"})
    ba.mrx(55)
    ba.detectives({"Red": 55})
    colls = ba.ax.collections
    disc = next(c for c in colls if len(c.get_offsets()) == 199)
    star = next(c for c in colls if c.get_zorder() == 4.5)
    ring = next(c for c in colls if len(c.get_offsets()) == 1 and c.get_edgecolors()[0][0] == 1.0)
    number = next(t for t in ba.ax.texts if t.get_text() == "55")
    assert star.get_zorder() < disc.get_zorder() < number.get_zorder()
    assert ring.get_sizes()[0] > disc.get_sizes()[0] * 2.5  # the ring passes outside the disc
    assert matplotlib.colors.to_hex(number.get_color()) == "#ffffff"  # white on the dark fill


def test_cordon_markers_arrows_and_labels(game):
    from sy_tools.solvers.cordon import cordon

    rec = game.at_round(7)
    res = cordon(rec, moves=2)
    fig = plot.cordon_figure(game, moves=2, round=7, size=SIZE, dpi=DPI)
    ax = fig.axes[0]
    dets = {plot_board.detective_colour(p.name, i) for i, p in enumerate(res.plan)}
    for colour in (plot_style.CORDON_COLOUR, plot_style.OPEN_COLOUR):
        assert all(matplotlib.colors.to_hex(colour) != matplotlib.colors.to_hex(d) for d in dets)
    arrows = [p for p in ax.patches if isinstance(p, matplotlib.patches.FancyArrowPatch)]
    moves = [(t, i) for p in res.plan for i, (a, b, t) in enumerate(zip(p.path, p.path[1:], p.tickets), 1)
             if t is not None and a != b]
    assert len(arrows) == len(moves) > 0
    assert all(a.get_connectionstyle().rad != 0 for a in arrows)  # curved, not straight through stations
    texts = [t.get_text() for t in ax.texts]
    for t, i in moves:
        assert f"{i}{t[0].upper()}" in texts
    assert "round 7, after Mr. X's move 8" in " ".join(_title(fig).split())


def test_coverage_colours_by_nearest_detective_and_numbers_moves(game):
    from sy_tools.analysis.reach import nearest
    from sy_tools.analysis.referee import check

    pos = check(game).position
    dets = {n: (s, t.to_dict(("taxi", "bus", "underground"))) for n, s, t in zip(pos.names, pos.stations, pos.tickets)
            if n not in pos.out}
    near = nearest(game.board, dets)
    fig = plot.coverage_figure(game, size=(16, 12), dpi=40)
    ax = fig.axes[0]
    coll = _station_colours(fig)
    order = list(game.board.stations)
    at = {tuple(np.round(t.get_position(), 3)): t.get_text() for t in ax.texts}
    checked = 0
    top = max(v[0] for v in near.values())
    for s, (n, names) in near.items():
        x, y = game.board.coords[s]
        assert at[(round(x, 3), round(y, 3))] == str(s)  # the station number stays; the moves are the depth
        if len(names) == 1:
            fill = coll.get_facecolors()[order.index(s)][:3]
            base = np.array(matplotlib.colors.to_rgb(plot_board.detective_colour(names[0], pos.names.index(names[0]))))
            # a tint of the detective's colour: fill = base + (1 - base) * fade, one fade for all channels
            fade = [(f - b) / (1 - b) for f, b in zip(fill, base) if b < 0.95]
            assert fade and max(fade) - min(fade) < 1e-6
            assert abs(fade[0] - min(0.8, 0.8 * n / max(top, 4))) < 1e-6  # deeper = nearer
            checked += 1
    assert checked > 100


def test_mrx_reach_matches_a_plain_walk(game):
    """Mr. X's reach to the next reveal against a walk over networkx neighbours."""
    from oracles import neighbours

    from sy_tools.analysis.reach import mrx_reach
    from sy_tools.analysis.referee import check

    for r in (4, 9, 10):
        rec = game.at_round(r)
        res = possible(rec)
        pos = check(rec).position
        held = pos.mrx_tickets.held()
        occ = set(pos.stations)
        g = rec.board.to_networkx()
        m = res.moves_to_reveal
        layer, dist = set(res.stations), {s: 0 for s in res.stations}
        for k in range(1, m + 1):
            layer = {d for s in layer for t in held for d in neighbours(g, s, t.value) if d not in occ}
            for d in layer:
                dist.setdefault(d, k)
        got = mrx_reach(rec.board, res.stations, held, pos.occupied, m)
        assert got.dist == dist and set(got.at_end) == layer
        title = _title(plot.mrx_reach_figure(game, round=r, size=SIZE, dpi=DPI))
        assert f"{len(layer)} stations where he may stand" in " ".join(title.split())


def test_hostile_coordinates_and_big_maps_without_coordinates(tmp_path):
    from sy_tools.engine.board import Board, Connection

    def ring(n, coords=None):
        conns = [Connection.of(i, i % n + 1, "taxi") for i in range(1, n + 1)]
        return Board.build("t", range(1, n + 1), conns, coords)

    for coords in ({1: (1e308, 0.0), 2: (-1e308, 5.0), 3: (0.0, 1e308), 4: (3.0, 3.0)},
                   {1: (10 ** 400, 0), 2: (0, 0), 3: (1, 1), 4: (2, 2)},
                   {s: (float("inf"), 0.0) for s in range(1, 5)},
                   {s: (1.0, 1.0) for s in range(1, 5)}):
        fig = plot.reach_figure(ring(4, coords), 1, None, size=(4, 3), dpi=30)
        plot.save(fig, tmp_path / "h.png")
    fig = plot.reach_figure(ring(520), [1, 260], {"taxi": 2}, size=(4, 3), dpi=30)
    assert "no coordinates in the map: computed layout" in _title(fig)
    plot.save(fig, tmp_path / "big.png")
    pts, _ = plot_layout.layout(ring(2100))  # the grid beyond 2,000 stations: distinct points, no scipy
    assert len(set(pts.values())) == 2100


# ---- win rates ------------------------------------------------------------------------------------


def test_winrates_from_csv_and_json(tmp_path, london):
    csv = tmp_path / "r.csv"
    csv.write_text("game,mrx_start,winner,rounds\n1,13,mrx,22\n2,13,detectives,9\n3,50,mrx,22\n4,13,mrx,22\n")
    rates = plot.load_winrates(csv, london)
    assert rates.games == {13: 3, 50: 1} and rates.wins == {13: 2, 50: 1}
    assert rates.rate(13) == pytest.approx(2 / 3)
    js = tmp_path / "r.json"
    js.write_text('[{"mrx_start": 13, "winner": "mrx"}, {"mrx_start": "13", "winner": "detectives"}]')
    assert plot.load_winrates(js, london).to_dict() == {"13": {"games": 2, "mrx_wins": 1}}


@pytest.mark.parametrize("text, message", [
    ("start,winner\n13,mrx\n", "missing column 'mrx_start'"),
    ("mrx_start,winner\n13,mrx\n500,mrx\n", "line 3: mrx_start '500' is not a station"),
    ("mrx_start,winner\n13,draw\n", "line 2: winner 'draw' must be 'mrx' or 'detectives'"),
    ("mrx_start,winner\n", "no games in the file"),
    ('[{"mrx_start": 13}]', "[0]: missing key 'winner'"),
    ("mrx_start,winner,winner\n13,mrx,detectives\n", "line 1: column 'winner' appears 2 times"),
    ("mrx_start,winner\n13\n", "line 2: expected 2 cells, got fewer"),
    ('[{"mrx_start": 13, "winner": "mrx", "winner": "detectives"}]', "[0].winner: key \"winner\" appears more than once"),
])
def test_cli_winrate_bad_results(cli, tmp_path, text, message):
    f = tmp_path / "r.csv"
    f.write_text(text)
    r = cli("heatmap", "--layer", "winrate", str(f), "-o", str(tmp_path / "w.png"))
    assert r.exit_code == 2 and message in r.stderr, r.stderr
    assert "Traceback" not in r.output


def test_cli_winrate_reach_from_several_and_panels(cli, tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("mrx_start,winner\n13,mrx\n13,detectives\n91,mrx\n")
    out = tmp_path / "w.png"
    r = cli("heatmap", "--layer", "winrate", str(f), "-o", str(out), "--size", "6x4.5", "--dpi", "40")
    assert r.exit_code == 0 and out.exists(), r.output
    for args in (["--layer", "reach", "--from", "13,46", "--from", "194", "--tickets", "taxi=2"],
                 [str(EX / "in-progress.json"), "--layer", "reach", "--from", "13"],
                 [str(EX / "in-progress.json"), "--layer", "history", "--panels"]):
        r = cli("heatmap", *args, "-o", str(out), "--size", "6x4.5", "--dpi", "40")
        assert r.exit_code == 0, (args, r.output)


def test_cli_refuses_to_overwrite_its_input(cli, tmp_path):
    game = tmp_path / "game.svg"
    game.write_bytes((EX / "in-progress.json").read_bytes())
    r = cli("heatmap", str(game), "-o", str(game))
    assert r.exit_code == 2 and "refusing to overwrite an input file" in r.stderr
    assert game.read_bytes() == (EX / "in-progress.json").read_bytes()


def test_a_hop_and_its_reverse_bend_apart(game):
    fr = plot_frame._frame(SIZE, DPI, "t", [], False)
    coords, _ = plot_layout.layout(game.board)
    ba = plot_board.BoardAxes(fr.fig, fr.main, game.board, coords)
    ba.arrow(55, 71, "black", "4K")
    ba.arrow(71, 55, "black", "5T")
    there, back = [p for p in ba.ax.patches if isinstance(p, matplotlib.patches.FancyArrowPatch)]
    # the same rad on reversed ends puts the control point on the other side of the line
    assert there.get_connectionstyle().rad == back.get_connectionstyle().rad != 0


def test_cli_reach_of_a_finished_game_is_exit_1(cli, tmp_path):
    r = cli("heatmap", str(EX / "capture.json"), "--layer", "reach", "-o", str(tmp_path / "r.png"))
    assert r.exit_code == 1 and "the game is over" in r.stderr
    assert not (tmp_path / "r.png").exists()


@pytest.mark.parametrize("size", [(0.5, 0.5), (20.0, 1.0)])
def test_tiny_and_odd_sizes_still_draw(game, tmp_path, size):
    for fig in (plot.possible_figure(game, size=size, dpi=40), plot.history_figure(game, size=size, dpi=40, panels=True)):
        plot.save(fig, tmp_path / "t.png")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=30))
def test_size_and_station_options_never_crash(text):
    from sy_tools.errors import InputError
    from sy_tools.formats.values import around_stations, figure_size, from_stations, named_stations, parse_starts

    for parse in (figure_size, lambda v: from_stations((v,)), around_stations, parse_starts, named_stations):
        try:
            parse(text)
        except InputError as e:
            assert "\n" not in str(e) and len(str(e)) < 200
