"""The flat observation: one float32 vector in [0, 1] per game, the same for every agent's view,
that a network takes as it is (the batched engine's observation, the AEC env's ``state()``, the
single-agent envs' observation).

``S`` stations (``board.stations`` ascending: a station's *index* is its place there), ``D``
detectives in turn order, ``C = D + 4`` channels per station.  The vector starts with the
stations block, ``C * S`` numbers channel by channel (``obs[: C * S].reshape(C, S).T`` gives a
graph network its node features, station by station), then the globals:

======================  =========  ==========================================================
field                    length     what
======================  =========  ==========================================================
``detective`` i          1 / stn    1 where detective ``i`` stands (channel ``i``)
``possible``             1 / stn    1 where Mr. X may be (the detectives' possible set)
``probability``          1 / stn    his probability there, each possible station alike
``last_reveal``          1 / stn    1 at the station he last showed (fixed or voluntary reveal)
``mrx``                  1 / stn    1 at his station: Mr. X's own view and ``state()`` only
``to_move``              D + 1      whose turn: Mr. X at 0, detective ``i`` at ``i + 1``
``out``                  D          1 for a detective out of the game
``detective_tickets``    3 D        taxi, bus, underground per detective / the rules' start count
``mrx_tickets``          5          taxi, bus, underground, black, double / their most
``round``                1          rounds begun / the most rounds a game can have
``move``                 1          travel-log entries made / the log's length
``next_reveal``          1          entries to the next fixed reveal / the log's length (0: none left)
``doubles_used``         1          double moves made / ``rules.double_moves_per_game``
======================  =========  ==========================================================

Counts are divided by the most they can be and clipped to 1.  :meth:`FlatLayout.fields` lists
the fields with their offsets; :meth:`FlatLayout.adjacency` is the board as a graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.board import Board
from ..engine.rules import Rules
from ..engine.tickets import DETECTIVE_TICKET_KINDS, MRX_TICKET_KINDS, Transport

#: the transports of :meth:`FlatLayout.adjacency`, in its order
TRANSPORTS = (Transport.TAXI, Transport.BUS, Transport.UNDERGROUND, Transport.FERRY)


@dataclass
class Batch:
    """The state of ``N`` games as arrays (stations as indices, -1 for none): what the flat
    observation is computed from, by the batched engine and (``N = 1``) by the AEC env."""

    det_at: np.ndarray  # (N, D) int
    det_tk: np.ndarray  # (N, D, 3) int64
    out: np.ndarray  # (N, D) bool
    mrx_at: np.ndarray  # (N,) int, -1 when not known
    mrx_tk: np.ndarray  # (N, 5) int64
    move: np.ndarray  # (N,) int
    round: np.ndarray  # (N,) int
    doubles: np.ndarray  # (N,) int
    turn: np.ndarray  # (N,) int: 0 Mr. X, i + 1 detective i, -1 over
    possible: np.ndarray  # (N, S) bool
    last_reveal: np.ndarray  # (N,) int, -1 when none yet


class FlatLayout:
    """The flat observation of one board, rules and number of detectives (module docstring)."""

    def __init__(self, board: Board, rules: Rules, detectives: int) -> None:
        self.board, self.rules, self.detectives = board, rules, detectives
        self.stations = tuple(sorted(board.stations))
        d, s, log = detectives, len(self.stations), rules.log_length
        self.channels = d + 4
        self.station_block = s * self.channels
        det_high = np.array([int(rules.detective_tickets.get(k, 0)) for k in DETECTIVE_TICKET_KINDS], dtype=np.float64)
        start = rules.mrx_start_tickets(d)
        gain = det_high * d if rules.tickets_to_mrx else np.zeros(3)
        mrx_high = np.array([float(start.get(k, 0)) for k in MRX_TICKET_KINDS])
        mrx_high[:3] += gain
        self._det_scale = 1.0 / np.maximum(det_high, 1.0)
        self._mrx_scale = 1.0 / np.maximum(mrx_high, 1.0)
        self._round_scale = 1.0 / (log + float(det_high.sum()) * d + 1)
        self._log_scale = 1.0 / max(log, 1)
        self._double_scale = 1.0 / max(rules.double_moves_per_game, 1)
        nxt = [rules.next_reveal(m) for m in range(log + 1)]
        self._to_reveal = np.array([0.0 if r is None else (r - m) / max(log, 1) for m, r in enumerate(nxt)],
                                   dtype=np.float32)
        names: tuple[tuple[str, int], ...] = (
            ("to_move", d + 1), ("out", d), ("detective_tickets", 3 * d), ("mrx_tickets", 5), ("round", 1),
            ("move", 1), ("next_reveal", 1), ("doubles_used", 1))
        self._offsets: dict[str, tuple[int, int]] = {}
        at = self.station_block
        for name, n in names:
            self._offsets[name] = (at, at + n)
            at += n
        self.size = at

    def fields(self) -> list[tuple[str, int, int]]:
        """``(field, start, length)`` of every field, in order: each per-station channel is ``S``
        numbers (one per station index) from ``channel * S``; then the globals."""
        s = len(self.stations)
        out = [(f"detective_{i}", i * s, s) for i in range(self.detectives)]
        for k, name in enumerate(("possible", "probability", "last_reveal", "mrx")):
            out.append((name, (self.detectives + k) * s, s))
        out += [(name, a, b - a) for name, (a, b) in self._offsets.items()]
        return out

    def space(self) -> Any:
        """The Gymnasium space: ``Box(0, 1, (size,), float32)``."""
        from gymnasium import spaces

        return spaces.Box(0.0, 1.0, (self.size,), np.float32)

    def adjacency(self) -> np.ndarray:
        """The board as a graph: ``(4, S, S)`` float32, 1 where a taxi, bus, underground or
        ferry connection joins two stations (by index; symmetric)."""
        s = len(self.stations)
        idx = {st: i for i, st in enumerate(self.stations)}
        out = np.zeros((len(TRANSPORTS), s, s), dtype=np.float32)
        for c in self.board.connections:
            k = TRANSPORTS.index(c.transport)
            out[k, idx[c.a], idx[c.b]] = out[k, idx[c.b], idx[c.a]] = 1.0
        return out

    def encode(self, b: Batch, mrx_view: np.ndarray | bool, out: np.ndarray | None = None,
               last: Batch | None = None) -> np.ndarray:
        """The ``(N, size)`` observations of the games in ``b``; Mr. X's channel is filled only
        where ``mrx_view`` (a bool or one per game) is true.  ``out``: an array to fill; with
        ``last``, the batch ``out`` was last filled from (its one-hot entries are cleared
        instead of the whole array)."""
        n, d, s, c = b.det_at.shape[0], self.detectives, len(self.stations), self.channels
        rows = np.arange(n)
        if out is None:
            out = np.zeros((n, self.size), dtype=np.float32)
        elif last is None:
            out.fill(0.0)
        else:
            self._clear(out, last)
        block = out[:, :self.station_block].reshape(n, c, s)
        for i in range(d):
            block[rows, i, b.det_at[:, i]] = 1.0
        block[:, d, :] = b.possible
        count = b.possible.sum(axis=1)
        np.multiply(b.possible, (1.0 / np.maximum(count, 1)).astype(np.float32)[:, None], out=block[:, d + 1, :])
        seen = b.last_reveal >= 0
        block[rows[seen], d + 2, b.last_reveal[seen]] = 1.0
        x = (b.mrx_at >= 0) & np.asarray(mrx_view)
        block[rows[x], d + 3, b.mrx_at[x]] = 1.0
        o = self._offsets
        live = b.turn >= 0
        out[rows[live], o["to_move"][0] + b.turn[live]] = 1.0
        out[:, slice(*o["out"])] = b.out
        out[:, slice(*o["detective_tickets"])] = np.minimum(b.det_tk * self._det_scale, 1.0).reshape(n, 3 * d)
        out[:, slice(*o["mrx_tickets"])] = np.minimum(b.mrx_tk * self._mrx_scale, 1.0)
        out[:, o["round"][0]] = np.minimum(b.round * self._round_scale, 1.0)
        out[:, o["move"][0]] = np.minimum(b.move * self._log_scale, 1.0)
        out[:, o["next_reveal"][0]] = self._to_reveal[np.minimum(b.move, self.rules.log_length)]
        out[:, o["doubles_used"][0]] = np.minimum(b.doubles * self._double_scale, 1.0)
        return out

    def _clear(self, out: np.ndarray, last: Batch) -> None:
        """Zero the one-hot entries ``out`` holds from ``last`` (every other entry is written
        whole by :meth:`encode`)."""
        n, d, s = last.det_at.shape[0], self.detectives, len(self.stations)
        rows = np.arange(n)
        block = out[:, :self.station_block].reshape(n, self.channels, s)
        for i in range(d):
            block[rows, i, last.det_at[:, i]] = 0.0
        block[rows, d + 2, np.maximum(last.last_reveal, 0)] = 0.0
        block[rows, d + 3, np.maximum(last.mrx_at, 0)] = 0.0
        out[:, slice(*self._offsets["to_move"])] = 0.0
