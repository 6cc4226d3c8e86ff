"""Reading map JSON, strictly and with every problem located."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..engine.tickets import Transport
from ..errors import MapError
from ..findings import Location
from . import jsonutil
from .files import read_text
from .raw_map import COORD_LIMIT, TRANSPORT_NAMES, RawConnection, RawMap, RawStation

_MAP_KEYS = {"name", "stations", "connections", "start_decks"}


_STATION_KEYS = {"id", "x", "y"}

_CONNECTION_KEYS = {"a", "b", "transport", "via"}


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: object) -> bool:
    """A finite JSON number (a huge integer literal that no float can hold is not)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(v)
    except OverflowError:
        return False


def _is_ascii_digits(tok: str) -> bool:
    """``tok`` is a plain decimal number (``isdigit`` also accepts ``²`` and other scripts)."""
    return tok.isascii() and tok.isdigit()

#: Longest integer token read from a text map (longer ones are reported, not converted).
_MAX_INT_DIGITS = 30


def _key(k: str) -> str:
    """A JSON key as a place in a path, shortened and escaped if it is long or odd."""
    return k if len(k) <= 60 and jsonutil.is_text(k) else _quote(k)


def _quote(text: str, limit: int = 60) -> str:
    """``repr`` of ``text``, shortened so an error line stays one readable line."""
    return repr(text) if len(text) <= limit else repr(text[: limit - 3]) + "..."


def parse_json_text(text: str) -> Any:
    """``json.loads`` that marks duplicate keys (see :mod:`sy_tools.formats.jsonutil`)."""
    return jsonutil.loads(text)


def _dup_keys(raw: RawMap, obj: dict[str, Any], loc: Location) -> None:
    for k in jsonutil.pop_duplicates(obj):
        raw.error("duplicate-key", f"key {_quote(k)} appears more than once", loc.at(_key(k)))


def read_json(path: Path) -> RawMap:
    """Read the canonical JSON map format."""
    text = read_text(path, MapError)
    src = str(path)
    raw = RawMap(name=path.stem, source=src, format="json")
    doc = _json_document(raw, text)
    if doc is None:
        return raw
    if "rounds" in doc and "stations" not in doc:  # one finding, not a key-by-key list
        raw.error("not-a-map", "this is a game record, not a map (it has 'rounds'): use 'sy-tools check' for it",
                  Location(raw.source))
        return raw
    _json_top(raw, doc)
    _json_stations(raw, doc.get("stations", []))
    _json_connections(raw, doc.get("connections", []))
    _json_decks(raw, doc.get("start_decks", {}))
    return raw


def _json_document(raw: RawMap, text: str) -> dict[str, Any] | None:
    """The decoded top-level object (None, with the finding, when there is none)."""
    top = Location(raw.source)
    try:
        doc = parse_json_text(text)
    except json.JSONDecodeError as e:
        raw.error("parse-error", f"not valid JSON: {e.msg}", Location(raw.source, e.lineno))
        return None
    except RecursionError:
        raw.error("parse-error", "not valid JSON: nested too deeply", top)
        return None
    except ValueError as e:  # e.g. an integer literal of more than 4300 digits
        raw.error("parse-error", f"not valid JSON: {_quote(str(e), 100)}", top)
        return None
    if not isinstance(doc, dict):
        raw.error("type", f"expected a JSON object at the top, got {jsonutil.json_type_name(doc)}", top)
        return None
    return doc


def _json_top(raw: RawMap, doc: dict[str, Any]) -> None:
    """Top-level keys and the map's name."""
    _dup_keys(raw, doc, Location(raw.source))
    root = Location(raw.source, None, "")
    for k in doc:
        if k not in _MAP_KEYS:
            raw.error("unknown-key", f"unknown key {_quote(k)} (expected {', '.join(sorted(_MAP_KEYS))})",
                      root.at(_key(k)))
    name = doc.get("name", raw.name)
    if isinstance(name, str) and name and jsonutil.is_text(name):
        raw.name = name
    elif isinstance(name, str) and name:
        raw.error("type", f"name must be text, got {_show(name)} (a lone surrogate)", root.at("name"))
    else:
        raw.error("type", f"name must be a non-empty string, got {_show(name)}", root.at("name"))
    for key in ("stations", "connections"):
        if key not in doc:
            raw.error("missing-key", f"missing key {key!r}", root.at(key))


def _type_error(raw: RawMap) -> Any:
    def bad(place: str, message: str) -> None:
        raw.error("type", message, Location(raw.source, None, place))

    return bad


