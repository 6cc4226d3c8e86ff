"""Starting a game at the table (``play --new``: dealt or given start cards) or resuming one.

A new game's set-up (the computer's side and level, Mr. X's log, the think time and pace) is
written into the record's ``play`` header (:mod:`sy_tools.formats.play_header`), the computer's
own seed into Mr. X's log only, so a plain resume (:func:`resume_game` with no options) plays
exactly the game that was started, and options given on a resume must agree with it."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.rules import Rules
from ..engine.stations import Station
from ..errors import InputError
from ..formats.record import Record
from ..formats.record_io import record_text
from .files import GameLock, Watched, distinct_targets, lock_path
from .session import (
    DEFAULT_LEVEL,
    DEFAULT_PACE,
    DEFAULT_THINK,
    Ply,
    Session,
    check_resumable,
    default_log_path,
    plies_of,
)

#: Most detectives a game has (the box's five).
MAX_DETECTIVES = 5

#: The option that sets each ``play`` header field (for messages on a resume).
OPTION_OF = {"computer": "--computer", "level": "--level", "mrx_log": "--mrx-log", "think": "--think",
             "pace": "--pace"}


def _map_for(map_spec: str, game: str) -> str:
    """The record's ``map``: a built-in name as it is, a file relative to the record's folder."""
    if os.path.sep in map_spec or map_spec.endswith((".json", ".txt", ".csv")) or os.path.exists(map_spec):
        return os.path.relpath(os.path.abspath(map_spec), os.path.dirname(os.path.abspath(game)))
    return map_spec


def _refuse_existing(path: str, what: str) -> None:
    if os.path.lexists(path):
        raise InputError(f"{path} already exists: resume the game without --new, or name a new file for {what}")


def refuse_stream(game: str) -> None:
    """``play`` keeps the game in a file it rewrites after every move: ``-`` can't be one."""
    if game == "-" or game.startswith("/dev/std") or game.startswith("/dev/fd/"):
        raise InputError("play keeps the game in a file it saves after every move: name a file, not standard "
                         "input or output", game)


def log_path_for(game: str, log: str | None, computer: str | None) -> str | None:
    """Mr. X's log: as given, beside the record against the computer, else none."""
    if log is None and computer is not None:
        log = default_log_path(game)
    return log


#: The program a session holds the record's lock for, unless told (``serve`` says its own name).
PROGRAM = "sy-tools play"


def session_files(game: str, log: str | None, record: Record | None = None,
                  picture: str | None = None) -> list[tuple[str, str]]:
    """The files a session on ``game`` must keep apart (what, path): the record, Mr. X's log, the
    lock, the map the record reads when it is a file, and a picture it will draw."""
    files = [("the record", game), ("the record's lock", lock_path(game))]
    if log is not None:
        files.insert(1, ("Mr. X's log", log))
    if record is not None and record.map_spec != "london":
        from ..formats.record import record_map_path

        files.append(("the game's map", record_map_path(record.map_spec, game)))
    if picture is not None:
        files.append(("the picture", picture))
    return files


def _held(game: str, log: str | None, picture: str | None, record: Record | None = None,
          program: str = PROGRAM) -> GameLock:
    """The record's lock (held in the name of ``program``), once the session's files (and the
    picture it redraws) are known to be distinct regular files."""
    distinct_targets(session_files(game, log, record, picture))
    lock = GameLock(game)
    lock.acquire(program)
    return lock


def deal_starts(board: Board, rules: Rules, n: int, public: random.Random,
                secret: random.Random) -> tuple[list[Station], Station]:
    """The detectives' start cards from their deck (``public``: a seed the table may see
    re-deals only these), then Mr. X's from his deck less their stations (``secret``)."""
    from ..selfplay.game import _decks

    det_deck = _decks(board, rules, None)[1]
    if len(det_deck) < n:
        raise InputError(f"the detectives' start deck has {len(det_deck)} stations for {n} detectives",
                         where="--detective-count")
    dets = public.sample(det_deck, n)
    return dets, _mrx_card(board, rules, dets, secret)


