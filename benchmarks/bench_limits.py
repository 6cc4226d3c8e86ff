"""limits: how much memory a large generated map takes to load (``python -m benchmarks limits``).

A ring of ``N`` stations with taxi to the next, a bus every 7 and an underground every 50 (a
map ``sy-tools validate`` accepts), written as canonical JSON to a temporary file and loaded by
``sy-tools validate`` in a fresh process (so the figure is one process's peak memory, the
interpreter and its imports included); a 199-station map loaded the same way is the baseline.

    python -m benchmarks limits               # 100,000 stations
    python -m benchmarks.bench_limits 20000   # another size
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator

STATIONS = 100_000


def ring_map(n: int) -> dict[str, object]:
    """The generated map of ``n`` stations (canonical JSON)."""
    stations = [{"id": i, "x": i % 1000, "y": i // 1000} for i in range(1, n + 1)]
    conns = [{"a": i, "b": i % n + 1, "transport": "taxi"} for i in range(1, n + 1)]
    conns += [{"a": i, "b": (i + 6) % n + 1, "transport": "bus"} for i in range(1, n + 1, 7)]
    conns += [{"a": i, "b": (i + 49) % n + 1, "transport": "underground"} for i in range(1, n + 1, 50)]
    return {"name": f"ring-{n}", "stations": stations, "connections": conns}


def peak_mb(path: str) -> tuple[float, str]:
    """``sy-tools validate PATH``'s peak memory in a fresh process (MB) and its report line."""
    code = ("import resource, sys; from sy_tools.cli import main\n"
            "try:\n    main(['validate', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=False)
    return int(r.stderr.strip().splitlines()[-1]) / 1024, r.stdout.strip()


def run(stations: int = STATIONS) -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "small.json")
        big = os.path.join(tmp, "big.json")
        with open(small, "w") as f:
            json.dump(ring_map(199), f)
        with open(big, "w") as f:
            json.dump(ring_map(stations), f)
        base, _ = peak_mb(small)
        peak, line = peak_mb(big)
        yield f"limits: a generated {stations:,}-station map loaded by sy-tools validate (fresh process, peak RSS)"
        yield f"  199 stations {base:.0f} MB; {stations:,} stations {peak:.0f} MB ({line.split(': ', 1)[-1]})"


if __name__ == "__main__":
    for out in run(int(sys.argv[1]) if len(sys.argv) > 1 else STATIONS):
        print(out)
