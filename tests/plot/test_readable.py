"""Pictures a player reads at a glance (issue 25), checked on the renderer's own text boxes:
station numbers drawn and never overlapping, every drawn station wholly inside its axes,
every drawn detective named, distinct reach colours, readable scale ticks, labels that never
overlap, the story of a game written a frame (or page) a round."""

from __future__ import annotations

import dataclasses
import itertools
import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from helpers import REPO

from sy_tools import plot
from sy_tools.formats.record_io import load_record

EX = REPO / "examples"
SIZE, DPI = (8.0, 6.0), 40
TOLERANCE = 0.08  # share of the smaller box two station numbers may overlap (antialiasing, rounding)


@pytest.fixture(scope="module")
def game():
    return load_record(EX / "in-progress.json")


@pytest.fixture(scope="module")
def full():
    return load_record(EX / "capture.json")


@pytest.fixture(scope="module")
def bare(game):
    """The same game on the London map with its coordinates dropped (a computed layout)."""
    b = game.board
    return dataclasses.replace(game, board=dataclasses.replace(b, coords=None))


def _figure(layer, rec, size=SIZE):
    if layer == "possible":
        return plot.possible_figure(rec, size=size, dpi=DPI)
    if layer == "history":
        return plot.history_figure(rec, size=size, dpi=DPI)
    if layer == "panels":
        return plot.history_figure(rec, size=(16, 12), dpi=DPI, panels=True)
    if layer == "coverage":
        return plot.coverage_figure(rec, size=SIZE, dpi=DPI)
    if layer == "cordon":
        return plot.cordon_figure(rec, 2, 7, 5.0, size=SIZE, dpi=DPI)
    if layer == "reach":
        return plot.reach_figure(rec.board, 13, {"taxi": 10, "bus": 8, "underground": 4}, size=size, dpi=DPI)
    if layer == "mrx-reach":
        return plot.mrx_reach_figure(rec, size=SIZE, dpi=DPI)
    assert layer == "winrate"
    return plot.winrate_figure(rec.board, plot.load_winrates(REPO / "docs" / "winrate-example.csv", rec.board),
                               size=SIZE, dpi=DPI)


def _boards(fig):
    """The board axes: those that draw stations (a scatter at zorder 5)."""
    return [ax for ax in fig.axes if any(c.get_zorder() == 5 for c in ax.collections)]


def _overlap(a, b):
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(0.0, w) * max(0.0, h)


def _check_board(fig, ax, coords, names=()):
    renderer = fig.canvas.get_renderer()
    disc = next(c for c in ax.collections if c.get_zorder() == 5)
    drawn = [tuple(p) for p in disc.get_offsets()]
    assert drawn, "no station drawn"
    # every drawn station wholly inside the axes
    box = ax.get_window_extent(renderer)
    radius = np.sqrt(disc.get_sizes()[0]) / 2 * fig.dpi / 72
    for x, y in ax.transData.transform(np.array(drawn)):
        assert box.x0 - 0.5 <= x - radius and x + radius <= box.x1 + 0.5, "a station cut at a side"
        assert box.y0 - 0.5 <= y - radius and y + radius <= box.y1 + 0.5, "a station cut at the top or bottom"
    # a number on every drawn station, none overlapping another beyond the tolerance
    at = {(round(p[0], 6), round(p[1], 6)): s for s, p in coords.items()}
    numbers = [t for t in ax.texts if t.get_zorder() == 6 and t.get_text().isdigit()]
    named = {at.get((round(t.get_position()[0], 6), round(t.get_position()[1], 6))) for t in numbers}
    assert len(numbers) == len(drawn) and None not in named, "a station without its number"
    assert all(t.get_text() == str(at[(round(t.get_position()[0], 6), round(t.get_position()[1], 6))])
               for t in numbers)
    assert min(t.get_fontsize() for t in numbers) >= 4.2, "station numbers too small to read"
    boxes = [t.get_window_extent(renderer) for t in numbers]
    order = sorted(range(len(boxes)), key=lambda i: boxes[i].x0)
    for k, i in enumerate(order):  # a sweep along x: only boxes that meet in x are compared
        for j in order[k + 1:]:
            if boxes[j].x0 > boxes[i].x1:
                break
            small = min(boxes[i].width * boxes[i].height, boxes[j].width * boxes[j].height)
            assert _overlap(boxes[i], boxes[j]) <= TOLERANCE * small, \
                f"numbers {numbers[i].get_text()} and {numbers[j].get_text()} overlap"
    # every detective drawn is named beside it
    texts = " ".join(t.get_text() for t in ax.texts)
    for n in names:
        assert re.search(rf"\b{n}\b", texts), f"detective {n} drawn without its name"


@pytest.mark.parametrize("where", ["london", "bare"])
@pytest.mark.parametrize("layer", ["possible", "history", "panels", "coverage", "cordon", "reach", "winrate"])
def test_numbers_readable_stations_inside_detectives_named(layer, where, game, bare):
    rec = game if where == "london" else bare
    if where == "bare" and layer != "history":
        pytest.skip("the other layers draw the board the same way (kept fast)")
    from sy_tools.plot.layout import layout

    coords, _ = layout(rec.board)
    # a computed layout of 199 stations needs the default size for readable numbers
    fig = _figure(layer, rec, SIZE if where == "london" else plot.DEFAULT_SIZE)
    fig.canvas.draw()
    boards = _boards(fig)
    assert boards
    names = [d.name for d in rec.detectives] if layer in ("possible", "history", "coverage", "mrx-reach") else []
    for ax in boards:
        _check_board(fig, ax, coords, names)
    if layer == "panels":  # one zoom for every panel
        assert len({(ax.get_xlim(), ax.get_ylim()) for ax in boards}) == 1
    plt.close(fig)


