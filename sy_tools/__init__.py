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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .board import Board, Connection, Station, StationMask, StationSet, Ticket, Transport
    from .errors import AnalysisError, InputError, MapError, RecordError, SyToolsError
    from .findings import Finding, Location
    from .mapio import load_board
    from .position import MRX, Move, Outcome, OutcomeKind, Position, Tickets
    from .record import Record, load_record
    from .referee import check
    from .rules import PRESETS, Rules
    from .tracker import possible
    from .validate import validate_map

# Names are imported when first used, so that ``sy-tools`` (and ``import sy_tools.errors``)
# start fast: a batch of small records is dominated by start-up otherwise.
_LAZY = {
    "Board": "board", "Connection": "board", "Station": "board", "StationMask": "board", "StationSet": "board",
    "Ticket": "board", "Transport": "board", "AnalysisError": "errors", "InputError": "errors",
    "MapError": "errors", "RecordError": "errors", "SyToolsError": "errors", "MRX": "position", "Move": "position",
    "Outcome": "position", "OutcomeKind": "position", "Position": "position", "Tickets": "position",
    "Record": "record", "load_record": "record", "check": "referee", "PRESETS": "rules", "Rules": "rules",
    "possible": "tracker", "load_board": "mapio", "validate_map": "validate", "Finding": "findings",
    "Location": "findings",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sy_tools' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__version__ = "0.1.0"

__all__ = [
    "AnalysisError",
    "Board",
    "Connection",
    "Finding",
    "InputError",
    "Location",
    "MRX",
    "MapError",
    "Move",
    "Outcome",
    "OutcomeKind",
    "PRESETS",
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
