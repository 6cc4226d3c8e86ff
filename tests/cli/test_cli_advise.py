"""``sy-tools advise`` through the real CLI: exit codes, one-line errors, the JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import REPO

ROOT = REPO
IN_PROGRESS = str(ROOT / "examples" / "in-progress.json")


@pytest.fixture
def detectives_to_move(tmp_path) -> str:
    """The in-progress example after Mr. X's next (taxi) move: the detectives are to move."""
    doc = json.loads(Path(IN_PROGRESS).read_text())
    doc["rounds"].append({"mrx": [{"ticket": "taxi"}], "detectives": []})
    p = tmp_path / "mid-round.json"
    p.write_text(json.dumps(doc))
    return str(p)


def test_detectives_json(cli, detectives_to_move):
    r = cli("advise", detectives_to_move, "--time-limit", "1", "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    # solve ran first: no forced win within two turns here, proved
    assert d["side"] == "detectives" and d["forced"]["forced"] is False and d["forced"]["status"] == "proved"
    assert d["status"] in ("exhaustive", "searched", "time-limit")
    names = [m["name"] for m in d["moves"]]
    assert names == ["Blue", "Green", "Yellow", "Black"]  # Red is out (stuck)
    assert d["out"] == ["Red"]
    for m in d["moves"]:
        assert set(m) >= {"name", "ticket", "to", "tickets_left", "reason"}
        assert set(m["tickets_left"]) == {"taxi", "bus", "underground"}
    assert d["possible_count"] == 44 and d["reach_by_reveal"] >= d["possible_count"]
    assert set(d["distances"]) == {"Red", "Blue", "Green", "Yellow", "Black"}
    assert d["wall_time"] < 60  # a hang bound only (the limit is 1 s; a busy machine stretches the rest)
    assert d["summary"].startswith("Detectives: ")


def test_detectives_text(cli, detectives_to_move):
    r = cli("advise", detectives_to_move, "--time-limit", "0.5")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == "round 11, after Mr. X's move 12; the detectives to move"
    assert lines[1].startswith("he may be at 44 stations and may reach ")
    assert any(ln.startswith("Blue ") and "  # from 103, " in ln for ln in lines)
    assert lines[-1].startswith("search: ")


def test_mrx_from_record_needs_at(cli):
    r = cli("advise", IN_PROGRESS)
    assert r.exit_code == 2
    assert r.stderr.startswith("error: ") and "--at" in r.stderr and len(r.stderr.splitlines()) == 1
    r = cli("advise", IN_PROGRESS, "--at", "4", "--top", "3", "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["side"] == "mrx" and len(d["moves"]) == 3
    assert {"tickets", "stations", "reason", "safe", "possible_after"} <= set(d["moves"][0])
    assert d["moves"][0]["safe"]


def test_side_must_be_the_side_to_move(cli, detectives_to_move):
    r = cli("advise", detectives_to_move, "--side", "mrx")
    assert r.exit_code == 2 and "only --side detectives" in r.stderr
    r = cli("advise", detectives_to_move, "--at", "3")
    assert r.exit_code == 2


def test_puzzle_detectives(cli):
    r = cli("advise", "--around", "187", "--detectives", "Red=89,Blue=153,Green=79", "--move-number", "3",
            "--time-limit", "2", "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["possible_count"] == 1 and d["moves_to_reveal"] == 5
    # the table's complaint: right after a reveal at 187, close in (89 -U-> 128 is one hop from him)
    red = next(m for m in d["moves"] if m["name"] == "Red")
    assert (red["ticket"], red["to"]) == ("underground", 128)


@pytest.mark.parametrize("args, message", [
    (["--around", "500", "--detectives", "Red=13"], "station 500 is not on the map"),
    (["--around", "45", "--detectives", "Red=13,Blue=13"], "both stand on 13"),
    (["--around", "4x", "--detectives", "Red=13"], "expected station numbers"),
    (["--around", "45"], "needs --detectives"),
    ([], "give a GAME record"),
    (["--around", "45", "--detectives", "Red=13", "--tickets", "taxi=x"], "expected KIND=COUNT"),
    (["--at", "45", "--around", "46,47", "--detectives", "Red=13"], "not one of the --around stations"),
    (["--side", "mrx", "--around", "45,46", "--detectives", "Red=13"], "needs his station"),
    (["--around", "45", "--detectives", "Red=13", "--move-number", "30"], "expected a move number"),
])
def test_bad_input_is_one_line_exit_2(cli, args, message):
    r = cli("advise", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and message in r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_game_over_is_exit_1(cli):
    r = cli("advise", str(ROOT / "examples" / "capture.json"))
    assert r.exit_code == 1
    assert r.stderr.startswith("error: ") and "over" in r.stderr


def test_record_and_puzzle_flags_conflict(cli):
    r = cli("advise", IN_PROGRESS, "--around", "45")
    assert r.exit_code == 2 and "not both" in r.stderr


@pytest.mark.parametrize("command", ["$ sy-tools advise --around 187", "$ sy-tools advise examples/in-progress.json"])
def test_documented_advise_examples_are_current(cli, command):
    """The CLI reference's worked outputs, but for the wall time on the last line."""
    readme = (ROOT / "docs" / "cli.md").read_text()
    start = readme.index(command)
    block = readme[start:readme.index("```", start)].rstrip("\n").splitlines()
    args = block[0].split()[3:]
    args = [str(ROOT / a) if a.startswith("examples/") else a for a in args]
    r = cli("advise", *args)
    assert r.exit_code == 0
    got = r.output.rstrip("\n").splitlines()

    def shape(lines):
        return lines[:-1] + [lines[-1].rsplit(",", 1)[0]]

    assert shape(got) == shape(block[1:])


def test_a_puzzle_where_every_detective_is_stuck_is_over(cli):
    """Detectives without tickets are out at once: the game is over (an IndexError once)."""
    for dets in ("Red=185", "Red=185,Blue=13"):
        r = cli("advise", "--around", "154", "--detectives", dets, "--tickets", "taxi=0,bus=0,underground=0")
        assert r.exit_code == 1 and r.stderr.strip() == ("error: the game is over: Mr. X won: no detective can "
                                                         "move any more (round 1)"), r.stderr


def test_a_detective_the_catch_makes_unneeded_is_not_called_stuck(cli):
    r = cli("advise", "--around", "1", "--detectives", "Red=8,Blue=9",
            "--mrx-tickets", "taxi=0,bus=0,underground=0,black=0,double=0")
    assert r.exit_code == 0, r.output
    assert "Blue at 9: stays (" in r.output and "catch him wherever he is" in r.output
    assert "stuck" not in r.output and "99" not in r.output  # (99: an internal 'unreachable')


def test_advice_words_count_what_possible_counts_one_verdict_and_plurals(cli):
    """Issue 22: a forced win says so on every move line and in the summary (no "no sure catch
    yet" beside "part of a forced win"), no reason is left empty, counts of one are singular, and
    the move lines count in `possible`'s words (his possible stations, after his next move)."""
    r = cli("advise", "--around", "154", "--detectives", "Red=185,Blue=130,Green=168", "--move-number", "3",
            "--mrx-tickets", "taxi=4,bus=3,underground=3,black=0,double=0")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    moves = [line for line in lines if "  # from " in line]
    assert len(moves) == 3 and all("part of a forced win (solve): " in line for line in moves)
    assert all("possible after his next move" in line or "possible station" in line for line in moves)
    assert "1 stations" not in r.stdout and "move(s)" not in r.stdout and "(solve): ;" not in r.stdout
    summary = next(line for line in lines if line.startswith("Detectives: "))
    assert summary.endswith(": a forced win within 2 turns whatever he does (solve).") and "no sure catch" not in summary
    assert "one move from his 1 possible station" in r.stdout and "(5 moves away)" in lines[0]


def test_mrx_advice_is_the_tree_search_choice_and_its_seed_makes_it_reproducible(cli):
    """Mr. X's first move is what the tree search chose (its JSON says so); the same seed gives
    the same advice; --playouts 0 gives the ranking alone (no search); a bad seed is one line."""
    def advice(*extra):
        r = cli("advise", IN_PROGRESS, "--at", "4", "--format", "json", *extra)
        assert r.exit_code == 0, r.output
        return json.loads(r.output)

    one, again = advice("--seed", "5"), advice("--seed", "5")
    assert {k: v for k, v in one.items() if k != "wall_time"} == {k: v for k, v in again.items() if k != "wall_time"}
    s = one["search"]
    assert s["complete"] and s["playouts"] == 300 == sum(c["playouts"] for c in s["candidates"])
    first = {k: one["moves"][0][k] for k in ("tickets", "stations")}
    assert s["chosen"] == first == {k: s["candidates"][0][k] for k in ("tickets", "stations")}
    assert all(m["safe"] and m["loses_within"] is None for m in one["moves"][:2])
    plain = advice("--playouts", "0")
    assert plain["search"] is None and plain["moves"][0]["stations"] == [3]  # the ranking's first
    assert one["moves"][0]["stations"] == [13]  # the search prefers 13 here (seed 5)
    text = cli("advise", IN_PROGRESS, "--at", "4", "--playouts", "40").output
    assert "tree search (40 playouts among 2 of your 4 best sound moves)" in text
    for bad in (str(2**64), "-5"):  # (random.Random draws the same for -5 as for 5: refused)
        r = cli("advise", IN_PROGRESS, "--at", "4", "--seed", bad)
        assert r.exit_code == 2 and r.output.count("\n") == 1 and "--seed" in r.output and bad in r.output


def test_detectives_weigh_the_self_play_budget_of_joint_moves_by_default(cli, detectives_to_move):
    """--candidates caps the joint moves weighed: 27 by default (what `simulate`'s advise
    detectives weigh), fewer or more on request, never past the library's 4,000."""
    from sy_tools.selfplay.budgets import ADVISE_CANDIDATES
    from sy_tools.solvers.belief import MAX_CANDIDATES

    def weighed(*extra):
        r = cli("advise", detectives_to_move, "--format", "json", "--time-limit", "5", *extra)
        assert r.exit_code == 0, r.output
        return json.loads(r.output)["candidates"]

    default, three, many = weighed(), weighed("--candidates", "3"), weighed("--candidates", "100000")
    assert three <= 3 < default <= ADVISE_CANDIDATES < many <= MAX_CANDIDATES
    r = cli("advise", detectives_to_move, "--candidates", "0")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "--candidates" in r.output


def test_mrx_advice_names_one_choice_and_never_another_first(cli):
    """Issue 39: the list said "1. -T-> 42" and the note "the ranking's first (-T-> 6)". On every
    station he may be at in the example game: the move listed first is the choice, the summary
    and the tree search's note name that same move, and nothing else is called first."""
    from sy_tools import load_record, possible

    for at in possible(load_record(IN_PROGRESS)).stations:
        text = cli("advise", IN_PROGRESS, "--at", str(at), "--top", "3")
        assert text.exit_code == 0, text.output
        doc = json.loads(cli("advise", IN_PROGRESS, "--at", str(at), "--top", "3", "--format", "json").output)
        lines = text.output.splitlines()
        listed = [ln for ln in lines if "  # " in ln]
        choice = listed[0].split("  #")[0].strip()
        assert listed[0].split("  # ")[1].startswith("1, the choice: ") and choice == doc["moves"][0]["entry"]
        assert all(not ln.split("  # ")[1].startswith("1") for ln in listed[1:])
        assert next(ln for ln in lines if ln.startswith("Mr. X: ")).startswith(f"Mr. X: {choice} (")
        note = [ln for ln in lines if ln.startswith("tree search")]
        if note:
            assert f" chose {choice}:" in note[0] and "first" not in note[0], note[0]
            assert {k: doc["search"]["chosen"][k] for k in ("tickets", "stations")} == \
                {k: doc["moves"][0][k] for k in ("tickets", "stations")}
