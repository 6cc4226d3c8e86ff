"""Pictures: heatmaps over the board (possible, history, reach, coverage, cordon, winrate), the
story of a finished game and the forced-win picture.  Importing this package loads matplotlib (with the Agg backend), so
only the commands that draw import it.

Each ``*_figure`` function returns a :class:`matplotlib.figure.Figure`; :func:`save` writes
one atomically::

    from sy_tools import load_record, plot
    fig = plot.possible_figure(load_record("examples/in-progress.json"))
    plot.save(fig, "possible.png")
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from .layers import (  # noqa: E402
    cordon_figure,
    coverage_figure,
    history_figure,
    mrx_reach_figure,
    possible_figure,
    reach_figure,
)
from .save import save  # noqa: E402
from .solve_picture import solve_figure  # noqa: E402
from .story import save_story, story_figures  # noqa: E402
from .style import DEFAULT_DPI, DEFAULT_SIZE, FORMATS, LAYERS, STORY_FORMATS  # noqa: E402
from .winrate import WinRates, load_winrates, winrate_figure  # noqa: E402

__all__ = [
    "DEFAULT_DPI", "DEFAULT_SIZE", "FORMATS", "LAYERS", "STORY_FORMATS", "WinRates", "cordon_figure",
    "coverage_figure", "history_figure", "load_winrates", "mrx_reach_figure", "possible_figure", "reach_figure",
    "save", "save_story", "solve_figure", "story_figures", "winrate_figure",
]
