
"""Small file helpers: atomic writes that never replace what they should write through, and
reads that are bounded whatever the path names.

Guarantees of the writers (:func:`atomic_write_bytes`, :func:`atomic_write_many`):

* A regular file is replaced atomically: a temporary file in the same folder is written, flushed
  to disk, then renamed over the target.  A reader sees the old file or the new one, never half.
* A symbolic link is written through: the file it points to is replaced (atomically, in that
  file's folder); the link stays a link.
* A character device or a named pipe is written to directly; the node is never replaced.  Other
  special files (block devices, sockets) are refused.
* The process's own streams (``-``, ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``, see
  :func:`stream_fd`) are written to as streams, through the descriptor already open, whatever
  they are: redirected to a file (``>> log`` appends, nothing is replaced), a pipe or a terminal.
* :func:`atomic_write_many` changes several files together: every new content is written to a
  temporary file first, and only when all of them are complete are they renamed into place; if a
  rename fails, the files already renamed are put back.  So either every file changes or none
  does (short of the machine stopping between two renames, which take microseconds).
* SIGINT, SIGTERM or SIGHUP during a write remove the temporary files before the process ends
  (a signal during the final renames is held until they are done).
* Every failure names the file, e.g. ``out.json: No space left on device``.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import InputError

#: The most bytes :func:`read_text` reads from one file (a record or a map is far smaller).
MAX_READ_BYTES = 64 * 1024 * 1024

_SIGNAL_NAMES = ("SIGTERM", "SIGHUP")  # (the signal module is loaded by the writers only: reading commands start faster)


def _signals() -> tuple[Any, ...]:
    import signal

    return tuple(getattr(signal, n) for n in _SIGNAL_NAMES if hasattr(signal, n))


class Signalled(BaseException):
    """Raised inside a write when a terminating signal arrives, so the temp files go."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def cleanup_on_signals() -> Iterator[None]:
    """Turn SIGTERM/SIGHUP into an exception for the duration (so ``finally`` blocks run), then
    hand the signal to whatever handled it before (by default: the process ends)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    import signal

    old: dict[int, Any] = {}

    def handler(signum: int, frame: object) -> None:
        raise Signalled(signum)

    for sig in _signals():
        try:
            prev = signal.getsignal(sig)
            if prev is signal.SIG_IGN or prev is None:
                continue
            old[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):  # pragma: no cover - not the main interpreter
            pass
    try:
        yield
    except Signalled as s:
        for sig, prev in old.items():
            signal.signal(sig, prev)
        old = {}
        os.kill(os.getpid(), s.signum)  # the previous handler decides (default: terminate)
        raise SystemExit(128 + s.signum) from None
    finally:
        for sig, prev in old.items():
            signal.signal(sig, prev)


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT/SIGTERM/SIGHUP until the block ends (used around the final renames)."""
    import signal

    sigs = {signal.SIGINT, *_signals()}
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, sigs)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _named(e: OSError, path: str | os.PathLike[str]) -> OSError:
    """``e`` again, naming ``path`` (the name the user gave)."""
    out = OSError(e.errno, e.strerror or str(e), os.fspath(path))
    return out


