"""Colours, sizes and styles shared by every picture."""

from __future__ import annotations

from typing import Any

from ..engine.tickets import Transport
from ..formats import values as _values

#: the heatmap layers, image formats and default size as the options name them
LAYERS = _values.HEATMAP_LAYERS

FORMATS = _values.IMAGE_FORMATS

#: the story layer writes these too: an animated GIF, a PDF a page a round
STORY_FORMATS = _values.STORY_FORMATS

DEFAULT_SIZE = _values.DEFAULT_FIGURE_SIZE

DEFAULT_DPI = _values.DEFAULT_DPI

#: probability scale (its top colour marks the most likely station)
PROB_CMAP = "BuPu"

#: the share of the probability scale skipped at the bottom, so the least likely station is
#: still clearly coloured, unlike an impossible one (light grey, thin grey edge)
PROB_FLOOR = 0.25

#: moves: one distinct colour per move count, sampled evenly from this scale (few moves = blue)
MOVES_CMAP = "turbo"

#: Mr. X's win rate (0 = detectives always win, 1 = Mr. X always does); no pale end, so no rate
#: looks like "no game started here"
WINRATE_CMAP = "viridis"

TRANSPORT_STYLE: dict[Transport, dict[str, Any]] = {
    Transport.TAXI: {"color": "#e8b500", "linewidth": 1.0, "linestyle": "-", "zorder": 1},
    Transport.BUS: {"color": "#12876f", "linewidth": 2.0, "linestyle": "-", "zorder": 2},
    Transport.UNDERGROUND: {"color": "#d62728", "linewidth": 2.2, "linestyle": (0, (5, 3)), "zorder": 3},
    Transport.FERRY: {"color": "#111111", "linewidth": 2.0, "linestyle": (0, (1, 2)), "zorder": 3},
}

#: station numbers: never smaller than this (points) where the map leaves room, and a number's
#: box for the overlap rule, per digit wide and high, in font sizes (DejaVu Sans digits)
MIN_NUMBER_PT = 6.0

#: history panels: as many as keep the numbers at least this big (points)
PANEL_NUMBER_PT = 5.0

#: below this (points) the numbers are not drawn at all (a board too small to read)
READABLE_PT = 4.2

NUMBER_WIDTH = 0.64

NUMBER_HEIGHT = 1.2

EMPTY_FILL = "#f4f4f4"

EMPTY_EDGE = "#b0b0b0"

PALETTE = ["#e41a1c", "#377eb8", "#4daf4a", "#ff7f00", "#222222", "#984ea3", "#a65628", "#f781bf"]

#: cordon rings and left-open markers: colours no detective or transport uses, and two shapes
CORDON_COLOUR = "#ff7f0e"

OPEN_COLOUR = "#d01c8b"

#: a cordon picture marks the stations left open (and the minimal cordon) one by one only when
#: there are at most this many; more would hide the plan
FEW_MARKS = 12

STAR_FILL = "#ffe14d"

#: Mr. X's true route (a full record) against the guessed one
TRUE_COLOUR = "#000000"


Point = tuple[float, float]

Rect = tuple[float, float, float, float]
