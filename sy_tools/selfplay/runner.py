"""Running many games: processes or a dask cluster, reproducible from the seed."""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable, Generator, Iterator
from typing import Any

from ..errors import InputError
from .game import GameResult, GameSpec, _play, _runtime
from .policies import safe_repr
from .stats import SimulationResult
from .stray import marking


def _run_chunk(spec: GameSpec, start: int, stop: int) -> list[GameResult]:
    rt = _runtime(spec)
    return [_play(rt, i) for i in range(start, stop)]


def _chunks(n: int, size: int, first: int = 0) -> Iterator[tuple[int, int]]:
    for a in range(first, first + n, size):
        yield a, min(a + size, first + n)


def _chunk_size(n: int, workers: int) -> int:
    return max(1, min(2000, n // (workers * 8) or 1))

#: The most worker processes a run starts (the command line refuses more).
MAX_JOBS = 64

#: Seconds to connect to a dask scheduler, everything included.
CONNECT_SECONDS = 10.0


def _worker_init(spec: GameSpec) -> None:
    """A worker process: Ctrl-C is the parent's to handle (it ends the workers), SIGTERM/SIGHUP
    end the worker at once, and what a policy prints goes to stderr (stdout is the parent's):
    marked, through the parent's pipe, when the parent marks it (:mod:`.stray`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if not marking():  # (else descriptor 1 and sys.stdout already lead into that pipe)
        try:
            sys.stdout.flush()
            os.dup2(2, 1)
        except (OSError, ValueError):  # pragma: no cover - no stderr to send it to
            pass
        sys.stdout = sys.stderr
    _runtime(spec)


def _stop(pool: Any, finished: bool) -> None:
    """Shut the pool down; unless the run ``finished``, end the workers now (they may be deep in
    a long game, and must not outlive the run)."""
    if finished:
        pool.shutdown(wait=True)
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        try:
            p.terminate()
        except (OSError, ValueError, AttributeError):  # pragma: no cover - already gone
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.join(2.0)
        except (OSError, ValueError, AttributeError, AssertionError):  # pragma: no cover
            pass


def iter_games(spec: GameSpec, n: int, jobs: int | None = None, scheduler: str | None = None,
               chunk_size: int | None = None, first: int = 0) -> Generator[GameResult, None, None]:
    """Games ``first`` .. ``first + n - 1`` of ``spec``, in order, played by ``jobs`` processes
    (default: all cores; at most :data:`MAX_JOBS` and never more than there are chunks of games;
    1 plays here) or on the dask cluster at ``scheduler``.  Work goes out in chunks with a
    bounded number in flight, so memory stays bounded however many games.  A worker that dies
    (a policy calling ``os._exit``, the system killing it) is an :class:`InputError`, and when
    the iteration stops early (an error, Ctrl-C, ``close()``) the workers are ended with it."""
    _runtime(spec)  # bad policies, maps, decks fail here, before any worker starts
    if scheduler is not None:
        yield from _iter_dask(spec, n, scheduler, chunk_size, first)
        return
    jobs = min(jobs or os.cpu_count() or 1, MAX_JOBS, max(n, 1))
    if jobs <= 1:
        rt = _runtime(spec)
        for i in range(first, first + n):
            yield _play(rt, i)
        return
    import multiprocessing as mp
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    size = chunk_size or _chunk_size(n, jobs)
    jobs = min(jobs, -(-n // size))  # no idle workers
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else "spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker_init, initargs=(spec,))
    finished = False
    try:
        pending: deque[tuple[Any, int, int]] = deque()
        chunks = _chunks(n, size, first)
        for a, b in chunks:
            pending.append((pool.submit(_run_chunk, spec, a, b), a, b))
            if len(pending) >= 4 * jobs:
                break
        while pending:
            done, a, b = pending.popleft()
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append((pool.submit(_run_chunk, spec, *nxt), *nxt))
            try:
                games = done.result()
            except BrokenProcessPool:
                raise InputError(f"a worker process died while playing games {a}-{b - 1} (a policy that calls "
                                 "os._exit or crashes Python, or the system ended it); run with --jobs 1 to see "
                                 "which game", where="--jobs") from None
            yield from games
        finished = True
    finally:
        _stop(pool, finished)

#: A dask scheduler address: PROTOCOL://HOST:PORT (or HOST:PORT, tcp assumed).
_ADDRESS = re.compile(r"^(?:[a-z]+://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}$")


def _quiet_unraisable(args: Any) -> None:
    """Drop what a half-made dask client reports while it is collected (we said why already)."""
    mod = getattr(type(args.object), "__module__", "") or ""
    if mod.startswith(("distributed", "tornado")) or isinstance(args.exc_value, TimeoutError):
        return
    sys.__unraisablehook__(args)


def _connect(scheduler: str, deadline: float = CONNECT_SECONDS) -> Any:
    """A dask client for ``scheduler``, or one :class:`InputError` line within ``deadline``
    seconds whatever answers there (nothing, a web server, garbage)."""
    import threading

    from distributed import Client

    box: dict[str, Any] = {}

    def make() -> None:
        try:
            box["client"] = Client(scheduler, timeout="3s", set_as_default=False)
        except BaseException as e:  # anything a non-dask peer provokes (even a 3 EiB allocation)
            box["error"] = e

    t = threading.Thread(target=make, name="sy-tools dask connect", daemon=True)
    t.start()
    t.join(deadline)
    if t.is_alive() or "error" in box:
        sys.unraisablehook = _quiet_unraisable
        why = (f"no dask scheduler answered within {deadline:g} s" if t.is_alive()
               else safe_repr(box["error"], error=True, limit=200))
        raise InputError(f"cannot reach the dask scheduler at {scheduler}: {why}", where="--scheduler")
    return box["client"]


def _iter_dask(spec: GameSpec, n: int, scheduler: str, chunk_size: int | None, first: int) -> Iterator[GameResult]:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError("--scheduler needs dask.distributed: pip install 'sy-tools[cluster]'") from None
    if not _ADDRESS.match(scheduler):
        raise InputError(f"expected a scheduler address like tcp://HOST:PORT, got {scheduler[:60]!r}",
                         where="--scheduler")
    client = _connect(scheduler)
    try:
        workers = max(1, sum(client.nthreads().values()))
        size = chunk_size or _chunk_size(n, workers)
        pending: list[Any] = []
        chunks = _chunks(n, size, first)
        for a, b in chunks:
            pending.append(client.submit(_run_chunk, spec, a, b, pure=False))
            if len(pending) >= 4 * workers:
                break
        while pending:
            done = pending.pop(0)
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append(client.submit(_run_chunk, spec, *nxt, pure=False))
            yield from done.result()
            done.release()
    finally:
        client.close()


def simulate(spec: GameSpec, n: int, jobs: int | None = None, scheduler: str | None = None,
             keep_rows: bool = True, on_game: Callable[[GameResult], None] | None = None,
             chunk_size: int | None = None) -> SimulationResult:
    """Play ``n`` games of ``spec``; ``on_game`` sees each result in game order (to stream rows
    or records out).  See :func:`iter_games` for ``jobs`` and ``scheduler``."""
    if n < 0:
        raise InputError(f"the number of games must be at least 0, got {n}", where="-n")
    result = SimulationResult(spec, games=[] if keep_rows else None)
    games = iter_games(spec, n, jobs, scheduler, chunk_size)
    try:
        for g in games:
            result.add(g)
            if on_game is not None:
                on_game(g)
    finally:
        games.close()  # an early stop ends the worker processes now
    return result
