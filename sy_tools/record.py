"""Game records: the ``game.json`` format (version 1) and the compact text notation.

The parser checks the *shape* of a record (types, keys, known stations, tickets and names) and
reports every problem with its place (``rounds[3].detectives[1].to``).  Whether the moves are
*legal* is the referee's job (:mod:`sy_tools.referee`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, NamedTuple

from . import jsonutil
from .board import Board, Station, Ticket
from .errors import InputError, RecordError
from .files import read_text
from .findings import Finding, Level, Location
from .movement import reserved_name
from .rules import MRX_TICKET_KINDS, PRESETS, Rules, rules_from_json, ticket_counts

TICKETS = {t.value: t for t in Ticket}


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
        """The record as it was after ``n_rounds`` rounds (the last one keeping only its first
        ``n_detective_moves`` detective moves when given)."""
        rounds = list(self.rounds[:n_rounds])
        if rounds and n_detective_moves is not None:
            last = rounds[-1]
            rounds[-1] = Round(last.mrx, last.detectives[:n_detective_moves], last.where)
        return replace(self, rounds=tuple(rounds))


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


# ---- reading ---------------------------------------------------------------------------------


def load_record(path: str | os.PathLike[str], fast: bool = False) -> Record:
    """Read a record file: ``.json`` (game.json v1) or the text notation (anything else).
    ``fast``: see :func:`parse_record_json` (same record, same errors; worth it for batches)."""
    name = os.fspath(path)
    return parse_record_text(read_text(name, RecordError), name, fast)


def is_json_record(text: str, file: str | None) -> bool:
    """Whether a record file holds game.json (named ``.json``, or text that opens with ``{``)
    rather than the text notation."""
    return (file or "").lower().endswith(".json") or text.lstrip().startswith("{")


def parse_record_text(text: str, file: str | None = None, fast: bool = False) -> Record:
    """A record file's text, game.json or the notation (see :func:`is_json_record`)."""
    if is_json_record(text, file):
        return parse_record_json(text, file, fast)
    doc, places = notation_places(text, file)
    return parse_record(doc, file, places)


def parse_record_json(text: str, file: str | None = None, fast: bool = False) -> Record:
    """Parse game.json text.  ``fast``: try the fast path first (:func:`fast_record`, for
    batches); whatever it can't vouch for goes to the collecting parser, which names every
    problem."""
    if fast:
        rec = fast_record(text, file)
        if rec is not None:
            return rec
    try:
        doc = jsonutil.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})", file) from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply", file) from None
    return parse_record(doc, file)


# ---- the fast path ----------------------------------------------------------------------------
#
# A batch of thousands of records spends most of its time checking their shape.  The fast path
# decodes a record straight into typed msgspec structs (types, required and unknown keys are
# checked in C) and checks the rest in one lean pass.  It only ever *accepts*: anything unusual
# (a backslash escape, a rules object, a failed check) returns None and the collecting parser
# below decides, so errors read exactly the same.  Repeated keys, which any JSON decoder
# silently merges, are caught by counting: outside strings a colon only separates a key from
# its value, and the fast path admits no string holding one, so the text has exactly one colon
# per key decoded unless a key was repeated.


@lru_cache(maxsize=1)
def _fast_decoder() -> Any:
    try:
        from . import _record_structs as structs
    except ImportError:  # pragma: no cover - msgspec is a dependency; the slow path still works
        return None
    from .mapio import load_board

    return structs.DECODER, structs.FAILURE, structs.UNSET, load_board


def warm_fast_path() -> None:
    """Load the fast path's decoder now (a batch does, before it forks its workers, which then
    share it instead of each importing msgspec)."""
    _fast_decoder()


