"""Reading the text map formats (the pair of files, bristol edge lists)."""

from __future__ import annotations

import math
from pathlib import Path

from ..errors import MapError
from ..findings import Location
from .files import read_text
from .map_json import _MAX_INT_DIGITS, _is_ascii_digits, _quote, _transport
from .raw_map import COORD_LIMIT, PAIR_FILES, TRANSPORT_NAMES, RawConnection, RawMap, RawStation


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
                if not tok.isascii():  # (float() also reads fullwidth and other scripts' digits)
                    raise ValueError
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
