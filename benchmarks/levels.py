"""levels: the computer's strength levels played against each other (issue 39).

Every Mr. X level (``level-easy``, ``level-normal``, ``level-hard``: :mod:`sy_tools.selfplay.levels`)
against every detectives' level, the same ``--games`` seeded games a pair through ``simulate``
(game ``i`` of seed ``s`` is the same deal whatever the pair or ``--jobs``), classic rules, five
detectives; Mr. X's win rate with its Wilson 95% interval.  ``easy`` is the ``greedy`` policy
of each side, so its row and column are the levels against that fixed opponent; each level also
meets the other fixed opponent, the ``mcts`` yardstick of the other side.  Below the table, for
each side, each level against the one below it, opponent by opponent: the two rates, the
difference with its 95% interval, and whether the levels are apart.

``--times GAMES`` also times each level's decisions (wall and CPU, in this process, one game
after another): a Mr. X level against the normal detectives, a detectives' level against the
normal Mr. X.  A detectives' decision is their whole turn of a round (the advise detectives plan
the round when the first of them moves), as a table waits for it.

    python -m benchmarks.levels --games 200 --seed 41 --jobs 2
    python -m benchmarks.levels --games 0 --times 10      # decision times only
    python -m benchmarks levels    # from make bench: BENCH_LEVELS_GAMES games a pair (default 4)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.levels import LEVEL_POLICY_PREFIX, LEVELS, describe_level, level_policy
from sy_tools.selfplay.runner import simulate

from .strength import Matchup, play

#: games a pair in ``make bench`` (the figures on the benchmarks page take ``--games 200`` or more)
GAMES = 4
#: games a level in ``make bench``'s decision times
TIME_GAMES = 1
SEED = 41


#: the fixed opponent beside the levels (the easy levels are the other: greedy)
YARDSTICK = "mcts"


def _short(name: str) -> str:
    return name[len(LEVEL_POLICY_PREFIX):] if name.startswith(LEVEL_POLICY_PREFIX) else name


def pairs(yardstick: bool = True) -> list[tuple[str, str]]:
    """(Mr. X's policy, the detectives' policy): every pair of levels, Mr. X's level first, then
    (with ``yardstick``) each level against the :data:`YARDSTICK` of the other side."""
    names = [LEVEL_POLICY_PREFIX + level for level in LEVELS]
    out = [(x, d) for x in names for d in names]
    if yardstick:
        out += [(x, YARDSTICK) for x in names] + [(YARDSTICK, d) for d in names]
    return out


def _rate(m: Matchup) -> str:
    lo, hi = m.interval
    return f"{m.mrx_wins / max(m.games, 1):.1%} [{lo:.1%}, {hi:.1%}]"


def difference(a: Matchup, b: Matchup) -> tuple[float, float, float]:
    """Mr. X's rate in ``b`` less his rate in ``a``, with its 95% interval from the two Wilson
    intervals (Newcombe's hybrid score interval for a difference of two proportions; the pairs
    play the same deals, so treating them as independent errs on the wide side)."""
    p, q = b.mrx_wins / max(b.games, 1), a.mrx_wins / max(a.games, 1)
    (lo_b, hi_b), (lo_a, hi_a) = b.interval, a.interval
    d = p - q
    return d, d - ((p - lo_b) ** 2 + (hi_a - q) ** 2) ** 0.5, d + ((hi_b - p) ** 2 + (q - lo_a) ** 2) ** 0.5


def ordering(results: dict[tuple[str, str], Matchup]) -> Iterator[str]:
    """For each side, each level against the one below it, opponent by opponent: Mr. X's rate
    with each, by how much the stronger level does better (a stronger Mr. X wins more, stronger
    detectives let him win less) with its 95% interval, and the verdict: "apart" when the two
    Wilson intervals do not overlap, "ordered" when only the difference's interval lies above 0,
    "not shown" otherwise."""
    names = [LEVEL_POLICY_PREFIX + level for level in LEVELS]
    for side in ("mrx", "detectives"):
        yield f"  {'Mr. X' if side == 'mrx' else 'detectives'}: each level against the one below it"
        for weak, strong in zip(names, names[1:]):
            for other in [*names, YARDSTICK]:
                key_w, key_s = ((weak, other), (strong, other)) if side == "mrx" else ((other, weak), (other, strong))
                if key_w not in results or key_s not in results:
                    continue
                a, b = results[key_w], results[key_s]
                d, lo, hi = difference(a, b) if side == "mrx" else difference(b, a)
                if (b.interval[0] > a.interval[1]) if side == "mrx" else (b.interval[1] < a.interval[0]):
                    verdict = "apart"
                else:
                    verdict = "ordered" if lo > 0 else "not shown"
                opp = f"against {_short(other)} {'detectives' if side == 'mrx' else 'Mr. X'}"
                yield (f"    {_short(strong):>6} over {_short(weak):<6} {opp:<26} Mr. X {_rate(b)} against "
                       f"{_rate(a)}: the stronger by {d:+.1%} [{lo:+.1%}, {hi:+.1%}], {verdict}")


# ---- decision times -------------------------------------------------------------------------

_TIMES: dict[str, list[tuple[Any, float, float]]] = {}


def _timed(side: str, level: str) -> Callable[[Any, Any], Any]:
    """``side``'s ``level``, noting each call's (game moment, wall, CPU) in :data:`_TIMES`."""
    inner = level_policy(side, level)
    notes = _TIMES.setdefault(f"{side}_{level}", [])

    def policy(obs: Any, rng: Any) -> Any:
        wall, cpu = time.perf_counter(), time.thread_time()
        move = inner(obs, rng)
        game = obs.memo.setdefault("bench_game", len(notes))  # (the memo lives for one game and side)
        notes.append(((game, getattr(obs, "round", None)), time.perf_counter() - wall, time.thread_time() - cpu))
        return move

    return policy


for _side in ("mrx", "detectives"):
    for _level in LEVELS:  # the timed policies, by name for simulate (module:function)
        globals()[f"timed_{_side}_{_level}"] = _timed(_side, _level)


def _quantile(values: Sequence[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def decision_times(games: int, seed: int = SEED) -> Iterator[str]:
    """Each level's decision times over ``games`` games played here (one process): median,
    90th percentile and worst, wall and CPU."""
    yield (f"  decision times, {games} game(s) a level (seed {seed}), one process: median / 90th percentile / "
           "worst, wall (CPU)")
    for side in ("mrx", "detectives"):
        for level in LEVELS:
            key = f"{side}_{level}"
            _TIMES[key].clear()
            me = f"{__name__}:timed_{key}"
            normal = LEVEL_POLICY_PREFIX + "normal"
            spec = GameSpec(mrx_policy=me if side == "mrx" else normal,
                            detective_policy=me if side == "detectives" else normal, seed=seed)
            played = simulate(spec, games, jobs=1, keep_rows=False).summary
            if played.forfeits:
                raise RuntimeError(f"{me} forfeited {played.forfeits} of {games} game(s)")
            # a detectives' decision is their turn of a round: the calls of one game's round summed
            turns: dict[Any, list[float]] = {}
            for moment, wall, cpu in _TIMES[key]:
                t = turns.setdefault(moment if side == "detectives" else len(turns), [0.0, 0.0])
                t[0] += wall
                t[1] += cpu
            walls = [w for w, _ in turns.values()]
            cpus = [c for _, c in turns.values()]
            if not walls:
                continue
            who = "Mr. X" if side == "mrx" else "detectives"
            yield (f"    {who:<10} {describe_level(side, level)}: {len(walls)} decisions, "
                   f"{statistics.median(walls) * 1000:.0f} / {_quantile(walls, 0.9) * 1000:.0f} / "
                   f"{max(walls) * 1000:.0f} ms ({statistics.median(cpus) * 1000:.0f} / "
                   f"{_quantile(cpus, 0.9) * 1000:.0f} / {max(cpus) * 1000:.0f} ms CPU)")


# ---- the whole run -------------------------------------------------------------------------

def lines(games: int | None = None, jobs: int | None = None, seed: int = SEED,
          only: Sequence[tuple[str, str]] | None = None, times: int | None = None,
          yardstick: bool = True) -> Iterator[str]:
    """The table's lines, each as soon as it is known."""
    games = int(os.environ.get("BENCH_LEVELS_GAMES", GAMES)) if games is None else games
    jobs = jobs or int(os.environ.get("BENCH_LEVELS_JOBS", 2))
    times = int(os.environ.get("BENCH_LEVELS_TIME_GAMES", TIME_GAMES)) if times is None else times
    if games:
        yield (f"levels: Mr. X's win rate, {games} seeded games a pair (seed {seed}), classic rules, 5 detectives, "
               f"--jobs {jobs}; Wilson 95% intervals")
        for side in ("mrx", "detectives"):
            for level in LEVELS:
                yield f"  {'Mr. X' if side == 'mrx' else 'detectives'} {describe_level(side, level)}"
        results: dict[tuple[str, str], Matchup] = {}
        for x, d in only or pairs(yardstick):
            results[x, d] = m = play(x, d, games, jobs, seed)
            ends = ", ".join(f"{k} {v}" for k, v in sorted(m.reasons.items()))
            yield (f"  {_short(x) + ' X':<8} vs {_short(d) + ' D':<8} {m.mrx_wins:4d}/{m.games:<4d} {_rate(m):<22} "
                   f"{m.rounds_mean:4.1f} rounds  {m.cpu_per_game:5.1f} s CPU/game  ({ends})")
        yield from ordering(results)
    if times:
        yield from decision_times(times, seed)