def file_type_name(mode: int) -> str:
    """What a file that is not a regular one is, in words ("a folder", "a named pipe" ...), from
    its ``st_mode``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def write_target(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """The file a write to ``path`` must change (symlinks followed, also dangling ones) and its
    status (None if it does not exist yet)."""
    spath = os.fspath(path)
    if spath.endswith(("/", os.sep)):
        raise IsADirectoryError(errno.EISDIR, "is a folder, expected a file name", spath)
    p = Path(spath)
    try:  # the kernel's own resolution: /dev/stdout -> /proc/self/fd/1 -> a pipe has no path
        direct = os.stat(spath)
    except OSError:
        direct = None
    if direct is not None and (stat.S_ISCHR(direct.st_mode) or stat.S_ISFIFO(direct.st_mode)):
        return p, direct  # written through its own name (see _write_special)
    if p.is_symlink():
        p = Path(os.path.realpath(p))
        if p.is_symlink():
            raise OSError(errno.ELOOP, "too many levels of symbolic links", spath)
    try:
        st: os.stat_result | None = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _named(e, spath) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, expected a file name", spath)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such folder to write into", spath)
    return p, st


def _open_special(path: str | os.PathLike[str], target: Path, mode: int) -> int:
    """A descriptor writing straight into a character device or a named pipe (one with a
    reader: never blocks waiting for one)."""
    fifo = stat.S_ISFIFO(mode)
    try:
        fd = os.open(target, os.O_WRONLY | (os.O_NONBLOCK if fifo else 0))
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise OSError(e.errno, "a named pipe with no reader", os.fspath(path)) from None
        raise _named(e, path) from None
    if fifo:
        os.set_blocking(fd, True)
    return fd


def _write_special(path: str | os.PathLike[str], target: Path, mode: int, data: bytes) -> None:
    """Write straight into a character device or a named pipe."""
    fd = _open_special(path, target, mode)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError as e:
        raise _named(e, path) from None
    finally:
        os.close(fd)


def temp_file_beside(target: Path, mode: int | None) -> tuple[int, str]:
    """A new temporary file in ``target``'s folder (its descriptor and name), with the
    permissions of the file it will replace (``mode``: its ``st_mode``), or those ``open()``
    gives a new file (``mode`` None)."""
    import tempfile  # here, not at the top: reading commands never load it

    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:  # mkstemp makes the file private (0600)
        if mode is not None:
            perms = mode & 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            perms = 0o666 & ~umask
        os.chmod(tmp, perms)
    except BaseException:
        os.close(fd)
        _unlink(tmp)
        raise
    return fd, tmp


def _write_temp(path: str | os.PathLike[str], target: Path, st: os.stat_result | None, data: bytes) -> str:
    """A complete, flushed temporary copy of ``data`` beside ``target``; returns its name."""
    try:
        fd, tmp = temp_file_beside(target, None if st is None else st.st_mode)
    except OSError as e:
        raise _named(e, path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException as e:
        _unlink(tmp)
        if isinstance(e, OSError):
            raise _named(e, path) from None
        raise
    return tmp


def _unlink(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def stream_fd(path: str | os.PathLike[str]) -> int | None:
    """The descriptor ``path`` names if it is one of the process's own streams (``-`` and
    ``/dev/stdout``: 1, ``/dev/stderr``: 2, ``/dev/fd/N`` and ``/proc/self/fd/N``: N), else None.
    Such a name is a stream to write to, never a file to replace: standard output redirected
    with ``>> log`` must append to ``log``, not swap it for a new file."""
    spath = os.fspath(path)
    if spath == "-":
        return 1
    norm = os.path.normpath(spath) if spath.startswith("/") else ""
    if norm in ("/dev/stdout", "/dev/stderr"):
        return 1 if norm == "/dev/stdout" else 2
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        n = norm[len(prefix):]
        if norm.startswith(prefix) and n.isascii() and n.isdigit():
            return int(n)
    return None


def write_stream(path: str | os.PathLike[str], fd: int, data: bytes) -> None:
    """Write ``data`` to the open descriptor ``fd`` (see :func:`stream_fd`), after what Python
    has buffered for it (so the order of the output holds); errors name ``path``."""
    import sys

    py = {1: sys.stdout, 2: sys.stderr}.get(fd)
    if py is not None:
        try:
            real = py.fileno() == fd
        except (OSError, ValueError, AttributeError):
            real = False  # (a test runner's capture stands in for the stream: write to it)
        if not real:
            buf = getattr(py, "buffer", None)
            if buf is not None:
                py.flush()
                buf.write(data)
                buf.flush()
            else:
                py.write(data.decode("utf-8"))
            return
        py.flush()
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as e:
        raise _named(e, path) from None


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader never sees a half-written file and a failed
    write leaves the old file intact; links are written through, devices and the process's
    own streams written to directly (see the module docstring)."""
    fd = stream_fd(path)
    if fd is not None:
        write_stream(path, fd, data)
        return
    target, st = write_target(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            _write_special(path, target, st.st_mode, data)
            return
        raise OSError(errno.EINVAL, f"is {file_type_name(st.st_mode)}, not a file; refusing to write", os.fspath(path))
    atomic_write_many([(path, data)])


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into a part at a time (memory bounded
    however long it is), with :func:`atomic_write_bytes`' guarantees: a regular file is replaced
    by a temporary file renamed over it when the block ends without an error (removed otherwise,
    the old file untouched, also on SIGTERM/SIGHUP); a device, a named pipe or a stream of the
    process's own is written to as the block goes."""
    fd = stream_fd(path)
    if fd is not None:
        buf = io.BytesIO()
        yield buf  # (a stream takes it whole at the end, after what Python holds for it: the order holds)
        write_stream(path, fd, buf.getvalue())
        return
    target, st = write_target(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            raise OSError(errno.EINVAL, f"is {file_type_name(st.st_mode)}, not a file; refusing to write",
                          os.fspath(path))
        with os.fdopen(_open_special(path, target, st.st_mode), "wb") as fh, _naming(path):
            yield fh
            fh.flush()
        return
    with cleanup_on_signals():
        try:
            fd, tmp = temp_file_beside(target, None if st is None else st.st_mode)
        except OSError as e:
            raise _named(e, path) from None
        try:
            with os.fdopen(fd, "wb") as fh, _naming(path):
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            with signals_held():
                try:
                    os.replace(tmp, target)
                except OSError as e:
                    raise _named(e, path) from None
        except BaseException:
            _unlink(tmp)
            raise


@contextmanager
def _naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """An :class:`OSError` of the block that names no file names ``path`` (the name the user gave)."""
    try:
        yield
    except OSError as e:
        if e.filename is not None:
            raise
        raise _named(e, path) from None


def atomic_write_many(files: Sequence[tuple[str | os.PathLike[str], bytes]]) -> None:
    """Replace several regular files together: either all of them change or none does (a
    stream of the process's own, see :func:`stream_fd`, is refused: it cannot take part)."""
    for path, _ in files:
        if len(files) > 1 and stream_fd(path) is not None:
            raise OSError(errno.EINVAL, "is a stream, not a file; these files are written together, give file names",
                          os.fspath(path))
    if len(files) == 1 and stream_fd(files[0][0]) is not None:
        atomic_write_bytes(*files[0])
        return
    targets = [(path, *write_target(path), data) for path, data in files]
    for path, _, st, _ in targets:
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"is {file_type_name(st.st_mode)}, not a file; refusing to replace it",
                          os.fspath(path))
    temps: list[str] = []
    with cleanup_on_signals():
        try:
            for path, target, st, data in targets:
                temps.append(_write_temp(path, target, st, data))
            with signals_held():
                _rename_all(targets, temps)
        except BaseException:
            for tmp in temps:
                _unlink(tmp)
            raise


def _rename_all(targets: list[tuple[str | os.PathLike[str], Path, os.stat_result | None, bytes]],
                temps: list[str]) -> None:
    """Rename every temp over its target; on a failure put back the ones already renamed."""
    backups: list[str | None] = []
    try:
        for path, target, st, _ in targets:
            if len(targets) > 1 and st is not None:
                backups.append(_backup(path, target))
            else:
                backups.append(None)
        done = 0
        try:
            for (path, target, _, _), tmp in zip(targets, temps):
                try:
                    os.replace(tmp, target)
                except OSError as e:
                    raise _named(e, path) from None
                done += 1
        except BaseException:
            for i in range(done):
                _, target, st, _ = targets[i]
                b = backups[i]
                if b is not None:
                    os.replace(b, target)
                    backups[i] = None
                elif st is None:
                    _unlink(str(target))
            raise
    finally:
        for b in backups:
            if b is not None:
                _unlink(b)


def _backup(path: str | os.PathLike[str], target: Path) -> str:
    """A hard link to the current ``target`` (costs no space), to restore it if needed."""
    folder = target.parent if str(target.parent) else Path(".")
    for _ in range(100):
        name = os.path.join(folder, f".{target.name}.{os.urandom(4).hex()}.bak")
        try:
            os.link(target, name)
            return name
        except FileExistsError:
            continue
        except OSError as e:
            raise _named(e, path) from None
    raise OSError(errno.EEXIST, "cannot make a backup name", os.fspath(path))  # pragma: no cover


def output_path(path: str) -> str:
    """An output argument as a path to write: ``-`` is standard output (``/dev/stdout``)."""
    return "/dev/stdout" if path == "-" else path


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name the same file (also through links); False if either is missing."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def refuse_overwrite(outputs: Sequence[str | os.PathLike[str]], inputs: Sequence[str | os.PathLike[str]]) -> None:
    """Raise :class:`InputError` if writing ``outputs`` would replace one of the ``inputs``."""
    for out in outputs:
        for src in inputs:
            if same_file(out, src):
                raise InputError("refusing to overwrite an input file; choose another output", os.fspath(out))


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    atomic_write_bytes(path, text.encode("utf-8"))


def read_bytes(path: str | os.PathLike[str], error: type[InputError] = InputError,
               limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else (a device, a named
    pipe, a folder, a bigger file) is one clear :class:`InputError` line.  Never blocks on a
    pipe, never reads more than ``limit + 1`` bytes."""
    spath = os.fspath(path)
    try:
        fd = os.open(spath, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error("no such file", file=spath) from None
    except IsADirectoryError:
        raise error("is a folder, expected a file", file=spath) from None
    except (OSError, ValueError) as e:
        msg = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise error(f"cannot read: {msg}", file=spath) from None
    try:
        st = os.fstat(fd)
    except OSError as e:  # pragma: no cover - fstat of an open descriptor
        os.close(fd)
        raise error(f"cannot read: {e.strerror or e}", file=spath) from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error("is a folder, expected a file", file=spath)
        raise error(f"is {file_type_name(st.st_mode)}, not a regular file; give a file", file=spath)
    try:
        data = _read_fd(fd, st.st_size, limit)
    except OSError as e:
        raise error(f"cannot read: {e.strerror or e}", file=spath) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise error(f"is larger than {_size(limit)}, the most sy-tools reads from such a file", file=spath)
    return data


def _size(n: int) -> str:
    """A size limit in words: "64 MiB", "1 MiB", "512 KiB", "100 bytes"."""
    for unit, name in ((1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n} bytes"


def _read_fd(fd: int, size: int, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of an open regular file whose size was ``size`` (it may have
    changed since): straight from the descriptor, without a buffered file object (a batch reads
    thousands of small files)."""
    want = min(size, limit) + 1
    parts = [os.read(fd, want)]
    got = len(parts[0])
    if got < want:  # a regular file read short: its end (a batch of small files saves a call each)
        return parts[0]
    while parts[-1] and got <= limit:
        parts.append(os.read(fd, min(limit + 1 - got, 1 << 20)))
        got += len(parts[-1])
    return b"".join(parts)


def read_text(path: str | os.PathLike[str], error: type[InputError] = InputError,
              limit: int = MAX_READ_BYTES) -> str:
    """Read a UTF-8 text file of at most ``limit`` bytes (see :func:`read_bytes`); any failure
    becomes one clear :class:`InputError` line."""
    data = read_bytes(path, error, limit)
    spath = os.fspath(path)
    if b"\x00" in data:
        raise error("is a binary file, expected text", file=spath)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(f"is not UTF-8 text (byte {e.start})", file=spath) from None
    return text
