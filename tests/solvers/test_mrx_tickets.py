"""Mr. X's advice on what he holds (issue 24: black tickets to hide after a reveal, room to run,
and the advice saying which): the room it counts against a plain breadth-first oracle, and the
explanation of a black ticket against when he was last shown. How the self-play Mr. X spends
his tickets over many games is measured on docs/benchmarks.md ("Every matchup on a fresh
seed")."""

from __future__ import annotations

from collections import deque

from test_advise import _mrx_positions

from sy_tools.engine.board import Board
from sy_tools.engine.position import Position
from sy_tools.engine.stations import mask_of, stations_of
from sy_tools.engine.tickets import MRX_MOVE_TICKETS, Ticket
from sy_tools.solvers.advise import advise_mrx

WORTH_IT = "right after a reveal: worth it"


def _hops_within(board: Board, start: int, k: int) -> set[int]:
    """Stations a detective reaches from ``start`` in at most ``k`` hops by taxi, bus or
    underground, tickets ignored (breadth-first over the map's lines)."""
    seen = {start}
    todo = deque([(start, 0)])
    while todo:
        s, d = todo.popleft()
        if d == k:
            continue
        for t in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND):
            for tr in t.transports:
                for x in stations_of(board.transport_neighbours.get(tr, {}).get(s, 0)):
                    if x not in seen:
                        seen.add(x)
                        todo.append((x, d + 1))
    return seen


def _room_oracle(after: Position) -> int:
    """The stations he could move on to from where ``after`` puts him, by a ticket he holds (a
    black ticket rides every line, the ferry too), that no detective stands on and none still
    in play reaches within two hops."""
    at = after.mrx_at
    assert at is not None
    exits: set[int] = set()
    for t in MRX_MOVE_TICKETS:
        if getattr(after.mrx_tickets, t.value) > 0:
            for tr in t.transports:
                exits.update(stations_of(after.board.transport_neighbours.get(tr, {}).get(at, 0)))
    exits -= set(after.stations)
    near: set[int] = set()
    for n, s in zip(after.names, after.stations):
        if n not in after.out:
            near |= _hops_within(after.board, s, 2)
    return len(exits - near)


def test_the_safe_ways_on_are_the_exits_no_detective_reaches_in_two_hops(london):
    """On generated positions, every move the advice weighs (double moves included) reports as
    many safe ways on as the oracle counts from where it ends, and says so in its reason."""
    checked = 0
    for pos in _mrx_positions(london, 12, seed=24):
        adv = advise_mrx(pos, [pos.mrx_at], top=1000)
        for o in adv.moves:
            after = pos.push(o.move)
            if after.ended is not None or o.escape_room is None:
                continue
            want = _room_oracle(after)
            assert o.escape_room == want, (o.move, o.escape_room, want)
            assert f"{want} safe way" in o.reason
            checked += 1
    assert checked >= 100


def test_a_black_ticket_is_called_worth_it_only_right_after_he_is_shown(london):
    """Right after a reveal (the detectives know his station) every move spending a black ticket
    says it is worth it there; when they hold a larger set, none says so."""
    shown = hidden = 0
    for pos in _mrx_positions(london, 40, seed=25):
        if pos.mrx_tickets.black == 0:
            continue
        at = pos.mrx_at
        assert at is not None
        right_after = advise_mrx(pos, [at], top=1000)
        blacks = [o for o in right_after.moves if Ticket.BLACK in o.move.tickets]
        assert blacks
        for o in blacks:
            assert WORTH_IT in o.reason, o.reason
            shown += 1
        others = [s for s in sorted(london.stations) if s != at and s not in pos.stations][:3]
        later = advise_mrx(pos, mask_of([at, *others]), top=1000)
        for o in later.moves:
            assert WORTH_IT not in o.reason, o.reason
            hidden += Ticket.BLACK in o.move.tickets
    assert shown >= 20 and hidden >= 20
