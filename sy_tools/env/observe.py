"""The environment's observations: what each side sees, as arrays in fixed Gymnasium spaces.

Every observation is ``{"observation": {...}, "action_mask": ...}`` (PettingZoo's convention
for legal moves).  ``S`` stations (``board.stations`` ascending: a station's *index* is its
place there), ``D`` detectives in turn order, ``L`` = ``rules.log_length``.  What every agent
sees (the detectives' whole view, all of it public):

* ``detectives`` (D, S) int8: each detective's station, one-hot;
* ``detective_tickets`` (D, 3) int64: each detective's taxi, bus, underground tickets;
* ``out`` (D,) int8: 1 for a detective that is out (stuck for good);
* ``to_move`` (D + 1,) int8: whose turn, Mr. X at 0 and detective ``i`` at ``i + 1``; all 0
  when the game is over;
* ``mrx_tickets`` (5,) int64: Mr. X's taxi, bus, underground, black, double tickets;
* ``shown`` (L, 4) int8: per travel-log entry, the ticket he showed (taxi, bus, underground,
  black), one-hot;
* ``reveals`` (L, S) int8: per travel-log entry, the station he showed there (a fixed or a
  voluntary reveal);
* ``possible`` (S,) int8: 1 where he may be (the detectives' possible set);
* ``round``, ``move`` (1,) int64: rounds begun, travel-log entries made;
* with ``probabilities`` (a weights name of :func:`~sy_tools.analysis.possible.possible`),
  ``probabilities`` (S,) float32: his probability per station.

A detective's observation adds ``agent`` (D,) int8, which detective it is (one-hot); Mr. X's
adds ``mrx`` (S,) int8, his station (one-hot), and ``doubles_used`` (1,) int64.  The mask is
``action_mask``: int8, one per action of :mod:`sy_tools.env.actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from ..engine.rules import Rules
from ..engine.stations import Station, StationMask
from ..engine.tickets import DETECTIVE_TICKET_KINDS, MRX_MOVE_TICKETS, MRX_TICKET_KINDS, Ticket, Tickets
from .actions import ActionCodec

#: the fields of every observation, in their order
PUBLIC_FIELDS = ("detectives", "detective_tickets", "out", "to_move", "mrx_tickets", "shown", "reveals", "possible",
                 "round", "move")


@dataclass(frozen=True)
class PublicState:
    """What every agent sees of a game (the detectives' whole view), as engine values."""

    stations: tuple[Station, ...]
    tickets: tuple[Tickets, ...]
    out: frozenset[str]
    turn: int | None  # 0 Mr. X, i + 1 detective i, None when the game is over
    mrx_tickets: Tickets
    shown: tuple[Ticket, ...]
    reveals: Mapping[int, Station]
    possible: StationMask
    round: int
    move: int
    probabilities: Mapping[Station, float] | None = None


class ObservationLayout:
    """The observation spaces of one game set-up and the arrays that fill them."""

    def __init__(self, codec: ActionCodec, rules: Rules, probabilities: str | None = None) -> None:
        self.codec = codec
        self.rules = rules
        self.names = codec.names
        self.probabilities = probabilities
        self._numbers = np.array(codec.stations, dtype=np.intp)
        self._nbytes = (max(codec.stations, default=0) + 8) // 8
        d, s, log = len(self.names), len(codec.stations), rules.log_length
        top = int(np.iinfo(np.int64).max)  # a rules file may give 18-digit ticket counts: highs stay in int64
        dt = [int(rules.detective_tickets.get(k, 0)) for k in DETECTIVE_TICKET_KINDS]
        start = rules.mrx_start_tickets(d)
        xt = [int(start.get(k, 0)) + (dt[i] * d if i < 3 and rules.tickets_to_mrx else 0)
               for i, k in enumerate(MRX_TICKET_KINDS)]
        det_high = np.array([min(t, top) for t in dt], dtype=np.int64)
        mrx_high = np.array([min(t, top) for t in xt], dtype=np.int64)
        #: the most rounds a game can have: a round spends a detective ticket or a travel-log entry
        self.max_round = min(log + sum(dt) * d + 1, top)
        public: dict[str, spaces.Space[Any]] = {
            "detectives": spaces.Box(0, 1, (d, s), np.int8),
            "detective_tickets": spaces.Box(np.zeros((d, 3), np.int64), np.tile(det_high, (d, 1)), dtype=np.int64),
            "out": spaces.Box(0, 1, (d,), np.int8),
            "to_move": spaces.Box(0, 1, (d + 1,), np.int8),
            "mrx_tickets": spaces.Box(np.zeros(5, np.int64), mrx_high, dtype=np.int64),
            "shown": spaces.Box(0, 1, (log, len(MRX_MOVE_TICKETS)), np.int8),
            "reveals": spaces.Box(0, 1, (log, s), np.int8),
            "possible": spaces.Box(0, 1, (s,), np.int8),
            "round": spaces.Box(0, self.max_round, (1,), np.int64),
            "move": spaces.Box(0, log, (1,), np.int64),
        }
        if probabilities is not None:
            public["probabilities"] = spaces.Box(0.0, 1.0, (s,), np.float32)
        mrx = {**public, "mrx": spaces.Box(0, 1, (s,), np.int8),
               "doubles_used": spaces.Box(0, max(rules.double_moves_per_game, 0), (1,), np.int64)}
        det = {**public, "agent": spaces.Box(0, 1, (d,), np.int8)}
        self.mrx_space = spaces.Dict({"observation": spaces.Dict(mrx),
                                      "action_mask": spaces.Box(0, 1, (codec.mrx_size,), np.int8)})
        self.detective_space = spaces.Dict({"observation": spaces.Dict(det),
                                            "action_mask": spaces.Box(0, 1, (codec.detective_size,), np.int8)})

    # ---- arrays ---------------------------------------------------------------------------------

    def _stations(self, mask: StationMask) -> np.ndarray:
        """A station mask as a 0/1 vector over the stations' indices."""
        bits = np.unpackbits(np.frombuffer(mask.to_bytes(self._nbytes, "little"), dtype=np.uint8), bitorder="little")
        return bits[self._numbers].astype(np.int8)

    def public(self, st: PublicState) -> dict[str, np.ndarray]:
        """The fields every agent sees."""
        idx = self.codec.index
        d, s, log = len(self.names), len(self.codec.stations), self.rules.log_length
        dets = np.zeros((d, s), dtype=np.int8)
        for i, at in enumerate(st.stations):
            dets[i, idx[at]] = 1
        to_move = np.zeros(d + 1, dtype=np.int8)
        if st.turn is not None:
            to_move[st.turn] = 1
        shown = np.zeros((log, len(MRX_MOVE_TICKETS)), dtype=np.int8)
        for n, t in enumerate(st.shown[:log]):
            shown[n, MRX_MOVE_TICKETS.index(t)] = 1
        reveals = np.zeros((log, s), dtype=np.int8)
        for n, at in st.reveals.items():
            if 1 <= n <= log:
                reveals[n - 1, idx[at]] = 1
        out: dict[str, np.ndarray] = {
            "detectives": dets,
            "detective_tickets": np.array([[t[k] for k in DETECTIVE_TICKET_KINDS] for t in st.tickets],
                                          dtype=np.int64).reshape(d, 3),
            "out": np.array([n in st.out for n in self.names], dtype=np.int8),
            "to_move": to_move,
            "mrx_tickets": np.array([st.mrx_tickets[k] for k in MRX_TICKET_KINDS], dtype=np.int64),
            "shown": shown,
            "reveals": reveals,
            "possible": self._stations(st.possible),
            "round": np.array([min(st.round, self.max_round)], dtype=np.int64),
            "move": np.array([st.move], dtype=np.int64),
        }
        if self.probabilities is not None:
            probs = np.zeros(s, dtype=np.float32)
            for at, p in (st.probabilities or {}).items():
                probs[idx[at]] = min(max(p, 0.0), 1.0)
            out["probabilities"] = probs
        return out

    def detective(self, st: PublicState | dict[str, np.ndarray], name: str, mask: np.ndarray) -> dict[str, Any]:
        """Detective ``name``'s observation (``st``: the public state, or its :meth:`public` arrays)."""
        obs = self.public(st) if isinstance(st, PublicState) else st
        agent = np.zeros(len(self.names), dtype=np.int8)
        agent[self.names.index(name)] = 1
        obs["agent"] = agent
        return {"observation": obs, "action_mask": mask}

    def mrx(self, st: PublicState | dict[str, np.ndarray], at: Station | None, doubles_used: int,
            mask: np.ndarray) -> dict[str, Any]:
        """Mr. X's observation (``at``: his station; ``st`` as for :meth:`detective`)."""
        obs = self.public(st) if isinstance(st, PublicState) else st
        obs["mrx"] = self._stations(0 if at is None else 1 << at)
        obs["doubles_used"] = np.array([doubles_used], dtype=np.int64)
        return {"observation": obs, "action_mask": mask}

