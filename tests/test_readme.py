"""The README's examples are real: its game.json and text-notation blocks parse and check as
it says."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sy_tools.analysis.referee import check
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.notation import parse_notation
from sy_tools.formats.record_io import load_record

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _block(lang: str, after: str) -> str:
    start = README.index(after)
    m = re.compile(rf"```{lang}\n(.*?)```", re.S).search(README, start)
    assert m
    return m.group(1)


def test_readme_json_record_is_the_example_and_legal():
    doc = json.loads(_block("json", "### game.json"))
    assert doc == json.loads((ROOT / "examples" / "readme.json").read_text())
    r = check(parse_record(doc))
    assert r.legal and r.problems == ()


def test_readme_notation_is_the_example_and_checks_as_shown():
    text = _block("text", "### Text notation")
    lines = [ln.split("  #")[0].rstrip() for ln in text.splitlines() if not ln.startswith("#")]
    example = [ln for ln in (ROOT / "examples" / "table.txt").read_text().splitlines() if not ln.startswith("#")]
    assert lines == example
    r = check(parse_record(parse_notation(text)))
    assert r.legal and [p.code for p in r.problems] == ["det-absent"]
    assert r.status.describe() == "in progress: round 4, after Mr. X's move 5; Mr. X to move"
    assert check(load_record(ROOT / "examples" / "table.txt")).status == r.status


def test_readme_possible_output_is_current(cli):
    """The worked `possible` example in the README is what the command prints today."""
    block = _block("text", "## `sy-tools possible GAME")
    command, *expected = block.rstrip("\n").splitlines()
    assert command == "$ sy-tools possible examples/in-progress.json --history --top 5"
    r = cli("possible", str(ROOT / "examples" / "in-progress.json"), "--history", "--top", "5")
    assert r.output.rstrip("\n").splitlines() == expected


def test_readme_cordon_puzzle_output_is_current(cli):
    """Everything but the routes themselves (several plans can tie; CP-SAT may return any of
    them) and the wall time must match the README."""
    block = _block("text", "## `sy-tools cordon`")
    lines = block.rstrip("\n").splitlines()
    assert lines[0].startswith("$ sy-tools cordon --around 83")
    r = cli("cordon", "--around", "83", "--detectives", "Red=100,Blue=114,Green=82", "--moves", "2",
            "--mrx-tickets", "taxi=4,bus=0,underground=0,black=0")
    got = r.output.rstrip("\n").splitlines()

    def shape(ls):
        out = []
        for ln in ls:
            if ln.startswith("solver:"):
                out.append(ln.split(",")[0])
            elif ln.split() and ln.split()[0] in ("Red", "Blue", "Green"):
                out.append((ln.split()[0], ln.split()[1]))  # who, and from where
            else:
                out.append(ln)
        return out

    assert shape(got) == shape(lines[2:])
    assert sum(ln.rstrip().endswith("yes") for ln in got) == sum(ln.rstrip().endswith("yes") for ln in lines)


def test_readme_position_example_runs_as_commented(capsys):
    code = _block("python", "## The rules engine")
    exec(compile(code, "README", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    expected = [ln.split("# ", 1)[1] for ln in code.splitlines() if ln.startswith("print(") and "# " in ln]
    assert printed[:2] == expected[:2]
    assert printed[2] == "in-progress"


def test_readme_moves_and_neighbours_outputs_are_current(cli):
    for heading in ("### `sy-tools moves GAME", "### `sy-tools map neighbours"):
        command, *expected = _block("text", heading).rstrip("\n").splitlines()
        args = command.removeprefix("$ sy-tools ").split()
        r = cli(*args)
        assert r.exit_code == 0 and r.stdout.rstrip("\n").splitlines() == expected
