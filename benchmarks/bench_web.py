"""web: the table of ``sy-tools serve`` (issue 40), served by the real command on 127.0.0.1
(port 0) in a folder of its own and stopped with Ctrl-C at the end:

* the table page's first load: the bytes of the page and of everything it loads (its style,
  its script modules, the board and the game's state), as sent and gzipped; and the time to a
  drawn board in headless Chromium (Playwright) when there is one;
* the time from a move to every page showing it, with 20 table pages connected (20 event
  streams on 127.0.0.1): from sending the move to the last of the 20 streams receiving the
  state after it (median and p95; the goal is a p95 under 200 ms);
* the server's memory (RSS) as it goes, up to 1,000 moves: real moves of a five-detective game
  while it lasts, then undo and redo in turn (the goal: flat); and before and after 1,000 pages
  connected and went away (20 at a time).

Every loop is bounded; a server that stops answering fails the benchmark after a timeout."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: Seconds a single answer or event may take before the benchmark gives up.
TIMEOUT = 60.0

_EVENT_ID = re.compile(rb"id: ([0-9a-f]{16})\n")
_IMPORT = re.compile(r'from\s+"\./([\w.-]+\.js)"')
_LINKED = re.compile(r'(?:href|src)="(/static/[\w.-]+)"')


def _sy_tools() -> str:
    here = Path(sys.executable).with_name("sy-tools")
    return str(here) if here.exists() else (shutil.which("sy-tools") or "sy-tools")


class Server:
    """``sy-tools serve`` on 127.0.0.1, a free port, in ``folder``."""

    def __init__(self, folder: str, *args: str) -> None:
        self.proc = subprocess.Popen([_sy_tools(), "serve", *args, "--port", "0", "--no-qr"], cwd=folder,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + TIMEOUT
        while not any(ln.startswith("Ctrl-C stops") for ln in lines):
            line = self.proc.stdout.readline()
            if not line or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"sy-tools serve did not start: {self.proc.stderr.read() if self.proc.stderr else ''}")
            lines.append(line.rstrip("\n"))
        self.table = next(ln.split(" ", 1)[1] for ln in lines if ln.startswith("table: ")).rstrip("/")
        self.mrx = next(ln.split(" ", 1)[1] for ln in lines if ln.startswith("mr-x: "))
        self.token = self.mrx.rsplit("/", 1)[1]
        self.port = int(self.table.rsplit(":", 1)[1])

    def rss(self) -> int | None:
        """The server's resident memory (bytes), from /proc (None where there is none)."""
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None

    def stop(self) -> None:
        """Ctrl-C, as at the table (killed if it does not stop)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate(timeout=30)


# ---- a small HTTP/1.1 client on asyncio streams (the standard library only) ---------------------

async def _request(port: int, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, bytes]:
    """One request on a connection of its own: the status and the body (``Connection: close``)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), TIMEOUT)
    data = b"" if body is None else json.dumps(body).encode()
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
            f"Content-Length: {len(data)}\r\n" + ("Content-Type: application/json\r\n" if body is not None else "")
            + "\r\n")
    writer.write(head.encode() + data)
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), TIMEOUT)
    writer.close()
    head_bytes, _, rest = raw.partition(b"\r\n\r\n")
    status = int(head_bytes.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head_bytes.lower():
        rest = _unchunk(rest)
    return status, rest


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2:]
    return out


