"""``sy-tools solve``."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..engine.budget import OutOfTime
from ..errors import InputError
from .app import clip_error, main
from .common import load_game, load_puzzle_board
from .options import (
    format_option,
    moves_option,
    puzzle_options,
    round_option,
    time_limit_option,
)


@main.command("solve", short_help="Can the detectives force a win within N turns? (proved)")
@click.argument("game", required=False)
@moves_option(2, 6, "Detective turns to win within.", alias="--turns")
@time_limit_option(30.0, "the whole command (reading the record included)", whole=True)
@round_option("Solve")
@puzzle_options(rules=True)
@format_option("text", "json")
def solve_cmd(game: str | None, moves: int, time_limit: float, round_: int | None, around: str | None, dets: str | None,
              tickets: str | None, mrx_tickets: str | None, move_number: int, map_spec: str, rules: Any,
              fmt: str) -> None:
    """The shortest forced win within k detective turns (--moves), as a strategy tree to follow.

    Give a GAME record, or --around STATIONS with --detectives for a puzzle.  Exit 0: a forced
    win; 1: no forced win within N (proved), or the record is illegal or over; 3: unknown (the
    time limit stopped the search); 2: bad input.  Ctrl-C stops it (exit 130).

    \b
    Examples:
      sy-tools solve examples/in-progress.json --moves 2
      sy-tools solve --around 154 --detectives Red=185,Blue=130,Green=168 --move-number 3
    """
    from ..formats.output import dumps
    from ..formats.values import puzzle_values
    from ..solvers.forced import solve_puzzle, solve_record
    from ..solvers.forced_tree import describe

    if (game is None) == (around is None):
        raise InputError("give either a GAME record or --around STATIONS (not both)")
    if game is not None:
        try:
            result = solve_record(load_game(game, round_), moves, time_limit)
        except OutOfTime as e:  # reading the record took the whole limit: unknown, as a search stopped by it
            click.echo(clip_error(f"error: {e}"), err=True)
            sys.exit(3)
    else:
        if round_ is not None:
            raise InputError("--round needs a GAME record")
        if not dets:
            raise InputError("puzzle mode needs --detectives, e.g. Red=13,Blue=26")
        board = load_puzzle_board(map_spec, rules)
        p = puzzle_values(around, dets, tickets, mrx_tickets)
        result = solve_puzzle(board, p.around or [], p.detectives, p.tickets, p.mrx_tickets, move_number, rules, moves,
                        time_limit)
    click.echo(dumps(result.to_dict()) if fmt == "json" else describe(result))
    sys.exit(0 if result.forced else 1 if result.forced is False else 3)
