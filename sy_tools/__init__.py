"""sy-tools: analyse and solve Scotland Yard positions.

The library behind the ``sy-tools`` command::

    from sy_tools import load_board, load_record, possible, check, cordon

    record = load_record("examples/in-progress.json")
    possible(record, history=True).ranked()[:5]
    check(record).status.describe()
    cordon(record, moves=1).plan

Pictures live in :mod:`sy_tools.plot` (imported on demand: it loads matplotlib).
"""

from __future__ import annotations

from .board import Board, Connection, Station, StationMask, Ticket, Transport
from .cordon import cordon, puzzle
from .errors import AnalysisError, InputError, MapError, RecordError, SyToolsError
from .record import Record, load_record
from .referee import check
from .rules import PRESETS, Rules
from .tracker import possible
from .validate import load_board, validate_map

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "AnalysisError",
    "Board",
    "Connection",
    "InputError",
    "MapError",
    "Record",
    "RecordError",
    "Rules",
    "Station",
    "StationMask",
    "SyToolsError",
    "Ticket",
    "Transport",
    "check",
    "cordon",
    "load_board",
    "load_record",
    "possible",
    "puzzle",
    "validate_map",
]
