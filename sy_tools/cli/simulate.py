"""``sy-tools simulate``."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..selfplay.levels import level_policy_names
from .app import main
from .common import warn_cutoff
from .options import (
    SECONDS,
    format_option,
    map_option,
    rules_option,
    seed_option,
)

#: the levels' policy names, as the help lists them (from the light :mod:`sy_tools.selfplay.levels`)
_LEVEL_NAMES = ", ".join(level_policy_names())


@main.command("simulate", short_help="Self-play: many seeded games between two policies.")
@click.option("-n", "--games", "n_games", type=click.IntRange(min=0), required=True, help="How many games.")
@seed_option("Game i draws from (seed, i) alone.", signed=True)
@rules_option()
@map_option()
@click.option("--detective-count", "n_detectives", type=click.IntRange(min=1, max=5), default=5, show_default=True,
              help="How many detectives play (the first N of the start deck's colours).")
@click.option("--detectives", "n_detectives_alias", type=click.IntRange(min=1, max=5), hidden=True)
@click.option("--mrx-policy", default="random", show_default=True,
              help=f"random, greedy, advise, mcts (the yardstick Monte-Carlo player), evasive, twoply, mcts-1000 "
                   f"(opponents of other kinds), {_LEVEL_NAMES} (the computer's strength levels), "
                   "openspiel-ismcts or openspiel-mcts (OpenSpiel's bots; openspiel-ismcts:1000 for 1000 "
                   "simulations a decision, default 300), module:function or file.py:function.")
@click.option("--detective-policy", default="random", show_default=True,
              help=f"random, greedy, cordon, advise, mcts, {_LEVEL_NAMES}, advise-plan (the hard detectives "
                   "with the planning search), openspiel-ismcts[:N], "
                   "openspiel-mcts[:N], module:function or file.py:function.")
@click.option("--starts", default=None, help="Start decks: classic, 2014, or Mr. X's stations, e.g. 166 "
              "(default: the rules' decks).")
@click.option("--by", "by", type=click.Choice(["start"]), default=None,
              help="A row per Mr. X start station (default: one summary).")
@format_option("text", "csv", "json")
@click.option("--out", "out", default=None,
              help="Also write one row per game: FILE.csv or FILE.parquet, replaced only when the run "
                   "completes (default: none).")
@click.option("--records", "records", default=None,
              help="Also write every game's game.json into this folder (default: none).")
@click.option("--jobs", "-j", type=click.IntRange(min=1, max=64), default=None,
              help="Worker processes, 1-64, never more than the games need (default: all cores).")
@click.option("--scheduler", default=None,
              help="Run on a dask.distributed cluster: tcp://HOST:PORT (default: local worker processes).")
@click.option("--cordon-time-limit", type=SECONDS, default=2.0, show_default=True,
              help="Seconds per cordon plan (cordon detectives).")
def simulate_cmd(n_games: int, seed: int, rules: Any, map_spec: str, n_detectives: int, n_detectives_alias: int | None,
             mrx_policy: str,
             detective_policy: str, starts: str | None, by: str | None, fmt: str, out: str | None,
             records: str | None, jobs: int | None, scheduler: str | None, cordon_time_limit: float) -> None:
    """Play N seeded games between two policies and summarise who won (Mr. X's win rate with a
    95% Wilson interval, how games ended, rounds played).

    \b
    Examples:
      sy-tools simulate -n 200 --mrx-policy greedy --detective-policy greedy
      sy-tools simulate -n 200 --starts 166 --seed 7 --out results.csv
    """
    import contextlib
    import os

    from ..formats.files import stream_fd
    from ..formats.values import parse_starts
    from ..selfplay.game import GameSpec
    from ..selfplay.policies import is_plug_in
    from ..selfplay.stray import stray_output_marked

    n_detectives = n_detectives_alias or n_detectives  # --detectives: the old name
    spec = GameSpec(map=map_spec, rules=rules, detectives=n_detectives,
                    mrx_policy=mrx_policy, detective_policy=detective_policy, starts=parse_starts(starts),
                    seed=seed, cordon_time_limit=cordon_time_limit, records=records is not None)
    # every output path resolved before any plug-in runs (one may change the working folder), and
    # standard output held: what a plug-in prints goes to stderr, marked
    out_at = os.path.abspath(out) if out and stream_fd(out) is None else out
    if records:
        records = os.path.abspath(records)
    plug_ins = is_plug_in(mrx_policy, "mrx") or is_plug_in(detective_policy, "detectives")
    with stray_output_marked() if plug_ins else contextlib.nullcontext(sys.stdout) as stdout:
        _simulate(spec, n_games, map_spec, rules, by, fmt, out, out_at, records, jobs, scheduler, stdout)


def _simulate(spec: Any, n_games: int, map_spec: str, rules: Any, by: str | None, fmt: str, out: str | None,
              out_at: str | None, records: str | None, jobs: int | None, scheduler: str | None, stdout: Any) -> None:
    """The run itself: ``--out`` as given (``out``, for messages) and resolved (``out_at``), its
    summary (and ``--out -``'s rows) to ``stdout``."""
    import time

    from ..formats.files import cleanup_on_signals
    from ..selfplay.game import check_spec
    from ..selfplay.results import RowWriter, input_files, record_map, records_dir, write_record
    from ..selfplay.runner import simulate
    from ..selfplay.stats import ForfeitNotes, format_summary

    # everything is checked before anything is written
    check_spec(spec)
    from ..formats.map_load import load_board

    warn_cutoff(load_board(map_spec), rules)
    inputs = input_files(spec, click.get_current_context().meta.get("sy_tools.rules_file"))
    writer = RowWriter(out_at, inputs=inputs, stdout=stdout, shown=out) if out_at is not None else None
    the_map = None
    if records is not None:
        records_dir(records, inputs, n_games)
        the_map = record_map(map_spec, records)
    tty = sys.stderr.isatty()
    shown_at = [0.0]
    played = [0]
    forfeits = ForfeitNotes()  # said on stderr once per kind: else only the --out rows would say why

    def on_game(g: Any) -> None:
        forfeits.add(g)
        if writer is not None:
            writer.write(g)
        if records is not None:
            write_record(records, g, the_map)
        played[0] += 1
        done = played[0]
        if tty and (time.monotonic() - shown_at[0] > 0.2 or done == n_games):
            shown_at[0] = time.monotonic()
            bar = "#" * (30 * done // max(1, n_games))
            click.echo(f"\r[{bar:<30}] {done}/{n_games} games", err=True, nl=done == n_games)

    with cleanup_on_signals():  # SIGTERM/SIGHUP: end the workers, drop the temporary file, then go
        try:
            if writer is not None:
                writer.open()
            result = simulate(spec, n_games, jobs, scheduler, keep_rows=False, on_game=on_game)
            if writer is not None:
                writer.close()
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
    for line in forfeits.lines():
        click.echo(f"warning: {line}", err=True)
    click.echo(format_summary(result, fmt, by == "start"), file=stdout)
