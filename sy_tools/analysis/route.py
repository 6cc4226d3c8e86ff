
"""Mr. X's most likely route given the whole record (what the ``history`` heatmap draws).

The smoothed history (:func:`sy_tools.analysis.possible.possible` with ``history=True``) gives, after each
Mr. X move, the stations on some route consistent with the whole record and each one's
probability at that move.  A route through those sets whose consecutive stations are joined by
the move's ticket, off the detectives' stations at that move (the engine's
:func:`~sy_tools.engine.hops.mrx_targets`, the one place for Mr. X's movement rules), is a
consistent route: every other condition (reveals, detectives landing without a capture) is local
to one move and already folded into the sets.

:func:`likely_route` picks, by Viterbi's dynamic programme, the consistent route whose stations
are most probable move by move: the largest product of the per-move probabilities (ties: the
smaller station numbers, earliest first).  Under ``paths`` weights every consistent route is
equally likely as a whole, so this is the natural "most likely" one to draw; under ``moves``
weights the per-move probabilities are the behavioural model's.  Cost: linear in moves times
the sizes of the sets and their degrees.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..engine.hops import mrx_targets
from ..engine.stations import Station, StationSet
from ..engine.tickets import TICKET_LETTERS, Ticket
from ..formats.record import Record


@dataclass(frozen=True)
class LikelyRoute:
    """One consistent route: ``stations[i]`` after Mr. X's move ``i + 1`` with ``tickets[i]``;
    ``probabilities[i]`` is that station's probability at that move; ``reveals`` are the moves
    where he showed himself; ``detectives[i]`` where the detectives stood when he made move
    ``i + 1``."""

    stations: tuple[Station, ...]
    tickets: tuple[Ticket, ...]
    probabilities: tuple[float, ...]
    reveals: tuple[int, ...]
    detectives: tuple[dict[str, Station], ...]
    weights: str

    def __len__(self) -> int:
        return len(self.stations)

    def move(self, n: int) -> Station:
        """The station after Mr. X's move ``n`` (1-based, as every table counts)."""
        if not 1 <= n <= len(self.stations):
            raise IndexError(f"move {n} is outside 1..{len(self.stations)}")
        return self.stations[n - 1]

    @property
    def log_probability(self) -> float:
        """Sum of the per-move log probabilities (what the route maximises)."""
        return sum(_log(p) for p in self.probabilities)

    def hops(self) -> Iterator[tuple[int, Station | None, Station, Ticket]]:
        """``(move, from, to, ticket)``; ``from`` is None for move 1 (the start is not drawn)."""
        prev: Station | None = None
        for i, (s, t) in enumerate(zip(self.stations, self.tickets), 1):
            yield i, prev, s, t
            prev = s

    def to_dict(self) -> dict[str, Any]:
        return {"weights": self.weights, "stations": list(self.stations), "tickets": [t.value for t in self.tickets],
                "probabilities": list(self.probabilities), "reveals": list(self.reveals)}

    def to_frame(self):  # -> pandas.DataFrame
        """One row per move: ``move`` (1-based), ``station``, ``ticket``, ``probability``,
        ``revealed`` (bool)."""
        import pandas as pd

        return pd.DataFrame({"move": range(1, len(self.stations) + 1), "station": list(self.stations),
                             "ticket": [t.value for t in self.tickets], "probability": list(self.probabilities),
                             "revealed": [m in self.reveals for m in range(1, len(self.stations) + 1)]})


def _log(p: float) -> float:
    return math.log(p) if p > 0 else -1e6  # a share too small for a float still ranks lowest


def likely_route(record: Record, weights: str = "paths") -> LikelyRoute:
    """Mr. X's most likely consistent route given the whole ``record`` (module docstring).

    Raises :class:`~sy_tools.analysis.tracker.InconsistentRecord` when no route fits."""
    from .possible import possible
    from .tracker import trace

    res = possible(record, weights=weights, history=True)
    hist = res.history or ()
    probs = res.history_probabilities or ()
    board = record.board
    steps = trace(record).steps[:len(hist)]
    tickets = tuple(st.ticket for st in steps)
    reveals = tuple(st.move for st in steps if st.revealed is not None)
    if not hist:
        return LikelyRoute((), (), (), (), (), weights)
    dets = _detectives_at_moves(record, len(hist))
    occupied = [st.occupied for st in steps]
    # Viterbi: best[s] = the best log score of a route prefix ending at s after this move
    best = {s: _log(probs[0].get(s, 0.0)) for s in hist[0]}
    back: list[dict[Station, Station]] = []
    for i in range(1, len(hist)):
        t = tickets[i]
        live = StationSet.of(hist[i]).mask
        p = probs[i]
        nxt: dict[Station, float] = {}
        came: dict[Station, Station] = {}
        for s in sorted(best):  # ascending: on ties the smaller predecessor wins
            score = best[s]
            for d in StationSet(mrx_targets(board, 1 << s, t, occupied[i], record.rules) & live):
                if d not in nxt or score > nxt[d]:
                    nxt[d] = score
                    came[d] = s
        best = {d: sc + _log(p.get(d, 0.0)) for d, sc in nxt.items()}
        back.append(came)
    end = min(best, key=lambda s: (-best[s], s))
    route = [end]
    for came in reversed(back):
        route.append(came[route[-1]])
    route.reverse()
    return LikelyRoute(tuple(route), tickets, tuple(probs[i].get(s, 0.0) for i, s in enumerate(route)), reveals,
                       dets, weights)


def _detectives_at_moves(record: Record, n: int) -> tuple[dict[str, Station], ...]:
    """Where the detectives stood when Mr. X made each of his first ``n`` moves."""
    pos = {d.name: d.start for d in record.detectives}
    out: list[dict[str, Station]] = []
    for rnd in record.rounds:
        for _ in rnd.mrx:
            if len(out) < n:
                out.append(dict(pos))
        for dm in rnd.detectives:
            pos[dm.name] = dm.to
    return tuple(out)


def letter(ticket: Ticket) -> str:
    """The notation's ticket letter: T, B, U, K."""
    return TICKET_LETTERS[ticket]