def _wheres(i: int) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The places of round ``i`` and of its moves (made once: a batch repeats them a million times)."""
    w = f"rounds[{i}]"
    return w, tuple(f"{w}.mrx[{j}]" for j in range(2)), tuple(f"{w}.detectives[{k}]" for k in range(10))


_WHERE = [_wheres(i) for i in range(64)]


class Vouched(NamedTuple):
    """A game.json text the fast path vouches for: its decoded structs (``doc``, with ``UNSET``
    for missing keys) and the parts of its :class:`Record` that are not moves."""

    doc: Any
    board: Board
    rules: Rules
    #: each detective's tickets when the record gives them (else None: the rules' own)
    detective_tickets: list[dict[str, int] | None]
    start_candidates: tuple[Station, ...]
    mrx_tickets: Mapping[str, int]
    mrx_start: Station | None
    map_spec: str
    candidates_spec: Any
    extra: dict[str, Any]


def fast_record(text: str, file: str | None = None) -> Record | None:
    """The record in game.json ``text`` if the fast path can vouch for it, else None (then
    :func:`parse_record` decides).  Same :class:`Record` as :func:`parse_record` gives."""
    v = vouched(text, file)
    if v is None:
        return None
    new = tuple.__new__
    U = _fast_decoder()[2]
    raw_rounds = v.doc.rounds
    rounds: list[Round] = []
    if raw_rounds is not U and raw_rounds:
        wheres = _WHERE if len(raw_rounds) <= len(_WHERE) else [_wheres(i) for i in range(len(raw_rounds))]
        rounds = [
            new(Round, (
                tuple([new(MrXMove, (m.ticket, None if m.to is U else m.to, where, False, None))
                       for m, where in zip(rd.mrx, xw)]),
                () if rd.detectives is U else
                tuple([new(DetectiveMove, (dm.name, dm.ticket, dm.to, where, dm.capture is True))
                       for dm, where in zip(rd.detectives, dw)]),
                w))
            for rd, (w, xw, dw) in zip(raw_rounds, wheres)
        ]
    return Record(
        board=v.board,
        rules=v.rules,
        detectives=tuple(Detective(d.name, d.start, dict(v.rules.detective_tickets) if t is None else t)
                         for d, t in zip(v.doc.detectives, v.detective_tickets)),
        start_candidates=v.start_candidates,
        rounds=tuple(rounds),
        mrx_tickets=v.mrx_tickets,
        mrx_start=v.mrx_start,
        file=file,
        map_spec=v.map_spec,
        candidates_spec=v.candidates_spec,
        extra=v.extra,
    )


def vouched(text: str, file: str | None = None) -> Vouched | None:
    """What the fast path makes of game.json ``text`` (every check :func:`parse_record` makes,
    short of building the moves), or None when it can't vouch for it."""
    fast = _fast_decoder()
    if fast is None or "\\" in text:
        return None
    decoder, failure, U, load_board = fast
    try:
        doc = decoder.decode(text)
    except failure:
        return None
    keys = 1  # "detectives"
    if doc.version is not U:
        if doc.version != 1:
            return None
        keys += 1
    map_spec = "london"
    if doc.map is not U:
        map_spec = doc.map
        keys += 1
    if not map_spec or ":" in map_spec:
        return None
    resolved = map_spec
    if map_spec != "london" and file and not os.path.isabs(map_spec):
        resolved = os.path.join(os.path.dirname(file), map_spec)
    try:
        board = load_board(resolved)
        rules = PRESETS["classic"]
        extra: dict[str, Any] = {}
        if doc.rules is not U:
            rules = PRESETS[doc.rules]
            extra["rules"] = doc.rules
            keys += 1
        if doc.comment is not U:
            if ":" in doc.comment:
                return None
            extra["comment"] = doc.comment
            keys += 1
        nb = board.neighbours[Ticket.TAXI]  # every station of a valid map has an entry
        dets = doc.detectives
        det_tickets: list[dict[str, int] | None] = []
        names = set()
        for d in dets:
            name = d.name
            if (name in names or ":" in name or not name.strip() or not name.isprintable() or d.start not in nb
                    or reserved_name(name)):
                return None
            names.add(name)
            keys += 2
            if d.tickets is U:
                det_tickets.append(None)
            else:
                det_tickets.append(ticket_counts(d.tickets, ("taxi", "bus", "underground"),
                                                 dict(rules.detective_tickets), "", None))
                keys += 1 + len(d.tickets)
        if not 1 <= len(dets) <= 5:
            return None
        det_starts = {d.start for d in dets}
        mrx_tickets = rules.mrx_start_tickets(len(dets))
        cand_spec: Any = None
        mrx_start = None
        mrx = doc.mrx
        if mrx is not U:
            keys += 1
            if mrx.start_candidates is not U:
                cand_spec = mrx.start_candidates
                keys += 1
            if mrx.start is not U:
                if mrx.start not in nb:
                    return None
                mrx_start = mrx.start
                keys += 1
            if mrx.tickets is not U:
                mrx_tickets = ticket_counts(mrx.tickets, MRX_TICKET_KINDS, mrx_tickets, "", None)
                keys += 1 + len(mrx.tickets)
        if cand_spec is None:
            candidates = tuple(sorted(set(board.start_decks[rules.mrx_deck]) - det_starts))
        elif cand_spec == "any":
            candidates = tuple(s for s in board.stations if s not in det_starts)
        elif isinstance(cand_spec, list) and cand_spec and all(s in nb for s in cand_spec):
            candidates = tuple(sorted(set(cand_spec)))
        else:
            return None
    except (InputError, KeyError, OSError, ValueError):
        return None
    raw_rounds = doc.rounds
    if raw_rounds is not U and raw_rounds:
        # checks over all moves at once (comprehensions run far faster than a loop per round)
        xs = [m for rd in raw_rounds for m in rd.mrx]
        dl = [rd.detectives for rd in raw_rounds if rd.detectives is not U]
        ds = [dm for moves in dl for dm in moves]
        keys += (1 + len(raw_rounds) + len(dl) + len(xs) + 3 * len(ds) + sum([m.to is not U for m in xs])
                 + sum([dm.capture is not U for dm in ds]))
        if not {dm.name for dm in ds} <= names:
            return None
        tos = {dm.to for dm in ds}
        tos.update([m.to for m in xs if m.to is not U and m.to is not None])
        if not nb.keys() >= tos:  # (a keys view: checks each of tos, in C)
            return None
        for n in rules.reveal_moves:
            if n <= len(xs) and (xs[n - 1].to is U or xs[n - 1].to is None):
                return None
    elif raw_rounds is not U:
        keys += 1
    if text.count(":") != keys:
        return None  # a key appears twice (or a colon hides somewhere unusual): let the collector say
    return Vouched(doc, board, rules, det_tickets, candidates, mrx_tickets, mrx_start, map_spec, cand_spec, extra)


_TOP_KEYS = {"version", "map", "rules", "detectives", "mrx", "rounds", "comment"}


def parse_record(doc: Any, file: str | None = None, places: Mapping[str, str] | None = None) -> Record:
    """Build a :class:`Record` from the decoded JSON document, collecting every shape problem.

    ``places`` (from :func:`notation_places`) maps JSON paths to the lines of a text record, so
    that every message names the line and round as the player wrote them."""
    places = dict(places or {})
    top_problems = _check_top(doc, file, places)
    map_spec, board = _record_board(doc, file, places)
    rules = _record_rules(doc, file, places)
    shape = _Shape(board, top_problems)
    dets, names = _detectives(doc.get("detectives"), rules, shape)
    n_listed = len(doc["detectives"]) if isinstance(doc.get("detectives"), list) else 0
    candidates, cand_spec, mrx_start, mrx_tickets = _mrx_part(doc.get("mrx", {}), board, rules, dets, n_listed, shape)
    rounds = _rounds(doc.get("rounds", []), names, shape)
    if shape.probs:
        raise RecordErrors(shape.probs, file, places)
    return Record(
        board=board,
        rules=rules,
        detectives=tuple(dets),
        start_candidates=candidates,
        rounds=tuple(rounds),
        mrx_tickets=mrx_tickets,
        mrx_start=mrx_start,
        file=file,
        map_spec=map_spec,
        candidates_spec=cand_spec,
        extra={k: doc[k] for k in ("rules", "comment") if k in doc},
        places=places,
    )


def _check_top(doc: Any, file: str | None, places: Mapping[str, str]) -> list[tuple[str, str]]:
    """The document as a whole: an object of readable text (else it stops here), then the
    problems of its top-level keys and version (reported with the rest, after map and rules)."""
    if not isinstance(doc, dict):
        raise RecordErrors([("", f"expected a JSON object at the top, got {_kind(doc)}")], file)
    probs: list[tuple[str, str]] = []

    def bad(where: str, msg: str) -> None:
        probs.append((where, msg))

    jsonutil.scan(doc, "", bad)
    if probs:  # repeated keys, text that is not Unicode: nothing below could quote it safely
        raise RecordErrors(probs, file, places)
    for k in doc:
        if k not in _TOP_KEYS:
            bad(k, f"unknown key {k!r} (expected {', '.join(sorted(_TOP_KEYS))})")
    if doc.get("version", 1) != 1:
        bad("version", f"unsupported record version {doc.get('version')!r}, expected 1")
    return probs


