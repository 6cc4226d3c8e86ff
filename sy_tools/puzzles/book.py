"""What a puzzle book says of each puzzle (:func:`book_items`): the puzzles ordered by rating
(unrated ones last, then by turns), each with its heading, question, notes, pieces, the
stations its diagram must show and its solution lines; :mod:`sy_tools.plot.puzzle_book` draws
them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.tickets import DETECTIVE_KINDS
from .model import Puzzle, position_lines, solution_lines


def book_order(puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """Easiest first: by rating (unrated last), then turns, then id."""
    return sorted(puzzles, key=lambda p: (p.rating is None, p.rating.rating if p.rating else 0.0, p.turns, p.id))


def book_items(puzzles: Sequence[Puzzle]) -> list[dict[str, Any]]:
    """The book's entries in order (see the module docstring), as plain values."""
    out = []
    for n, p in enumerate(book_order(puzzles), 1):
        rating = f", rating {p.rating.rating:.0f}" if p.rating is not None else ""
        view = set(p.possible) | {s for _, s, _ in p.detectives}
        for st in p.solution:
            view |= {s for m in st.moves + st.reply_moves for s in m.stations if s is not None}
            view |= set(st.reply_possible)
        tickets = "; ".join(f"{name} " + " ".join(f"{k[0].upper()}{t[k]}" for k in DETECTIVE_KINDS)
                            for name, _, t in p.detectives)
        notes = [position_lines(p)[1], "tickets: " + tickets]
        if p.survival:  # (the square marks where he stands)
            notes = [position_lines(p)[1], "detectives' tickets: " + tickets]
        out.append({
            "heading": f"Puzzle {n} ({p.id}{rating})",
            "question": p.question(),
            "notes": tuple(notes),
            "detectives": {name: s for name, s, _ in p.detectives},
            "possible": tuple(p.possible),
            "view": tuple(sorted(view)),
            "solution": tuple(solution_lines(p)),
        })
    return out
