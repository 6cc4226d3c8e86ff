"""The text notation for typing a game at the table: parser and writer."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.budget import check_time
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.stations import Station
from ..engine.tickets import TICKET_LETTERS, Ticket
from ..errors import RecordError
from . import jsonutil
from .game_json import _rules_json, map_spec_for
from .record import MESSAGE_LIMIT, MrXMove, Record, RecordErrors, absent_key

#: Ticket words a player may write: the letters (:data:`TICKET_LETTERS`), the full names, and
#: S for "secret" (a black ticket)
_LETTERS = {**{letter: str(t) for t, letter in TICKET_LETTERS.items()},
            **{t.value.upper(): t.value for t in Ticket}, "S": "black"}

_LETTER_OF = {**{str(t): letter for t, letter in TICKET_LETTERS.items()}, "double": "2X"}

_COUNT_KINDS = {**_LETTERS, "2X": "double", "DOUBLE": "double"}

_MOVE = re.compile(r"([A-Za-z]+)\s*@?\s*([0-9]+)?\s*(!)?", re.ASCII)

_COUNT = re.compile(r"(2X|[A-Za-z]+)\s*([0-9]+)", re.ASCII | re.IGNORECASE)

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.'-]*", re.ASCII)

_PLAIN_PATH = re.compile(r"[A-Za-z0-9_./-]+", re.ASCII)

_KEYWORDS = {"map", "rules", "rule", "comment", "play", "start", "tickets", "x"}

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
    elif key == "play" and len(args) == 2 and not args[0][0]:
        from .play_header import notation_value

        name = args[0][1]
        st.once(f"play {name}", n)
        st.doc.setdefault("play", {})[name] = notation_value(name, args[1][1])
        st.places[f"play.{name}"] = f"line {n}"
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
                         "comment TEXT, play NAME VALUE, start STATIONS, tickets WHO: COUNTS, X: ... or NAME START: ...")


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
    from ..engine.rules import preset

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
        if r_i & 255 == 255:
            check_time()  # (a command's --time-limit covers reading a long record)
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
        for r_i in range(len(rounds)):  # where its entry of each round is or would be: a missing move's place
            places[absent_key(r_i, name)] = f"line {n} ({_label(name)}, round {r_i + 1})"
        for r_i, e in enumerate(entries):
            if r_i & 255 == 255:
                check_time()
            at = f"line {n} ({_label(name)}, round {r_i + 1})"
            if e == "-":  # the detective's "no move" (a warning about it points at absent_key)
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
        out.append(("comment", f"the text notation holds only a text comment, got {jsonutil.json_type_name(comment)}"))
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
    if rec.extra.get("play") is not None:
        from .play_header import notation_text

        for k, v in rec.extra["play"].items():
            text = notation_text(v)
            lines.append(f"play {k} {text if _PLAIN_PATH.fullmatch(text) else json.dumps(text, ensure_ascii=False)}")
    if rec.candidates_spec == "any":
        lines.append("start any")
    elif rec.candidates_spec is not None:
        lines.append("start " + " ".join(map(str, rec.start_candidates)))
    if dict(rec.mrx_tickets) != rec.rules.mrx_start_tickets(len(rec.detectives)):
        lines.append(f"tickets X: {_counts_text(rec.mrx_tickets)}")
    for d in rec.detectives:
        if dict(d.tickets) != dict(rec.rules.detective_tickets):
            lines.append(f"tickets {_word(d.name)}: {_counts_text(d.tickets)}")

    head = "X" if rec.mrx_start is None else f"X {rec.mrx_start}"
    lines.append(f"{head}: " + ", ".join(mrx_entry_text(rnd.mrx) for rnd in rec.rounds))
    for d in rec.detectives:
        cells = []
        for rnd in rec.rounds:
            m = next((m for m in rnd.detectives if m.name == d.name), None)
            cells.append("-" if m is None else detective_entry_text(m.ticket, m.to, m.capture))
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


def read_mrx_entry(entry: str) -> tuple[MrXMove, ...]:
    """One entry of Mr. X's line, as typed at the table (``T``, ``U 46``, ``2X T/K``, ``-``,
    ``B 105 show Red B``): his hops (none for a pass).  :class:`ValueError` saying what can't
    be read.  (``sy-tools play`` reads each typed move so.)"""
    try:
        legs = _mrx_entry(_Notation(None), entry.strip(), "", 0, 0)
    except RecordError as e:
        raise ValueError(e.detail) from None
    return tuple(MrXMove(Ticket(d["ticket"]), d.get("to"), "", bool(d.get("shown")),
                         (d["took"]["from"], Ticket(d["took"]["ticket"])) if "took" in d else None) for d in legs)


def read_detective_entry(entry: str) -> tuple[Ticket | None, Station | None, bool]:
    """One entry of a detective's line as typed (``T 124``, ``T 124!``; ``124`` alone leaves
    the ticket to be inferred): ``(ticket or None, station or None, capture?)``.
    :class:`ValueError` saying what can't be read."""
    text = entry.strip()
    bare = text.rstrip("!")
    if bare.isascii() and bare.isdigit():
        if len(bare) > _MAX_DIGITS:
            raise ValueError(f"cannot read station {jsonutil.clip(bare, 20)!r}")
        return None, int(bare), text.endswith("!")
    t, to, cap = _move(text)
    return Ticket(t), to, cap


