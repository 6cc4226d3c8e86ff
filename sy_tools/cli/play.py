"""``sy-tools play``."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..play.settings import COMPUTER_SIDES, DEFAULT_THINK
from .app import main
from .options import SECONDS, map_option, rules_option, seed_option

#: The options that set up a new game (refused when resuming).
_SETUP = {"dets": "--detectives", "count": "--detective-count", "seed": "--seed", "rules": "--rules",
          "map_spec": "--map", "mrx_start": "--mrx-start"}


@main.command("play", short_help="Play a game at the table, move by move, or against the computer.")
@click.argument("game")
@click.option("--new", "new", is_flag=True, help="Start a new game in GAME (which must not exist); else resume it.")
@click.option("--detectives", "dets", default=None,
              help="New game: the detectives and their start stations in turn order, e.g. Red=13,Blue=26.")
@click.option("--detective-count", "count", type=click.IntRange(1, 5), default=None,
              help="New game: deal start cards to this many detectives (default 5), Mr. X's card first.")
@seed_option("New game: the seed the start cards are dealt from (default: a random one, printed); "
             "also the computer's tie-breaks.", default=None)
@rules_option("New game: the rules")
@map_option("New game: the map")
@click.option("--mrx-log", "log", default=None, metavar="FILE",
              help="Mr. X's secret log: the whole game with his stations, apart from the public GAME "
                   "(default with --computer: beside GAME, e.g. game.mrx.txt).")
@click.option("--mrx-start", type=click.IntRange(min=0), default=None,
              help="New game: Mr. X's start station, kept in his log (default: dealt).")
@click.option("--computer", type=click.Choice(COMPUTER_SIDES), default=None,
              help="The side the computer plays (default: none, people play both).")
@click.option("--think", type=SECONDS, default=DEFAULT_THINK, show_default=True,
              help="Seconds the computer may think per move (and advise, solve, cordon take).")
@click.option("--picture", default=None, metavar="FILE",
              help="Redraw where Mr. X may be into FILE (.png, .svg, .pdf) after every round (default: only when "
                   "the picture command asks).")
def play_cmd(game: str, new: bool, dets: str | None, count: int | None, seed: int | None, rules: Any,
             map_spec: str, log: str | None, mrx_start: int | None, computer: str | None, think: float,
             picture: str | None) -> None:
    """Play a game in the record GAME, one typed move a line: start it with --new, or resume it
    where it stands.  Each move is judged as 'check' would judge the record and the record is
    saved after every move; 'help' lists the commands (undo, redo, tickets, moves, possible,
    advise, solve, cordon, picture, history, quit).  Without a terminal the lines are read from
    standard input, so a game can be scripted.

    Exit 0 when the game ends, on quit or end of input; 2 for bad options or files; 1 for an
    illegal record to resume; 130 on Ctrl-C.

    \b
    Examples:
      sy-tools play game.txt --new --detectives Red=13,Blue=26 --seed 7
      sy-tools play game.txt --think 1      # resume it
      sy-tools play vs-computer.txt --new --computer mrx --detective-count 4
    """
    from ..formats.values import named_stations
    from ..play import Console, new_game, resume_game
    from ..play.console import run_lines
    from .common import load_puzzle_board

    ctx = click.get_current_context()
    given = [flag for param, flag in _SETUP.items()
             if ctx.get_parameter_source(param) not in (None, click.core.ParameterSource.DEFAULT)]
    notes: list[str] = []
    if new:
        if dets is not None and count is not None:
            raise click.UsageError("give --detectives or --detective-count, not both")
        board = load_puzzle_board(map_spec, rules)
        pairs = named_stations(dets) if dets is not None else None
        session, notes = new_game(game, board, map_spec, rules, detectives=pairs, count=count, seed=seed,
                                  mrx_start=mrx_start, log=log, computer=computer, think=think)
    else:
        from ..play.session import refuse_resume_options

        refuse_resume_options(given)
        session = resume_game(game, log=log, computer=computer, think=think, seed=0)
    console = Console(session, click.echo, lambda line: click.echo(line, err=True), picture)
    console.start(notes)
    if console.finished:
        sys.exit(0)
    if sys.stdin.isatty() and sys.stdout.isatty():
        from ..play.terminal import run_terminal

        sys.exit(run_terminal(console))
    sys.exit(run_lines(console, _lines()))


def _lines() -> Any:
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        yield line
