"""The choices and defaults of a ``play`` session, apart from the session itself so that the
command line reads them without importing it."""

from __future__ import annotations

#: The sides the computer can play (``--computer``).
COMPUTER_SIDES = ("mrx", "detectives")

#: Seconds the computer thinks per move by default (``--think``).
DEFAULT_THINK = 3.0
