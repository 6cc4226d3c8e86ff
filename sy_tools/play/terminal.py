"""Feeding a :class:`~sy_tools.play.console.Console` lines from a terminal (prompt_toolkit:
line editing, history, tab completion); :mod:`sy_tools.play.pipe` reads a pipe or file.

On a shared screen in the secret mode (Mr. X's log kept) nothing shown depends on his true
stations: a line typed for Mr. X is shown as ``[hidden]`` wherever it is typed (whatever its
length) and never enters the history; completion never offers his stations; his private step
starts with the screen handed over and ends with the screen (and its scroll-back) cleared.
Between prompts (the computer thinking, a picture drawn) the terminal does not echo what is
typed ahead: it waits, unseen, for the next prompt.
Ctrl-C clears the line being typed, and on an empty line ends the session; Ctrl-D ends it.
A line longer than :data:`~sy_tools.play.settings.MAX_LINE` is refused whole, with its length;
what arrives past that is counted, not kept, so a megabyte pasted costs linear time."""

from __future__ import annotations

import os
import select
import sys
import termios
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input.vt100 import Vt100Input
from prompt_toolkit.key_binding import KeyBindings, KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput

from ..engine.hops import MRX
from .console import COMMANDS, PRIVATE_COMMANDS, Console, is_mrx_line
from .settings import MAX_LINE

#: Exit status after Ctrl-C at the prompt (the shell's convention).
INTERRUPTED = 130

#: What a hidden line shows (the same whatever was typed).
HIDDEN = "[hidden]"

#: Clear the screen and its scroll-back, cursor home.
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


class _Ended(Exception):
    """The person ended the session (Ctrl-C on an empty line: ``interrupted``; Ctrl-D)."""

    def __init__(self, interrupted: bool) -> None:
        self.interrupted = interrupted


class Hide(Processor):  # type: ignore[misc]
    """Shows :data:`HIDDEN` in place of the line while ``hidden()`` says so."""

    def __init__(self, hidden: Any) -> None:
        self.hidden = hidden

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        if not ti.document.text or not self.hidden(ti.document.text):
            return Transformation(ti.fragments)
        return Transformation([("", HIDDEN)], source_to_display=lambda i: len(HIDDEN),
                              display_to_source=lambda i: 0)


class SecretHistory(InMemoryHistory):  # type: ignore[misc]
    """Up and down arrows recall every line but those typed for Mr. X in the secret mode."""

    def __init__(self, console: Console) -> None:
        super().__init__()
        self.console = console

    def store_string(self, string: str) -> None:
        if not _is_secret_line(self.console, string):
            super().store_string(string)

    def append_string(self, string: str) -> None:
        if not _is_secret_line(self.console, string):
            super().append_string(string)


class JoinedInput(Vt100Input):  # type: ignore[misc]
    """The terminal's keys as the prompt reads them, but each run of plain characters that
    arrives at once (a line pasted or sent into the terminal, a fast typist) handed on as one
    paste rather than a key a character: prompt_toolkit inserts a key at a time, each insertion
    copying the line, which makes a long line cost quadratic time."""

    def read_keys(self) -> list[KeyPress]:
        return joined(super().read_keys())

    def flush_keys(self) -> list[KeyPress]:
        return joined(super().flush_keys())


def _plain(key: KeyPress) -> bool:
    k = key.key
    return not isinstance(k, Keys) and len(k) == 1 and key.data == k and k.isprintable()


def joined(keys: list[KeyPress]) -> list[KeyPress]:
    """``keys`` with every run of two or more plain characters made one paste."""
    out: list[KeyPress] = []
    run: list[KeyPress] = []
    for key in [*keys, None]:
        if key is not None and _plain(key):
            run.append(key)
            continue
        if len(run) > 1:
            out.append(KeyPress(Keys.BracketedPaste, "".join(k.data for k in run)))
        else:
            out += run
        run = []
        if key is not None:
            out.append(key)
    return out


