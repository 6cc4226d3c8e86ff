"""The story of a finished game: one board a round, where he was (a full record knows), where
the detectives thought he was, and how their net closed; written as an animated GIF or a
multi-page PDF (one page a round), or its last page as one picture."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..errors import InputError
from ..formats.record import Record
from .board import BoardAxes, _name, _note, detective_handles, percent, star_handle, transport_handles
from .frame import _colorbar, _frame
from .layout import layout
from .pieces import detective_trails, stuck_detectives, true_route
from .style import EMPTY_EDGE, EMPTY_FILL, TRUE_COLOUR

#: how long a GIF shows each round, and the last one, in milliseconds
FRAME_MS = 1400
LAST_FRAME_MS = 4000


def story_figures(record: Record, weights: str = "paths", size: tuple[float, float] | None = None,
                  dpi: int | None = None) -> Iterator[Figure]:
    """One figure per round of ``record``, drawn as they are asked for (a long game is never held
    in memory at once) (after the round's moves): the detectives' belief then
    (Mr. X's probability from what they had seen, :func:`sy_tools.analysis.possible.possible` on
    the record's detectives' view), his reveals starred, the detectives with their trails so far
    (a cross on a stranded one), and on a full record his true route so far (dashed) and where he
    really was (a black hexagon).  A record with no round yet gives one figure of the start."""
    from ..analysis.possible import possible
    from .layers import _probability_fills

    coords, why = layout(record.board)
    total = len(record.rounds)
    for k in range(1, total + 1) if total else (0,):
        rec = record.at_round(k)
        seen = possible(rec.detectives_view(), weights=weights)
        truth = true_route(rec)
        stuck = stuck_detectives(rec)
        here = truth[-1] if truth else None
        handles: list[Any] = transport_handles() + detective_handles(seen.detectives, stuck)
        handles.append(Line2D([], [], color="#777777", lw=5, alpha=0.3, label="detectives' trails"))
        if seen.last_reveal:
            handles.append(star_handle(f"last seen ({seen.last_reveal[1]}, move {seen.last_reveal[0]})"))
        if here is not None:
            handles.append(Line2D([], [], marker="h", ls=(0, (4, 2)), color=TRUE_COLOUR, mfc="none", mew=2.2, ms=13,
                                  label="where he really was, and his route"))
        handles.append(Patch(facecolor=EMPTY_FILL, edgecolor=EMPTY_EDGE, label="he cannot be here"))
        what = f"they thought him at one of {len(seen.stations)} stations"
        if here is not None:
            what = f"he was at {here}; " + what + f" ({percent(seen.probabilities.get(here, 0.0))} on {here})"
        if seen.capture:
            what = f"caught at {seen.capture.station} by {seen.capture.by}"
        elif k == total and total and rec.n_moves >= rec.rules.log_length:
            what += "; he escaped"
        title = f"The story of {_name(rec)}: round {k} of {total}, after Mr. X's move {rec.n_moves}: {what}"
        frame = _frame(size, dpi, _note(title, why), handles, True)
        ba = BoardAxes(frame.fig, frame.main, rec.board, coords)
        cmap, norm, ticks = _probability_fills(ba, seen.probabilities, 1.3)
        ba.trails(detective_trails(rec))
        if seen.last_reveal:
            ba.mrx(seen.last_reveal[1])
        if truth:
            from .layers import _true_route

            _true_route(ba, rec.mrx_start, truth, ())
            ba.rings([truth[-1]], TRUE_COLOUR, 1.55, max(1.8, ba.diameter * 0.14), marker="h", zorder=7.4)
        ba.detectives(seen.detectives, stuck=stuck)
        _colorbar(frame, cmap, norm, "where they thought he was (probability)", ticks,
                  None if ticks is None else [percent(t) for t in ticks])
        yield frame.fig


def save_story(figs: Iterable[Figure], path: str | os.PathLike[str], dpi: int | None = None) -> Path:
    """Write the story atomically: ``.gif`` an animation (a frame a round, the last held
    longer), ``.pdf`` a page a round, ``.png`` or ``.svg`` the last round alone.  Each figure is
    written (and closed) before the next is drawn, so memory stays bounded however many rounds
    the game has."""
    import itertools

    import matplotlib.pyplot as plt

    from ..formats.files import atomic_writer
    from ..formats.values import picture_format
    from .save import save

    p = Path(path)
    fmt = picture_format(p, story=True)
    if fmt in ("png", "svg"):
        last = None
        for fig in figs:
            if last is not None:
                plt.close(last)
            last = fig
        if last is None:
            raise InputError("nothing to draw", str(path))
        return save(last, p, dpi)
    them = iter(figs)
    first = next(them, None)
    if first is None:
        raise InputError("nothing to draw", str(path))
    with atomic_writer(p) as out:
        if fmt == "pdf":
            from matplotlib.backends.backend_pdf import PdfPages

            with PdfPages(out) as pdf:
                for fig in itertools.chain([first], them):
                    pdf.savefig(fig, facecolor="white")
                    plt.close(fig)
        else:
            from PIL import Image  # (pillow: a dependency of matplotlib)

            from .gif import GifWriter

            gif = GifWriter(out)
            for fig in itertools.chain([first], them):
                one = io.BytesIO()
                fig.savefig(one, format="png", dpi=dpi or fig.dpi, facecolor="white")
                plt.close(fig)
                with Image.open(one) as frame:
                    gif.add(frame, FRAME_MS)
            gif.finish(LAST_FRAME_MS)
    return p