# ---- moves as typed at the table (``sy-tools play`` reads them back with the readers above) ----


def _hop_text(ticket: Ticket, to: Station | None, took: tuple[str, Ticket] | None = None) -> str:
    """One hop: ``T``, ``U 46``, ``B 105 show Red B`` (a voluntary reveal)."""
    text = TICKET_LETTERS[ticket] + (f" {to}" if to is not None else "")
    return text if took is None else f"{text} show {_word(took[0])} {TICKET_LETTERS[took[1]]}"


def mrx_entry_text(legs: Sequence[MrXMove]) -> str:
    """Mr. X's turn as his line of the notation writes it and the play prompt reads it
    (:func:`read_mrx_entry`): ``T``, ``U 46``, ``2X T 45/K 46``, ``B 105 show Red B``, ``-``
    (a pass).  A hop's station is written when ``legs`` know it."""
    hops = [_hop_text(m.ticket, m.to, m.took) for m in legs]
    return "-" if not hops else hops[0] if len(hops) == 1 else "2X " + "/".join(hops)


def detective_entry_text(ticket: Ticket, to: Station, capture: bool = False) -> str:
    """A detective's move as its line of the notation writes it and the play prompt reads it
    (:func:`read_detective_entry`): ``T 23``, ``U 67!`` (a capture)."""
    return f"{TICKET_LETTERS[ticket]} {to}" + ("!" if capture else "")


def entry_text(move: Move, capture: bool = False) -> str:
    """An engine move in the notation's words, without the piece (see :func:`move_entry_text`)."""
    if move.piece != MRX:
        to = move.stations[0]
        assert to is not None, "a detective's move names its station"
        return detective_entry_text(move.tickets[0], to, capture)
    return mrx_entry_text([MrXMove(t, s, "", move.shown == j, move.took if move.shown == j else None)
                           for j, (t, s) in enumerate(zip(move.tickets, move.stations))])


def piece_word(piece: str) -> str:
    """How the play prompt names a piece: ``X`` for Mr. X, a detective's name (quoted when it
    is not a plain word, e.g. ``"Inspector Lestrade"``)."""
    return "X" if piece == MRX else _word(piece)


def move_entry_text(move: Move, capture: bool = False) -> str:
    """The line ``sy-tools play`` reads for an engine move, piece first: ``Red B 107``
    (``Red B 107!`` with ``capture``), ``X T 46`` (Mr. X's stations as his log holds them),
    ``X 2X T 45/K 46``, ``X B 105 show Red B``, ``X -``.  The one writer of a move as typed:
    advice shows its moves so."""
    return f"{piece_word(move.piece)} {entry_text(move, capture)}"