class LineBound:
    """Holds the line being typed to :data:`MAX_LINE` + 1 characters: what is pasted past that
    is counted (:attr:`dropped`), not kept, so the line is refused whole with its true length
    and the prompt never redraws more than a page of it."""

    def __init__(self) -> None:
        self.dropped = 0

    def paste(self, buf: Any, data: str) -> None:
        data = data.replace("\r\n", "\n").replace("\r", "\n")  # (as prompt_toolkit pastes)
        room = max(0, MAX_LINE + 1 - len(buf.text))
        if len(data) > room:
            self.dropped += len(data) - room
            data = data[:room]
        if data:
            buf.insert_text(data)

    def emptied(self, buf: Any) -> None:
        """The line is cleared (or accepted): nothing dropped from it any more."""
        if not buf.text:
            self.dropped = 0

    def length(self, line: str) -> int:
        """How long the line typed really was."""
        return len(line) + self.dropped


@contextmanager
def unechoed(fd: int) -> Iterator[None]:
    """The terminal ``fd`` neither echoes nor holds back for a line what is typed between
    prompts: a move typed ahead for Mr. X while the computer thinks would show on the shared
    screen, and a line held by the terminal would reach the prompt only with its Enter.  (The
    prompt sets its own modes while it reads and puts these back after.)  Ctrl-C still
    interrupts."""
    try:
        old = termios.tcgetattr(fd)
    except termios.error:
        yield
        return
    quiet = list(old)
    quiet[3] = old[3] & ~(termios.ECHO | termios.ICANON)
    quiet[6] = list(old[6])
    quiet[6][termios.VMIN] = 1
    quiet[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, old)


def _is_secret_line(console: Console, text: str) -> bool:
    s = console.session
    if not s.secret or console.session.computer in ("mrx", "both"):
        return False
    return console.in_private or s.to_move == MRX or is_mrx_line(text)


def run_terminal(console: Console, notes: list[str] | None = None, stdin: IO[str] | None = None,
                 stdout: IO[str] | None = None) -> int:
    """An interactive session at a terminal: a prompt saying whose turn it is, line editing,
    history and tab completion of commands, players, tickets and stations.  0 at the end of the
    game, ``quit`` or Ctrl-D; :data:`INTERRUPTED` on Ctrl-C on an empty line; 2 when a move
    could not be saved."""
    from prompt_toolkit import PromptSession

    keys = KeyBindings()
    bound = LineBound()

    @keys.add("c-c")
    def _(event: Any) -> None:
        buf = event.app.current_buffer
        if buf.text:
            buf.reset()
            bound.emptied(buf)
        else:
            event.app.exit(exception=KeyboardInterrupt())

    @keys.add(Keys.BracketedPaste)
    def _(event: Any) -> None:
        bound.paste(event.current_buffer, event.data)

    prompt: Any = PromptSession(history=SecretHistory(console), completer=MoveCompleter(console),
                                complete_while_typing=False, key_bindings=keys, input=JoinedInput(sys.stdin),
                                input_processors=[Hide(lambda text: _is_secret_line(console, text))])
    prompt.default_buffer.on_text_changed += bound.emptied

    def ask(text: str) -> str:
        bound.dropped = 0
        try:
            line = prompt.prompt(text)
        except KeyboardInterrupt:
            raise _Ended(True) from None
        except EOFError:
            raise _Ended(False) from None
        return str(line)

    def private(starting: bool) -> None:
        if starting:
            ask("pass the keyboard to Mr. X; Mr. X, press Enter> ")
            _clear()
        else:
            try:
                ask("Mr. X: press Enter to clear the screen and hand back> ")
            finally:  # (also when he ends the session here: what he read is his alone)
                _clear()
            console.out(console.prompt_status())

    console.on_private = private
    with unechoed(sys.stdin.fileno()):
        return _session(console, notes, ask, bound)


