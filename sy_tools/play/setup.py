"""Starting a game at the table (``play --new``: dealt or given start cards) or resuming one."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

from ..engine.board import Board
from ..engine.rules import Rules
from ..engine.stations import Station
from ..errors import InputError
from ..formats.record import Record
from ..formats.record_io import record_text
from .session import DEFAULT_THINK, Session, check_resumable, default_log_path, plies_of

#: Most detectives a game has (the box's five).
MAX_DETECTIVES = 5


def _map_for(map_spec: str, game: str) -> str:
    """The record's ``map``: a built-in name as it is, a file relative to the record's folder."""
    if os.path.sep in map_spec or map_spec.endswith((".json", ".txt", ".csv")) or os.path.exists(map_spec):
        return os.path.relpath(os.path.abspath(map_spec), os.path.dirname(os.path.abspath(game)))
    return map_spec


def _refuse_existing(path: str, what: str) -> None:
    if os.path.lexists(path):
        raise InputError(f"{path} already exists: resume the game without --new, or name a new file for {what}")


def log_path_for(game: str, log: str | None, computer: str | None) -> str | None:
    """Mr. X's log: as given, beside the record against the computer, else none."""
    if log is None and computer is not None:
        log = default_log_path(game)
    if log is not None and os.path.abspath(log) == os.path.abspath(game):
        raise InputError(f"Mr. X's log must be another file than the record {game}", where="--mrx-log")
    return log


def new_game(game: str, board: Board, map_spec: str, rules: Rules, *,
             detectives: Sequence[tuple[str, Station]] | None = None, count: int | None = None,
             seed: int | None = None, mrx_start: Station | None = None, log: str | None = None,
             computer: str | None = None, think: float = DEFAULT_THINK) -> tuple[Session, list[str]]:
    """A new game in ``game`` (which must not exist) and what to tell the table about it.

    The detectives stand where ``detectives`` says (names and starts in turn order), or ``count``
    of them (default five) draw start cards from the rules' decks, Mr. X's card first, all from
    ``seed``.  Mr. X's start is kept only in his log: it is ``mrx_start``, else dealt (from his
    deck less the detectives' cards) when a log is kept; without a log he picks his own card."""
    from ..selfplay.game import DETECTIVE_NAMES, _decks, deal, rules_json

    log = log_path_for(game, log, computer)
    _refuse_existing(game, "the record")
    if log is not None:
        _refuse_existing(log, "Mr. X's log")
    if mrx_start is not None and log is None:
        raise InputError("Mr. X's start is kept only in his log: give --mrx-log FILE (or play --computer)",
                         where="--mrx-start")
    notes = []
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    if detectives is None:
        n = MAX_DETECTIVES if count is None else count
        if not 1 <= n <= MAX_DETECTIVES:
            raise InputError(f"expected 1 to {MAX_DETECTIVES} detectives, got {n}", where="--detective-count")
        dealt, starts, _ = deal(board, rules, n, None, rng)
        pairs = list(zip(DETECTIVE_NAMES, starts))
        notes.append(f"start cards dealt with seed {seed}: " + ", ".join(f"{a} {s}" for a, s in pairs))
    else:
        pairs = list(detectives)
        if not 1 <= len(pairs) <= MAX_DETECTIVES:
            raise InputError(f"expected 1 to {MAX_DETECTIVES} detectives, got {len(pairs)}", where="--detectives")
        mrx_deck, _ = _decks(board, rules, None)
        free = [s for s in mrx_deck if s not in {s for _, s in pairs}]
        dealt = free[int(rng.random() * len(free))] if free else 0
    doc: dict[str, Any] = {"version": 1, "map": _map_for(map_spec, game), "rules": rules_json(rules),
                           "detectives": [{"name": a, "start": s} for a, s in pairs], "rounds": []}
    if log is not None:
        doc["mrx"] = {"start": mrx_start if mrx_start is not None else dealt}
    record = _parse(doc, game)
    check_resumable(record, game)
    if log is None:
        notes.append("Mr. X: pick your start card from the rest of the deck and keep it secret")
    elif computer == "mrx":
        notes.append(f"the computer plays Mr. X; his start card is in {log} (don't look)")
    elif computer == "detectives":
        notes.append(f"you play Mr. X: you start at {record.mrx_start} (kept in {log})")
    else:
        notes.append(f"Mr. X's start card is in his log {log} (for his eyes only)")
    session = Session(record, game, log, computer, think, seed)
    session.save()
    return session, notes


def _parse(doc: dict[str, Any], game: str) -> Record:
    from ..formats.game_json import parse_record

    return parse_record(doc, game)


def resume_game(game: str, *, log: str | None = None, computer: str | None = None,
                think: float = DEFAULT_THINK, seed: int = 0) -> Session:
    """The game in ``game`` where it stands, with Mr. X's log when one is kept (it must say the
    same as the record, plus his stations).  :class:`InputError` for a file that can't be read
    or a log that doesn't match; :class:`~sy_tools.errors.AnalysisError` for an illegal record."""
    from ..formats.record_io import load_record

    log = log_path_for(game, log, computer)
    record = load_record(game)
    if record.is_full:
        raise InputError("the record holds Mr. X's true start or hidden stations, which play keeps out of the "
                         "public record: play it with --mrx-log THAT_FILE and a new record name, or publish it with "
                         "'sy-tools record convert --view detectives'", game)
    full = record
    if log is not None:
        if not os.path.exists(log):
            if record.rounds or computer is not None:
                raise InputError(f"Mr. X's log {log} is missing: his stations were kept there", where="--mrx-log")
        else:
            full = load_record(log)
            if record_text(full.detectives_view(), game) != record_text(record, game):
                raise InputError(f"Mr. X's log {log} does not match the record {game} (other moves, players or "
                                 "rules)", where="--mrx-log")
    check_resumable(full, log if full is not record and log is not None else game)
    return Session(full, game, log, computer, think, seed, plies_of(full))
