"""``sy-tools puzzle``: find, check, solve, try, rate and print puzzles (docs/puzzles.md)."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from ..errors import InputError
from .app import command_started, main
from .options import SECONDS, format_option, map_option, rules_option, seed_option


@main.group("puzzle", short_help="Puzzles: find, check, solve, try, rate and print them.")
def puzzle_group() -> None:
    """Scotland Yard puzzles: positions where the detectives force a capture in N turns, or
    where Mr. X survives N turns, with one solution only; found in games or generated, proved by
    the solver, rated and printed as a book.

    \b
    Examples:
      sy-tools puzzle find -o puzzles.json --count 1 --seed 1 --turns 2
      sy-tools puzzle check examples/puzzles/puzzles.json
      sy-tools puzzle solve examples/puzzles/puzzles.json --id pbac511fd84
    """


def _pairings(text: str) -> list[tuple[str, str]]:
    out = []
    for part in text.split(","):
        x, sep, d = part.strip().partition(":")
        if not sep or not x or not d:
            raise InputError(f"expected MRX:DETECTIVES pairs such as random:greedy, got {part.strip()!r}",
                             where="--policies")
        out.append((x, d))
    return out


def _turns(text: str) -> tuple[int, int]:
    lo, sep, hi = text.partition("-")
    try:
        a = int(lo)
        b = int(hi) if sep else a
    except ValueError:
        raise InputError(f"expected N or MIN-MAX such as 2-4, got {text!r}", where="--turns") from None
    if not 1 <= a <= b <= 4:
        raise InputError(f"expected turns from 1 to 4, got {text!r}", where="--turns")
    return a, b


@puzzle_group.command("find", short_help="Find puzzles in self-play games or records, proved unique.")
@click.argument("records", nargs=-1)
@click.option("-o", "--out", "out", required=True,
              help="The puzzle file: new puzzles are added to it (written after each one), and the ones it holds "
                   "are not found again.")
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True, help="New puzzles to find.")
@seed_option("The self-play games' seed (game i draws from (seed, i) alone).")
@click.option("--turns", "turns", default="1-4", show_default=True,
              help="Turns the capture may take: N or MIN-MAX (1 to 4).")
@click.option("--time-limit", type=SECONDS, default=120.0, show_default=True,
              help="Seconds for the whole command; then it stops with the puzzles found so far.")
@click.option("--policies", default="random:greedy,greedy:greedy", show_default=True,
              help="Self-play pairings MRX:DETECTIVES the games cycle through (built-in policy names).")
@click.option("--selfplay/--no-selfplay", default=None,
              help="Also mine self-play games (default: only when no RECORDS are given; survive: generated "
                   "positions instead unless --selfplay).")
@click.option("--generated", is_flag=True, default=False,
              help="Capture: mine generated positions (his possible set just shown, detectives with few tickets "
                   "around it) instead of self-play games.")
@click.option("--kind", type=click.Choice(["capture", "survive", "both"]), default="capture", show_default=True,
              help="capture: the detectives force a capture; survive: Mr. X to move survives N turns (N up to 3); "
                   "both: alternate.")
@map_option("The self-play games' map")
@rules_option("The self-play games' rules")
@format_option("text", "json")
def find_cmd(records: tuple[str, ...], out: str, count: int, seed: int, turns: str, time_limit: float, policies: str,
             selfplay: bool | None, generated: bool, kind: str, map_spec: str, rules: Any, fmt: str) -> None:
    """Find puzzles: positions where the detectives force a capture within N turns, from what
    they know, with exactly one winning joint move on every turn of the main line.  Candidates
    are the detectives' turns of the RECORDS given and of seeded self-play games.  With --kind
    survive: positions where Mr. X, to move, survives N turns with exactly one move, whatever
    the detectives do (his turns in the RECORDS, or generated positions).  Progress goes to
    stderr; the summary to stdout.  Ctrl-C keeps what was found (exit 130).

    \b
    Examples:
      sy-tools puzzle find -o puzzles.json --count 1 --seed 1 --turns 2
      sy-tools puzzle find examples/capture.json -o puzzles.json --turns 2-3
      sy-tools puzzle find -o puzzles.json --kind survive --count 1 --seed 1 --turns 2
    """
    import os

    from ..formats.output import dumps
    from ..formats.record_io import load_record
    from ..puzzles.find import find_puzzles
    from ..puzzles.model import read_puzzles, write_puzzles

    lo, hi = _turns(turns)
    pairings = _pairings(policies)
    for r in records:  # the puzzle file is rewritten as puzzles are found: never over a record given
        if os.path.exists(out) and os.path.exists(r) and os.path.samefile(r, out):
            raise InputError(f"{out!r} is also a record given to mine; write the puzzles to a file of their own",
                             where="--out")
    recs = [_record(r, load_record) for r in records]
    known = read_puzzles(out) if os.path.exists(out) else []
    everything = list(known)
    started = command_started() or time.monotonic()
    left = max(0.01, time_limit - (time.monotonic() - started))
    tty = sys.stderr.isatty()
    last = [0.0]
    shown = [""]

    def progress(stats: Any, puzzle: Any) -> None:
        if puzzle is not None:
            everything.append(puzzle)
            write_puzzles(out, everything)
        now = time.monotonic()
        if puzzle is not None or now - last[0] > (0.5 if tty else 10):
            last[0] = now
            shown[0] = stats.line()
            click.echo(("\r" if tty else "") + shown[0] + ("" if tty else "\n"), err=True, nl=False)

    result = find_puzzles(None, count, seed, lo, hi, left, known, records=recs, progress=progress,
                          map_spec=map_spec, rules=rules, pairings=pairings, selfplay=selfplay, kind=kind,
                          generated=generated or None)
    if tty:
        click.echo("", err=True)
    elif result.stats.line() != shown[0]:  # a log ends with where the search stopped, as the summary does
        click.echo(result.stats.line(), err=True)
    if not os.path.exists(out):
        write_puzzles(out, everything)
    if fmt == "json":
        click.echo(dumps(result.to_dict()))
        return
    for p in result.puzzles:
        click.echo(f"{p.id}: {p.kind} in {p.turns}; {p.question()}" + (f" [{', '.join(p.themes)}]" if p.themes else ""))
    s = result.stats
    click.echo(f"{s.kept} new puzzle{'s' if s.kept != 1 else ''} ({len(everything)} in {out}); {s.tried} candidates "
               f"tried, {s.forced} forced, {s.unique} unique, {s.duplicates} repeats; "
               f"{s.kept_share:.1%} kept")


def _record(path: str, load: Any) -> Any:
    """A game record to mine; a puzzle file given in its place is named as one (not as a
    record with unknown keys)."""
    try:
        return load(path)
    except InputError:
        import json

        from ..puzzles.model import FILE_FORMAT

        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            doc = None
        if isinstance(doc, dict) and doc.get("format") == FILE_FORMAT:
            raise InputError("a puzzle file, not a game record (to add puzzles to it, give it with -o)",
                             file=path) from None
        raise


def _load(path: str, ids: tuple[str, ...]) -> list[Any]:
    from ..puzzles.model import read_puzzles

    puzzles = read_puzzles(path)
    if ids:
        want = set(ids)
        missing = want - {p.id for p in puzzles}
        if missing:
            raise InputError(f"no puzzle {sorted(missing)[0]!r} in the file", file=path, where="--id")
        puzzles = [p for p in puzzles if p.id in want]
    if not puzzles:
        raise InputError("no puzzles in the file", file=path)
    return puzzles


_ID = click.option("--id", "ids", multiple=True, help="Only this puzzle (repeat for more; default: every one).")


@puzzle_group.command("check", short_help="Prove each puzzle again: its win, its one solution.")
@click.argument("file")
@_ID
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="Seconds per puzzle.")
@format_option("text", "json")
def check_cmd(file: str, ids: tuple[str, ...], time_limit: float, fmt: str) -> None:
    """Prove every puzzle of FILE again: the detectives force a capture within its N turns and
    not fewer, each turn of the line has exactly one winning joint move, and the solution the
    file gives is that line (a survive puzzle: one move of Mr. X's alone survives N turns, with
    N - 1 two do, and the same after each strongest reply).  Exit 0: all proved; 1: one is
    wrong; 3: a limit stopped a proof.

    \b
    Examples:
      sy-tools puzzle check examples/puzzles/puzzles.json
    """
    from ..formats.output import dumps
    from ..puzzles.check import check_puzzle

    results = [check_puzzle(p, time_limit) for p in _load(file, ids)]
    if fmt == "json":
        click.echo(dumps([r.to_dict() for r in results]))
    else:
        for r in results:
            click.echo(r.line())
        ok = sum(r.ok for r in results)
        click.echo(f"{ok} of {len(results)} puzzle{'s' if len(results) != 1 else ''} proved")
    sys.exit(0 if all(r.ok for r in results) else 1 if any(r.status == "wrong" for r in results) else 3)


@puzzle_group.command("solve", short_help="Show a puzzle's solution step by step.")
@click.argument("file")
@_ID
@format_option("text", "json")
def solve_cmd(file: str, ids: tuple[str, ...], fmt: str) -> None:
    """Show each puzzle of FILE and its solution, turn by turn: the detectives' one winning
    joint move, then Mr. X's best reply (as the file gives them; 'puzzle check' proves them).

    \b
    Examples:
      sy-tools puzzle solve examples/puzzles/puzzles.json --id pbac511fd84
    """
    from ..formats.output import dumps
    from ..puzzles.model import position_lines, solution_lines

    puzzles = _load(file, ids)
    if fmt == "json":
        click.echo(dumps([p.to_dict() for p in puzzles]))
        return
    blocks = ["\n".join(position_lines(p) + solution_lines(p)) for p in puzzles]
    click.echo("\n\n".join(blocks))


@puzzle_group.command("try", short_help="Play a puzzle at the terminal; the solver answers for the other side.")
@click.argument("file")
@click.option("--id", "pid", default=None, help="The puzzle to play (default: the file's first).")
def try_cmd(file: str, pid: str | None) -> None:
    """Play a puzzle of FILE as the detectives: type each detective's move (a station, e.g.
    41, or a ticket and a station, T 41); the solver checks that a forced capture still follows
    and answers as Mr. X with his best reply.  A survive puzzle: play Mr. X (46, K 46, or two
    legs for a double move: T 46 B 58); the solver checks that he still survives and answers as
    the detectives with their strongest reply.  '?' lists the legal moves, 'quit' gives up.
    Exit 0: solved; 1: a wrong move, or given up.

    \b
    Examples:
      sy-tools puzzle try examples/puzzles/puzzles.json --id pbac511fd84
    """
    from ..puzzles.attempt import GaveUp, attempt, attempt_survival, terminal_chooser, terminal_mrx_chooser
    from ..puzzles.model import position_lines

    puzzle = _load(file, (pid,) if pid else ())[0]
    for line in position_lines(puzzle):
        click.echo(line)

    typed = sys.stdin.isatty()

    def read(prompt: str) -> str | None:
        click.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not typed or not line:  # a pipe: show the move, as a terminal would have; Ctrl-D: end the line
            click.echo(line.rstrip("\n"))
        return line if line else None

    try:
        if puzzle.survival:
            result = attempt_survival(puzzle, terminal_mrx_chooser(read, click.echo), click.echo)
        else:
            result = attempt(puzzle, terminal_chooser(read, click.echo), click.echo)
    except GaveUp:
        click.echo("given up; 'sy-tools puzzle solve' shows the solution")
        sys.exit(1)
    sys.exit(0 if result.solved else 1)


@puzzle_group.command("rate", short_help="Rate puzzles by how graded solvers fare on them (Glicko-2).")
@click.argument("file")
@_ID
@click.option("-o", "--out", "out", default=None,
              help="Write the rated puzzles (all of FILE's, with the new ratings) to this new file; FILE itself "
                   "is never written (default: only print the ratings).")
@click.option("--tries", type=click.IntRange(min=1, max=20), default=2, show_default=True,
              help="Attempts by each solver at each puzzle.")
@seed_option("The attempts' seed (each attempt draws from (seed, puzzle, solver, try) alone).")
@format_option("text", "json")
def rate_cmd(file: str, ids: tuple[str, ...], out: str | None, tries: int, seed: int, fmt: str) -> None:
    """Rate the puzzles of FILE (every one, or those --id names; the file keeps the others as
    they are): each graded solver (random, greedy, advise at growing budgets; Mr. X's
    policies for survive puzzles), rated from games between them, attempts it; each attempt is
    a rated game between the solver and the puzzle (Glicko-2), the puzzle winning when the
    solver goes wrong.  The same seed gives the same ratings.

    \b
    Examples:
      sy-tools puzzle rate examples/puzzles/puzzles.json --id pbac511fd84 -o rated.json
    """
    from ..formats.files import refuse_overwrite
    from ..formats.output import dumps, table
    from ..puzzles.model import read_puzzles, write_puzzles
    from ..puzzles.rate import rate_puzzles

    if out is not None:
        refuse_overwrite([out], [file])
    everything = read_puzzles(file)
    puzzles = _load(file, ids)

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            click.echo(f"\rrated {done} of {total}", err=True, nl=done == total)

    report = rate_puzzles(puzzles, tries=tries, seed=seed, progress=progress)
    rated = {p.id: p for p in report.puzzles}
    if out is not None:
        write_puzzles(out, [rated.get(p.id, p) for p in everything])
    else:
        click.echo("(the ratings are not saved: -o FILE writes the rated puzzles to a new file)", err=True)
    if fmt == "json":
        click.echo(dumps(report.to_dict()))
        return
    from ..puzzles.attempt import MRX_SOLVERS, SOLVERS

    blocks = []
    for survival, ladder in ((False, SOLVERS), (True, MRX_SOLVERS)):
        rows = []
        for p in report.puzzles:
            if p.survival != survival:
                continue
            by = report.solved_by(p.id)
            assert p.rating is not None
            rows.append([p.id, p.turns, round(p.rating.rating), round(p.rating.rd)] +
                        [f"{by.get(s.name, 0):.0%}" for s in ladder])
        if rows:
            blocks.append(table(["puzzle", "turns", "rating", "rd"] + [s.name for s in ladder], rows,
                                [False, True, True, True] + [True] * len(ladder)))
    click.echo("\n\n".join(blocks))


@puzzle_group.command("book", short_help="A printable book of puzzles: PDF or HTML.")
@click.argument("file")
@_ID
@click.option("-o", "--out", "out", required=True, help="The book: FILE.pdf or FILE.html.")
@click.option("--title", default="Scotland Yard puzzles", show_default=True, help="The book's title.")
@click.option("--pages-png", default=None,
              help="Also write each PDF page as STEM-N.png (to look at the pages; default: none).")
def book_cmd(file: str, ids: tuple[str, ...], out: str, title: str, pages_png: str | None) -> None:
    """A printable book of the puzzles of FILE, easiest first (by rating): two a page, each a
    board diagram zoomed to the stations that matter with its question in one line, then the
    solutions at the back.

    \b
    Examples:
      sy-tools puzzle book examples/puzzles/puzzles.json --id pbac511fd84 -o book.pdf
      sy-tools puzzle book examples/puzzles/puzzles.json --id pbac511fd84 -o book.html
    """
    from ..formats.files import atomic_write_text
    from ..plot.puzzle_book import BookEntry, book_html, puzzle_pages, write_pdf, write_pngs
    from ..puzzles.book import book_items
    from .common import say_written

    suffix = out.lower().rsplit(".", 1)[-1] if "." in out else ""
    if suffix not in ("pdf", "html"):
        raise InputError(f"expected a .pdf or .html file, got {out!r}", where="--out")
    if pages_png and suffix != "pdf":
        raise InputError("the pages are a PDF book's: give -o FILE.pdf", where="--pages-png")
    puzzles = _load(file, ids)
    maps = {p.map for p in puzzles}
    if len(maps) > 1:
        raise InputError(f"the puzzles are on {len(maps)} maps; a book takes one", file=file)
    board = puzzles[0].get_board()
    entries = [BookEntry(**item) for item in book_items(puzzles)]
    if suffix == "html":
        atomic_write_text(out, book_html(board, entries, title))
    else:
        pages = puzzle_pages(board, entries, title)
        write_pdf(pages, out)
        if pages_png:
            for path in write_pngs(pages, pages_png):
                say_written(path)
    say_written(out)