def _json_stations(raw: RawMap, stations: Any) -> None:
    """``stations``: ids and optional coordinates."""
    for place, st in jsonutil.objects(stations, "stations", "a station", _type_error(raw)):
        loc = Location(raw.source, None, place)
        _dup_keys(raw, st, loc)
        for k in st:
            if k not in _STATION_KEYS:
                raw.error("unknown-key", f"unknown key {_quote(k)} (expected id, x, y)", loc.at(_key(k)))
        sid: Any = st.get("id")
        if "id" not in st:
            raw.error("missing-key", "missing key 'id'", loc.at("id"))
            continue
        if not _is_int(sid):
            raw.error("station-id", f"station id must be a positive integer, got {_show(sid)}", loc.at("id"))
            continue
        x, y = (_json_coordinate(raw, st, c, loc) for c in ("x", "y"))
        raw.stations.append(RawStation(sid, x, y, None, loc.at("id")))


def _json_coordinate(raw: RawMap, st: dict[str, Any], c: str, loc: Location) -> float | None:
    """Coordinate ``c`` of a station (None when absent or bad, with the finding)."""
    v = st.get(c)
    if v is None and c not in st:
        return None
    if _is_num(v):
        return float(v)  # type: ignore[arg-type]
    if (isinstance(v, int) and not isinstance(v, bool)) or isinstance(v, jsonutil.HugeNumber):
        raw.error("coordinate-range", f"{c} = {_show(v)} is out of range (coordinates must lie within "
                  f"±{COORD_LIMIT:g})", loc.at(c))
    else:
        raw.error("type", f"{c} must be a finite number, got {_show(v)}", loc.at(c))
    return None


def _json_connections(raw: RawMap, connections: Any) -> None:
    """``connections``: ends, transport and the optional ``via`` stations."""
    for place, cn in jsonutil.objects(connections, "connections", "a connection", _type_error(raw)):
        loc = Location(raw.source, None, place)
        _dup_keys(raw, cn, loc)
        ok = True
        for k in cn:
            if k not in _CONNECTION_KEYS:
                raw.error("unknown-key", f"unknown key {_quote(k)} (expected a, b, transport, via)", loc.at(_key(k)))
        for k in ("a", "b", "transport"):
            if k not in cn:
                raw.error("missing-key", f"missing key {k!r}", loc.at(k))
                ok = False
        if not ok:
            continue
        for k in ("a", "b"):
            if not _is_int(cn[k]):
                raw.error("type", f"{k} must be a station id (integer), got {_show(cn[k])}", loc.at(k))
                ok = False
        tname = cn["transport"]
        if not isinstance(tname, str):
            raw.error("type", f"transport must be a string, got {_show(tname)}", loc.at("transport"))
            ok = False
        if not ok:
            continue
        transport = _transport(raw, tname, loc.at("transport"), strict_case=True)
        via: tuple[int, ...] = ()
        if "via" in cn:
            v = cn["via"]
            if not isinstance(v, list) or not all(_is_int(x) for x in v):
                raw.error("type", f"via must be a list of station ids, got {_show(v)}", loc.at("via"))
            else:
                via = tuple(v)
        raw.connections.append(RawConnection(cn["a"], cn["b"], transport, tname, loc, via))


def _json_decks(raw: RawMap, decks: Any) -> None:
    """``start_decks``: named lists of start cards."""
    root = Location(raw.source, None, "")
    if not isinstance(decks, dict):
        raw.error("type", f"start_decks must be an object, got {jsonutil.json_type_name(decks)}", root.at("start_decks"))
        decks = {}
    _dup_keys(raw, decks, root.at("start_decks"))
    for dname, cards in decks.items():
        loc = root.at(f"start_decks.{_key(dname)}")
        if not jsonutil.is_text(dname):
            raw.error("type", f"a start deck name must be text, got {_show(dname)} (a lone surrogate)", loc)
            continue
        if not isinstance(cards, list):
            raw.error("type", f"a start deck must be a list of station ids, got {jsonutil.json_type_name(cards)}", loc)
            continue
        deck: list[tuple[int, Location]] = []
        for j, c in enumerate(cards):
            if _is_int(c):
                deck.append((c, loc.at(f"[{j}]")))
            else:
                raw.error("type", f"a start card must be a station id, got {_show(c)}", loc.at(f"[{j}]"))
        raw.start_decks[dname] = deck


def _transport(raw: RawMap, name: str, loc: Location, strict_case: bool = False) -> Transport | None:
    key = name if strict_case else name.lower()
    t = TRANSPORT_NAMES.get(key)
    if t is None or (strict_case and key not in {x.value for x in Transport}):
        expected = "taxi, bus, underground, ferry"
        if strict_case and name.lower() in TRANSPORT_NAMES:
            raw.error("unknown-transport", f"transport {name!r} is not a canonical name (expected {expected}; "
                      f"did you mean {TRANSPORT_NAMES[name.lower()].value!r}?)", loc)
        else:
            raw.error("unknown-transport", f"unknown transport {_quote(name)} (expected {expected})", loc)
        return None
    return t

_show = jsonutil.show
