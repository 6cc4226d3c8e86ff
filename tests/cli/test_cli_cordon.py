from __future__ import annotations

import json

from helpers import REPO

EX = REPO / "examples"


def test_cordon_record_json(cli):
    r = cli("cordon", str(EX / "in-progress.json"), "--format", "json", "--time-limit", "20")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    for key in ("cordon_size", "cordon", "feasible", "plan", "sealed_probability", "status", "open", "target"):
        assert key in d
    assert d["status"] == "optimal" and d["cordon_size"] == len(d["cordon"])
    assert [p["name"] for p in d["plan"]] == ["Red", "Blue", "Green", "Yellow", "Black"]
    assert all(set(p) == {"name", "path", "tickets", "on_duty"} for p in d["plan"])
    assert d["to_move"] == "mrx" and d["round"] == 10


def test_cordon_puzzle_text(cli):
    r = cli("cordon", "--around", "83", "--detectives", "Red=100,Blue=114,Green=82", "--moves", "2",
            "--mrx-tickets", "taxi=4,bus=0,underground=0,black=0")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "Mr. X may be at 2 stations after 1 more move; most likely: 101 (0.50), 102 (0.50)"
    assert "plan for 2 turns: seals every possible station" in r.output
    assert "sealed probability: 1.0000" in r.output
    r = cli("cordon", "--around", "83", "--detectives", "Red=100,Blue=114,Green=82", "--moves", "2",
            "--mrx-tickets", "taxi=4,bus=0,underground=0,black=0", "--all")
    assert r.output.splitlines()[0] == "Mr. X may be at 2 stations after 1 more move: 101 102"


def test_cordon_text_is_short_unless_all(cli):
    """A record's cordon prints a few stations and counts by default; --all lists everything
    (JSON always does)."""
    game = str(EX / "in-progress.json")
    short = cli("cordon", game, "--time-limit", "5")
    assert short.exit_code == 0, short.output
    head = short.output.splitlines()[0]
    # (his next move may be a double move: he holds one)
    assert head.startswith("Mr. X may be at 102 stations after his next move (round 10, after Mr. X's move 11; Mr. X "
                           "moves next)") and "; most likely: 89 (0.03)" in head
    assert "(+94; --all lists them)" in head
    long = cli("cordon", game, "--time-limit", "5", "--all")
    d = json.loads(cli("cordon", game, "--time-limit", "5", "--format", "json").output)
    assert long.output.splitlines()[0].endswith(": " + " ".join(map(str, d["target"])))
    assert len(d["target"]) == 102 and len(short.output) < len(long.output)


def test_cordon_round_plans_from_an_earlier_position(cli):
    """--round N is the record as it stood after round N, as in 'possible' (same possible set)."""
    game = str(EX / "in-progress.json")
    d = json.loads(cli("cordon", game, "--round", "3", "--time-limit", "5", "--format", "json").output)
    p = json.loads(cli("possible", game, "--round", "3", "--format", "json").output)
    assert d["mrx_moves"] == p["move"] == 4 and d["to_move"] == "mrx"
    from sy_tools.formats.record_io import load_record
    from sy_tools.solvers.cordon import cordon

    lib = cordon(load_record(game).at_round(3), time_limit=5)
    assert d["target"] == list(lib.target) and d["cordon_size"] == lib.cordon_size
    full = json.loads(cli("cordon", game, "--time-limit", "5", "--format", "json").output)
    assert full["target"] != d["target"]
    assert cli("cordon", "--around", "83", "--round", "3").exit_code == 2


def test_cordon_puzzle_size_only(cli):
    r = cli("cordon", "--around", "194", "--mrx-tickets", "taxi=1,black=0")
    assert r.exit_code == 0
    assert "cordon size: 1 (optimal)" in r.output


def test_cordon_bad_input(cli):
    r = cli("cordon")
    assert r.exit_code == 2 and r.stderr.strip() == "error: give either a GAME record or --around STATIONS (not both)"
    r = cli("cordon", "--around", "1,500")
    assert r.exit_code == 2 and r.stderr.strip() == "error: --around: station 500 is not on the map 'london'"
    r = cli("cordon", "--around", "1", "--detectives", "Red=x")
    assert r.exit_code == 2 and "--detectives: expected NAME=STATION" in r.stderr
    r = cli("cordon", "--around", "1", "--tickets", "boat=3")
    assert r.exit_code == 2 and "--tickets" in r.stderr


def test_cordon_game_over_exit_1(cli):
    r = cli("cordon", str(EX / "capture.json"))
    assert r.exit_code == 1
    assert r.stderr.strip().endswith("the game is over: detectives won: Yellow caught Mr. X at 155 in round 14")
    r = cli("cordon", str(EX / "broken" / "wrong-ticket.json"))
    assert r.exit_code == 1 and "the record is illegal" in r.stderr
