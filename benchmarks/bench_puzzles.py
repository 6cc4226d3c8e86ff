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
from sy_tools.puzzles.model import Puzzle
from sy_tools.puzzles.rate import rate_puzzles

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
    ] + hardness(found[:RATED])


#: how many of the puzzles found are rated for the hardness table
RATED = 40


def branching(p: Puzzle) -> int:
    """The joint moves at the first turn, counted as the product of each detective's legal
    moves (blocking by the others' later moves ignored)."""
    pos = p.position()
    n = 1
    for name in pos.names:
        if name not in pos.out:
            n *= max(1, len(pos.detective_moves(name)))
    return n


def hardness(puzzles: list[Puzzle], seed: int = 0) -> list[str]:
    """What makes puzzles hard: their mean Glicko-2 rating (``rate_puzzles``, two tries per
    solver) by turns, by detectives, by Mr. X's possible stations and by the first turn's
    branching."""
    if not puzzles:
        return []
    c0 = time.process_time()
    rated = rate_puzzles(puzzles, tries=2, seed=seed).puzzles
    cpu = time.process_time() - c0

    def table(what: str, key) -> str:
        groups: dict[object, list[float]] = collections.defaultdict(list)
        for p in rated:
            assert p.rating is not None
            groups[key(p)].append(p.rating.rating)
        cells = [f"{k}: {sum(v) / len(v):.0f} ({len(v)})" for k, v in sorted(groups.items(), key=lambda kv: str(kv[0]))]
        return f"    by {what}: " + ", ".join(cells)

    def bucket(n: int) -> str:
        return "<100" if n < 100 else "100-999" if n < 1000 else ">=1000"

    return [f"  hardness: mean rating (puzzles) of {len(rated)} puzzles rated in {cpu:.0f} s CPU",
            table("turns", lambda p: p.turns),
            table("detectives", lambda p: len(p.detectives)),
            table("possible stations", lambda p: min(len(p.possible), 4) if len(p.possible) < 4 else "4+"),
            table("first-turn joint moves", lambda p: bucket(branching(p)))]


def solver_ratings(seed: int = 1, positions: int = 12) -> list[str]:
    """The graded solvers' ratings from games between them (:mod:`sy_tools.puzzles.ladder`):
    the lines to put in sy_tools/puzzles/attempt.py, then each pairing's detectives' wins."""
    import datetime

    from sy_tools.puzzles.ladder import constants_text, measure_ladder

    c0 = time.process_time()
    report = measure_ladder(seed, positions)
    cpu = time.process_time() - c0
    command = f"python -m benchmarks.bench_puzzles solver-ratings --seed {seed} --positions {positions}"
    lines = constants_text(report, command, datetime.date.today().isoformat()).splitlines()
    lines.append(f"  {cpu:.0f} s CPU")
    pairs: dict[tuple[str, str], list[bool]] = collections.defaultdict(list)
    for d, x, _, won in report.games:
        pairs[(d, x)].append(won)
    lines += [f"  {d} detectives vs {x}: {sum(v)} of {len(v)} caught" for (d, x), v in pairs.items()]
    return lines


def _flag(name: str, default: int) -> int:
    args = sys.argv[2:]
    return int(args[args.index(name) + 1]) if name in args else default


if __name__ == "__main__":
    if sys.argv[1:2] == ["solver-ratings"]:  # the solvers' ratings from games between them
        for line in solver_ratings(_flag("--seed", 1), _flag("--positions", 12)):
            print(line, flush=True)
        sys.exit(0)
    if sys.argv[1:2] == ["hardness"]:  # the table alone, on a puzzle file
        from sy_tools.puzzles.model import read_puzzles

        for line in hardness(read_puzzles(sys.argv[2])):
            print(line)
        sys.exit(0)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else COUNT
    lo, _, hi = (sys.argv[2] if len(sys.argv) > 2 else "2-3").partition("-")
    for line in run(n, (int(lo), int(hi or lo))):
        print(line)
