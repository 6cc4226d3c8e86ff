"""Map files: readers and writers for the canonical JSON format and the public text formats.

Readers never stop at the first problem.  They turn a file into a :class:`RawMap` (what the file
says, each item with its :class:`~sy_tools.findings.Location`) plus
:class:`~sy_tools.findings.Finding` s for what could not be parsed (both live in
:mod:`sy_tools.findings` and are importable from here too); :mod:`sy_tools.validate` checks the
rest and builds a :class:`~sy_tools.board.Board`.

Formats:

``json``
    The canonical format (``data/map.schema.json``)::

        {"name": "london",
         "stations": [{"id": 1, "x": 190, "y": 40}, ...],
         "connections": [{"a": 1, "b": 8, "transport": "taxi"}, ...],
         "start_decks": {"classic": [13, 26, ...]}}

``pair``
    ``stations.txt`` (``id x y kinds``, kinds like ``taxi,bus``) and ``connections.txt``
    (``a b kind``, kind taxi/bus/underground/water) in one folder.
``bristol``
    ``graph.txt``: header ``STATIONS EDGES``, one line per station id, then ``a b Kind`` lines
    (Kind Taxi/Bus/Underground/Ferry, older files ``Boat``).
``graphml``
    Output only: the :meth:`Board.to_networkx` graph.
"""

from __future__ import annotations

import json
import math
import os
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import jsonutil
from .board import Board, Connection, Transport, stations_of
from .errors import MapError, MapFormatError
from .files import atomic_write_bytes, atomic_write_many, read_bytes, read_text, refuse_overwrite
from .findings import Finding, Level, Location  # noqa: F401  (Finding, Level: re-exported)

FORMATS = ("json", "pair", "bristol")
#: the two files of the ``pair`` format, in one folder
PAIR_FILES = ("stations.txt", "connections.txt")
OUTPUT_FORMATS = ("json", "pair", "bristol", "graphml")
BUILTIN_MAPS = ("london",)
#: Coordinates must lie within +-COORD_LIMIT (drawing units); larger ones are errors.
COORD_LIMIT = 1e9

#: Transport names as they occur in users' files (lower-cased).
TRANSPORT_NAMES: dict[str, Transport] = {
    "taxi": Transport.TAXI,
    "bus": Transport.BUS,
    "underground": Transport.UNDERGROUND,
    "tube": Transport.UNDERGROUND,
    "ferry": Transport.FERRY,
    "water": Transport.FERRY,
    "boat": Transport.FERRY,
}


@dataclass
class RawStation:
    id: int
    x: float | None
    y: float | None
    kinds: frozenset[str] | None  # labels given by the file, if any
    loc: Location


@dataclass
class RawConnection:
    a: int
    b: int
    transport: Transport | None  # None: unknown name (already reported)
    name: str  # the name as written
    loc: Location
    #: stations the line passes over on the board (the cut-off escape rule; JSON maps only)
    via: tuple[int, ...] = ()


