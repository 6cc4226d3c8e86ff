"""``sy-tools play`` at a real terminal (a pty, driven by pexpect as a person types): the prompt
names whose turn it is, Tab completes commands, players and stations, Ctrl-C leaves with 130
and the record as last saved, and a whole game against the computer plays to its end."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest
from play_helpers import london, typed

from sy_tools.analysis.referee import check
from sy_tools.formats.record_io import load_record

SY_TOOLS = str(Path(sys.executable).with_name("sy-tools"))
#: a fresh prompt (the terminal's cursor moves right after it; a prompt redrawn with the line typed
#: has the line there instead)
PROMPT = re.compile(r"(Mr\. X|Red|Blue|Green|Yellow|Black) to move \(round \d+\)>\x1b\[")

pytestmark = pytest.mark.skipif(not os.path.exists(SY_TOOLS), reason="the sy-tools script is not installed")


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="120", LINES="40")
    child = pexpect.spawn(SY_TOOLS, ["play", *args], cwd=str(tmp_path), env=env, encoding="utf-8",
                          timeout=30, dimensions=(40, 120))
    child.delaybeforesend = 0.02
    return child


def test_completion_and_ctrl_c_at_a_terminal(tmp_path):
    board, _ = london()
    child = spawn(tmp_path, "g.txt", "--new", "--detectives", "Red=13,Blue=26", "--seed", "1")
    child.expect(r"Mr\. X to move \(round 1\)>")
    child.send("X T\r")
    child.expect(r"Red to move \(round 1\)>")
    child.send("hist\t")  # completes to history
    time.sleep(0.5)  # (completion runs apart from the keys: a person pauses before Enter too)
    child.send("\r")
    child.expect(r"round\s+Mr\. X\s+Red\s+Blue")
    child.expect(r"Red to move")
    hops = {d: t for t in ("underground", "bus", "taxi") for d in board.destinations(13, board_ticket(t))}
    dest = next(d for d in sorted(hops) if d > 9 and sum(str(e)[0] == str(d)[0] for e in hops) == 1)
    letter = {"taxi": "T", "bus": "B", "underground": "U"}[hops[dest]]
    child.send("Re\t")  # offers redo and Red
    child.expect("redo")
    child.send(f"\x15Red {letter} {str(dest)[0]}\t")  # (Ctrl-U clears the line) the station completes
    time.sleep(0.5)  # (completion runs apart from the keys: a person pauses before Enter too)
    child.send("\r")
    child.expect(rf"Red: {hops[dest]} to {dest}")
    child.expect(r"Blue to move \(round 1\)>")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert f"Red 13: {letter} {dest}\n" in (tmp_path / "g.txt").read_text()


def board_ticket(name: str):
    from sy_tools.engine.tickets import Ticket

    return Ticket(name)


def test_a_whole_game_against_the_computer_detectives_at_a_terminal(tmp_path):
    import random

    _, rules = london()
    child = spawn(tmp_path, "g.txt", "--new", "--computer", "detectives", "--detective-count", "3", "--seed", "2",
                  "--think", "1")
    rng = random.Random(5)
    for _ in range(30):
        i = child.expect([PROMPT, r"g\.txt: legal; [^\r\n]*"])
        if i == 1:
            break
        pos = check(load_record(tmp_path / "g.mrx.txt")).position
        legal = pos.legal_moves()
        child.send((typed(legal[rng.randrange(len(legal))], True, rules, pos.move) if legal else "X -") + "\r")
    announced = child.after
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    result = check(load_record(tmp_path / "g.mrx.txt"))
    assert result.legal and announced.strip() == f"g.txt: legal; {result.status.describe()}"
