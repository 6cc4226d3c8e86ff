"""A printable puzzle book: two puzzles a page, each a board diagram zoomed to the stations
that matter with readable station numbers and its question in one line, then the solutions
at the back (PDF through matplotlib, or one HTML file with the diagrams embedded).

The book is drawn from plain :class:`BookEntry` values (the puzzles' text comes from the
caller: this module knows boards, not puzzles)."""

from __future__ import annotations

import base64
import html
import io
import os
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..engine.board import Board
from ..engine.stations import Station
from .board import BoardAxes, detective_colour, transport_handles
from .layout import layout
from .style import OPEN_COLOUR

#: A4 portrait, inches
PAGE = (8.27, 11.69)


@dataclass(frozen=True)
class BookEntry:
    """One puzzle of the book: its heading (``Puzzle 3 (rating 1611)``), the question in one
    line, a few lines about the position (tickets, move number), the detectives (name ->
    station, in turn order), Mr. X's possible stations, the stations the solution visits (the
    diagram's zoom covers them all) and the solution's lines."""

    heading: str
    question: str
    notes: tuple[str, ...]
    detectives: dict[str, Station]
    possible: tuple[Station, ...]
    view: tuple[Station, ...]
    solution: tuple[str, ...] = field(default=())


def draw_entry(fig: Figure, rect: Sequence[float], board: Board, entry: BookEntry) -> None:
    """One puzzle in ``rect`` (figure fractions): heading and question above, the zoomed
    diagram, the notes below."""
    x, y, w, h = rect
    fig.text(x + 0.01, y + h - 0.005, entry.heading, fontsize=12, fontweight="bold", va="top")
    fig.text(x + 0.01, y + h - 0.03, textwrap.shorten(entry.question, 110), fontsize=10, va="top")
    notes = "\n".join(textwrap.fill(n, 100) for n in entry.notes)
    fig.text(x + 0.01, y + 0.005, notes, fontsize=8, va="bottom", family="monospace")
    coords, _ = layout(board)
    ba = BoardAxes(fig, (x, y + 0.055, w, h - 0.1), board, coords, view=entry.view)
    ba.stations({}, {s: ("#222222", 1.2) for s in entry.possible})
    ba.rings(entry.possible, OPEN_COLOUR, 1.5, max(1.8, ba.diameter * 0.13), marker="s", zorder=6.7)
    ba.detectives(entry.detectives)


def legend_handles(names: Sequence[str]) -> list[Line2D]:
    return transport_handles() + [
        Line2D([], [], marker="s", ls="", mfc="white", mec=OPEN_COLOUR, mew=2.5, ms=10, label="Mr. X (may be) here")
    ] + [Line2D([], [], marker="o", ls="", mfc="white", mec=detective_colour(n, i), mew=2.5, ms=10, label=n)
         for i, n in enumerate(names)]


def puzzle_pages(board: Board, entries: Sequence[BookEntry], title: str = "Scotland Yard puzzles",
                 per_page: int = 2) -> list[Figure]:
    """The book's pages: ``per_page`` puzzles a page, then the solutions (as many lines as fit
    a page)."""
    pages: list[Figure] = []
    for start in range(0, len(entries), per_page):
        fig = Figure(figsize=PAGE, dpi=100)
        fig.patch.set_facecolor("white")
        fig.text(0.5, 0.985, f"{title}, page {len(pages) + 1}", ha="center", va="top", fontsize=9, color="#555555")
        chunk = entries[start:start + per_page]
        slot = 0.93 / per_page
        for i, e in enumerate(chunk):
            draw_entry(fig, (0.03, 0.96 - (i + 1) * slot, 0.94, slot - 0.01), board, e)
        fig.legend(handles=legend_handles([]), loc="lower center", ncol=5, frameon=False, fontsize=8,
                   bbox_to_anchor=(0.5, 0.0))
        pages.append(fig)
    for n, text in enumerate(solution_pages(entries)):
        fig = Figure(figsize=PAGE, dpi=100)
        fig.patch.set_facecolor("white")
        head = "Solutions" + (" (continued)" if n else "")
        fig.text(0.06, 0.965, head, fontsize=14, fontweight="bold", va="top")
        fig.text(0.06, 0.93, "\n".join(text), fontsize=7.5, va="top", family="monospace", linespacing=1.35)
        pages.append(fig)
    return pages


