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
import sys
from collections.abc import Sequence

from . import gametable


def cells(budgets: Sequence[int]) -> list[gametable.Cell]:
    """(budget, Mr. X's policy, the detectives' policy) per cell, the smaller budget first."""
    out = []
    for b in budgets:
        ism = f"openspiel-ismcts:{b}"
        out += [(str(b), "advise", ism), (str(b), ism, "advise"), (str(b), ism, ism)]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--budgets", type=int, nargs="+", default=[300, 1000])
    ap.add_argument("--seed", type=int, default=7)
    gametable.add_arguments(ap)
    a = ap.parse_args(argv)
    if not a.out:
        ap.error("--out CSV is required")
    gametable.main(ap, a, cells(a.budgets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
