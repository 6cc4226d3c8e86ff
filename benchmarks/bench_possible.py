"""`possible` on 2,000 random legal records: sy-tools' bitset filter vs a plain baseline
(Python sets walking a networkx graph move by move, as most public trackers do), in-process and
as a user runs it: whole processes over the same 2,000 files."""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx

from sy_tools.analysis.possible import possible
from sy_tools.analysis.tracker import possible_mask
from sy_tools.formats.record import Record

from .common import best_of, corpus

ALLOWED = {"taxi": {"taxi"}, "bus": {"bus"}, "underground": {"underground"},
           "black": {"taxi", "bus", "underground", "ferry"}}


def baseline(record: Record, g: nx.MultiGraph) -> set[int]:
    """The plain way: a Python set of stations, neighbours looked up in networkx."""
    pos = {d.name: d.start for d in record.detectives}
    S = set(record.start_candidates) - set(pos.values())
    n = 0
    for rnd in record.rounds:
        occupied = set(pos.values())
        for m in rnd.mrx:
            n += 1
            ok = ALLOWED[m.ticket.value]
            nxt = set()
            for s in S:
                for _, v, d in g.edges(s, data=True):
                    if d["transport"] in ok:
                        nxt.add(v)
            S = nxt - occupied
            if record.rules.is_reveal(n):
                S &= {m.to}
        for dm in rnd.detectives:
            pos[dm.name] = dm.to
            if dm.capture:
                S &= {dm.to}
                break
            S.discard(dm.to)
    return S


ROOT = Path(__file__).resolve().parent.parent


def write_corpus(folder: Path, n: int, seed: int = 2026) -> list[str]:
    """``n`` random legal classic records as the detectives saw them, one game.json each."""
    from sy_tools.engine.rules import PRESETS
    from sy_tools.formats.map_load import load_board
    from sy_tools.selfplay.generate import detectives_view, random_game

    board, rules = load_board("london"), PRESETS["classic"]
    rng = random.Random(seed)
    paths = []
    for i in range(n):
        doc = detectives_view(random_game(board, rules, random.Random(rng.getrandbits(32))), rules)
        p = folder / f"game{i:05d}.json"
        p.write_text(json.dumps(doc))
        paths.append(str(p))
    return paths


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its workers, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"{cmd[:3]} failed: {out.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def run_process(n: int = 2000, repeat: int = 5) -> list[str]:
    """``sy-tools possible *.json --format jsonl --weights uniform`` against the plain tracker
    script (:mod:`benchmarks.plain_tracker`), each a fresh process.  ``repeat`` rounds, each
    running the three commands back to back; both may cache their bytecode (as an installed
    program does).  The ratios: best time against best time, and the median (and range) of
    the rounds' own ratios, which a shared machine's slow and fast spells (minutes long; the
    plain script's time swings by half) move far less."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    script = Path(sys.executable).with_name("sy-tools")
    sy = [str(script)] if script.exists() else [sys.executable, "-m", "sy_tools"]
    with tempfile.TemporaryDirectory(prefix="sy-bench-") as tmp:
        files = write_corpus(Path(tmp), n)
        cmds = {
            "plain": [sys.executable, "-m", "benchmarks.plain_tracker", *files],
            "jobs1": [*sy, "possible", *files, "--format", "jsonl", "--weights", "uniform", "--jobs", "1"],
            "jobs2": [*sy, "possible", *files, "--format", "jsonl", "--weights", "uniform"],
        }
        outs = {k: _timed(c, env)[2] for k, c in cmds.items()}  # warm-up (bytecode), and same answers
        plain = [json.loads(line)["stations"] for line in outs["plain"].splitlines()]
        for k in ("jobs1", "jobs2"):
            assert [json.loads(line)["stations"] for line in outs[k].splitlines()] == plain, k
        load = os.getloadavg()[0]  # the machine may be shared: say how busy it was
        runs: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
        for _ in range(repeat):
            for k, c in cmds.items():
                wall, cpu, _ = _timed(c, env)
                runs[k].append((wall, cpu))
    best = {k: (min(w for w, _ in v), min(c for _, c in v)) for k, v in runs.items()}
    (pw, pc), (w1, c1), (w2, c2) = best["plain"], best["jobs1"], best["jobs2"]

    def per_round(k: str) -> str:
        ratios = sorted(p[0] / r[0] for p, r in zip(runs["plain"], runs[k]))
        return f"per round: median {statistics.median(ratios):4.1f}x ({ratios[0]:.1f}-{ratios[-1]:.1f}x)"

    return [
        f"possible as processes: {n} record files, --format jsonl --weights uniform ({repeat} rounds; "
        f"load average {load:.1f} -> {os.getloadavg()[0]:.1f})",
        f"  plain tracker script (json + sets over networkx)  best {pw:5.2f} s wall  {pc:5.2f} s CPU",
        f"  sy-tools possible --jobs 1 (one process)          best {w1:5.2f} s wall  {c1:5.2f} s CPU"
        f"   ratio {pw / w1:4.1f}x wall, {pc / c1:4.1f}x CPU; {per_round('jobs1')}",
        f"  sy-tools possible (as typed: every core)          best {w2:5.2f} s wall  {c2:5.2f} s CPU"
        f"   ratio {pw / w2:4.1f}x wall; {per_round('jobs2')}",
    ]


def run(n: int = 2000) -> list[str]:
    records = corpus(n)
    g = records[0].board.to_networkx()
    # same answers first
    for r in records:
        from sy_tools.engine.stations import stations_of

        assert set(stations_of(possible_mask(r))) == baseline(r, g)
    moves = sum(r.n_moves for r in records)
    t_base = best_of(lambda: [baseline(r, g) for r in records])
    t_mask = best_of(lambda: [possible_mask(r) for r in records])
    t_full = best_of(lambda: [possible(r) for r in records], repeat=2)
    t_hist = best_of(lambda: [possible(r, history=True) for r in records], repeat=1)
    rate = lambda t: n / t  # noqa: E731
    return [
        f"possible: {n} random legal records, {moves / n:.1f} Mr. X moves each on average",
        f"  baseline (sets over networkx)      {rate(t_base):>9.0f} records/s",
        f"  sy-tools possible set (bitsets)    {rate(t_mask):>9.0f} records/s   ratio {t_base / t_mask:5.1f}x",
        f"  sy-tools + path probabilities      {rate(t_full):>9.0f} records/s   ratio {t_base / t_full:5.1f}x",
        f"  sy-tools + history (fwd-bwd)       {rate(t_hist):>9.0f} records/s   ratio {t_base / t_hist:5.1f}x",
        f"  per record: {1e6 * t_mask / n:.0f} us (set), {1e6 * t_full / n:.0f} us (with probabilities)",
        "",
        *run_process(n),
    ]
