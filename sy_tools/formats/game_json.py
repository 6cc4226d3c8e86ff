"""game.json: the full (collecting) parser and the writer."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ..engine.board import Board
from ..engine.budget import check_time
from ..engine.hops import reserved_name
from ..engine.rules import Rules, rules_from_json, ticket_counts
from ..engine.stations import Station
from ..engine.tickets import MRX_TICKET_KINDS, Ticket
from ..errors import InputError
from . import jsonutil
from .jsonutil import json_type_name
from .play_header import read_play_header
from .record import (
    TICKETS,
    Detective,
    DetectiveMove,
    MrXMove,
    Record,
    RecordErrors,
    Round,
    _at,
    _dups,
    _show,
    record_map_path,
)

_TOP_KEYS = {"version", "map", "rules", "detectives", "mrx", "rounds", "comment", "play"}


def parse_record(doc: Any, file: str | None = None, places: Mapping[str, str] | None = None,
                 board: Board | None = None) -> Record:
    """Build a :class:`Record` from the decoded JSON document, collecting every shape problem.

    ``places`` (from :func:`notation_places`) maps JSON paths to the lines of a text record, so
    that every message names the line and round as the player wrote them.  ``board``: the map
    itself, instead of loading the one ``map`` names (a board built in Python, as the
    environment's may be)."""
    places = dict(places or {})
    top_problems = _check_top(doc, file, places)
    map_spec, board = _record_board(doc, file, places) if board is None else (str(doc.get("map", board.name)), board)
    rules = _record_rules(doc, file, places)
    shape = _Shape(board, top_problems)
    dets, names = _detectives(doc.get("detectives"), rules, shape)
    n_listed = len(doc["detectives"]) if isinstance(doc.get("detectives"), list) else 0
    candidates, cand_spec, mrx_start, mrx_tickets = _mrx_part(doc.get("mrx", {}), board, rules, dets, n_listed, shape)
    rounds = _rounds(doc.get("rounds", []), names, shape)
    extra = {k: doc[k] for k in ("rules", "comment") if k in doc}
    if "play" in doc:
        extra["play"] = read_play_header(doc["play"], "play", shape.bad)
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
        extra=extra,
        places=places,
    )


def _check_top(doc: Any, file: str | None, places: Mapping[str, str]) -> list[tuple[str, str]]:
    """The document as a whole: an object of readable text (else it stops here), then the
    problems of its top-level keys and version (reported with the rest, after map and rules)."""
    if not isinstance(doc, dict):
        raise RecordErrors([("", f"expected a JSON object at the top, got {json_type_name(doc)}")], file)
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
    from .map_load import load_board

    map_spec = doc.get("map", "london")
    if not isinstance(map_spec, str) or not map_spec:
        raise RecordErrors([("map", f"expected a built-in map name or a path, got {_show(map_spec)}")], file, places)
    try:
        return map_spec, load_board(record_map_path(map_spec, file))
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
        if len(rounds) & 255 == 255:
            check_time()  # (a command's --time-limit covers reading a long record)
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
    return xs  # (a second voluntary reveal in a double move is the referee's to rule on: legal shape)


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
    relative to the record's folder, so it is rewritten when ``dest`` is in another folder (for a
    stream such as standard output, relative to the current folder, where it can be read back)."""
    from .files import stream_fd

    spec = rec.map_spec
    if dest is None or rec.file is None or spec == "london" or os.path.isabs(spec):
        return spec
    src_dir = os.path.abspath(os.path.dirname(rec.file))
    dst_dir = os.path.abspath("." if stream_fd(dest) is not None else os.path.dirname(os.fspath(dest)))
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
    if rec.extra.get("play") is not None:
        doc["play"] = dict(rec.extra["play"])
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
