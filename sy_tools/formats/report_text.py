"""Text for people shared by several ``--format text`` outputs: short station lists, counts
too large to print whole, the moment of a game a result speaks of, tickets left, a rules
preset.  A result with a text form of its own renders itself (``to_text()``) with these."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.tickets import MRX_TICKET_KINDS
from .output import table

#: Stations listed in short text output (``--all`` lists every one).
SHORT_LIST = 8

#: Route counts shown exactly in a table cell up to this many (larger: rounded to d.ddde+N).
EXACT_COUNT_LIMIT = 10**12


def station_preview(stations: Iterable[int], show_all: bool, n: int = SHORT_LIST) -> str:
    """Station numbers: all of them with ``show_all``, else the first ``n`` and a count of the rest."""
    stations = list(stations)
    if show_all or len(stations) <= n:
        return " ".join(map(str, stations))
    return " ".join(map(str, stations[:n])) + f" ... (+{len(stations) - n}; --all lists them)"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the word in the right number: "1 station", "44 stations", "1 hop", "2 moves"
    (``words``: the plural when it is not the word plus "s")."""
    return f"{n} {word if n == 1 else words or word + 's'}"


def count_cell(n: int) -> str:
    """A route count for a table cell: exact below :data:`EXACT_COUNT_LIMIT`, else rounded to
    d.ddde+N (of any size: a float would overflow past 1e308)."""
    if n < EXACT_COUNT_LIMIT:
        return str(n)
    from decimal import Decimal

    return format(Decimal(n), ".3e")


def tickets_left_text(tickets: Mapping[str, Mapping[str, int]]) -> str:
    """Tickets left, a line per player (a kind a player never holds is a blank cell)."""
    kinds = list(MRX_TICKET_KINDS)
    rows = [[name] + [str(t[k]) if k in t else "" for k in kinds] for name, t in tickets.items()]
    return "tickets left:\n" + table(["player"] + kinds, rows, right=[False] + [True] * len(kinds))


def rules_text(rules: Mapping[str, Any]) -> str:
    """A rules preset's ``to_dict()`` as a table of rule and value."""
    rows = []
    for k, v in rules.items():
        if isinstance(v, dict):
            v = ", ".join(f"{a} {b}" for a, b in v.items())
        elif isinstance(v, list):
            v = ", ".join(map(str, v))
        rows.append((k, str(v).lower() if isinstance(v, bool) else v))
    return table(["rule", "value"], rows, right=[False, False])


def moment_note(context: Mapping[str, Any]) -> str:
    """`` (round 3, after Mr. X's move 4; Red is to move)`` from a result's ``context`` (empty
    when it names no moment: a puzzle)."""
    if "when" not in context:
        return ""
    who = "Mr. X moves next" if context["to_move"] == "mrx" else f"{context['to_move']} is to move"
    return f" ({context['when']}; {who})"