def _session(console: Console, notes: list[str] | None, ask: Any, bound: LineBound) -> int:
    try:
        console.start(notes)
        while not console.finished:
            if console.autoplay:
                _autoplay_step(console)
                continue
            line = ask(console.prompt())
            n = bound.length(line)
            if n > MAX_LINE:
                console.refuse(f"the line is {n:,} characters long, more than {MAX_LINE:,}: not read")
                continue
            console.handle(line)
    except _Ended as e:
        if console.in_private:
            _clear()
        if not console.session.over:
            console.out(console.goodbye())
        return console.exit_code(INTERRUPTED if e.interrupted else 0)
    except KeyboardInterrupt:
        if not console.session.over:
            console.out(console.goodbye())
        return console.exit_code(INTERRUPTED)
    if not console.session.over:
        console.out(console.goodbye())
    return console.exit_code(0)


def _clear() -> None:
    sys.stdout.write(CLEAR)
    sys.stdout.flush()


#: The keys that stop the computer playing both sides (as ``quit``; Ctrl-C stops it with 130).
STOP_KEYS = ("q", "Q", "\x04")


def _autoplay_step(console: Console) -> bool:
    """The computer's next move when it plays both sides, after ``pace`` seconds in which
    ``q`` or Ctrl-D (or Ctrl-C) stops it; whether it moved."""
    if _key_within(console.session.pace) in STOP_KEYS:
        console.handle("quit")
        return False
    if not console.computer_step():
        console.finished = True
        return False
    return True


def _key_within(seconds: float) -> str | None:
    """A key pressed within ``seconds`` (None: none)."""
    fd = sys.stdin.fileno()
    try:
        old = termios.tcgetattr(fd)
    except termios.error:
        time.sleep(seconds)
        return None
    try:
        tty.setcbreak(fd)
        deadline = time.monotonic() + seconds
        while True:
            left = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            key = os.read(fd, 1).decode("latin-1")
            if key == "\x03":
                raise KeyboardInterrupt
            if key in STOP_KEYS:
                return key
            if left <= 0:
                return None
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


class MoveCompleter(Completer):  # type: ignore[misc]
    """Tab completion: commands and players first; then tickets and the stations the piece to
    move can reach.  Mr. X's stations are offered only in his private step (on the shared
    screen none are: they would say where he is)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def get_completions(self, document: Any, complete_event: Any) -> Iterator[Any]:
        before = document.text_before_cursor
        words = before.split()
        current = "" if before.endswith(" ") or not words else words[-1]
        first = not words or (len(words) == 1 and bool(current))
        for word in self.words(first, words):
            if word.lower().startswith(current.lower()) and word != current:
                yield Completion(word, start_position=-len(current))

    def words(self, first: bool, words: list[str] | None = None) -> list[str]:
        """The words offered at this point of the line."""
        c = self.console
        s = c.session
        pos = s.position
        mrx_tickets = ["T", "B", "U", "K", "2X", "-"]
        if c.in_private:
            return [*PRIVATE_COMMANDS, *mrx_tickets] if first else mrx_tickets + [str(t) for t in self.stations()]
        words = words or []
        mrx_line = bool(words) and words[0].lower() in ("x", "mrx", "mr.x")
        tickets = mrx_tickets if s.to_move == MRX or mrx_line else ["T", "B", "U"]
        if first:
            return [*COMMANDS, "X", *pos.names, *tickets]
        if mrx_line or s.to_move == MRX:
            return tickets + ([] if s.secret else [str(t) for t in pos.board.stations])
        return tickets + [str(t) for t in self.stations()]

    def stations(self) -> list[int]:
        c = self.console
        s = c.session
        pos = s.position
        if s.to_move is None:
            return []
        if s.to_move != MRX:
            return sorted({m.to for m in pos.legal_moves() if m.to is not None})
        if c.in_private and pos.mrx_at is not None:
            return sorted({m.stations[0] for m in pos.legal_moves.singles() if m.stations[0] is not None})
        return [] if s.secret else sorted(pos.board.stations)
