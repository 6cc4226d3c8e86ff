"""sy-tools: analyse and solve Scotland Yard positions.

The library behind the ``sy-tools`` command::

    from sy_tools import load_board, load_record, possible, check, Position
    import sy_tools.cordon

    record = load_record("examples/in-progress.json")
    possible(record, history=True).ranked()[:5]
    check(record).status.describe()
    sy_tools.cordon.cordon(record, moves=1).plan

The package exposes each module under its own name (``sy_tools.cordon`` is the module, never a
function of it).  Pictures live in :mod:`sy_tools.plot` (imported on demand: it loads
matplotlib).
"""

from __future__ import annotations

from .board import Board, Connection, Station, StationMask, StationSet, Ticket, Transport
from .errors import AnalysisError, InputError, MapError, RecordError, SyToolsError
from .position import MRX, Move, Outcome, OutcomeKind, Position, Tickets
from .record import Record, load_record
from .referee import check
from .rules import PRESETS, Rules
from .tracker import possible
from .validate import load_board, validate_map

__version__ = "0.1.0"

__all__ = [
    "MRX",
    "PRESETS",
    "AnalysisError",
    "Board",
    "Connection",
    "InputError",
    "MapError",
    "Move",
    "Outcome",
    "OutcomeKind",
    "Position",
    "Record",
    "RecordError",
    "Rules",
    "Station",
    "StationMask",
    "StationSet",
    "SyToolsError",
    "Ticket",
    "Tickets",
    "Transport",
    "check",
    "load_board",
    "load_record",
    "possible",
    "validate_map",
]
