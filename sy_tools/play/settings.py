"""The choices and defaults of a ``play`` session, apart from the session itself so that the
command line reads them without importing it."""

from __future__ import annotations

from ..formats.play_header import PLAY_DEFAULT_LEVEL, PLAY_LEVELS, PLAY_SIDES

#: The sides the computer can play (``--computer``): Mr. X, the detectives, or both (a game
#: the table watches).
COMPUTER_SIDES = PLAY_SIDES

#: The computer's strengths (``--level``), weakest first.
LEVELS = PLAY_LEVELS

#: The computer's strength by default.
DEFAULT_LEVEL = PLAY_DEFAULT_LEVEL

#: Seconds the computer thinks per move by default (``--think``).
DEFAULT_THINK = 3.0

#: Seconds between the computer's moves when it plays both sides, by default (``--pace``).
DEFAULT_PACE = 1.0

#: The longest line a session reads (characters); a longer one is refused whole.
MAX_LINE = 4096
