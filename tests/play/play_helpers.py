"""What the play tests share: typing an engine move as a player would, an independent judge
(the notation text edited by hand, then ``check``), and the start of a game."""

from __future__ import annotations

import random
import re
from pathlib import Path

from sy_tools.analysis.referee import check
from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.rules import preset
from sy_tools.engine.tickets import TICKET_LETTERS, Ticket
from sy_tools.formats.map_load import load_board
from sy_tools.formats.record_io import parse_record_text

LETTERS = {v: k for k, v in TICKET_LETTERS.items()}


def typed(move: Move, with_stations: bool, rules, moves_before: int) -> str:
    """``move`` as typed at the table: Mr. X's hidden stations only ``with_stations`` (his log
    is kept), reveal stations always."""
    if move.piece != MRX:
        return f"{move.piece} {TICKET_LETTERS[move.tickets[0]]} {move.to}"
    if move.is_pass:
        return "X -"
    hops = []
    for j, (t, s) in enumerate(zip(move.tickets, move.stations)):
        seen = rules.is_reveal(moves_before + j + 1) or move.shown == j
        hop = TICKET_LETTERS[t] + (f" {s}" if with_stations or seen else "")
        if move.shown == j and move.took is not None:
            hop += f" show {move.took[0]} {TICKET_LETTERS[move.took[1]]}"
        hops.append(hop)
    return "X " + (hops[0] if len(hops) == 1 else "2X " + "/".join(hops))


def with_entry(text: str, piece: str, entry: str) -> str:
    """The notation ``text`` with one more entry on ``piece``'s line (``X`` or a detective's
    name), the detective's line padded with ``-`` up to the round Mr. X's line has reached: the
    record a player would have written by hand."""
    lines = text.splitlines()
    x = next(i for i, ln in enumerate(lines) if ln.startswith("X"))
    x_entries = [e for e in lines[x].split(":", 1)[1].split(",") if e.strip()]
    if piece == MRX:
        idx = x
        n_before = len(x_entries)
    else:
        idx = next(i for i, ln in enumerate(lines) if ln.split(" ")[0] == piece and ":" in ln)
        n_before = len(x_entries) - 1
    head, body = lines[idx].split(":", 1)
    entries = [e.strip() for e in body.split(",") if e.strip()]
    entries += ["-"] * (n_before - len(entries))
    lines[idx] = f"{head}: " + ", ".join(entries + [entry])
    return "\n".join(lines) + "\n"


def judged(text: str, file: str):
    """``check`` of a notation text (None when it cannot even be read)."""
    try:
        return check(parse_record_text(text, file))
    except Exception:  # unreadable: the session must refuse it too
        return None


def random_wrong_move(pos, rng: random.Random) -> Move:
    """A move that is probably illegal here: a random ticket to a random station (near the
    piece half the time)."""
    board = pos.board
    stations = sorted(board.stations)
    if pos.turn == 0:
        n = 2 if rng.random() < 0.2 else 1
        tickets = tuple(rng.choice(list(Ticket)) for _ in range(n))
        return Move(MRX, tickets, tuple(rng.choice(stations) for _ in range(n)))
    name = pos.names[pos.turn - 1]
    here = pos.stations[pos.turn - 1]
    t = rng.choice([Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND])
    near = [d for tk in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND) for d in board.destinations(here, tk)]
    to = rng.choice(near) if near and rng.random() < 0.5 else rng.choice(stations)
    return Move(name, (t,), (to,))


def london():
    return load_board("london"), preset("classic")


def read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


def play_args(*args: str) -> list[str]:
    """The command line of ``sy-tools play ARGS`` as its own process: ``python -m sy_tools``,
    so the child runs the sy_tools these tests import."""
    import sys

    return [sys.executable, "-m", "sy_tools", "play", *args]


