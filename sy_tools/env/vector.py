"""``VectorEngine``: ``N`` games of Scotland Yard stepped at once with numpy, for learning.

Each game is the AEC env's (:class:`~sy_tools.env.aec.ScotlandYardEnv`) game: the same turns,
the same action numbering (:mod:`sy_tools.env.actions`), the same deals from the same seeds, and
the same rules, which the tests check step by step against the AEC env and the engine.  One
``step(actions)`` plays one action in every game: the action of the agent to act there (Mr. X,
or the detective whose turn it is; :attr:`VectorEngine.turn` says which).

* **State** as arrays over games (station *indices*: a station's place in ``board.stations``
  ascending): the detectives' stations and tickets, Mr. X's station and tickets, the turn, the
  detectives' possible set kept packed (``possible`` reads it as a new ``(N, S)`` bool array;
  assign a whole array to change it).
* **Legal actions** of the agent to act in every game, as bitsets over per-station candidate
  tables (a detective's ``(ticket, to)`` hops, Mr. X's single and double moves;
  :mod:`sy_tools.env.vector_bits`): those the tickets held allow, less those a detective's
  station blocks, computed once when the turn passes to that agent.  :meth:`VectorEngine.masks`
  expands them to the action masks, :meth:`VectorEngine.sample` draws a uniformly random legal
  action per game from them, and :meth:`VectorEngine.step` checks each action against them.
* **Observations**: the flat float32 vector of :mod:`sy_tools.env.flat` for the agent to act
  (Mr. X's station only in his own view), ``(N, size)``, kept in one buffer and rewritten only
  where a step changed it (the one-hot cells that moved, the possible set and probabilities of
  the games whose set changed, the globals that changed); the tests check it against the AEC
  env's at every step.
* **Auto-reset**: a game that ends is dealt anew in the same step (its final outcome in the
  step's ``info``); game numbers are handed out in order, so slot ``j``'s games are games
  of the run ``seed`` as ``env.reset(seed=seed, options={"game": g})`` deals them
  (:attr:`VectorEngine.games`).

Rule decisions the engine makes in one function are asked of that function
(:func:`~sy_tools.engine.position.double_allowed`, :meth:`Rules.stuck_is_out`); the move rules
are those of :mod:`sy_tools.engine.playout` on station sets.  Rules the counting fast paths do
not model (:func:`~sy_tools.engine.rules.counting_models`: the cut-off escape, the voluntary
reveal), except ``mrx_onto_detective: caught`` which this module models, step each game through
its own AEC env instead: the same results, at the AEC env's speed.

An illegal action (not in the game's mask, or not an action) is refused: :class:`InputError`
naming the first such game, and nothing is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.position import double_allowed
from ..engine.rules import Rules, unmodelled_rule_fields
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, MRX_TICKET_KINDS
from ..errors import InputError
from ..selfplay.game import DETECTIVE_NAMES, Dealer, game_record, game_rng
from .actions import ActionCodec
from .checks import action_array, env_board, env_detectives, env_flag, env_rules, env_seed, env_slot, env_starts
from .flat import Batch, FlatLayout
from .vector_bits import BitTables, count, draw, has, kth, pack, union, unpack
from .vector_bits import rows as rows_of

#: outcome codes of :attr:`VectorEngine.outcome`, by kind
OUTCOMES = ("in-progress", "capture", "trapped", "detectives-stuck", "log-full")
IN_PROGRESS, CAPTURE, TRAPPED, STUCK, LOG_FULL = range(5)


@dataclass
class Step:
    """What one :meth:`VectorEngine.step` returns, per game: the observation now (of a new
    game where one ended), the reward of each side (``[:, 0]`` Mr. X, ``[:, 1]`` the
    detectives: +1 / -1 at the end, else 0), whether the game ended (and was dealt anew), its
    outcome code (:data:`OUTCOMES`) and the ``(seed, game)`` number of the game that ended."""

    obs: np.ndarray
    rewards: np.ndarray
    ended: np.ndarray
    outcome: np.ndarray
    game: np.ndarray


#: per byte value, its 8 bits (lowest first) as float32 0/1
_BYTE_FLOATS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.float32)

#: the rewards ``(Mr. X, the detectives)`` per outcome code: 0 in progress, +1 to the winner
_REWARDS = np.array([(0, 0), (-1, 1), (-1, 1), (1, -1), (1, -1)], dtype=np.float32)


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """``np.concatenate(parts)``, without the copy when there is one part (nearly always: the
    possible sets of ~700 games are half a megabyte)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _tables(codec: ActionCodec) -> dict[str, np.ndarray]:
    """Per station: every detective hop, Mr. X single move and double move, as action numbers
    with their tickets and stations (padded with -1)."""
    board, idx, s = codec.board, codec.index, len(codec.stations)

    def pad(rows: list[list[Any]], width: int) -> np.ndarray:
        k = max((len(r) for r in rows), default=0) or 1
        out = np.full((len(rows), k, width), -1, dtype=np.int64)
        for i, r in enumerate(rows):
            if r:
                out[i, :len(r)] = r
        return out

    det, single, double = [], [], []
    by_from: dict[int, list[tuple[int, int, int]]] = {}
    for k, (a, t, b) in enumerate(codec.hops):
        by_from.setdefault(idx[a], []).append((k, MRX_MOVE_TICKETS.index(t), idx[b]))
    for st in codec.stations:
        det.append([(DETECTIVE_TICKETS.index(t) * s + idx[d], DETECTIVE_TICKETS.index(t), idx[d])
                    for t in DETECTIVE_TICKETS for d in board.destinations(st, t)])
        one, two = [], []
        for t1, t in enumerate(MRX_MOVE_TICKETS):
            for d in board.destinations(st, t):
                one.append((t1 * s + idx[d], t1, idx[d]))
                for hop, t2, d2 in by_from.get(idx[d], []):
                    two.append((codec.singles + t1 * len(codec.hops) + hop, t1, idx[d], t2, d2))
        single.append(one)
        double.append(two)
    dbl = pad(double, 5)
    valid = dbl[:, :, 0] >= 0
    z = np.where(valid[:, :, None], dbl, 0)
    return {"det": pad(det, 3), "single": pad(single, 3), "d_valid": valid, "d_act": z[:, :, 0],
            "d_pair": (z[:, :, 1] * 4 + z[:, :, 3]).astype(np.intp), "d_to1": z[:, :, 2].astype(np.intp),
            "d_to2": z[:, :, 4].astype(np.intp)}


