"""Heatmaps: every layer renders an image of the requested size; the most likely station
carries the top colour of the scale; the London picture is not mirrored."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.image as mpimg
import numpy as np
import pytest

from sy_tools import plot
from sy_tools.record import load_record
from sy_tools.tracker import possible

EX = Path(__file__).resolve().parent.parent / "examples"
SIZE, DPI = (8.0, 6.0), 60


@pytest.fixture(scope="module")
def game():
    return load_record(EX / "in-progress.json")


def _render(fig, tmp_path, name="f.png"):
    fig.canvas.draw()
    ax = fig.axes[0]
    path = tmp_path / name
    plot.save(fig, path, fig.dpi)
    return ax, mpimg.imread(path)


def _pixel(ax, img, xy):
    x, y = ax.transData.transform(xy)
    return int(round(x)), int(round(img.shape[0] - y))


@pytest.mark.parametrize("layer", ["possible", "history", "coverage", "cordon", "reach"])
def test_each_layer_renders_requested_size(layer, game, tmp_path):
    if layer == "possible":
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
    from sy_tools.record import parse_record, record_to_json
    from sy_tools.rules import PRESETS
    from sy_tools.simulate import detectives_view

    full = load_record(EX / "double-and-ferry.json")
    view = parse_record(detectives_view(record_to_json(full), PRESETS["classic"]))
    rec = view.truncated(len(view.rounds) - 1)
    best, p = possible(rec).ranked()[0]
    fig = plot.possible_figure(rec, size=(12, 9), dpi=80)
    ax, img = _render(fig, tmp_path)
    top = np.array(matplotlib.colormaps[plot.PROB_CMAP](1.0)[:3])
    low = np.array(matplotlib.colormaps[plot.PROB_CMAP](0.0)[:3])
    cx, cy = _pixel(ax, img, rec.board.coords[best])
    radius_px = 0.5 * _diameter_pt(fig) * 80 / 72
    hits = 0
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)):
        px, py = round(cx + dx * 0.5 * radius_px), round(cy + dy * 0.5 * radius_px)
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
    from sy_tools.mapio import write_map

    write_map(london, tmp_path / "g.txt")
    from sy_tools.validate import load_board

    board = load_board(tmp_path / "g.txt")
    fig = plot.reach_figure(board, 1, None, size=SIZE, dpi=DPI)
    assert "networkx layout" in fig._suptitle.get_text()
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
    (["--layer", "reach"], "the reach layer needs --from STATION"),
    (["--size", "big"], "--size: expected WIDTHxHEIGHT"),
    (["--layer", "reach", "--from", "500"], "--from: station 500 is not on the map 'london'"),
])
def test_cli_bad_options(cli, tmp_path, args, message):
    r = cli("heatmap", str(EX / "in-progress.json"), *args)
    assert r.exit_code == 2
    assert message in r.stderr or message in r.output
    assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) <= 3
