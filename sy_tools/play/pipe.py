"""Feeding a :class:`~sy_tools.play.console.Console` from a pipe or a file (a scripted game):
lines read in linear time and bounded, undecodable ones refused one by one, the computer's
moves paced when it plays both sides, and one closing line saying how to resume."""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from collections.abc import Iterator
from typing import BinaryIO

from .console import Console
from .settings import MAX_LINE

#: Exit status after Ctrl-C (the shell's convention).
INTERRUPTED = 130

#: The most bytes a line of :data:`MAX_LINE` characters can take in UTF-8.
_MAX_BYTES = 4 * MAX_LINE + 2


class Unreadable(str):
    """A line that could not be read: the reason."""


def read_lines(stream: BinaryIO) -> Iterator[str]:
    """The lines of ``stream`` as text, without their line ends; a line too long or not UTF-8
    comes as an :class:`Unreadable` saying so (a long line's rest is skipped, not kept)."""
    while True:
        raw = stream.readline(_MAX_BYTES)
        if not raw:
            return
        if not raw.endswith(b"\n") and len(raw) >= _MAX_BYTES:
            n = len(raw)
            while True:
                more = stream.readline(1 << 16)
                n += len(more)
                if not more or more.endswith(b"\n"):
                    n -= len(more) - len(more.rstrip(b"\r\n"))  # (its end is not counted)
                    break
            yield Unreadable(f"the line is {n:,} bytes long, more than {MAX_LINE:,} characters: not read")
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield Unreadable("the line is not UTF-8 text: not read")
            continue
        yield text.rstrip("\r\n")


def feed(console: Console, line: str) -> None:
    """One line (or :class:`Unreadable`) to ``console``."""
    if isinstance(line, Unreadable):
        console.refuse(str(line))
    else:
        console.handle(line)


def _reader(lines: Iterator[str]) -> queue.Queue[str | None]:
    """The lines, read by a thread of their own into a queue (None at the end), so that the
    computer's pace can wait for a line and a move at once."""
    q: queue.Queue[str | None] = queue.Queue()

    def run() -> None:
        try:
            for line in lines:
                q.put(line)
        finally:
            q.put(None)

    threading.Thread(target=run, name="play-input", daemon=True).start()
    return q


def run_pipe(console: Console, stream: BinaryIO | None = None) -> int:
    """Play the lines of ``stream`` (standard input) until the game ends, ``quit`` or the
    lines run out; when the computer plays both sides, one move every ``pace`` seconds (a line
    typed meanwhile is read; ``q`` stops; at the end of the input it plays on to the end).  The
    exit status: 0, 2 when something could not be saved, :data:`INTERRUPTED` on Ctrl-C."""
    lines = read_lines(stream or sys.stdin.buffer)
    ended = False
    try:
        if console.autoplay:
            ended = _autoplay(console, _reader(lines))
        while not console.finished:
            line = next(lines, None)
            if line is None:
                ended = True
                break
            feed(console, line)
    except KeyboardInterrupt:
        console.out(console.goodbye())
        return INTERRUPTED
    if not console.session.over and (ended or console.finished):
        console.out(console.goodbye())
    return console.exit_code(0)


def _autoplay(console: Console, q: queue.Queue[str | None]) -> bool:
    """The computer plays both sides, a move every ``pace`` seconds, reading the lines typed
    meanwhile; whether the input ended (then the game is played to its end)."""
    ended = False
    while not console.finished:
        if ended:
            if not console.computer_step():
                break
            time.sleep(console.session.pace)
            continue
        try:
            line = q.get(timeout=console.session.pace) if console.session.pace > 0 else q.get_nowait()
        except queue.Empty:
            if not console.computer_step():
                break
            continue
        if line is None:
            ended = True
        else:
            feed(console, line)
    return ended


def stdin_is_terminal() -> bool:
    return os.isatty(0) and os.isatty(1)
