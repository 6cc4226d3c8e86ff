"""Helpers for the hardening tests: run the real CLI in a child process under a memory cap and a
timeout, and write map files of every format."""

from __future__ import annotations

import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    code: int | None  # None: killed by the timeout
    stdout: str
    stderr: str
    seconds: float


def run_limited(args: list[str], timeout: float = 30, mem_mb: int = 1500, cwd: str | Path | None = None,
                env: dict[str, str] | None = None) -> Run:
    """``python -m sy_tools ARGS`` with its address space capped at ``mem_mb`` and killed after
    ``timeout`` seconds (``code`` None then)."""
    import time

    def cap() -> None:
        from helpers import default_signals

        default_signals()  # (the same child whatever signal handling this run inherited)
        limit = mem_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    t = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "sy_tools", *args], capture_output=True, text=True,
                           timeout=timeout, preexec_fn=cap, cwd=cwd, env=env)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        return Run(None, out, err, time.perf_counter() - t)
    return Run(p.returncode, p.stdout, p.stderr, time.perf_counter() - t)


def write_map(folder: Path, fmt: str, stations: list[int], conns: list[tuple[int, int, str]],
              coords: dict[int, tuple[str, str]] | None = None) -> Path:
    """A map file (or folder) in ``fmt`` (json, pair, bristol) with numbers written as given."""
    folder.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        st = []
        for s in stations:
            xy = coords.get(s) if coords else None
            st.append(f'{{"id": {s}' + (f', "x": {xy[0]}, "y": {xy[1]}' if xy else "") + "}")
        cn = [f'{{"a": {a}, "b": {b}, "transport": "{t}"}}' for a, b, t in conns]
        p = folder / "m.json"
        p.write_text('{"stations": [' + ", ".join(st) + '], "connections": [' + ", ".join(cn) + "]}")
        return p
    if fmt == "pair":
        xy = coords or {}
        (folder / "stations.txt").write_text(
            "".join(f"{s} {xy.get(s, ('0', str(i)))[0]} {xy.get(s, ('0', str(i)))[1]}\n"
                    for i, s in enumerate(stations)))
        names = {"ferry": "water"}
        (folder / "connections.txt").write_text("".join(f"{a} {b} {names.get(t, t)}\n" for a, b, t in conns))
        return folder
    p = folder / "graph.txt"
    p.write_text(f"{len(stations)} {len(conns)}\n" + "".join(f"{s}\n" for s in stations)
                 + "".join(f"{a} {b} {t.capitalize()}\n" for a, b, t in conns))
    return p


def unblock_later(fifo: Path, seconds: float = 5) -> None:
    """Open ``fifo`` for writing after ``seconds`` (without blocking if nobody reads), so code
    that waits for a writer on it (old behaviour) gets unstuck instead of hanging the tests."""
    import os
    import threading

    def poke() -> None:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass

    t = threading.Timer(seconds, poke)
    t.daemon = True
    t.start()
