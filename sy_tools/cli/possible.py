"""``sy-tools possible``."""

from __future__ import annotations

import sys

import click

from ..analysis.tracker import WEIGHTS
from .app import main
from .options import (
    format_option,
    ignore_illegal_option,
    round_option,
)

#: ``--format jsonl`` writes its lines this many at a time
JSONL_LINES = 64


@main.command("possible", short_help="Where Mr. X can be now (and was), with probabilities.")
@click.argument("games", nargs=-1, required=True)
@format_option("text", "json", "csv", "jsonl")
@click.option("--history", is_flag=True, help="Also where Mr. X could have been after every move.")
@click.option("--weights", type=click.Choice(list(WEIGHTS)), default="paths", show_default=True,
              help="paths: every consistent route equally likely; uniform: every station; "
                   "moves: Mr. X picks uniformly among his ticket's destinations.")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Show only the N most likely stations (default: all).")
@round_option("Analyse")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes for a large batch (this one and N-1 it forks, where the system can fork); the output "
                   "keeps the order of GAMES (default: every core once there are 50 records per core, else 1).")
@ignore_illegal_option
def possible_cmd(games: tuple[str, ...], fmt: str, history: bool, weights: str, top: int | None,
             round_: int | None, jobs: int | None, ignore_illegal: bool) -> None:
    """Where Mr. X can be now, with probabilities, from game records (detectives' view).

    Exit 1 if a record is illegal (check's first finding and its place; --ignore-illegal analyses
    it anyway) or contradicts itself, 2 if it can't be read.  With several records, each is
    reported and the rest go on.

    \b
    Examples:
      sy-tools possible examples/in-progress.json --top 5
      sy-tools possible examples/in-progress.json --round 3 --history
      sy-tools possible examples/*.json --format jsonl --jobs 2
    """
    from ..analysis.batch import AUTO_JOBS, Failure, freeze_for_batch, jsonl_line, possible_many
    from ..formats.output import indented, json_line, json_text

    failed = 0
    out = sys.stdout
    listing = fmt == "json" and len(games) > 1
    if listing:
        click.echo("[")
    first = True
    render = jsonl_line if fmt == "jsonl" else None
    lines: list[str] = []  # jsonl lines not written yet: one write per JSONL_LINES (stdout may be unbuffered)
    if len(games) > 1:
        freeze_for_batch()  # (this process ends with the batch)
    try:
        for game, result in possible_many(games, weights, history, round_, jobs or AUTO_JOBS, render,
                                          ignore_illegal):
            if isinstance(result, Failure):
                failed = max(failed, result.exit_code) if len(games) == 1 else 1
                if fmt == "jsonl":
                    lines.append(json_line(result.to_dict()) + "\n")
                elif listing:
                    click.echo(("" if first else ",\n") + indented(json_text(result.to_dict())), nl=False)
                    click.echo(f"error: {result.message}", err=True)
                else:
                    click.echo(f"error: {result.message}", err=True)
            elif fmt == "jsonl":
                lines.append(result)  # rendered by jsonl_line (click.echo per line costs a batch 10%)
            elif fmt == "json":
                text = json_text(result.to_dict())
                click.echo(("" if first else ",\n") + indented(text) if listing else text, nl=not listing)
            elif fmt == "csv":
                click.echo(result.to_csv(top), nl=False)
            else:
                if len(games) > 1:
                    click.echo(f"== {game}")
                click.echo(result.to_text(top))
            if fmt in ("csv", "text") and not isinstance(result, (Failure, str)) and result.warnings:
                # (the JSON forms carry them as a field)
                click.echo("\n".join(f"warning: {game}: {w}" for w in result.warnings), err=True)
            first = False
            if len(lines) >= JSONL_LINES:
                out.write("".join(lines))
                lines.clear()
    finally:  # (what was analysed is printed, an interrupted batch's too)
        if lines:
            out.write("".join(lines))
    if listing:
        click.echo("\n]")
    out.flush()
    sys.exit(failed)
