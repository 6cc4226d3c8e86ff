"""``sy-tools puzzle try`` at a terminal of its own (pexpect): a person who plays the solution
solves the puzzle (exit 0), the solver answering as Mr. X between the turns; a wrong move ends
it (exit 1) naming the solution; '?' lists the moves; Ctrl-C ends with exit 130, Ctrl-D gives up
(exit 1).  No timing is asserted: the timeouts are only generous bounds."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest
from helpers import REPO, default_signals

from sy_tools.puzzles.model import read_puzzles

pytestmark = pytest.mark.skipif(not Path(sys.executable).with_name("sy-tools").exists(),
                                reason="the sy-tools script is not installed")

FILE = REPO / "examples" / "puzzles" / "puzzles.json"


def _spawn(pid: str) -> pexpect.spawn:
    script = str(Path(sys.executable).with_name("sy-tools"))
    env = dict(os.environ, TERM="xterm", COLUMNS="120", LINES="40")
    child = pexpect.spawn(script, ["puzzle", "try", str(FILE), "--id", pid], env=env, timeout=120,
                          dimensions=(40, 120), preexec_fn=default_signals)
    child.delaybeforesend = 0.02
    return child


def _options(child: pexpect.spawn, prompt: str) -> list[list[str]]:
    """Ask for the legal moves ('?'): [[ticket letter, station], ...], the prompt back."""
    child.send("?\r")
    child.expect(r"\n  (.*)\r")
    options = [o.strip().split() for o in child.match.group(1).decode().split(",")]
    child.expect(prompt)
    return options


def _exit_status(child: pexpect.spawn) -> int | None:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def _two_turns():
    return next(p for p in read_puzzles(FILE) if p.turns == 2 and all(st.moves for st in p.solution))


def test_playing_the_solution_solves_it():
    p = _two_turns()
    child = _spawn(p.id)
    for n, step in enumerate(p.solution, 1):
        child.expect(f"turn {n} of ")
        for i, m in enumerate(step.moves):
            child.expect(f"{m.piece} at \\d+ moves to: ")
            if n == 1 and i == 0:
                options = _options(child, f"{m.piece} at \\d+ moves to: ")  # then the same prompt again
                assert [m.tickets[0].value[0].upper(), str(m.to)] in options
            child.send(f"{m.tickets[0].value} {m.to}\r")
        if step.has_reply:
            child.expect(f"Mr. X shows {step.reply_text()}")
    child.expect("Solved!")
    assert _exit_status(child) == 0


def test_a_wrong_move_ends_it_with_the_solution():
    p = _two_turns()
    first = p.solution[0].moves
    taken = {s for _, s, _ in p.detectives}
    child = _spawn(p.id)
    m = first[0]
    prompt = f"{m.piece} at \\d+ moves to: "
    child.expect(prompt)
    # a legal move elsewhere than the solution's, then any move for the others
    other = next(o for o in _options(child, prompt) if int(o[1]) != m.to and int(o[1]) not in taken)
    child.send(f"{other[0]} {other[1]}\r")
    for _ in first[1:]:
        if child.expect([r"at \d+ moves to: ", "not a forced win"]) == 1:
            break
        opt = _options(child, r"at \d+ moves to: ")[0]
        child.send(f"{opt[0]} {opt[1]}\r")
    child.expect("not a forced win: he gets away \\(the solution: ")
    assert _exit_status(child) == 1


def test_ctrl_c_ends_with_130():
    p = _two_turns()
    child = _spawn(p.id)
    child.expect("moves to: ")
    child.sendintr()
    child.expect("interrupted")
    assert _exit_status(child) == 130


def test_ctrl_d_gives_up_on_a_line_of_its_own():
    """Ctrl-D at the prompt: exit 1, and the terminal's line after the prompt is ended (a
    terminal echoes no newline for it)."""
    child = _spawn(_two_turns().id)
    child.expect("moves to: ")
    child.sendeof()
    child.expect("given up")
    assert child.before.endswith(b"\n"), child.before  # (what came after the prompt)
    assert _exit_status(child) == 1


def _survival():
    return next(p for p in read_puzzles(FILE) if p.survival and p.turns >= 2)


def test_playing_mr_x_survives_a_survival_puzzle():
    """A survive puzzle at the terminal: the person plays Mr. X ('?' lists his moves, a double
    move is typed as two legs), the solver replies as the detectives."""
    p = _survival()
    child = _spawn(p.id)
    for n, step in enumerate(p.solution, 1):
        child.expect(f"turn {n} of {p.turns}: the detectives at ")
        child.expect(r"Mr. X at \d+ moves to: ")
        m = step.moves[0]
        if n == 1:
            child.send("?\r")
            child.expect(r"\n  (.*)\r")
            listed = child.match.group(1).decode()
            assert f"{m.tickets[0].value[0].upper() if m.tickets[0].value != 'black' else 'K'} {m.stations[0]}" in listed
            child.expect(r"Mr. X at \d+ moves to: ")
        letters = {"taxi": "T", "bus": "B", "underground": "U", "black": "K"}
        child.send(" ".join(f"{letters[t.value]} {s}" for t, s in zip(m.tickets, m.stations)) + "\r")
        if step.reply_moves:
            child.expect("right. The detectives reply ")
    child.expect("Solved!")
    assert _exit_status(child) == 0


def test_a_losing_move_of_mr_x_ends_it():
    p = _survival()
    right = p.solution[0].moves[0].to
    pos = p.position()
    wrong = next(m for m in pos.legal_moves() if not m.is_double and m.to != right)
    child = _spawn(p.id)
    child.expect(r"Mr. X at \d+ moves to: ")
    child.send(f"{wrong.to}\r")
    child.expect(f"is caught within {p.turns} turns \\(the solution: ")
    assert _exit_status(child) == 1
