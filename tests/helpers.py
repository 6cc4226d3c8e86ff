"""Test helpers: small random boards, random legal games, and a plain brute-force oracle that
enumerates Mr. X's routes one by one (independent of the tracker's bitsets: it walks the
networkx graph)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any

import networkx as nx

from sy_tools.engine.board import Board, Connection
from sy_tools.formats.record import Record

TRANSPORTS_OF = {
    "taxi": {"taxi"},
    "bus": {"bus"},
    "underground": {"underground"},
    "black": {"taxi", "bus", "underground", "ferry"},
}


def small_board(rng: random.Random, n: int | None = None) -> Board:
    """A random connected map of 10-20 stations with every transport, ferry included."""
    n = n or rng.randint(10, 20)
    stations = list(range(1, n + 1))
    conns: set[Connection] = set()
    order = stations[:]
    rng.shuffle(order)
    for i in range(1, n):  # a random spanning tree of taxi
        conns.add(Connection.of(order[i], order[rng.randrange(i)], "taxi"))
    for _ in range(n // 2):
        a, b = rng.sample(stations, 2)
        conns.add(Connection.of(a, b, "taxi"))
    bus = rng.sample(stations, max(3, n // 3))
    for a, b in zip(bus, bus[1:]):
        conns.add(Connection.of(a, b, "bus"))
    ug = rng.sample(bus, 3)
    for a, b in zip(ug, ug[1:]):
        conns.add(Connection.of(a, b, "underground"))
    a, b = rng.sample(stations, 2)
    conns.add(Connection.of(a, b, "ferry"))
    coords = {s: (float(rng.randint(0, 999)), float(rng.randint(0, 999))) for s in stations}
    decks = {"classic": sorted(rng.sample(stations, min(n, 8)))}
    return Board.build("small", stations, conns, coords, decks)


def neighbours(g: nx.MultiGraph, s: int, ticket: str, closed: set[tuple[int, int, str]] = frozenset()) -> set[int]:
    """Where ``ticket`` goes from ``s``; ``closed``: connections ``(low, high, transport)`` the
    cut-off escape shuts (their line passes over a detective)."""
    ok = TRANSPORTS_OF[ticket]
    return {v for _, v, d in g.edges(s, data=True)
            if d["transport"] in ok and (min(s, v), max(s, v), d["transport"]) not in closed}


def closed_connections(board: Board, occ: set[int]) -> set[tuple[int, int, str]]:
    """Connections whose line passes over one of the stations ``occ`` (the board's via data)."""
    return {(a, b, getattr(t, "value", t)) for (a, b, t), mask in board.via.items()
            if any(mask >> x & 1 for x in occ)}


def oracle_routes(record: Record, limit: int = 60_000) -> list[tuple[int, ...]] | None:
    """Every route of Mr. X consistent with what the detectives saw (None if more than
    ``limit`` partial routes would have to be explored)."""
    g = record.board.to_networkx()
    rules = record.rules
    pos = {d.name: d.start for d in record.detectives}
    # per move: ticket, stations occupied when he moved, required station (reveal/capture), and
    # stations detectives stepped on before his next move
    steps: list[dict[str, Any]] = []
    n = 0
    for rnd in record.rounds:
        occ = set(pos.values())
        for m in rnd.mrx:
            n += 1
            steps.append({"ticket": m.ticket.value, "occ": occ, "must": m.to if rules.is_reveal(n) or m.took is not None else None,
                          "stepped": set()})
        for dm in rnd.detectives:
            pos[dm.name] = dm.to
            if dm.capture:
                steps[-1]["must"] = dm.to
                break
            steps[-1]["stepped"].add(dm.to)
    starts = [s for s in record.start_candidates if s not in {d.start for d in record.detectives}]
    routes: list[tuple[int, ...]] = []
    explored = 0
    stack = [(s,) for s in starts]
    while stack:
        route = stack.pop()
        explored += 1
        if explored > limit:
            return None
        i = len(route) - 1
        if i == len(steps):
            routes.append(route)
            continue
        st = steps[i]
        closed = closed_connections(record.board, st["occ"]) if rules.cutoff_escape else set()
        for d in neighbours(g, route[-1], st["ticket"], closed):
            if d in st["occ"] or d in st["stepped"]:
                continue
            if st["must"] is not None and d != st["must"]:
                continue
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


def plan_problems(rec_doc: dict[str, Any], plan: Any, k: int) -> list[str]:
    """A k-turn cordon ``plan`` appended to the detectives' record ``rec_doc`` (its last round
    holds Mr. X's move only; his later moves hidden, black), replayed by the referee: the
    lines of its detective problems (none for a legal plan)."""
    from sy_tools.analysis.referee import check
    from sy_tools.formats.game_json import parse_record

    rounds = list(rec_doc["rounds"])
    for j in range(k):
        moves = [{"name": p.name, "ticket": p.tickets[j], "to": p.path[j + 1]} for p in plan
                 if p.tickets[j] is not None]
        if j == 0:
            rounds[-1] = {"mrx": rounds[-1]["mrx"], "detectives": moves}
        else:
            rounds.append({"mrx": [{"ticket": "black"}], "detectives": moves})
    r = check(parse_record(dict(rec_doc, rounds=rounds)))
    return [p.line(None) for p in r.problems if p.code.startswith("det-")]


def reveal_cuts(board: Board, rules: Any, seeds: Iterable[int], n_detectives: Callable[[random.Random], int],
                black: int) -> Iterator[tuple[int, dict[str, Any], Record, Any]]:
    """``(seed, record doc, record, referee status)`` per seed: a random game cut right after Mr.
    X's first single-leg reveal (move 3 or 8), as the detectives saw it, with an empty detectives'
    round to fill; a seed whose cut is illegal, over, or leaves Mr. X fewer than ``black`` black
    tickets gives nothing."""
    from sy_tools.analysis.referee import check
    from sy_tools.formats.game_json import parse_record
    from sy_tools.selfplay.generate import detectives_view, random_game

    for seed in seeds:
        rng = random.Random(seed)
        doc = random_game(board, rules, rng, n_detectives=n_detectives(rng))
        n = 0
        for cut, rnd in enumerate(doc["rounds"]):
            n += len(rnd["mrx"])
            if n not in (3, 8) or len(rnd["mrx"]) != 1:
                continue
            rec_doc = detectives_view(dict(doc, rounds=doc["rounds"][:cut] + [{"mrx": rnd["mrx"], "detectives": []}]),
                                      rules)
            rec = parse_record(rec_doc)
            st = check(rec)
            if st.legal and not st.status.over and st.position.mrx_tickets.black >= black:
                yield seed, rec_doc, rec, st
            break
