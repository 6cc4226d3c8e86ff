"""The secret mode holds on a shared screen (issue 39, docs/play.md "Mr. X's secret"): two games
with the same public record and different true routes of Mr. X, fed the same commands,
refusals, completions and private steps, give the same shared transcript (everything outside
Mr. X's private steps), through a pipe (byte for byte) and through a terminal (the screen as a
terminal draws it, line for line)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import default_signals
from oracles import oracle_routes
from play_helpers import london, typed

from sy_tools.engine.hops import MRX
from sy_tools.engine.tickets import TICKET_LETTERS, Ticket
from sy_tools.play import Console, new_game
from sy_tools.play.console import PRIVATE_BEGIN, PRIVATE_END

SY_TOOLS = str(Path(sys.executable).with_name("sy-tools"))
STARTS = [("Red", 13), ("Blue", 26), ("Green", 94)]

pytestmark = pytest.mark.skipif(not os.path.exists(SY_TOOLS), reason="the sy-tools script is not installed")


def _game(seed: int, folder: Path) -> tuple[object, list]:
    """A game of a few rounds with his log, played at random without a capture: the session
    (its lock given back) and its turns."""
    board, rules = london()
    rng = random.Random(seed)
    session, _ = new_game(str(folder / "g.txt"), board, "london", rules, detectives=STARTS, seed=1,
                          secret_seed=seed, log=str(folder / "g.mrx.txt"), think=1)
    console = Console(session, lambda _: None, lambda _: None)
    while session.position.move < 6 + seed % 3 and not session.over:
        pos = session.position
        legal = [m for m in pos.legal_moves() if pos.turn == 0 or m.to != pos.mrx_at]
        if pos.turn == 0:
            legal = [m for m in legal if len(m.tickets) == 1] or legal
        console.handle(typed(legal[rng.randrange(len(legal))], True, rules, pos.move))
    session.lock.release()
    return session, list(session.plies)


def _two_routes(seed: int, folder: Path):
    """The public record of a generated game and two different routes of Mr. X that fit it."""
    session, plies = _game(seed, folder)
    public = session.public()
    routes = oracle_routes(public)
    assert routes is not None and len(routes) > 1
    rng = random.Random(seed)
    a, b = rng.sample(routes, 2)
    return session, public, a, b


def _script(public, route, other, rules) -> list[str]:
    """The lines typed at the table in the game where Mr. X took ``route``: the same commands
    and refusals as in the game where he took ``other``, his moves with his own stations."""
    board = public.board
    lines = ["help", "possible 3", "tickets", "moves", "advise", "private", "moves", "route", "advise", "done"]
    legs = 0
    for r, rnd in enumerate(public.rounds):
        here, there = route[legs], other[legs]
        if rnd.mrx and rnd.mrx[0].ticket == Ticket.TAXI:  # a move that fits neither route: refused, generic
            wrong = sorted(set(board.destinations(here, Ticket.TAXI)) ^ set(board.destinations(there, Ticket.TAXI)))
            never = [s for s in sorted(board.stations) if s not in board.destinations(here, Ticket.TAXI)
                     and s not in board.destinations(there, Ticket.TAXI)]
            lines.append(f"X T {never[r % len(never)]}")
            if wrong:
                lines += ["private", "done"]  # (his reason is in the private step only)
        hops = []
        for m in rnd.mrx:
            legs += 1
            hops.append(f"{TICKET_LETTERS[m.ticket]} {route[legs]}")
        entry = hops[0] if len(hops) == 1 else "2X " + "/".join(hops)
        if not hops:
            entry = "-"
        if r % 2:
            lines += ["private", entry]  # typed in his private step ...
        else:
            lines.append(f"X {entry}")  # ... or unseen at the shared prompt
        if r == 1:
            lines += ["undo", "redo"]
        for i, d in enumerate(rnd.detectives):
            if i == 0:
                lines += ["moves", "possible 2"]
            claim = "!" if (r + i) % 3 == 0 else ""  # a capture claimed where he is not: "not caught"
            lines.append(f"{d.name} {TICKET_LETTERS[d.ticket]} {d.to}{claim}")
        lines.append("history")
    lines += ["moves 46", "advise", "solve", "moves", "quit"]
    return lines


def _new(folder: Path, route) -> list[str]:
    return ["play", "g.txt", "--new", "--detectives", ",".join(f"{n}={s}" for n, s in STARTS), "--mrx-log",
            "g.mrx.txt", "--mrx-start", str(route[0]), "--seed", "1", "--secret-seed", "7", "--think", "1"]


def _shared(text: str) -> str:
    """The transcript less Mr. X's private steps, the seconds an analysis took (the machine's
    load, not his route, decides those) written as ``T s``."""
    text = re.sub(re.escape(PRIVATE_BEGIN) + r".*?" + re.escape(PRIVATE_END) + r"\n", "<private>\n", text,
                  flags=re.S)
    return re.sub(r"\b\d+\.\d+ s\b", "T s", text)


def _pipe(folder: Path, route, lines: list[str]) -> str:
    folder.mkdir()
    r = subprocess.run([SY_TOOLS, *_new(folder, route)], cwd=folder, input="\n".join(lines) + "\n",
                       capture_output=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=300, preexec_fn=default_signals)
    assert r.returncode == 0, r.stdout
    return r.stdout


@pytest.mark.parametrize("seed", range(3))
def test_through_a_pipe_the_shared_transcript_does_not_depend_on_his_route(tmp_path, seed):
    (tmp_path / "gen").mkdir()
    session, public, a, b = _two_routes(seed, tmp_path / "gen")
    rules = public.rules
    out_a = _pipe(tmp_path / "a", a, _script(public, a, b, rules))
    out_b = _pipe(tmp_path / "b", b, _script(public, b, a, rules))
    assert f"You are at {a[1]}" in out_a and f"You are at {b[1]}" in out_b  # his own screens differ ...
    assert "not caught" in out_a and "the reason is his" in out_a and "<private>" in _shared(out_a)
    assert _shared(out_a) == _shared(out_b)  # ... what the table reads does not
    for name in ("g.txt",):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


HAND_OVER = "Mr. X, press Enter> "
HAND_BACK = "press Enter to clear the screen and hand back> "
#: a fresh prompt (the cursor moves right after it; one redrawn with a line typed has the line there)
PROMPTS = [p + r"\x1b\[" for p in (r"to move \(round \d+\)>", r"Mr\. X, alone \(at \d+\)>", re.escape(HAND_OVER.strip()),
                                  re.escape(HAND_BACK.strip()), r"game over>")]


def _terminal(folder: Path, route, lines: list[str]) -> list[str]:
    """The game at a terminal (pexpect), with Tab twice on Mr. X's and a detective's line: the
    shared screen as a terminal draws it at every prompt outside his private steps."""
    import pexpect
    import pyte

    folder.mkdir()
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="100", LINES="30")
    child = pexpect.spawn(SY_TOOLS, _new(folder, route), cwd=str(folder), env=env, encoding="utf-8", timeout=120,
                          dimensions=(30, 100), preexec_fn=default_signals)
    screen = pyte.Screen(100, 30)
    stream = pyte.Stream(screen)
    shots: list[str] = []
    private = False

    def wait(sent: bool = True) -> int:
        nonlocal private
        seen = ""
        if sent:  # the line taken (its newline), so that no redrawing of the old prompt counts
            child.expect("\r\n")
            seen = child.before + child.after
        i = child.expect(PROMPTS + [pexpect.EOF])
        seen += child.before + (child.after if isinstance(child.after, str) else "")
        if not private:
            stream.feed(seen)
            shots.append("\n".join(line.rstrip() for line in screen.display))
        if i == 2:
            private = True  # from here to the screen cleared at the hand-back: Mr. X's alone
        if i == 3:
            private = False
            stream.feed("\x1b[H\x1b[2J")
        return i

    i = wait(sent=False)
    for line in lines:
        while i in (2, 3):
            child.send("\r")
            i = wait()
        if i == 5:
            break
        if line == "history" and not private:  # Tab twice: what completion offers on the shared screen
            child.send("X T \t\t")
            child.expect("2X")  # (the menu: his tickets, and no station)
            seen = child.before + child.after
            child.expect(r"\x1b\[\?25h")  # the end of that drawing
            stream.feed(seen + child.before + child.after)
            shots.append("\n".join(line.rstrip() for line in screen.display))
            child.send("\x15tickets\r")  # Ctrl-U: the line cleared
            i = wait()
        child.send(line + "\r")
        i = wait()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return shots


def test_completion_on_the_shared_screen_does_not_depend_on_his_route(tmp_path):
    """Every line start the shared prompt may complete, at every turn of two games that differ
    only in his route: the same words offered."""
    from sy_tools.play.session import Session
    from sy_tools.play.terminal import MoveCompleter

    (tmp_path / "gen").mkdir()
    session, public, a, b = _two_routes(4, tmp_path / "gen")
    games = []
    for route in (a, b):
        full = session.setup.__class__(**{**session.setup.__dict__, "mrx_start": route[0]})
        games.append(Session(full, str(tmp_path / "x.txt"), str(tmp_path / "x.mrx.txt")))
    legs = 0
    for turn in range(len(session.plies) + 1):
        offered = []
        for g in games:
            console = Console(g, lambda _: None, lambda _: None)
            completer = MoveCompleter(console)
            offered.append([completer.words(first, words) for first, words in
                            ((True, []), (False, ["X"]), (False, ["X", "T"]), (False, ["T"]), (False, ["Red", "T"]))])
        assert offered[0] == offered[1], turn
        if turn == len(session.plies):
            break
        p = session.plies[turn]
        for g, route in zip(games, (a, b)):
            if p.piece == MRX:
                hops = tuple(m._replace(to=route[legs + j + 1]) for j, m in enumerate(p.mrx))
                g.plies.append(p.__class__(MRX, hops))
            else:
                g.plies.append(p)
        legs += len(p.mrx)


def test_at_a_terminal_the_shared_screen_does_not_depend_on_his_route(tmp_path):
    (tmp_path / "gen").mkdir()
    session, public, a, b = _two_routes(3, tmp_path / "gen")
    rules = public.rules
    shots_a = _terminal(tmp_path / "a", a, _script(public, a, b, rules))
    shots_b = _terminal(tmp_path / "b", b, _script(public, b, a, rules))
    assert any("[hidden]" in s for s in shots_a) and any("not caught" in s for s in shots_a)
    assert any("2X" in s and "X T" in s for s in shots_a)  # a completion menu was drawn
    assert len(shots_a) == len(shots_b)
    for k, (x, y) in enumerate(zip(shots_a, shots_b)):
        x, y = (re.sub(r"\b\d+\.\d+ s\b", "T s", s) for s in (x, y))
        assert x == y, f"screen {k} differs:\n{x}\n----\n{y}"
