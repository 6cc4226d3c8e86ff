"""A game keeps its mode and loses nothing (issue 39, docs/play.md "Start or resume"): in every
mode (people only, with and without Mr. X's log; the computer as Mr. X, as the detectives, as
both), a scripted game killed with SIGKILL after each accepted move in turn and resumed with a
plain ``sy-tools play GAME`` ends with the record and the log byte for byte those of the game
played without a stop."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import default_signals
from play_helpers import london, typed

from sy_tools.engine.hops import MRX
from sy_tools.formats.record_io import load_record
from sy_tools.play import Console, new_game
from sy_tools.play.session import plies_of

SY_TOOLS = str(Path(sys.executable).with_name("sy-tools"))

#: A short game: two detectives, Mr. X's log of five moves (he is shown after the third).
RULES = {"preset": "classic", "log_length": 5, "reveal_moves": [3]}
STARTS = "Red=13,Blue=94"

#: The line a session prints for each move it takes (the notes at the start never match it).
ACCEPTED = re.compile(r"^(Mr\. X: (taxi|bus|underground|black|double move|passes)|(Red|Blue): (taxi|bus|underground) to)",
                      re.M)

MODES = {
    "people": [],
    "people-with-log": ["--mrx-log", "g.mrx.txt", "--mrx-start", "50"],
    "computer-mrx": ["--computer", "mrx", "--level", "easy"],
    "computer-detectives": ["--computer", "detectives", "--level", "easy", "--mrx-start", "50"],
    "computer-both": ["--computer", "both", "--level", "easy", "--pace", "0"],
}

pytestmark = pytest.mark.skipif(not os.path.exists(SY_TOOLS), reason="the sy-tools script is not installed")


def _new_args(mode: str) -> list[str]:
    return ["g.txt", "--new", "--detectives", STARTS, "--rules", "rules.json", "--seed", "3", "--secret-seed", "8",
            *MODES[mode]]


def _script(mode: str, folder: Path) -> list[str]:
    """The people's lines of a whole game in ``mode``, chosen at random among the legal moves
    as the game goes (played through the library, where the computer answers as it will in
    the command's runs)."""
    import random

    from sy_tools.engine.rules import rules_from_json
    from sy_tools.formats.map_load import load_board

    board, rules = load_board("london"), rules_from_json(RULES)
    kw: dict = {"seed": 3, "secret_seed": 8}
    args = MODES[mode]
    if "--computer" in args:
        kw.update(computer=args[args.index("--computer") + 1], level="easy", pace=0.0)
    if "--mrx-log" in args:
        kw["log"] = str(folder / "g.mrx.txt")
    if "--mrx-start" in args:
        kw["mrx_start"] = 50
    session, _ = new_game(str(folder / "g.txt"), board, "london", rules,
                          detectives=[("Red", 13), ("Blue", 94)], **kw)
    console = Console(session, lambda _: None, lambda _: None)
    console.start([])
    rng = random.Random(11)
    lines: list[str] = []
    try:
        while not session.over and session.computer != "both":
            pos = session.position
            if pos.turn == 0 and pos.mrx_at is None:  # no log: his move from a station he may be at
                from sy_tools.analysis.legal import legal_moves
                from sy_tools.analysis.possible import possible

                where = sorted(possible(session.public()).stations)
                legal = list(legal_moves(session.public(), where[rng.randrange(len(where))]).moves)
            else:
                legal = list(pos.legal_moves())
            move = legal[rng.randrange(len(legal))]
            line = typed(move, session.secret, rules, pos.move)
            lines.append(line)
            before = len(session.plies)
            console.handle(line)
            assert len(session.plies) > before, line
    finally:
        session.lock.release()
    return lines


def _run(folder: Path, args: list[str], lines: list[str], kill_after: int | None = None) -> str:
    """``sy-tools play ARGS`` in ``folder`` fed ``lines``; with ``kill_after``, SIGKILLed as soon
    as it has printed that many accepted moves.  What it printed."""
    proc = subprocess.Popen([SY_TOOLS, "play", *args], cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, preexec_fn=default_signals)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(line + "\n" for line in lines).encode())
    proc.stdin.close()
    out = b""
    if kill_after is not None:
        while len(ACCEPTED.findall(out.decode(errors="replace"))) < kill_after:
            chunk = proc.stdout.readline()
            if not chunk:
                break
            out += chunk
        proc.send_signal(signal.SIGKILL)
    out += proc.stdout.read()
    proc.wait(timeout=120)
    return out.decode()


