"""sy-tools: analyse and solve Scotland Yard positions.

The library behind the ``sy-tools`` command::

    from sy_tools import load_board, load_record, possible, check, Game, Position
    from sy_tools.solvers.cordon import cordon

    record = load_record("examples/in-progress.json")
    possible(record, history=True).ranked()[:5]
    check(record).status.describe()
    cordon(record, moves=1).plan

The package is a folder per layer, and data flows one way through them: :mod:`.engine` (the
board, tickets, rules, moves, :class:`Position`, what each side sees) -> :mod:`.formats` (files,
maps, game records) -> :mod:`.analysis` (the possible-set tracker, the referee, routes, reach,
legal moves) -> :mod:`.solvers` (cordon, forced wins, advice) and :mod:`.selfplay` (policies,
games, the runner) -> :mod:`.plot` (pictures, imported on demand: it loads matplotlib) and
:mod:`.cli`.  :mod:`.errors` and :mod:`.findings` are the vocabulary every layer reports in.
The flat module names of 0.1 (``sy_tools.cordon``, ``sy_tools.position``, ...) still import,
as aliases for one release (:mod:`._moved`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _moved

if TYPE_CHECKING:
    from .analysis.possible import possible
    from .analysis.referee import check
    from .engine.board import Board, Connection
    from .engine.game import Game
    from .engine.hops import MRX
    from .engine.moves import Move, Outcome, OutcomeKind
    from .engine.position import Position
    from .engine.rules import PRESETS, Rules
    from .engine.stations import Station, StationMask, StationSet
    from .engine.tickets import Ticket, Tickets, Transport
    from .errors import AnalysisError, InputError, MapError, RecordError, SyToolsError
    from .findings import Finding, Location
    from .formats.map_check import validate_map
    from .formats.map_load import load_board
    from .formats.record import Record
    from .formats.record_io import load_record

_moved.install()

# Names are imported when first used, so that ``sy-tools`` (and ``import sy_tools.errors``)
# start fast: a batch of small records is dominated by start-up otherwise.
_LAZY = {
    "Board": "engine.board", "Connection": "engine.board", "Game": "engine.game", "Station": "engine.stations",
    "StationMask": "engine.stations", "StationSet": "engine.stations", "Ticket": "engine.tickets",
    "Transport": "engine.tickets", "Tickets": "engine.tickets", "MRX": "engine.hops", "Move": "engine.moves",
    "Outcome": "engine.moves", "OutcomeKind": "engine.moves", "Position": "engine.position",
    "PRESETS": "engine.rules", "Rules": "engine.rules", "AnalysisError": "errors", "InputError": "errors",
    "MapError": "errors", "RecordError": "errors", "SyToolsError": "errors", "Finding": "findings",
    "Location": "findings", "Record": "formats.record", "load_record": "formats.record_io",
    "load_board": "formats.map_load", "validate_map": "formats.map_check", "check": "analysis.referee",
    "possible": "analysis.possible",
}

#: The subpackages, imported on first use as attributes (``sy_tools.plot``).
_PACKAGES = ("engine", "formats", "analysis", "solvers", "selfplay", "plot", "cli")


def __getattr__(name: str) -> Any:
    import importlib

    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    elif name in _PACKAGES or name in _moved.MOVED:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'sy_tools' has no attribute {name!r}")
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
    "Game",
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
