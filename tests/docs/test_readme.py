"""The README's examples are real, and so are the records on docs/records.md: the game.json and
text-notation blocks are the example files and check as the page says. The README's blocks run
by the rules of test_docs.py (a command block prints what it shows, a Python block prints its
comments, a shell line names real options)."""

from __future__ import annotations

import json
import re

import pytest
from test_docs import (
    ROOT,
    Block,
    check_command_block,
    check_python_block,
    check_sh_block,
    command_blocks,
    in_examples_dir,  # noqa: F401  (the fixture)
    python_blocks,
    sh_blocks,
)

from sy_tools.analysis.referee import check
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.notation import parse_notation
from sy_tools.formats.record_io import load_record

README = ROOT / "README.md"
RECORDS = (ROOT / "docs" / "records.md").read_text()


def _block(text: str, lang: str, after: str) -> str:
    start = text.index(after)
    m = re.compile(rf"```{lang}\n(.*?)```", re.S).search(text, start)
    assert m
    return m.group(1)


def test_readme_is_short() -> None:
    assert len(README.read_text().splitlines()) <= 200


def test_setup_comes_first_with_exactly_two_commands() -> None:
    text = README.read_text()
    setup = _block(text, "sh", "## Set-up")
    assert [ln.split()[:2] for ln in setup.splitlines()] == [["make", "demo"], ["make", "test"]]
    assert text.index("## Set-up") < text.index("## A short tour")


def test_game_json_is_the_example_and_legal() -> None:
    doc = json.loads(_block(RECORDS, "json", "## game.json"))
    assert doc == json.loads((ROOT / "examples" / "readme.json").read_text())
    r = check(parse_record(doc))
    assert r.legal and r.problems == ()


def test_notation_is_the_example_and_checks_as_shown() -> None:
    text = _block(RECORDS, "text", "## Text notation")
    lines = [ln.split("  #")[0].rstrip() for ln in text.splitlines() if not ln.startswith("#")]
    example = [ln for ln in (ROOT / "examples" / "table.txt").read_text().splitlines() if not ln.startswith("#")]
    assert lines == example
    r = check(parse_record(parse_notation(text)))
    assert r.legal and [p.code for p in r.problems] == ["det-absent"]
    assert r.status.describe() == "in progress: round 4, after Mr. X's move 5; Mr. X to move"
    assert check(load_record(ROOT / "examples" / "table.txt")).status == r.status


COMMANDS = command_blocks(README)
PYTHON = python_blocks(README)
SH = sh_blocks(README)


@pytest.mark.usefixtures("in_examples_dir")
@pytest.mark.parametrize("block", COMMANDS, ids=[str(b) for b in COMMANDS])
def test_readme_commands_print_what_it_shows(block: Block, cli) -> None:
    check_command_block(block, cli)


@pytest.mark.parametrize("block", PYTHON, ids=[str(b) for b in PYTHON])
def test_readme_python_runs_as_commented(block: Block, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    check_python_block(block, capsys)


@pytest.mark.parametrize("block", SH, ids=[str(b) for b in SH])
def test_readme_shell_lines_name_real_options(block: Block, cli) -> None:
    check_sh_block(block, cli)
