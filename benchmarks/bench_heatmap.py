"""heatmap: one London heatmap end to end (a fresh process, as a user runs it), the share of it
that is importing matplotlib, and a plain networkx.draw of the same board as the baseline; the
coverage layer's reach with ticket limits against a plain (station, tickets left) breadth-first
search; the history route drawn for records of growing length (it must stay near-linear)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "in-progress.json"

IMPORT = "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot"
BASELINE = """
import sys, matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt, networkx as nx
from sy_tools.formats.record_io import load_record
from sy_tools.analysis.possible import possible
rec = load_record(sys.argv[1])
p = possible(rec)
g = rec.board.to_networkx()
pos = {s: (x, -y) for s, (x, y) in rec.board.coords.items()}
fig = plt.figure(figsize=(16, 12), dpi=100)
nx.draw_networkx(g, pos, node_color=[p.probabilities.get(s, 0) for s in g.nodes], cmap='BuPu',
                 node_size=170, font_size=5)
fig.savefig(sys.argv[2])
"""


def _run(args: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - t


def _plain_reach(board, start, tickets):
    """The baseline: breadth-first search over every (station, tickets left) state."""
    from collections import deque

    from sy_tools.engine.tickets import DETECTIVE_TICKETS

    kinds = list(DETECTIVE_TICKETS)
    first = (start, tuple(tickets.get(t.value, 0) for t in kinds))
    seen = {first}
    dist = {start: 0}
    todo = deque([(first, 0)])
    while todo:
        (s, left), n = todo.popleft()
        for i, t in enumerate(kinds):
            if left[i] > 0:
                for d in board.destinations(s, t):
                    state = (d, left[:i] + (left[i] - 1,) + left[i + 1:])
                    if state not in seen:
                        seen.add(state)
                        dist.setdefault(d, n + 1)
                        todo.append((state, n + 1))
    return dist


def _coverage_lines() -> list[str]:
    from sy_tools.analysis.reach import reach
    from sy_tools.formats.record_io import load_record

    rec = load_record(GAME)
    full = {"taxi": 10, "bus": 8, "underground": 4}
    starts = [d.start for d in rec.detectives]
    t = time.perf_counter()
    ours = [reach(rec.board, s, full) for s in starts]
    t_ours = time.perf_counter() - t
    t = time.perf_counter()
    plain = [_plain_reach(rec.board, s, full) for s in starts]
    t_plain = time.perf_counter() - t
    assert ours == plain
    return [f"coverage at round 0 ({len(starts)} detectives, 10/8/4 tickets each): reach {t_ours:.3f} s, plain "
            f"(station, tickets) BFS {t_plain:.2f} s, ratio {t_plain / t_ours:.0f}x (same answers)"]


def _long_record(moves: int):
    import random

    from sy_tools.engine.rules import rules_from_json
    from sy_tools.formats.game_json import parse_record
    from sy_tools.formats.map_load import load_board
    from sy_tools.selfplay.generate import detectives_view, random_game

    board = load_board("london")
    spec = {"preset": "classic", "log_length": moves, "reveal_moves": list(range(3, moves + 1, 5)),
            "detective_tickets": {"taxi": moves, "bus": moves, "underground": moves},
            "mrx_tickets": {"taxi": moves, "bus": moves, "underground": moves, "black": moves // 4, "double": 2}}
    rules = rules_from_json(spec)
    doc = random_game(board, rules, random.Random(7), n_detectives=2, hunt_chance=0.0)
    doc["rules"] = spec
    return parse_record(detectives_view(doc, rules))


def _history_lines() -> list[str]:
    import io

    from sy_tools import plot
    from sy_tools.analysis.route import likely_route

    out = []
    for moves in (100, 400):
        rec = _long_record(moves)
        t = time.perf_counter()
        likely_route(rec)
        t_route = time.perf_counter() - t
        t = time.perf_counter()
        fig = plot.history_figure(rec, size=(16, 12), dpi=50)
        fig.savefig(io.BytesIO(), format="png")
        t_fig = time.perf_counter() - t
        n = rec.n_moves
        out.append(f"history route, {n} Mr. X moves: route {t_route * 1000:.0f} ms, whole picture {t_fig:.2f} s "
                   f"({t_fig / n * 1000:.1f} ms a move)")
    return out


def run(repeat: int = 5) -> list[str]:
    py = sys.executable
    cli = str(Path(py).with_name("sy-tools"))
    with tempfile.TemporaryDirectory() as d:
        out = str(Path(d) / "h.png")
        t_python = statistics.median(_run([py, "-c", "pass"]) for _ in range(repeat))
        t_import = statistics.median(_run([py, "-c", IMPORT]) for _ in range(repeat))
        t_cli = statistics.median(_run([cli, "heatmap", str(GAME), "-o", out]) for _ in range(repeat))
        t_base = statistics.median(_run([py, "-c", BASELINE, str(GAME), out]) for _ in range(repeat))
    share = (t_import - t_python) / (t_cli - t_python)
    return [
        "heatmap: `sy-tools heatmap examples/in-progress.json` (possible layer, 1600x1200 PNG), fresh process, "
        f"median of {repeat}",
        f"  sy-tools heatmap total             {t_cli:6.2f} s",
        f"  of which importing matplotlib      {t_import - t_python:6.2f} s  ({share:.0%} of the work after "
        "Python starts)",
        f"  baseline networkx.draw of the same {t_base:6.2f} s   ratio {t_base / t_cli:.2f}x (sy-tools draws "
        "transports, pawns, legend, colour bar)",
        *_coverage_lines(),
        *_history_lines(),
    ]
