"""Seal geometry: exits, tickets after a move, the seal test and Mr. X's expansion."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ..engine.board import Board
from ..engine.hops import mrx_targets
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, Ticket, Tickets, Transport
from .cordon_result import Option


def held_tickets(mrx_tickets: Mapping[str, int]) -> tuple[Ticket, ...]:
    """The move tickets Mr. X holds at least one of."""
    return Tickets.of(mrx_tickets).held()


def exits(board: Board, station: Station, tickets: Iterable[Ticket], occupied: StationMask = 0,
          rules: Rules | None = None) -> StationMask:
    """Stations Mr. X can move to from ``station`` with ``tickets`` (the engine's
    :func:`~sy_tools.engine.hops.mrx_targets`), detectives' stations included; under
    ``rules.cutoff_escape`` the lines passing over a station of ``occupied`` are closed."""
    m = 0
    for t in tickets:
        m |= mrx_targets(board, 1 << station, t, occupied, rules, onto_detectives=True)
    return m


def distances_to(board: Board, goal: StationMask, tickets: Sequence[Ticket] = DETECTIVE_TICKETS) -> dict[Station, int]:
    """Fewest hops (any of ``tickets``, counts ignored) from every station to the nearest
    station of ``goal``."""
    out = {s: 0 for s in stations_of(goal)}
    seen = frontier = goal
    hops = 0
    while frontier:
        hops += 1
        frontier = board.step_any(frontier, tickets) & ~seen
        seen |= frontier
        for s in stations_of(frontier):
            out[s] = hops
    return out


def tickets_after(tickets: Sequence[Ticket], plan: Sequence[Option], tickets_to_mrx: bool = True,
                  taken: Iterable[Ticket] = ()) -> tuple[Ticket, ...]:
    """The kinds Mr. X holds once the detectives have played ``plan`` (their tickets go to him),
    plus ``taken`` (kinds he may take by voluntary reveals; :func:`takeable`)."""
    if not tickets_to_mrx:
        return tuple(tickets)
    used = {t for o in plan for t in o.tickets if t is not None} | set(taken)
    return tuple(t for t in Ticket if t in tickets or t in used)


def is_sealed(board: Board, p: Station, occupied: StationMask, tickets: Sequence[Ticket],
              rules: Rules | None = None) -> bool:
    """Whether Mr. X on ``p``, to move with ``tickets`` while detectives stand on ``occupied``,
    has lost: ``p`` is occupied (capture), or he has no move that keeps him free.  Without
    ``rules``: every exit of ``p`` is occupied.  With them, as the engine says: exits closed by
    the cut-off escape do not count, a trap without a legal move wins only when
    ``trapped_loses``, and under ``mrx_onto_detective: caught`` moving onto a detective is a
    capture."""
    if occupied >> p & 1:
        return True
    reach = exits(board, p, tickets, occupied, rules)
    if reach & ~occupied:
        return False
    if rules is None or rules.trapped_loses:
        return True
    return rules.mrx_onto_detective == "caught" and bool(reach)


def expand(board: Board, weights: Mapping[Station, int], tickets: Sequence[Ticket], times: int,
           blocked: StationMask = 0, rules: Rules | None = None, doubles: bool = False) -> dict[Station, int]:
    """Route counts after ``times`` more Mr. X turns with any of ``tickets`` (no pruning but
    ``blocked`` stations, and under ``rules.cutoff_escape`` the lines passing over them); with
    ``doubles`` each turn may also be a double move (both legs, an over-approximation of how
    many he may still make: a seal of a larger set is still a seal)."""

    def step(cur: Mapping[Station, int]) -> dict[Station, int]:
        nxt: dict[Station, int] = {}
        for s, c in cur.items():
            for d in stations_of(exits(board, s, tickets, blocked, rules) & ~blocked):
                nxt[d] = nxt.get(d, 0) + c
        return nxt

    cur = dict(weights)
    for _ in range(times):
        one = step(cur)
        if doubles:
            for d, c in step(one).items():
                one[d] = one.get(d, 0) + c
        cur = one
    return cur


class SealExit(NamedTuple):
    """One way out of a target station for the seal model: the connection to ``to`` (``key`` is
    ``(low, high, transport)``), the stations its line passes over when the cut-off escape
    applies (else 0), and the ticket kind Mr. X must be handed to ride it (None: he holds one)."""

    to: Station
    key: tuple[Station, Station, Transport]
    via: StationMask
    needs: Ticket | None


def seal_exits(board: Board, p: Station, tickets: Sequence[Ticket], gainable: Iterable[Ticket] = (),
               cutoff: bool = False) -> list[SealExit]:
    """The connections out of ``p`` that Mr. X may ride with ``tickets`` or with one kind of
    ``gainable`` handed to him, one per destination unless the cut-off escape (``via`` lines) or
    the kind needed tells them apart."""
    gain = {Transport(t.value): t for t in gainable if t not in tickets and t is not Ticket.BLACK}
    if not cutoff:  # no line is ever closed: one exit per destination (the classic fast path)
        base = exits(board, p, tickets)
        out = [SealExit(e, (min(p, e), max(p, e), Transport.TAXI), 0, None) for e in stations_of(base)]
        for tr, t in gain.items():
            out += [SealExit(e, (min(p, e), max(p, e), tr), 0, t)
                    for e in stations_of(board.transport_neighbours.get(tr, {}).get(p, 0) & ~base)]
        return out
    held = {tr for t in tickets for tr in t.transports}
    out = []
    free: set[Station] = set()  # destinations reached by a held ticket on a line nothing closes
    seen: set[tuple[Station, Ticket | None, Any]] = set()
    for pass_ in (0, 1):  # held tickets first, so handed kinds can be skipped where already open
        for tr in Transport:
            needs = None if tr in held else gain.get(tr)
            if (pass_ == 0) != (needs is None) or (needs is None and tr not in held):
                continue
            for e in stations_of(board.transport_neighbours.get(tr, {}).get(p, 0)):
                key = (min(p, e), max(p, e), tr)
                via = board.via.get(key, 0) if cutoff else 0
                if needs is None and not via:
                    free.add(e)
                elif e in free:
                    continue
                mark = (e, needs, key if via else None)
                if mark not in seen:
                    seen.add(mark)
                    out.append(SealExit(e, key, via, needs))
    return [x for x in out if x.to not in free or (x.needs is None and not x.via)]
