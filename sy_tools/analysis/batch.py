
"""Many records at once: ``possible`` over a batch, in order, optionally in worker processes.

One bad file never stops a batch: its error comes back in its place, as the one line the CLI
prints (``FILE: WHERE: message``, the place as the player wrote it for a text record).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import RecordError, SyToolsError
from ..formats.files import read_text
from ..formats.game_fast import decode_plain_record
from ..formats.output import json_line
from .possible import Possible, possible, uniform_possible
from .tracker import Trace, final_state_of_parts
from .vouch import vouched_final_state

#: below this many records a batch runs in this process (starting workers costs more)
MIN_PER_WORKER = 50

#: ``jobs`` meaning "as many as help": every core, once each has :data:`MIN_PER_WORKER` records
AUTO_JOBS = 1 << 16


@dataclass(frozen=True)
class Failure:
    """A record that could not be analysed: ``message`` is the whole error line."""

    file: str
    message: str
    exit_code: int

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "error": self.message, "exit_code": self.exit_code}


def analyse(path: str, weights: str = "paths", history: bool = False, round_: int | None = None,
            fast: bool = False, ignore_illegal: bool = False) -> Possible:
    """``possible`` of one record file (errors name the player's place in a text record).
    The record (as it stood after ``round_``) must be legal: :class:`IllegalRecord` with
    ``check``'s first finding otherwise, unless ``ignore_illegal`` (then the moves are taken as
    written).  ``fast``: the batch's fast path (same answers, same errors)."""
    text = read_text(path, RecordError)
    if fast and weights == "uniform" and not history and round_ is None:  # (the notation: None at once)
        result = _uniform_unbuilt(text, path, ignore_illegal)
        if result is not None:
            return result
    from ..formats.record_io import parse_record_text  # (the parsers: loaded when a record needs them)

    rec = parse_record_text(text, path, fast).at_round(round_)
    if not ignore_illegal:
        from .referee import ILLEGAL_HINT, require_legal  # (the engine's classes: loaded when first needed)

        require_legal(rec, ILLEGAL_HINT)
    try:
        return possible(rec, weights=weights, history=history)
    except SyToolsError as e:
        if rec.places and e.where:
            e.where = rec.place(e.where)
            e.args = (": ".join(p for p in (e.file, e.where, e.detail) if p),)
        raise


class _NeedsTrace(Exception):
    """The unbuilt filter met a record that needs the move-by-move trace."""


def _needs_trace() -> Trace:
    raise _NeedsTrace


def _uniform_unbuilt(text: str, path: str, ignore_illegal: bool = False) -> Possible | None:
    """``possible(record, "uniform")`` of a game.json text without building its :class:`Record`:
    the filter runs on the decoded structs (a batch's hot path: building the moves would cost as
    much again).  None when the fast path can't vouch for the text, or for its legality (the
    cheap :func:`~.vouch.vouched_final_state`, unless ``ignore_illegal``), or the record is inconsistent or ends
    by Mr. X's own move: the caller then takes the general path, which names what is wrong."""
    v = decode_plain_record(text, path)
    if v is None or v.rules.mrx_onto_detective == "caught":  # (a hidden move's 'to' is UNSET here, not None)
        return None
    rounds = v.doc.rounds or ()
    try:
        if ignore_illegal:
            fin = final_state_of_parts(v.board, v.rules, v.doc.detectives, v.start_candidates, rounds, _needs_trace)
        else:  # judged and filtered in one walk over the moves
            got = vouched_final_state(v.board, v.rules, v.doc.detectives, v.detective_tickets, v.mrx_tickets,
                                      v.mrx_start, v.start_candidates, rounds, _needs_trace)
            if got is None:
                return None
            fin = got
    except _NeedsTrace:
        return None
    return uniform_possible(fin, v.board, v.rules, path)

def jsonl_line(result: Possible) -> str:
    """A result as one line of ``--format jsonl`` (a ``render`` for :func:`possible_many`: the
    workers then send back short lines, not whole results)."""
    return json_line(result.to_dict()) + "\n"


Job = tuple[str, str, bool, "int | None", "Callable[[Possible], Any] | None", bool]


def _one(job: Job) -> Any:
    path, weights, history, round_, render, ignore_illegal = job
    try:
        result = analyse(path, weights, history, round_, fast=True, ignore_illegal=ignore_illegal)
    except SyToolsError as e:
        return Failure(path, str(e), e.exit_code)
    except RecursionError:
        return Failure(path, f"{path}: too deeply nested to read", 2)
    return result if render is None else render(result)


