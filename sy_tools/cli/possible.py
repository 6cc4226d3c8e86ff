"""``sy-tools possible``."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..analysis.tracker import WEIGHTS as _WEIGHTS
from .app import main
from .options import (
    format_option,
    round_option,
)


@main.command(short_help="Where Mr. X can be now (and was), with probabilities.")
@click.argument("games", nargs=-1, required=True)
@format_option("text", "json", "csv", "jsonl")
@click.option("--history", is_flag=True, help="Also where Mr. X could have been after every move.")
@click.option("--weights", type=click.Choice(list(_WEIGHTS)), default="paths", show_default=True,
              help="paths: every consistent route equally likely; uniform: every station; "
                   "moves: Mr. X picks uniformly among his ticket's destinations.")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Show only the N most likely stations (default: all).")
@round_option("Analyse")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes for a large batch; the output keeps the order of GAMES (default: every core "
                   "once there are 50 records per core, else 1).")
def possible(games: tuple[str, ...], fmt: str, history: bool, weights: str, top: int | None,
             round_: int | None, jobs: int | None) -> None:
    """Where Mr. X can be now, with probabilities, from game records (detectives' view).

    Exit 1 if a record contradicts itself (the move that emptied the set is named), 2 if it
    can't be read.  With several records, each is reported and the rest go on.

    \b
    Examples:
      sy-tools possible examples/in-progress.json --top 5
      sy-tools possible examples/in-progress.json --round 3 --history
      sy-tools possible examples/*.json --format jsonl --jobs 2
    """
    from ..analysis.batch import AUTO_JOBS, Failure, possible_many

    failed = 0
    out = sys.stdout
    listing = fmt == "json" and len(games) > 1
    if listing:
        click.echo("[")
    first = True
    render = _jsonl_of if fmt == "jsonl" else None
    for game, result in possible_many(games, weights, history, round_, jobs or AUTO_JOBS, render):
        if isinstance(result, Failure):
            failed = max(failed, result.exit_code) if len(games) == 1 else 1
            if fmt == "jsonl":
                out.write(dumps_line(result.to_dict()) + "\n")
            elif listing:
                click.echo(("" if first else ",\n") + _indent(dumps_json(result.to_dict())), nl=False)
                click.echo(f"error: {result.message}", err=True)
            else:
                click.echo(f"error: {result.message}", err=True)
        elif fmt == "jsonl":
            out.write(result)  # rendered by _jsonl_of (click.echo per line costs a batch 10%)
        elif fmt == "json":
            text = dumps_json(result.to_dict())
            click.echo(("" if first else ",\n") + _indent(text) if listing else text, nl=not listing)
        elif fmt == "csv":
            click.echo(_possible_csv(result, top), nl=False)
        else:
            if len(games) > 1:
                click.echo(f"== {game}")
            click.echo(_possible_table(result, top))
        if fmt in ("csv", "text") and not isinstance(result, (Failure, str)) and result.warnings:
            # (the JSON forms carry them as a field)
            click.echo("\n".join(f"warning: {game}: {w}" for w in result.warnings), err=True)
        first = False
    if listing:
        click.echo("\n]")
    out.flush()
    sys.exit(failed)


def _jsonl_of(result: Any) -> str:
    return dumps_line(result.to_dict()) + "\n"


def dumps_line(obj: Any) -> str:
    """One compact JSON line (msgspec's C encoder when installed: a batch prints thousands)."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover
        import json

        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return msgspec.json.encode(obj).decode()


def dumps_json(obj: Any) -> str:
    """Indented JSON, as :func:`sy_tools.output.dumps` writes it, but fast for long histories."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover
        from ..formats.output import dumps

        return dumps(obj)
    return msgspec.json.format(msgspec.json.encode(obj), indent=2).decode()


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.split("\n"))


def _possible_csv(result: Any, top: int | None) -> str:
    rows = result.ranked()[:top]
    lines = ["station,probability" + (",routes" if result.route_counts else "")]
    for s, p in rows:
        extra = f",{_exact(result.route_counts[s])}" if result.route_counts else ""
        lines.append(f"{s},{p:.6f}{extra}")
    return "\n".join(lines) + "\n"


def _possible_table(result: Any, top: int | None) -> str:
    from ..formats.output import table

    if result.capture is not None:
        c = result.capture
        return f"Mr. X was caught at {c.station} by {c.by} in round {c.round}: the game is over."
    from ..engine.moves import when_text

    head = when_text(result.round, result.move)
    if result.next_reveal is not None:
        k = result.moves_to_reveal
        head += f"; next reveal at move {result.next_reveal} ({k} move{'s' if k != 1 else ''} away)"
    else:
        head += "; no reveal left"
    if result.last_reveal:
        head += f"; last seen at {result.last_reveal[1]} (move {result.last_reveal[0]})"
    n = len(result.stations)
    dets = ", ".join(f"{name} {s}" for name, s in result.detectives.items())
    lines = [head, f"{n} possible station{'s' if n != 1 else ''} (weights: {result.weights}); detectives: {dets}", ""]
    ranked = result.ranked()
    shown = ranked[:top] if top else ranked
    headers = ["station", "probability"]
    rows: list[list[Any]] = [[s, f"{p:.4f}"] for s, p in shown]
    if result.route_counts is not None:
        headers.append("routes")
        for r, (s, _) in zip(rows, shown):
            r.append(_big(result.route_counts[s]))
    lines.append(table(headers, rows, right=[True] * len(headers)))
    if top and len(ranked) > top:
        lines.append(f"... and {len(ranked) - top} more")
    if result.history is not None:
        rows = []
        for i, h in enumerate(result.history, 1):
            probs = result.history_probabilities[i - 1] if result.history_probabilities else {}
            best = max(probs.items(), key=lambda kv: (kv[1], -kv[0])) if probs else None
            rows.append([i, len(h), "" if best is None else f"{best[0]} ({best[1]:.2f})", " ".join(map(str, h))])
        lines += ["", "history (where he could have been after each move, given the whole record):"]
        lines.append(table(["move", "count", "most_likely", "stations"], rows, right=[True, True, False, False]))
    return "\n".join(lines)


def _big(n: int) -> str:
    """A route count for a table cell: exact up to 12 digits, else rounded to d.ddde+N (of any
    size: a float would overflow past 1e308)."""
    if n < 10**12:
        return str(n)
    from decimal import Decimal

    return format(Decimal(n), ".3e")


def _exact(n: int) -> str:
    from ..formats.jsonutil import int_text

    return int_text(n)