def solution_pages(entries: Sequence[BookEntry], per: int = 72, width: int = 110) -> list[list[str]]:
    """The solutions' lines, page by page: each puzzle's heading and solution (long lines
    wrapped, never cut short) kept on one page, a blank line between two; only a solution
    longer than a page runs on to the next."""
    pages: list[list[str]] = [[]]
    for e in entries:
        block = [e.heading]
        for s in e.solution:
            block += textwrap.wrap(s, width, subsequent_indent="      ") or [""]
        if pages[-1] and len(pages[-1]) + 1 + len(block) > per:
            pages.append([])
        if pages[-1]:
            pages[-1].append("")
        while block:
            room = per - len(pages[-1])
            pages[-1] += block[:room]
            block = block[room:]
            if block:
                pages.append([])
    return [p for p in pages if p]



def write_pdf(pages: Sequence[Figure], path: str | os.PathLike[str]) -> None:
    """The pages as one PDF, written atomically."""
    from matplotlib.backends.backend_pdf import PdfPages

    from ..formats.files import atomic_write_bytes

    buf = io.BytesIO()
    with PdfPages(buf) as pdf:
        for fig in pages:
            pdf.savefig(fig)
    atomic_write_bytes(path, buf.getvalue())


def write_pngs(pages: Sequence[Figure], stem: str | os.PathLike[str], dpi: int = 100) -> list[str]:
    """Each page as ``STEM-N.png`` (to look at a page); the paths written."""
    from ..formats.files import atomic_write_bytes

    out = []
    for i, fig in enumerate(pages, 1):
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
        path = f"{os.fspath(stem)}-{i}.png"
        atomic_write_bytes(path, buf.getvalue())
        out.append(path)
    return out


def entry_png(board: Board, entry: BookEntry, dpi: int = 110) -> bytes:
    """One puzzle's diagram alone, as PNG bytes (the HTML book's pictures)."""
    fig = Figure(figsize=(7.5, 5.4), dpi=dpi)
    fig.patch.set_facecolor("white")
    coords, _ = layout(board)
    ba = BoardAxes(fig, (0.0, 0.0, 1.0, 1.0), board, coords, view=entry.view)
    ba.stations({}, {s: ("#222222", 1.2) for s in entry.possible})
    ba.rings(entry.possible, OPEN_COLOUR, 1.5, max(1.8, ba.diameter * 0.13), marker="s", zorder=6.7)
    ba.detectives(entry.detectives)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
    return buf.getvalue()


def legend_png(dpi: int = 110) -> bytes:
    """The diagrams' key (the transport lines, the square marking Mr. X) as PNG bytes: the HTML
    book shows it once, at the top, as the PDF shows it at the foot of each page."""
    fig = Figure(figsize=(7.5, 0.45), dpi=dpi)
    fig.patch.set_facecolor("white")
    fig.legend(handles=legend_handles([]), loc="center", ncol=5, frameon=False, fontsize=9)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
    return buf.getvalue()


def book_html(board: Board, entries: Sequence[BookEntry], title: str = "Scotland Yard puzzles") -> str:
    """The book as one HTML page: each puzzle's heading, question, diagram and notes, then the
    solutions."""
    esc = html.escape
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{esc(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:52em;margin:auto;padding:1em}"
             "section{page-break-inside:avoid;margin-bottom:2em}img{width:100%;border:1px solid #ddd}"
             "pre{font-size:.85em;white-space:pre-wrap}</style></head><body>", f"<h1>{esc(title)}</h1>",
             "<p><img class='legend' style='border:none' alt='Key: taxi, bus, underground and ferry lines; a square "
             "marks where Mr. X is or may be; a ring marks a detective' "
             f"src='data:image/png;base64,{base64.b64encode(legend_png()).decode()}'></p>"]
    for e in entries:
        png = base64.b64encode(entry_png(board, e)).decode()
        notes = "".join(f"<br>{esc(n)}" for n in e.notes)
        parts.append(f"<section><h2>{esc(e.heading)}</h2><p><b>{esc(e.question)}</b></p>"
                     f"<img alt='{esc(e.heading)}: the board around the puzzle' src='data:image/png;base64,{png}'>"
                     f"<p><small>{notes[4:]}</small></p></section>")
    parts.append("<h1>Solutions</h1>")
    for e in entries:
        parts.append(f"<h3>{esc(e.heading)}</h3><pre>{esc(chr(10).join(e.solution))}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)