def _record_board(doc: dict[str, Any], file: str | None, places: Mapping[str, str]) -> tuple[str, Board]:
    """``map`` as written and the board it names (relative to the record's folder); without
    a board nothing else can be checked, so a problem here stops the reading."""
    from .mapio import load_board

    map_spec = doc.get("map", "london")
    if not isinstance(map_spec, str) or not map_spec:
        raise RecordErrors([("map", f"expected a built-in map name or a path, got {_show(map_spec)}")], file, places)
    resolved = map_spec
    if map_spec != "london" and file and not os.path.isabs(map_spec):
        resolved = os.path.join(os.path.dirname(file), map_spec)
    try:
        return map_spec, load_board(resolved)
    except InputError as e:
        raise RecordErrors([("map", f"cannot use map {_show(map_spec)}: {e.detail}")], file, places) from None
    except (OSError, ValueError) as e:  # a name too long for the file system, a NUL in it ...
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise RecordErrors([("map", f"cannot use map {_show(map_spec)}: {why}")], file, places) from None


def _record_rules(doc: dict[str, Any], file: str | None, places: Mapping[str, str]) -> Rules:
    """``rules``: a preset name or an object of overrides (a problem here stops the reading)."""
    raw_rules = doc.get("rules")
    if isinstance(raw_rules, dict) and raw_rules.get("log_length") == 0 and raw_rules["log_length"] is not False:
        raise RecordErrors([("rules.log_length", "the travel log must hold at least 1 move, got 0")], file, places)
    try:
        return rules_from_json(raw_rules, "rules", None)
    except InputError as e:
        raise RecordErrors([(e.where or "rules", e.detail)], file, places) from None


class _Shape:
    """Collects a record's shape problems as ``(where, message)`` and checks the small pieces
    (stations, tickets, keys) against the board."""

    def __init__(self, board: Board, probs: list[tuple[str, str]]) -> None:
        self.board = board
        self.probs = probs

    def bad(self, where: str, msg: str) -> None:
        self.probs.append((where, msg))

    def station(self, v: Any, where: str) -> Station | None:
        if not (isinstance(v, int) and not isinstance(v, bool)):
            self.bad(where, f"expected a station number, got {_show(v)}")
            return None
        board = self.board
        if v not in board:
            self.bad(where, f"station {v} is not on the map {board.name!r} "
                            f"(stations {board.stations[0]}..{board.stations[-1]})")
            return None
        return v

    def ticket(self, v: Any, where: str) -> Ticket | None:
        if not isinstance(v, str) or v not in TICKETS:
            self.bad(where, f"unknown ticket {_show(v)}, expected one of taxi, bus, underground, black")
            return None
        return TICKETS[v]

    def keys(self, obj: dict[str, Any], allowed: set[str], required: set[str], where: str) -> None:
        _dups(obj, where, self.bad)
        for k in obj:
            if k not in allowed:
                self.bad(_at(where, k), f"unknown key {k!r} (expected {', '.join(sorted(allowed))})")
        for k in sorted(required - set(obj)):
            self.bad(_at(where, k), f"missing key {k!r}")


def _detectives(raw_dets: Any, rules: Rules, shape: _Shape) -> tuple[list[Detective], set[str]]:
    """``detectives``: the well-formed ones (in turn order) and their names."""
    dets: list[Detective] = []
    if not isinstance(raw_dets, list) or not raw_dets:
        shape.bad("detectives", f"expected a non-empty list of detectives, got {_show(raw_dets)}")
        raw_dets = []
    names: set[str] = set()
    for i, d in enumerate(raw_dets):
        w = f"detectives[{i}]"
        if not isinstance(d, dict):
            shape.bad(w, f"expected an object with name and start, got {_show(d)}")
            continue
        shape.keys(d, {"name", "start", "tickets"}, {"name", "start"}, w)
        name = d.get("name")
        if "name" in d and (not isinstance(name, str) or not name.strip() or not name.isprintable()):
            shape.bad(f"{w}.name", f"expected a non-empty name of printable characters, got {_show(name)}")
            name = None
        elif isinstance(name, str) and name in names:
            shape.bad(f"{w}.name", f"detective name {name!r} is used twice")
            name = None
        elif isinstance(name, str) and reserved_name(name):
            shape.bad(f"{w}.name", f"a detective cannot be called {name!r}: the name is Mr. X's")
            name = None
        start = shape.station(d["start"], f"{w}.start") if "start" in d else None
        tickets = dict(rules.detective_tickets)
        if "tickets" in d:
            try:
                tickets = ticket_counts(d["tickets"], ("taxi", "bus", "underground"), tickets, f"{w}.tickets", None)
            except InputError as e:
                shape.bad(e.where or w, e.detail)
        if isinstance(name, str) and start is not None:
            names.add(name)
            dets.append(Detective(name, start, tickets))
    if len(dets) > 5:
        shape.bad("detectives", f"at most 5 detectives, got {len(dets)}")
    return dets, names


def _mrx_part(mrx: Any, board: Board, rules: Rules, dets: list[Detective], n_listed: int,
              shape: _Shape) -> tuple[tuple[Station, ...], Any, Station | None, dict[str, int]]:
    """``mrx``: ``(start candidates, start_candidates as written, true start, tickets)``
    (``n_listed``: the detectives listed, which set Mr. X's black tickets under some rules)."""
    mrx_tickets = rules.mrx_start_tickets(n_listed)
    candidates: tuple[Station, ...] = ()
    cand_spec = None
    mrx_start = None
    if not isinstance(mrx, dict):
        shape.bad("mrx", f"expected an object, got {_show(mrx)}")
        mrx = {}
    shape.keys(mrx, {"start_candidates", "start", "tickets"}, set(), "mrx")
    det_starts = {d.start for d in dets}
    if "start_candidates" in mrx:
        cand_spec = mrx["start_candidates"]
        if cand_spec == "any":
            candidates = tuple(s for s in board.stations if s not in det_starts)
        elif isinstance(cand_spec, list) and cand_spec:
            got = [shape.station(v, f"mrx.start_candidates[{j}]") for j, v in enumerate(cand_spec)]
            candidates = tuple(sorted({s for s in got if s is not None}))
        else:
            shape.bad("mrx.start_candidates", f'expected a non-empty list of stations or "any", got {_show(cand_spec)}')
    else:
        deck = board.start_decks.get(rules.mrx_deck)
        if deck is None:
            shape.bad("mrx.start_candidates", f"the map has no start deck {rules.mrx_deck!r}; give start_candidates "
                      f'(a list or "any")')
        else:
            candidates = tuple(sorted(set(deck) - det_starts))
    if "start" in mrx:
        mrx_start = shape.station(mrx["start"], "mrx.start")
    if "tickets" in mrx:
        try:
            mrx_tickets = ticket_counts(mrx["tickets"], MRX_TICKET_KINDS, mrx_tickets, "mrx.tickets", None)
        except InputError as e:
            shape.bad(e.where or "mrx.tickets", e.detail)
    return candidates, cand_spec, mrx_start, mrx_tickets


