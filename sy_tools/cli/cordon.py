"""``sy-tools cordon``."""

from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from .app import main
from .common import load_game, load_puzzle_board
from .options import (
    TICKET_CHOICES,
    all_option,
    format_option,
    moves_option,
    puzzle_options,
    round_option,
    time_limit_option,
)


@main.command("cordon", short_help="The smallest cordon that traps Mr. X, and the moves to it.")
@click.argument("game", required=False)
@moves_option()
@click.option("--after", type=click.Choice(TICKET_CHOICES), default=None,
              help="The ticket Mr. X shows next, when he is to move (default: any ticket he holds).")
@round_option("Plan from")
@time_limit_option(10.0, "the whole command: reading the record, model building and CP-SAT solves", whole=True)
@click.option("--workers", type=click.IntRange(min=1, max=64), default=None,
              help="CP-SAT worker threads (default: CP-SAT's own choice).")
@puzzle_options(rules=True)
@all_option("the possible set, the whole cordon and the open stations")
@format_option("text", "json")
def cordon_cmd(game: str | None, moves: int, after: str | None, round_: int | None, time_limit: float,
               workers: int | None, around: str | None, dets: str | None, tickets: str | None,
               mrx_tickets: str | None, move_number: int, map_spec: str, rules: Any, show_all: bool, fmt: str) -> None:
    """The smallest detective cordon that traps Mr. X, and the moves that reach it (CP-SAT).

    Give a GAME record, or --around STATIONS for a puzzle.  Exit 0 with an answer (even when
    no plan seals everything), 1 when the record is illegal or over, 2 for bad input.

    \b
    Examples:
      sy-tools cordon examples/in-progress.json --time-limit 5
      sy-tools cordon --around 83 --detectives Red=100,Blue=114,Green=82 --moves 2
    """
    from ..engine.tickets import Ticket
    from ..formats.output import dumps
    from ..formats.values import puzzle_values
    from ..solvers.cordon import cordon as run_cordon
    from ..solvers.cordon import cordon_puzzle

    if (game is None) == (around is None):
        raise InputError("give either a GAME record or --around STATIONS (not both)")
    if game is not None:
        rec = load_game(game, round_)
        result = run_cordon(rec, moves, Ticket(after) if after else None, time_limit, workers)
        if not result.target:  # the replay took all the time (the library's answer: unknown, nothing to show)
            from ..engine.budget import ran_out

            raise ran_out()
    else:
        if after:
            raise InputError("--after needs a GAME record")
        if round_ is not None:
            raise InputError("--round needs a GAME record")
        board = load_puzzle_board(map_spec, rules)
        p = puzzle_values(around, dets, tickets, mrx_tickets)
        result = cordon_puzzle(board, p.around or [], p.detectives, p.tickets, p.mrx_tickets, moves, time_limit, workers,
                        rules=rules, move_number=move_number)
    click.echo(dumps(result.to_dict()) if fmt == "json" else result.to_text(show_all))