@dataclass
class RawMap:
    """A map file as read, before validation."""

    name: str
    source: str
    format: str
    stations: list[RawStation] = field(default_factory=list)
    connections: list[RawConnection] = field(default_factory=list)
    start_decks: dict[str, list[tuple[int, Location]]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    header: tuple[int, int, Location] | None = None  # bristol: declared counts

    def error(self, code: str, message: str, loc: Location) -> None:
        self.findings.append(Finding.error(code, message, loc))

    def warning(self, code: str, message: str, loc: Location) -> None:
        self.findings.append(Finding.warning(code, message, loc))


# ---- locating and sniffing ----------------------------------------------------------------


def builtin_path(name: str) -> Path:
    """Path of a bundled map (e.g. ``london``) inside the installed package."""
    from . import data

    if data.__file__:  # an ordinary install (importlib.resources costs a batch's start-up 5 ms)
        return Path(os.path.dirname(data.__file__), f"{name}.json")
    from importlib import resources  # pragma: no cover - e.g. a zipped package

    return Path(str(resources.files("sy_tools.data").joinpath(f"{name}.json")))  # pragma: no cover


def detect_format(path: Path) -> str:
    """Guess a map file's format from its name, then its content."""
    if path.is_dir():
        return "pair"
    name = path.name.lower()
    if name.endswith(".json"):
        return "json"
    if name in PAIR_FILES:
        return "pair"
    if name.endswith(".graphml"):
        raise MapError("GraphML is an output format only; convert from json, pair or bristol", str(path))
    head = read_bytes(path, MapError)[:4096]
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    first = next((ln.split() for ln in text.splitlines() if ln.strip()), [])
    if text.lstrip().startswith("{"):
        return "json"
    if len(first) == 2 and all(_is_ascii_digits(t) for t in first):
        return "bristol"
    raise MapFormatError(
        "cannot tell the map format from the name or the first line (expected a .json file, a folder "
        "or stations.txt/connections.txt for the pair, or a Bristol graph.txt starting 'STATIONS EDGES')",
        str(path),
    )


def read_map(spec: str | os.PathLike[str], fmt: str | None = None) -> RawMap:
    """Read a map file (or a built-in name such as ``london``) without judging it.

    Raises :class:`MapError` only when nothing can be read at all (missing file, not text).
    """
    spec_s = os.fspath(spec)
    if fmt is None and spec_s in BUILTIN_MAPS and not Path(spec_s).exists():
        path = builtin_path(spec_s)
        raw = read_json(path)
        raw.source = spec_s
        return raw
    path = Path(spec_s)
    if not path.exists():
        hint = f" (built-in maps: {', '.join(BUILTIN_MAPS)})"
        raise MapError(f"no such file or folder{hint}", spec_s)
    fmt = fmt or detect_format(path)
    if fmt == "json":
        return read_json(path)
    if fmt == "pair":
        return read_pair(path)
    if fmt == "bristol":
        return read_bristol(path)
    raise MapError(f"unknown map format {fmt!r}, expected one of {', '.join(FORMATS)}", spec_s)


# ---- JSON -----------------------------------------------------------------------------------

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


def _encodable(text: str) -> bool:
    """Whether ``text`` can be written out as UTF-8 (JSON escapes allow lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _key(k: str) -> str:
    """A JSON key as a place in a path, shortened and escaped if it is long or odd."""
    return k if len(k) <= 60 and _encodable(k) else _quote(k)


def _quote(text: str, limit: int = 60) -> str:
    """``repr`` of ``text``, shortened so an error line stays one readable line."""
    return repr(text) if len(text) <= limit else repr(text[: limit - 3]) + "..."


def parse_json_text(text: str) -> Any:
    """``json.loads`` that marks duplicate keys (see :mod:`sy_tools.jsonutil`)."""
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
        raw.error("type", f"expected a JSON object at the top, got {_kind(doc)}", top)
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
    if isinstance(name, str) and name and _encodable(name):
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
        raw.error("type", f"start_decks must be an object, got {_kind(decks)}", root.at("start_decks"))
        decks = {}
    _dup_keys(raw, decks, root.at("start_decks"))
    for dname, cards in decks.items():
        loc = root.at(f"start_decks.{_key(dname)}")
        if not _encodable(dname):
            raw.error("type", f"a start deck name must be text, got {_show(dname)} (a lone surrogate)", loc)
            continue
        if not isinstance(cards, list):
            raw.error("type", f"a start deck must be a list of station ids, got {_kind(cards)}", loc)
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


_kind = jsonutil.kind
_show = jsonutil.show


# ---- text formats ---------------------------------------------------------------------------


def _lines(path: Path) -> list[tuple[int, list[str]]]:
    text = read_text(path, MapError)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append((n, line.split()))
    return out


def _int_token(raw: RawMap, tok: str, what: str, loc: Location) -> int | None:
    digits = tok[1:] if tok[:1] in "+-" else tok
    if not _is_ascii_digits(digits):
        raw.error("type", f"{what} must be an integer, got {_quote(tok)}", loc)
        return None
    if len(digits) > _MAX_INT_DIGITS:
        raw.error("station-id", f"{what} {_quote(tok)} is far too large", loc)
        return None
    return int(tok, 10)


def read_pair(path: Path) -> RawMap:
    """Read the ``stations.txt`` + ``connections.txt`` pair (``path``: the folder or either file)."""
    folder = path if path.is_dir() else path.parent
    spath, cpath = (folder / f for f in PAIR_FILES)
    raw = RawMap(name=folder.resolve().name or "map", source=str(folder), format="pair")
    for p in (spath, cpath):
        if not p.exists():
            raise MapError("the pair format needs stations.txt and connections.txt side by side; missing", str(p))
    for n, toks in _lines(spath):
        loc = Location(str(spath), n)
        if len(toks) not in (3, 4):
            raw.error("parse-error", f"expected 'id x y kinds', got {_quote(' '.join(toks))}", loc)
            continue
        sid = _int_token(raw, toks[0], "station id", loc)
        xy: list[float | None] = []
        for tok, c in zip(toks[1:3], "xy"):
            try:
                v = float(tok)
                if math.isinf(v) and tok.lstrip("+-").lower() not in ("inf", "infinity"):
                    raw.error("coordinate-range", f"{c} = {_quote(tok, 20)} is out of range (coordinates must "
                              f"lie within ±{COORD_LIMIT:g})", loc)
                    xy.append(None)
                    continue
                if not math.isfinite(v):
                    raise ValueError
                xy.append(v)
            except ValueError:
                raw.error("type", f"{c} must be a finite number, got {_quote(tok)}", loc)
                xy.append(None)
        kinds = None
        if len(toks) == 4:
            kinds = frozenset(k.strip().lower() for k in toks[3].split(",") if k.strip())
            bad = sorted(k for k in kinds if k not in TRANSPORT_NAMES)
            if bad:
                raw.error("unknown-transport", f"unknown station kind {_quote(', '.join(bad))} (expected taxi, bus, underground)", loc)
                kinds = frozenset(k for k in kinds if k in TRANSPORT_NAMES)
            kinds = frozenset(TRANSPORT_NAMES[k].value for k in kinds)
        if sid is not None:
            raw.stations.append(RawStation(sid, xy[0], xy[1], kinds, loc))
    _read_edges(raw, cpath, _lines(cpath))
    return raw


def _read_edges(raw: RawMap, path: Path, lines: list[tuple[int, list[str]]]) -> None:
    for n, toks in lines:
        loc = Location(str(path), n)
        if len(toks) != 3:
            raw.error("parse-error", f"expected 'a b transport', got {_quote(' '.join(toks))}", loc)
            continue
        a = _int_token(raw, toks[0], "station id", loc)
        b = _int_token(raw, toks[1], "station id", loc)
        t = _transport(raw, toks[2], loc)
        if a is not None and b is not None:
            raw.connections.append(RawConnection(a, b, t, toks[2], loc))


def read_bristol(path: Path) -> RawMap:
    """Read a Bristol coursework ``graph.txt``."""
    raw = RawMap(name=path.stem, source=str(path), format="bristol")
    lines = _lines(path)
    if not lines:
        raw.error("parse-error", "empty file, expected a header 'STATIONS EDGES'", Location(str(path), 1))
        return raw
    n0, head = lines[0]
    hloc = Location(str(path), n0)
    if len(head) != 2 or not all(_is_ascii_digits(t) and len(t) <= _MAX_INT_DIGITS for t in head):
        raw.error("parse-error", f"expected a header 'STATIONS EDGES', got {_quote(' '.join(head))}", hloc)
        return raw
    n_st, n_ed = int(head[0]), int(head[1])
    raw.header = (n_st, n_ed, hloc)
    body = lines[1:]
    # station lines are one token; edge lines three.  Trust the shape, not the header, so a
    # wrong header is reported instead of shifting every later line.
    k = 0
    while k < len(body) and len(body[k][1]) == 1:
        n, toks = body[k]
        loc = Location(str(path), n)
        sid = _int_token(raw, toks[0], "station id", loc)
        if sid is not None:
            raw.stations.append(RawStation(sid, None, None, None, loc))
        k += 1
    _read_edges(raw, path, body[k:])
    if len(raw.stations) != n_st:
        raw.error("header-count", f"header says {n_st} stations, the file lists {len(raw.stations)}", hloc)
    n_edges = len(body) - k
    if n_edges != n_ed:
        raw.error("header-count", f"header says {n_ed} connections, the file lists {n_edges}", hloc)
    return raw


# ---- writers --------------------------------------------------------------------------------


def _fmt_num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def to_json_text(board: Board) -> str:
    """The canonical JSON text of ``board`` (one station / connection per line)."""
    lines = ["{", f'  "name": {json.dumps(board.name)},', '  "stations": [']
    st = []
    for s in board.stations:
        if board.coords and s in board.coords:
            x, y = board.coords[s]
            st.append(f'    {{"id": {s}, "x": {_fmt_num(x)}, "y": {_fmt_num(y)}}}')
        else:
            st.append(f'    {{"id": {s}}}')
    lines.append(",\n".join(st))
    lines.append("  ],")
    lines.append('  "connections": [')
    def via(c: Any) -> str:
        v = board.via.get((min(c.a, c.b), max(c.a, c.b), c.transport))
        return f', "via": {json.dumps(stations_of(v))}' if v else ""

    lines.append(
        ",\n".join(
            f'    {{"a": {c.a}, "b": {c.b}, "transport": "{c.transport.value}"{via(c)}}}' for c in board.connections
        )
    )
    if board.start_decks:
        lines.append("  ],")
        lines.append('  "start_decks": {')
        lines.append(
            ",\n".join(f"    {json.dumps(k)}: {json.dumps(list(v))}" for k, v in board.start_decks.items())
        )
        lines.append("  }")
    else:
        lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


_PAIR_NAMES = {Transport.TAXI: "taxi", Transport.BUS: "bus", Transport.UNDERGROUND: "underground", Transport.FERRY: "water"}
_BRISTOL_NAMES = {Transport.TAXI: "Taxi", Transport.BUS: "Bus", Transport.UNDERGROUND: "Underground", Transport.FERRY: "Ferry"}
_ORDER = (Transport.TAXI, Transport.BUS, Transport.UNDERGROUND)


def to_pair_texts(board: Board) -> tuple[str, str]:
    """``(stations.txt, connections.txt)`` texts.  Needs coordinates for every station."""
    if not board.coords or any(s not in board.coords for s in board.stations):
        raise MapError("the pair format needs x/y coordinates for every station", board.name)
    st = []
    for s in board.stations:
        x, y = board.coords[s]
        kinds = ",".join(t.value for t in _ORDER if t in board.kinds(s)) or "taxi"
        st.append(f"{s} {_fmt_num(x)} {_fmt_num(y)} {kinds}")
    order = {t: i for i, t in enumerate((Transport.FERRY, Transport.UNDERGROUND, Transport.BUS, Transport.TAXI))}
    conns = sorted(board.connections, key=lambda c: (order[c.transport], c.a, c.b))
    cn = [f"{c.a} {c.b} {_PAIR_NAMES[c.transport]}" for c in conns]
    return "\n".join(st) + "\n", "\n".join(cn) + "\n"


def to_bristol_text(board: Board) -> str:
    """The Bristol ``graph.txt`` text (coordinates and start decks are not carried)."""
    out = [f"{len(board.stations)} {len(board.connections)}"]
    out += [str(s) for s in board.stations]
    out += [f"{c.a} {c.b} {_BRISTOL_NAMES[c.transport]}" for c in board.connections]
    return "\n".join(out) + "\n"


def to_graphml_text(board: Board) -> str:
    """GraphML of :meth:`Board.to_networkx`."""
    import networkx as nx

    return "\n".join(nx.generate_graphml(board.to_networkx())) + "\n"


def output_format(out: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The format to write ``out`` in: ``fmt`` if given, else from the name (a name without a
    suffix, or a folder, is the pair format)."""
    if fmt:
        if fmt not in OUTPUT_FORMATS:
            raise MapError(f"unknown output format {fmt!r}, expected one of {', '.join(OUTPUT_FORMATS)}")
        return fmt
    p = Path(out)
    suffix = p.suffix.lower()
    if not suffix and p.exists() and not p.is_dir():
        raise MapError("cannot tell the output format of a file without a suffix (standard output, a device, a "
                       "pipe); pass --to json, bristol or graphml", str(out))
    if p.is_dir() or not suffix:
        return "pair"
    if suffix == ".json":
        return "json"
    if suffix == ".graphml":
        return "graphml"
    if suffix == ".txt":
        if p.name in PAIR_FILES:
            return "pair"
        return "bristol"
    raise MapError(f"cannot tell the output format from the suffix {suffix!r}; pass --to", str(out))


def source_files(spec: str | os.PathLike[str], fmt: str | None = None) -> list[Path]:
    """The files a map spec reads (none for a built-in name)."""
    p = Path(spec)
    if not p.exists():
        return []
    if p.is_dir() or (fmt or "") == "pair" or p.name in PAIR_FILES:
        folder = p if p.is_dir() else p.parent
        return [folder / f for f in PAIR_FILES]
    return [p]


def dropped_on_write(board: Board, fmt: str) -> str | None:
    """What writing ``board`` in ``fmt`` leaves out that matters to an analysis (None: nothing):
    only the JSON format holds the ``via`` data of the cut-off escape rule."""
    if fmt == "json" or not board.via:
        return None
    return (f"the {fmt} format cannot hold via data: the {len(board.via)} connection(s) with it lose it "
            "(the cut-off escape rule needs it; convert to .json to keep it)")


def write_map(board: Board, out: str | os.PathLike[str], fmt: str | None = None,
              keep: list[Path] | None = None) -> list[Path]:
    """Write ``board`` to ``out`` (atomically), never over a file in ``keep`` (the inputs).
    Returns the files written."""
    fmt = output_format(out, fmt)
    p = Path(out)
    if fmt == "pair":
        folder = p if (p.is_dir() or not p.suffix) else p.parent
        targets = [folder / f for f in PAIR_FILES]
        refuse_overwrite(targets, keep or [])
        s_text, c_text = to_pair_texts(board)
        folder.mkdir(parents=True, exist_ok=True)
        # both files change or neither does (see sy_tools.files)
        atomic_write_many([(targets[0], s_text.encode("utf-8")), (targets[1], c_text.encode("utf-8"))])
        return targets
    refuse_overwrite([p], keep or [])
    text = {"json": to_json_text, "bristol": to_bristol_text, "graphml": to_graphml_text}[fmt](board)
    atomic_write_bytes(p, text.encode("utf-8"))
    return [p]


# ---- loading for analysis ---------------------------------------------------------------------
#
# The strict loader the analysis commands use.  :mod:`sy_tools.validate` collects every
# finding; :func:`load_board` refuses a map with any error.  A built-in map is read once per
# process, and when its file is byte for byte the one known to validate clean (its SHA-256 in
# ``VALIDATED``) the collecting reader and the checks are skipped: any other content, or any
# failure on the way, takes the full path, so the shortcut can never serve a stale board.

#: SHA-256 of each built-in map file as shipped; that content validates clean (a test keeps the
#: hashes current: ``tests/test_mapio.py``).
VALIDATED = {
    "london": "146e2a74b789c406ea1ade62ae9b6981fc0eb046eb11637869d48eb9167c00e7",
}


def board_from_raw(raw: RawMap) -> Board:
    """Build a :class:`Board` from a raw map that has no errors."""
    coords = None
    if raw.stations and all(st.x is not None and st.y is not None for st in raw.stations):
        coords = {st.id: (st.x, st.y) for st in raw.stations}
    conns = [Connection.of(c.a, c.b, c.transport) for c in raw.connections if c.transport is not None]
    decks = {k: [s for s, _ in v] for k, v in raw.start_decks.items()}
    via = {(c.a, c.b, c.transport): c.via for c in raw.connections if c.transport is not None and c.via}
    return Board.build(raw.name, (st.id for st in raw.stations), conns, coords, decks, via)  # type: ignore[arg-type]


def load_board(spec: str | os.PathLike[str] = "london", fmt: str | None = None) -> Board:
    """Load a map for analysis.  Refuses (with :class:`MapError`) a map that has any error;
    warnings are accepted.  Built-in maps are loaded once and cached."""
    spec_s = os.fspath(spec)
    # (a file of that name in the working folder is read instead; os.access, unlike
    # os.path.exists, raises nothing when there is none, the usual case: a batch asks per record)
    if fmt is None and spec_s in BUILTIN_MAPS and not os.access(spec_s, os.F_OK):
        return _builtin(spec_s)
    key = _file_key(spec_s, fmt)
    return _load(spec_s, fmt) if key is None else _load_file(spec_s, fmt, key)


def _file_key(spec: str, fmt: str | None) -> tuple[int, ...] | None:
    """What identifies the contents of a one-file map (device, inode, size, modification time):
    a batch of records naming the same map file reads and checks it once, and a changed file
    is read again.  None for anything else (a pair of files, a folder, a path that fails)."""
    try:
        if source_files(spec, fmt) != [Path(spec)]:
            return None
        st = os.stat(spec)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=8)
