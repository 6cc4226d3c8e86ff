"""`possible` on 2,000 random legal records: sy-tools' bitset filter vs a plain baseline
(Python sets walking a networkx graph move by move, as most public trackers do)."""

from __future__ import annotations

import networkx as nx

from sy_tools.record import Record
from sy_tools.tracker import possible, possible_mask

from .common import best_of, corpus

ALLOWED = {"taxi": {"taxi"}, "bus": {"bus"}, "underground": {"underground"},
           "black": {"taxi", "bus", "underground", "ferry"}}


def baseline(record: Record, g: nx.MultiGraph) -> set[int]:
    """The plain way: a Python set of stations, neighbours looked up in networkx."""
    pos = {d.name: d.start for d in record.detectives}
    S = set(record.start_candidates) - set(pos.values())
    n = 0
    for rnd in record.rounds:
        occupied = set(pos.values())
        for m in rnd.mrx:
            n += 1
            ok = ALLOWED[m.ticket.value]
            nxt = set()
            for s in S:
                for _, v, d in g.edges(s, data=True):
                    if d["transport"] in ok:
                        nxt.add(v)
            S = nxt - occupied
            if record.rules.is_reveal(n):
                S &= {m.to}
        for dm in rnd.detectives:
            pos[dm.name] = dm.to
            if dm.capture:
                S &= {dm.to}
                break
            S.discard(dm.to)
    return S


def run(n: int = 2000) -> list[str]:
    records = corpus(n)
    g = records[0].board.to_networkx()
    # same answers first
    for r in records:
        from sy_tools.board import stations_of

        assert set(stations_of(possible_mask(r))) == baseline(r, g)
    moves = sum(r.n_moves for r in records)
    t_base = best_of(lambda: [baseline(r, g) for r in records])
    t_mask = best_of(lambda: [possible_mask(r) for r in records])
    t_full = best_of(lambda: [possible(r) for r in records], repeat=2)
    t_hist = best_of(lambda: [possible(r, history=True) for r in records], repeat=1)
    rate = lambda t: n / t  # noqa: E731
    return [
        f"possible: {n} random legal records, {moves / n:.1f} Mr. X moves each on average",
        f"  baseline (sets over networkx)      {rate(t_base):>9.0f} records/s",
        f"  sy-tools possible set (bitsets)    {rate(t_mask):>9.0f} records/s   ratio {t_base / t_mask:5.1f}x",
        f"  sy-tools + path probabilities      {rate(t_full):>9.0f} records/s   ratio {t_base / t_full:5.1f}x",
        f"  sy-tools + history (fwd-bwd)       {rate(t_hist):>9.0f} records/s   ratio {t_base / t_hist:5.1f}x",
        f"  per record: {1e6 * t_mask / n:.0f} us (set), {1e6 * t_full / n:.0f} us (with probabilities)",
    ]
