"""What ``play`` shows the table: the block after each round, the history and the routes.

Everything here is drawn from the detectives' record (what the whole table may see), except
:func:`routes` at the end of a game, which shows Mr. X's route from his log."""

from __future__ import annotations

from ..analysis.distances import distances
from ..analysis.possible import possible
from ..engine.hops import MRX
from ..engine.tickets import DETECTIVE_TICKET_KINDS, TICKET_LETTERS
from ..formats.output import table
from ..formats.record import MrXMove, Record
from ..formats.report_text import plural

#: How many of his most likely stations the round block names.
LIKELY = 5


def round_block(public: Record) -> str:
    """The short block the table reads after a round: the moment and the next reveal, how many
    stations Mr. X may be at and the likeliest few, each player's tickets and each detective's
    distance (in hops) to the nearest station he may be at.  Drawn from ``public`` alone."""
    from ..analysis.referee import check

    where = possible(public)
    pos = check(public).position
    assert pos is not None
    lines = [where.moment_text()]
    n = len(where.stations)
    likely = ", ".join(f"{s} ({p:.0%})" for s, p in where.ranked()[:LIKELY])
    more = "" if n <= LIKELY else ", ..."
    lines.append(f"Mr. X may be at {plural(n, 'station')}" + (f": {likely}{more}" if n else ""))
    dist = distances(public.board)
    rows: list[list[object]] = []
    for name, at, tk in zip(pos.names, pos.stations, pos.tickets):
        near = min(((dist[at][s], s) for s in where.stations), default=None)
        gap = "-" if near is None else f"{plural(near[0], 'hop')} (to {near[1]})"
        if name in pos.out:
            gap = "out (no move left)"
        rows.append([name, at, *(tk[k] for k in DETECTIVE_TICKET_KINDS), "", "", gap])
    mt = pos.mrx_tickets
    rows.append(["Mr. X", "?", mt.taxi, mt.bus, mt.underground, mt.black, mt.double, ""])
    lines.append(table(["player", "at", *DETECTIVE_TICKET_KINDS, "black", "double", "nearest possible"], rows,
                       right=[False, True, True, True, True, True, True, False]))
    return "\n".join(lines)



def _hop(m: MrXMove) -> str:
    text = TICKET_LETTERS[m.ticket] + (f" {m.to}" if m.to is not None else "")
    return text + ("" if m.took is None else f" show {m.took[0]} {TICKET_LETTERS[m.took[1]]}")


def mrx_entry_text(legs: tuple[MrXMove, ...]) -> str:
    """Mr. X's turn in the notation's words: ``T``, ``U 46``, ``2X T/K``, ``-`` (a pass)."""
    if not legs:
        return "-"
    return _hop(legs[0]) if len(legs) == 1 else "2X " + "/".join(_hop(m) for m in legs)


def history_text(record: Record) -> str:
    """The rounds so far as a table: Mr. X's entry and each detective's, in the notation's words
    (a hidden station shows only if ``record`` holds it)."""
    names = [d.name for d in record.detectives]
    rows: list[list[object]] = []
    for i, rnd in enumerate(record.rounds, 1):
        moved = {m.name: TICKET_LETTERS[m.ticket] + f" {m.to}" + ("!" if m.capture else "") for m in rnd.detectives}
        rows.append([i, mrx_entry_text(rnd.mrx), *(moved.get(n, "") for n in names)])
    if not rows:
        return "no moves yet"
    return table(["round", "Mr. X", *names], rows, right=[True] + [False] * (len(names) + 1))


def routes(record: Record, mrx: bool) -> str:
    """Every player's route (``Red: 13 -T-> 23 -T-> 37``); Mr. X's when ``mrx`` (his log is
    kept), as far as the record knows his stations."""
    lines = []
    if mrx and record.mrx_start is not None:
        hops = [f"-{TICKET_LETTERS[m.ticket]}-> {m.to if m.to is not None else '?'}"
                for rnd in record.rounds for m in rnd.mrx]
        lines.append(f"Mr. X: {record.mrx_start} " + " ".join(hops))
    for d in record.detectives:
        hops = [f"-{TICKET_LETTERS[m.ticket]}-> {m.to}" for rnd in record.rounds for m in rnd.detectives
                if m.name == d.name]
        lines.append(f"{d.name}: {d.start} " + " ".join(hops))
    return "\n".join(line.rstrip() for line in lines)


def who(piece: str | None) -> str:
    """A piece as the prompt names it."""
    return "Mr. X" if piece == MRX else str(piece)
