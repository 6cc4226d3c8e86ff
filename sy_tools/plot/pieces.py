"""What a picture tells about the pieces of a record: the detectives' trails, who is stranded,
and Mr. X's true route when the record holds it (a full record)."""

from __future__ import annotations

from ..engine.stations import Station
from ..formats.record import Record


def detective_trails(record: Record) -> dict[str, list[Station]]:
    """Each detective's stations in order: its start, then where each of its moves took it."""
    trails = {d.name: [d.start] for d in record.detectives}
    for rnd in record.rounds:
        for m in rnd.detectives:
            if m.name in trails:
                trails[m.name].append(m.to)
    return trails


def stuck_detectives(record: Record) -> tuple[str, ...]:
    """The detectives stranded where the record leaves them: still in the game but holding no
    ticket for any way out of their station (other pieces ignored: a blocked way opens again)."""
    from ..analysis.referee import check
    from ..engine.hops import detective_hops

    pos = check(record).position
    if pos is None:
        return ()
    return tuple(n for n, s, t in zip(pos.names, pos.stations, pos.tickets)
                 if n not in pos.out and next(detective_hops(record.board, s, t), None) is None)


def true_route(record: Record) -> tuple[Station, ...] | None:
    """Mr. X's station after each of his moves when the record holds every one (a full record,
    e.g. one ``simulate --records`` wrote), else None."""
    route = [m.to for rnd in record.rounds for m in rnd.mrx]
    if not route or any(s is None for s in route) or not record.is_full:
        return None
    return tuple(s for s in route if s is not None)
