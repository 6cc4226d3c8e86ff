"""One name for one meaning across commands; the old spellings still work, hidden from --help."""

from __future__ import annotations

import json

import pytest
from helpers import REPO

EX = REPO / "examples"
GAME = str(EX / "in-progress.json")


@pytest.mark.parametrize("args", [
    ["possible", GAME], ["rules"], ["map", "info"], ["simulate", "-n", "2", "--jobs", "1"],
])
def test_format_table_is_a_hidden_alias_of_text(cli, args):
    text = cli(*args, "--format", "text")
    old = cli(*args, "--format", "table")
    assert text.exit_code == old.exit_code == 0, old.output
    assert text.output == old.output and text.output.strip()


@pytest.mark.parametrize("cmd", [
    ["validate"], ["map", "info"], ["map", "convert"], ["map", "neighbours"], ["map", "diff"], ["rules"],
    ["check"], ["moves"], ["possible"], ["cordon"], ["simulate"], ["solve"], ["advise"],
])
def test_every_format_option_says_text_and_default(cli, cmd):
    h = cli(*cmd, "--help").output
    if "--format" in h:
        assert "text" in h and "table" not in h.split("--format", 1)[1].split("\n")[0]
        assert "[default: text]" in h
    if cmd != ["map", "convert"]:
        assert "--from" not in h or cmd == ["heatmap"]


def test_input_format_everywhere_maps_are_read_and_from_is_hidden(cli, tmp_path):
    for cmd in (["validate"], ["map", "info"], ["map", "convert"], ["map", "diff"]):
        assert "--input-format" in cli(*cmd, "--help").output
    h = cli("map", "convert", "--help").output
    assert "--from" not in h
    src = tmp_path / "g.dat"  # a name that does not tell the format
    assert cli("map", "convert", "london", str(tmp_path / "g.txt")).exit_code == 0
    src.write_text((tmp_path / "g.txt").read_text())
    new, old = tmp_path / "a.json", tmp_path / "b.json"
    r1 = cli("map", "convert", str(src), str(new), "--input-format", "bristol")
    r2 = cli("map", "convert", str(src), str(old), "--from", "bristol")  # the old spelling
    assert r1.exit_code == r2.exit_code == 0, r2.output
    assert new.read_text() == old.read_text()
    bad = cli("map", "convert", str(src), str(tmp_path / "c.json"), "--from", "json")
    assert bad.exit_code == 2  # the alias really is the input format: Bristol text is not JSON


def test_heatmap_piece_tickets_with_tickets_a_hidden_alias(cli, tmp_path):
    h = cli("heatmap", "--help").output
    assert "--piece-tickets" in h and "--tickets " not in h and "--tickets\n" not in h
    for opt in ("--piece-tickets", "--tickets"):
        r = cli("heatmap", "--layer", "reach", "--from", "13", opt, "taxi=2", "-o", str(tmp_path / f"{opt}.png"))
        assert r.exit_code == 0, r.output
    r = cli("heatmap", "--layer", "reach", "--from", "13", "--tickets", "taxi=2", "--piece-tickets", "taxi=1",
            "-o", str(tmp_path / "x.png"))
    assert r.exit_code == 2 and "--piece-tickets" in r.stderr
    r = cli("heatmap", "--layer", "reach", "--from", "13", "--tickets", "boat=2", "-o", str(tmp_path / "y.png"))
    assert r.exit_code == 2 and "--piece-tickets" in r.stderr


def test_choices_come_from_the_library():
    from sy_tools import plot
    from sy_tools.analysis import tracker
    from sy_tools.cli import heatmap as h
    from sy_tools.cli import possible as p
    from sy_tools.formats import values

    assert values.HEATMAP_LAYERS is plot.LAYERS and h.HEATMAP_LAYERS is plot.LAYERS
    assert p.WEIGHTS is tracker.WEIGHTS and h.WEIGHTS is tracker.WEIGHTS


@pytest.mark.parametrize("value", ["nan", "0", "1e309", "x"])
def test_time_limit_keeps_its_checks_everywhere_it_is_shared(cli, value):
    for args in (["cordon", "--around", "1"], ["heatmap", "--layer", "cordon", "g.json"]):
        r = cli(*args, "--time-limit", value)
        assert r.exit_code == 2 and "--time-limit" in r.stderr and "seconds" in r.stderr


def test_possible_json_unchanged_by_the_format_name(cli):
    assert json.loads(cli("possible", GAME, "--format", "json").output)["count"] > 0


@pytest.mark.parametrize("args", [
    ["possible", GAME], ["cordon", GAME, "--time-limit", "5"], ["solve", GAME, "--turns", "1"],
    ["advise", GAME, "--at", "29", "--time-limit", "2"], ["moves", GAME, "--at", "29"],
])
def test_one_wording_for_one_moment(cli, args):
    """'--round 3' is the same moment in every command, told in the same words (cordon said
    "round 4, Mr. X to move" where possible said "round 3, after Mr. X's move 4")."""
    r = cli(*args, "--round", "3")
    assert r.exit_code in (0, 1), r.output
    first = r.output.splitlines()[0]
    assert "round 3, after Mr. X's move 4" in first and "round 4" not in first, first
    r0 = cli(*[a for a in args if a not in ("--at", "29")], "--round", "0")
    if args[0] not in ("advise", "moves"):  # Mr. X's own advice and moves need his station
        assert "before Mr. X's first move" in r0.output.splitlines()[0], r0.output


def test_solve_counts_turns_with_moves_as_cordon_does(cli):
    """One name for one meaning: detective turns are --moves/-k in cordon, heatmap and solve
    (solve's --turns/-n stays as a hidden old name)."""
    h = cli("solve", "--help").output
    assert "--moves" in h and "--turns" not in h
    for flag in (["--moves", "1"], ["-k", "1"], ["--turns", "1"], ["-n", "1"]):
        d = json.loads(cli("solve", GAME, *flag, "--format", "json").output)
        assert (d["max_turns"], d["forced"], d["status"]) == (1, False, "proved"), flag
