"""`simulate`: random-vs-random games per second on the Position engine vs a plain Python-sets
simulator of the same classic rules (same per-game seeding, same uniform choice among legal
moves, double moves and black tickets included), one and two processes; greedy-vs-greedy."""

from __future__ import annotations

import os
import resource
import time

from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import Ticket
from sy_tools.formats.map_load import load_board
from sy_tools.selfplay.game import GameSpec, game_rng
from sy_tools.selfplay.runner import simulate

MRX_KINDS = ("taxi", "bus", "underground", "black")
DET_KINDS = ("taxi", "bus", "underground")


class Plain:
    """The plain way: adjacency as Python sets per ticket, tickets in dicts, every legal move
    listed and one picked uniformly (``int(random() * n)``, as the engine's random players)."""

    def __init__(self) -> None:
        board = load_board("london")
        self.adj = {t.value: {s: set(board.destinations(s, t)) for s in board.stations} for t in Ticket}
        self.deck = list(board.start_decks["classic"])
        self.rules = PRESETS["classic"]

    def mrx_moves(self, at: int, xt: dict[str, int], occ: set[int], doubles_ok: bool) -> list[tuple]:
        singles = [((t,), (d,)) for t in MRX_KINDS if xt[t] for d in sorted(self.adj[t][at]) if d not in occ]
        out = list(singles)
        if singles and doubles_ok:
            for (t1,), (d1,) in singles:
                for t2 in MRX_KINDS:
                    if xt[t2] - (t2 == t1) > 0:
                        out.extend(((t1, t2), (d1, d2)) for d2 in sorted(self.adj[t2][d1]) if d2 not in occ)
        return out

    def det_moves(self, i: int, st: list[int], tk: list[dict[str, int]]) -> list[tuple[str, int]]:
        occ = set(st) - {st[i]}
        return [(t, d) for t in DET_KINDS if tk[i][t] for d in sorted(self.adj[t][st[i]]) if d not in occ]

    def game(self, seed: int, index: int) -> tuple[str, int]:
        r = self.rules
        rng = game_rng(seed, index)
        rand = rng.random
        mrx = self.deck[int(rand() * len(self.deck))]
        st = rng.sample([s for s in self.deck if s != mrx], 5)
        tk = [dict(r.detective_tickets) for _ in st]
        xt = dict(r.mrx_start_tickets(5))
        out = [False] * 5
        move = rnd = doubles = 0
        while True:
            occ = set(st)
            ok2 = xt["double"] > 0 and doubles < r.double_moves_per_game and move + 2 <= r.log_length
            opts = self.mrx_moves(mrx, xt, occ, ok2) if move < r.log_length else []
            if not opts:
                return "trapped", rnd
            tks, dests = opts[int(rand() * len(opts))]
            for t in tks:
                xt[t] -= 1
            if len(tks) == 2:
                xt["double"] -= 1
                doubles += 1
            mrx = dests[-1]
            move += len(tks)
            rnd += 1
            for i in range(5):
                if out[i]:
                    continue
                o = self.det_moves(i, st, tk)
                if not o:  # blocked by the others it waits; with no ticket for a line from here it is out
                    out[i] = not any(tk[i][t] and self.adj[t][st[i]] for t in DET_KINDS)
                    continue
                t, d = o[int(rand() * len(o))]
                tk[i][t] -= 1
                xt[t] += 1
                st[i] = d
                if d == mrx:
                    return "capture", rnd
            if move >= r.log_length:
                return "log-full", rnd
            if all(out[i] or not self.det_moves(i, st, tk) for i in range(5)):
                return "detectives-stuck", rnd


def _rate(fn, n: int, clock=time.perf_counter) -> float:
    t = clock()
    fn(n)
    return n / (clock() - t)


def run(n: int = 4000) -> list[str]:
    plain = Plain()
    spec = GameSpec(seed=1)
    # same rules, same games: the plain simulator and the engine agree on every outcome
    eng = simulate(spec, 300, jobs=1).games
    assert [(g.reason, g.rounds) for g in eng] == [plain.game(1, i) for i in range(300)]

    def base_fn(k: int) -> None:
        for i in range(k):
            plain.game(1, i)

    def one_fn(k: int) -> None:
        simulate(spec, k, jobs=1, keep_rows=False)

    # per core: CPU seconds of this process (the machine is shared; wall time is given too)
    base_cpu = max(_rate(base_fn, n, time.process_time) for _ in range(2))
    one_cpu = max(_rate(one_fn, n, time.process_time) for _ in range(2))
    one = _rate(one_fn, n)
    # --jobs 2: wall clock, and the CPU the main process and both workers spent together (what
    # the speed-up on two free cores is bounded by, however busy the machine is now)
    two, cpu_two = 0.0, float("inf")
    for _ in range(2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu0 = time.process_time()
        two = max(two, _rate(lambda k: simulate(spec, k, jobs=2, keep_rows=False), 3 * n))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_two = min(cpu_two, time.process_time() - cpu0 + (after.ru_utime + after.ru_stime)
                      - (before.ru_utime + before.ru_stime))
    free_two = 2 * (3 * n / cpu_two)  # games/s with two free cores and the same CPU cost
    greedy = _rate(lambda k: simulate(GameSpec(mrx_policy="greedy", detective_policy="greedy", seed=1), k, jobs=1,
                                      keep_rows=False), 300, time.process_time)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    return [
        f"simulate: random vs random, classic rules, 5 detectives ({os.cpu_count()} cores here, "
        f"load average {load})",
        f"  baseline (Python sets), per CPU second   {base_cpu:>7.0f} games/s",
        f"  engine, per CPU second                   {one_cpu:>7.0f} games/s   {one_cpu / base_cpu:.2f}x baseline",
        f"  engine, --jobs 1, wall clock             {one:>7.0f} games/s",
        f"  engine, --jobs 2, wall clock             {two:>7.0f} games/s   {two / one:.2f}x --jobs 1 "
        "(wall clock: what the shared machine gave)",
        f"  engine, --jobs 2, CPU of main + workers  {3 * n / cpu_two:>7.0f} games/s   "
        f"{(one_cpu * cpu_two / (3 * n) - 1):.0%} more CPU than one process: {free_two / one_cpu:.2f}x on 2 free cores",
        f"  a million random games: {1e6 / two / 60:.1f} min at the --jobs 2 rate measured, "
        f"{1e6 / free_two / 60:.1f} min on 2 free cores",
        f"  greedy vs greedy, per CPU second         {greedy:>7.0f} games/s",
    ]
