"""Result files: the CSV/parquet row writer, records of games, reading results back."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..engine.stations import Station
from ..errors import InputError
from .game import ROW_COLUMNS, GameResult, GameSpec
from .policies import safe_repr
from .stats import wilson


def win_rates_from_file(path: str) -> dict[Station, tuple[int, float, float, float]]:
    """Mr. X start station -> (games, win rate, 95% interval low, high) from a results file
    written by ``--out`` (``.csv`` or ``.parquet``): what a win-rate map of the board needs.
    Its columns ``mrx_start`` (a station: an integer) and ``mrx_won`` (a boolean: ``True`` or
    ``False``; in a CSV also ``true``/``1`` and ``false``/``0``) are read; any other value is an
    :class:`InputError` naming the row."""
    counts: dict[Station, list[int]] = {}
    if path.endswith(".parquet"):
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise InputError("reading .parquet needs pyarrow: pip install 'sy-tools[parquet]'", path) from None
        from ..formats.files import read_bytes

        read_bytes(path)  # a regular file of a sane size, or one clear line
        try:
            table = pq.read_table(path, columns=["mrx_start", "mrx_won"])
        except (OSError, ValueError, KeyError) as e:  # pyarrow's errors derive from these
            raise InputError(f"not a simulate results file: {safe_repr(e, error=True, limit=200)}", path) from None
        pairs: Iterable[tuple[str, Any, Any]] = (
            (f"row {i}", s, w) for i, (s, w) in enumerate(zip(table.column("mrx_start").to_pylist(),
                                                             table.column("mrx_won").to_pylist())))
    else:
        import csv
        import io

        from ..formats.files import read_text

        rows: list[tuple[str, Any, Any]] = []
        reader = csv.DictReader(io.StringIO(read_text(path)))
        try:
            for r in reader:
                w = r.get("mrx_won")
                rows.append((f"line {reader.line_num}", _csv_int(r["mrx_start"]),
                             True if w in ("True", "true", "1") else False if w in ("False", "false", "0") else w))
        except KeyError as e:
            raise InputError(f"not a simulate results file: no column {e}", path) from None
        except csv.Error as e:  # e.g. a cell larger than the csv module's field limit
            raise InputError(f"not a simulate results file: {safe_repr(e, error=True, limit=100)}", path,
                             f"line {reader.line_num + 1}") from None
        pairs = rows
    for where, start, won in pairs:
        if type(start) is not int or start < 0:
            raise InputError(f"mrx_start must be a station number, got {safe_repr(start, limit=40)}", path, where)
        if type(won) is not bool:
            raise InputError(f"mrx_won must be True or False, got {safe_repr(won, limit=40)}", path, where)
        c = counts.setdefault(start, [0, 0])
        c[0] += 1
        c[1] += bool(won)
    return {s: (n, w / n, *wilson(w, n)) for s, (n, w) in sorted(counts.items())}


def _csv_int(cell: Any) -> Any:
    """A CSV cell of ASCII digits as its integer (anything else as it is, for the error line)."""
    if isinstance(cell, str) and cell.isascii() and cell.isdigit() and len(cell) <= 18:
        return int(cell)
    return cell


class RowWriter:
    """Writes result rows to ``.csv`` or ``.parquet`` as they come (parquet in row groups of
    ``batch`` games; it needs pyarrow: ``pip install 'sy-tools[parquet]'``).

    Everything is checked when it is made (the name, pyarrow, the folder, that ``path`` is not
    one of ``inputs``); nothing is written before :meth:`open`.  Rows go to a temporary file
    beside the target (through a symbolic link, beside the file it names), renamed over it by
    :meth:`close`; :meth:`abort` (a failed or interrupted run) removes it, so the old file stays
    as it was.  A named pipe or a character device is written to directly (CSV only), and so is
    a stream of the process's own (``-``, ``/dev/stdout``, ``/dev/fd/N``: CSV whatever its name
    says, through the descriptor already open)."""

    def __init__(self, path: str, batch: int = 50_000, inputs: Sequence[str | os.PathLike[str]] = (),
                 stdout: Any = None, shown: str | None = None) -> None:
        from ..formats.files import file_type_name, refuse_overwrite, stream_fd, write_target

        self.path = name = path if shown is None else shown  # (what messages call it)
        self._stream = stream_fd(path) if path else None
        if self._stream == 1 and stdout is not None:  # standard output is the stream the caller holds for it
            self._stream = _descriptor(stdout)
        self.batch = batch
        self._rows: list[dict[str, Any]] = []
        self._writer: Any = None
        self._file: Any = None
        self._tmp: str | None = None
        if not path:
            raise InputError("expected a file name ending in .csv or .parquet, got ''", where="--out")
        if self._stream is not None:  # a stream: CSV, written as it comes (nothing to rename)
            self.kind, self._target, self._mode, self.special = "csv", Path(path), None, True
            return
        if path.endswith(".parquet"):
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise InputError("writing .parquet needs pyarrow: pip install 'sy-tools[parquet]' (or use .csv)",
                                 name) from None
            self.kind = "parquet"
        elif path.endswith(".csv"):
            self.kind = "csv"
        else:
            raise InputError("--out must end in .csv or .parquet", name)
        try:
            self._target, st = write_target(path)
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror or e}", name, "--out") from None
        self._mode = st.st_mode if st is not None else None
        self.special = st is not None and not stat.S_ISREG(st.st_mode)
        if st is not None and self.special:
            if not (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
                raise InputError(f"is {file_type_name(st.st_mode)}, not a file; refusing to write", name, "--out")
            if self.kind == "parquet":
                raise InputError(f"is {file_type_name(st.st_mode)}: parquet needs a regular file (write .csv to a pipe or "
                                 "device)", name, "--out")
        refuse_overwrite([path], inputs)

    def open(self) -> None:
        """Start writing (the temporary file, or the pipe or device itself)."""
        from ..formats.files import temp_file_beside

        try:
            if self._stream is not None:
                import sys

                for py in (sys.stdout, sys.stderr):  # (what Python holds for the stream goes first)
                    py.flush()
                fd = os.dup(self._stream)
            elif self.special:
                fifo = self._mode is not None and stat.S_ISFIFO(self._mode)
                try:
                    fd = os.open(self._target, os.O_WRONLY | (os.O_NONBLOCK if fifo else 0))
                except OSError as e:
                    if e.errno == errno.ENXIO:
                        raise InputError("a named pipe with no reader", self.path, "--out") from None
                    raise
                os.set_blocking(fd, True)
            else:
                fd, self._tmp = temp_file_beside(self._target, self._mode)
            if self.kind == "csv":
                self._file = os.fdopen(fd, "w", newline="", encoding="utf-8")
            else:
                self._file = os.fdopen(fd, "wb")
            if self.kind == "csv":
                import csv

                self._csv = csv.DictWriter(self._file, fieldnames=list(ROW_COLUMNS))
                self._csv.writeheader()
        except OSError as e:
            self.abort()
            raise InputError(f"cannot write: {e.strerror or e}", self.path, "--out") from None

    def write(self, g: GameResult) -> None:
        if self._file is None:
            self.open()
        try:
            if self.kind == "csv":
                self._csv.writerow(g.row())
                return
            self._rows.append(g.row())
            if len(self._rows) >= self.batch:
                self._flush()
        except OSError as e:
            raise OSError(e.errno, e.strerror or str(e), self.path) from None

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(self._rows, schema=_schema())
        if self._writer is None:
            self._writer = pq.ParquetWriter(self._file, table.schema)
        self._writer.write_table(table)
        self._rows = []

    def close(self) -> None:
        """Finish: the rows so far become the file (the temporary file is renamed over it)."""
        from ..formats.files import signals_held

        if self._file is None:
            self.open()
        try:
            if self.kind == "parquet":
                if self._rows or self._writer is None:
                    self._flush()
                self._writer.close()
            self._file.flush()
            if self._tmp is not None:
                os.fsync(self._file.fileno())
            self._file.close()
            if self._tmp is not None:
                with signals_held():
                    os.replace(self._tmp, self._target)
                    self._tmp = None
        except OSError as e:
            self.abort()
            raise OSError(e.errno, e.strerror or str(e), self.path) from None

    def abort(self) -> None:
        """Give up: remove the temporary file (the old file, if any, is untouched)."""
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None


def _descriptor(stream: Any) -> int:
    """The descriptor of a text stream standing for standard output (1 when it has none: a test
    runner's capture)."""
    try:
        return int(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return 1


def _schema() -> Any:
    import pyarrow as pa

    types = {"mrx_policy": pa.string(), "detective_policy": pa.string(), "detective_starts": pa.string(),
             "winner": pa.string(), "reason": pa.string(), "forfeit": pa.string(), "mrx_won": pa.bool_()}
    return pa.schema([(c, types.get(c, pa.int64())) for c in ROW_COLUMNS])


def input_files(spec: GameSpec, rules_file: str | None = None) -> list[str]:
    """The files a run reads (its map's, the rules file, the policies' source files): what its
    outputs must never replace."""
    from ..formats.map_write import source_files
    from .policies import policy_source

    out = [] if _builtin_map(spec.map) else [str(p) for p in source_files(spec.map)]
    if rules_file:
        out.append(rules_file)
    for p in (spec.mrx_policy, spec.detective_policy):
        src = policy_source(p)
        if src:
            out.append(src)
    return out


def _builtin_map(spec: str) -> bool:
    """Whether ``--map`` names a built-in map (as :func:`sy_tools.formats.map_load.load_board` decides)."""
    return spec == "london" and not os.path.exists(spec)

#: What :func:`write_record` names the records.
RECORD_NAME = re.compile(r"^game-([0-9]{7,})\.json$")


def records_dir(path: str, inputs: Sequence[str | os.PathLike[str]] = (), n: int | None = None) -> str:
    """Check and make ``--records``'s folder: an :class:`InputError` for an empty name, a file, a
    symbolic link to nothing, or a record name of the run (games 0 to ``n - 1``) that is one of
    ``inputs``."""
    from ..formats.files import same_file

    if not path:
        raise InputError("expected a folder name, got ''", where="--records")
    if os.path.islink(path) and not os.path.exists(path):
        raise InputError(f"is a symbolic link to {os.readlink(path)[:200]!r}, which does not exist; give a folder",
                         path, "--records")
    if os.path.exists(path) and not os.path.isdir(path):
        raise InputError("expected a folder for the records, but this is a file", path, "--records")
    if os.path.isdir(path) and inputs:
        try:
            names = os.listdir(path)
        except OSError as e:
            raise InputError(f"cannot read the folder: {e.strerror or e}", path, "--records") from None
        for name in names:
            m = RECORD_NAME.match(name)
            if m is None or (n is not None and int(m.group(1)) >= n):
                continue
            entry = os.path.join(path, name)
            for src in inputs:
                if same_file(entry, src):
                    raise InputError(f"refusing to overwrite an input ({os.fspath(src)}) with a record; choose "
                                     "another folder", entry, "--records")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the folder: {e.strerror or e}", path, "--records") from None
    return path


def record_map(map_spec: str, directory: str) -> str:
    """The ``map`` a record in ``directory`` names for ``--map map_spec``: the built-in name, or
    the map's path relative to the folder (a record's map path is read relative to the record),
    absolute where no relative path exists."""
    if _builtin_map(map_spec):
        return map_spec
    target = os.path.abspath(map_spec)
    try:
        rel = os.path.relpath(target, os.path.abspath(directory))
    except ValueError:  # pragma: no cover - another drive (Windows)
        return target
    return rel if ":" not in rel else target


def write_record(directory: str, g: GameResult, map_spec: str | None = None) -> None:
    """Write game ``g``'s record as ``DIRECTORY/game-NNNNNNN.json`` (its ``map`` set to
    ``map_spec``, e.g. from :func:`record_map`, when given)."""
    from ..formats.files import atomic_write_text
    from ..formats.output import dumps

    if g.record is not None:
        doc = g.record if map_spec is None else {**g.record, "map": map_spec}
        atomic_write_text(os.path.join(directory, f"game-{g.game:07d}.json"), dumps(doc) + "\n")
