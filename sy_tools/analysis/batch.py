
"""Many records at once: ``possible`` over a batch, in order, optionally in worker processes.

One bad file never stops a batch: its error comes back in its place, as the one line the CLI
prints (``FILE: WHERE: message``, the place as the player wrote it for a text record).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import RecordError, SyToolsError
from ..formats.files import read_text
from ..formats.game_fast import decode_plain_record
from ..formats.output import json_line
from ..formats.record_io import is_json_record, parse_record_text
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
    if fast and weights == "uniform" and not history and round_ is None and is_json_record(text, path):
        result = _uniform_unbuilt(text, path, ignore_illegal)
        if result is not None:
            return result
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
    a large batch over that many worker processes (the order is kept).  ``render`` (a
    module-level function, so workers can be sent it) turns each result into what is yielded
    instead, in the worker: a batch then ships short lines, not whole results, back.  An illegal
    record is a :class:`Failure` (``check``'s first finding) unless ``ignore_illegal``."""
    paths = list(paths)
    work: list[Job] = [(p, weights, history, round_, render, ignore_illegal) for p in paths]
    jobs = min(jobs, len(paths) // MIN_PER_WORKER, _cores())
    if jobs <= 1:
        for job in work:
            yield job[0], _one(job)
        return
    import multiprocessing

    from ..formats.game_fast import warm_fast_path
    from ..formats.map_load import load_board

    load_board("london")  # workers inherit the built-in map and the decoder instead of each building them
    warm_fast_path()
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, min(64, len(work) // (jobs * 8)))
    with ctx.Pool(jobs) as pool:
        yield from zip(paths, pool.imap(_one, work, chunksize=chunk))


def _cores() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer than the
    machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1
