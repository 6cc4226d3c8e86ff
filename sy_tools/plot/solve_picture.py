"""The forced-win picture: Mr. X's possible stations, the detectives' first joint move and
their answer to each ticket he may show next (``sy_tools.solvers.forced``'s result drawn)."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..engine.board import Board
from ..engine.stations import stations_of
from ..engine.tickets import TICKET_LETTERS
from .board import BoardAxes, detective_colour, detective_handles, transport_handles
from .frame import _frame
from .layout import layout
from .style import OPEN_COLOUR


def solve_figure(board: Board, result: Any, size: tuple[float, float] | None = None,
                 dpi: int | None = None) -> Figure:
    """A forced win (:class:`sy_tools.solvers.forced_tree.SolveResult`) drawn: Mr. X's possible stations
    (magenta squares), the detectives, the first joint move as solid arrows labelled ``1`` and
    the ticket, and for each ticket he may show next the detectives' answer as thinner arrows
    labelled ``2`` and the ticket he showed (``2U/bus``)."""
    coords, why = layout(board)
    positions = dict(result.start)
    possible = stations_of(result.possible)
    handles: list[Any] = transport_handles() + detective_handles(positions) + [
        Line2D([], [], marker="s", ls="", mfc="white", mec=OPEN_COLOUR, mew=2.5, ms=12,
               label=f"Mr. X may be here ({len(possible)})"),
        Line2D([], [], color="#333333", lw=2.4, marker=">", label="turn 1: move + ticket"),
        Line2D([], [], color="#333333", lw=1.2, marker=">", label="turn 2: if he shows that ticket"),
    ]
    if result.forced:
        verdict = f"forced win in {result.turns} turn{'s' if result.turns != 1 else ''} (proved)"
    elif result.forced is False:
        verdict = f"no forced win within {result.max_turns} (proved)"
    else:
        verdict = "unknown (a limit stopped the search)"
    setup = ", ".join(f"{n} {st}" for n, st in positions.items())
    shown = " ".join(map(str, possible[:8])) + (" ..." if len(possible) > 8 else "")
    frame = _frame(size, dpi, f"Forced capture  Mr. X at {shown}; {setup}: {verdict}", handles, False)
    ba = BoardAxes(frame.fig, frame.main, board, coords)
    ba.stations({}, {s: ("#222222", 1.2) for s in possible})
    ba.rings(possible, OPEN_COLOUR, 1.5, max(1.8, ba.diameter * 0.13), marker="s", zorder=6.7)
    ba.detectives(positions)
    colour = {n: detective_colour(n, i) for i, n in enumerate(positions)}
    node = result.strategy
    if node is not None:
        where = dict(positions)
        for m in node.moves:
            if m.to is not None:
                ba.arrow(where[m.piece], m.to, colour[m.piece], f"1{TICKET_LETTERS[m.tickets[0]]}",
                         width=max(1.8, ba.diameter * 0.16))
                where[m.piece] = m.to
        for reply in node.replies:
            shown = "+".join(t.value for t in reply.tickets)
            after = dict(where)
            for m in reply.then.moves:
                if m.to is not None and after[m.piece] != m.to:
                    ba.arrow(after[m.piece], m.to, colour[m.piece], f"2{TICKET_LETTERS[m.tickets[0]]}/{shown}",
                             width=max(1.0, ba.diameter * 0.08), fontsize=max(5.0, ba.diameter * 0.3))
                    after[m.piece] = m.to
    return frame.fig
