"""Drawing an environment's game: a few lines of text as the detectives see it (``ansi``,
``human``) or the possible-positions heatmap as an RGB array (``rgb_array``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..engine.moves import when_text
from ..engine.tickets import DETECTIVE_TICKETS, TICKET_LETTERS

if TYPE_CHECKING:
    from .aec import ScotlandYardEnv

#: the size of the ``rgb_array`` picture, in inches at :data:`PICTURE_DPI` (640 x 480 pixels)
PICTURE_SIZE = (8.0, 6.0)

PICTURE_DPI = 80


def text(env: ScotlandYardEnv, full: bool = False) -> str:
    """The game in a few lines, as the detectives see it: how it stands (the moment and whose
    turn), Mr. X (where he was last seen, tickets and travel log), each detective (station,
    tickets), the possible set's size.  ``full``: Mr. X's station too (not for the detectives)."""
    pos = env.position
    st = env.public_state()
    head = pos.outcome.describe() if env.outcome != "illegal-action" else \
        f"ended by an illegal action: {when_text(pos.round, pos.move)}"
    log = " ".join(TICKET_LETTERS[t] + (f"{st.reveals[n]}" if n in st.reveals else "")
                   for n, t in enumerate(st.shown, 1)) or "-"
    x = pos.mrx_tickets
    if full:
        where = f"at {pos.mrx_at}"
    elif st.reveals:
        last = max(st.reveals)
        where = f"last seen at {st.reveals[last]} (move {last})"
    else:
        where = "not seen yet"
    lines = [
        head,
        f"Mr. X {where}: T{x.taxi} B{x.bus} U{x.underground} K{x.black} 2X{x.double}; log {log}",
        "  ".join(f"{n} {s}{' (out)' if n in pos.out else ''}: "
                  + " ".join(f"{TICKET_LETTERS[t]}{tk[t]}" for t in DETECTIVE_TICKETS)
                  for n, s, tk in zip(pos.names, pos.stations, pos.tickets)),
        f"possible: {st.possible.bit_count()} station{'s' if st.possible.bit_count() != 1 else ''}",
    ]
    return "\n".join(lines)


def picture(env: ScotlandYardEnv) -> np.ndarray:
    """The possible-positions heatmap of the game so far (height x width x 3, uint8), drawn with
    matplotlib's Agg backend (:func:`sy_tools.plot.possible_figure`)."""
    import matplotlib.pyplot as plt

    from ..plot import possible_figure

    fig = possible_figure(env.record(), weights=env.layout.probabilities or "paths", size=PICTURE_SIZE,
                          dpi=PICTURE_DPI)
    try:
        fig.canvas.draw()
        rgba = np.asarray(fig.canvas.buffer_rgba())  # type: ignore[attr-defined]
        return np.array(rgba[:, :, :3], dtype=np.uint8)
    finally:
        plt.close(fig)

