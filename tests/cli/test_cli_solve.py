"""solve through the real CLI: exit codes (0 win, 1 none, 3 unknown, 2 bad input, 130 Ctrl-C),
the JSON keys, record mode, and the README's worked example."""

from __future__ import annotations

import json
import re

import pytest
from helpers import REPO

ROOT = REPO
EX = ROOT / "examples"
PUZZLE = ["--around", "154", "--detectives", "Red=185,Blue=130,Green=168", "--move-number", "3"]
NO_BLACK = ["--mrx-tickets", "taxi=4,bus=3,underground=3,black=0,double=0"]


def test_documented_solve_example_is_current(cli):
    readme = (ROOT / "docs" / "cli.md").read_text()
    start = readme.index("## `sy-tools solve")
    block = re.compile(r"```text\n(.*?)```", re.S).search(readme, start)
    assert block
    command, *expected = block.group(1).rstrip("\n").splitlines()
    assert command == "$ sy-tools solve " + " ".join(PUZZLE + NO_BLACK)
    r = cli("solve", *PUZZLE, *NO_BLACK)
    assert r.exit_code == 0, r.output
    got = r.output.rstrip("\n").splitlines()
    assert got[-1].startswith("searched ") and expected[-1].startswith("searched ")  # nodes and time vary
    assert got[:-1] == expected[:-1]


def test_no_forced_win_exits_1_with_a_refutation(cli):
    r = cli("solve", *PUZZLE)
    assert r.exit_code == 1
    assert "no forced win within 2 turns (proved)" in r.output
    assert "he shows 2X " in r.output  # a double move escapes


def test_json(cli):
    r = cli("solve", *PUZZLE, *NO_BLACK, "--format", "json")
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert {"forced", "turns", "status", "strategy", "nodes", "wall_time"} <= set(d)
    assert d["forced"] is True and d["turns"] == 2 and d["status"] == "proved"
    first = d["strategy"]["moves"][0]
    assert first == {"piece": "Red", "tickets": ["underground"], "stations": [153]}
    assert sorted(tuple(r["tickets"]) for r in d["strategy"]["replies"]) == [("bus",), ("taxi",)]


def test_record_mode(cli):
    r = cli("solve", str(EX / "in-progress.json"), "--format", "json")
    assert r.exit_code == 1
    d = json.loads(r.output)
    assert d["forced"] is False and d["status"] == "proved" and d["to_move"] == "mrx" and d["round"] == 10
    r = cli("solve", str(EX / "capture.json"))
    assert r.exit_code == 1 and "the game is over" in r.stderr


def test_unknown_exits_3(cli):
    r = cli("solve", "--around", "38", "--detectives", "Red=102,Blue=89,Green=37,Yellow=85,Black=13",
            "--move-number", "3", "--turns", "3", "--time-limit", "0.05")
    assert r.exit_code == 3
    assert "unknown: the time limit stopped the search" in r.output


@pytest.mark.parametrize("args, message", [
    ((), "error: give either a GAME record or --around STATIONS (not both)"),
    (("--around", "83"), "error: puzzle mode needs --detectives, e.g. Red=13,Blue=26"),
    (("--around", "500", "--detectives", "Red=13"), "error: --around: station 500 is not on the map 'london'"),
    (("--around", "83", "--detectives", "Red=13", "--rules", "nope"), "error: --rules: unknown rules preset 'nope'"),
    (("--around", "83", "--detectives", "Red=13", "--move-number", "24"), "error: --move-number: expected"),
])
def test_bad_input_exits_2(cli, args, message):
    r = cli("solve", *args)
    assert r.exit_code == 2
    assert r.stderr.startswith(message), r.stderr


def test_ctrl_c_exits_130_without_a_traceback(cli, monkeypatch):
    import sy_tools.solvers.forced as forced

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(forced, "solve_puzzle", interrupted)
    r = cli("solve", *PUZZLE)
    assert r.exit_code == 130
    assert "Traceback" not in r.output + r.stderr
    assert r.stderr.strip() == "error: interrupted"


def test_puzzle_options_with_a_record_are_refused(cli):
    r = cli("solve", str(EX / "in-progress.json"), "--rules", "2014")
    assert r.exit_code == 2 and "--rules is for puzzle mode" in r.stderr
    for cmd in ("solve", "cordon", "advise"):  # typed flags are named, even at their default values
        r = cli(cmd, str(EX / "in-progress.json"), "--map", "london", "--tickets", "taxi=1")
        assert r.exit_code == 2 and "--tickets, --map are for puzzle mode" in r.stderr, r.stderr


def test_rules_preset_in_puzzle_mode(cli):
    # the 2014 preset changes only the detectives' taxi count here: the same forced win
    r = cli("solve", *PUZZLE, *NO_BLACK, "--rules", "2014", "--format", "json")
    assert r.exit_code == 0 and json.loads(r.output)["turns"] == 2
