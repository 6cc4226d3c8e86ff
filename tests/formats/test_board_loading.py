"""Loading a map for analysis: ``mapio.load_board`` and its shortcut for the built-in maps
(skip the collecting reader and the checks when the file is byte for byte the one known to
validate clean)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import sy_tools.validate

from sy_tools.engine.board import Board
from sy_tools.errors import MapError
from sy_tools.formats import map_load as mapio
from sy_tools.formats import maps, raw_map

FIELDS = ("name", "stations", "connections", "coords", "start_decks", "via", "all_mask", "neighbours",
          "transport_neighbours", "_tables", "_lists", "_nb", "_transport_lists", "_n_bytes")


def _plain(v: object) -> object:
    if hasattr(v, "items"):
        return {k: _plain(x) for k, x in v.items()}  # type: ignore[attr-defined]
    return v


def assert_same_board(a: Board, b: Board) -> None:
    for f in FIELDS:
        assert _plain(getattr(a, f)) == _plain(getattr(b, f)), f


@pytest.fixture
def fresh_builtin():
    """Forget the cached built-in boards before and after (the test may point them elsewhere)."""
    mapio._builtin.cache_clear()
    yield
    mapio._builtin.cache_clear()


def test_validated_hashes_are_current():
    """The shipped London is the content whose hash the shortcut trusts, and it validates clean
    (when data/london.json changes, update ``mapio.VALIDATED`` after checking it)."""
    for name in raw_map.BUILTIN_MAPS:
        data = maps.builtin_path(name).read_bytes()
        assert sy_tools.validate.validate_map(name).ok
        sha = hashlib.sha256(data).hexdigest()
        assert sha == mapio.VALIDATED[name], f"{name} changed: it validates clean, so set VALIDATED[{name!r}] = {sha!r}"


def test_shortcut_builds_the_same_board():
    fast = mapio._known_clean("london")
    assert fast is not None
    assert_same_board(fast, mapio._load("london", None))


def test_changed_builtin_file_is_checked_in_full(tmp_path, monkeypatch, fresh_builtin):
    """A built-in file that differs from the validated one by a byte never takes the shortcut:
    an error in it is refused as from any map."""
    doc = json.loads(maps.builtin_path("london").read_text())
    doc["connections"].append({"a": 1, "b": 1000, "transport": "taxi"})
    bad = tmp_path / "london.json"
    bad.write_text(json.dumps(doc))
    monkeypatch.setattr(mapio, "builtin_path", lambda name: Path(bad))
    monkeypatch.setattr(maps, "builtin_path", lambda name: Path(bad))
    assert mapio._known_clean("london") is None
    with pytest.raises(MapError, match="1000"):
        mapio.load_board("london")


def test_unreadable_or_odd_shortcut_falls_back(monkeypatch, fresh_builtin):
    """Anything unexpected on the shortcut (a wrong hash, a document it can't build) means the
    full path, silently, and the same board."""
    monkeypatch.setitem(mapio.VALIDATED, "london", "0" * 64)
    assert mapio._known_clean("london") is None
    assert_same_board(mapio.load_board("london"), mapio._load("london", None))
    mapio._builtin.cache_clear()
    monkeypatch.setitem(mapio.VALIDATED, "london", mapio._sha256(maps.builtin_path("london").read_bytes()))
    monkeypatch.setattr(mapio, "board_from_json", lambda doc, name: 1 / 0)
    assert_same_board(mapio.load_board("london"), mapio._load("london", None))


def test_old_import_path_still_works():
    assert sy_tools.validate.load_board is mapio.load_board
    assert sy_tools.validate.board_from_raw is mapio.board_from_raw
    assert sy_tools.load_board is mapio.load_board


def test_a_map_file_is_checked_once_until_it_changes(tmp_path, monkeypatch):
    """A batch of records naming one map file reads and checks it once; a changed file (or a
    new one in its place) is read again, and a broken one is never remembered as good."""
    loads: list[str] = []
    real = mapio._load

    def counting(spec: str, fmt: str | None) -> Board:
        loads.append(spec)
        return real(spec, fmt)

    monkeypatch.setattr(mapio, "_load", counting)
    mapio._load_file.cache_clear()
    doc = json.loads(maps.builtin_path("london").read_text())
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(doc))
    first = mapio.load_board(str(p))
    assert mapio.load_board(str(p)) is first and len(loads) == 1
    doc["connections"] = doc["connections"][:-1]  # a different map, same name
    p.write_text(json.dumps(doc))
    second = mapio.load_board(str(p))
    assert len(loads) == 2 and len(second.connections) == len(first.connections) - 1
    doc["connections"].append({"a": 1, "b": 1000, "transport": "taxi"})
    p.write_text(json.dumps(doc))
    for _ in range(2):
        with pytest.raises(MapError):
            mapio.load_board(str(p))
    assert len(loads) == 4