def _rounds(raw_rounds: Any, names: set[str], shape: _Shape) -> list[Round]:
    """``rounds``: Mr. X's move (or two, or none) then the detectives' moves, per round."""
    rounds: list[Round] = []
    for w, rnd in jsonutil.objects(raw_rounds, "rounds", "a round", shape.bad):
        shape.keys(rnd, {"mrx", "detectives"}, {"mrx"}, w)
        xs = _mrx_moves(rnd, w, names, shape)
        ds: list[DetectiveMove] = []
        for mw, m in jsonutil.objects(rnd.get("detectives", []), f"{w}.detectives", "a detective move", shape.bad):
            dm = _detective_move(m, mw, names, shape)
            if dm is not None:
                ds.append(dm)
        rounds.append(Round(tuple(xs), tuple(ds), w))
    return rounds


def _mrx_moves(rnd: dict[str, Any], w: str, names: set[str], shape: _Shape) -> list[MrXMove]:
    """Mr. X's legs of round ``w``: one, two for a double move, none for a pass."""
    xs: list[MrXMove] = []
    raw_x = rnd.get("mrx", [])
    if not isinstance(raw_x, list) or len(raw_x) > 2:
        if "mrx" in rnd:
            shape.bad(f"{w}.mrx", f"expected one move, two for a double move, or [] for a pass, got {_show(raw_x)}")
        raw_x = raw_x if isinstance(raw_x, list) else []
    for j, m in enumerate(raw_x[:2]):
        mw = f"{w}.mrx[{j}]"
        if not isinstance(m, dict):
            shape.bad(mw, f"expected an object like {{\"ticket\": \"taxi\"}}, got {_show(m)}")
            continue
        shape.keys(m, {"ticket", "to", "shown", "took"}, {"ticket"}, mw)
        t = shape.ticket(m["ticket"], f"{mw}.ticket") if "ticket" in m else None
        to = shape.station(m["to"], f"{mw}.to") if m.get("to") is not None else None
        shown, took = _voluntary(m, mw, names, to, shape.bad)
        if t is not None:
            xs.append(MrXMove(t, to, mw, shown, took))
    if sum(m.shown for m in xs) > 1:
        shape.bad(xs[1].where + ".shown", "Mr. X shows himself at most once in a move (one leg of a double move)")
    return xs


def _detective_move(m: dict[str, Any], mw: str, names: set[str], shape: _Shape) -> DetectiveMove | None:
    """One detective move (None when it has a problem, reported)."""
    shape.keys(m, {"name", "ticket", "to", "capture"}, {"name", "ticket", "to"}, mw)
    name = m.get("name")
    if "name" in m and (not isinstance(name, str) or name not in names):
        shape.bad(f"{mw}.name", f"unknown detective {_show(name)} (detectives: {', '.join(sorted(names)) or 'none'})")
    t = shape.ticket(m["ticket"], f"{mw}.ticket") if "ticket" in m else None
    to = shape.station(m["to"], f"{mw}.to") if "to" in m else None
    cap = m.get("capture", False)
    if not isinstance(cap, bool):
        shape.bad(f"{mw}.capture", f"expected true or false, got {_show(cap)}")
        cap = False
    if isinstance(name, str) and name in names and t is not None and to is not None:
        return DetectiveMove(name, t, to, mw, cap)
    return None


def _voluntary(m: dict[str, Any], mw: str, names: set[str], to: Station | None,
               bad: Any) -> tuple[bool, tuple[str, Ticket] | None]:
    """The shape of a voluntary reveal on a Mr. X move: ``"shown": true`` with ``to`` and
    ``"took": {"from": DETECTIVE, "ticket": taxi|bus|underground}`` (whether the rules allow it
    and the detective held the ticket is the referee's question)."""
    shown = m.get("shown", False)
    if not isinstance(shown, bool):
        bad(f"{mw}.shown", f"expected true or false, got {_show(shown)}")
        return False, None
    if "took" not in m:
        if shown:
            bad(f"{mw}.took", 'a voluntary reveal ("shown": true) needs "took": {"from": DETECTIVE, "ticket": ...}')
        return False, None
    if not shown:
        bad(f"{mw}.took", '"took" belongs to a voluntary reveal: add "shown": true')
        return False, None
    if "to" not in m or m["to"] is None:
        bad(f"{mw}.to", 'a voluntary reveal ("shown": true) needs the station he showed ("to")')
    raw = m["took"]
    tw = f"{mw}.took"
    if not isinstance(raw, dict):
        bad(tw, f'expected an object like {{"from": "Red", "ticket": "bus"}}, got {_show(raw)}')
        return False, None
    _dups(raw, tw, bad)
    for k in raw:
        if k not in ("from", "ticket"):
            bad(_at(tw, k), f"unknown key {k!r} (expected from, ticket)")
    who, kind = raw.get("from"), raw.get("ticket")
    ok = True
    if not isinstance(who, str) or who not in names:
        bad(f"{tw}.from", f"unknown detective {_show(who)} (detectives: {', '.join(sorted(names)) or 'none'})")
        ok = False
    if kind not in ("taxi", "bus", "underground"):
        bad(f"{tw}.ticket", f"expected a detective's ticket (taxi, bus or underground), got {_show(kind)}")
        ok = False
    if not ok or to is None or not isinstance(who, str) or not isinstance(kind, str):
        return False, None
    return True, (who, TICKETS[kind])


