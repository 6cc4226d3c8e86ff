"""``sy-tools advise``."""

from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from ..selfplay.budgets import ADVISE_CANDIDATES, MRX_ADVISE_CANDIDATES, MRX_ADVISE_ITERATIONS
from ..solvers.beam import SMALL_SET, SMALL_SET_WIDTH
from .app import main
from .common import load_game, load_puzzle_board
from .options import (
    AsciiInt,
    format_option,
    puzzle_options,
    round_option,
    seed_option,
    time_limit_option,
)


@main.command("advise", short_help="What each side should do now, and why.")
@click.argument("game", required=False)
@click.option("--side", type=click.Choice(["detectives", "mrx"]), default=None,
              help="The side to advise (default: the side to move; puzzle mode: mrx with --at alone).")
@click.option("--depth", type=click.IntRange(min=1, max=4), default=2, show_default=True,
              help="Detective turns to look ahead.")
@click.option("--candidates", type=click.IntRange(min=1), default=ADVISE_CANDIDATES, show_default=True,
              help=f"Detectives: joint moves weighed at most, {SMALL_SET_WIDTH} times as many when his possible set "
                   f"has at most {SMALL_SET} stations (the self-play policy's budget by default; more take longer).")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True, help="Mr. X: how many moves to show.")
@click.option("--playouts", type=click.IntRange(min=0), default=MRX_ADVISE_ITERATIONS, show_default=True,
              help=f"Mr. X: tree-search playouts among his {MRX_ADVISE_CANDIDATES} best sound moves "
                   "(0: the ranking alone).")
@seed_option("Mr. X: what the tree search draws from (the same seed and playouts, the same advice).")
@time_limit_option(10.0, "the whole command (reading the record included)", whole=True)
@click.option("--at", type=AsciiInt(min=0), default=None,
              help="Mr. X's station, needed for his advice (default: from a full record).")
@round_option("Advise on", "With --side detectives: the detectives' advice as it stood before their moves of round N.")
@puzzle_options(rules=True)
@format_option("text", "json")
def advise_cmd(game: str | None, side: str | None, depth: int, candidates: int, top: int, playouts: int, seed: int,
               time_limit: float, at: int | None,
               round_: int | None,
               around: str | None, dets: str | None, tickets: str | None, mrx_tickets: str | None,
               move_number: int, map_spec: str, rules: Any, fmt: str) -> None:
    """What each side should do now, and why: a move for each detective still to move (chosen
    jointly, looking --depth turns ahead against every ticket Mr. X may show), or Mr. X's best
    moves.  Give a GAME record, or puzzle flags (--around and/or --at, --detectives).

    \b
    Examples:
      sy-tools advise examples/in-progress.json --at 4 --top 3
      sy-tools advise examples/in-progress.json --at 4 --format json
      sy-tools advise --around 83,101 --detectives Red=100,Blue=114,Green=82
      sy-tools advise examples/capture.json --round 13 --side detectives
    """
    from ..formats.output import dumps
    from ..formats.values import puzzle_values
    from ..selfplay.policies import TreeSearch
    from ..solvers.advise import advise_puzzle, advise_record
    from ..solvers.forced_hook import solve_hook

    choose = TreeSearch(playouts, MRX_ADVISE_CANDIDATES, seed) if playouts else None

    puzzle_flags = around is not None or dets is not None
    if game is not None and puzzle_flags:
        raise InputError("give either a GAME record or puzzle flags (--around/--detectives), not both")
    if game is None:
        if not puzzle_flags:
            raise InputError("give a GAME record, or --around STATIONS (or --at) with --detectives")
        if dets is None:
            raise InputError("puzzle mode needs --detectives, e.g. Red=13,Blue=26", where="--detectives")
        if round_ is not None:
            raise InputError("--round needs a GAME record")
        board = load_puzzle_board(map_spec, rules)
        p = puzzle_values(around, dets, tickets, mrx_tickets)
        result = advise_puzzle(board, p.around, at, p.detectives, side, p.tickets, p.mrx_tickets, move_number, depth,
                               top, time_limit, solve_hook(depth), rules, choose, candidates)
    else:
        # (--round N --side detectives: before their moves of round N, so advise_record cuts the record)
        result = advise_record(load_game(game, None), side, at, depth, top, time_limit, solve_hook(depth), choose,
                               candidates, round_)
    click.echo(dumps(result.to_dict()) if fmt == "json" else result.describe())
