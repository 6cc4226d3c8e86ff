
"""Game records: the ``game.json`` format (version 1) and the compact text notation.

The parser checks the *shape* of a record (types, keys, known stations, tickets and names) and
reports every problem with its place (``rounds[3].detectives[1].to``).  Whether the moves are
*legal* is the referee's job (:mod:`sy_tools.analysis.referee`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..engine.board import Board
from ..engine.rules import Rules
from ..engine.stations import Station
from ..engine.tickets import Ticket
from ..errors import InputError, RecordError
from ..findings import Finding, Level, Location
from . import jsonutil

TICKETS = {t.value: t for t in Ticket}

#: How a library caller gets a :class:`Record` (said when something else is passed for one).
RECORD_HINT = "load one with sy_tools.load_record(path)"

#: the views of a record ``record convert --view`` offers: all of it, or the detectives' part
RECORD_VIEWS = ("full", "detectives")


class MrXMove(NamedTuple):
    """One travel-log entry: the ticket shown and, when known, the station.  (The moves and
    rounds are NamedTuples: a record holds hundreds of them and a batch thousands of records.)"""

    ticket: Ticket
    to: Station | None
    where: str
    #: a voluntary reveal (``rules.voluntary_reveal``): he showed himself at ``to`` after this
    #: hop and took ``took`` = (detective, ticket) in return
    shown: bool = False
    took: tuple[str, Ticket] | None = None


class DetectiveMove(NamedTuple):
    """A detective's move; ``capture`` marks the move that caught Mr. X."""

    name: str
    ticket: Ticket
    to: Station
    where: str
    capture: bool = False


class Round(NamedTuple):
    """Mr. X's move (one entry, two for a double move, none when he passes) then the
    detectives' moves."""

    mrx: tuple[MrXMove, ...]
    detectives: tuple[DetectiveMove, ...]
    where: str


@dataclass(frozen=True)
class Detective:
    name: str
    start: Station
    tickets: Mapping[str, int]


@dataclass(frozen=True)
class Record:
    """A parsed game record.  ``start_candidates`` is resolved (deck minus detective starts by
    default); ``mrx_start`` is Mr. X's true start when the record is a full one."""

    board: Board
    rules: Rules
    detectives: tuple[Detective, ...]
    start_candidates: tuple[Station, ...]
    rounds: tuple[Round, ...]
    mrx_tickets: Mapping[str, int]
    mrx_start: Station | None = None
    file: str | None = None
    map_spec: str = "london"
    candidates_spec: Any = None  # as written in the record (None: default)
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: for a text-notation record: JSON path -> the place as the player wrote it (see :meth:`place`)
    places: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_moves(self) -> int:
        """Mr. X moves recorded (each double-move leg counts; a pass is no move)."""
        return sum(len(r.mrx) for r in self.rounds)

    def place(self, where: str | None) -> str | None:
        """The place a message should name: for a text-notation record the line and round as
        the player wrote them (``rounds[1].detectives[0].to`` -> ``line 5 (Red, round 2)``);
        for game.json the JSON path itself."""
        return place_of(self.places, where)

    def absent_place(self, round_index: int, name: str) -> str | None:
        """Where detective ``name``'s move of round ``round_index`` (from 0) is or would be
        written, for a move the record leaves out: in the notation its own line and round
        (``line 5 (Blue, round 1)``, also for a ``Blue 197:`` with no entry yet); None for
        game.json (the JSON path ``rounds[0].detectives`` says it)."""
        return self.places.get(absent_key(round_index, name))

    def at_round(self, n_rounds: int | None) -> Record:
        """The record as it stood after round ``n_rounds`` (None: all of it); a round outside
        0..len(rounds) is an :class:`InputError` naming ``--round``."""
        if n_rounds is None:
            return self
        if not 0 <= n_rounds <= len(self.rounds):
            raise InputError(f"--round {n_rounds} is out of range: the record has rounds 0..{len(self.rounds)}",
                             self.file)
        return self.truncated(n_rounds)

    def truncated(self, n_rounds: int, n_detective_moves: int | None = None) -> Record:
        """The record as it was after ``n_rounds`` rounds, 0 to ``len(rounds)`` (the last one
        keeping only its first ``n_detective_moves`` detective moves when given, 0 or more);
        anything else is a :class:`TypeError` or :class:`ValueError` naming the argument."""
        from ..engine.args import int_arg

        n_rounds = int_arg(n_rounds, "n_rounds", 0)
        if n_rounds > len(self.rounds):
            raise InputError(f"n_rounds must be at most {len(self.rounds)} (the rounds the record holds), got {n_rounds}",
                             self.file)
        if n_detective_moves is not None:
            n_detective_moves = int_arg(n_detective_moves, "n_detective_moves", 0)
        rounds = list(self.rounds[:n_rounds])
        if rounds and n_detective_moves is not None:
            last = rounds[-1]
            rounds[-1] = Round(last.mrx, last.detectives[:n_detective_moves], last.where)
        return replace(self, rounds=tuple(rounds))

    @property
    def is_full(self) -> bool:
        """Whether the record holds anything only Mr. X knows: his true start or a station
        on a hidden move."""
        return self.mrx_start is not None or self.detectives_view().rounds != self.rounds

    def detectives_view(self) -> Record:
        """The record as the detectives kept it: no true start, no station on a hidden move
        (a fixed reveal's station, and a voluntary reveal's with the ticket he took, they saw)."""
        rounds = []
        n = 0
        for rnd in self.rounds:
            xs = []
            for m in rnd.mrx:
                n += 1
                seen = self.rules.is_reveal(n) or m.shown
                xs.append(m if seen or m.to is None else m._replace(to=None))
            rounds.append(rnd._replace(mrx=tuple(xs)))
        extra = self.extra
        if extra.get("play") is not None:
            from .play_header import public_header

            extra = {**extra, "play": public_header(extra["play"])}
        return replace(self, rounds=tuple(rounds), mrx_start=None, extra=extra)


