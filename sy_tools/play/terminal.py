"""Feeding a :class:`~sy_tools.play.console.Console` lines from a terminal (prompt_toolkit:
line editing, history, tab completion); :mod:`sy_tools.play.pipe` reads a pipe or file.

On a shared screen in the secret mode (Mr. X's log kept) nothing shown depends on his true
stations: a line typed for Mr. X is shown as ``[hidden]`` wherever it is typed (whatever its
length) and never enters the history; completion never offers his stations; his private step
starts with the screen handed over and ends with the screen (and its scroll-back) cleared.
Ctrl-C clears the line being typed, and on an empty line ends the session; Ctrl-D ends it."""

from __future__ import annotations

import os
import select
import sys
import termios
import time
import tty
from collections.abc import Iterator
from typing import IO, Any

from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
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

    @keys.add("c-c")
    def _(event: Any) -> None:
        buf = event.app.current_buffer
        if buf.text:
            buf.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt())

    prompt: Any = PromptSession(history=SecretHistory(console), completer=MoveCompleter(console),
                                complete_while_typing=False, key_bindings=keys,
                                input_processors=[Hide(lambda text: _is_secret_line(console, text))])

    def ask(text: str) -> str:
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
            ask("Mr. X: press Enter to clear the screen and hand back> ")
            _clear()
            console.out(console.prompt_status())

    console.on_private = private
    try:
        console.start(notes)
        while not console.finished:
            if console.autoplay:
                if not _autoplay_step(console):
                    continue
                continue
            line = ask(console.prompt())
            if len(line) > MAX_LINE:
                console.refuse(f"the line is {len(line):,} characters long, more than {MAX_LINE:,}: not read")
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


def _autoplay_step(console: Console) -> bool:
    """The computer's next move when it plays both sides, after ``pace`` seconds in which
    ``q`` (or Ctrl-C) stops it; whether it moved."""
    if _key_within(console.session.pace) in ("q", "Q"):
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
            if key in ("q", "Q"):
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