class VectorEngine:
    """``num_games`` games of ``detectives`` detectives on ``map`` under ``rules`` (as the AEC
    env takes them), dealt from the run ``seed`` (a seed as ``simulate --seed`` takes it).
    ``keep_records``: keep every game's moves, for :meth:`record_json` (slower)."""

    def __init__(self, num_games: int, rules: Rules | str = "classic", map: str | Board = "london",
                 detectives: int = 5, seed: int = 0, starts: str | tuple[Station, ...] | None = None,
                 keep_records: bool = False) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise InputError(f"num_games must be a positive integer, got {num_games!r}")
        detectives = env_detectives(detectives, len(DETECTIVE_NAMES))
        seed = env_seed(seed)
        self.rules: Rules = env_rules(rules)
        self.board: Board = env_board(map)
        starts = env_starts(starts, self.board)
        keep_records = env_flag(keep_records, "keep_records")
        self.map_spec = map if isinstance(map, str) else self.board.name
        self.n, self.d = int(num_games), int(detectives)
        self.names = DETECTIVE_NAMES[:self.d]
        self.starts = starts
        self.seed = int(seed)
        self.keep_records = keep_records
        self.codec = ActionCodec(self.board, self.rules, self.names)
        self.flat = FlatLayout(self.board, self.rules, self.d)
        self.stations = self.codec.stations
        s = len(self.stations)
        self._idx = np.full(max(self.stations) + 1, -1, dtype=np.int64)
        self._idx[list(self.stations)] = np.arange(s)
        #: Mr. X's tickets' reach: ``(4, S, S)`` bool, taxi, bus, underground, black (every transport)
        self.reach = np.zeros((4, s, s), dtype=bool)
        for k, t in enumerate(MRX_MOVE_TICKETS):
            for a in self.stations:
                for b in self.board.destinations(a, t):
                    self.reach[k, self._idx[a], self._idx[b]] = True
        self._words = (s + 63) // 64
        self._nbytes = (s + 7) // 8
        #: Mr. X's reach from each station as packed bits, ``(4, S, words)`` uint64
        self._reach_bits = np.zeros((4, s, self._words), dtype=np.uint64)
        padded = np.zeros((4, s, self._words * 64), dtype=bool)
        padded[:, :, :s] = self.reach
        self._reach_bits[:] = np.packbits(padded, axis=2, bitorder="little").view(np.uint64)
        #: the step of a set of stations a byte at a time, one row of words per ``(ticket, byte,
        #: value)``: row ``(ticket * bytes + byte) * 256 + value``
        table = np.zeros((4, self._nbytes, 256, self._words), dtype=np.uint64)
        vals = np.arange(256)
        for pos in range(self._nbytes):
            for bit in range(8):
                st = pos * 8 + bit
                if st < s:
                    table[:, pos, (vals >> bit) & 1 == 1] |= self._reach_bits[:, st][:, None, :]
        self._step_table = table.reshape(-1, self._words)
        #: each station alone as packed bits, ``(S, words)`` uint64
        self._station_bits = pack(np.eye(s, dtype=bool))
        #: whether any line of each detective ticket leaves each station: ``(S, 3)``
        self._has_line: np.ndarray = np.asarray(self.reach[:3].any(axis=2)).T
        self._tab = _tables(self.codec)
        self._caught = self.rules.mrx_onto_detective == "caught"
        self._reveal = np.array([self.rules.is_reveal(m) for m in range(self.rules.log_length + 2)], dtype=bool)
        self._out_if = {can: self.rules.stuck_is_out(can) for can in (False, True)}  # the blocked_detective rule
        hops = tuple((int(self._idx[a]), MRX_MOVE_TICKETS.index(t), int(self._idx[b])) for a, t, b in self.codec.hops)
        self._bits = BitTables(self._tab, hops, s, self._caught)
        #: per set of detectives out (bits) and start: the first detective from the start on
        #: that is not out (``d``: none), row ``out_bits * (d + 1) + start``
        outs = (np.arange(2 ** self.d)[:, None] >> np.arange(self.d)) & 1  # (2^d, d)
        later = np.arange(self.d)[None, :] >= np.arange(self.d + 1)[:, None]  # (d + 1, d): detective >= start
        ok = (outs[:, None, :] == 0) & later[None]
        self._first_in = np.where(ok.any(axis=2), ok.argmax(axis=2), self.d).reshape(-1)
        #: the to_move field per turn + 1 (0: the game is over, no one to move)
        self._to_move = np.vstack([np.zeros((1, self.d + 1)), np.eye(self.d + 1)]).astype(np.float32)
        # the double-move rule asked once per (doubles used, moves made) a game can meet: his double
        # tickets are always those he started with less those used (he is never handed one), and
        # each double move fills two log entries, so at most log_length // 2 are used (the table
        # stays small whatever number of double tickets the rules give him)
        start = int(self.rules.mrx_start_tickets(self.d).get("double", 0))
        used = min(start, self.rules.log_length // 2)
        self._double_ok = np.array([[double_allowed(self.rules, start - u, u, m) for m in range(self.rules.log_length + 2)]
                                    for u in range(used + 1)], dtype=bool)
        unmodelled = set(unmodelled_rule_fields(self.rules)) - {"mrx_onto_detective"}
        self.fallback = bool(unmodelled)
        self._envs: list[Any] = []
        if self.fallback:
            from .aec import ScotlandYardEnv

            self._envs = [ScotlandYardEnv(self.rules, self.board, self.d, starts=starts) for _ in range(self.n)]
            for e in self._envs:
                e.map_spec = self.map_spec
        #: the tickets every game starts with
        self._det_start = [int(self.rules.detective_tickets.get(k, 0)) for k in ("taxi", "bus", "underground")]
        x = self.rules.mrx_start_tickets(self.d)
        self._mrx_start = [int(x.get(k, 0)) for k in MRX_TICKET_KINDS]
        self._dealer = Dealer(self.board, self.rules, self.d, starts)
        #: Mr. X's start deck, ``(S,)`` bool
        self._mrx_deck = np.zeros(s, dtype=bool)
        self._mrx_deck[self._idx[list(self._dealer.mrx_deck)]] = True
        self._next_game = 0
        self._live_rows: tuple[np.ndarray, np.ndarray] | None = None
        cell = np.arange(self.n * self.d)
        #: per (game, detective) cell of the flat ``(N, D)`` arrays, where its one-hot channel
        #: starts in the flat observation buffer (a lookup instead of a division a step)
        self._det_cell_base = (cell // self.d) * self.flat.size + (cell % self.d) * s
        self.ended_records: dict[int, dict[str, Any]] = {}
        self.reset(self.seed)

    # ---- spaces ---------------------------------------------------------------------------------

    @property
    def observation_size(self) -> int:
        return self.flat.size

    def adjacency(self) -> np.ndarray:
        """The board as a graph, ``(4, S, S)``: :meth:`FlatLayout.adjacency`."""
        return self.flat.adjacency()

    # ---- dealing --------------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> np.ndarray:
        """Deal games ``0 .. N - 1`` of the run ``seed`` (default: the engine's) into the slots;
        return the observations."""
        if seed is not None:
            self.seed = env_seed(seed)
        n, d = self.n, self.d
        self.det_at = np.zeros((n, d), dtype=np.int64)
        self.det_tk = np.zeros((n, d, 3), dtype=np.int64)
        self.out = np.zeros((n, d), dtype=bool)
        self.mrx_at = np.zeros(n, dtype=np.int64)
        self.mrx_tk = np.zeros((n, 5), dtype=np.int64)
        self.move = np.zeros(n, dtype=np.int64)
        self.round = np.zeros(n, dtype=np.int64)
        self.doubles = np.zeros(n, dtype=np.int64)
        self.turn = np.zeros(n, dtype=np.int64)
        self.outcome = np.zeros(n, dtype=np.int64)
        self.last_reveal = np.full(n, -1, dtype=np.int64)
        #: ``(N, 2)``: each slot's ``(seed, game)``
        self.games = np.zeros((n, 2), dtype=np.int64)
        self._records: list[list[Move]] = [[] for _ in range(n)]
        self._starts: list[tuple[Station, Sequence[Station], Sequence[Station]]] = [(0, (), ())] * n
        b = self._bits
        # the legal set of the agent to act, per game: a detective's hops, Mr. X's single and
        # double moves as bitsets (vector_bits), whether his one legal move is the pass
        self._det_legal = np.zeros((n, b.det_tmask.shape[-1]), dtype=np.uint64)
        self._one_legal = np.zeros((n, b.one_tmask.shape[-1]), dtype=np.uint64)
        self._two_legal = np.zeros((n, b.two_tmask.shape[-1]), dtype=np.uint64)
        self._pass = np.zeros(n, dtype=bool)
        self._packed = np.zeros((n, self._words), dtype=np.uint64)  # ``possible``, packed
        self._count = np.zeros(n, dtype=np.int64)  # the size of each game's possible set
        self._dpat = np.zeros((n, d), dtype=np.int64)  # each detective's tickets held, as bits
        self._outbits = np.zeros(n, dtype=np.intp)  # the detectives out for good, as bits
        self._clear_pending()
        self._next_game = 0
        self._deal(np.arange(n))
        self._rebuild_observation()
        return self._obs

    def due_to_truncate(self, max_cycles: int) -> np.ndarray:
        """``(N,)`` bool: the games in progress whose ``max_cycles`` rounds are played, Mr. X to
        begin the next (the AEC env's ``max_cycles`` rule)."""
        return (self.outcome == IN_PROGRESS) & (self.turn == 0) & (self.round >= max_cycles)

    def truncate(self, slots: np.ndarray) -> dict[int, dict[str, Any]]:
        """End the games in ``slots`` (ascending) where they stand and deal the run's next games
        there, as a step does for a game that ends; return their records by slot
        (``keep_records=True``; else empty)."""
        records = {int(j): self.record_json(int(j)) for j in slots} if self.keep_records else {}
        self._deal(slots)
        return records

    def _deal(self, slots: np.ndarray) -> None:
        """Deal the next games of the run into ``slots`` (ascending)."""
        d = self.d
        if self.fallback:
            for j in slots.tolist():
                g = self._next_game
                self._next_game += 1
                self.games[j] = (self.seed, g)
                e = self._envs[j]
                e.reset(seed=self.seed, options={"game": g})
                self._starts[j] = e.start
                self._sync(j)
            return
        if not len(slots):
            return
        first = self._next_game
        games = range(first, first + len(slots))
        if self.keep_records:
            dealt = [self._dealer.deal(game_rng(self.seed, g)) for g in games]
            for j, one in zip(slots.tolist(), dealt):
                self._starts[j] = one  # (Mr. X's start, the detectives' starts, his start candidates)
                self._records[j] = []
            drawn: Sequence[tuple[Station, Sequence[Station]]] = [(one[0], one[1]) for one in dealt]
        else:  # the same draws, without the start candidates (his deck less the detectives)
            drawn = self._dealer.draw_games(self.seed, games)
        self._next_game += len(slots)
        self.games[slots, 0] = self.seed
        self.games[slots, 1] = np.arange(first, self._next_game)
        self.det_at[slots] = self._idx[np.array([one[1] for one in drawn], dtype=np.int64).reshape(len(slots), d)]
        self.det_tk[slots] = self._det_start
        self.out[slots] = False
        self._outbits[slots] = 0
        self.mrx_at[slots] = self._idx[[one[0] for one in drawn]]
        self.mrx_tk[slots] = self._mrx_start
        self.move[slots] = self.round[slots] = self.doubles[slots] = self.turn[slots] = 0
        self.outcome[slots] = IN_PROGRESS
        # his start candidates: the deck less the detectives
        dealt_sets = np.repeat(self._mrx_deck[None, :], len(slots), axis=0)
        dealt_sets[np.arange(len(slots))[:, None], self.det_at.take(slots, axis=0)] = False
        self._count[slots] = dealt_sets.view(np.uint8).sum(axis=1)
        self._packed[slots] = self._pack(dealt_sets)
        self.last_reveal[slots] = -1
        self._dpat[slots] = self._pattern(self.det_tk.take(slots, axis=0))
        self._dirty.append((slots, dealt_sets))
        self._gdirty.append(slots)
        self._live_rows = None
        self._mrx_turn(slots)

    # ---- legal actions --------------------------------------------------------------------------

    @staticmethod
    def _bits_of(flags: np.ndarray) -> np.ndarray:
        """``(G, D)`` bool (D up to 8) as one integer per row, bit ``i`` for column ``i``."""
        return np.packbits(flags, axis=1, bitorder="little")[:, 0].astype(np.intp)

    @staticmethod
    def _pattern(tickets: np.ndarray) -> np.ndarray:
        """A detective's tickets held as bits (taxi 1, bus 2, underground 4), over the last axis."""
        held = tickets > 0
        return held[..., 0] * 1 + held[..., 1] * 2 + held[..., 2] * 4

    def _det_hops(self, rows: np.ndarray, who: np.ndarray) -> np.ndarray:
        """Detective ``who[k]``'s legal hops in game ``rows[k]`` as a bitset: those its tickets
        allow, less those onto a detective (the mover's own station is never a destination)."""
        b = self._bits
        cell = rows * self.d + who
        here = self.det_at.reshape(-1).take(cell)
        s = len(self.stations)
        blocked = union(b.det_occ, here[:, None] * s + self.det_at.take(rows, axis=0))
        return rows_of(b.det_tmask, here * 8 + self._dpat.reshape(-1).take(cell)) & ~blocked

    def _mrx_turn(self, rows: np.ndarray) -> None:
        """Mr. X is to move in games ``rows``: his legal moves (singles, doubles where
        :func:`double_allowed` and a single is legal, the pass) as bitsets; with no legal move he
        is trapped (the AEC env's rule, as ``simulate``'s)."""
        if not len(rows):
            return
        b, rules = self._bits, self.rules
        at = self.mrx_at[rows]
        tk = self.mrx_tk.take(rows, axis=0)
        room = self.move[rows] < rules.log_length
        s = len(self.stations)
        one = rows_of(b.one_tmask, at * 16 + self._bits_of(tk[:, :4] > 0))
        if not self._caught:
            one &= ~union(b.one_occ, at[:, None] * s + self.det_at.take(rows, axis=0))
        one[~room] = 0
        any1 = one.any(axis=1)
        self._one_legal[rows] = one
        self._pass[rows] = ~any1 & room & (not rules.trapped_loses)
        self._two_legal[rows] = 0
        dbl = any1 & self._double_ok[np.minimum(self.doubles[rows], self._double_ok.shape[0] - 1),
                                     np.minimum(self.move[rows], rules.log_length + 1)]
        if dbl.any():
            r2, at2 = rows[dbl], at[dbl]
            c = np.minimum(tk[dbl, :4], 2)
            two = rows_of(b.two_tmask, at2 * 81 + c[:, 0] + 3 * c[:, 1] + 9 * c[:, 2] + 27 * c[:, 3])
            two &= ~union(b.two_occ, at2[:, None] * s + self.det_at.take(r2, axis=0))
            self._two_legal[r2] = two
        trapped = ~any1 & (rules.trapped_loses | ~room)
        self.outcome[rows[trapped]] = TRAPPED

    def _live(self) -> tuple[np.ndarray, np.ndarray]:
        """The games in progress where Mr. X is to move, and where a detective is (kept until
        the state changes)."""
        if self._live_rows is None:
            live = self.outcome == IN_PROGRESS
            self._live_rows = np.flatnonzero(live & (self.turn == 0)), np.flatnonzero(live & (self.turn > 0))
        return self._live_rows

    def masks(self) -> tuple[np.ndarray, np.ndarray]:
        """``(mrx_mask, detective_mask)``: bool, ``(N, mrx actions)`` and ``(N, detective
        actions)``; a game's row is all False in the mask of the side not to act there."""
        mx = np.zeros((self.n, self.codec.mrx_size), dtype=bool)
        md = np.zeros((self.n, self.codec.detective_size), dtype=bool)
        if self.fallback:
            for j, e in enumerate(self._envs):
                m = e.observe(e.agent_selection)["action_mask"].astype(bool)
                (mx if self.turn[j] == 0 else md)[j] = m
            return mx, md
        b = self._bits
        x, dt = self._live()
        at = self.mrx_at[x]
        r, k = np.nonzero(unpack(self._one_legal.take(x, axis=0)))
        mx[x[r], b.one_act[at[r], k]] = True
        r, k = np.nonzero(unpack(self._two_legal.take(x, axis=0)))
        mx[x[r], b.two_act[at[r], k]] = True
        mx[x[self._pass[x]], self.codec.pass_action] = True
        here = self.det_at[dt, self.turn[dt] - 1]
        r, k = np.nonzero(unpack(self._det_legal.take(dt, axis=0)))
        md[dt[r], b.det_act[here[r], k]] = True
        return mx, md

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action in every game (``rng`` numpy's), without masks."""
        if not isinstance(rng, np.random.Generator):
            raise InputError(f"sample needs a numpy Generator (numpy.random.default_rng(seed)), got {type(rng).__name__}")
        out = np.zeros(self.n, dtype=np.int64)
        if self.fallback:
            mx, md = self.masks()
            for j in range(self.n):
                legal = np.flatnonzero(mx[j] if self.turn[j] == 0 else md[j])
                if len(legal):
                    out[j] = legal[int(rng.random() * len(legal))]
            return out
        b = self._bits
        u = rng.random(self.n)
        x, dt = self._live()
        here = self.det_at.take(dt * self.d + self.turn.take(dt) - 1)
        slot, _ = draw(self._det_legal.take(dt, axis=0), u[dt], b.det_size)
        out[dt] = b.det_act.take(here * b.det_act.shape[1] + slot)
        # Mr. X: the k-th of his single moves then double moves (the pass when it is his one move)
        at = self.mrx_at[x]
        n1 = count(self._one_legal.take(x, axis=0), b.one_size)
        n2 = count(self._two_legal.take(x, axis=0), b.two_size)
        pick = (u[x] * (n1 + n2)).astype(np.int64)
        single = pick < n1
        slot = kth(self._one_legal.take(x[single], axis=0), pick[single], b.one_size)
        out[x[single]] = b.one_act.take(at[single] * b.one_act.shape[1] + slot)
        two = ~single & (n2 > 0)
        slot = kth(self._two_legal.take(x[two], axis=0), pick[two] - n1[two], b.two_size)
        out[x[two]] = b.two_act.take(at[two] * b.two_act.shape[1] + slot)
        out[x[(n1 + n2) == 0]] = self.codec.pass_action
        return out

    # ---- stepping -------------------------------------------------------------------------------

    def step(self, actions: Any) -> Step:
        """Play ``actions[j]`` in game ``j`` for every game; deal a new game where one ends."""
        a = np.asarray(action_array(actions, (self.n,), f"actions 0 to {self.codec.pass_action}"))
        if a.shape != (self.n,) or not (np.issubdtype(a.dtype, np.integer) and a.dtype != np.bool_):
            raise InputError(f"actions must be {self.n} integers (shape ({self.n},)), got {a.dtype} of shape {a.shape}")
        a = a.astype(np.int64)
        if self.fallback:
            self._step_fallback(a)
        else:
            self._step_numpy(a)
        ended = self.outcome != IN_PROGRESS
        outcome = self.outcome.copy()
        game = self.games.copy()
        rewards = _REWARDS.take(outcome, axis=0)
        if ended.any():
            if self.keep_records:
                #: the records of the games the last step ended, by slot (``keep_records=True``)
                self.ended_records = {int(j): self.record_json(int(j)) for j in np.flatnonzero(ended)}
            self._deal(np.flatnonzero(ended))
        return Step(self.observe(), rewards, ended, outcome, game)

    def _refuse(self, j: int, action: int) -> None:
        who = "Mr. X" if self.turn[j] == 0 else f"detective {self.names[self.turn[j] - 1]}"
        raise InputError(f"game {j}: action {action} is not a legal action of {who} (nothing was played)")

    def _step_numpy(self, a: np.ndarray) -> None:
        b, s = self._bits, len(self.stations)
        x, dt = self._live()
        # ---- find each action among its game's legal set (refuse the step if one is not there)
        ax, at = a[x], self.mrx_at[x]
        is1 = (ax >= 0) & (ax < self.codec.singles)
        a1 = np.where(is1, ax, 0)
        slot1 = b.one_slot.take(at * self.codec.singles + a1)  # one_slot[at, ticket, to]
        ok1 = is1 & (slot1 >= 0) & has(self._one_legal, np.maximum(slot1, 0), x)
        is2 = (ax >= self.codec.singles) & (ax < self.codec.pass_action)
        a2 = np.where(is2, ax - self.codec.singles, 0)
        nh = len(b.hop_from)
        tt, hop = np.divmod(a2, nh)
        mid = b.hop_from[hop]
        slot2 = b.two_base.take((at * 4 + tt) * s + mid) + b.hop_rank[hop]
        ok2 = is2 & (slot2 >= b.hop_rank[hop]) & has(self._two_legal, np.maximum(slot2, 0), x)
        is_pass = (ax == self.codec.pass_action) & self._pass[x]
        bad = ~(ok1 | ok2 | is_pass)
        if bad.any():
            j = int(x[np.argmax(bad)])
            self._refuse(j, int(a[j]))
        ad = a[dt]
        who = self.turn[dt] - 1
        cell = dt * self.d + who  # (game, detective) in the flat (N, D) arrays
        here = self.det_at.take(cell)
        isd = (ad >= 0) & (ad < self.codec.detective_size)
        ad = np.where(isd, ad, 0)
        sd = b.det_slot.take(here * self.codec.detective_size + ad)  # det_slot[here, ticket, to]
        badd = ~(isd & (sd >= 0) & has(self._det_legal, np.maximum(sd, 0), dt))
        if badd.any():
            j = int(dt[np.argmax(badd)])
            self._refuse(j, int(a[j]))
        if self.keep_records:
            for j in np.concatenate([x, dt]).tolist():
                piece = MRX if self.turn[j] == 0 else self.names[self.turn[j] - 1]
                self._records[j].append(self.codec.decode(piece, int(a[j])))
        # ---- Mr. X
        if len(x):
            t1, to1 = np.divmod(a1, s)
            legs = np.where(is_pass, 0, np.where(ok1, 1, 2))
            t_first, to_first = np.where(ok1, t1, tt), np.where(ok1, to1, mid)
            if is_pass.any():
                p = x[is_pass]
                self._packed[p] = self._pack(self._unpack(self._packed.take(p, axis=0)) & ~self._can_move_from(p))
            sets = self._packed.take(x, axis=0)
            one = legs >= 1
            moved = sets[one]
            self._mrx_leg(x[one], t_first[one], to_first[one], moved)
            sets[one] = moved
            two = legs == 2
            moved = sets[two]
            self._mrx_leg(x[two], b.hop_ticket[hop[two]], b.hop_to[hop[two]], moved)
            sets[two] = moved
            self._packed[x] = sets
            now = self._floats(sets)
            self._count[x] = count(sets)
            self._moved.append((x, now))
            xr = x[two]
            self.mrx_tk[xr, 4] -= 1
            self.doubles[xr] += 1
            self.round[x] += 1
            self._xdirty.append(x)
            # the caught rule: onto a detective ends the game there
            if self._caught:
                onto = (self.det_at.take(x, axis=0) == self.mrx_at[x][:, None]).any(axis=1) & (legs > 0)
                self.outcome[x[onto]] = CAPTURE
                self.turn[x[onto]] = 0
                x = x[~onto]
        turns = [x, np.zeros(len(x), dtype=np.int64)]  # the games whose turn passes, from which detective
        # ---- the detectives
        if len(dt):
            td, tod = np.divmod(ad, s)
            tk = self.det_tk.reshape(-1)
            spent = cell * 3 + td
            tk[spent] -= 1
            left = tk.take(spent)
            dpat = self._dpat.reshape(-1)
            dpat[cell] = dpat.take(cell) & ~((left == 0) << td)  # a ticket kind used up
            if self.rules.tickets_to_mrx:
                gained = dt * 5 + td  # Mr. X takes the ticket
                mrx_tk = self.mrx_tk.reshape(-1)
                mrx_tk[gained] += 1
            self.det_at.reshape(-1)[cell] = tod
            words = self._packed.reshape(-1)
            at = dt * self._words + (tod >> 6)
            bit = np.uint64(1) << (tod & 63).astype(np.uint64)
            w = words.take(at)
            hit = (w & bit) != 0
            words[at] = w & ~bit
            self._count[dt[hit]] -= 1
            self._hits.append((dt[hit], tod[hit]))
            fl = self.flat
            self._tk_cells.append((dt, fl._offsets["detective_tickets"][0] + 3 * who + td,
                                   np.minimum(left * fl._det_scale[td], 1.0)))
            if self.rules.tickets_to_mrx:
                self._tk_cells.append((dt, fl._offsets["mrx_tickets"][0] + td,
                                       np.minimum(mrx_tk.take(gained) * fl._mrx_scale[td], 1.0)))
            caught = tod == self.mrx_at[dt]
            self.outcome[dt[caught]] = CAPTURE
            live = ~caught
            turns += [dt[live], who[live] + 1]
        self._mrx_turn(self._next_detective(np.concatenate(turns[::2]), np.concatenate(turns[1::2])))
        self._live_rows = None

    def _mrx_leg(self, rows: np.ndarray, ticket: np.ndarray, to: np.ndarray, sets: np.ndarray) -> None:
        """One leg of Mr. X's move in games ``rows``: his ticket, station and log, and the
        detectives' possible set after it (``sets``, packed, one row per game: the set stepped
        by the ticket, off the detectives' stations; the station itself on a reveal)."""
        if not len(rows):
            return
        self.mrx_tk[rows, ticket] -= 1
        self.mrx_at[rows] = to
        self.move[rows] += 1
        sets[:] = self._step_sets(sets, ticket) & ~union(self._station_bits, self.det_at.take(rows, axis=0))
        shown = self._reveal[np.minimum(self.move[rows], self.rules.log_length + 1)]
        if shown.any():
            r = rows[shown]
            sets[shown] = rows_of(self._station_bits, self.mrx_at[r])
            self.last_reveal[r] = self.mrx_at[r]

    def _pack(self, sets: np.ndarray) -> np.ndarray:
        """``(G, S)`` bool as ``(G, words)`` uint64."""
        out = np.zeros((len(sets), self._words * 8), dtype=np.uint8)
        out[:, :self._nbytes] = np.packbits(sets, axis=1, bitorder="little")
        return out.view(np.uint64)

    def _floats(self, words: np.ndarray) -> np.ndarray:
        """``(G, words)`` packed sets as ``(G, 8 * bytes)`` float32 0/1 (the columns past ``S``
        0), a byte at a time from a table; contiguous, so scaling it in place is a plain loop
        (on the ``(G, S)`` view numpy buffers, twice as slow)."""
        by = np.ascontiguousarray(words).view(np.uint8)[:, :self._nbytes]
        return _BYTE_FLOATS.take(by, axis=0).reshape(len(by), self._nbytes * 8)

    def _unpack(self, words: np.ndarray) -> np.ndarray:
        return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little")[
            :, :len(self.stations)].view(bool)

    def _step_sets(self, sets: np.ndarray, ticket: np.ndarray) -> np.ndarray:
        """Where Mr. X may be after a hop with ``ticket[k]`` from anywhere in ``sets[k]`` (packed,
        ``(G, words)``; detectives ignored): the board's step, a byte at a time."""
        if not len(sets):
            return sets
        nb = self._nbytes
        packed = np.ascontiguousarray(sets).view(np.uint8)[:, :nb].T  # (bytes, G)
        at = (ticket * nb + np.arange(nb)[:, None]) * 256 + packed  # (bytes, G)
        return np.bitwise_or.reduce(self._step_table.take(at, axis=0), axis=0)  # OR over (bytes, G, words)

    def _can_move_from(self, rows: np.ndarray) -> np.ndarray:
        """``(G, S)``: whether Mr. X standing on each station would have a legal move (the
        stations a pass leaves possible are the others)."""
        occ = np.zeros((len(rows), len(self.stations)), dtype=bool)
        occ[np.arange(len(rows))[:, None], self.det_at.take(rows, axis=0)] = True
        free = self._pack(np.ones_like(occ) if self._caught else ~occ)  # (G, words)
        out = np.zeros((len(rows), len(self.stations)), dtype=bool)
        for t in range(4):
            held = self.mrx_tk[rows, t] > 0
            out |= (self._reach_bits[t][None, :, :] & free[:, None, :]).any(axis=2) & held[:, None]
        return out & (self.move[rows] < self.rules.log_length)[:, None]

    def _next_detective(self, rows: np.ndarray, start: np.ndarray) -> np.ndarray:
        """Hand the turn to the first detective from ``start`` on that can move (one that
        cannot skips its turn, out for good where the rules say so); after the last, end the
        round.  Most games hand it to detective ``start`` itself: those are settled first, the
        rest in one pass over all their detectives (:meth:`_hand_over`).  Returns the games
        where Mr. X is now to move."""
        d = self.d
        # skip the detectives out for good: the first from ``start`` on that is not (or d)
        start = self._first_in.take(self._outbits.take(rows) * (d + 1) + np.minimum(start, d))
        near = start < d
        r, i = rows[near], start[near]
        hops = self._det_hops(r, i)
        # written for all: the games where detective i cannot move get theirs from _hand_over
        self.turn[r] = i + 1
        self._det_legal[r] = hops
        near[near] = hops.any(axis=1)
        return self._hand_over(rows[~near], start[~near])

    def _hand_over(self, rows: np.ndarray, start: np.ndarray) -> np.ndarray:
        """:meth:`_next_detective` for games ``rows`` all at once: every detective's legal hops,
        the first from ``start`` on that is not out and can move gets the turn; those passed
        over that cannot move skip it (out for good where :meth:`Rules.stuck_is_out` says so);
        where there is none, the round ends (the log full, or the detectives stuck when none
        can move).  Returns the games where Mr. X is now to move."""
        if not len(rows):
            return rows
        b, d = self._bits, self.d
        # at a round's end, a detective that can reach more stations than the others can block
        # surely has a move: those rounds end without listing the hops
        over = start >= d
        if over.any():
            r = rows[over]
            sure = b.det_reach.take(self.det_at.take(r, axis=0) * 8 + self._dpat.take(r, axis=0)) >= d
            done = (sure & ~self.out.take(r, axis=0)).any(axis=1)
            r = r[done]
            self.turn[r] = 0
            full = self.move[r] >= self.rules.log_length
            self.outcome[r[full]] = LOG_FULL
            mrx = r[~full]
            over[over] = done
            rows, start = rows[~over], start[~over]
            if not len(rows):
                return mrx
        else:
            mrx = rows[:0]
        here = self.det_at.take(rows, axis=0)  # (G, D)
        blocked = union(b.det_occ, here[:, :, None] * len(self.stations) + here[:, None, :])  # (G, D, W)
        hops = rows_of(b.det_tmask, here * 8 + self._dpat.take(rows, axis=0)) & ~blocked
        can = hops.any(axis=2)
        after = np.arange(d)[None, :] >= start[:, None]
        free = ~self.out.take(rows, axis=0)
        pick = after & free & can
        has = pick.any(axis=1)
        first = np.where(has, np.argmax(pick, axis=1), d)
        skipped = after & (np.arange(d)[None, :] < first[:, None]) & free & ~can
        if skipped.any():
            r, i = np.nonzero(skipped)
            ride = np.any(self._has_line[here[r, i]] & (self.det_tk[rows[r], i] > 0), axis=1)
            self.out[rows[r], i] = np.where(ride, self._out_if[True], self._out_if[False])
            self._outbits[rows[r]] = self._bits_of(self.out[rows[r]])
            self._gdirty.append(rows[r])
        g = np.flatnonzero(has)
        self.turn[rows[g]] = first[g] + 1
        self._det_legal[rows[g]] = hops[g, first[g]]
        ends = ~has
        rows, can = rows[ends], can[ends]
        self.turn[rows] = 0
        full = self.move[rows] >= self.rules.log_length
        self.outcome[rows[full]] = LOG_FULL
        moving = (can & ~self.out.take(rows, axis=0)).any(axis=1)
        self.outcome[rows[~full & ~moving]] = STUCK
        return np.concatenate([mrx, rows[~full & moving]])

    def _step_fallback(self, a: np.ndarray) -> None:
        live = [j for j, e in enumerate(self._envs) if e.agents and not any(e.terminations.values())]
        for j in live:
            e = self._envs[j]
            mask = e.observe(e.agent_selection)["action_mask"]
            if not 0 <= a[j] < len(mask) or not mask[a[j]]:
                self._refuse(j, int(a[j]))
        for j in live:
            self._envs[j].step(int(a[j]))
            self._sync(j)

    def _sync(self, j: int) -> None:
        """Copy game ``j``'s AEC env into the arrays (the fallback)."""
        e = self._envs[j]
        b = e.batch(True)
        for f in fields(Batch):
            if f.name != "possible":
                getattr(self, f.name)[j] = getattr(b, f.name)[0]
        sets = np.asarray(b.possible[:1], dtype=bool)
        self._packed[j] = self._pack(sets)[0]
        self._count[j] = int(sets.sum())
        pos = e.position
        self.turn[j] = 0 if pos.turn is None else pos.turn
        kind = e.outcome
        self.outcome[j] = OUTCOMES.index(kind) if kind in OUTCOMES else CAPTURE
        self._records[j] = list(e.moves)

    # ---- observations ---------------------------------------------------------------------------

    @property
    def possible(self) -> np.ndarray:
        """``(N, S)`` bool: the detectives' possible set of every game (a new array, from the
        packed sets the engine keeps; assign a whole array to change them)."""
        return self._unpack(self._packed)

    @possible.setter
    def possible(self, sets: np.ndarray) -> None:
        sets = np.asarray(sets, dtype=bool)
        self._packed = self._pack(sets)
        self._count = sets.sum(axis=1)

    def batch(self) -> Batch:
        """The games as a :class:`Batch` (Mr. X's station included)."""
        return Batch(self.det_at, self.det_tk, self.out, self.mrx_at, self.mrx_tk, self.move, self.round,
                     self.doubles, np.where(self.outcome == IN_PROGRESS, self.turn, -1), self.possible,
                     self.last_reveal)

    def _rebuild_observation(self) -> None:
        """Encode every game's observation afresh (after a reset, or after the state arrays were
        set from outside: then the legal sets are recomputed too)."""
        self._live_rows = None
        self._obs = self.flat.encode(self.batch(), self.turn == 0)
        self._shown_det = self.det_at.copy()
        self._shown_reveal = self.last_reveal.copy()
        self._shown_mrx = np.where(self.turn == 0, self.mrx_at, -1)
        self._clear_pending()

    def _clear_pending(self) -> None:
        #: what changed since the observation buffer was last written, beyond what
        #: :meth:`_refresh_observation` finds by comparing: games whose possible set changed
        #: (Mr. X moved, a new deal), whose globals of Mr. X's changed (he moved), whose globals
        #: all changed (a new deal, a detective out),
        #: ``(games, station)`` a detective took from the possible set, ``(games, column,
        #: value)`` of the ticket counts detectives' moves changed
        self._dirty: list[tuple[np.ndarray, np.ndarray]] = []  # new deals: (games, their possible sets)
        self._moved: list[tuple[np.ndarray, np.ndarray]] = []  # Mr. X moved: (games, their possible sets as 0/1)
        self._xdirty: list[np.ndarray] = []
        self._gdirty: list[np.ndarray] = []
        self._hits: list[tuple[np.ndarray, np.ndarray]] = []
        self._tk_cells: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def _recompute(self) -> None:
        """The legal sets and observations from the state arrays alone (for tests that set them)."""
        self._live_rows = None
        self._dpat = self._pattern(self.det_tk)
        self._outbits = self._bits_of(self.out)
        x, dt = self._live()
        self._det_legal[dt] = self._det_hops(dt, self.turn[dt] - 1)
        saved = self.outcome.copy()
        self._mrx_turn(x)
        self.outcome = saved
        self._rebuild_observation()

    def _refresh_observation(self) -> None:
        """Bring the observation buffer up to date: only what changed since it was last written
        (the one-hot cells that moved, the possible set and probabilities of the games whose set
        changed, and the globals of every game)."""
        o, fl = self._obs, self.flat
        size, d, s = fl.size, self.d, len(self.stations)
        flat = o.reshape(-1)
        fi = np.flatnonzero(self.det_at.reshape(-1) != self._shown_det.reshape(-1))
        if len(fi):
            shown = self._shown_det.reshape(-1)
            new = self.det_at.take(fi)
            base = self._det_cell_base.take(fi)
            flat[base + shown.take(fi)] = 0.0
            flat[base + new] = 1.0
            shown[fi] = new
        self._one_hot(self.last_reveal, self._shown_reveal, (d + 2) * s)
        self._one_hot(np.where(self.turn == 0, self.mrx_at, -1), self._shown_mrx, (d + 3) * s)
        # whose turn changes in nearly every game each step: the whole (small) field, one strided copy
        a, b = fl._offsets["to_move"]
        o[:, a:b] = self._to_move.take(np.where(self.outcome == IN_PROGRESS, self.turn + 1, 0), axis=0)
        for rows, col, value in self._tk_cells:
            flat[rows * size + col] = value
        if self._hits:
            rows = _joined([r for r, _ in self._hits])
            flat[rows * size + d * s + _joined([t for _, t in self._hits])] = 0.0
            p = self._floats(self._packed.take(rows, axis=0))
            p *= self._inverse_counts(rows)[:, None]
            o[rows, (d + 1) * s:(d + 2) * s] = p[:, :s]
        # the games Mr. X moved in first, then new deals (a game can be both: caught, dealt anew)
        if self._moved:
            self._write_possible(_joined([r for r, _ in self._moved]), _joined([m for _, m in self._moved]))
        if self._dirty:
            self._write_possible(_joined([r for r, _ in self._dirty]),
                                 _joined([m for _, m in self._dirty]).astype(np.float32))
        if self._xdirty:
            rows = _joined(self._xdirty)
            a, b = fl._offsets["mrx_tickets"][0], fl._offsets["doubles_used"][1]
            o[rows, a:b] = self._mrx_globals(rows)
        if self._gdirty:
            self._write_globals(_joined(self._gdirty))
        self._clear_pending()

    def _write_possible(self, rows: np.ndarray, sets: np.ndarray) -> None:
        """The possible and probability channels of games ``rows`` from their sets (float32 0/1,
        ``(G, S)`` or wider, the columns past ``S`` ignored; scaled in place)."""
        d, s = self.d, len(self.stations)
        self._obs[rows, d * s:(d + 1) * s] = sets[:, :s]
        sets *= self._inverse_counts(rows)[:, None]
        self._obs[rows, (d + 1) * s:(d + 2) * s] = sets[:, :s]

    def _inverse_counts(self, rows: np.ndarray) -> np.ndarray:
        """Per game of ``rows``, 1 / the size of its possible set (1 when empty), float32, as
        :meth:`FlatLayout.encode` computes it."""
        return (1.0 / np.maximum(self._count[rows], 1)).astype(np.float32)

    def _mrx_globals(self, rows: np.ndarray) -> np.ndarray:
        """Games ``rows``' globals from ``mrx_tickets`` to ``doubles_used`` (what Mr. X's move
        changes), ``(G, 9)`` float32, as :meth:`FlatLayout.encode` writes them."""
        fl = self.flat
        out = np.empty((len(rows), 9), dtype=np.float32)
        out[:, :5] = np.minimum(self.mrx_tk[rows] * fl._mrx_scale, 1.0)
        move = self.move[rows]
        out[:, 5] = np.minimum(self.round[rows] * fl._round_scale, 1.0)
        out[:, 6] = np.minimum(move * fl._log_scale, 1.0)
        out[:, 7] = fl._to_reveal[np.minimum(move, self.rules.log_length)]
        out[:, 8] = np.minimum(self.doubles[rows] * fl._double_scale, 1.0)
        return out

    def _write_globals(self, rows: np.ndarray) -> None:
        """The globals of games ``rows`` (:mod:`sy_tools.env.flat`'s table: whose turn, who is
        out, the tickets, round, move, next reveal, doubles), as :meth:`FlatLayout.encode`
        writes them."""
        fl, n = self.flat, len(rows)
        off = fl._offsets
        g0 = off["to_move"][0]
        out = np.empty((n, fl.size - g0), dtype=np.float32)

        def cols(name: str) -> slice:
            a, b = off[name]
            return slice(a - g0, b - g0)

        turn = np.where(self.outcome[rows] == IN_PROGRESS, self.turn[rows], -1)
        out[:, cols("to_move")] = self._to_move[turn + 1]
        out[:, cols("out")] = self.out[rows]
        out[:, cols("detective_tickets")] = np.minimum(self.det_tk[rows] * fl._det_scale, 1.0).reshape(n, 3 * self.d)
        out[:, off["mrx_tickets"][0] - g0:off["doubles_used"][1] - g0] = self._mrx_globals(rows)
        self._obs[rows, g0:] = out

    def _one_hot(self, want: np.ndarray, shown: np.ndarray, offset: int) -> None:
        """Move one one-hot channel's cells from ``shown`` to ``want`` (station indices, -1 none)."""
        r = np.flatnonzero(want != shown)
        if not len(r):
            return
        flat, size = self._obs.reshape(-1), self.flat.size
        old, new = shown[r], want[r]
        flat[(r * size + offset + old)[old >= 0]] = 0.0
        flat[(r * size + offset + new)[new >= 0]] = 1.0
        shown[r] = new

    def observe(self, copy: bool = False) -> np.ndarray:
        """``(N, size)`` float32: each game's flat observation of the agent to act (Mr. X's
        station only where he is to act).  The array is the engine's own buffer, refilled by the
        next ``observe``/``step`` (as Gymnasium's vector envs with ``copy=False``); ``copy``
        returns a new one."""
        if self.fallback:
            self.flat.encode(self.batch(), self.turn == 0, self._obs)
        else:
            self._refresh_observation()
        return self._obs.copy() if copy else self._obs

    def detectives_view(self) -> np.ndarray:
        """``(N, size)``: every game as the detectives see it (no station of Mr. X)."""
        return self.flat.encode(self.batch(), False)

    # ---- records --------------------------------------------------------------------------------

    def record_json(self, j: int) -> dict[str, Any]:
        """Game ``j``'s moves so far as a game.json document (``keep_records=True``)."""
        if not self.keep_records and not self.fallback:
            raise InputError("record_json needs VectorEngine(..., keep_records=True)")
        j = env_slot(j, self.n)
        mrx, dets, cands = self._starts[j]
        doc = game_record(self.board, self.rules, self.names, dets, mrx, cands, self._records[j])
        doc["map"] = self.map_spec
        return doc

    def with_rules(self, **changes: Any) -> VectorEngine:
        """A new engine like this one with rule fields changed (for experiments and tests)."""
        return VectorEngine(self.n, replace(self.rules, **changes), self.board, self.d, self.seed, self.starts,
                            self.keep_records)
