"""The forced-win picture draws the strategy it is given: one arrow per move of the first joint
move and of each answer, labelled with the turn and ticket."""

from __future__ import annotations

from matplotlib.patches import FancyArrowPatch

from sy_tools import plot
from sy_tools.solvers.forced import solve_puzzle


def test_solve_figure_draws_the_strategy(london):
    res = solve_puzzle(london, [154], [("Red", 185), ("Blue", 130), ("Green", 168)], move_number=3,
                 mrx_tickets={"taxi": 4, "bus": 3, "underground": 3, "black": 0, "double": 0})
    assert res.forced and res.turns == 2
    fig = plot.solve_figure(london, res, size=(8, 6), dpi=60)
    ax = fig.axes[0]
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    first = [m for m in res.strategy.moves if m.to is not None]
    answers = [m for r in res.strategy.replies for m in r.then.moves if m.to is not None]
    assert len(arrows) >= len(first) + 1 and len(first) == 3
    labels = {t.get_text() for t in ax.texts}
    assert {"1U", "1T"} <= labels and any(lbl.startswith("2") and "/" in lbl for lbl in labels)
    assert len(answers) >= 1
    assert "forced win in 2 turns" in fig.texts[0].get_text() or any(
        "forced win in 2 turns" in t.get_text() for t in fig.texts)
