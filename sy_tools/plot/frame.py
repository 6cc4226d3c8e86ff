"""The frame of a picture: title, legend, colour bar and board area, measured for the size asked."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from .style import DEFAULT_DPI, DEFAULT_SIZE, Rect


@dataclass
class Frame:
    fig: Figure
    main: Rect
    cbar: Rect | None
    fontsize: float


def _figure(size: tuple[float, float] | None, dpi: int | None) -> Figure:
    fig = plt.figure(figsize=size or DEFAULT_SIZE, dpi=dpi or DEFAULT_DPI)
    fig.patch.set_facecolor("white")
    return fig


def _frame(size: tuple[float, float] | None, dpi: int | None, title: str, handles: Sequence[Any],
           colorbar: bool) -> Frame:
    """A figure with its title and legend placed and measured; ``main`` is what is left for the
    board, ``cbar`` the colour bar's place (right side) when asked for."""
    import textwrap

    fig = _figure(size, dpi)
    w_in, h_in = (float(v) for v in fig.get_size_inches())
    scale = min(1.0, max(0.55, math.sqrt(min(w_in / 16, h_in / 12))))
    fs = 10 * scale
    title_fs = 13 * scale
    chars = max(20, int(w_in * 72 / (0.5 * title_fs)))
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    fig_w, fig_h = fig.bbox.width, fig.bbox.height
    while True:  # wrap the title until it fits the width (measured, not guessed)
        sup = fig.suptitle(textwrap.fill(title, chars), fontsize=title_fs, y=1 - 0.06 / h_in, va="top")
        if sup.get_window_extent(renderer).width <= 0.98 * fig_w or chars <= 20:
            break
        chars = max(20, int(chars * 0.9))
    legend_h = 0.0
    if handles:
        ncol = min(len(handles), 6)
        while True:
            leg = fig.legend(handles=list(handles), loc="lower center", ncol=ncol, frameon=False, fontsize=fs,
                             bbox_to_anchor=(0.5, 0.0), handlelength=1.8, columnspacing=1.2)
            if leg.get_window_extent(renderer).width <= 0.98 * fig_w or ncol == 1:
                break
            leg.remove()
            ncol -= 1
        legend_h = leg.get_window_extent(renderer).height / fig_h
        if legend_h > 0.35:  # a figure too small for its legend: the board comes first
            leg.remove()
            legend_h = 0.0
    title_h = (sup.get_window_extent(renderer).height + 0.12 * fig.dpi) / fig_h
    if title_h > 0.35:
        sup.set_text("")
        title_h = 0.02
    right = (1.25 * scale + 0.1) / w_in if colorbar else 0.01
    if right > 0.35:  # likewise the colour bar
        colorbar, right = False, 0.01
    bottom = legend_h + 0.01
    main = (0.01, bottom, 1 - 0.01 - right, max(0.1, 1 - bottom - title_h - 0.01))
    cbar = None
    if colorbar:
        cbar = (1 - right + 0.12 / w_in, main[1] + 0.15 * main[3], 0.22 * scale / w_in, 0.7 * main[3])
    return Frame(fig, main, cbar, fs)


def _colorbar(frame: Frame, cmap: Any, norm: Any, label: str, ticks: Sequence[float] | None = None,
              ticklabels: Sequence[str] | None = None) -> None:
    if frame.cbar is None:  # no room for it at this size
        return
    cax = frame.fig.add_axes(frame.cbar)
    sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = frame.fig.colorbar(sm, cax=cax, ticks=ticks)
    if ticklabels is not None:
        cb.ax.minorticks_off()
        cb.set_ticks(list(ticks or ()), labels=list(ticklabels))
    cb.ax.tick_params(labelsize=frame.fontsize * 0.9)
    cb.set_label(label, fontsize=frame.fontsize)