def _mrx_card(board: Board, rules: Rules, taken: Sequence[Station], secret: random.Random) -> Station:
    """Mr. X's start card: from his deck less the detectives' stations."""
    from ..selfplay.game import _decks

    free = [s for s in _decks(board, rules, None)[0] if s not in set(taken)]
    return free[int(secret.random() * len(free))] if free else 0


def new_game(game: str, board: Board, map_spec: str, rules: Rules, *,
             detectives: Sequence[tuple[str, Station]] | None = None, count: int | None = None,
             seed: int | None = None, secret_seed: int | None = None, mrx_start: Station | None = None,
             log: str | None = None, computer: str | None = None, level: str = DEFAULT_LEVEL,
             think: float = DEFAULT_THINK, pace: float = DEFAULT_PACE,
             picture: str | None = None, program: str = PROGRAM) -> tuple[Session, list[str]]:
    """A new game in ``game`` (which must not exist) and what to tell the table about it.

    The detectives stand where ``detectives`` says (names and starts in turn order), or ``count``
    of them (default five) draw start cards from the rules' decks with ``seed`` (random when
    None; the notes print it, and it re-deals only their cards).  What only Mr. X may know (his
    dealt start, the computer's choices) comes from ``secret_seed`` (random when None), kept in
    his log and never printed.  His start is ``mrx_start``, else dealt when a log is kept;
    without a log he picks his own card.  The session holds the record's lock in the name of
    ``program`` (what another session is told): give it back with ``session.lock.release()``
    (the command line does)."""
    from ..selfplay.game import DETECTIVE_NAMES

    refuse_stream(game)
    log = log_path_for(game, log, computer)
    _refuse_existing(game, "the record")
    if log is not None:
        _refuse_existing(log, "Mr. X's log")
    if mrx_start is not None and log is None:
        raise InputError("Mr. X's start is kept only in his log: give --mrx-log FILE (or play --computer)",
                         where="--mrx-start")
    notes = []
    if secret_seed is None:
        secret_seed = random.SystemRandom().randrange(2**63)
    printed = seed is None
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if detectives is None:
        n = MAX_DETECTIVES if count is None else count
        if not 1 <= n <= MAX_DETECTIVES:
            raise InputError(f"expected 1 to {MAX_DETECTIVES} detectives, got {n}", where="--detective-count")
        starts, dealt = deal_starts(board, rules, n, random.Random(seed), random.Random(secret_seed))
        pairs = list(zip(DETECTIVE_NAMES, starts))
        notes.append(f"start cards dealt{f' with seed {seed}' if printed else ''}: "
                     + ", ".join(f"{a} {s}" for a, s in pairs))
    else:
        pairs = list(detectives)
        if not 1 <= len(pairs) <= MAX_DETECTIVES:
            raise InputError(f"expected 1 to {MAX_DETECTIVES} detectives, got {len(pairs)}", where="--detectives")
        dealt = _mrx_card(board, rules, [s for _, s in pairs], random.Random(secret_seed))
    doc: dict[str, Any] = {"version": 1, "map": _map_for(map_spec, game), "rules": _rules_json(rules),
                           "detectives": [{"name": a, "start": s} for a, s in pairs], "rounds": []}
    if log is not None:
        doc["mrx"] = {"start": mrx_start if mrx_start is not None else dealt}
    record = _parse(doc, game)
    check_resumable(record, game)
    if log is None:
        notes.append("Mr. X: pick your start card from the rest of the deck and keep it secret")
    elif computer == "mrx":
        notes.append(f"the computer plays Mr. X ({level}); his start card is in {log} (don't look)")
    elif computer == "both":
        notes.append(f"the computer plays both sides ({level}), a move every {pace:g} s; 'q' stops it "
                     f"(Mr. X's start card is in {log})")
    elif computer == "detectives":
        notes.append(f"the computer plays the detectives ({level}); Mr. X's start card is in his log {log}: "
                     "type 'private' to see it")
    else:
        notes.append(f"Mr. X's start card is in his log {log} (for his eyes only: 'private' shows it)")
    lock = _held(game, log, picture, record, program)
    try:
        session = Session(record, game, log, computer, think, secret_seed, level=level, pace=pace, lock=lock)
        session.save()
    except BaseException:
        lock.release()
        raise
    return session, notes


