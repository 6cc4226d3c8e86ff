"""Hand-edited and foreign puzzle files (a user's edits, a game record given by mistake, a file
of a later version): each is one clear line naming the file and the field, never read as
something else; ``puzzle check`` catches an edited reply; a one-station position reads "Mr. X
is at"."""

from __future__ import annotations

import copy
import json

import pytest
from helpers import REPO

from sy_tools.errors import InputError
from sy_tools.puzzles.check import check_puzzle
from sy_tools.puzzles.model import position_lines, puzzle_from_dict, read_puzzles

FILE = REPO / "examples" / "puzzles" / "puzzles.json"
RECORD = REPO / "examples" / "capture.json"


@pytest.fixture(scope="module")
def capture():
    """The example capture puzzle of docs/puzzles.md (Mr. X at 3 stations, N = 2)."""
    doc = json.loads(FILE.read_text())
    return next(p for p in doc["puzzles"] if p["id"] == "pbac511fd84")


def _doc(*puzzles, **top):
    return {"format": "sy-tools puzzles", "version": 1, "puzzles": list(puzzles), **top}


def _edited(p, edit):
    q = copy.deepcopy(p)
    edit(q)
    return q


EDITS = {
    "version": (lambda p: _doc(p, version=2), "version: expected 1"),
    "format": (lambda p: _doc(p, format="my puzzles"), "format: expected 'sy-tools puzzles'"),
    "out": (lambda p: _doc(_edited(p, lambda q: q["detectives"][0].update(out="no"))),
            "puzzles[0].detectives[0].out: expected true or false"),
    "trivial": (lambda p: _doc(_edited(p, lambda q: q["solution"][0].update(trivial="yes"))),
                "puzzles[0].solution[0].trivial: expected true or false"),
    "nan": (lambda p: _doc(_edited(p, lambda q: q.update(rating={"rating": float("nan")}))),
            "puzzles[0].rating: expected finite numbers"),
    "twice": (lambda p: _doc(p, p), "puzzles[1]: the same puzzle (pbac511fd84) as puzzles[0]"),
    "list": (lambda p: [p], "not a puzzle file"),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_hand_edited_file_is_one_line_naming_the_field(name, capture, tmp_path, cli):
    make, message = EDITS[name]
    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps(make(capture)))
    with pytest.raises(InputError) as e:
        read_puzzles(f)
    assert str(e.value).startswith(str(f)) and message in str(e.value)
    r = cli("puzzle", "check", str(f))
    lines = r.output.strip().splitlines()
    assert (r.exit_code, len(lines)) == (2, 1) and message in lines[0], r.output


def test_a_game_record_is_not_read_as_a_puzzle(cli):
    r = cli("puzzle", "check", str(RECORD))
    assert r.exit_code == 2 and "not a puzzle file" in r.output and "detectives[0]" not in r.output
    assert read_puzzles(FILE)  # the collection, and a bare puzzle object, are still read


def test_a_bare_puzzle_object_is_read(capture, tmp_path):
    f = tmp_path / "one.json"
    f.write_text(json.dumps(capture))
    assert [p.id for p in read_puzzles(f)] == ["pbac511fd84"]


def test_check_catches_an_edited_possible_set(capture):
    good = puzzle_from_dict(capture)
    assert check_puzzle(good).ok
    bad = puzzle_from_dict(_edited(capture, lambda q: q["solution"][0]["reply"].update(possible=[1, 2])))
    r = check_puzzle(bad)
    assert r.status == "wrong" and "after his reply he may be at 51 69 85, the solution says 1 2" in r.line()


def test_one_station_reads_mr_x_is_at(capture):
    p = puzzle_from_dict(_edited(capture, lambda q: q.update(possible=[68])))
    assert position_lines(p)[1].startswith("Mr. X is at 68; his tickets")
    assert position_lines(puzzle_from_dict(capture))[1].startswith("Mr. X may be at 3 stations: 68 84 103;")


@pytest.mark.parametrize("edit", [{"forced": True}, {"choices": 7}])
def test_check_catches_an_edited_count_of_mr_x_moves(edit):
    """``solve`` prints "his only move" or "the only one of his N moves": check proves them."""
    doc = json.loads(FILE.read_text())
    sur = next(p for p in doc["puzzles"] if p["id"] == "pfc67935fd7")
    assert check_puzzle(puzzle_from_dict(sur)).ok
    r = check_puzzle(puzzle_from_dict(_edited(sur, lambda q: q["solution"][0].update(edit))))
    assert r.status == "wrong" and "turn 1: he has 4 moves, the solution says" in r.line(), r.line()


def test_check_catches_an_edited_count_of_his_replies(capture):
    bad = puzzle_from_dict(_edited(capture, lambda q: q["solution"][0]["reply"].update(replies=5)))
    r = check_puzzle(bad)
    assert r.status == "wrong" and "turn 1: Mr. X has 2 replies, the solution says 5" in r.line(), r.line()
