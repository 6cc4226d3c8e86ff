"""Map files: the raw map model, where a map is found and which format a file is in."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import MapError, MapFormatError
from .files import read_bytes
from .map_json import _is_ascii_digits, read_json
from .map_text import read_bristol, read_pair
from .raw_map import BUILTIN_MAPS, FORMATS, PAIR_FILES, RawMap


def builtin_path(name: str) -> Path:
    """Path of a bundled map (e.g. ``london``) inside the installed package."""
    from .. import data

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