def play_process(cwd: Path, *args: str, input: bytes = b"", preexec_fn=None, timeout: float = 120):
    """``sy-tools play ARGS`` run to its end in ``cwd`` with ``input`` on its standard input (a
    pipe); the finished process, its output as bytes.  The child starts with the default signal
    dispositions (``preexec_fn`` may do more: it is called after that)."""
    import subprocess

    from helpers import default_signals

    def pre() -> None:
        default_signals()
        if preexec_fn is not None:
            preexec_fn()

    return subprocess.run(play_args(*args), cwd=cwd, input=input, capture_output=True, timeout=timeout,
                          preexec_fn=pre)


class Running:
    """``sy-tools play ARGS`` running in ``cwd``, fed through a pipe line by line: ``send`` a
    line, ``wait_for`` its output, ``finish`` with the last lines (standard input then closes).
    Use it in a ``with``: the process is killed at the end if it is still running."""

    def __init__(self, cwd: Path, *args: str) -> None:
        import subprocess

        from helpers import default_signals

        self.p = subprocess.Popen(play_args(*args), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, preexec_fn=default_signals)
        self.out = b""

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.communicate()

    def send(self, text: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(text.encode())
        self.p.stdin.flush()

    def wait_for(self, pattern: str, timeout: float = 60) -> str:
        """Read its standard output until ``pattern`` (a regex) shows in what it wrote since the
        last match; the text matched.  AssertionError when it ends or ``timeout`` passes first."""
        import os
        import re
        import select
        import time

        assert self.p.stdout is not None
        fd = self.p.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            m = re.search(pattern.encode(), self.out)
            if m:
                self.out = self.out[m.end():]
                return m.group().decode()
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern!r} within {timeout} s; it wrote {self.out[-500:]!r}"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                assert chunk, f"it ended before {pattern!r}; it wrote {self.out[-500:]!r}"
                self.out += chunk

    def finish(self, text: str = "", timeout: float = 120) -> tuple[int, str, str]:
        """Send the last lines, close its input and wait: the exit status, the rest of its
        standard output and its standard error."""
        out, err = self.p.communicate(text.encode(), timeout=timeout)
        return self.p.returncode, (self.out + out).decode(errors="replace"), err.decode(errors="replace")


def folder_state(folder: Path) -> dict[str, tuple[str, object]]:
    """Everything in ``folder`` (not below): each name -> ("link", its target), ("file", its
    bytes and permission bits) or ("other", its mode), to tell what a session wrote."""
    import os
    import stat

    out: dict[str, tuple[str, object]] = {}
    for name in sorted(os.listdir(folder)):
        p = folder / name
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            out[name] = ("link", os.readlink(p))
        elif stat.S_ISREG(st.st_mode):
            out[name] = ("file", (p.read_bytes(), stat.S_IMODE(st.st_mode)))
        else:
            out[name] = ("other", st.st_mode)
    return out


def pty_play(cwd: Path, *args: str, timeout: float = 60):
    """``sy-tools play ARGS`` (the installed script) at a terminal of its own, 40 x 120, driven
    by pexpect in bytes (so that any bytes can be typed); the child starts with the default
    signal dispositions."""
    import os
    import sys

    import pexpect
    from helpers import default_signals

    script = str(Path(sys.executable).with_name("sy-tools"))
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="120", LINES="40")
    child = pexpect.spawn(script, ["play", *args], cwd=str(cwd), env=env, timeout=timeout, dimensions=(40, 120),
                          preexec_fn=default_signals)
    child.delaybeforesend = 0.02
    return child


#: What a terminal's control sequences look like (colours, cursor moves, modes).
_CONTROL = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


def screen_lines(raw: bytes) -> list[str]:
    """The lines a person reads in what a program wrote to its terminal: control sequences
    left out, carriage returns as line ends, empty lines dropped."""
    text = _CONTROL.sub(b"", raw).decode(errors="replace")
    return [ln.strip() for ln in re.split(r"[\r\n]+", text) if ln.strip()]
