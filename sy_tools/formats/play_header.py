"""A record's ``play`` header: how ``sy-tools play`` (and ``serve``) set the game up, so that a
plain ``sy-tools play GAME`` resumes exactly that game.

In game.json it is the object ``"play": {"computer": "mrx", "level": "normal", "mrx_log":
"game.mrx.txt", "think": 3, "pace": 1}``; in the text notation one line a field,
``play computer mrx``.  Every field is optional:

* ``computer``: the side the computer plays (:data:`PLAY_SIDES`); absent: people play both.
* ``level``: the computer's strength (:data:`PLAY_LEVELS`).
* ``mrx_log``: Mr. X's log, relative to the record's folder (the public record only).
* ``think``: seconds the computer and the analysis commands may think a move (above 0).
* ``pace``: seconds between the computer's moves when it plays both sides (0 or more).
* ``seed``: the computer's own seed (from 0 to 2**63 - 1).  It decides what only Mr. X may
  know (his dealt start card, the computer's choices), so it is kept in his log alone:
  :func:`public_header` drops it, and the public record never holds it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.budget import MAX_SECONDS
from . import jsonutil

#: The sides the computer can play (``play --computer``).
PLAY_SIDES = ("mrx", "detectives", "both")

#: The computer's strengths (``play --level``), weakest first.
PLAY_LEVELS = ("easy", "normal", "hard")

#: The level the computer plays at unless told otherwise.
PLAY_DEFAULT_LEVEL = "normal"

#: The header's fields, in the order they are written.
PLAY_FIELDS = ("computer", "level", "mrx_log", "think", "pace", "seed")

#: The fields only Mr. X's log holds.
SECRET_FIELDS = frozenset({"seed"})


_SEED_MAX = 2**63 - 1


def _seconds(value: Any, low_open: bool) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"expected a number of seconds, got {jsonutil.show(value)}"
    if not math.isfinite(value) or value < 0 or (low_open and value == 0) or value > MAX_SECONDS:
        low = "above 0" if low_open else "from 0"
        return f"expected seconds {low} to {MAX_SECONDS:g}, got {jsonutil.show(value)}"
    return None


def _problem(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for the field ``key`` (None: nothing)."""
    if key == "computer" and value not in PLAY_SIDES:
        return f"expected one of {', '.join(PLAY_SIDES)}, got {jsonutil.show(value)}"
    if key == "level" and value not in PLAY_LEVELS:
        return f"expected one of {', '.join(PLAY_LEVELS)}, got {jsonutil.show(value)}"
    if key == "mrx_log":
        if not isinstance(value, str) or not value or "\0" in value or not value.isprintable():
            return f"expected the log's path relative to the record, got {jsonutil.show(value)}"
        return None
    if key == "think":
        return _seconds(value, True)
    if key == "pace":
        return _seconds(value, False)
    if key == "seed" and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _SEED_MAX):
        return f"expected a seed from 0 to {_SEED_MAX}, got {jsonutil.show(value)}"
    return None


def read_play_header(value: Any, where: str, bad: Callable[[str, str], None]) -> dict[str, Any] | None:
    """The ``play`` header ``value`` of a record checked field by field (``bad(where, message)``
    for each problem); the header with its fields in :data:`PLAY_FIELDS` order, or None when it
    is not an object."""
    if not isinstance(value, dict):
        bad(where, f"expected an object of play settings, got {jsonutil.json_type_name(value)}")
        return None
    out: dict[str, Any] = {}
    for k in value:
        if k not in PLAY_FIELDS:
            bad(f"{where}.{k}", f"unknown play setting {jsonutil.show(k)} (expected {', '.join(PLAY_FIELDS)})")
    for k in PLAY_FIELDS:
        if k in value:
            problem = _problem(k, value[k])
            if problem:
                bad(f"{where}.{k}", problem)
            else:
                out[k] = value[k]
    return out


def public_header(header: Mapping[str, Any]) -> dict[str, Any]:
    """The header as the public record may hold it: without :data:`SECRET_FIELDS`."""
    return {k: v for k, v in header.items() if k not in SECRET_FIELDS}


def notation_value(key: str, word: str) -> Any:
    """A ``play KEY VALUE`` line's value, typed as game.json holds it (the record's reader
    then checks it as it checks game.json's)."""
    if key in ("think", "pace"):
        try:
            return float(word) if any(c in word for c in ".eE") else int(word)
        except ValueError:
            return word
    if key == "seed" and word.isascii() and word.isdigit() and len(word) <= 19:
        return int(word)
    return word


def notation_text(value: Any) -> str:
    """A field's value as a ``play`` line writes it (``3``, ``1.5``, ``mrx``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