def _rules_json(rules: Rules) -> Any:
    from ..selfplay.game import rules_json

    return rules_json(rules)


def _parse(doc: dict[str, Any], game: str) -> Record:
    from ..formats.game_json import parse_record

    return parse_record(doc, game)


def _started_with(key: str, value: Any) -> str:
    if key == "computer" and value is None:
        return "people playing both sides (no --computer)"
    if key == "mrx_log" and value is None:
        return "no Mr. X's log (no --mrx-log)"
    return f"{OPTION_OF[key]} {value:g}" if isinstance(value, float) else f"{OPTION_OF[key]} {value}"


def _agree(game: str, header: Mapping[str, Any], given: Mapping[str, Any]) -> None:
    """Options given on a resume must say what the game was started with."""
    for key, value in given.items():
        was = header.get(key)
        same = (float(was) == float(value)) if key in ("think", "pace") and was is not None else was == value
        if not same:
            raise InputError(f"{OPTION_OF[key]} {value} does not fit this game: it was started with "
                             f"{_started_with(key, was)}; resume it with just 'sy-tools play {game}'", game)


def resume_game(game: str, *, log: str | None = None, computer: str | None = None, level: str | None = None,
                think: float | None = None, pace: float | None = None, picture: str | None = None,
                program: str = PROGRAM) -> Session:
    """The game in ``game`` where it stands, set up as its ``play`` header says (the options
    given must agree with it; a record without a header, from an older sy-tools, takes them as
    given), with Mr. X's log when one is kept (it must say the same as the record, plus his
    stations).  :class:`InputError` for a file that can't be read or written, a log that doesn't
    match or options that contradict the game; :class:`~sy_tools.errors.AnalysisError` for an
    illegal record.  The session holds the record's lock (in the name of ``program``)."""
    from ..formats.record_io import load_record

    refuse_stream(game)
    if _read_only(game):
        raise InputError("is read-only: play saves every move into it; make it writable, or play a copy", game)
    if not os.path.exists(game):
        load_record(game)  # (says what is wrong: no such file, ...)
    lock = GameLock(game)
    lock.acquire(program)  # first: what is read from here on is what this session will be judged against
    try:
        return _resume_held(game, lock, log, computer, level, think, pace, picture)
    except BaseException:
        lock.release()
        raise


def _resume_held(game: str, lock: GameLock, log: str | None, computer: str | None, level: str | None,
                 think: float | None, pace: float | None, picture: str | None) -> Session:
    from ..formats.record_io import load_record

    seen = {game: Watched().read_now(game)}
    record = load_record(game)
    header = dict(record.extra.get("play") or {})
    given = {k: v for k, v in (("computer", computer), ("level", level), ("think", think), ("pace", pace))
             if v is not None}
    if record.extra.get("play") is not None:
        if "mrx_log" in header:
            header["mrx_log"] = os.path.join(os.path.dirname(game), header["mrx_log"])
        if log is not None and not _same_path(log, header.get("mrx_log")):
            raise InputError(f"--mrx-log {log} does not fit this game: it was started with "
                             f"{_started_with('mrx_log', header.get('mrx_log'))}; resume it with just "
                             f"'sy-tools play {game}'", game)
        _agree(game, {**header, "computer": header.get("computer")}, given)
        computer = header.get("computer")
        log = header.get("mrx_log")
        level = header.get("level", level)
        think = header.get("think", think)
        pace = header.get("pace", pace)
    else:
        log = log_path_for(game, log, computer)
    if record.is_full:
        raise InputError("the record holds Mr. X's true start or hidden stations, which play keeps out of the "
                         "public record: play it with --mrx-log THAT_FILE and a new record name, or publish it with "
                         "'sy-tools record convert --view detectives'", game)
    if log is not None and _read_only(log):
        raise InputError("is read-only: play saves Mr. X's every move into it; make it writable", log)
    distinct_targets(session_files(game, log, record, picture))
    return _resumed(game, record, log, computer, level or DEFAULT_LEVEL, think or DEFAULT_THINK,
                    DEFAULT_PACE if pace is None else pace, lock, seen)


