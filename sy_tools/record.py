"""Game records: the ``game.json`` format (version 1) and the compact text notation.

The parser checks the *shape* of a record (types, keys, known stations, tickets and names) and
reports every problem with its place (``rounds[3].detectives[1].to``).  Whether the moves are
*legal* is the referee's job (:mod:`sy_tools.referee`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import jsonutil
from .board import Board, Station, Ticket
from .errors import InputError, RecordError
from .files import read_text
from .rules import MRX_TICKET_KINDS, Rules, rules_from_json, ticket_counts

TICKETS = {t.value: t for t in Ticket}


@dataclass(frozen=True)
class MrXMove:
    """One travel-log entry: the ticket shown and, when known, the station."""

    ticket: Ticket
    to: Station | None
    where: str


@dataclass(frozen=True)
class DetectiveMove:
    """A detective's move; ``capture`` marks the move that caught Mr. X."""

    name: str
    ticket: Ticket
    to: Station
    where: str
    capture: bool = False


@dataclass(frozen=True)
class Round:
    """Mr. X's move (one entry, or two for a double move) then the detectives' moves."""

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

    @property
    def n_moves(self) -> int:
        """Mr. X moves recorded (each double-move leg counts)."""
        return sum(len(r.mrx) for r in self.rounds)

    def mrx_moves(self) -> Iterator[tuple[int, int, int, MrXMove]]:
        """``(move number, round number, leg, move)`` for every travel-log entry (1-based)."""
        n = 0
        for r_i, rnd in enumerate(self.rounds, 1):
            for leg, m in enumerate(rnd.mrx, 1):
                n += 1
                yield n, r_i, leg, m

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
    """Every shape problem of a record; ``str()`` is the first one (and how many more)."""

    def __init__(self, problems: list[tuple[str, str]], file: str | None) -> None:
        self.problems = problems
        where, msg = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(msg + more, file, where)

    def lines(self) -> list[str]:
        return [": ".join(p for p in (self.file, w, m) if p) for w, m in self.problems]