async def _json(port: int, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    status, data = await _request(port, method, path, body)
    answer: dict[str, Any] = json.loads(data)
    if status != 200:
        raise RuntimeError(f"{method} {path}: {status} {answer}")
    return answer


class Listener:
    """One table page's event stream: each state event's tag and when it arrived."""

    def __init__(self) -> None:
        self.arrived: asyncio.Queue[tuple[str, float]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self, port: int) -> None:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), TIMEOUT)
        self.writer = writer
        writer.write(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        self.task = asyncio.create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buf = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            buf += chunk
            last = 0
            for m in _EVENT_ID.finditer(buf):
                self.arrived.put_nowait((m.group(1).decode(), now))
                last = m.end()
            buf = buf[last:] if last else buf[-64:]

    async def until(self, tag: str) -> float:
        """When the event of ``tag`` arrived (the events before it are passed over)."""
        while True:
            got, when = await asyncio.wait_for(self.arrived.get(), TIMEOUT)
            if got == tag:
                return when

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            self.writer.close()


# ---- the first load ------------------------------------------------------------------------------

async def _first_load(port: int) -> list[tuple[str, int, int]]:
    """Everything the table page loads: (what, bytes, gzipped bytes)."""
    status, page = await _request(port, "GET", "/")
    loaded = [("/", page)]
    html = page.decode()
    queue = _LINKED.findall(html)
    seen: set[str] = set()
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        status, data = await _request(port, "GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        loaded.append((path, data))
        if path.endswith(".js"):
            queue.extend(f"/static/{name}" for name in _IMPORT.findall(data.decode()))
    for path in ("/api/board", "/api/state"):
        status, data = await _request(port, "GET", path)
        loaded.append((path, data))
    return [(path, len(data), len(gzip.compress(data, 6))) for path, data in loaded]


def _drawn_board_times(url: str, stations: int, runs: int = 5) -> list[float] | str:
    """Seconds from navigation to a drawn board (every station and the pieces) in headless
    Chromium, a fresh browser context (no cache) each run; a string saying why when it cannot."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "Playwright is not installed"
    chromium = os.environ.get("SY_TOOLS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        return "no Chromium found"
    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            for _ in range(runs):
                context = browser.new_context(viewport={"width": 1366, "height": 768})
                page = context.new_page()
                page.goto(url, wait_until="commit")
                drawn = page.wait_for_function(  # (the moment it is drawn, read in the page itself)
                    "n => document.querySelectorAll('svg.board g.station').length >= n"
                    " && document.querySelector('svg.board g.piece') !== null && performance.now()", arg=stations,
                    polling="raf", timeout=TIMEOUT * 1000)
                times.append(float(drawn.json_value()) / 1000)
                context.close()
        finally:
            browser.close()
    return times


# ---- moves ---------------------------------------------------------------------------------------

async def _next_change(port: int, token: str, rng: random.Random, undo_next: list[bool]) -> tuple[str, dict[str, Any]]:
    """The next change to make: real moves until the game ends (Mr. X's on his page, the
    detectives' never onto him), then undo and redo in turn.  (path, body); ``undo_next``:
    whether an undo comes next, and whether the game has ended."""
    state = await _json(port, "GET", f"/api/x/{token}/state")
    tag = state["tag"]
    if state["over"]:
        undo_next[1] = True  # (from the end of the game on: undo and redo only)
    if undo_next[1]:
        pass
    elif state["mrx_moves"]["single"]:
        m = rng.choice(state["mrx_moves"]["single"])
        return f"/api/x/{token}/move", {"hops": [{"ticket": m["tickets"][0], "to": m["to"]}], "tag": tag}
    elif state["moves"]:
        safe = [m for m in state["moves"] if m["to"] != state["mrx"]["at"]]
        if safe:
            m = rng.choice(safe)
            return "/api/move", {"piece": state["to_move"], "to": m["to"], "ticket": m["tickets"][0], "tag": tag}
    undo = undo_next[0] or not state["can_redo"]
    undo_next[0] = not undo
    return ("/api/undo" if undo else "/api/redo"), {"tag": tag}


async def _moves(server: Server, pages: int, moves: int,
                 rss_at: set[int]) -> tuple[list[float], list[float], list[float], list[tuple[int, int | None]]]:
    """``moves`` changes with ``pages`` event streams open: the latency (seconds) of each real
    move, of each undo/redo, and of all in order; the server's RSS at the counts in ``rss_at``."""
    listeners = [Listener() for _ in range(pages)]
    for one in listeners:
        await one.open(server.port)
    state = await _json(server.port, "GET", "/api/state")
    for one in listeners:
        await one.until(state["tag"])
    rng = random.Random(2026)
    real: list[float] = []
    steps: list[float] = []
    order: list[float] = []
    rss: list[tuple[int, int | None]] = [(0, server.rss())]
    undo_next = [True, False]
    try:
        for i in range(1, moves + 1):
            path, body = await _next_change(server.port, server.token, rng, undo_next)
            t0 = time.perf_counter()
            answer = await _json(server.port, "POST", path, body)
            arrived = await asyncio.gather(*(one.until(answer["tag"]) for one in listeners))
            took = max(arrived) - t0
            (steps if path.endswith(("undo", "redo")) else real).append(took)
            order.append(took)
            if i in rss_at:
                rss.append((i, server.rss()))
    finally:
        for one in listeners:
            one.close()
    return real, steps, order, rss


async def _churn(server: Server, pages: int) -> tuple[int | None, int | None]:
    """``pages`` table pages that connect, get the game, and go away (a phone asleep, a tab
    closed), 20 at a time: the server's RSS before and after."""
    before = server.rss()
    state = await _json(server.port, "GET", "/api/state")
    for _ in range(pages // 20):
        batch = [Listener() for _ in range(20)]
        for one in batch:
            await one.open(server.port)
        await asyncio.gather(*(one.until(state["tag"]) for one in batch))
        for one in batch:
            one.close()
    await asyncio.sleep(1.0)
    return before, server.rss()


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    ordered = sorted(xs)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"median {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"


def _mb(n: int | None) -> str:
    return "?" if n is None else f"{n / 2**20:.1f} MB"


def run(pages: int = 20, moves: int = 1000, first: int = 100, churn: int = 1000) -> list[str]:
    out = [f"web: sy-tools serve on 127.0.0.1, a new game with 5 detectives ({pages} table pages connected)"]
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        server = Server(folder, "g.txt", "--new", "--detective-count", "5", "--seed", "1", "--secret-seed", "1",
                        "--think", "1")
        try:
            loaded = asyncio.run(_first_load(server.port))
            files = [x for x in loaded if x[0].startswith(("/", "/static/")) and not x[0].startswith("/api/")]
            data = [x for x in loaded if x[0].startswith("/api/")]
            out.append(f"  first load, page and static ({len(files)} files): {sum(x[1] for x in files):,} bytes, "
                       f"{sum(x[2] for x in files):,} gzipped")
            for path, size, zipped in data:
                what = "the game's state (/api/state; the page gets it as its event stream's first event)" \
                    if path == "/api/state" else f"the map ({path})"
                out.append(f"  first load, {what}: {size:,} bytes, {zipped:,} gzipped")
            out.append(f"  first load, everything: {sum(x[1] for x in loaded):,} bytes, "
                       f"{sum(x[2] for x in loaded):,} gzipped (the server sends them uncompressed)")
            board = json.loads(asyncio.run(_request(server.port, "GET", "/api/board"))[1])
            drawn = _drawn_board_times(server.table + "/", len(board["stations"]))
            if isinstance(drawn, str):
                out.append(f"  time to a drawn board: skipped ({drawn})")
            else:
                out.append(f"  time to a drawn board, headless Chromium, cold ({len(drawn)} runs): median "
                           f"{statistics.median(drawn) * 1000:.0f} ms, max {max(drawn) * 1000:.0f} ms")
            checkpoints = {first, *range(max(1, moves // 4), moves + 1, max(1, moves // 4))}
            real, steps, order, rss = asyncio.run(_moves(server, pages, moves, checkpoints))
            out.append(f"  move to all {pages} pages, first {min(first, len(order))} changes: {_ms(order[:first])}")
            out.append(f"  move to all {pages} pages, {len(real)} real moves: {_ms(real)}")
            out.append(f"  move to all {pages} pages, {len(steps)} undo/redo: {_ms(steps)}")
            out.append(f"  move to all {pages} pages, all {len(order)} changes: {_ms(order)}")
            out.append("  server RSS after N changes: " + ", ".join(f"{n}: {_mb(b)}" for n, b in rss))
            before, after = asyncio.run(_churn(server, churn))
            out.append(f"  server RSS before and after {churn} pages came and went: {_mb(before)}, {_mb(after)}")
        finally:
            server.stop()
    return out


if __name__ == "__main__":
    for line in run(*(int(a) for a in sys.argv[1:])):
        print(line)
