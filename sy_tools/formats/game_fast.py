"""The fast path for game.json: msgspec decoding of plain records, vouched for without the full parser."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from ..engine.board import Board
from ..engine.hops import reserved_name
from ..engine.rules import PRESETS, Rules, ticket_counts
from ..engine.stations import Station
from ..engine.tickets import MRX_TICKET_KINDS, Ticket
from ..errors import InputError
from .record import Detective, DetectiveMove, MrXMove, Record, Round, record_map_path


@lru_cache(maxsize=1)
def _fast_decoder() -> Any:
    try:
        from . import game_structs as structs
    except ImportError:  # pragma: no cover - msgspec is a dependency; the slow path still works
        return None
    from .map_load import load_board

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


class PlainRecord(NamedTuple):
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
    v = decode_plain_record(text, file)
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


def decode_plain_record(text: str, file: str | None = None) -> PlainRecord | None:
    """A plain game.json ``text`` decoded and checked (every check :func:`parse_record` makes,
    short of building the moves), or None when the fast path can't vouch for it."""
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
    try:
        board = load_board(record_map_path(map_spec, file))
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
    return PlainRecord(doc, board, rules, det_tickets, candidates, mrx_tickets, mrx_start, map_spec, cand_spec, extra)


#: The names of 0.1 (``vouched`` said nothing of what it returns).
vouched = decode_plain_record
Vouched = PlainRecord