# ---- reading ---------------------------------------------------------------------------------


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record file: ``.json`` (game.json v1) or the text notation (anything else)."""
    p = Path(path)
    text = read_text(p, RecordError)
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return parse_record_json(text, str(p))
    return parse_record(parse_notation(text, str(p)), str(p))


def parse_record_json(text: str, file: str | None = None) -> Record:
    """Parse game.json text."""
    try:
        doc = jsonutil.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})", file) from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply", file) from None
    return parse_record(doc, file)


_TOP_KEYS = {"version", "map", "rules", "detectives", "mrx", "rounds", "comment"}


def parse_record(doc: Any, file: str | None = None) -> Record:
    """Build a :class:`Record` from the decoded JSON document, collecting every shape problem."""
    from .validate import load_board

    probs: list[tuple[str, str]] = []

    def bad(where: str, msg: str) -> None:
        probs.append((where, msg))

    def fail() -> RecordErrors:
        return RecordErrors(probs, file)

    if not isinstance(doc, dict):
        raise RecordErrors([("", f"expected a JSON object at the top, got {_kind(doc)}")], file)
    _dups(doc, "", bad)
    for k in doc:
        if k not in _TOP_KEYS:
            bad(k, f"unknown key {k!r} (expected {', '.join(sorted(_TOP_KEYS))})")
    if doc.get("version", 1) != 1:
        bad("version", f"unsupported record version {doc.get('version')!r}, expected 1")

    # map and rules: without them nothing else can be checked
    map_spec = doc.get("map", "london")
    if not isinstance(map_spec, str) or not map_spec:
        raise RecordErrors([("map", f"expected a built-in map name or a path, got {_show(map_spec)}")], file)
    resolved = map_spec
    if map_spec != "london" and file and not os.path.isabs(map_spec):
        resolved = os.path.join(os.path.dirname(file), map_spec)
    try:
        board = load_board(resolved)
    except InputError as e:
        raise RecordErrors([("map", f"cannot use map {map_spec!r}: {e}")], file) from None
    try:
        rules = rules_from_json(doc.get("rules"), "rules", None)
    except InputError as e:
        raise RecordErrors([(e.where or "rules", e.detail)], file) from None

    def station(v: Any, where: str) -> Station | None:
        if not (isinstance(v, int) and not isinstance(v, bool)):
            bad(where, f"expected a station number, got {_show(v)}")
            return None
        if v not in board:
            bad(where, f"station {v} is not on the map {board.name!r} (stations {board.stations[0]}..{board.stations[-1]})")
            return None
        return v

    def ticket(v: Any, where: str) -> Ticket | None:
        if not isinstance(v, str) or v not in TICKETS:
            bad(where, f"unknown ticket {_show(v)}, expected one of taxi, bus, underground, black")
            return None
        return TICKETS[v]

    def keys(obj: dict[str, Any], allowed: set[str], required: set[str], where: str) -> None:
        _dups(obj, where, bad)
        for k in obj:
            if k not in allowed:
                bad(_at(where, k), f"unknown key {k!r} (expected {', '.join(sorted(allowed))})")
        for k in sorted(required - set(obj)):
            bad(_at(where, k), f"missing key {k!r}")

    # detectives
    dets: list[Detective] = []
    raw_dets = doc.get("detectives")
    if not isinstance(raw_dets, list) or not raw_dets:
        bad("detectives", f"expected a non-empty list of detectives, got {_show(raw_dets)}")
        raw_dets = []
    names: set[str] = set()
    for i, d in enumerate(raw_dets):
        w = f"detectives[{i}]"
        if not isinstance(d, dict):
            bad(w, f"expected an object with name and start, got {_show(d)}")
            continue
        keys(d, {"name", "start", "tickets"}, {"name", "start"}, w)
        name = d.get("name")
        if "name" in d and (not isinstance(name, str) or not name.strip()):
            bad(f"{w}.name", f"expected a non-empty name, got {_show(name)}")
            name = None
        elif isinstance(name, str) and name in names:
            bad(f"{w}.name", f"detective name {name!r} is used twice")
            name = None
        start = station(d["start"], f"{w}.start") if "start" in d else None
        tickets = dict(rules.detective_tickets)
        if "tickets" in d:
            try:
                tickets = ticket_counts(d["tickets"], ("taxi", "bus", "underground"), tickets, f"{w}.tickets", None)
            except InputError as e:
                bad(e.where or w, e.detail)
        if isinstance(name, str) and start is not None:
            names.add(name)
            dets.append(Detective(name, start, tickets))
    if len(dets) > 5:
        bad("detectives", f"at most 5 detectives, got {len(dets)}")

    # Mr. X
    mrx = doc.get("mrx", {})
    mrx_tickets = rules.mrx_start_tickets(len(raw_dets))
    candidates: tuple[Station, ...] = ()
    cand_spec = None
    mrx_start = None
    if not isinstance(mrx, dict):
        bad("mrx", f"expected an object, got {_show(mrx)}")
        mrx = {}
    keys(mrx, {"start_candidates", "start", "tickets"}, set(), "mrx")
    det_starts = {d.start for d in dets}
    if "start_candidates" in mrx:
        cand_spec = mrx["start_candidates"]
        if cand_spec == "any":
            candidates = tuple(s for s in board.stations if s not in det_starts)
        elif isinstance(cand_spec, list) and cand_spec:
            got = [station(v, f"mrx.start_candidates[{j}]") for j, v in enumerate(cand_spec)]
            candidates = tuple(sorted({s for s in got if s is not None}))
        else:
            bad("mrx.start_candidates", f'expected a non-empty list of stations or "any", got {_show(cand_spec)}')
    else:
        deck = board.start_decks.get(rules.mrx_deck)
        if deck is None:
            bad("mrx.start_candidates", f"the map has no start deck {rules.mrx_deck!r}; give start_candidates "
                f'(a list or "any")')
        else:
            candidates = tuple(sorted(set(deck) - det_starts))
    if "start" in mrx:
        mrx_start = station(mrx["start"], "mrx.start")
    if "tickets" in mrx:
        try:
            mrx_tickets = ticket_counts(mrx["tickets"], MRX_TICKET_KINDS, mrx_tickets, "mrx.tickets", None)
        except InputError as e:
            bad(e.where or "mrx.tickets", e.detail)

    # rounds
    rounds: list[Round] = []
    for w, rnd in jsonutil.objects(doc.get("rounds", []), "rounds", "a round", bad):
        keys(rnd, {"mrx", "detectives"}, {"mrx"}, w)
        xs: list[MrXMove] = []
        raw_x = rnd.get("mrx", [])
        if not isinstance(raw_x, list) or not (1 <= len(raw_x) <= 2):
            if "mrx" in rnd:
                bad(f"{w}.mrx", f"expected one move, or two for a double move, got {_show(raw_x)}")
            raw_x = raw_x if isinstance(raw_x, list) else []
        for j, m in enumerate(raw_x[:2]):
            mw = f"{w}.mrx[{j}]"
            if not isinstance(m, dict):
                bad(mw, f"expected an object like {{\"ticket\": \"taxi\"}}, got {_show(m)}")
                continue
            keys(m, {"ticket", "to"}, {"ticket"}, mw)
            t = ticket(m["ticket"], f"{mw}.ticket") if "ticket" in m else None
            to = station(m["to"], f"{mw}.to") if m.get("to") is not None else None
            if t is not None:
                xs.append(MrXMove(t, to, mw))
        ds: list[DetectiveMove] = []
        for mw, m in jsonutil.objects(rnd.get("detectives", []), f"{w}.detectives", "a detective move", bad):
            keys(m, {"name", "ticket", "to", "capture"}, {"name", "ticket", "to"}, mw)
            name = m.get("name")
            if "name" in m and (not isinstance(name, str) or name not in names):
                bad(f"{mw}.name", f"unknown detective {_show(name)} (detectives: {', '.join(sorted(names)) or 'none'})")
            t = ticket(m["ticket"], f"{mw}.ticket") if "ticket" in m else None
            to = station(m["to"], f"{mw}.to") if "to" in m else None
            cap = m.get("capture", False)
            if not isinstance(cap, bool):
                bad(f"{mw}.capture", f"expected true or false, got {_show(cap)}")
                cap = False
            if isinstance(name, str) and name in names and t is not None and to is not None:
                ds.append(DetectiveMove(name, t, to, mw, cap))
        rounds.append(Round(tuple(xs), tuple(ds), w))

    if probs:
        raise fail()
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
        extra={k: doc[k] for k in ("rules",) if k in doc},
    )


def record_to_json(rec: Record) -> dict[str, Any]:
    """The game.json (v1) document of a record."""
    doc: dict[str, Any] = {"version": 1, "map": rec.map_spec}
    if "rules" in rec.extra:
        doc["rules"] = rec.extra["rules"]
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
        xs = [{"ticket": m.ticket.value, **({"to": m.to} if m.to is not None else {})} for m in rnd.mrx]
        ds = [{"name": m.name, "ticket": m.ticket.value, "to": m.to, **({"capture": True} if m.capture else {})}
              for m in rnd.detectives]
        rounds.append({"mrx": xs, "detectives": ds})
    doc["rounds"] = rounds
    return doc


def record_json_text(rec: Record) -> str:
    """Pretty game.json text: one round per line block, easy to diff."""
    doc = record_to_json(rec)
    rounds = doc.pop("rounds")
    head = json.dumps(doc, indent=2)[:-2]
    body = ",\n".join(
        "    {\"mrx\": " + json.dumps(r["mrx"]) + ",\n     \"detectives\": " + json.dumps(r["detectives"]) + "}"
        for r in rounds
    )
    return head + ',\n  "rounds": [\n' + body + ("\n" if body else "") + "  ]\n}\n"


# ---- the text notation ------------------------------------------------------------------------
#
#   # comments start with '#'
#   map london                     (optional; default london)
#   rules classic                  (optional; a preset name)
#   start 35 45 51                 (optional: Mr. X's start candidates, or 'start any')
#   X: T, B, U 46, 2X B/K 67, T    (Mr. X, one entry per round; 'X 45:' gives his true start)
#   Red 13: T 23, T 37, -, B 15!   (a detective and its start; '-' = no move; '!' = capture)
#
# Tickets: T taxi, B bus, U underground, K black (also 'black'); a station after the ticket
# ('U 46', 'U46' or 'U@46') is where the piece went; '2X a/b' is a double move.

_LETTERS = {"T": "taxi", "B": "bus", "U": "underground", "K": "black", "BLACK": "black", "S": "black",
            "TAXI": "taxi", "BUS": "bus", "UNDERGROUND": "underground"}
_LETTER_OF = {"taxi": "T", "bus": "B", "underground": "U", "black": "K"}
_MOVE = re.compile(r"^([A-Za-z]+)\s*@?\s*(\d+)?\s*(!)?$")


def parse_notation(text: str, file: str | None = None) -> dict[str, Any]:
    """Turn the text notation into a game.json document (raises :class:`RecordError` with the
    line number on anything it can't read)."""
    doc: dict[str, Any] = {}
    mrx_line: list[str] | None = None
    mrx_start: int | None = None
    det_lines: list[tuple[str, int, list[str], int]] = []
    x_lineno = 0

    def err(n: int, msg: str) -> RecordError:
        return RecordError(msg, file, f"line {n}")

    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" in line:
            head, _, rest = line.partition(":")
            parts = head.split()
            entries = [e.strip() for e in rest.split(",")] if rest.strip() else []
            if not parts:
                raise err(n, "expected 'X: ...' or 'NAME START: ...' before the colon")
            if parts[0] == "X":
                if mrx_line is not None:
                    raise err(n, "Mr. X's line 'X: ...' appears twice")
                if len(parts) == 2 and parts[1].isdigit():
                    mrx_start = int(parts[1])
                elif len(parts) != 1:
                    raise err(n, f"expected 'X:' or 'X START:', got {head.strip()!r}")
                mrx_line, x_lineno = entries, n
            else:
                if len(parts) != 2 or not parts[1].isdigit():
                    raise err(n, f"expected a detective as 'NAME START:', got {head.strip()!r}")
                det_lines.append((parts[0], int(parts[1]), entries, n))
            continue
        words = line.split()
        key, args = words[0].lower(), words[1:]
        if key == "map" and len(args) == 1:
            doc["map"] = args[0]
        elif key == "rules" and len(args) == 1:
            doc["rules"] = args[0]
        elif key == "start" and args == ["any"]:
            doc.setdefault("mrx", {})["start_candidates"] = "any"
        elif key == "start" and args and all(a.isdigit() for a in args):
            doc.setdefault("mrx", {})["start_candidates"] = [int(a) for a in args]
        else:
            raise err(n, f"cannot read {line!r}; expected map NAME, rules PRESET, start STATIONS, X: ... or NAME START: ...")
    if not det_lines:
        raise RecordError("no detectives: add a line like 'Red 13: T 23, B 15'", file)
    if mrx_start is not None:
        doc.setdefault("mrx", {})["start"] = mrx_start
    doc["detectives"] = [{"name": name, "start": start} for name, start, _, _ in det_lines]
    rounds: list[dict[str, Any]] = []
    for r_i, entry in enumerate(mrx_line or []):
        legs = []
        e = entry
        if e.upper().startswith("2X"):
            e = e[2:].strip()
            pieces = e.split("/")
            if len(pieces) != 2:
                raise err(x_lineno, f"round {r_i + 1}: a double move is '2X a/b', got {entry!r}")
        else:
            pieces = [e]
        for p in pieces:
            try:
                t, to, cap = _move(p.strip())
            except ValueError as ex:
                raise err(x_lineno, f"round {r_i + 1}: {ex}") from None
            if cap:
                raise err(x_lineno, f"round {r_i + 1}: '!' marks a detective's capture, not Mr. X's move")
            legs.append({"ticket": t, **({"to": to} if to is not None else {})})
        rounds.append({"mrx": legs, "detectives": []})
    for name, _, entries, n in det_lines:
        if len(entries) > len(rounds):
            raise err(n, f"{name} has {len(entries)} moves but Mr. X's line has only {len(rounds)} rounds")
        for r_i, e in enumerate(entries):
            if e == "-":
                continue
            try:
                t, to, cap = _move(e)
            except ValueError as ex:
                raise err(n, f"{name}, round {r_i + 1}: {ex}") from None
            if to is None:
                raise err(n, f"{name}, round {r_i + 1}: a detective move needs its station, e.g. 'T 23'")
            rounds[r_i]["detectives"].append({"name": name, "ticket": t, "to": to, **({"capture": True} if cap else {})})
    doc["rounds"] = rounds
    return doc


def _move(text: str) -> tuple[str, int | None, bool]:
    """``(ticket, station or None, capture?)`` of one move like ``U 46`` or ``T23!``."""
    m = _MOVE.match(text)
    if not m or m.group(1).upper() not in _LETTERS:
        raise ValueError(f"cannot read move {text!r}; expected a ticket T, B, U or K and an optional station")
    return _LETTERS[m.group(1).upper()], int(m.group(2)) if m.group(2) else None, bool(m.group(3))


def to_notation(rec: Record) -> str:
    """The text notation of a record (round trip: ``parse_notation(to_notation(r))``)."""
    lines = [f"map {rec.map_spec}"]
    if isinstance(rec.extra.get("rules"), str):
        lines.append(f"rules {rec.extra['rules']}")
    if rec.candidates_spec == "any":
        lines.append("start any")
    elif rec.candidates_spec is not None:
        lines.append("start " + " ".join(map(str, rec.start_candidates)))

    def mv(t: Ticket, to: int | None, cap: bool = False) -> str:
        return _LETTER_OF[t.value] + (f" {to}" if to is not None else "") + ("!" if cap else "")

    xs = []
    for rnd in rec.rounds:
        legs = [mv(m.ticket, m.to) for m in rnd.mrx]
        xs.append(legs[0] if len(legs) == 1 else "2X " + "/".join(legs))
    head = "X" if rec.mrx_start is None else f"X {rec.mrx_start}"
    lines.append(f"{head}: " + ", ".join(xs))
    for d in rec.detectives:
        cells = []
        for rnd in rec.rounds:
            m = next((m for m in rnd.detectives if m.name == d.name), None)
            cells.append("-" if m is None else mv(m.ticket, m.to, m.capture))
        while cells and cells[-1] == "-":
            cells.pop()
        lines.append(f"{d.name} {d.start}: " + ", ".join(cells))
    return "\n".join(lines) + "\n"


# ---- helpers ---------------------------------------------------------------------------------


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _dups(obj: dict[str, Any], where: str, bad: Any) -> None:
    for k in jsonutil.pop_duplicates(obj):
        bad(_at(where, k), f"key {k!r} appears more than once")


_kind = jsonutil.kind
_show = jsonutil.show
