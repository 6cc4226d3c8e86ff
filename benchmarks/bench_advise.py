"""advise: self-play strength, measured (docs/benchmarks.md, "advise").

A small self-contained self-play loop on :class:`~sy_tools.position.Position` (``sy-tools
simulate`` will replace it): classic rules, five detectives and Mr. X dealt from the classic
start deck, the detectives' possible set kept move by move with the engine's ``mrx_targets``.
Each game has its own seeded stream, so a run is reproducible; the advise detectives weigh a fixed
number of joint moves (``CANDIDATES``), not a time budget, so results do not depend on the
machine's load.

Pairs (the same seeds for every pair):

* detectives: ``advise`` vs ``greedy`` (step towards the possible set), each facing ``random``,
  ``greedy`` and ``advise`` Mr. X;
* Mr. X: ``advise`` vs ``greedy`` vs ``random``, each facing ``greedy`` and ``advise``
  detectives.

Win rates with Wilson 95% intervals.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable
from typing import Any

from sy_tools.analysis.distances import distances
from sy_tools.engine.board import Board
from sy_tools.engine.hops import mrx_targets
from sy_tools.engine.moves import Move
from sy_tools.engine.observations import DetectiveObservation, MrXObservation
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS, Rules
from sy_tools.engine.stations import Station, mask_of, stations_of
from sy_tools.engine.tickets import Ticket
from sy_tools.formats.map_load import load_board
from sy_tools.selfplay.policies import detective_policy, mrx_policy
from sy_tools.solvers.beam import SMALL_SET, SMALL_SET_WIDTH

#: games per pair in ``make bench`` (keep it short: the lead re-runs it through ``simulate``)
GAMES = 60
#: joint moves the advise detectives weigh per round in the benchmark
CANDIDATES = 27
NAMES = ("Red", "Blue", "Green", "Yellow", "Black")

Policy = Callable[[Any, random.Random], Move]


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` out of ``n`` (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def random_mrx(obs: MrXObservation, rng: random.Random) -> Move:
    moves = obs.legal_moves
    return moves[rng.randrange(len(moves))]


def greedy_mrx(obs: MrXObservation, rng: random.Random) -> Move:
    """Keep the nearest detective as far away as possible (counted up to 3 hops), then the
    largest possible set for the detectives; single moves only, unless a detective is next to
    him; ties at random."""
    pos = obs.position
    dist = distances(pos.board, 99)
    assert pos.mrx_at is not None
    near_now = min(dist[pos.mrx_at][s] for s in pos.stations)
    moves = [m for m in obs.legal_moves if near_now <= 1 or not m.is_double] or list(obs.legal_moves)
    best: list[Move] = []
    best_v: tuple[int, int] | None = None
    for m in moves:
        if m.is_pass:
            return m
        row = dist[m.to or 0]
        near = min(min(row[s] for s in pos.stations), 3)
        p = obs.possible
        for t in m.tickets:
            p = mrx_targets(pos.board, p, t, pos.occupied)
        v = (near, p.bit_count())
        if best_v is None or v > best_v:
            best, best_v = [m], v
        elif v == best_v:
            best.append(m)
    return best[rng.randrange(len(best))]


def greedy_detective(obs: DetectiveObservation, rng: random.Random) -> Move:
    """The move whose destination has the smallest mean distance to the possible stations;
    ties at random."""
    dist = distances(obs.board, 99)
    poss = stations_of(obs.possible)
    best: list[Move] = []
    best_v = math.inf
    for m in obs.legal_moves:
        row = dist[m.to or 0]
        v = sum(row[p] for p in poss) / max(len(poss), 1)
        if v < best_v:
            best, best_v = [m], v
        elif v == best_v:
            best.append(m)
    return best[rng.randrange(len(best))]


def advise_detective(obs: DetectiveObservation, rng: random.Random) -> Move:
    obs.memo.setdefault("advise_candidates", CANDIDATES)
    obs.memo.setdefault("advise_time_limit", 60.0)
    return detective_policy(obs, rng)


def advise_mrx(obs: MrXObservation, rng: random.Random) -> Move:
    return mrx_policy(obs, rng)


def play_game(board: Board, rules: Rules, seed: int, mrx: Policy, det: Policy) -> tuple[str, int, float]:
    """One game; returns the winner (``"detectives"`` or ``"mrx"``), the rounds played and the
    longest detective decision (seconds)."""
    rng = random.Random(seed)
    deck = list(board.start_decks["classic"])
    starts = rng.sample(deck, 6)
    pos = Position.start(board, rules, list(zip(NAMES, starts[:5])), mrx_at=starts[5])
    possible = mask_of(s for s in deck if s not in starts[:5])
    memo_x: dict[str, Any] = {}
    memo_d: dict[str, Any] = {}
    shown: list[Ticket] = []
    reveals: dict[int, Station] = {}
    slowest = 0.0
    while pos.ended is None:
        if pos.turn == 0:
            if not pos.legal_moves:
                pos = pos.declare_trapped(pos.mrx_at)
                break
            move = mrx(MrXObservation(pos, possible, memo_x), rng)
            assert pos.is_legal(move), (move, pos)
            occ = pos.occupied
            for leg, (t, to) in enumerate(zip(move.tickets, move.stations), pos.move + 1):
                shown.append(t)
                possible = mrx_targets(board, possible, t, occ)
                if rules.is_reveal(leg) and to is not None:
                    reveals[leg] = to
                    possible = 1 << to
        else:
            obs = DetectiveObservation.of(pos, possible, shown, reveals, memo=memo_d)
            t0 = time.perf_counter()
            move = det(obs, rng)
            slowest = max(slowest, time.perf_counter() - t0)
            assert pos.is_legal(move), (move, pos)
        pos = pos.push(move)
        if move.piece != "Mr. X" and move.to is not None:
            possible &= ~(1 << move.to)
    winner = pos.ended.winner
    assert winner is not None
    return winner, pos.round, slowest


def series(mrx: Policy, det: Policy, n: int, seed: int = 2026) -> tuple[int, int, float, float]:
    """``n`` games: (detectives' wins, games, mean rounds, slowest detective decision)."""
    board = load_board("london")
    rules = PRESETS["classic"]
    wins = rounds = 0
    slowest = 0.0
    for i in range(n):
        w, r, s = play_game(board, rules, seed * 100_003 + i, mrx, det)
        wins += w == "detectives"
        rounds += r
        slowest = max(slowest, s)
    return wins, n, rounds / n, slowest


def _line(label: str, wins: int, n: int, rounds: float, extra: str = "") -> str:
    lo, hi = wilson(wins, n)
    return f"  {label:<38} {wins:4d}/{n} = {wins / n:5.1%}  [{lo:5.1%}, {hi:5.1%}]  mean {rounds:4.1f} rounds{extra}"


def run(games: int | None = None) -> list[str]:
    """The comparisons (``BENCH_ADVISE_GAMES`` sets the games per pair)."""
    games = games or int(os.environ.get("BENCH_ADVISE_GAMES", GAMES))
    lines = [f"advise: {games} seeded games per pair, classic rules, 5 detectives; advise detectives weigh "
             f"{CANDIDATES} joint moves per round ({SMALL_SET_WIDTH} times as many where his possible set has at most "
             f"{SMALL_SET} stations; depth 2); Wilson 95% intervals"]
    cache: dict[tuple[str, str], tuple[int, int, float, float, float]] = {}
    mrxs: dict[str, Policy] = {"random": random_mrx, "greedy": greedy_mrx, "advise": advise_mrx}
    dets: dict[str, Policy] = {"greedy": greedy_detective, "advise": advise_detective}

    def get(x: str, d: str) -> tuple[int, int, float, float, float]:
        if (x, d) not in cache:
            t = time.process_time()
            w, n, r, slow = series(mrxs[x], dets[d], games)
            cache[x, d] = (w, n, r, slow, (time.process_time() - t) / n)
        return cache[x, d]

    lines.append(" detectives (win rate), same Mr. X and seeds:")
    for x in ("random", "greedy", "advise"):
        for d in ("advise", "greedy"):
            w, n, r, slow, cpu = get(x, d)
            extra = f"; {cpu:.2f} s CPU/game, slowest decision {slow * 1000:.0f} ms" if d == "advise" else ""
            lines.append(_line(f"{d} detectives vs {x} Mr. X", w, n, r, extra))
    lines.append(" Mr. X (survival rate), same detectives and seeds:")
    for d in ("greedy", "advise"):
        for x in ("advise", "greedy", "random"):
            w, n, r, _, _ = get(x, d)
            lines.append(_line(f"{x} Mr. X vs {d} detectives", n - w, n, r))
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
