"""strength: Mr. X's win rate per matchup of built-in policies, through ``simulate`` (issue 24).

Each matchup plays the same ``--games`` seeded games (``simulate``'s own seeding: game ``i`` of
seed ``s`` is the same deal whatever the matchup or ``--jobs``), classic rules, five detectives.
Every policy's budget is fixed in iterations or candidates, never seconds, so a run gives the same
games on a busy machine as on an idle one.  Mr. X's win rate is printed with its Wilson 95%
interval (:func:`sy_tools.selfplay.stats.wilson`).

    python -m benchmarks.strength --games 100 --jobs 2
    python -m benchmarks strength          # from make bench: BENCH_STRENGTH_GAMES games (default 10)
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.runner import simulate
from sy_tools.selfplay.stats import wilson

#: (Mr. X's policy, the detectives' policy), in the order printed
MATCHUPS: tuple[tuple[str, str], ...] = (
    ("advise", "greedy"), ("advise", "advise"), ("greedy", "advise"), ("mcts", "greedy"), ("mcts", "advise"),
    ("advise", "mcts"), ("mcts", "mcts"), ("greedy", "greedy"),
)
#: games per matchup in ``make bench`` (the full figures take ``--games 100`` or more)
GAMES = 10
SEED = 7


@dataclass(frozen=True)
class Matchup:
    """One matchup's games: Mr. X's wins, how they ended, the CPU they took."""

    mrx: str
    detectives: str
    games: int
    mrx_wins: int
    rounds_mean: float
    reasons: dict[str, int]
    cpu_per_game: float

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.mrx_wins, self.games)

    def line(self) -> str:
        lo, hi = self.interval
        rate = self.mrx_wins / self.games if self.games else 0.0
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.reasons.items()))
        return (f"  {self.mrx + ' X':<9} vs {self.detectives + ' D':<9} {self.mrx_wins:4d}/{self.games:<4d} "
                f"{rate:6.1%}  [{lo:5.1%}, {hi:5.1%}]  {self.rounds_mean:4.1f} rounds  "
                f"{self.cpu_per_game:5.1f} s CPU/game  ({ends})")


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def play(mrx: str, detectives: str, games: int, jobs: int = 1, seed: int = SEED) -> Matchup:
    """``games`` games of one matchup through :func:`~sy_tools.selfplay.runner.simulate`."""
    cpu = _cpu()
    result = simulate(GameSpec(mrx_policy=mrx, detective_policy=detectives, seed=seed), games, jobs=jobs,
                      keep_rows=False)
    s = result.summary
    return Matchup(mrx, detectives, s.games, s.mrx_wins, s.rounds_mean(), dict(s.reasons),
                   (_cpu() - cpu) / max(games, 1))


def budgets() -> list[str]:
    """The budgets the policies play with, as printed above the table."""
    from sy_tools.selfplay import mcts, policies

    beam: Any
    try:
        from sy_tools.solvers import beam
    except ImportError:  # (older code, measured beside the new: no wider search on small sets)
        beam = None
    return [
        f"  mcts: Mr. X {mcts.MRX_ITERATIONS} iterations a move, detectives {mcts.DETECTIVE_ITERATIONS} a "
        f"detective move; playouts cut after {mcts.MRX_HORIZON} rounds (Mr. X) or {mcts.DETECTIVE_HORIZON} "
        f"(detectives), epsilon {mcts.EPSILON}, UCT C "
        f"{mcts.EXPLORATION}, coalition reduction {mcts.COALITION_REDUCTION}, location weights by hops to the "
        f"nearest detective {list(mcts.CATEGORY_WEIGHTS[1:])}",
        f"  advise: detectives weigh {policies.ADVISE_CANDIDATES} joint moves per round (depth 2)"
        + (f" ({beam.SMALL_SET_WIDTH} times as many where his possible set has at most {beam.SMALL_SET} stations)"
           if beam is not None else "")
        + (f", forced-win search {policies.DETECTIVE_SOLVE_TURNS} turns within {policies.DETECTIVE_SOLVE_NODES} nodes"
           if hasattr(policies, "DETECTIVE_SOLVE_NODES") else "") + "; Mr. X ranks every move (double moves when needed), then "
        + (f"an mcts search of {policies.MRX_ADVISE_ITERATIONS} iterations chooses among the best "
           f"{policies.MRX_ADVISE_CANDIDATES} not proved lost" if getattr(policies, "MRX_ADVISE_ITERATIONS", 0)
           else "plays the first"),
        "  greedy: one step, no search",
    ]


def run(games: int | None = None, jobs: int | None = None, seed: int = SEED,
        matchups: Sequence[tuple[str, str]] = MATCHUPS) -> list[str]:
    """The table's lines (``BENCH_STRENGTH_GAMES`` and ``BENCH_STRENGTH_JOBS`` set the defaults:
    10 games per matchup, 2 processes)."""
    return list(lines(games, jobs, seed, matchups))


def lines(games: int | None = None, jobs: int | None = None, seed: int = SEED,
          matchups: Sequence[tuple[str, str]] = MATCHUPS) -> Iterator[str]:
    """:func:`run`'s lines, each as soon as it is known (a matchup's when its games are played)."""
    games = games or int(os.environ.get("BENCH_STRENGTH_GAMES", GAMES))
    jobs = jobs or int(os.environ.get("BENCH_STRENGTH_JOBS", 2))
    yield (f"strength: Mr. X's win rate, {games} seeded games per matchup (seed {seed}), classic rules, "
           f"5 detectives, --jobs {jobs}; Wilson 95% intervals")
    yield from budgets()
    for x, d in matchups:
        yield play(x, d, games, jobs, seed).line()


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None, help=f"games per matchup (default {GAMES})")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default 2)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--only", action="append", metavar="X:D", help="just this matchup (repeatable), e.g. mcts:greedy")
    a = ap.parse_args(argv)
    pairs = [tuple(p.split(":", 1)) for p in a.only] if a.only else MATCHUPS
    t = time.perf_counter()
    for line in lines(a.games, a.jobs, a.seed, pairs):  # type: ignore[arg-type]
        print(line, flush=True)
    print(f"  ({time.perf_counter() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
