"""``sy-tools play``: a game at the table, move by move, and against the computer.

* :mod:`~sy_tools.play.session`: the game being played (:class:`Session`): typed moves judged
  by the referee, undo and redo, the public record and Mr. X's secret log written after every
  move, the computer's turns.
* :mod:`~sy_tools.play.setup`: a new game (dealt or given start cards) or a resumed one.
* :mod:`~sy_tools.play.console`: the commands a typed line may be (:class:`Console`).
* :mod:`~sy_tools.play.report`: the block after each round, the history, the routes.
* :mod:`~sy_tools.play.terminal`: the interactive prompt (prompt_toolkit).

A scripted game, from Python::

    from sy_tools.play import Console, new_game, run_lines
    session, notes = new_game("g.txt", board, "london", rules, detectives=[("Red", 13)])
    console = Console(session, print, print)
    console.start(notes)
    run_lines(console, ["X T", "Red T 23"])
"""

from __future__ import annotations

from .console import COMMANDS, Console, run_lines
from .session import COMPUTER_SIDES, DEFAULT_THINK, Ply, Refused, Session, detective_choice
from .setup import new_game, resume_game

__all__ = ["COMMANDS", "COMPUTER_SIDES", "DEFAULT_THINK", "Console", "Ply", "Refused", "Session", "detective_choice",
           "new_game", "resume_game", "run_lines"]
