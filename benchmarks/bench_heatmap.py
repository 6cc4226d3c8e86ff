"""heatmap: one London heatmap end to end (a fresh process, as a user runs it), the share of it
that is importing matplotlib, and a plain networkx.draw of the same board as the baseline."""

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
from sy_tools.record import load_record
from sy_tools.tracker import possible
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
    ]