def _shown_json(m: MrXMove) -> dict[str, Any]:
    if m.took is None:
        return {}
    return {"shown": True, "took": {"from": m.took[0], "ticket": m.took[1].value}}


def _rules_json(rec: Record) -> Any:
    """The record's ``rules`` value, normalised (None: the record named none)."""
    if "rules" not in rec.extra:
        return None
    return rec.rules.to_record()


def map_spec_for(rec: Record, dest: str | os.PathLike[str] | None = None) -> str:
    """The record's ``map`` as a record written to ``dest`` must say it: a relative path is
    relative to the record's folder, so it is rewritten when ``dest`` is in another folder."""
    spec = rec.map_spec
    if dest is None or rec.file is None or spec == "london" or os.path.isabs(spec):
        return spec
    src_dir = os.path.abspath(os.path.dirname(rec.file))
    dst_dir = os.path.abspath(os.path.dirname(os.fspath(dest)))
    if src_dir == dst_dir:
        return spec
    return os.path.relpath(os.path.join(src_dir, spec), dst_dir)


def record_to_json(rec: Record, dest: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The game.json (v1) document of a record (``dest``: where it will be written, to keep a
    relative ``map`` path pointing at the same file)."""
    doc: dict[str, Any] = {"version": 1, "map": map_spec_for(rec, dest)}
    rules = _rules_json(rec)
    if rules is not None:
        doc["rules"] = rules
    if "comment" in rec.extra:
        doc["comment"] = rec.extra["comment"]
    dets = []
    for d in rec.detectives:
        e: dict[str, Any] = {"name": d.name, "start": d.start}
        if dict(d.tickets) != dict(rec.rules.detective_tickets):
            e["tickets"] = dict(d.tickets)
        dets.append(e)
    doc["detectives"] = dets
    mrx: dict[str, Any] = {}
    if rec.candidates_spec is not None:
        mrx["start_candidates"] = rec.candidates_spec if rec.candidates_spec == "any" else list(rec.start_candidates)
    if rec.mrx_start is not None:
        mrx["start"] = rec.mrx_start
    if dict(rec.mrx_tickets) != rec.rules.mrx_start_tickets(len(rec.detectives)):
        mrx["tickets"] = dict(rec.mrx_tickets)
    if mrx:
        doc["mrx"] = mrx
    rounds = []
    for rnd in rec.rounds:
        xs = [{"ticket": m.ticket.value, **({"to": m.to} if m.to is not None else {}), **_shown_json(m)}
              for m in rnd.mrx]
        ds = [{"name": m.name, "ticket": m.ticket.value, "to": m.to, **({"capture": True} if m.capture else {})}
              for m in rnd.detectives]
        rounds.append({"mrx": xs, "detectives": ds})
    doc["rounds"] = rounds
    return doc


def record_json_text(rec: Record, dest: str | os.PathLike[str] | None = None) -> str:
    """Pretty game.json text: one round per line block, easy to diff."""
    doc = record_to_json(rec, dest)
    rounds = doc.pop("rounds")
    head = json.dumps(doc, indent=2, ensure_ascii=False)[:-2]
    body = ",\n".join(
        "    {\"mrx\": " + json.dumps(r["mrx"]) + ",\n     \"detectives\": "
        + json.dumps(r["detectives"], ensure_ascii=False) + "}"
        for r in rounds
    )
    return head + ',\n  "rounds": [\n' + body + ("\n" if body else "") + "  ]\n}\n"


# ---- the text notation ------------------------------------------------------------------------
#
#   # comments start with '#'
#   map london                     (optional; default london; a path with spaces is "quoted")
#   rules classic                  (optional; a preset name)
#   rule log_length 30             (optional, any number: a rule override, see 'sy-tools rules')
#   comment "a game at the table"  (optional: the record's comment)
#   start 35 45 51                 (optional: Mr. X's start candidates, or 'start any')
#   tickets X: T 4, B 3, U 3, K 5, 2X 2   (optional: Mr. X's tickets at the start)
#   tickets Red: T 10, B 8, U 4    (optional: a detective's tickets at the start)
#   X: T, B, U 46, 2X B/K 67, -    (Mr. X, one entry per round; 'X 45:' gives his true start;
#                                   '-' = he passes, trapped where the rules let him)
#   Red 13: T 23, T 37, -, B 15!   (a detective and its start; '-' = no move; '!' = capture)
#   "Inspector Lestrade" 42: T 41  (a name that is not a plain word is quoted, as in JSON)
#
# Tickets: T taxi, B bus, U underground, K black (also 'black'); a station after the ticket
# ('U 46', 'U46' or 'U@46') is where the piece went; '2X a/b' is a double move.  A voluntary
# reveal (rule voluntary_reveal) follows Mr. X's hop: 'B 46 show Red T' (he showed himself at 46
# and took Red's taxi ticket).

_LETTERS = {"T": "taxi", "B": "bus", "U": "underground", "K": "black", "BLACK": "black", "S": "black",
            "TAXI": "taxi", "BUS": "bus", "UNDERGROUND": "underground"}
_LETTER_OF = {"taxi": "T", "bus": "B", "underground": "U", "black": "K", "double": "2X"}
_COUNT_KINDS = {**_LETTERS, "2X": "double", "DOUBLE": "double"}
_MOVE = re.compile(r"([A-Za-z]+)\s*@?\s*([0-9]+)?\s*(!)?", re.ASCII)
_COUNT = re.compile(r"(2X|[A-Za-z]+)\s*([0-9]+)", re.ASCII | re.IGNORECASE)
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.'-]*", re.ASCII)
_PLAIN_PATH = re.compile(r"[A-Za-z0-9_./-]+", re.ASCII)
_KEYWORDS = {"map", "rules", "rule", "comment", "start", "tickets", "x"}
#: longest station number or count the notation reads (anything longer is a typo)
_MAX_DIGITS = 18


def _is_mrx_alias(word: str) -> bool:
    return re.sub(r"[^a-z]", "", word.lower()) in ("mrx", "misterx")


def _word(s: str, path: bool = False) -> str:
    """``s`` as the notation writes it: bare when it is a plain word, else a JSON string."""
    plain = _PLAIN_PATH if path else _PLAIN
    if plain.fullmatch(s) and s.lower() not in _KEYWORDS and not _is_mrx_alias(s):
        return s
    return json.dumps(s, ensure_ascii=False)


def _nat(s: str) -> bool:
    """An ASCII decimal number of a sane length (``'²'.isdigit()`` is True, ``int('²')`` fails)."""
    return s.isascii() and s.isdigit() and len(s) <= _MAX_DIGITS


def _outside_quotes(line: str, ch: str) -> int:
    """Index of the first ``ch`` in ``line`` that is not inside a "quoted" name (-1: none)."""
    if '"' not in line:
        return line.find(ch)
    quoted = escaped = False
    for i, c in enumerate(line):
        if quoted:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == ch:
            return i
    return -1


def _tokens(text: str) -> list[tuple[bool, str]]:
    """Words and "quoted" strings: ``[(quoted?, text), ...]`` (ValueError on a bad quote)."""
    out: list[tuple[bool, str]] = []
    i, n = 0, len(text)
    dec = json.JSONDecoder()
    while i < n:
        if text[i].isspace():
            i += 1
        elif text[i] == '"':
            try:
                value, i = dec.raw_decode(text, i)
            except json.JSONDecodeError:
                raise ValueError(f"a quoted name is not closed or has a bad escape: {jsonutil.clip(text[i:], 40)}") from None
            out.append((True, value))
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] != '"':
                j += 1
            out.append((False, text[i:j]))
            i = j
    return out


class _Notation:
    """The notation parser's state: the document being built and where each part was written."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.doc: dict[str, Any] = {}
        self.places: dict[str, str] = {}
        self.seen: dict[str, int] = {}
        self.rules_line = 0
        self.overrides: dict[str, Any] = {}
        self.x: tuple[int, int | None, list[str]] | None = None  # line, start, entries
        self.dets: list[tuple[str, int, int, list[str]]] = []  # name, start, line, entries
        self.tickets: dict[str, tuple[int, dict[str, int]]] = {}  # "X" or name -> line, counts

    def err(self, place: str, msg: str) -> RecordError:
        return RecordError(jsonutil.clip(msg, MESSAGE_LIMIT), self.file, place)

    def once(self, key: str, n: int) -> None:
        if key in self.seen:
            raise self.err(f"line {n}", f"'{key}' appears twice (first on line {self.seen[key]})")
        self.seen[key] = n


def notation_places(text: str, file: str | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """The text notation as a game.json document, and where each part of it was written: a map
    from JSON paths (``rounds[1].detectives[0]``) to the player's place (``line 5 (Red, round
    2)``).  Raises :class:`RecordError` naming the line on anything it can't read."""
    st = _Notation(file)
    for n, raw in enumerate(text.split("\n"), 1):
        cut = _outside_quotes(raw, "#")
        line = (raw if cut < 0 else raw[:cut]).strip()
        if line:
            try:
                _notation_line(st, line, n)
            except ValueError as e:
                raise st.err(f"line {n}", str(e)) from None
    return _notation_doc(st)


def parse_notation(text: str, file: str | None = None) -> dict[str, Any]:
    """Turn the text notation into a game.json document (raises :class:`RecordError` with the
    line number on anything it can't read)."""
    return notation_places(text, file)[0]


def _notation_line(st: _Notation, line: str, n: int) -> None:
    colon = _outside_quotes(line, ":")
    if colon >= 0:
        head, rest = _tokens(line[:colon]), line[colon + 1:]
        entries = [e.strip() for e in rest.split(",")] if rest.strip() else []
        if head and not head[0][0] and head[0][1].lower() == "tickets":
            return _tickets_line(st, head[1:], entries, n)
        return _piece_line(st, head, entries, line[:colon].strip(), n)
    words = _tokens(line)
    if not words or words[0][0]:
        raise ValueError(f"cannot read {jsonutil.clip(line, 60)!r}; a name starts a line only before "
                         f"'START: moves'")
    key, args = words[0][1].lower(), words[1:]
    if key in ("map", "comment") and len(args) == 1:
        st.once(key, n)
        st.doc[key] = args[0][1]
        st.places[key] = f"line {n}"
    elif key == "rules" and len(args) == 1 and not args[0][0]:
        st.once(key, n)
        st.doc["rules"] = args[0][1]
        st.rules_line = n
    elif key == "rule" and args and not args[0][0]:
        name = args[0][1]
        st.once(f"rule {name}", n)
        st.overrides[name] = _rule_value(name, args[1:])
        st.places[f"rules.{name}"] = f"line {n}"
        st.rules_line = st.rules_line or n
    elif key == "start" and [a for _, a in args] == ["any"]:
        st.once(key, n)
        st.doc.setdefault("mrx", {})["start_candidates"] = "any"
        st.places["mrx.start_candidates"] = f"line {n}"
    elif key == "start" and args and all(not q and _nat(a) for q, a in args):
        st.once(key, n)
        st.doc.setdefault("mrx", {})["start_candidates"] = [int(a) for _, a in args]
        st.places["mrx.start_candidates"] = f"line {n}"
    else:
        raise ValueError(f"cannot read {jsonutil.clip(line, 60)!r}; expected map NAME, rules PRESET, rule NAME VALUE, "
                         "comment TEXT, start STATIONS, tickets WHO: COUNTS, X: ... or NAME START: ...")


def _piece_line(st: _Notation, head: list[tuple[bool, str]], entries: list[str], written: str, n: int) -> None:
    shown = jsonutil.clip(written, 40)
    if not head:
        raise ValueError("expected 'X: ...' or 'NAME START: ...' before the colon")
    quoted, first = head[0]
    if not quoted and first == "X":
        if st.x is not None:
            raise ValueError(f"Mr. X's line 'X: ...' appears twice (first on line {st.x[0]})")
        if len(head) == 2 and not head[1][0] and _nat(head[1][1]):
            st.x = (n, int(head[1][1]), entries)
        elif len(head) == 1:
            st.x = (n, None, entries)
        else:
            raise ValueError(f"expected 'X:' or 'X START:', got {shown!r}")
        return
    if not quoted and (_is_mrx_alias("".join(w for _, w in head[:3])) or _is_mrx_alias(first)):
        raise ValueError(f"Mr. X's line is written 'X: ...' (or 'X START: ...'), got {shown!r}; "
                         'to name a detective so, quote the name: "MrX" 13: ...')
    if len(head) != 2 or head[1][0] or not _nat(head[1][1]):
        raise ValueError(f"expected a detective as 'NAME START:' (a name with spaces is \"quoted\"), got {shown!r}")
    st.dets.append((first, int(head[1][1]), n, entries))


def _tickets_line(st: _Notation, head: list[tuple[bool, str]], entries: list[str], n: int) -> None:
    if len(head) != 1:
        raise ValueError("expected 'tickets X: T 4, B 3, ...' or 'tickets NAME: T 10, B 8, U 4'")
    quoted, who = head[0]
    key = who if quoted or who != "X" else "\0X"
    if key in st.tickets:
        raise ValueError(f"tickets for {_word(who)} appear twice (first on line {st.tickets[key][0]})")
    st.tickets[key] = (n, _counts(entries))


def _counts(entries: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in entries:
        m = _COUNT.fullmatch(e)
        kind = _COUNT_KINDS.get(m.group(1).upper()) if m else None
        if m is None or kind is None or not _nat(m.group(2)):
            raise ValueError(f"cannot read ticket count {jsonutil.clip(e, 30)!r}; expected e.g. 'T 10' "
                             "(T, B, U, K or 2X and a number)")
        if kind in out:
            raise ValueError(f"ticket {kind} is counted twice")
        out[kind] = int(m.group(2))
    return out


def _rule_value(name: str, args: list[tuple[bool, str]]) -> Any:
    """A rule override's value, typed as the field is in ``sy-tools rules --format json``."""
    from .rules import preset

    ref = preset("classic").to_dict().get(name)
    words = [w for _, w in args]
    if isinstance(ref, bool):
        if len(args) == 1 and not args[0][0] and words[0].lower() in ("true", "false"):
            return words[0].lower() == "true"
        raise ValueError(f"rule {name}: expected true or false")
    if isinstance(ref, int):
        if len(args) == 1 and not args[0][0] and _nat(words[0]):
            return int(words[0])
        raise ValueError(f"rule {name}: expected a number")
    if isinstance(ref, list):
        if words == ["none"]:
            return []
        nums = " ".join(words).replace(",", " ").split()
        if not all(_nat(x) for x in nums):
            raise ValueError(f"rule {name}: expected move numbers separated by spaces, or 'none'")
        return [int(x) for x in nums]
    if isinstance(ref, dict):
        return _counts([e.strip() for e in " ".join(words).split(",") if e.strip()])
    if len(args) != 1:
        raise ValueError(f"rule {name}: expected one value (a \"quoted\" one if it has spaces)")
    return words[0]  # a string field, or an unknown rule the rules reader reports


def _notation_doc(st: _Notation) -> tuple[dict[str, Any], dict[str, str]]:
    doc, places = st.doc, st.places
    if not st.dets:
        raise RecordError("no detectives: add a line like 'Red 13: T 23, B 15'", st.file)
    if st.overrides:
        base = doc.get("rules", "classic")
        doc["rules"] = {"preset": base, **st.overrides}
    if st.rules_line:
        places["rules"] = f"line {st.rules_line}"
    x_line, mrx_start, mrx_entries = st.x if st.x is not None else (0, None, [])
    if x_line:
        places["mrx"] = places["mrx.start"] = places["rounds"] = f"line {x_line} (X)"
    if mrx_start is not None:
        doc.setdefault("mrx", {})["start"] = mrx_start
    names = [d[0] for d in st.dets]
    for key, (n, counts) in st.tickets.items():
        if key == "\0X":
            doc.setdefault("mrx", {})["tickets"] = counts
            places["mrx.tickets"] = f"line {n}"
        elif key not in names:
            raise RecordError(f"tickets for {_word(key)!s}, who has no line 'NAME START: ...'", st.file, f"line {n}")
    doc["detectives"] = []
    for i, (name, start, n, _) in enumerate(st.dets):
        d: dict[str, Any] = {"name": name, "start": start}
        places[f"detectives[{i}]"] = f"line {n} ({_label(name)})"
        if name in st.tickets:
            d["tickets"] = st.tickets[name][1]
            places[f"detectives[{i}].tickets"] = f"line {st.tickets[name][0]}"
        doc["detectives"].append(d)
    rounds: list[dict[str, Any]] = []
    for r_i, entry in enumerate(mrx_entries):
        at = f"line {x_line} (X, round {r_i + 1})"
        places[f"rounds[{r_i}]"] = f"line {x_line} (round {r_i + 1})"
        places[f"rounds[{r_i}].mrx"] = at
        rounds.append({"mrx": _mrx_entry(st, entry, at, x_line, r_i), "detectives": []})
        if len(rounds[-1]["mrx"]) == 2:
            for j in (0, 1):
                places[f"rounds[{r_i}].mrx[{j}]"] = f"line {x_line} (X, round {r_i + 1}, 2X move {j + 1})"
    for name, _, n, entries in st.dets:
        if len(entries) > len(rounds):
            raise RecordError(f"{_label(name)} has {len(entries)} moves but Mr. X's line has only {len(rounds)} rounds",
                              st.file, f"line {n} ({_label(name)})")
        for r_i, e in enumerate(entries):
            at = f"line {n} ({_label(name)}, round {r_i + 1})"
            if e == "-":  # the detective's "no move": where a warning about it points
                places[f"rounds[{r_i}].detectives"] = at
                continue
            try:
                t, to, cap = _move(e)
            except ValueError as ex:
                raise st.err(at, str(ex)) from None
            if to is None:
                raise st.err(at, "a detective move needs its station, e.g. 'T 23'")
            places[f"rounds[{r_i}].detectives[{len(rounds[r_i]['detectives'])}]"] = at
            rounds[r_i]["detectives"].append({"name": name, "ticket": t, "to": to, **({"capture": True} if cap else {})})
    doc["rounds"] = rounds
    return doc, places


def _mrx_entry(st: _Notation, entry: str, at: str, x_line: int, r_i: int) -> list[dict[str, Any]]:
    if entry == "-":
        return []
    e = entry
    if e.upper().startswith("2X"):
        pieces = e[2:].strip().split("/")
        if len(pieces) != 2:
            raise st.err(at, f"a double move is '2X a/b', got {jsonutil.clip(entry, 40)!r}")
    else:
        pieces = [e]
    legs = []
    for p in pieces:
        p, took = _show_part(st, p, at)
        try:
            t, to, cap = _move(p.strip())
        except ValueError as ex:
            raise st.err(at, str(ex)) from None
        if cap:
            raise st.err(at, "'!' marks a detective's capture, not Mr. X's move")
        legs.append({"ticket": t, **({"to": to} if to is not None else {}),
                     **({"shown": True, "took": took} if took is not None else {})})
    return legs


_SHOW = re.compile(r"\sshow\s", re.ASCII | re.IGNORECASE)


def _show_part(st: _Notation, piece: str, at: str) -> tuple[str, dict[str, str] | None]:
    """A Mr. X hop with a voluntary reveal, ``B 46 show Red T`` (he showed himself at 46 and
    took Red's taxi ticket): the hop and ``{"from": ..., "ticket": ...}`` (None: no reveal)."""
    cut = _SHOW.search(piece)
    if cut is None:
        return piece, None
    try:
        words = _tokens(piece[cut.end():])
    except ValueError as ex:
        raise st.err(at, str(ex)) from None
    kind = _LETTERS.get(words[-1][1].upper()) if len(words) == 2 and not words[1][0] else None
    if kind is None or kind == "black":
        raise st.err(at, f"a voluntary reveal is written 'B 46 show NAME T' (the detective and the ticket Mr. X "
                         f"took: T, B or U), got {jsonutil.clip(piece.strip(), 40)!r}")
    return piece[:cut.start()], {"from": words[0][1], "ticket": kind}


def _label(name: str) -> str:
    return jsonutil.clip(_word(name), 40)


def _move(text: str) -> tuple[str, int | None, bool]:
    """``(ticket, station or None, capture?)`` of one move like ``U 46`` or ``T23!``."""
    m = _MOVE.fullmatch(text)
    if not m or m.group(1).upper() not in _LETTERS or (m.group(2) and len(m.group(2)) > _MAX_DIGITS):
        raise ValueError(f"cannot read move {jsonutil.clip(text, 40)!r}; expected a ticket T, B, U or K and an "
                         "optional station")
    return _LETTERS[m.group(1).upper()], int(m.group(2)) if m.group(2) else None, bool(m.group(3))


def notation_problems(rec: Record) -> list[tuple[str, str]]:
    """What of ``rec`` the text notation cannot say, as ``(where, message)`` (empty: all of it).

    The notation lists each detective's moves on its own line, so a round must hold at most one
    move per detective, in turn order: a record that breaks that (which the referee reports as
    ``det-twice`` / ``det-order``) would come back legal."""
    out = []
    order = {d.name: i for i, d in enumerate(rec.detectives)}
    for rnd in rec.rounds:
        last = -1
        for m in rnd.detectives:
            i = order[m.name]
            if i == last:
                out.append((m.where, f"{m.name} moves twice in this round; the text notation has one entry per "
                                     "detective and round"))
            elif i < last:
                out.append((m.where, f"{m.name} moves after {rec.detectives[last].name} although it comes first "
                                     "in turn order; the text notation writes every round in turn order"))
            last = max(last, i)
    for rnd in rec.rounds:
        for x in rnd.mrx:
            if x.took is not None and ("," in x.took[0] or "/" in x.took[0]):
                out.append((f"{x.where}.took", f"the detective's name {x.took[0]!r} holds ',' or '/', which "
                                              "separate entries on Mr. X's line"))
    comment = rec.extra.get("comment")
    if comment is not None and not isinstance(comment, str):
        out.append(("comment", f"the text notation holds only a text comment, got {jsonutil.kind(comment)}"))
    return out


def to_notation(rec: Record, dest: str | os.PathLike[str] | None = None) -> str:
    """The text notation of a record: ``load_record`` of it gives back the same record
    (:class:`RecordErrors` naming what it can't say, see :func:`notation_problems`).  ``dest``:
    where it will be written, to keep a relative ``map`` path pointing at the same file."""
    problems = notation_problems(rec)
    if problems:
        raise RecordErrors([(w, "cannot be written in the text notation: " + m) for w, m in problems], rec.file)
    lines = [f"map {_word(map_spec_for(rec, dest), path=True)}"]
    rules = _rules_json(rec)
    if rules is not None:
        name, over = rec.rules.overrides()
        lines.append(f"rules {name}")
        lines += [f"rule {k} {_rule_text(v)}" for k, v in over.items()]
    if "comment" in rec.extra:
        lines.append(f"comment {json.dumps(rec.extra['comment'], ensure_ascii=False)}")
    if rec.candidates_spec == "any":
        lines.append("start any")
    elif rec.candidates_spec is not None:
        lines.append("start " + " ".join(map(str, rec.start_candidates)))
    if dict(rec.mrx_tickets) != rec.rules.mrx_start_tickets(len(rec.detectives)):
        lines.append(f"tickets X: {_counts_text(rec.mrx_tickets)}")
    for d in rec.detectives:
        if dict(d.tickets) != dict(rec.rules.detective_tickets):
            lines.append(f"tickets {_word(d.name)}: {_counts_text(d.tickets)}")

    def mv(t: Ticket, to: int | None, cap: bool = False) -> str:
        return _LETTER_OF[t.value] + (f" {to}" if to is not None else "") + ("!" if cap else "")

    def shown(m: MrXMove) -> str:
        return "" if m.took is None else f" show {_word(m.took[0])} {_LETTER_OF[m.took[1].value]}"

    xs = []
    for rnd in rec.rounds:
        legs = [mv(m.ticket, m.to) + shown(m) for m in rnd.mrx]
        xs.append("-" if not legs else legs[0] if len(legs) == 1 else "2X " + "/".join(legs))
    head = "X" if rec.mrx_start is None else f"X {rec.mrx_start}"
    lines.append(f"{head}: " + ", ".join(xs))
    for d in rec.detectives:
        cells = []
        for rnd in rec.rounds:
            m = next((m for m in rnd.detectives if m.name == d.name), None)
            cells.append("-" if m is None else mv(m.ticket, m.to, m.capture))
        while cells and cells[-1] == "-":
            cells.pop()
        lines.append(f"{_word(d.name)} {d.start}: " + ", ".join(cells))
    return "\n".join(lines) + "\n"


def _counts_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{_LETTER_OF[k]} {v}" for k, v in counts.items())


def _rule_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return " ".join(map(str, v)) if v else "none"
    if isinstance(v, dict):
        return _counts_text(v)
    return _word(str(v))


# ---- helpers ---------------------------------------------------------------------------------


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _dups(obj: dict[str, Any], where: str, bad: Any) -> None:
    for k in jsonutil.pop_duplicates(obj):
        bad(_at(where, k), f"key {_show(k)} appears more than once")


_kind = jsonutil.kind
_show = jsonutil.show
