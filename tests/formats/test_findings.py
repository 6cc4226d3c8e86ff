"""One located-finding type: a bad map, a bad record (game.json and the text notation), an
illegal game and an unreadable file all come out as :class:`Finding`, and the commands print
exactly what the finding says (JSON and text)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import REPO

from sy_tools.analysis import referee
from sy_tools.analysis.referee import check
from sy_tools.errors import RecordError
from sy_tools.findings import Finding, Level, Location
from sy_tools.formats import map_json as mapio
from sy_tools.formats.map_check import validate_map
from sy_tools.formats.record import RecordErrors
from sy_tools.formats.record_io import load_record

EX = REPO / "examples"

#: A text record whose shape is fine but whose moves are not (Blue lands on Red).
ILLEGAL_TXT = """map london
start 35 45 51
X: T, B, U 46
Red 13: T 23, T 37
Blue 26: T 27, T 37
"""


def test_old_names_are_the_one_type():
    assert referee.Problem is Finding
    f = Finding("warning", "id-gap", "m", Location("f"))  # a level given as text is the enum
    assert f.level is Level.WARNING and f.level == "warning" and str(f.level) == "warning"


@pytest.mark.parametrize("loc, text, where", [
    (Location("m.txt", 4), "m.txt:4", "line 4"),  # the listing names a line compiler-style
    (Location("m.json", path="stations[2].id"), "m.json: stations[2].id", "stations[2].id"),
    (Location("m.json", path=""), "m.json", ""),
    (Location("g.txt", path="rounds[1].detectives[0].to", place="line 5 (Red, round 2)"),
     "g.txt: line 5 (Red, round 2)", "line 5 (Red, round 2)"),
    (Location(None, path="mrx.start"), "mrx.start", "mrx.start"),
    (Location(None), "", ""),
])
def test_location_forms(loc, text, where):
    assert str(loc) == text and loc.where == where
    f = Finding.error("c", "msg", loc)
    assert str(f) == ": ".join(p for p in (text, "error: msg [c]") if p)
    assert f.format(tagged=False) == ": ".join(p for p in (loc.file, where, "msg") if p)
    assert str(f.to_error(RecordError)) == f.format(tagged=False)
    assert f.format("other", tagged=False) == ": ".join(p for p in (loc.file or "other", where, "msg") if p)


def test_bad_map(cli, tmp_path):
    """Map findings: the JSON path form and the line form, in the library and through validate."""
    m = json.loads((Path(mapio.__file__).parent.parent.parent / "data" / "london.json").read_text())
    m["connections"].append({"a": 1, "b": 1, "transport": "taxi"})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(m))
    pair = tmp_path / "pair"
    pair.mkdir()
    (pair / "stations.txt").write_text("1 0 0 taxi\n2 5 5 taxi\n3 9 9 taxi\n")
    (pair / "connections.txt").write_text("1 2 taxi\n2 3 taxi\n1 1 taxi\n")

    loop = validate_map(path).errors[0]
    assert loop.to_dict(with_file=True) == {
        "level": "error", "code": "self-loop", "message": "connection from station 1 to itself",
        "location": f"{path}: connections[{len(m['connections']) - 1}]", "file": str(path), "line": None,
        "path": f"connections[{len(m['connections']) - 1}]"}
    line = validate_map(pair).errors[0]
    assert line.location == Location(str(pair / "connections.txt"), 3)
    assert line.to_dict() == {"level": "error", "code": "self-loop", "where": "line 3",
                              "message": "connection from station 1 to itself"}
    assert str(line) == f"{pair / 'connections.txt'}:3: error: connection from station 1 to itself [self-loop]"

    r = cli("validate", str(path), str(pair), "--format", "json")
    assert r.exit_code == 1
    assert json.loads(r.output) == [loop.to_dict(with_file=True), line.to_dict(with_file=True)]
    assert list(json.loads(r.output)[0]) == ["level", "code", "message", "location", "file", "line", "path"]
    r = cli("validate", str(pair))
    assert r.output.splitlines()[0] == str(line)


def test_bad_record_json(cli, tmp_path):
    """A game.json of the wrong shape: the findings carry the JSON path; check prints them."""
    d = json.loads((EX / "capture.json").read_text())
    d["rounds"][0]["detectives"][0]["to"] = 999
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    with pytest.raises(RecordErrors) as e:
        load_record(path)
    (f,) = e.value.findings
    assert f == Finding(Level.ERROR, "schema", "station 999 is not on the map 'london' (stations 1..199)",
                        Location(str(path), path="rounds[0].detectives[0].to"))
    assert e.value.problems == [(f.where, f.message)]
    r = cli("check", str(path), "--format", "json")
    assert r.exit_code == 2
    assert json.loads(r.output) == {"file": str(path), "legal": False, "readable": False,
                                    "problems": [f.to_dict()], "status": None}
    r = cli("check", str(path))
    assert r.stderr == f"error: {f.format(tagged=False)}\n" == f"error: {e.value}\n"


def test_bad_record_text(cli, tmp_path):
    """The same in the text notation: the place is the line and round as the player wrote them."""
    path = tmp_path / "bad.txt"
    path.write_text(ILLEGAL_TXT.replace("T 37\nBlue", "T 999\nBlue"))
    with pytest.raises(RecordErrors) as e:
        load_record(path)
    (f,) = e.value.findings
    assert f.location == Location(str(path), path="rounds[1].detectives[0].to", place="line 4 (Red, round 2)")
    assert f.to_dict() == {"level": "error", "code": "schema", "where": "line 4 (Red, round 2)",
                           "message": "station 999 is not on the map 'london' (stations 1..199)"}
    r = cli("check", str(path), "--format", "json")
    assert json.loads(r.output)["problems"] == [f.to_dict()]
    r = cli("check", str(path))
    assert r.exit_code == 2 and r.stderr == (
        f"error: {path}: line 4 (Red, round 2): station 999 is not on the map 'london' (stations 1..199)\n")


@pytest.mark.parametrize("suffix", [".txt", ".json"])
def test_illegal_game(cli, tmp_path, suffix):
    """Referee findings: the JSON path always, the player's place for a text record."""
    path = tmp_path / ("game" + suffix)
    path.write_text(ILLEGAL_TXT if suffix == ".txt" else _converted(tmp_path))
    result = check(load_record(path))
    (f,) = [p for p in result.problems if p.code == "det-collision"]
    place = "line 5 (Blue, round 2)" if suffix == ".txt" else None
    assert f.location == Location(str(path), path="rounds[1].detectives[1].to", place=place)
    assert f.to_dict() == {"level": "error", "code": "det-collision", "where": place or "rounds[1].detectives[1].to",
                           "message": "Blue moves onto 37, where Red stands"}
    r = cli("check", str(path), "--format", "json")
    assert r.exit_code == 1 and json.loads(r.output)["problems"] == [p.to_dict() for p in result.problems]
    assert list(json.loads(r.output)["problems"][0]) == ["level", "code", "where", "message"]
    r = cli("check", str(path))
    assert r.output.splitlines()[:len(result.problems)] == [str(p) for p in result.problems]
    assert f"{path}: {f.where}: error: Blue moves onto 37, where Red stands [det-collision]" in r.output


def _converted(tmp_path: Path) -> str:
    from sy_tools.formats.game_json import record_json_text

    src = tmp_path / "src.txt"
    src.write_text(ILLEGAL_TXT)
    return record_json_text(load_record(src))


def test_unreadable(cli, tmp_path):
    """A file that can't be read: one finding, code ``unreadable``, in both commands' JSON."""
    gone = str(tmp_path / "gone.json")
    with pytest.raises(RecordError) as e:
        load_record(gone)
    f = Finding.from_error(e.value)
    assert f == Finding(Level.ERROR, "unreadable", "no such file", Location(gone))
    r = cli("check", gone, "--format", "json")
    assert r.exit_code == 2 and json.loads(r.output)["problems"] == [
        {"level": "error", "code": "unreadable", "where": "", "message": "no such file"}] == [f.to_dict()]
    r = cli("validate", gone, "--format", "json")
    assert r.exit_code == 2
    (d,) = json.loads(r.output)
    assert d == {"level": "error", "code": "unreadable", "message": d["message"], "location": gone, "file": gone,
                 "line": None, "path": None}
    assert d["message"].startswith("no such file")
