"""The strict map loader for analysis: read, validate, build a :class:`Board` (cached)."""

from __future__ import annotations

import json
import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine.board import Board, Connection
from ..engine.tickets import Transport
from ..errors import MapError
from .files import read_bytes
from .map_write import source_files
from .maps import builtin_path, read_map
from .raw_map import BUILTIN_MAPS, TRANSPORT_NAMES, RawMap

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
    from .map_check import check_raw  # validate builds on the readers here

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
