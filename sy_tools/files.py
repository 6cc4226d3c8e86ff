"""Small file helpers: atomic writes, friendly reads."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import InputError


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so
    a reader never sees a half-written file and a failed write leaves the old file intact."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir() or str(path).endswith(("/", os.sep)):
        raise IsADirectoryError(21, "is a folder, expected a file name", str(path))
    if not folder.is_dir():
        raise FileNotFoundError(2, "no such folder to write into", str(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(path)) from None
    try:
        # mkstemp makes the file private (0600); give it the mode a plain open() would
        try:
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name the same file (also through links); False if either is missing."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def refuse_overwrite(outputs: list[Path], inputs: list[Path]) -> None:
    """Raise :class:`InputError` if writing ``outputs`` would replace one of the ``inputs``."""
    for out in outputs:
        for src in inputs:
            if same_file(out, src):
                raise InputError("refusing to overwrite an input file; choose another output", str(out))


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    atomic_write_bytes(path, text.encode("utf-8"))


def read_text(path: str | os.PathLike[str], error: type[InputError] = InputError) -> str:
    """Read a UTF-8 text file; any failure becomes one clear :class:`InputError` line."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise error("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise error("is a folder, expected a file", file=str(path)) from None
    except OSError as e:
        raise error(f"cannot read: {e.strerror or e}", file=str(path)) from None
    if b"\x00" in data:
        raise error("is a binary file, expected text", file=str(path))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(f"is not UTF-8 text (byte {e.start})", file=str(path)) from None
    return text
