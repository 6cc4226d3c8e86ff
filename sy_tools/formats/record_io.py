"""Reading game records from files or text, in either format (game.json or the notation)."""

from __future__ import annotations

import json
import os

from ..errors import RecordError
from . import jsonutil
from .files import read_text
from .game_fast import fast_record
from .game_json import parse_record, record_json_text
from .notation import notation_places, to_notation
from .record import Record, record_map_path


def load_record(path: str | os.PathLike[str], fast: bool = False) -> Record:
    """Read a record file: ``.json`` (game.json v1) or the text notation (anything else).
    ``fast``: see :func:`parse_record_json` (same record, same errors; worth it for batches)."""
    name = os.fspath(path)
    return parse_record_text(read_text(name, RecordError), name, fast)


def is_json_record(text: str, file: str | None) -> bool:
    """Whether a record file holds game.json (named ``.json``, or text that opens with ``{``)
    rather than the text notation."""
    return (file or "").lower().endswith(".json") or text.lstrip().startswith("{")


def parse_record_text(text: str, file: str | None = None, fast: bool = False) -> Record:
    """A record file's text, game.json or the notation (see :func:`is_json_record`)."""
    if is_json_record(text, file):
        return parse_record_json(text, file, fast)
    doc, places = notation_places(text, file)
    return parse_record(doc, file, places)


def parse_record_json(text: str, file: str | None = None, fast: bool = False) -> Record:
    """Parse game.json text.  ``fast``: try the fast path first (:func:`fast_record`, for
    batches); whatever it can't vouch for goes to the collecting parser, which names every
    problem."""
    if fast:
        rec = fast_record(text, file)
        if rec is not None:
            return rec
    try:
        doc = jsonutil.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})", file) from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply", file) from None
    return parse_record(doc, file)


def record_input_files(path: str, record: Record) -> list[str]:
    """The files a record read from ``path`` was made from: the record and its map's files
    (what an output must never replace)."""
    from .map_write import source_files

    return [path, *map(str, source_files(record_map_path(record.map_spec, path)))]


def record_text(record: Record, dest: str) -> str:
    """``record`` as a file named ``dest`` holds it: game.json for a ``.json`` name, else the
    text notation, a relative map path rewritten for ``dest``'s folder (``record convert`` and
    ``play`` write records so)."""
    return record_json_text(record, dest) if dest.lower().endswith(".json") else to_notation(record, dest)
