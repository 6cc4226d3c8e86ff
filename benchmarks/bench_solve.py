"""solve: forced win in N = 1, 2, 3 on positions cut from seeded random classic games just after
a reveal (the detectives to move), and how often a forced win in 2 exists that no
``cordon --moves 2`` plan seals (the closed-loop gain)."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from sy_tools.board import stations_of
from sy_tools.cordon import cordon_inputs
from sy_tools.cordon import solve as cordon_solve
from sy_tools.record import Record, parse_record
from sy_tools.rules import PRESETS
from sy_tools.simulate import detectives_view, random_game
from sy_tools.solve import record_position, solve
from sy_tools.validate import load_board

NEAR_REVEAL = {3, 4, 8, 9, 13, 14, 18, 19}
LIMITS = {1: 2.0, 2: 2.0, 3: 1.5}  # seconds per solve


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
                pos, _, _ = record_position(rec)
            except Exception:
                break
            if pos.turn != 0:
                out.append(rec)
                break
    return out


def run() -> list[str]:
    recs = positions()
    sizes = [record_position(r)[1].bit_count() for r in recs]
    lines = [f"solve: {len(recs)} positions near a reveal, 5 detectives, median |S| {statistics.median(sizes):.0f} "
             f"(max {max(sizes)}); time limit per solve {LIMITS[1]:g}/{LIMITS[2]:g}/{LIMITS[3]:g} s"]
    results: dict[int, list[Any]] = {}
    for n in (1, 2, 3):
        ts, res = [], []
        for rec in recs:
            pos, S, _ = record_position(rec)
            t = time.perf_counter()
            r = solve(pos, S, n, time_limit=LIMITS[n])
            ts.append(time.perf_counter() - t)
            res.append(r)
        results[n] = res
        proved = sum(r.status == "proved" for r in res)
        wins = sum(bool(r.forced) for r in res)
        lines.append(f"  N={n}: median {statistics.median(ts) * 1000:7.1f} ms, worst {max(ts) * 1000:7.1f} ms, "
                     f"proved {proved}/{len(recs)}, forced wins {wins}")
    # closed-loop gain: a forced win within 2 turns that no open-loop cordon plan (1 or 2 turns) seals
    gain, cordon_only, example = 0, 0, None
    for rec, r in zip(recs, results[2]):
        inp = cordon_inputs(rec)
        sealed = any(cordon_solve(inp.board, inp.weights, inp.mrx_tickets, inp.detectives, k, 5.0, None, inp.context,
                                  inp.tickets_to_mrx).feasible for k in (1, 2))
        if r.forced and not sealed:
            gain += 1
            if example is None or (r.turns or 0) > (example[1].turns or 0):
                example = (rec, r)
        if sealed and r.forced is False:
            cordon_only += 1
    exactly2 = sum(r.turns == 2 for r in results[2])
    lines.append(f"  forced win within 2 turns: {sum(bool(r.forced) for r in results[2])} ({exactly2} need both turns); "
                 f"of them no cordon --moves 1 or 2 plan seals: {gain}")
    lines.append(f"  cordon seals but no forced win in 2: {cordon_only}")
    if example is not None:
        rec, r = example
        lines.append(f"  e.g. Mr. X at {' '.join(map(str, stations_of(r.possible)))}, win in {r.turns}, first move: "
                     + ", ".join(f"{m.piece} -> {m.to}" for m in r.first_moves))
    return lines


if __name__ == "__main__":
    t0 = time.perf_counter()
    for line in run():
        print(line, flush=True)
    print(f"  ({time.perf_counter() - t0:.1f} s)")
