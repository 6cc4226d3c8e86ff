"""``sy-tools rules``, ``record``, ``check`` and ``moves``."""

from __future__ import annotations

import sys

import click

from ..errors import InputError
from ..formats.record import RECORD_VIEWS
from .app import clip_error, main
from .common import say_written
from .options import (
    AsciiInt,
    all_option,
    format_option,
    round_option,
)


@main.command("rules")
@click.argument("name", default="classic", metavar="[PRESET]")
@format_option("text", "json")
def rules_cmd(name: str, fmt: str) -> None:
    """Print a rules preset (classic, 2014).

    \b
    Examples:
      sy-tools rules
      sy-tools rules 2014 --format json > my-rules.json   # edit, then --rules my-rules.json
    """
    from ..engine.rules import preset
    from ..formats.output import dumps
    from ..formats.report_text import rules_text

    d = preset(name).to_dict()
    click.echo(dumps(d) if fmt == "json" else rules_text(d))


@main.group("record")
def record_group() -> None:
    """Game records: convert between game.json and the text notation.

    \b
    Example:
      sy-tools record convert examples/table.txt table.json
    """


@record_group.command("convert", short_help="Convert between game.json and the text notation, losslessly.")
@click.argument("src", metavar="IN")
@click.argument("dst", metavar="OUT")
@click.option("--view", type=click.Choice(RECORD_VIEWS), default="full", show_default=True,
              help="'detectives': leave out what only Mr. X knows (his true start, his hidden stations).")
def record_convert(src: str, dst: str, view: str) -> None:
    """Convert a record: OUT ending in .json gets game.json, anything else the text notation.

    Nothing is lost either way; what the notation can't say (e.g. detectives out of turn
    order within a round) is refused with exit 2, naming it.  With --view detectives, OUT is
    the record as the detectives saw it (e.g. to publish a game Mr. X logged in full).

    \b
    Examples:
      sy-tools record convert examples/table.txt table.json
      sy-tools record convert examples/capture.json capture.txt
      sy-tools record convert examples/capture.json seen.json --view detectives
    """
    from pathlib import Path

    from ..formats.files import atomic_write_text, output_path, refuse_overwrite
    from ..formats.record_io import load_record, record_input_files, record_text

    dst = output_path(dst)
    refuse_overwrite([Path(dst)], [Path(src)])
    rec = load_record(src)
    refuse_overwrite([Path(dst)], record_input_files(src, rec))
    if view == "detectives":
        rec = rec.detectives_view()
    atomic_write_text(dst, record_text(rec, dst))
    say_written(dst)


@main.command("check")
@click.argument("game")
@format_option("text", "json")
def check_cmd(game: str, fmt: str) -> None:
    """Replay a game record under the rules: is it legal, and who won?

    Exit 0: legal; 1: illegal or self-contradictory; 2: unreadable.

    \b
    Examples:
      sy-tools check examples/capture.json
      sy-tools check examples/broken/wrong-ticket.json --format json
    """
    from ..analysis.referee import check, unreadable_dict
    from ..findings import Finding
    from ..formats.output import dumps
    from ..formats.record import RecordErrors
    from ..formats.record_io import load_record
    from ..formats.report_text import tickets_left_text

    try:
        rec = load_record(game)
    except RecordErrors as e:
        if fmt == "json":
            click.echo(dumps(unreadable_dict(game, e.findings)))
        else:
            for line in e.lines():
                click.echo(clip_error(f"error: {line}"), err=True)
        sys.exit(2)
    except InputError as e:  # the file itself can't be read: still one JSON document
        if fmt != "json":
            raise
        click.echo(dumps(unreadable_dict(game, [Finding.from_error(e, "unreadable")])))
        sys.exit(2)
    result = check(rec)
    if fmt == "json":
        click.echo(dumps({**result.to_dict(), "readable": True}))
    else:
        for p in result.problems:
            click.echo(p.line(game))
        click.echo(tickets_left_text(result.tickets))
        verdict = "legal" if result.legal else f"ILLEGAL ({len(result.errors)} error(s))"
        click.echo(f"{game}: {verdict}; {result.status.describe()}")
    sys.exit(result.exit_code)


@main.command("moves", short_help="The legal moves of the piece to move.")
@click.argument("game")
@click.option("--at", type=AsciiInt(min=0), default=None,
              help="Mr. X's station, when he is to move (default: from a full record).")
@round_option("Moves in")
@all_option("every double move too")
@format_option("text", "json")
def moves_cmd(game: str, at: int | None, round_: int | None, show_all: bool, fmt: str) -> None:
    """The legal moves of the piece to move at the end of GAME (a detective, or Mr. X: his
    station from a full record or --at).

    \b
    Examples:
      sy-tools moves examples/in-progress.json --at 4
      sy-tools moves examples/in-progress.json --at 4 --format json
    """
    from ..analysis.legal import legal_moves
    from ..formats.output import dumps
    from ..formats.record_io import load_record

    result = legal_moves(load_record(game).at_round(round_), at)
    click.echo(dumps(result.to_dict()) if fmt == "json" else result.to_text(show_all))
