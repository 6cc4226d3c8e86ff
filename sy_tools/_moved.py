"""The modules of the flat 0.1 layout, kept as aliases for one release.

``import sy_tools.cordon`` (or ``sy_tools.position``, ``sy_tools.simulate``, ...) still works:
it gives a module that looks each name up in the modules that hold it now, and warns once
with a :class:`DeprecationWarning` naming the new place.  New code imports from the
subpackages (``sy_tools.solvers.cordon``, ``sy_tools.engine.position``, ...).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
import warnings
from typing import Any

#: old module -> the modules that hold its names now, the main one first
MOVED: dict[str, tuple[str, ...]] = {
    "board": ("engine.board", "engine.stations", "engine.tickets"),
    "rules": ("engine.rules", "formats.rules_file"),
    "movement": ("engine.hops",),
    "options": ("cli.options",),
    "position": ("engine.position", "engine.tickets", "engine.moves", "engine.hops", "engine.playout",
                 "engine.rules", "solvers.puzzles"),
    "files": ("formats.files",),
    "jsonutil": ("formats.jsonutil",),
    "output": ("formats.output",),
    "mapio": ("formats.maps", "formats.raw_map", "formats.map_json", "formats.map_text", "formats.map_write",
              "formats.map_load"),
    "validate": ("formats.map_check", "formats.map_load"),
    "record": ("formats.record", "formats.record_io", "formats.game_json", "formats.game_fast", "formats.notation"),
    "tracker": ("analysis.possible", "analysis.tracker", "analysis.weights"),
    "batch": ("analysis.batch",),
    "route": ("analysis.route",),
    "reach": ("analysis.reach",),
    "mapstats": ("analysis.mapstats",),
    "moves": ("analysis.legal", "analysis.record_position"),
    "referee": ("analysis.referee",),
    "cordon": ("solvers.cordon", "solvers.cordon_result", "solvers.cordon_model", "solvers.seal"),
    "solve": ("solvers.forced", "solvers.forced_search", "solvers.forced_tree", "solvers.puzzles"),
    "advise": ("solvers.advise", "solvers.advice", "solvers.belief", "engine.observations", "selfplay.policies",
               "solvers.forced_hook"),
    "policies": ("selfplay.policies", "engine.observations", "analysis.distances"),
    "simulate": ("selfplay.runner", "selfplay.game", "selfplay.stats", "selfplay.results", "selfplay.generate"),
}

#: (old module, old name) -> (new module, new name), for names that changed
RENAMED: dict[tuple[str, str], tuple[str, str]] = {
    ("cordon", "solve"): ("solvers.cordon_model", "solve_cordon"),
    ("cordon", "puzzle"): ("solvers.cordon", "cordon_puzzle"),
    ("cordon", "MAX_TIME_LIMIT"): ("engine.budget", "MAX_SECONDS"),
    ("cordon", "check_time_limit"): ("engine.budget", "check_time_limit"),
    ("solve", "puzzle"): ("solvers.forced", "solve_puzzle"),
    ("advise", "puzzle_position"): ("solvers.advise", "advise_puzzle_position"),
    ("solve", "record_position"): ("solvers.forced", "solve_inputs"),
    ("simulate", "parse_starts"): ("formats.values", "parse_starts"),
    ("simulate", "resolve_rules"): ("formats.rules_file", "load_rules"),
    ("policies", "advise_mrx"): ("selfplay.policies", "mrx_policy"),
    ("policies", "advise_detective"): ("selfplay.policies", "_advise_detective"),
}

#: (old module, old name) -> why it is gone (it restated a rule that now has one home)
REMOVED: dict[tuple[str, str], str] = {
    ("cordon", "can_double"): "the double-move rule lives in Position.can_double "
                              "(sy_tools.engine.position.double_allowed)",
}


def _lookup(old: str, name: str) -> Any:
    gone = REMOVED.get((old, name))
    if gone is not None:
        raise AttributeError(f"sy_tools.{old}.{name} was removed: {gone}")
    target = RENAMED.get((old, name))
    if target is not None:
        return getattr(importlib.import_module(f"sy_tools.{target[0]}"), target[1])
    for new in MOVED[old]:
        module = importlib.import_module(f"sy_tools.{new}")
        if name in vars(module):
            return vars(module)[name]
    raise AttributeError(f"module 'sy_tools.{old}' has no attribute {name!r}")


class _Alias:
    """A loader for the old names (the protocol duck-typed: importing ``importlib.abc`` for its
    base classes alone cost every command 15 ms of start-up)."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        old = spec.name.rpartition(".")[2]
        module = types.ModuleType(spec.name, f"Moved to sy_tools.{MOVED[old][0]} (alias for one release).")

        def __getattr__(name: str) -> Any:
            if name.startswith("__"):
                raise AttributeError(name)
            return _lookup(old, name)

        module.__getattr__ = __getattr__  # type: ignore[method-assign]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        old = module.__name__.rpartition(".")[2]
        warnings.warn(f"sy_tools.{old} is now sy_tools.{MOVED[old][0]} (and its neighbours); "
                      "the old name goes in the next release", DeprecationWarning, stacklevel=2)


class _Finder:
    """Finds the old module names (a meta path finder, duck-typed as :class:`_Alias` is)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        package, _, old = fullname.rpartition(".")
        if package != "sy_tools" or old not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias())  # type: ignore[arg-type]


def install() -> None:
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