def _human_plies(folder: Path, mode: str) -> int:
    """How many of the people's moves the files hold."""
    path = folder / ("g.txt" if mode == "people" else "g.mrx.txt")
    plies = plies_of(load_record(path))
    computer = MODES[mode][MODES[mode].index("--computer") + 1] if "--computer" in MODES[mode] else None
    if computer == "both":
        return 0
    if computer is None:
        return len(plies)
    return sum((p.piece == MRX) != (computer == "mrx") for p in plies)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_killed_after_every_move_and_resumed_the_game_ends_byte_for_byte_the_same(tmp_path, mode):
    ref = tmp_path / "script"
    ref.mkdir()
    (ref / "rules.json").write_text(json.dumps(RULES))
    lines = _script(mode, ref)
    whole = tmp_path / "whole"
    whole.mkdir()
    (whole / "rules.json").write_text(json.dumps(RULES))
    printed = _run(whole, _new_args(mode), lines)
    files = sorted(p.name for p in whole.iterdir() if p.name.startswith("g."))
    assert files == (["g.txt"] if mode == "people" else ["g.mrx.txt", "g.txt"]), printed
    final = {name: (whole / name).read_bytes() for name in files}
    assert b"legal; " in printed.encode() and "saved after" not in printed, printed  # played to its end
    moves = len(ACCEPTED.findall(printed))
    assert moves >= 6, printed
    # the set-up is in the record: a plain resume needs no option
    assert b"play " in final["g.txt"] and (mode == "people" or b"play mrx_log g.mrx.txt" in final["g.txt"])
    for k in range(1, moves):
        run = tmp_path / f"kill{k}"
        run.mkdir()
        (run / "rules.json").write_text(json.dumps(RULES))
        _run(run, _new_args(mode), lines, kill_after=k)
        done = _human_plies(run, mode)
        again = _run(run, ["g.txt"], lines[done:])
        for name, data in final.items():
            assert (run / name).read_bytes() == data, (mode, k, name, again)
        assert not (run / "g.txt.lock").exists()


def test_the_computer_detectives_decide_mid_round_as_if_never_stopped(tmp_path):
    """The advise detectives (the ``hard`` level) plan a round's joint move once: resumed between
    two detectives' moves, the next ones still follow that plan (the detectives who moved decide again first).
    In this game (found by trying seeds) a plan made afresh after the round's first detective
    would send Blue elsewhere."""
    import random

    from sy_tools.play import resume_game

    board, rules = london()
    session, _ = new_game(str(tmp_path / "g.txt"), board, "london", rules,
                          detectives=[("Red", 13), ("Blue", 94), ("Green", 29)], computer="detectives",
                          level="hard", mrx_start=50, seed=1, secret_seed=5, think=60)
    console = Console(session, lambda _: None, lambda _: None)
    console.start([])
    rng = random.Random(5)
    while len(session.plies) < 12:
        pos = session.position
        legal = list(pos.legal_moves())
        console.handle(typed(legal[rng.randrange(len(legal))], True, rules, pos.move))
    assert not session.over and session.plies[8].piece == MRX
    whole = session.plies[9:12]
    session.plies = session.plies[:10]  # the files as a session stopped after the round's first detective left them
    folder = tmp_path / "stopped"
    folder.mkdir()
    for path, data in session.files():
        (folder / Path(path).name).write_bytes(data)
    session.lock.release()
    again = resume_game(str(folder / "g.txt"))
    try:
        assert [again.computer_move() for _ in range(2)] == whole[1:]
    finally:
        again.lock.release()


def test_the_computer_decides_again_after_moves_are_taken_back(tmp_path):
    """Undo under the computer's detectives (or both sides) and play on: the computer moves
    again (its memo of the round once ran ahead of the moves left and waited forever)."""
    board, rules = london()
    session, _ = new_game(str(tmp_path / "g.txt"), board, "london", rules,
                          detectives=[("Red", 13), ("Blue", 26), ("Green", 29)], computer="both", level="easy",
                          secret_seed=3, pace=0)
    try:
        for _ in range(6):
            session.computer_move()
        played = list(session.plies)
        session.undo(1)
        session.computer_move()  # (hung here)
        assert session.plies == played  # the same game from the same seed
        session.undo(3)
        while len(session.plies) < len(played):
            session.computer_move()
        assert session.plies == played
    finally:
        session.lock.release()
