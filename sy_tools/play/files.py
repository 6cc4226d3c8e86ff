"""The files of a game at the table, guarded: one session per record, nothing written over
another of the session's files, a record changed behind the session's back never overwritten.

* :class:`GameLock`: ``GAME.lock`` beside the record (beside the file a link names: every name
  of a record shares one lock), created exclusively and held with ``flock`` while the session
  runs.  A second session on the same record (on this machine, or on another through a shared
  folder) is refused with one line naming the holder; a lock left by a session that died on this
  machine (its ``flock`` is gone with it) is taken over.  A ``GAME.lock`` that is not such a lock
  (a link, a file with other names, other contents) is never written into: it is refused.
* :func:`distinct_targets`: the record, Mr. X's log, the lock and any picture must be different
  files, also through symbolic links, and none of them a device or a folder.
* :class:`Watched`: the bytes the session last wrote (or read) for each file; a save first checks
  that the files still hold them.
* :func:`create_private`: Mr. X's log is made readable by its owner only (it holds his stations
  and the secret seed).
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import socket
import stat
import time
from collections.abc import Sequence

from ..errors import InputError
from ..formats.files import file_type_name, write_target

#: The lock file's name beside the record: ``game.txt`` -> ``game.txt.lock``.
LOCK_SUFFIX = ".lock"


def lock_path(game: str) -> str:
    """Where the lock of the record ``game`` lives: beside it, or when ``game`` is a symbolic
    link beside the record it names (so a session through a link and one through the record's
    own name share the lock)."""
    return (os.path.realpath(game) if os.path.islink(game) else game) + LOCK_SUFFIX


def target_of(path: str) -> str:
    """The file a write to ``path`` changes (symbolic links followed, also dangling ones), as an
    absolute path; :class:`InputError` for a folder, a device, a pipe or a socket."""
    try:
        target, st = write_target(path)
    except OSError as e:
        raise InputError(e.strerror or str(e), path) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise InputError(f"is {file_type_name(st.st_mode)}, not a file: play writes only regular files", path)
    return os.path.realpath(os.path.abspath(target))


def distinct_targets(files: Sequence[tuple[str, str]]) -> None:
    """``files``: (what, path) pairs the session writes.  :class:`InputError` when two of them
    are the same file (directly, through symbolic links or as hard links of one file), or one is
    not a regular file."""
    seen: dict[object, tuple[str, str]] = {}
    for what, path in files:
        t = target_of(path)
        try:
            st = os.stat(t)
            keys: list[object] = [t, (st.st_dev, st.st_ino)]  # a hard link has its own name, not its own file
        except OSError:
            keys = [t]  # not there yet: its name is all there is
        for key in keys:
            if key in seen:
                other, other_path = seen[key]
                same = "is" if other_path == path else f"is the same file as {other_path}, which is"
                raise InputError(f"{same} {other}: {what} must be another file", path)
        for key in keys:
            seen[key] = (what, path)


def resume_command(game: str) -> str:
    """The command that resumes ``game``."""
    return f"sy-tools play {shlex.quote(game)}"


class GameLock:
    """The session's hold on a record: acquire with :meth:`acquire`, give back with
    :meth:`release` (also at exit: a process that dies leaves the file, which the next session
    on this machine takes over)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.path = lock_path(game)
        self.fd: int | None = None

    def _stranger(self, fd: int) -> str | None:
        """Why the existing file ``fd`` is not a lock this class wrote (None: it is one, or an
        empty one a session died before filling): it must then not be written into."""
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return f"is {file_type_name(st.st_mode)}"
        if st.st_nlink != 1:
            return "is a file with other names (a hard link)"
        raw = os.pread(fd, 4097, 0)
        if not raw:
            return None
        try:
            info = json.loads(raw.decode("utf-8"))
        except ValueError:
            info = None
        if len(raw) > 4096 or not isinstance(info, dict) or not {"program", "pid", "host"} <= info.keys():
            return "holds something else"
        return None

    def _refuse_stranger(self, why: str) -> InputError:
        return InputError(f"the record's lock {self.path} {why}, not a lock of a play session: it is not written "
                          "over; move it away (or delete it) and play again", self.game)

    def _holder_text(self, fd: int) -> str:
        try:
            raw = os.pread(fd, 4096, 0)
            info = json.loads(raw.decode("utf-8"))
            return (f"{info.get('program', 'a session')} (process {int(info['pid'])} on {info['host']}, "
                    f"since {info['since']})")
        except (OSError, ValueError, KeyError, TypeError):
            return "another session"

    def _host_of(self, fd: int) -> str | None:
        try:
            info = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
            host = info.get("host")
            return host if isinstance(host, str) else None
        except (OSError, ValueError, AttributeError):
            return None

    def _write_info(self, fd: int, program: str) -> None:
        info = {"program": program, "pid": os.getpid(), "host": socket.gethostname(),
                "since": time.strftime("%Y-%m-%d %H:%M:%S")}
        data = (json.dumps(info) + "\n").encode()
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
        os.fsync(fd)

    def acquire(self, program: str = "sy-tools play") -> None:
        """Hold the record, or :class:`InputError` naming who does."""
        import fcntl

        flags = os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
        for _ in range(5):
            try:
                fd = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                try:
                    fd = os.open(self.path, flags)
                except FileNotFoundError:
                    continue  # given back meanwhile: try again
                except OSError as e:
                    if os.path.islink(self.path):
                        raise self._refuse_stranger("is a symbolic link") from None
                    raise InputError(f"cannot open the lock {self.path}: {e.strerror}", self.game) from None
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as e:
                    holder = self._holder_text(fd)
                    os.close(fd)
                    if e.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                        raise InputError(f"the game is open in another session: {holder}; one session at a "
                                         "time plays a record", self.game) from None
                    raise InputError(f"cannot lock {self.path}: {e.strerror}", self.game) from None
                try:  # held by nobody: left by a session that died, or not a lock at all
                    why = self._stranger(fd)
                except OSError as e:
                    os.close(fd)
                    raise InputError(f"cannot read the lock {self.path}: {e.strerror}", self.game) from None
                if why is not None:
                    os.close(fd)
                    raise self._refuse_stranger(why) from None
                host = self._host_of(fd)
                if host is not None and host != socket.gethostname():
                    holder = self._holder_text(fd)
                    os.close(fd)
                    raise InputError(f"the game is open in another session: {holder}; one session at a time "
                                     f"plays a record (if that session is gone, delete {self.path})",
                                     self.game) from None
                if not os.path.lexists(self.path) or not os.path.samestat(os.fstat(fd), os.lstat(self.path)):
                    os.close(fd)  # replaced under us: start again
                    continue
                self._write_info(fd, program)  # a session that died here: taken over
                self.fd = fd
                return
            except OSError as e:
                raise InputError(f"cannot create the lock {self.path}: {e.strerror}", self.game) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._write_info(fd, program)
            except OSError as e:
                os.close(fd)
                raise InputError(f"cannot lock {self.path}: {e.strerror}", self.game) from None
            self.fd = fd
            return
        raise InputError(f"cannot take the lock {self.path}: it keeps changing", self.game)

    def release(self) -> None:
        """Give the record back (the lock file is removed)."""
        if self.fd is None:
            return
        try:
            if os.path.samestat(os.fstat(self.fd), os.lstat(self.path)):
                os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


class Watched:
    """What each of the session's files held when the session last read or wrote it."""

    def __init__(self) -> None:
        self.last: dict[str, bytes | None] = {}

    def remember(self, path: str, data: bytes | None) -> None:
        self.last[path] = data

    def read_now(self, path: str) -> bytes | None:
        try:
            with open(path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def changed(self) -> list[str]:
        """The files that no longer hold what the session last saw."""
        out = []
        for path, data in self.last.items():
            try:
                now = self.read_now(path)
            except OSError:
                now = None
            if now != data:
                out.append(path)
        return out



def create_private(path: str) -> bool:
    """Create ``path`` empty, readable and writable by its owner only (0600), when there is no
    file of that name (an existing one keeps its mode: the atomic writes that replace it copy
    it); whether it was made here.  Any failure is left to the write that follows to report."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return False
    os.close(fd)
    return True