def test_reach_legend_has_one_distinct_colour_per_move_count(game):
    fig = plot.reach_figure(game.board, 13, {"taxi": 10, "bus": 8, "underground": 4}, size=SIZE, dpi=DPI)
    entries = [(h.get_label(), h.get_facecolor()[:3]) for h in fig.legends[0].legend_handles
               if re.fullmatch(r"\d+ moves? \(\d+\)", h.get_label())]
    counts = [int(label.split()[0]) for label, _ in entries]
    assert counts == list(range(max(counts) + 1)) and max(counts) >= 4
    for (_, a), (_, b) in itertools.combinations(entries, 2):
        assert np.abs(np.array(a) - np.array(b)).max() > 0.12, "two move counts look alike"
    plt.close(fig)


def test_probability_ticks_read_as_round_percentages(game):
    fig = plot.cordon_figure(game, 2, 7, 5.0, size=SIZE, dpi=DPI)
    fig.canvas.draw()
    labels = [t.get_text() for t in fig.axes[-1].get_yticklabels() if t.get_text()]
    assert labels and all(re.fullmatch(r"(0\.[0-9]|[0-9]+)%", t) for t in labels), labels
    title = " ".join(fig._suptitle.get_text().split())
    assert "0.00" not in title
    # the 124 stations left open are summarised, not squared one by one
    assert not [c for c in fig.axes[0].collections if c.get_zorder() == 6.7]
    assert any("left open: the other 124" in h.get_label() for h in fig.legends[0].legend_handles)
    plt.close(fig)


def test_winrate_labels_never_overlap(game):
    fig = _figure("winrate", game)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    ax = fig.axes[0]
    rates = [t for t in ax.texts if "%" in t.get_text()]
    assert len(rates) >= 10
    others = [t.get_window_extent(r) for t in ax.texts]
    for t in rates:
        b = t.get_window_extent(r)
        for o in others:
            if o is not b and (o.x0, o.y0) != (b.x0, b.y0):
                assert _overlap(b, o) <= 0.05 * b.width * b.height, t.get_text()
    plt.close(fig)


def test_history_on_a_full_record_draws_his_true_route_against_the_guess(full, game):
    from sy_tools.analysis.route import likely_route

    fig = plot.history_figure(full, size=SIZE, dpi=DPI)
    labels = [h.get_label() for h in fig.legends[0].legend_handles]
    assert any(lbl.startswith("his true route") for lbl in labels)
    truth = [m.to for rnd in full.rounds for m in rnd.mrx]
    parted = [m for m, s in enumerate(likely_route(full).stations, 1) if s != truth[m - 1]]
    assert parted  # this game fooled them somewhere
    boxed = {n for t in fig.axes[0].texts if t.get_zorder() == 10 and re.fullmatch(r"[\d,]+", t.get_text())
             for n in map(int, t.get_text().split(","))}
    assert boxed == set(parted)
    assert "matches it at" in fig._suptitle.get_text().replace("\n", " ")
    plt.close(fig)
    # a detectives' record has no true route to draw; trails are drawn for both
    fig = plot.history_figure(game, size=SIZE, dpi=DPI)
    assert not any(h.get_label().startswith("his true route") for h in fig.legends[0].legend_handles)
    assert any(h.get_label() == "detectives' trails" for h in fig.legends[0].legend_handles)
    plt.close(fig)


def test_a_stranded_detective_is_marked(game):
    from sy_tools.plot.pieces import stuck_detectives

    assert stuck_detectives(game) == ("Red",)  # Red at 151 holds no ticket for its ways out
    fig = plot.coverage_figure(game, size=SIZE, dpi=DPI)
    assert any(t.get_text() == "Red stuck" for t in fig.axes[0].texts)
    assert any(c.get_zorder() == 5.5 for c in fig.axes[0].collections)  # the cross, under its number
    plt.close(fig)


def test_story_writes_a_frame_or_page_a_round(full, tmp_path, cli):
    from PIL import Image

    rec = full.at_round(3)
    out = plot.save_story(plot.story_figures(rec, size=(4, 3), dpi=30), tmp_path / "s.gif")
    with Image.open(out) as im:
        assert im.n_frames == 3
    r = cli("heatmap", str(EX / "capture.json"), "--layer", "story", "--round", "2", "--size", "4x3", "--dpi", "30",
            "-o", str(tmp_path / "s.pdf"))
    assert r.exit_code == 0, r.output
    assert (tmp_path / "s.pdf").read_bytes().count(b"/Type /Page\n") + \
        (tmp_path / "s.pdf").read_bytes().count(b"/Type /Page ") == 2
    r = cli("heatmap", str(EX / "capture.json"), "--layer", "history", "-o", str(tmp_path / "h.gif"))
    assert r.exit_code == 2 and "(.gif with --layer story)" in r.output


def test_story_frames_say_where_he_was_and_what_they_thought(full):
    figs = list(plot.story_figures(full.at_round(2), size=(4, 3), dpi=30))
    titles = [" ".join(f._suptitle.get_text().split()) for f in figs]
    truth = [m.to for rnd in full.rounds for m in rnd.mrx]
    assert f"he was at {truth[0]}" in titles[0] and "they thought him at one of" in titles[0]
    assert titles[1].startswith("The story of capture.json: round 2 of 2")
    for f in figs:
        plt.close(f)
