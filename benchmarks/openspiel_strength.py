"""openspiel_strength: our advise policies against OpenSpiel's ISMCTS (issue 42), the outside
yardstick.  Cells: advise Mr. X vs ISMCTS detectives, ISMCTS Mr. X vs advise detectives, ISMCTS
against itself, at each budget (simulations a decision); classic rules, five detectives, the
same seeded deals in every cell (``simulate``'s seeding: game ``i`` of a seed is the same deal
whatever the matchup).

The games are played one at a time, cell after cell in turn (game 0 of every cell, then game 1,
...), each row appended to ``--out`` as it ends, so a run cut short leaves every cell with about
as many games; ``--summary`` prints the table of what ``--out`` holds (Mr. X's win rate with its
Wilson 95% interval).  ``--shard K/N`` plays only the games ``i`` with ``i % N == K``, so N
processes with their own ``--out`` files split the run between cores (a game's deal and play
depend on its seed and index alone); ``--summary`` takes several ``--out`` files.

    python -m benchmarks.openspiel_strength --games 150 --budgets 300 1000 --seed 7 --out FILE.csv
    python -m benchmarks.openspiel_strength --summary --out FILE.csv [--out OTHER.csv]
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections.abc import Sequence

from sy_tools.selfplay.game import GameSpec, play_game
from sy_tools.selfplay.stats import wilson

COLUMNS = ("budget", "mrx_policy", "detective_policy", "game", "winner", "reason", "rounds", "seconds")


def cells(budgets: Sequence[int]) -> list[tuple[int, str, str]]:
    """(budget, Mr. X's policy, the detectives' policy) per cell, the smaller budget first."""
    out = []
    for b in budgets:
        ism = f"openspiel-ismcts:{b}"
        out += [(b, "advise", ism), (b, ism, "advise"), (b, ism, ism)]
    return out


def run(games: int, budgets: Sequence[int], seed: int, out: str, shard: tuple[int, int] = (0, 1)) -> None:
    done = set()
    if os.path.exists(out):
        with open(out, newline="") as f:
            done = {(r["mrx_policy"], r["detective_policy"], int(r["game"])) for r in csv.DictReader(f)}
    new = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(COLUMNS)
        for i in range(shard[0], games, shard[1]):
            for budget, mrx, det in cells(budgets):
                if (mrx, det, i) in done:
                    continue
                t = time.process_time()
                g = play_game(GameSpec(mrx_policy=mrx, detective_policy=det, seed=seed), i)
                w.writerow((budget, mrx, det, i, g.winner, g.reason, g.rounds, round(time.process_time() - t, 1)))
                f.flush()


def summary(outs: Sequence[str]) -> str:
    rows: dict[tuple[str, str, str], dict[str, dict[str, str]]] = {}
    for out in outs:
        with open(out, newline="") as f:
            for r in csv.DictReader(f):
                rows.setdefault((r["budget"], r["mrx_policy"], r["detective_policy"]), {})[r["game"]] = r
    lines = ["| budget | Mr. X | detectives | games | Mr. X wins | Mr. X win rate | Wilson 95% | CPU s/game |",
             "| ---: | --- | --- | ---: | ---: | ---: | --- | ---: |"]
    for (b, mrx, det), by_game in sorted(rows.items(), key=lambda kv: (int(kv[0][0]), kv[0][1], kv[0][2])):
        rs = list(by_game.values())
        n = len(rs)
        wins = sum(r["winner"] == "mrx" for r in rs)
        lo, hi = wilson(wins, n)
        cpu = sum(float(r["seconds"]) for r in rs) / n
        lines.append(f"| {b} | {mrx} | {det} | {n} | {wins} | {wins / n:.1%} | {lo:.1%}-{hi:.1%} | {cpu:.0f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--budgets", type=int, nargs="+", default=[300, 1000])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", required=True, action="append", help="the CSV file (several with --summary)")
    ap.add_argument("--shard", default="0/1", help="K/N: play only the games i with i %% N == K")
    ap.add_argument("--summary", action="store_true")
    a = ap.parse_args(argv)
    k, n = (int(x) for x in a.shard.split("/"))
    if not 0 <= k < n:
        ap.error(f"--shard {a.shard}: expected K/N with 0 <= K < N")
    if not a.summary:
        if len(a.out) != 1:
            ap.error("one --out file when playing (several only with --summary)")
        run(a.games, a.budgets, a.seed, a.out[0], (k, n))
    print(summary(a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