def possible_many(paths: Iterable[str], weights: str = "paths", history: bool = False,
                  round_: int | None = None, jobs: int = 1,
                  render: Callable[[Possible], Any] | None = None,
                  ignore_illegal: bool = False) -> Iterator[tuple[str, Any]]:
    """``(path, result or Failure)`` for every path, in the order given.  ``jobs`` > 1 spreads
    a large batch over that many processes, this one and ``jobs - 1`` workers it forks (the order
    is kept; where the system cannot fork, this one does it all).  ``render`` turns each result
    into what is yielded instead, where it was computed: a batch then ships short lines, not
    whole results, back from the workers (what it returns must pickle).  An illegal record is a
    :class:`Failure` (``check``'s first finding) unless ``ignore_illegal``."""
    paths = list(paths)
    work: list[Job] = [(p, weights, history, round_, render, ignore_illegal) for p in paths]
    jobs = min(jobs, len(paths) // MIN_PER_WORKER, _cores())
    if jobs <= 1 or not hasattr(os, "fork"):
        for job in work:
            yield job[0], _one(job)
        return
    warm_batch()  # workers inherit the built-in map and the decoder instead of each building them
    yield from zip(paths, _forked_map(_one, work, jobs))


def warm_batch() -> None:
    """Load what a batch's records need whatever they hold: the built-in map and the fast path's
    decoder (a process that then freezes what it holds, or forks, keeps them)."""
    from ..formats.game_fast import warm_fast_path
    from ..formats.map_load import load_board

    load_board("london")
    warm_fast_path()


def freeze_for_batch() -> None:
    """For a process that ends with its batch (the CLI): load what the records need
    (:func:`warm_batch`) and leave everything the process holds now out of the garbage
    collector's walks for good (``gc.freeze``): a full collection then walks only the batch's
    own objects, and a forked worker shares those pages instead of copying each one the collector
    would touch (2,000 records: 7% of the time in one process, 8% with a worker).  Not for a
    library caller, whose later garbage cycles among these objects would never be collected."""
    import gc

    warm_batch()
    gc.freeze()


def _forked_map(fn: Callable[[Any], Any], items: list[Any], jobs: int) -> Iterator[Any]:
    """``fn(item)`` for every item, in order, computed by this process and ``jobs - 1`` forked
    ones, which inherit what this one has loaded and send back their results pickled.  The items
    go in chunks that each process claims from a pipe when it is ready (a slow spell of one
    process on a shared machine then holds up no share of fixed size).  A worker that ends
    early leaves the chunks it took to this process, which then meets the same error itself (or
    none, if the worker was killed); workers still running when the caller stops are ended."""
    import pickle
    import signal
    import struct

    chunk = max(-(-len(items) // _MAX_CHUNKS), min(_CHUNK, len(items) // (jobs * 8)), 1)
    n_chunks = -(-len(items) // chunk)
    claims, queue = os.pipe()
    tokens = b"".join([struct.pack("<I", k) for k in range(n_chunks)])  # (at most 4 KiB: the pipe holds them)
    while tokens:
        tokens = tokens[os.write(queue, tokens):]
    os.close(queue)  # (a claim then reads a chunk's number, or nothing once all are taken)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:  # (a worker must not write again what this process holds unwritten)
            stream.flush()
    inbox: dict[int, bytearray] = {}  # a worker's pipe -> what it sent that is not read yet
    pids: list[int] = []
    finished = False
    import gc

    # the workers keep what this process holds out of their collector's walks (they share its
    # pages instead of copying those the collector touches); this one thaws it again at once,
    # unless the caller froze it (:func:`freeze_for_batch`)
    thaw = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        for _ in range(jobs - 1):
            r, w = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # (no more processes allowed: the ones there are do the batch)
                os.close(r)
                os.close(w)
                break
            if pid == 0:  # the worker: claim, compute, send; it never returns (Ctrl-C included)
                code = 1
                try:
                    for fd in (r, *inbox):
                        os.close(fd)
                    with open(w, "wb") as out:
                        while token := os.read(claims, 4):
                            (k,) = struct.unpack("<I", token)
                            data = pickle.dumps([fn(x) for x in items[k * chunk:(k + 1) * chunk]], -1)
                            out.write(struct.pack("<II", k, len(data)) + data)
                            out.flush()
                    code = 0
                finally:
                    os._exit(code)
            os.close(w)
            pids.append(pid)
            inbox[r] = bytearray()
        if thaw:
            thaw = False
            gc.unfreeze()
        done: dict[int, list[Any]] = {}  # chunks computed ahead of the next one to yield
        nxt = 0
        claiming = True
        while nxt < n_chunks:
            if nxt in done:
                yield from done.pop(nxt)
                nxt += 1
                continue
            if inbox:  # what the workers sent; once nothing is left to claim, wait for it
                _receive(inbox, done, 0 if claiming else None)
                if nxt in done:
                    continue
            token = os.read(claims, 4) if claiming else b""
            if token:
                (k,) = struct.unpack("<I", token)
                got = [fn(x) for x in items[k * chunk:(k + 1) * chunk]]
                if k == nxt:
                    yield from got
                    nxt += 1
                else:
                    done[k] = got
            elif claiming:
                claiming = False
            elif not inbox:  # every worker ended: a chunk one took and never sent is done here
                done[nxt] = [fn(x) for x in items[nxt * chunk:(nxt + 1) * chunk]]
        finished = True
    finally:
        if thaw:  # (an error while forking)
            gc.unfreeze()
        os.close(claims)
        for fd in inbox:
            os.close(fd)
        for pid in pids:
            try:
                if not finished:
                    os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
            except ChildProcessError:  # pragma: no cover - reaped already (SIGCHLD ignored)
                pass


#: records a process claims at a time (fewer when a batch is small)
_CHUNK = 16

#: at most this many chunks (their numbers fit a pipe before anyone reads them)
_MAX_CHUNKS = 1024


def _receive(inbox: dict[int, bytearray], done: dict[int, list[Any]], timeout: float | None) -> None:
    """What the workers sent so far (waiting up to ``timeout`` seconds for something, None: as
    long as it takes), into ``done`` chunk by chunk; a worker's pipe that ended leaves ``inbox``."""
    import pickle
    import select
    import struct

    poll = select.poll()
    for fd in inbox:
        poll.register(fd, select.POLLIN)
    for fd, _ in poll.poll(None if timeout is None else 1000 * timeout):
        data = os.read(fd, 1 << 20)
        if not data:
            os.close(fd)
            del inbox[fd]
            continue
        buf = inbox[fd]
        buf += data
        while len(buf) >= 8:
            k, size = struct.unpack_from("<II", buf)
            if len(buf) < 8 + size:
                break
            done[k] = pickle.loads(buf[8:8 + size])
            del buf[:8 + size]


def _cores() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer than the
    machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1
