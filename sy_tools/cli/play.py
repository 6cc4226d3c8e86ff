"""``sy-tools play``."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..play.settings import COMPUTER_SIDES, DEFAULT_LEVEL, DEFAULT_PACE, DEFAULT_THINK, LEVELS
from .app import main
from .options import SECONDS, SECONDS_OR_ZERO, map_option, rules_option, seed_option

#: The options that set up a new game (refused when resuming).
_SETUP = {"dets": "--detectives", "count": "--detective-count", "seed": "--seed", "rules": "--rules",
          "map_spec": "--map", "mrx_start": "--mrx-start", "secret_seed": "--secret-seed"}

#: The options a game keeps in its record (given on a resume, they must agree with it).
_KEPT = ("computer", "level", "think", "pace")


def _once(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> str | None:
    """An option given at most once: a second one is refused rather than silently winning."""
    if len(value) > 1:
        raise click.BadParameter(f"given {len(value)} times ({', '.join(value)}): give it once", ctx, param)
    return value[0] if value else None


@main.command("play", short_help="Play a game at the table, move by move, or against the computer.")
@click.argument("game")
@click.option("--new", "new", is_flag=True, help="Start a new game in GAME (which must not exist); else resume it.")
@click.option("--detectives", "dets", default=None,
              help="New game: the detectives and their start stations in turn order, e.g. Red=13,Blue=26.")
@click.option("--detective-count", "count", type=click.IntRange(1, 5), default=None,
              help="New game: deal start cards to this many detectives (default 5).")
@seed_option("New game: the seed the detectives' start cards are dealt from (default: a random one, printed); "
             "it deals nothing only Mr. X may know.", default=None)
@click.option("--secret-seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="New game: the seed of what only Mr. X may know (his dealt start card, the computer's "
                   "choices); default: a random one, kept in his log and never printed.")
@rules_option("New game: the rules")
@map_option("New game: the map")
@click.option("--mrx-log", "log", default=None, metavar="FILE",
              help="Mr. X's secret log: the whole game with his stations, apart from the public GAME "
                   "(default with --computer: beside GAME, e.g. game.mrx.txt). Kept in GAME for resuming.")
@click.option("--mrx-start", type=click.IntRange(min=0), default=None,
              help="New game: Mr. X's start station, kept in his log (default: dealt).")
@click.option("--computer", type=click.Choice(COMPUTER_SIDES), multiple=True, callback=_once,
              help="The side the computer plays: mrx, detectives, or both (a game to watch). Default: none.")
@click.option("--level", type=click.Choice(LEVELS), multiple=True, callback=_once,
              help=f"The computer's strength (default {DEFAULT_LEVEL}; see 'sy-tools play --help' in docs/play.md).")
@click.option("--think", type=SECONDS, default=None,
              help=f"Seconds the computer may think per move at most, and advise, solve, cordon take "
                   f"(default {DEFAULT_THINK:g}).")
@click.option("--pace", type=SECONDS_OR_ZERO, default=None,
              help=f"With --computer both: seconds between its moves (default {DEFAULT_PACE:g}).")
@click.option("--picture", default=None, metavar="FILE",
              help="Redraw where Mr. X may be into FILE (.png, .svg, .pdf) after every round (default: only when "
                   "the picture command asks).")
def play_cmd(game: str, new: bool, dets: str | None, count: int | None, seed: int | None, secret_seed: int | None,
             rules: Any, map_spec: str, log: str | None, mrx_start: int | None, computer: str | None,
             level: str | None, think: float | None, pace: float | None, picture: str | None) -> None:
    """Play a game in the record GAME, one typed move a line: start it with --new, or resume it
    where it stands with just 'sy-tools play GAME' (the game keeps its set-up: the computer's
    side and level, Mr. X's log, the think time).  Each move is judged as 'check' would judge the
    record, and the record is saved after every move; 'help' lists the commands.  Without a
    terminal the lines are read from standard input, so a game can be scripted.

    Exit 0 when the game ends, on quit or end of input; 2 for bad options or files, or when a
    move could not be saved; 1 for an illegal record to resume; 130 on Ctrl-C.

    \b
    Examples:
      sy-tools play game.txt --new --detectives Red=13,Blue=26 --mrx-log mrx.txt
      sy-tools play game.txt --picture now.png   # resume it (log and all), redrawing now.png
      sy-tools play vs-computer.txt --new --computer mrx --detective-count 4 --level hard
    """
    from ..play.setup import new_game, refuse_stream, resume_game

    ctx = click.get_current_context()
    given = [flag for param, flag in _SETUP.items()
             if ctx.get_parameter_source(param) not in (None, click.core.ParameterSource.DEFAULT)]
    refuse_stream(game)
    notes: list[str] = []
    if new:
        from ..formats.values import named_stations
        from .common import load_puzzle_board

        if dets is not None and count is not None:
            raise click.UsageError("give --detectives or --detective-count, not both")
        if pace is not None and computer != "both":
            raise click.UsageError("--pace paces the computer's moves when it plays both sides: give --computer both")
        board = load_puzzle_board(map_spec, rules)
        pairs = named_stations(dets) if dets is not None else None
        session, notes = new_game(game, board, map_spec, rules, detectives=pairs, count=count, seed=seed,
                                  secret_seed=secret_seed, mrx_start=mrx_start, log=log, computer=computer,
                                  level=level or DEFAULT_LEVEL, think=think or DEFAULT_THINK,
                                  pace=DEFAULT_PACE if pace is None else pace, picture=picture)
    else:
        from ..play.session import refuse_resume_options

        refuse_resume_options(given)
        session = resume_game(game, log=log, computer=computer, level=level, think=think, pace=pace,
                              picture=picture)
    try:
        code = _run(session, notes, picture)
    finally:
        if session.lock is not None:
            session.lock.release()
    sys.exit(code)


def _run(session: Any, notes: list[str], picture: str | None) -> int:
    from ..play import Console
    from ..play.pipe import run_pipe, stdin_is_terminal

    console = Console(session, click.echo, lambda line: click.echo(line, err=True), picture)
    if stdin_is_terminal():
        from ..play.terminal import run_terminal

        return run_terminal(console, notes)
    console.on_private = console.frame_private
    console.start(notes)
    if console.finished:
        return console.exit_code(0)
    return run_pipe(console)