class RecordErrors(RecordError):
    """Every shape problem of a record, as :class:`~sy_tools.findings.Finding` s (code
    ``schema``); ``str()`` is the first one (and how many more).

    Built from ``(where, message)`` pairs with ``where`` a JSON path; for a text-notation record
    ``places`` turns it into the player's place (``line 5 (Red, round 2)``), which messages name.
    Messages and places are clipped to a readable length."""

    def __init__(self, problems: list[tuple[str, str]], file: str | None,
                 places: Mapping[str, str] | None = None) -> None:
        self.findings = tuple(_schema_finding(w, m, file, places or {}) for w, m in problems)
        first = self.findings[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first.message + more, file, first.where)

    @property
    def problems(self) -> list[tuple[str, str]]:
        """``(where, message)`` of each finding (``where`` as messages name it)."""
        return [(f.where, f.message) for f in self.findings]

    def lines(self) -> list[str]:
        """One ``FILE: WHERE: message`` line per finding."""
        return [f.format(tagged=False) for f in self.findings]

#: The code of a record's shape problems (``check --format json`` on an unusable record).
SCHEMA = "schema"


def _schema_finding(where: str, message: str, file: str | None, places: Mapping[str, str]) -> Finding:
    path = jsonutil.clip(where, PLACE_LIMIT)
    place = jsonutil.clip(place_of(places, where) or "", PLACE_LIMIT)
    return Finding(Level.ERROR, SCHEMA, jsonutil.clip(message, MESSAGE_LIMIT),
                   Location(file, path=path, place=place if place != path else None))

#: longest message text a record error carries (values inside are quoted shorter still)
MESSAGE_LIMIT = 300

#: longest place (a JSON path can hold a key of any length)
PLACE_LIMIT = 120

_PATH_STEP = re.compile(r"(\.[^.\[]*|\[\d+\])$")


def record_map_path(map_spec: str, file: str | os.PathLike[str] | None) -> str:
    """Where the map a record names is read from: a relative path in a record is relative to
    the record's folder (``file``); ``london`` is the built-in map."""
    if map_spec != "london" and file and not os.path.isabs(map_spec):
        return os.path.join(os.path.dirname(file), map_spec)
    return map_spec


def absent_key(round_index: int, name: str) -> str:
    """The key of ``places`` under which the notation keeps where detective ``name``'s move of
    round ``round_index`` is or would be written (:meth:`Record.absent_place`)."""
    return f"rounds[{round_index}].detectives:{name}"


def place_of(places: Mapping[str, str], where: str | None) -> str | None:
    """``where`` (a JSON path) as the place in ``places`` of it or of its nearest enclosing
    path (``rounds[1].detectives[0].to`` falls back to ``rounds[1].detectives[0]``); unchanged
    when nothing encloses it (and always for game.json records, whose ``places`` is empty)."""
    if not places or not where:
        return where
    w = where
    while w:
        if w in places:
            return places[w]
        cut = _PATH_STEP.search(w)
        if cut is None or cut.start() == 0:
            break
        w = w[:cut.start()]
    return where


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _dups(obj: dict[str, Any], where: str, bad: Any) -> None:
    for k in jsonutil.pop_duplicates(obj):
        bad(_at(where, k), f"key {_show(k)} appears more than once")

_show = jsonutil.show
