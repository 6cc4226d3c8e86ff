"""What plug-in policies write, kept out of a run's output.

A plug-in policy is user code: it may print at import, in a call or from a thread of its own,
through ``print``, ``sys.stdout``, ``sys.__stdout__`` or ``os.write(1, ...)``, and it may change
the working folder.  :func:`stray_output_marked` wraps a whole run: standard output (descriptor 1
and ``sys.stdout``) leads into a pipe whose every line goes to stderr with :data:`MARK` in front,
and the run writes its own output through a descriptor it took before any plug-in ran.
:func:`plug_in_call` wraps each call of plug-in code: the working folder is put back after it,
and outside such a run what it prints goes to stderr for the call (unmarked).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
from collections.abc import Iterator
from typing import IO, Any

#: What each line a plug-in writes to standard output starts with on stderr.
MARK = "policy output: "

#: Whether a :func:`stray_output_marked` block is running (forked workers inherit it).
_MARKING = False


@contextlib.contextmanager
def stray_output_marked() -> Iterator[IO[str]]:
    """For the block, descriptor 1 and ``sys.stdout`` lead into a pipe read by a thread that
    writes each line to stderr after :data:`MARK`; yields the stream the run's own output must
    go to: standard output as it was when the block began (a descriptor held from then on).

    In a process of its own (``sys.stdout`` was descriptor 1) the pipe and its thread stay after
    the block, to the process's end: a plug-in's thread that goes on printing is marked too, and
    can't add to the output once it is written.  Otherwise (a test runner's stream stood for
    stdout) descriptor 1 is put back and what is left in the pipe marked."""
    global _MARKING
    if _MARKING:
        yield sys.stdout
        return
    ours, err = sys.stdout, sys.stderr
    for stream in {id(s): s for s in (sys.stdout, sys.__stdout__) if s is not None}.values():
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    try:
        own = ours.fileno() == 1
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        own = False  # (a test runner's capture)
    try:
        saved = os.dup(1)
    except OSError:  # no descriptor 1 at all: nothing of ours a plug-in could write into
        saved = -1
    read_end, write_end = os.pipe()
    os.dup2(write_end, 1)
    os.close(write_end)
    held: IO[str] = ours
    if own and saved >= 0:
        held = open(os.dup(saved), "w", encoding=getattr(ours, "encoding", None) or "utf-8",
                    errors=getattr(ours, "errors", None) or "strict", closefd=True)
    reader = threading.Thread(target=_mark_lines, args=(read_end, err), name="sy-tools policy output",
                              daemon=True)
    reader.start()
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                  line_buffering=True)
    _MARKING = True
    try:
        yield held
    finally:
        _MARKING = False
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        with contextlib.suppress(OSError, ValueError):
            held.flush()
        sys.stdout = ours  # (on descriptor 1: in a process of its own, still the pipe)
        if held is not ours:
            with contextlib.suppress(OSError, ValueError):
                held.close()
        if not own and saved >= 0:
            os.dup2(saved, 1)  # the pipe's last writer goes: the thread reads to its end
            reader.join(5.0)
        if saved >= 0:
            os.close(saved)


def _mark_lines(fd: int, err: Any) -> None:
    """Copy the pipe ``fd`` to ``err`` a line at a time, each after :data:`MARK`, until its end."""
    rest = b""
    try:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            *lines, rest = (rest + chunk).split(b"\n")
            _write(err, lines)
        if rest:
            _write(err, [rest])
    finally:
        os.close(fd)


def _write(err: Any, lines: list[bytes]) -> None:
    if not lines:
        return
    text = "".join(f"{MARK}{line.decode('utf-8', 'backslashreplace')}\n" for line in lines)
    with contextlib.suppress(OSError, ValueError):
        err.write(text)
        err.flush()


def marking() -> bool:
    """Whether a run's stray output is being marked (:func:`stray_output_marked`)."""
    return _MARKING


@contextlib.contextmanager
def plug_in_call() -> Iterator[None]:
    """Around a call of plug-in code (its import, each move asked of it): the working folder is
    the same after it as before, and outside :func:`stray_output_marked` what it prints goes to
    stderr for the call (``print``, ``sys.stdout`` and descriptor 1, then back)."""
    try:
        here = os.open(".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # no working folder to keep (it was removed): nothing to put back
        here = -1
    try:
        if _MARKING:
            yield
        else:
            with _descriptor_1_to_stderr(), contextlib.redirect_stdout(sys.stderr):
                yield
    finally:
        if here >= 0:
            with contextlib.suppress(OSError):
                os.fchdir(here)
            os.close(here)


@contextlib.contextmanager
def _descriptor_1_to_stderr() -> Iterator[None]:
    """Descriptor 1 is a copy of descriptor 2 inside the block, and itself again after it
    (what Python buffered for stdout is written first, where it belongs)."""
    for stream in {id(s): s for s in (sys.stdout, sys.__stdout__) if s is not None}.values():
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no descriptor 1 (closed): nothing of ours to protect
        yield
        return
    try:
        os.dup2(2, 1)
    except OSError:  # no descriptor 2 to point it at: leave it as it is
        os.close(saved)
        yield
        return
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
