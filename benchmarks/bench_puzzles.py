"""puzzles: ``puzzle find`` from a fixed seed (self-play, the default pairings), puzzles of N >= 2
per minute of CPU and of wall clock, the share of candidates kept, the turns and themes found;
then every puzzle found re-proved by ``puzzle check`` (issue 43's goal: 100 unique, proved
puzzles of N >= 2 in under 10 minutes on the 2-core machine).  ``--count`` and ``--turns``
as arguments: ``python -m benchmarks.bench_puzzles 100 2-3``."""

from __future__ import annotations

import collections
import sys
import time

from sy_tools.puzzles.check import check_puzzle
from sy_tools.puzzles.find import find_puzzles

SEED = 1
COUNT = 100
TURNS = (2, 3)
TIME_LIMIT = 1200.0


def run(count: int = COUNT, turns: tuple[int, int] = TURNS, seed: int = SEED) -> list[str]:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    result = find_puzzles(None, count, seed, turns[0], turns[1], TIME_LIMIT)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    s = result.stats
    found = result.puzzles
    c0 = time.process_time()
    checked = [check_puzzle(p) for p in found]
    check_cpu = time.process_time() - c0
    by_turns = collections.Counter(p.turns for p in found)
    themes = collections.Counter(t for p in found for t in p.themes)
    return [
        f"puzzle find --seed {seed} --turns {turns[0]}-{turns[1]} --count {count}: {len(found)} puzzles "
        f"({', '.join(f'{n} of N={k}' for k, n in sorted(by_turns.items()))}) in {wall:.0f} s wall, {cpu:.0f} s CPU",
        f"  {len(found) / (cpu / 60):.1f} puzzles per CPU-minute, {len(found) / (wall / 60):.1f} per wall-clock minute",
        f"  {s.games} self-play games, {s.candidates} candidate positions, {s.tried} tried (possible set <= 12), "
        f"{s.forced} forced, {s.unique} unique, {s.duplicates} repeats, {s.too_hard} over the node budget",
        f"  kept {s.kept_share:.1%} of the candidates tried ({s.kept / max(1, s.candidates):.1%} of all)",
        f"  themes: {', '.join(f'{t} {n}' for t, n in themes.most_common())}",
        f"  puzzle check: {sum(r.ok for r in checked)} of {len(checked)} proved again in {check_cpu:.1f} s CPU",
    ]


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else COUNT
    lo, _, hi = (sys.argv[2] if len(sys.argv) > 2 else "2-3").partition("-")
    for line in run(n, (int(lo), int(hi or lo))):
        print(line)