def _read_only(path: str) -> bool:
    """Whether ``path`` is a file nobody may write (its mode says so: also for root, whom
    ``access`` lets write anything), or one this process may not."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return not st.st_mode & 0o222 or not os.access(path, os.W_OK)


def _same_path(a: str, b: str | None) -> bool:
    if b is None:
        return False
    return os.path.realpath(a) == os.path.realpath(b)


def _resumed(game: str, record: Record, log: str | None, computer: str | None, level: str, think: float,
             pace: float, lock: GameLock, seen: dict[str, bytes | None]) -> Session:
    """The session on the files as read (``seen``: the bytes each held when it was read, which a
    save must find there still)."""
    from ..formats.record_io import load_record

    full = record
    if log is not None:
        if not os.path.exists(log):
            if record.rounds or computer is not None:
                raise InputError(f"Mr. X's log {log} is missing: his stations were kept there", where="--mrx-log")
        else:
            seen[log] = Watched().read_now(log)
            full = load_record(log)
            _match(game, record, log, full)
    check_resumable(full, log if full is not record and log is not None else game)
    seed = (full.extra.get("play") or {}).get("seed", 0) if full is not record else 0
    session = Session(full, game, log, computer, think, seed, plies_of(full), level=level, pace=pace, lock=lock)
    for path in (game, log):
        if path is not None:
            session.watched.remember(path, seen.get(path))
    return session


def _bare(rec: Record) -> Record:
    from dataclasses import replace

    return replace(rec, extra={k: v for k, v in rec.extra.items() if k != "play"})


def _match(game: str, record: Record, log: str, full: Record) -> None:
    """The log must say what the record says, plus his stations: else :class:`InputError`
    naming the first move where they part and what would repair it."""
    if record_text(_bare(full.detectives_view()), game) == record_text(_bare(record), game):
        return
    ours, theirs = plies_of(record), plies_of(full.detectives_view())
    head = f"Mr. X's log {log} does not match the record {game}"
    if _bare(replace_rounds(full.detectives_view())) != _bare(replace_rounds(record)):
        raise InputError(f"{head}: other players, start cards, map or rules", where="--mrx-log")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            raise InputError(f"{head} from move {i + 1} on (the record: {_ply_words(a)}; the log: "
                             f"{_ply_words(b)}); to repair, take the moves from there on out of whichever file is "
                             "wrong (or restore it from a copy)", where="--mrx-log")
    longer, shorter = ("the record", "the log") if len(ours) > len(theirs) else ("the log", "the record")
    n = min(len(ours), len(theirs))
    raise InputError(f"{head}: {longer} has {abs(len(ours) - len(theirs))} more moves than {shorter} (from move "
                     f"{n + 1} on); to repair, take them out of {longer}, or add them to {shorter}",
                     where="--mrx-log")


def replace_rounds(rec: Record) -> Record:
    from dataclasses import replace

    return replace(rec, rounds=(), file=None, places={})


def _ply_words(p: Ply) -> str:
    from .report import mrx_entry_text

    if p.piece == MRX:
        return "X " + mrx_entry_text(p.mrx)
    d = p.detective
    assert d is not None
    return f"{d.name} {d.ticket.value} {d.to}"