def _load_file(spec: str, fmt: str | None, key: tuple[int, ...]) -> Board:
    return _load(spec, fmt)


def _load(spec: str, fmt: str | None) -> Board:
    from .validate import check_raw  # validate builds on the readers here

    raw = read_map(spec, fmt)
    errors = [f for f in check_raw(raw) if f.level == "error"]
    if errors:
        more = f" (and {len(errors) - 1} more; run 'sy-tools validate {spec}')" if len(errors) > 1 else ""
        e = errors[0]
        raise MapError(f"invalid map: {e.message}{more}", str(e.location))
    return board_from_raw(raw)


@lru_cache(maxsize=None)
def _builtin(name: str) -> Board:
    board = _known_clean(name)
    return board if board is not None else _load(name, None)


def _known_clean(name: str) -> Board | None:
    """The built-in map ``name`` straight from its file when that file is the one known to
    validate clean (None otherwise, or if anything at all goes wrong: the caller then reads and
    checks it in full).  Same board as the full path builds."""
    try:
        data = read_bytes(builtin_path(name), MapError)
        if _sha256(data) != VALIDATED.get(name):
            return None
        return board_from_json(json.loads(data), name)
    except Exception:  # noqa: BLE001 - a shortcut only: the full path reports any problem
        return None


def _sha256(data: bytes) -> str:
    try:  # CPython's built-in SHA-256: hashlib would first load OpenSSL (several ms at start-up)
        from _sha256 import sha256  # type: ignore[import-not-found]  # Python 3.11
    except ImportError:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found, no-redef]  # 3.12 and later
        except ImportError:  # pragma: no cover
            from hashlib import sha256
    return str(sha256(data).hexdigest())


def board_from_json(doc: dict[str, Any], name: str) -> Board:
    """A :class:`Board` from a canonical JSON map document that is known to be valid (what
    :func:`read_json` and :func:`board_from_raw` make of it, without the checks); ``name``: the
    map's name when the document has none (the file's stem)."""
    stations = doc["stations"]
    coords = None
    if stations and all("x" in st and "y" in st for st in stations):
        coords = {st["id"]: (float(st["x"]), float(st["y"])) for st in stations}
    conns = [Connection.of(c["a"], c["b"], TRANSPORT_NAMES[c["transport"]]) for c in doc["connections"]]
    via: dict[tuple[int, int, Transport | str], tuple[int, ...]] = {
        (c["a"], c["b"], TRANSPORT_NAMES[c["transport"]]): tuple(c["via"]) for c in doc["connections"] if c.get("via")}
    return Board.build(doc.get("name", name), [st["id"] for st in stations], conns, coords, doc.get("start_decks", {}), via)