def run() -> list[str]:
    """``make bench``'s short run, the levels only (``BENCH_LEVELS_GAMES``, ``BENCH_LEVELS_JOBS``,
    ``BENCH_LEVELS_TIME_GAMES``: 4 games a pair, 2 processes, 1 timed game a level)."""
    return list(lines(yardstick=False))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.levels", description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=None, help=f"games a pair (default {GAMES}; 0: none)")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default 2)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--only", action="append", metavar="X:D",
                    help=f"just this pair (repeatable): levels or {YARDSTICK}, Mr. X's first, e.g. hard:normal")
    ap.add_argument("--no-yardstick", action="store_true", help=f"leave out the pairs with {YARDSTICK}")
    ap.add_argument("--times", type=int, default=0, metavar="GAMES",
                    help="also time each level's decisions over GAMES games (default 0: no)")
    a = ap.parse_args(argv)
    only = None
    if a.only:
        only = [tuple(p if p == YARDSTICK else LEVEL_POLICY_PREFIX + p for p in pair.split(":", 1)) for pair in a.only]
    t = time.perf_counter()
    for line in lines(a.games, a.jobs, a.seed, only, a.times, not a.no_yardstick):  # type: ignore[arg-type]
        print(line, flush=True)
    print(f"  ({time.perf_counter() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
