"""``sy-tools play``: a game at the table, move by move, and against the computer.

* :mod:`~sy_tools.play.session`: the game being played (:class:`Session`): typed moves judged
  by the referee, undo and redo, the public record and Mr. X's secret log written after every
  move, the computer's turns.
* :mod:`~sy_tools.play.setup`: a new game (dealt or given start cards) or a resumed one.
* :mod:`~sy_tools.play.console`: the commands a typed line may be (:class:`Console`).
* :mod:`~sy_tools.play.report`: the block after each round, the history, the routes.
* :mod:`~sy_tools.play.terminal`: the interactive prompt (prompt_toolkit).
* :mod:`~sy_tools.play.settings`: the computer's sides and thinking time by default.

A scripted game, from Python::

    from sy_tools.play import Console, new_game, run_lines
    session, notes = new_game("g.txt", board, "london", rules, detectives=[("Red", 13)])
    console = Console(session, print, print)
    console.start(notes)
    run_lines(console, ["X T", "Red T 23"])
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> the module that holds it (imported when first asked for: the command line
#: reads :mod:`.settings` without loading the session)
_WHERE = {"COMMANDS": "console", "Console": "console", "run_lines": "console",
          "COMPUTER_SIDES": "settings", "DEFAULT_THINK": "settings",
          "Ply": "session", "Refused": "session", "Session": "session", "detective_choice": "session",
          "new_game": "setup", "resume_game": "setup"}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
