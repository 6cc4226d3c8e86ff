"""Every validator check has a small broken file that triggers it (and the clean base doesn't)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import REPO

from sy_tools.errors import MapError
from sy_tools.formats.map_check import CHECKS, validate_map
from sy_tools.formats.map_load import load_board

BASE = {
    "name": "tiny",
    "stations": [{"id": 1, "x": 0, "y": 0}, {"id": 2, "x": 10, "y": 0}, {"id": 3, "x": 0, "y": 10},
                 {"id": 4, "x": 10, "y": 10}],
    "connections": [
        {"a": 1, "b": 2, "transport": "taxi"}, {"a": 2, "b": 3, "transport": "taxi"},
        {"a": 3, "b": 4, "transport": "taxi"}, {"a": 1, "b": 4, "transport": "bus"},
        {"a": 2, "b": 4, "transport": "ferry"},
    ],
    "start_decks": {"classic": [1, 3]},
}


def write(tmp_path: Path, doc, name="m.json") -> str:
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(p)


def codes(report):
    return [(f.level, f.code) for f in report.findings]


def variant(**changes):
    doc = json.loads(json.dumps(BASE))
    for k, v in changes.items():
        doc[k] = v
    return doc


def test_base_is_clean(tmp_path):
    assert validate_map(write(tmp_path, BASE)).findings == ()


def test_london_clean():
    assert validate_map("london").findings == ()


@pytest.mark.parametrize(
    "doc, code, path",
    [
        ('{"name": "x", "stations": [', "parse-error", None),
        ("[1, 2]", "type", None),
        (variant(stations="no"), "type", "stations"),
        (variant(extra=1), "unknown-key", "extra"),
        (variant(stations=BASE["stations"] + [{"id": 5, "x": 1, "y": 2, "colour": "red"}]), "unknown-key",
         "stations[4].colour"),
        ('{"name": "a", "name": "b", "stations": [], "connections": []}', "duplicate-key", "name"),
        (variant(stations=BASE["stations"] + [{"id": "5", "x": 1, "y": 2}]), "station-id", "stations[4].id"),
        (variant(stations=BASE["stations"] + [{"id": 0, "x": 1, "y": 2}]), "station-id", "stations[4].id"),
        (variant(stations=BASE["stations"] + [{"id": 2, "x": 5, "y": 5}]), "duplicate-station", "stations[4].id"),
        (variant(connections=BASE["connections"] + [{"a": 1, "b": 9, "transport": "taxi"}]), "undefined-station",
         "connections[5]"),
        (variant(connections=BASE["connections"] + [{"a": 3, "b": 3, "transport": "taxi"}]), "self-loop",
         "connections[5]"),
        (variant(connections=BASE["connections"] + [{"a": 2, "b": 1, "transport": "taxi"}]), "duplicate-connection",
         "connections[5]"),
        (variant(connections=BASE["connections"] + [{"a": 1, "b": 3, "transport": "rocket"}]), "unknown-transport",
         "connections[5].transport"),
        (variant(connections=BASE["connections"] + [{"a": 1, "b": 3, "transport": "Taxi"}]), "unknown-transport",
         "connections[5].transport"),
        (variant(connections=[{"a": 1, "b": "2", "transport": "taxi"}]), "type", "connections[0].b"),
        (variant(connections=[{"a": 1, "transport": "taxi"}]), "missing-key", "connections[0].b"),
        (variant(stations=[{"id": 1, "x": 0, "y": 0}, {"id": 2, "x": "a", "y": 0}]), "type", "stations[1].x"),
        (variant(start_decks={"classic": [1, 99]}), "deck-station", "start_decks.classic[1]"),
        (variant(start_decks={"classic": [1, "x"]}), "type", "start_decks.classic[1]"),
        (variant(stations=BASE["stations"][:3] + [{"id": 4}]), "partial-coordinates", "stations[3].id"),
    ],
)
def test_json_errors(tmp_path, doc, code, path):
    report = validate_map(write(tmp_path, doc))
    hits = [f for f in report.errors if f.code == code]
    assert hits, codes(report)
    if path is not None:
        assert any(f.location.path == path for f in hits), [str(f) for f in hits]
    assert not report.ok
    assert CHECKS[code][0] == "error"


@pytest.mark.parametrize(
    "doc, code",
    [
        (variant(stations=BASE["stations"] + [{"id": 6, "x": 5, "y": 5}],
                 connections=BASE["connections"] + [{"a": 6, "b": 1, "transport": "taxi"}]), "id-gap"),
        (variant(connections=[c for c in BASE["connections"] if c["a"] != 3 or c["b"] != 4]
                 + [{"a": 3, "b": 4, "transport": "bus"}]), "no-taxi"),
        (variant(connections=BASE["connections"] + [{"a": 2, "b": 3, "transport": "bus"}]), "disconnected-transport"),
        (variant(connections=BASE["connections"] + [{"a": 2, "b": 4, "transport": "bus"}]), "ferry-shared"),
        (variant(stations=[{"id": 1, "x": 0, "y": 0}, {"id": 2, "x": 0, "y": 0}, {"id": 3, "x": 0, "y": 10},
                           {"id": 4, "x": 10, "y": 10}]), "same-coordinates"),
        (variant(start_decks={"classic": [1, 1]}), "deck-duplicate"),
    ],
)
def test_json_warnings(tmp_path, doc, code):
    report = validate_map(write(tmp_path, doc))
    assert (("warning", code) in codes(report)), codes(report)
    assert report.ok  # warnings only
    assert not report.strict().ok
    assert CHECKS[code][0] == "warning"


def test_isolated_station(tmp_path):
    doc = variant(stations=BASE["stations"] + [{"id": 5, "x": 3, "y": 3}])
    report = validate_map(write(tmp_path, doc))
    (f,) = [f for f in report.errors if f.code == "isolated-station"]
    assert f.location.path == "stations[4].id" and "station 5" in f.message


def test_pair_format_checks(tmp_path):
    (tmp_path / "stations.txt").write_text("1 0 0 taxi,bus\n2 10 0 taxi\n3 0 10 taxi,underground\nx 1 1 taxi\n")
    (tmp_path / "connections.txt").write_text("1 2 taxi\n2 3 taxi\n1 2 bus\n3 3 taxi\n1 2\n")
    report = validate_map(str(tmp_path))
    got = {(f.code, f.location.file.rsplit("/", 1)[-1], f.location.line) for f in report.findings}
    assert ("type", "stations.txt", 4) in got
    assert ("label-mismatch", "stations.txt", 2) in got  # has bus, not labelled
    assert ("label-mismatch", "stations.txt", 3) in got  # labelled underground, has none
    assert ("self-loop", "connections.txt", 4) in got
    assert ("parse-error", "connections.txt", 5) in got


def test_bristol_four_defects(tmp_path):
    """The acceptance case: a self-loop, a duplicate row, an undefined station and an isolated
    station are all reported, with line numbers."""
    text = "5 6\n1\n2\n3\n4\n5\n1 2 Taxi\n2 3 Taxi\n3 3 Taxi\n2 3 Taxi\n3 9 Bus\n1 3 Boat\n"
    report = validate_map(write(tmp_path, text, "graph.txt"))
    got = {(f.code, f.location.line) for f in report.errors}
    assert ("self-loop", 9) in got
    assert ("duplicate-connection", 10) in got
    assert ("undefined-station", 11) in got
    assert ("isolated-station", 6) in got  # station 5
    assert not any(f.code == "unknown-transport" for f in report.findings)  # Boat = ferry


def test_bristol_header_and_crlf(tmp_path):
    text = "3 3\r\n1\r\n2\r\n3\r\n1 2 Taxi\r\n2 3 Taxi\r\n"
    report = validate_map(write(tmp_path, text, "graph.txt"))
    assert [(f.code, f.location.line) for f in report.findings] == [("header-count", 1)]


def test_unreadable_is_maperror(tmp_path):
    with pytest.raises(MapError, match="no such file"):
        validate_map(str(tmp_path / "nope.json"))
    (tmp_path / "bin.json").write_bytes(b"\x00\x01")
    with pytest.raises(MapError, match="binary"):
        validate_map(str(tmp_path / "bin.json"))


def test_load_board_refuses_errors(tmp_path):
    doc = variant(connections=BASE["connections"] + [{"a": 3, "b": 3, "transport": "taxi"}])
    with pytest.raises(MapError, match=r"m.json: connections\[5\]: invalid map: connection from station 3 to itself"):
        load_board(write(tmp_path, doc))


def test_load_board_accepts_warnings(tmp_path):
    doc = variant(connections=BASE["connections"] + [{"a": 2, "b": 4, "transport": "bus"}])
    assert len(load_board(write(tmp_path, doc))) == 4


def test_schema_agrees(tmp_path):
    """The shipped JSON Schema accepts london.json and rejects unknown keys / bad transports."""
    jsonschema = pytest.importorskip("jsonschema")
    root = REPO / "data"
    schema = json.loads((root / "map.schema.json").read_text())
    jsonschema.validate(json.loads((root / "london.json").read_text()), schema)
    for bad in (variant(extra=1), variant(connections=[{"a": 1, "b": 2, "transport": "boat"}]),
                variant(stations=[{"id": 0}])):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_a_game_record_given_as_a_map_is_one_finding(cli):
    """validate on a game.json listed eight unknown/missing keys; it is a record: say so."""

    game = str(REPO / "examples" / "capture.json")
    r = cli("validate", game, "--format", "json")
    assert r.exit_code == 1
    assert [f["code"] for f in json.loads(r.output)] == ["not-a-map"]
    assert "use 'sy-tools check'" in cli("validate", game).output
