"""puzzles: ``puzzle find`` from a fixed seed (self-play, the default pairings), puzzles of N >= 2
per minute of CPU and of wall clock, the share of candidates kept, the turns and themes found;
then every puzzle found re-proved by ``puzzle check`` (issue 43's goal: 100 unique, proved
puzzles of N >= 2 in under 10 minutes on the 2-core machine).  Then the same for the survive
kind (generated positions, N = 2-3) and for captures in four (``--generated``), the solvers'
ratings measured from games between them (``solver-ratings``), and the hardness table over
both kinds.  ``--count`` and ``--turns`` as arguments: ``python -m benchmarks.bench_puzzles 100
2-3``."""

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


#: the survive kind's and the four-turn captures' counts and time limits
SURVIVE_COUNT, SURVIVE_TIME = 30, 600.0
N4_COUNT, N4_TIME = 5, 600.0


def run(count: int = COUNT, turns: tuple[int, int] = TURNS, seed: int = SEED) -> list[str]:
    lines, found = find_run(count, turns, seed)
    s_lines, survived = find_run(SURVIVE_COUNT, (2, 3), seed, kind="survive", time_limit=SURVIVE_TIME)
    n4_lines, _ = find_run(N4_COUNT, (4, 4), seed, generated=True, time_limit=N4_TIME)
    return (lines + s_lines + n4_lines + solver_ratings(seed, 40)
            + hardness(found[:RATED] + survived[:RATED]))


def find_run(count: int, turns: tuple[int, int], seed: int, kind: str = "capture", generated: bool | None = None,
             time_limit: float = TIME_LIMIT) -> tuple[list[str], list[Puzzle]]:
    """One ``puzzle find`` run, its puzzles re-proved by ``check``: the lines of figures and the
    puzzles."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    result = find_puzzles(None, count, seed, turns[0], turns[1], time_limit, kind=kind, generated=generated)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    s = result.stats
    found = result.puzzles
    c0 = time.process_time()
    checked = [check_puzzle(p) for p in found]
    check_cpu = time.process_time() - c0
    by_turns = collections.Counter(p.turns for p in found)
    themes = collections.Counter(t for p in found for t in p.themes)
    flags = (" --kind survive" if kind == "survive" else "") + (" --generated" if generated else "")
    source = ("generated positions" if kind == "survive" or generated else f"{s.games} self-play games")
    return [
        f"puzzle find{flags} --seed {seed} --turns {turns[0]}-{turns[1]} --count {count}: {len(found)} puzzles "
        f"({', '.join(f'{n} of N={k}' for k, n in sorted(by_turns.items()))}) in {wall:.0f} s wall, {cpu:.0f} s CPU",
        f"  {len(found) / (cpu / 60):.1f} puzzles per CPU-minute, {len(found) / (wall / 60):.1f} per wall-clock minute",
        f"  {source}, {s.candidates} candidate positions, {s.tried} tried, "
        f"{s.forced} forced, {s.unique} unique, {s.duplicates} repeats, {s.too_hard} over the node budget",
        f"  kept {s.kept_share:.1%} of the candidates tried ({s.kept / max(1, s.candidates):.1%} of all)",
        f"  themes: {', '.join(f'{t} {n}' for t, n in themes.most_common())}",
        f"  puzzle check: {sum(r.ok for r in checked)} of {len(checked)} proved again in {check_cpu:.1f} s CPU",
    ], found


#: how many of the puzzles found are rated for the hardness table
RATED = 40


def branching(p: Puzzle) -> int:
    """The joint moves at the first turn, counted as the product of each detective's legal
    moves (blocking by the others' later moves ignored); a survive puzzle: his legal moves."""
    pos = p.position()
    if p.survival:
        return len(pos.legal_moves())
    n = 1
    for name in pos.names:
        if name not in pos.out:
            n *= max(1, len(pos.detective_moves(name)))
    return n


def hardness(puzzles: list[Puzzle], seed: int = 0) -> list[str]:
    """What makes puzzles hard: their mean Glicko-2 rating (``rate_puzzles``, two tries per
    solver) by kind and turns, by detectives, by Mr. X's possible stations, by the first turn's
    branching (the detectives' joint moves; a survive puzzle: his moves) and by the number of
    tempting wrong first moves (moves that hold out one turn less than the solution: every
    wrong move of a capture puzzle's first turn that wins within N + 1, of a survive puzzle's
    that survives N - 1)."""
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
            table("kind and turns", lambda p: f"{p.kind} {p.turns}"),
            table("detectives", lambda p: len(p.detectives)),
            table("possible stations", lambda p: min(len(p.possible), 4) if len(p.possible) < 4 else "4+"),
            table("first-turn moves", lambda p: bucket(branching(p))),
            table("tempting wrong first moves", lambda p: min(tempting(p), 3) if tempting(p) < 3 else "3+")]


def tempting(p: Puzzle) -> int:
    """Wrong first moves that nearly work: a survive puzzle's other solutions that survive N - 1
    turns; a capture puzzle's other first joint moves (who goes where) that still win within
    N + 1 turns."""
    if p.survival:
        from sy_tools.puzzles.survive import SurviveProver

        pos = p.position()
        sp = SurviveProver(pos, None, 200_000)
        return max(0, len(sp.survivors(pos, p.turns - 1, None)) - 1) if p.turns > 1 else 0
    from sy_tools.puzzles.prove import Prover, destinations

    prover = Prover(p.position(), None, 200_000)
    wins = {destinations(j.moves) for j in prover.winning_moves(p.belief(), p.turns + 1, 40)}
    return max(0, len(wins) - 1)


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
