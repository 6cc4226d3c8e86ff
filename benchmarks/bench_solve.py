"""solve: forced win in N = 1, 2, 3 on positions cut from seeded random classic games just after
a reveal (the detectives to move) and on puzzles closing in on a shown Mr. X, N = 4 on those
positions with at most ``NEAR`` possible stations (issue 26's goals: N = 3 proved within 2 s,
N = 4 near a reveal within 10 s), and how often a forced win in 2 exists that no
``cordon --moves 2`` plan seals (the closed-loop gain)."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from sy_tools.engine.rules import PRESETS
from sy_tools.engine.stations import stations_of
from sy_tools.engine.tickets import DETECTIVE_TICKETS
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.map_load import load_board
from sy_tools.formats.record import Record
from sy_tools.selfplay.generate import detectives_view, random_game
from sy_tools.solvers.cordon import cordon_inputs, cordon_puzzle
from sy_tools.solvers.cordon_model import solve_cordon
from sy_tools.solvers.forced import solve, solve_inputs, solve_puzzle

NEAR_REVEAL = {3, 4, 8, 9, 13, 14, 18, 19}
LIMITS = {1: 2.0, 2: 2.0, 3: 2.0, 4: 10.0}  # seconds per solve
NEAR = 12  # N = 4: positions with at most this many possible stations


def positions(n: int = 20, seed: int = 13) -> list[Record]:
    """Records cut just after Mr. X's move near a reveal, five detectives (or fewer if some are
    stuck), the detectives to move."""
    board = load_board("london")
    rules = PRESETS["classic"]
    rng = random.Random(seed)
    out: list[Record] = []
    while len(out) < n:
        doc = detectives_view(random_game(board, rules, random.Random(rng.getrandbits(32)), n_detectives=5), rules)
        moves = 0
        for cut, rnd in enumerate(doc["rounds"]):
            moves += len(rnd["mrx"])
            if moves not in NEAR_REVEAL or rng.random() < 0.5:
                continue
            rec = parse_record(dict(doc, rounds=doc["rounds"][:cut] + [{"mrx": rnd["mrx"], "detectives": []}]))
            try:
                pos, _, _ = solve_inputs(rec)
            except Exception:
                break
            if pos.turn != 0:
                out.append(rec)
                break
    return out


def closing_in(n: int = 15, seed: int = 21) -> list[tuple[list[int], list[tuple[str, int]]]]:
    """Puzzles: Mr. X shown at a station (move 3 just made, classic tickets), five detectives two
    or three hops away."""
    board = load_board("london")
    rng = random.Random(seed)
    out: list[tuple[list[int], list[tuple[str, int]]]] = []
    while len(out) < n:
        x = rng.choice(board.stations)
        one = board.step_any(1 << x, DETECTIVE_TICKETS) | 1 << x
        two = board.step_any(one, DETECTIVE_TICKETS) | one
        three = board.step_any(two, DETECTIVE_TICKETS) & ~one
        ring = stations_of(three)
        if len(ring) >= 5:
            out.append(([x], list(zip(("Red", "Blue", "Green", "Yellow", "Black"), rng.sample(ring, 5)))))
    return out


def run() -> list[str]:
    recs = positions()
    sizes = [solve_inputs(r)[1].bit_count() for r in recs]
    lines = [f"solve: {len(recs)} positions near a reveal, 5 detectives, median |S| {statistics.median(sizes):.0f} "
             f"(max {max(sizes)}); time limit per solve " + "/".join(f"{LIMITS[n]:g}" for n in LIMITS) + " s (N=1..4)"]
    results: dict[int, list[Any]] = {}
    for n in (1, 2, 3, 4):
        ts, res = [], []
        for rec, size in zip(recs, sizes):
            if n == 4 and size > NEAR:
                continue
            pos, S, _ = solve_inputs(rec)
            t = time.perf_counter()
            r = solve(pos, S, n, time_limit=LIMITS[n])
            ts.append(time.perf_counter() - t)
            res.append(r)
        results[n] = res
        proved = sum(r.status == "proved" for r in res)
        wins = sum(bool(r.forced) for r in res)
        which = f" (|S| <= {NEAR})" if n == 4 else ""
        lines.append(f"  N={n}: median {statistics.median(ts) * 1000:7.1f} ms, worst {max(ts) * 1000:7.1f} ms, "
                     f"proved {proved}/{len(res)}{which}, forced wins {wins}, nodes {sum(r.nodes for r in res)}")
    board = load_board("london")
    puzzles = closing_in()
    wins2: list[Any] = []
    lines.append(f"  {len(puzzles)} puzzles: Mr. X just shown, five detectives 2-3 hops away")
    for n in (1, 2, 3, 4):
        ts, res = [], []
        for around, dets in puzzles:
            t = time.perf_counter()
            res.append(solve_puzzle(board, around, dets, move_number=3, turns=n, time_limit=LIMITS[n]))
            ts.append(time.perf_counter() - t)
        if n == 2:
            wins2 = res
        counts = ", ".join(f"{k}: {sum(r.turns == k for r in res)}" for k in range(1, n + 1))
        lines.append(f"  N={n}: median {statistics.median(ts) * 1000:7.1f} ms, worst {max(ts) * 1000:7.1f} ms, "
                     f"proved {sum(r.status == 'proved' for r in res)}/{len(res)}, forced wins in {counts}, "
                     f"nodes {sum(r.nodes for r in res)}")
    # closed-loop gain: a forced win within 2 turns that no open-loop cordon plan (1 or 2 turns) seals
    gain, cordon_only, example = 0, 0, None
    cases = [(r, _cordon_seals_record(rec)) for rec, r in zip(recs, results[2])]
    cases += [(r, _cordon_seals_puzzle(board, around, dets)) for (around, dets), r in zip(puzzles, wins2)]
    for r, sealed in cases:
        if r.forced and not sealed:
            gain += 1
            if example is None or (r.turns or 0) > (example.turns or 0):
                example = r
        cordon_only += sealed and r.forced is False
    lines.append(f"  forced win within 2 turns: {sum(bool(r.forced) for r, _ in cases)} of {len(cases)}; "
                 f"no cordon --moves 1 or 2 plan seals {gain} of them; cordon seals {cordon_only} where solve proves "
                 "no win (should be 0: a sealing plan is a forced win)")
    if example is not None:
        lines.append(f"  e.g. Mr. X at {' '.join(map(str, stations_of(example.possible)))}, detectives "
                     + ",".join(f"{n}={s}" for n, s in example.start.items())
                     + f": win in {example.turns}, first " + ", ".join(f"{m.piece} -> {m.to}" for m in example.first_moves))
    return lines


def _cordon_seals_record(rec: Record) -> bool:
    inp = cordon_inputs(rec)
    return any(solve_cordon(inp.board, inp.weights, inp.mrx_tickets, inp.detectives, k, 5.0, None, inp.context,
                            inp.tickets_to_mrx).feasible for k in (1, 2))


def _cordon_seals_puzzle(board: Any, around: list[int], dets: list[tuple[str, int]]) -> bool:
    return any(bool(cordon_puzzle(board, around, dets, moves=k, time_limit=5.0).feasible) for k in (1, 2))


if __name__ == "__main__":
    t0 = time.perf_counter()
    for line in run():
        print(line, flush=True)
    print(f"  ({time.perf_counter() - t0:.1f} s)")
