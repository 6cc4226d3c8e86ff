"""opponents: the hard detectives against every kind of Mr. X (issue 45).

The ``level-hard`` detectives (advise with its searches, and its planning search where the level
sets one: :mod:`sy_tools.selfplay.budgets`) against each Mr. X of :data:`OPPONENTS` (``greedy``,
the ``evasive`` and ``twoply`` Mr. X of :mod:`sy_tools.selfplay.opponents`, the ``mcts``
yardstick at 1,000 iterations, OpenSpiel's ISMCTS at 1,000 simulations), then the advise Mr. X
against them and against ``greedy`` detectives (the goal: at most half his rate there).  The same ``--games`` seeded games a row
through ``simulate`` (game ``i`` of seed ``s`` is the same deal whatever the row or ``--jobs``),
classic rules, five detectives; Mr. X's win rate with its Wilson 95% interval, mean rounds and
CPU a game.  Budgets are in nodes, iterations, candidates and rollouts, never seconds.

    python -m benchmarks.opponents --games 300 --seed 46 --jobs 1
    python -m benchmarks.opponents --games 20 --only twoply:level-hard
    python -m benchmarks.opponents --games 300 --seed 46 --interleave   # stop it any time
    python -m benchmarks.opponents --games 300 --seed 46 --out A.csv --shard 0/2   # resumable, and
    python -m benchmarks.opponents --games 300 --seed 46 --out B.csv --shard 1/2   # on two cores
    python -m benchmarks.opponents --summary --out A.csv --out B.csv
    python -m benchmarks.opponents --games 300 --detectives advise-plan --out C.csv   # the planner's table

With ``--out`` the games go into a CSV file game by game (:mod:`benchmarks.gametable`): a run
stopped and started again on the same file plays only what is missing, ``--shard K/N`` splits
the games between processes, ``--summary`` prints the table of the files.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence

from . import gametable
from .strength import play

#: (Mr. X's policy, the detectives' policy), in the order printed
OPPONENTS: tuple[tuple[str, str], ...] = (
    ("greedy", "level-hard"), ("evasive", "level-hard"), ("twoply", "level-hard"), ("mcts-1000", "level-hard"),
    ("openspiel-ismcts:1000", "level-hard"), ("advise", "level-hard"), ("advise", "greedy"),
)
#: the goal: every Mr. X but advise held to at most this share by the hard detectives
GOAL = 0.05
GAMES = 4
SEED = 46


def budgets() -> list[str]:
    """The budgets, as printed above the table."""
    from sy_tools.selfplay import budgets as b

    hard = dict(b.LEVEL_TABLE["detectives"]["hard"].budget)
    return [f"  level-hard detectives: {b.LEVEL_TABLE['detectives']['hard'].summary}; memo {hard}",
            f"  mcts-1000: the mcts yardstick Mr. X at {b.MCTS_YARDSTICK_ITERATIONS} iterations a move",
            "  openspiel-ismcts:1000: OpenSpiel's ISMCTS Mr. X, 1,000 simulations a decision (sy_tools.selfplay.openspiel_bots)",
            "  evasive, twoply, greedy: no search (sy_tools.selfplay.opponents); advise Mr. X: its self-play budget"]


def lines(games: int = GAMES, jobs: int = 1, seed: int = SEED,
          matchups: Sequence[tuple[str, str]] = OPPONENTS) -> Iterator[str]:
    """The table's lines, each as soon as its games are played; a row of a Mr. X other than
    advise says whether it meets :data:`GOAL`."""
    yield (f"opponents: Mr. X's win rate, {games} seeded games a row (seed {seed}), classic rules, 5 detectives, "
           f"--jobs {jobs}; Wilson 95% intervals")
    yield from budgets()
    for x, d in matchups:
        m = play(x, d, games, jobs, seed)
        note = ""
        if d != "greedy" and x != "advise":
            note = "  goal <= 5%: " + ("met" if m.mrx_wins <= GOAL * m.games else "NOT met")
        yield m.line() + note


def interleaved(games: int, seed: int = SEED, matchups: Sequence[tuple[str, str]] = OPPONENTS) -> Iterator[str]:
    """Game ``i`` of every row before game ``i + 1`` of any (one process), a line of running
    counts after each: a run stopped early still reports every row on its first games (the
    same games :func:`lines` plays)."""
    from sy_tools.selfplay.game import GameSpec, play_game
    from sy_tools.selfplay.stats import wilson

    wins = [0] * len(matchups)
    cpu = [0.0] * len(matchups)
    yield (f"opponents (interleaved): Mr. X's win rate, seed {seed}, classic rules, 5 detectives, one process; "
           "Wilson 95% intervals")
    yield from budgets()
    for i in range(games):
        cells = []
        for k, (x, d) in enumerate(matchups):
            t = time.process_time()
            wins[k] += play_game(GameSpec(mrx_policy=x, detective_policy=d, seed=seed), i).mrx_won
            cpu[k] += time.process_time() - t
            lo, hi = wilson(wins[k], i + 1)
            cells.append(f"{x} vs {d} {wins[k]}/{i + 1} [{lo:.1%}, {hi:.1%}] {cpu[k] / (i + 1):.1f} s")
        yield f"  after {i + 1} game(s) a row: " + "; ".join(cells)


def matchup(text: str) -> tuple[str, str]:
    """``--only X:D`` as ``(X, D)``: the colon where both sides name a policy (a policy name may
    hold a colon itself: ``openspiel-ismcts:1000:level-hard``, ``advise:openspiel-ismcts:300``);
    :class:`ValueError` when no colon splits it so."""
    from sy_tools.errors import InputError
    from sy_tools.selfplay.policies import load_policy

    parts = text.split(":")
    for k in range(1, len(parts)):
        x, d = ":".join(parts[:k]), ":".join(parts[k:])
        try:
            load_policy(x, "mrx")
            load_policy(d, "detectives")
        except InputError:
            continue
        return x, d
    raise ValueError(f"--only {text}: expected MRX:DETECTIVES, two policy names (e.g. twoply:level-hard)")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.opponents", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES, help=f"games a row (default {GAMES})")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--only", action="append", metavar="X:D", help="just this row (repeatable), e.g. twoply:level-hard")
    ap.add_argument("--interleave", action="store_true",
                    help="game i of every row before game i+1 (one process), running counts after each")
    gametable.add_arguments(ap, "play into this CSV file game by game, resumable (several with --summary)")
    ap.add_argument("--detectives", default="level-hard", metavar="POLICY",
                    help="the detectives of the table's rows in place of level-hard (e.g. advise-plan)")
    a = ap.parse_args(argv)
    if a.only and a.detectives != "level-hard":
        ap.error("--detectives applies to the table's rows, not to --only X:D (name the detectives there)")
    try:
        pairs = [matchup(p) for p in a.only] if a.only else \
            [(x, a.detectives if d == "level-hard" else d) for x, d in OPPONENTS]
    except ValueError as e:
        ap.error(str(e))
    if a.out:
        gametable.main(ap, a, [(str(k + 1), x, d) for k, (x, d) in enumerate(pairs)], "row", progress=True)
        return
    if a.summary:
        ap.error("--summary needs --out files")
    t = time.perf_counter()
    out = interleaved(a.games, a.seed, pairs) if a.interleave else lines(a.games, a.jobs, a.seed, pairs)  # type: ignore[arg-type]
    for line in out:
        print(line, flush=True)
    print(f"  ({time.perf_counter() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
