"""The plain oracles the tests check the library against, each written from docs/rules.md with
nothing of sy_tools' own logic (sets, dicts, Counters and networkx over the map's connection
list):

* :class:`Plain`: a plain Scotland Yard game (the rules engine's oracle): every player's legal
  moves, tickets, turn and outcome, under every rule variant;
* :func:`oracle_routes` / :func:`oracle_answer` / :func:`compare_with_oracle`: Mr. X's routes
  enumerated one by one (the possible-set tracker's oracle, independent of its bitsets).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import networkx as nx

from sy_tools.engine.board import Board
from sy_tools.engine.hops import MRX
from sy_tools.formats.record import Record

#: the transports each ticket rides
RIDES = {"taxi": {"taxi"}, "bus": {"bus"}, "underground": {"underground"},
         "black": {"taxi", "bus", "underground", "ferry"}}
NAMES = ["Red", "Blue", "Green", "Yellow", "Black"]


class Plain:
    """A plain Scotland Yard game: the oracle."""

    def __init__(self, board, rules, starts, mrx_at):
        self.via = {(a, b, t.value): {s for s in board.stations if m >> s & 1} for (a, b, t), m in board.via.items()}
        self.adj = {}
        for c in board.connections:
            for a, b in ((c.a, c.b), (c.b, c.a)):
                self.adj.setdefault((a, c.transport.value), set()).add(b)
        self.rules = rules
        self.names = NAMES[:len(starts)]
        self.pos = dict(zip(self.names, starts))
        self.tk = {n: Counter(rules.detective_tickets) for n in self.names}
        self.xt = Counter(rules.mrx_start_tickets(len(starts)))
        self.x = mrx_at
        self.moves = self.rounds = self.doubles = 0
        self.out: set[str] = set()
        self.turn: str | None = MRX
        self.result: str | None = None

    def dests(self, at, ticket):
        occ = set(self.pos.values())
        return {d for tr in RIDES[ticket] for d in self.adj.get((at, tr), set())
                if not (self.rules.cutoff_escape and self.via.get((min(at, d), max(at, d), tr), set()) & occ)}

    def det_moves(self, name):
        occ = {s for n, s in self.pos.items() if n != name}
        return {((t,), (d,)) for t in ("taxi", "bus", "underground") if self.tk[name][t] > 0
                for d in self.adj.get((self.pos[name], t), set()) if d not in occ}

    def x_moves(self):
        occ = set(self.pos.values())
        if self.moves >= self.rules.log_length:
            return set()
        caught = self.rules.mrx_onto_detective == "caught"  # he may step onto a detective, and loses
        singles = {((t,), (d,)) for t in RIDES if self.xt[t] > 0 for d in self.dests(self.x, t)
                   if caught or d not in occ}
        out = set(singles)
        singles = {m for m in singles if m[1][0] not in occ}
        r = self.rules
        if (singles and r.double_moves_per_round >= 1 and self.xt["double"] > 0
                and self.doubles < r.double_moves_per_game and self.moves + 2 <= r.log_length):
            for (t1,), (d1,) in singles:
                left = self.xt.copy()
                left[t1] -= 1
                out |= {((t1, t2), (d1, d2)) for t2 in RIDES if left[t2] > 0 for d2 in self.dests(d1, t2)
                        if caught or d2 not in occ}
        if not out and not r.trapped_loses:
            out = {((), ())}
        return out

    def voluntary(self):
        """With the voluntary-reveal rule: each move with a show after a hop that is not a fixed
        reveal, and a ticket taken from a detective that holds it."""
        if not self.rules.voluntary_reveal:
            return set()
        return {(tickets, stations, h, n, t) for tickets, stations in self.x_moves() for h in range(len(tickets))
                if self.moves + h + 1 not in self.rules.reveal_moves
                for n in self.names for t in ("taxi", "bus", "underground") if self.tk[n][t] > 0}

    def legal(self):
        return self.x_moves() if self.turn == MRX else self.det_moves(self.turn)

    def play(self, tickets, stations, took=None):
        if took is not None:
            self.tk[took[0]][took[1]] -= 1
            if self.rules.tickets_to_mrx:
                self.xt[took[1]] += 1
        if self.turn == MRX:
            if len(tickets) == 2:
                self.xt["double"] -= 1
                self.doubles += 1
            for t in tickets:
                self.xt[t] -= 1
            self.moves += len(tickets)
            self.rounds += 1
            if stations:
                self.x = stations[-1]
            if self.x in self.pos.values():
                self.result, self.turn = "capture", None
                return
            self.next_detective(0)
            return
        name = self.turn
        (t,), (d,) = tickets, stations
        self.tk[name][t] -= 1
        if self.rules.tickets_to_mrx:
            self.xt[t] += 1
        self.pos[name] = d
        if d == self.x:
            self.result = "capture"
            self.turn = None
            return
        self.next_detective(self.names.index(name) + 1)

    def rides(self, name):
        """Whether a ticket ``name`` holds rides a line from its station (other pieces aside)."""
        return any(self.tk[name][t] > 0 and self.adj.get((self.pos[name], t)) for t in ("taxi", "bus", "underground"))

    def next_detective(self, i):
        """The turn passes to the next detective with a move.  One without a move skips its
        turn; it is out for the rest of the game under ``blocked_detective: out``, and under
        ``waits`` only when no ticket it holds rides a line from its station (docs/rules.md)."""
        for name in self.names[i:]:
            if name in self.out:
                continue
            if self.det_moves(name):
                self.turn = name
                return
            if self.rules.blocked_detective == "out" or not self.rides(name):
                self.out.add(name)
        self.turn = None
        if self.moves >= self.rules.log_length:
            self.result = "log-full"
        elif all(n in self.out or not self.det_moves(n) for n in self.names):
            self.result = "detectives-stuck"
        elif self.rules.trapped_loses and not self.x_moves():
            self.result = "trapped"
        else:
            self.turn = MRX


def neighbours(g: nx.MultiGraph, s: int, ticket: str, closed: set[tuple[int, int, str]] = frozenset()) -> set[int]:
    """Where ``ticket`` goes from ``s``; ``closed``: connections ``(low, high, transport)`` the
    cut-off escape shuts (their line passes over a detective)."""
    ok = RIDES[ticket]
    return {v for _, v, d in g.edges(s, data=True)
            if d["transport"] in ok and (min(s, v), max(s, v), d["transport"]) not in closed}


def closed_connections(board: Board, occ: set[int]) -> set[tuple[int, int, str]]:
    """Connections whose line passes over one of the stations ``occ`` (the board's via data)."""
    return {(a, b, getattr(t, "value", t)) for (a, b, t), mask in board.via.items()
            if any(mask >> x & 1 for x in occ)}


def mrx_tickets_before(record: Record, n_rounds: int) -> Counter:
    """Mr. X's tickets when his turn of round ``n_rounds + 1`` comes, counted from the record:
    his start tickets, less each ticket and double ticket he used, plus (``tickets_to_mrx``)
    every ticket the detectives used and each one he took by a voluntary reveal."""
    xt = Counter(record.mrx_tickets)
    to_mrx = record.rules.tickets_to_mrx
    for rnd in record.rounds[:n_rounds]:
        if len(rnd.mrx) == 2:
            xt["double"] -= 1
        for m in rnd.mrx:
            xt[m.ticket.value] -= 1
            if m.took is not None and to_mrx:
                xt[m.took[1].value] += 1
        for dm in rnd.detectives:
            if to_mrx:
                xt[dm.ticket.value] += 1
    return xt


def trapped_at(g: nx.MultiGraph, board: Board, rules: Any, s: int, occ: set[int], xt: Counter, moves: int) -> bool:
    """Whether Mr. X on ``s`` has no legal move (docs/rules.md, "How a game ends"): his log is
    full, or no ticket he holds rides a connection from ``s`` that is open (the cut-off escape)
    to a station no detective holds (under ``mrx_onto_detective: caught`` a detective's station
    is a move too)."""
    if moves >= rules.log_length:
        return True
    closed = closed_connections(board, occ) if rules.cutoff_escape else set()
    caught = rules.mrx_onto_detective == "caught"
    return not any(caught or d not in occ for t in RIDES if xt[t] > 0 for d in neighbours(g, s, t, closed))


def oracle_routes(record: Record, limit: int = 60_000) -> list[tuple[int, ...]] | None:
    """Every route of Mr. X consistent with what the detectives saw (None if more than
    ``limit`` partial routes would have to be explored).  A pass (a round without his move)
    says he had no legal move where he stood (:func:`trapped_at`, the detectives and his
    tickets as they were then)."""
    g = record.board.to_networkx()
    rules = record.rules
    pos = {d.name: d.start for d in record.detectives}
    # per move: ticket, stations occupied when he moved, required station (reveal/capture),
    # stations detectives stepped on before his next move, and his passes before it (the
    # detectives' stations and his tickets at each); step 0 is his start
    steps: list[dict[str, Any]] = [{"stepped": set(), "passes": [], "must": None}]
    n = 0
    for r_i, rnd in enumerate(record.rounds):
        occ = set(pos.values())
        if not rnd.mrx:
            steps[-1]["passes"].append((occ, mrx_tickets_before(record, r_i), n))
        for m in rnd.mrx:
            n += 1
            steps.append({"ticket": m.ticket.value, "occ": occ, "must": m.to if rules.is_reveal(n) or m.took is not None else None,
                          "stepped": set(), "passes": []})
        for dm in rnd.detectives:
            pos[dm.name] = dm.to
            if dm.capture:
                steps[-1]["must"] = dm.to
                break
            steps[-1]["stepped"].add(dm.to)

    def fits(i: int, s: int) -> bool:
        """Whether standing on ``s`` after step ``i`` fits what came before his next move."""
        st = steps[i]
        return (s not in st["stepped"] and (st["must"] is None or s == st["must"])
                and all(trapped_at(g, record.board, rules, s, occ, xt, k) for occ, xt, k in st["passes"]))

    starts = [s for s in record.start_candidates if s not in {d.start for d in record.detectives} and fits(0, s)]
    routes: list[tuple[int, ...]] = []
    explored = 0
    stack = [(s,) for s in starts]
    while stack:
        route = stack.pop()
        explored += 1
        if explored > limit:
            return None
        i = len(route)
        if i == len(steps):
            routes.append(route)
            continue
        st = steps[i]
        closed = closed_connections(record.board, st["occ"]) if rules.cutoff_escape else set()
        for d in neighbours(g, route[-1], st["ticket"], closed):
            if d not in st["occ"] and fits(i, d):
                stack.append(route + (d,))
    return routes


def oracle_answer(record: Record, limit: int = 60_000):
    """(final set, history sets, exact route counts per final station) or None if too big."""
    routes = oracle_routes(record, limit)
    if routes is None:
        return None
    n = len(record.rounds and [m for r in record.rounds for m in r.mrx])
    final = Counter(r[-1] for r in routes)
    history = [sorted({r[i] for r in routes}) for i in range(1, n + 1)]
    return sorted(final), history, dict(final), routes


def compare_with_oracle(record: Record, weights: str = "paths") -> bool:
    """Check the possible-set filter against the brute-force oracle on ``record`` (False when
    the oracle would have to enumerate too much): final set, history, route counts and
    probabilities, and an inconsistent record raising where the oracle finds no route."""
    import pytest

    from sy_tools.analysis.possible import possible
    from sy_tools.analysis.tracker import InconsistentRecord, possible_mask
    from sy_tools.engine.stations import stations_of

    ans = oracle_answer(record)
    if ans is None:
        return False
    final, history, counts, routes = ans
    if not routes:
        with pytest.raises(InconsistentRecord):
            possible(record)
        with pytest.raises(InconsistentRecord):
            possible_mask(record)
        return True
    got = possible(record, weights=weights, history=True)
    assert stations_of(possible_mask(record)) == final
    if got.capture is not None:
        assert final == [got.capture.station]
    assert list(got.stations) == final
    assert [list(h) for h in got.history] == history
    if weights == "paths":
        assert got.route_counts == counts
        total = sum(counts.values())
        for s, c in counts.items():
            assert got.probabilities[s] == float(Fraction(c, total))
        # history probabilities: share of routes through s at move i
        for i, hp in enumerate(got.history_probabilities):
            through = {}
            for r in routes:
                through[r[i + 1]] = through.get(r[i + 1], 0) + 1
            assert hp == {s: float(Fraction(c, total)) for s, c in sorted(through.items())}
    assert abs(sum(got.probabilities.values()) - 1) < 1e-9
    return True
