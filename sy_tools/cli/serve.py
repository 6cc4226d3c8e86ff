"""``sy-tools serve``: the game on every screen, Mr. X's secret on his own phone."""

from __future__ import annotations

import copy
import sys
from typing import Any

import click

from .app import main
from .play import _KEPT, _SETUP, play_cmd

#: How serve names itself in the record's lock (a second session is told who holds the game).
PROGRAM = "sy-tools serve"

#: What serve prints instead of Mr. X's link when the computer plays him (and the game goes on).
HIDDEN_LINE = "the computer plays Mr. X: his station and route stay hidden until the game ends (no private link)"

#: play's options that serve shares: the set-up of a new game, and what a game keeps.
_SHARED = (*_SETUP, "log", *_KEPT)


@main.command("serve", short_help="Serve a game to every screen at the table, Mr. X's page on his phone.")
@click.argument("game")
@click.option("--new", "new", is_flag=True, help="Start a new game in GAME (which must not exist); else resume it.")
@click.option("--host", default="127.0.0.1",
              help="The address to listen on: 127.0.0.1 (this machine only) or another, e.g. 0.0.0.0 for every "
                   "screen on the local network (the LAN addresses are printed).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, help="The port (0: a free one).")
@click.option("--qr/--no-qr", default=None,
              help="Draw Mr. X's link as a QR code (default: when standard output is a terminal).")
def serve_cmd(game: str, new: bool, host: str, port: int, qr: bool | None, **setup: Any) -> None:
    """Serve the game in the record GAME on the web: every browser at the table sees the board,
    where Mr. X may be and the moves, live; Mr. X plays on his own private page.  Start it with
    --new and play's set-up options, or resume it where it stands with just 'sy-tools serve
    GAME' ('play' and 'serve' open the same files).  It prints two lines, 'table: URL' and
    'mr-x: URL' (his private link: keep it for him; when the computer plays Mr. X, a line saying
    his secrets stay hidden until the game ends instead), and stops on Ctrl-C with the game saved.

    Exit 0 when stopped; 2 for bad options or files, or when a move could not be saved; 1 for
    an illegal record to resume.

    \b
    Examples:
      sy-tools serve game.txt --new --detectives Red=13,Blue=26,Green=29
      sy-tools serve game.txt --host 0.0.0.0 --port 8000   # resume it, for the phones on the Wi-Fi
      sy-tools serve watch.txt --new --computer both --detective-count 5 --pace 2
    """
    from ..play.files import resume_command
    from ..web.app import create_app
    from ..web.server import Runner, bind, mrx_token, qr_text
    from ..web.table import Table

    session, notes = _open(game, new, setup)
    try:
        token = mrx_token(session)
        bound = bind(host, port)
        table = Table(session)
        app = create_app(table, token=token, hosts=bound.hosts)
        hub = app.hub
        assert hub is not None
        runner = Runner(app, bound, on_stop=hub.stop)
        for n in notes:
            click.echo(n)
        base = bound.urls[0]
        hidden = table.mrx_hidden()  # (nobody at the table is Mr. X: no link to give)
        click.echo(f"table: {base}/")
        if hidden:
            click.echo(HIDDEN_LINE)
        else:
            click.echo(f"mr-x: {base}/x/{token}")
        for other in bound.urls[1:]:
            click.echo(f"also: {other}/")
        if not hidden and (qr if qr is not None else sys.stdout.isatty()):
            click.echo(qr_text(f"{base}/x/{token}"))
        click.echo("Ctrl-C stops the server (the game is saved after every move)")
        sys.stdout.flush()
        runner.run()
    finally:
        if session.lock is not None:
            session.lock.release()
    if session.stopped is not None:
        click.echo(f"stopped: {session.stopped}", err=True)
        sys.exit(2)
    click.echo(f"stopped; saved after move {len(session.plies)}; resume with: "
               f"{resume_command(game).replace('sy-tools play', 'sy-tools serve', 1)}")
    sys.exit(2 if session.save_failed else 0)


def _open(game: str, new: bool, opts: dict[str, Any]) -> tuple[Any, list[str]]:
    """The game's session as ``play`` opens it (a new game keeps Mr. X's log: his page is the point)."""
    from ..play.session import default_log_path, refuse_resume_options
    from ..play.settings import DEFAULT_LEVEL, DEFAULT_PACE, DEFAULT_THINK
    from ..play.setup import new_game, refuse_stream, resume_game
    from ..web.server import check_token_apart

    ctx = click.get_current_context()
    given = [flag for param, flag in _SETUP.items()
             if ctx.get_parameter_source(param) not in (None, click.core.ParameterSource.DEFAULT)]
    refuse_stream(game)
    if not new:
        refuse_resume_options(given)
        session = resume_game(game, log=opts["log"], computer=opts["computer"], level=opts["level"],
                              think=opts["think"], pace=opts["pace"], program=PROGRAM)
        return session, []
    from ..formats.values import named_stations
    from .common import load_puzzle_board

    if opts["dets"] is not None and opts["count"] is not None:
        raise click.UsageError("give --detectives or --detective-count, not both")
    if opts["pace"] is not None and opts["computer"] != "both":
        raise click.UsageError("--pace paces the computer's moves when it plays both sides: give --computer both")
    board = load_puzzle_board(opts["map_spec"], opts["rules"])
    pairs = named_stations(opts["dets"]) if opts["dets"] is not None else None
    log = opts["log"] or default_log_path(game)
    check_token_apart(game, log)  # (before a file is made)
    session, notes = new_game(game, board, opts["map_spec"], opts["rules"], detectives=pairs, count=opts["count"],
                              seed=opts["seed"], secret_seed=opts["secret_seed"], mrx_start=opts["mrx_start"],
                              log=log, computer=opts["computer"], level=opts["level"] or DEFAULT_LEVEL,
                              think=opts["think"] or DEFAULT_THINK,
                              pace=DEFAULT_PACE if opts["pace"] is None else opts["pace"], program=PROGRAM)
    return session, [n for n in notes if n.startswith("start cards dealt")]


def _shared_params() -> list[click.Parameter]:
    out = []
    for p in play_cmd.params:
        if p.name in _SHARED:
            p = copy.copy(p)
            if p.name == "log":
                p.help = ("Mr. X's secret log: the whole game with his stations, apart from the public GAME "
                          "(default: beside GAME, e.g. game.mrx.txt). Kept in GAME for resuming.")
            out.append(p)
    return out


serve_cmd.params[2:2] = _shared_params()


@main.command("replay", short_help="Write a game as one HTML file to step through on the board (no server needed).")
@click.argument("game")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="The HTML file to write (it opens from disk, with no server and no network).")
def replay_cmd(game: str, output: str) -> None:
    """Write the game in the record GAME as one self-contained HTML file: the board turn by
    turn, with play, pause, step and a slider, what the detectives saw at each turn and, when
    the record's Mr. X's log is at hand (its 'play' header names it), where he really was.

    \b
    Examples:
      sy-tools replay game.txt -o game.html
      sy-tools replay examples/capture.json -o capture.html
    """
    import os

    from ..formats.files import atomic_write_bytes
    from ..formats.record_io import load_record
    from ..play.files import distinct_targets
    from ..play.session import check_resumable
    from ..web.replay import full_record, replay_data, replay_html
    from ..web.table import board_json

    record = load_record(game)
    full = full_record(record, game)
    check_resumable(full, game)
    mine = [("the record", game)]
    log = (record.extra.get("play") or {}).get("mrx_log")
    if log:
        mine.append(("Mr. X's log", os.path.join(os.path.dirname(game), log)))
    distinct_targets([*mine, ("the replay", output)])
    data = replay_data(full, board_json(record.board), os.path.basename(game))
    atomic_write_bytes(output, replay_html(data).encode())
    from ..formats.report_text import plural

    truth = ", with Mr. X's true route" if data["full"] else ""
    click.echo(f"written: {output} ({plural(len(data['frames']) - 1, 'turn')}{truth})")
