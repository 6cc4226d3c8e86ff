"""Random self-play at speed: a playout on the board's tables, checked against :class:`Position`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import Board
from .hops import MRX
from .moves import Move, Outcome, OutcomeKind
from .position import Position, double_allowed, draw
from .rules import counting_models
from .stations import Station, StationMask
from .tickets import (
    MRX_MOVE_TICKETS,
    Ticket,
    Tickets,
)

#: A move in a :class:`Playout`: the piece (-1 for Mr. X, else the detective's index), its
#: tickets and stations (both empty for a pass).
PlayoutMove = tuple[int, tuple[Ticket, ...], tuple[Station, ...]]

_TICKET_ORDER: tuple[Ticket, ...] = MRX_MOVE_TICKETS  # taxi, bus, underground, black


@dataclass(frozen=True, slots=True)
class Playout:
    """A game played out by :func:`random_playout`: the moves in order and the final position."""

    moves: tuple[PlayoutMove, ...]
    final: Position

    def to_moves(self) -> list[Move]:
        """The moves as :class:`Move` values (for :meth:`Position.push`)."""
        names = self.final.names
        return [Move(MRX if i < 0 else names[i], t, s) for i, t, s in self.moves]


def _station_tables(board: Board) -> tuple[list[StationMask], ...]:
    """``neighbours[ticket][station]`` as lists indexed by station (taxi, bus, underground,
    black), cached per board."""
    cached = _TABLES.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    size = max(board.stations, default=0) + 1
    tables = tuple([board.neighbours[t].get(s, 0) for s in range(size)] for t in _TICKET_ORDER)
    _TABLES[id(board)] = (board, tables)
    return tables

_TABLES: dict[int, tuple[Board, tuple[list[StationMask], ...]]] = {}


def random_playout(start: Position, rng: Any) -> Playout:
    """Play ``start`` to the end, every piece moving uniformly at random among its legal moves.

    The result is exactly that of the reference loop over this module's :class:`Position` ::

        while not pos.is_over():
            moves = pos.legal_moves
            n = len(moves)                    # counted, not listed
            if n == 0:                        # Mr. X has no move at all (at the very start)
                pos = pos.declare_trapped(pos.mrx_at)
            else:
                pos = pos.push(moves[draw(rng, n)])

    (:func:`draw` is ``int(rng.random() * n)``; the tests replay both and compare), but runs on
    plain ints and lists instead of building a :class:`Position` per move: the random-vs-random
    simulator spends most of its time here.  Mr. X's station must be known."""
    if start.ended is not None:
        return Playout((), start)
    if start.mrx_at is None:
        raise ValueError("Mr. X's station is not known in this position: give it (mrx_at) to play it out")
    if not counting_models(start.rules):  # rule fields this loop does not model: the reference loop
        return _reference_playout(start, rng)
    if start.turn != 0:  # mid-round: the reference loop up to Mr. X's next turn
        head: list[PlayoutMove] = []
        pos = start
        while pos.turn != 0 and not pos.is_over():
            moves = pos.legal_moves
            mv = moves[draw(rng, len(moves))]
            head.append((pos.names.index(mv.piece), mv.tickets, tuple(s for s in mv.stations if s is not None)))
            pos = pos.push(mv)
        rest = random_playout(pos, rng)
        return Playout(tuple(head) + rest.moves, rest.final)
    nb = _station_tables(start.board)
    nb_t, nb_b, nb_u = nb[0], nb[1], nb[2]
    rules = start.rules
    rand = rng.random
    names = start.names
    dets = range(len(names))
    st = list(start.stations)
    tk = [[t.taxi, t.bus, t.underground] for t in start.tickets]
    out = [n in start.out for n in names]
    xt = [start.mrx_tickets.taxi, start.mrx_tickets.bus, start.mrx_tickets.underground, start.mrx_tickets.black,
          start.mrx_tickets.double]
    at: int = start.mrx_at
    move, rnd, doubles = start.move, start.round, start.doubles
    log_length, trapped_loses = rules.log_length, rules.trapped_loses
    to_mrx = rules.tickets_to_mrx
    tickets = _TICKET_ORDER
    occ = 0
    for s in st:
        occ |= 1 << s
    log: list[PlayoutMove] = []
    ended: Outcome | None = None
    turn = 0
    while ended is None:
        # ---- Mr. X
        free = ~occ
        masks = [(t, nb[t][at] & free) for t in range(4) if xt[t]] if move < log_length else []
        singles = 0
        for _, m in masks:
            singles += m.bit_count()
        if not singles:
            if trapped_loses or move >= log_length:
                ended = Outcome(OutcomeKind.TRAPPED, rnd, move, station=at)
                break
            rand()  # the reference loop draws among its one legal move, the pass
            log.append((-1, (), ()))
        else:
            total = singles
            seconds: list[tuple[int, StationMask, list[int]]] = []
            if double_allowed(rules, xt[4], doubles, move):
                for t1, m in masks:
                    held2 = [t2 for t2 in range(4) if xt[t2] - (t2 == t1) > 0]
                    seconds.append((t1, m, held2))
                    while m:
                        low = m & -m
                        d1 = low.bit_length() - 1
                        m ^= low
                        for t2 in held2:
                            total += (nb[t2][d1] & free).bit_count()
            k = int(rand() * total)
            if k < singles:
                for t, m in masks:
                    c = m.bit_count()
                    if k < c:
                        for _ in range(k):
                            m &= m - 1
                        at = (m & -m).bit_length() - 1
                        xt[t] -= 1
                        move += 1
                        log.append((-1, (tickets[t],), (at,)))
                        break
                    k -= c
            else:
                k -= singles
                for t1, m, held2 in seconds:
                    while m and k >= 0:
                        low = m & -m
                        d1 = low.bit_length() - 1
                        m ^= low
                        for t2 in held2:
                            m2 = nb[t2][d1] & free
                            c = m2.bit_count()
                            if k < c:
                                for _ in range(k):
                                    m2 &= m2 - 1
                                at = (m2 & -m2).bit_length() - 1
                                xt[t1] -= 1
                                xt[t2] -= 1
                                xt[4] -= 1
                                doubles += 1
                                move += 2
                                log.append((-1, (tickets[t1], tickets[t2]), (d1, at)))
                                k = -1
                                break
                            k -= c
                    if k < 0:
                        break
        rnd += 1
        # ---- the detectives, in turn order; one with no move when its turn comes skips it, and
        # is out for good where the rules say so (Rules.stuck_is_out)
        for i in dets:
            if out[i]:
                continue
            s = st[i]
            free = ~(occ & ~(1 << s))
            t3 = tk[i]
            m0 = nb_t[s] & free if t3[0] else 0
            m1 = nb_b[s] & free if t3[1] else 0
            m2 = nb_u[s] & free if t3[2] else 0
            c0, c1 = m0.bit_count(), m1.bit_count()
            n = c0 + c1 + m2.bit_count()
            if not n:
                out[i] = rules.stuck_is_out(bool((t3[0] and nb_t[s]) or (t3[1] and nb_b[s]) or (t3[2] and nb_u[s])))
                continue
            k = int(rand() * n)
            if k < c0:
                t, m = 0, m0
            elif k < c0 + c1:
                t, m, k = 1, m1, k - c0
            else:
                t, m, k = 2, m2, k - c0 - c1
            for _ in range(k):
                m &= m - 1
            d = (m & -m).bit_length() - 1
            t3[t] -= 1
            if to_mrx:
                xt[t] += 1
            occ ^= (1 << s) | (1 << d)
            st[i] = d
            log.append((i, (tickets[t],), (d,)))
            if d == at:
                ended = Outcome(OutcomeKind.CAPTURE, rnd, move, by=names[i], station=d)
                turn = i + 1
                break
        if ended is not None:
            break
        # ---- the round's end
        if move >= log_length:
            ended = Outcome(OutcomeKind.LOG_FULL, rnd, move)
            break
        for i in dets:
            if out[i]:
                continue
            s = st[i]
            free = ~(occ & ~(1 << s))
            t3 = tk[i]
            if (t3[0] and nb_t[s] & free) or (t3[1] and nb_b[s] & free) or (t3[2] and nb_u[s] & free):
                break
        else:
            ended = Outcome(OutcomeKind.DETECTIVES_STUCK, rnd, move)
    final = start._with(
        stations=tuple(st),
        tickets=tuple(Tickets(a, b, c, o.black, o.double) for (a, b, c), o in zip(tk, start.tickets)),
        out=frozenset(n for n, o in zip(names, out) if o), mrx_tickets=Tickets(*xt), mrx_at=at, move=move,
        round=rnd, doubles=doubles, turn=turn, ended=ended)
    return Playout(tuple(log), final)


def _reference_playout(start: Position, rng: Any) -> Playout:
    """The reference loop of :func:`random_playout`, move by move through :class:`Position`."""
    pos = start
    log: list[PlayoutMove] = []
    while not pos.is_over():
        moves = pos.legal_moves
        n = len(moves)
        if n == 0:
            pos = pos.declare_trapped(pos.mrx_at)
            continue
        mv = moves[draw(rng, n)]
        log.append((-1 if mv.piece == MRX else pos.names.index(mv.piece), mv.tickets,
                    tuple(s for s in mv.stations if s is not None)))
        pos = pos.push(mv)
    return Playout(tuple(log), pos)
