"""``VectorEngine``: ``N`` games of Scotland Yard stepped at once with numpy, for learning.

Each game is the AEC env's (:class:`~sy_tools.env.aec.ScotlandYardEnv`) game: the same turns,
the same action numbering (:mod:`sy_tools.env.actions`), the same deals from the same seeds, and
the same rules, which the tests check step by step against the AEC env and the engine.  One
``step(actions)`` plays one action in every game: the action of the agent to act there (Mr. X,
or the detective whose turn it is; :attr:`VectorEngine.turn` says which).

* **State** as arrays over games (station *indices*: a station's place in ``board.stations``
  ascending): the detectives' stations and tickets, Mr. X's station and tickets, the turn, the
  detectives' possible set as a ``(N, S)`` bool array.
* **Legal actions** from per-station candidate tables (a detective's ``(ticket, to)`` hops, Mr.
  X's single and double moves), checked against the tickets held and the stations occupied:
  :meth:`VectorEngine.masks` gives the action masks, :meth:`VectorEngine.sample` a uniformly
  random legal action per game without building them.
* **Observations**: the flat float32 vector of :mod:`sy_tools.env.flat` for the agent to act
  (Mr. X's station only in his own view), ``(N, size)``.
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

from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.position import double_allowed
from ..engine.rules import Rules, preset, unmodelled_rule_fields
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, MRX_TICKET_KINDS
from ..errors import InputError
from ..selfplay.budgets import SEED_MAX, SEED_MIN
from ..selfplay.game import DETECTIVE_NAMES, deal, game_record, game_rng
from .actions import ActionCodec
from .flat import Batch, FlatLayout

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
        from ..formats.map_load import load_board

        if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise InputError(f"num_games must be a positive integer, got {num_games!r}")
        if isinstance(detectives, bool) or not isinstance(detectives, (int, np.integer)) \
                or not 1 <= detectives <= len(DETECTIVE_NAMES):
            raise InputError(f"expected 1 to {len(DETECTIVE_NAMES)} detectives, got {detectives!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not SEED_MIN <= seed <= SEED_MAX:
            raise InputError(f"expected a seed from {SEED_MIN} to {SEED_MAX}, got {seed!r}")
        self.rules: Rules = preset(rules) if isinstance(rules, str) else rules
        self.board: Board = map if isinstance(map, Board) else load_board(map)
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
        #: the step of a set of stations, a byte at a time: ``(4, bytes, 256, words)`` uint64
        self._step_table = np.zeros((4, self._nbytes, 256, self._words), dtype=np.uint64)
        vals = np.arange(256)
        for pos in range(self._nbytes):
            for b in range(8):
                st = pos * 8 + b
                if st < s:
                    on = (vals >> b) & 1 == 1
                    self._step_table[:, pos, on] |= self._reach_bits[:, st][:, None, :]
        #: whether any line of each detective ticket leaves each station: ``(S, 3)``
        self._has_line: np.ndarray = np.asarray(self.reach[:3].any(axis=2)).T
        self._tab = _tables(self.codec)
        self._caught = self.rules.mrx_onto_detective == "caught"
        self._reveal = np.array([self.rules.is_reveal(m) for m in range(self.rules.log_length + 2)], dtype=bool)
        self._out_if = {can: self.rules.stuck_is_out(can) for can in (False, True)}  # the blocked_detective rule
        unmodelled = set(unmodelled_rule_fields(self.rules)) - {"mrx_onto_detective"}
        self.fallback = bool(unmodelled)
        self._envs: list[Any] = []
        if self.fallback:
            from .aec import ScotlandYardEnv

            self._envs = [ScotlandYardEnv(self.rules, self.board, self.d, starts=starts) for _ in range(self.n)]
            for e in self._envs:
                e.map_spec = self.map_spec
        self._next_game = 0
        self.ended_records: dict[int, dict[str, Any]] = {}
        self._obs: np.ndarray | None = None
        self._last: Batch | None = None
        self._legal_cache: dict[str, Any] | None = None
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
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not SEED_MIN <= seed <= SEED_MAX:
                raise InputError(f"expected a seed from {SEED_MIN} to {SEED_MAX}, got {seed!r}")
            self.seed = int(seed)
        n, d, s = self.n, self.d, len(self.stations)
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
        self.possible = np.zeros((n, s), dtype=bool)
        self.last_reveal = np.full(n, -1, dtype=np.int64)
        #: ``(N, 2)``: each slot's ``(seed, game)``
        self.games = np.zeros((n, 2), dtype=np.int64)
        self._records: list[list[Move]] = [[] for _ in range(n)]
        self._starts: list[tuple[Station, tuple[Station, ...], tuple[Station, ...]]] = [(0, (), ())] * n
        self._next_game = 0
        self._deal(np.arange(n))
        return self.observe()

    def _deal(self, slots: np.ndarray) -> None:
        """Deal the next games of the run into ``slots`` (ascending)."""
        rules, d = self.rules, self.d
        det_start = [int(rules.detective_tickets.get(k, 0)) for k in ("taxi", "bus", "underground")]
        x = rules.mrx_start_tickets(d)
        mrx_start = [int(x.get(k, 0)) for k in MRX_TICKET_KINDS]
        for j in slots.tolist():
            g = self._next_game
            self._next_game += 1
            self.games[j] = (self.seed, g)
            if self.fallback:
                e = self._envs[j]
                e.reset(seed=self.seed, options={"game": g})
                self._starts[j] = e.start
                self._sync(j)
                continue
            mrx, dets, cands = deal(self.board, rules, d, self.starts, game_rng(self.seed, g))
            self._starts[j] = (mrx, tuple(dets), tuple(cands))
            self.det_at[j] = self._idx[dets]
            self.det_tk[j] = det_start
            self.out[j] = False
            self.mrx_at[j] = self._idx[mrx]
            self.mrx_tk[j] = mrx_start
            self.move[j] = self.round[j] = self.doubles[j] = self.turn[j] = 0
            self.outcome[j] = IN_PROGRESS
            self.possible[j] = False
            self.possible[j, self._idx[list(cands)]] = True
            self.possible[j, self.det_at[j]] = False
            self.last_reveal[j] = -1
            self._records[j] = []
        if not self.fallback:
            self._legal_cache = None
            start = slots[self.turn[slots] == 0]
            self._mrx_stuck_check(start)

    # ---- legal actions --------------------------------------------------------------------------

    def _occupied(self, rows: np.ndarray) -> np.ndarray:
        occ = np.zeros((len(rows), len(self.stations)), dtype=bool)
        occ[np.arange(len(rows))[:, None], self.det_at[rows]] = True
        return occ

    def _det_legal(self, rows: np.ndarray, who: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Detective ``who[k]``'s candidate hops in game ``rows[k]`` and which are legal."""
        here = self.det_at[rows, who]
        cand = self._tab["det"][here]  # (G, K, 3): action, ticket, to
        r = np.arange(len(rows))[:, None]
        ok = cand[:, :, 0] >= 0
        held = self.det_tk[rows, who][r, np.maximum(cand[:, :, 1], 0)] > 0
        # free: no detective stands on ``to`` (the mover's own station is never a destination)
        free = ~(cand[:, :, 2, None] == self.det_at[rows][:, None, :]).any(axis=2)
        return cand, ok & held & free

    def _can_double(self, rows: np.ndarray) -> np.ndarray:
        """:func:`double_allowed` per game, asked once per distinct (tickets, used, move)."""
        keys = np.stack([self.mrx_tk[rows, 4], self.doubles[rows], self.move[rows]], axis=1)
        uniq, inv = np.unique(keys, axis=0, return_inverse=True)
        ans = np.array([double_allowed(self.rules, int(a), int(b), int(c)) for a, b, c in uniq], dtype=bool)
        return ans[inv.reshape(-1)]

    def _mrx_singles(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Mr. X's single-move candidates in games ``rows``, which are legal, and the stations
        the detectives occupy."""
        at = self.mrx_at[rows]
        occ = self._occupied(rows)
        r = np.arange(len(rows))[:, None]
        tk = self.mrx_tk[rows]
        room = self.move[rows] < self.rules.log_length
        c1 = self._tab["single"][at]
        ok1 = (c1[:, :, 0] >= 0) & (tk[r, np.maximum(c1[:, :, 1], 0)] > 0) & room[:, None]
        if not self._caught:
            ok1 &= ~occ[r, np.maximum(c1[:, :, 2], 0)]
        return c1, ok1, occ

    def _mrx_legal(self, rows: np.ndarray) -> dict[str, Any]:
        """Mr. X's candidates in games ``rows``: singles and which are legal; the games among
        them where a double move is allowed (``x2``, positions in ``rows``), their double-move
        candidates and which are legal; whether the pass is the one legal move."""
        c1, ok1, occ = self._mrx_singles(rows)
        room = self.move[rows] < self.rules.log_length
        passes = ~ok1.any(axis=1) & room & (not self.rules.trapped_loses)
        x2 = np.flatnonzero(self._can_double(rows) & ok1.any(axis=1)) if len(rows) else np.zeros(0, np.int64)
        r2 = rows[x2]
        tab = self._tab
        at = self.mrx_at[r2]
        tk = self.mrx_tk[r2]
        held = tk[:, :4] > 0
        # (G, 16): tickets t1 then t2 both held (t2 counted after t1 is spent)
        pair = held[:, :, None] & ((tk[:, None, :4] - np.eye(4, dtype=np.int64)[None]) > 0)
        r = np.arange(len(r2))[:, None]
        free = ~occ[x2]
        ok2 = tab["d_valid"][at] & pair.reshape(len(r2), 16)[r, tab["d_pair"][at]] & free[r, tab["d_to1"][at]]
        if not self._caught:
            ok2 &= free[r, tab["d_to2"][at]]
        return {"c1": c1, "ok1": ok1, "x2": x2, "c2": tab["d_act"][at], "ok2": ok2, "pass": passes}

    def _legal(self) -> dict[str, Any]:
        """The candidates of the agent to act in every live game (cached until the next step)."""
        lg_cached = self._legal_cache
        if lg_cached is not None:
            return lg_cached
        if lg_cached is None:
            live = self.outcome == IN_PROGRESS
            x = np.flatnonzero(live & (self.turn == 0))
            dt = np.flatnonzero(live & (self.turn > 0))
            lg = self._mrx_legal(x)
            cd, okd = self._det_legal(dt, self.turn[dt] - 1)
            lg.update({"x": x, "d": dt, "cd": cd, "okd": okd})
            self._legal_cache = lg
        return lg

    def masks(self) -> tuple[np.ndarray, np.ndarray]:
        """``(mrx_mask, detective_mask)``: bool, ``(N, mrx actions)`` and ``(N, detective
        actions)``; a game's row is all False in the mask of the side not to act there."""
        if self.fallback:
            mx = np.zeros((self.n, self.codec.mrx_size), dtype=bool)
            md = np.zeros((self.n, self.codec.detective_size), dtype=bool)
            for j, e in enumerate(self._envs):
                m = e.observe(e.agent_selection)["action_mask"].astype(bool)
                (mx if self.turn[j] == 0 else md)[j] = m
            return mx, md
        lg = self._legal()
        mx = np.zeros((self.n, self.codec.mrx_size), dtype=bool)
        md = np.zeros((self.n, self.codec.detective_size), dtype=bool)
        x, d = lg["x"], lg["d"]
        r, k = np.nonzero(lg["ok1"])
        mx[x[r], lg["c1"][r, k, 0]] = True
        r, k = np.nonzero(lg["ok2"])
        mx[x[lg["x2"]][r], lg["c2"][r, k]] = True
        mx[x[lg["pass"]], self.codec.pass_action] = True
        r, k = np.nonzero(lg["okd"])
        md[d[r], lg["cd"][r, k, 0]] = True
        return mx, md

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action in every game (``rng`` numpy's), without masks."""
        if self.fallback:
            mx, md = self.masks()
            out = np.zeros(self.n, dtype=np.int64)
            for j in range(self.n):
                legal = np.flatnonzero(mx[j] if self.turn[j] == 0 else md[j])
                if len(legal):
                    out[j] = legal[int(rng.random() * len(legal))]
            return out
        lg = self._legal()
        out = np.zeros(self.n, dtype=np.int64)
        x, x2 = lg["x"], lg["x2"]
        n1 = lg["ok1"].sum(axis=1)
        n2 = np.zeros(len(x), dtype=np.int64)
        n2[x2] = lg["ok2"].sum(axis=1)
        k = (rng.random(len(x)) * (n1 + n2)).astype(np.int64)
        mx = np.where(n1 + n2 > 0, _kth(lg["c1"][:, :, 0], lg["ok1"], np.minimum(k, np.maximum(n1 - 1, 0))),
                      self.codec.pass_action)
        two = k[x2] >= n1[x2]
        mx[x2[two]] = _kth(lg["c2"][two], lg["ok2"][two], k[x2][two] - n1[x2][two])
        out[x] = mx
        nd = lg["okd"].sum(axis=1)
        out[lg["d"]] = _kth(lg["cd"][:, :, 0], lg["okd"], (rng.random(len(nd)) * nd).astype(np.int64))
        return out

    # ---- stepping -------------------------------------------------------------------------------

    def step(self, actions: Any) -> Step:
        """Play ``actions[j]`` in game ``j`` for every game; deal a new game where one ends."""
        a = np.asarray(actions)
        if a.shape != (self.n,) or not (np.issubdtype(a.dtype, np.integer) and a.dtype != np.bool_):
            raise InputError(f"actions must be {self.n} integers (shape ({self.n},)), got {a.dtype} of shape {a.shape}")
        a = a.astype(np.int64)
        rewards = np.zeros((self.n, 2), dtype=np.float32)
        if self.fallback:
            self._step_fallback(a)
        else:
            self._step_numpy(a)
        ended = self.outcome != IN_PROGRESS
        outcome = self.outcome.copy()
        game = self.games.copy()
        mrx_won = (outcome == STUCK) | (outcome == LOG_FULL)
        rewards[ended, 0] = np.where(mrx_won[ended], 1.0, -1.0)
        rewards[ended, 1] = -rewards[ended, 0]
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
        lg = self._legal()
        x, dt = lg["x"], lg["d"]
        # find each action among its game's legal candidates (refuse the step if one is not)
        x2 = lg["x2"]
        hit1 = lg["ok1"] & (lg["c1"][:, :, 0] == a[x, None])
        hit2 = lg["ok2"] & (lg["c2"] == a[x[x2], None])
        any2 = np.zeros(len(x), dtype=bool)
        any2[x2] = hit2.any(axis=1)
        is_pass = lg["pass"] & (a[x] == self.codec.pass_action)
        bad = ~(hit1.any(axis=1) | any2 | is_pass)
        if bad.any():
            j = int(x[np.argmax(bad)])
            self._refuse(j, int(a[j]))
        hitd = lg["okd"] & (lg["cd"][:, :, 0] == a[dt, None])
        badd = ~hitd.any(axis=1)
        if badd.any():
            j = int(dt[np.argmax(badd)])
            self._refuse(j, int(a[j]))
        if self.keep_records:
            for j in np.concatenate([x, dt]).tolist():
                piece = MRX if self.turn[j] == 0 else self.names[self.turn[j] - 1]
                self._records[j].append(self.codec.decode(piece, int(a[j])))
        # ---- Mr. X
        if len(x):
            s1 = hit1.any(axis=1)
            c1 = lg["c1"][np.arange(len(x)), np.argmax(hit1, axis=1)]  # action, ticket, to
            legs = np.where(is_pass, 0, np.where(s1, 1, 2))
            t_first, to_first = c1[:, 1].copy(), c1[:, 2].copy()
            t_second, to_second = np.zeros(len(x), np.int64), np.zeros(len(x), np.int64)
            d2 = any2[x2]
            if d2.any():
                at2 = self.mrx_at[x[x2[d2]]]
                k2 = np.argmax(hit2[d2], axis=1)
                pair = self._tab["d_pair"][at2, k2]
                rows2 = x2[d2]
                t_first[rows2], t_second[rows2] = pair // 4, pair % 4
                to_first[rows2], to_second[rows2] = self._tab["d_to1"][at2, k2], self._tab["d_to2"][at2, k2]
            occ = self._occupied(x)
            if is_pass.any():
                p = x[is_pass]
                self.possible[p] &= ~self._can_move_from(p)
            one = legs >= 1
            self._mrx_leg(x[one], t_first[one], to_first[one], occ[one])
            two = legs == 2
            self._mrx_leg(x[two], t_second[two], to_second[two], occ[two])
            xr = x[two]
            self.mrx_tk[xr, 4] -= 1
            self.doubles[xr] += 1
            self.round[x] += 1
            # the caught rule: onto a detective ends the game there
            if self._caught:
                onto = occ[np.arange(len(x)), self.mrx_at[x]] & (legs > 0)
                self.outcome[x[onto]] = CAPTURE
                self.turn[x[onto]] = 0
                x = x[~onto]
            self._next_detective(x, np.zeros(len(x), dtype=np.int64))
        # ---- the detectives
        if len(dt):
            kd = np.argmax(hitd, axis=1)
            cd = lg["cd"][np.arange(len(dt)), kd]  # action, ticket, to
            who = self.turn[dt] - 1
            self.det_tk[dt, who, cd[:, 1]] -= 1
            if self.rules.tickets_to_mrx:
                self.mrx_tk[dt, cd[:, 1]] += 1
            self.det_at[dt, who] = cd[:, 2]
            self.possible[dt, cd[:, 2]] = False
            caught = cd[:, 2] == self.mrx_at[dt]
            self.outcome[dt[caught]] = CAPTURE
            live = ~caught
            self._next_detective(dt[live], who[live] + 1)
        self._legal_cache = None
        self._mrx_stuck_check(np.flatnonzero((self.turn == 0) & (self.outcome == IN_PROGRESS)))

    def _mrx_leg(self, rows: np.ndarray, ticket: np.ndarray, to: np.ndarray, occ: np.ndarray) -> None:
        """One leg of Mr. X's move in games ``rows``: his ticket, station and log, and the
        detectives' possible set after it (the set stepped by the ticket, off the detectives'
        stations; the station itself on a reveal)."""
        if not len(rows):
            return
        self.mrx_tk[rows, ticket] -= 1
        self.mrx_at[rows] = to
        self.move[rows] += 1
        self.possible[rows] = self._step_sets(self.possible[rows], ticket) & ~occ
        shown = self._reveal[np.minimum(self.move[rows], self.rules.log_length + 1)]
        r = rows[shown]
        self.possible[r] = False
        self.possible[r, self.mrx_at[r]] = True
        self.last_reveal[r] = self.mrx_at[r]

    def _pack(self, sets: np.ndarray) -> np.ndarray:
        """``(G, S)`` bool as ``(G, words)`` uint64."""
        out = np.zeros((len(sets), self._words * 8), dtype=np.uint8)
        out[:, :self._nbytes] = np.packbits(sets, axis=1, bitorder="little")
        return out.view(np.uint64)

    def _unpack(self, words: np.ndarray) -> np.ndarray:
        return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little")[
            :, :len(self.stations)].astype(bool)

    def _step_sets(self, sets: np.ndarray, ticket: np.ndarray) -> np.ndarray:
        """Where Mr. X may be after a hop with ``ticket[k]`` from anywhere in ``sets[k]``
        (detectives ignored): the board's step, on packed bits a byte at a time."""
        if not len(sets):
            return sets
        packed = np.packbits(sets, axis=1, bitorder="little")  # (G, bytes)
        hit = self._step_table[ticket[:, None], np.arange(self._nbytes)[None, :], packed]  # (G, bytes, words)
        return self._unpack(np.bitwise_or.reduce(hit, axis=1))

    def _can_move_from(self, rows: np.ndarray) -> np.ndarray:
        """``(G, S)``: whether Mr. X standing on each station would have a legal move (the
        stations a pass leaves possible are the others)."""
        occ = self._occupied(rows)
        free = self._pack(np.ones_like(occ) if self._caught else ~occ)  # (G, words)
        out = np.zeros((len(rows), len(self.stations)), dtype=bool)
        for t in range(4):
            held = self.mrx_tk[rows, t] > 0
            out |= (self._reach_bits[t][None, :, :] & free[:, None, :]).any(axis=2) & held[:, None]
        return out & (self.move[rows] < self.rules.log_length)[:, None]

    def _has_hops(self, rows: np.ndarray, who: np.ndarray) -> np.ndarray:
        _, ok = self._det_legal(rows, who)
        return np.asarray(ok.any(axis=1), dtype=bool)

    def _next_detective(self, rows: np.ndarray, start: np.ndarray) -> None:
        """Hand the turn to the first detective from ``start`` on that can move (one that
        cannot skips its turn, out for good where the rules say so); after the last, end the
        round."""
        waiting = np.ones(len(rows), dtype=bool)
        for i in range(self.d):
            look = waiting & (start <= i) & ~self.out[rows, i]
            if not look.any():
                continue
            r = rows[look]
            can: np.ndarray = self._has_hops(r, np.full(len(r), i))
            self.turn[r[can]] = i + 1
            stuck = r[~can]
            if len(stuck):
                ride = np.any(self._has_line[self.det_at[stuck, i]] & (self.det_tk[stuck, i] > 0), axis=1)
                self.out[stuck, i] = np.where(ride, self._out_if[True], self._out_if[False])
            idx = np.flatnonzero(look)
            waiting[idx[can]] = False
        self._end_round(rows[waiting])

    def _end_round(self, rows: np.ndarray) -> None:
        if not len(rows):
            return
        self.turn[rows] = 0
        full = self.move[rows] >= self.rules.log_length
        self.outcome[rows[full]] = LOG_FULL
        rows = rows[~full]
        moving = np.zeros(len(rows), dtype=bool)
        for i in range(self.d):
            live = ~self.out[rows, i]
            if live.any():
                moving[live] |= self._has_hops(rows[live], np.full(int(live.sum()), i))
        self.outcome[rows[~moving]] = STUCK

    def _mrx_stuck_check(self, rows: np.ndarray) -> None:
        """Mr. X to move with no legal move is trapped (the AEC env's rule, as ``simulate``'s)."""
        if not len(rows):
            return
        self._legal_cache = None
        _, ok1, _ = self._mrx_singles(rows)
        trapped = ~ok1.any(axis=1) & (self.rules.trapped_loses | (self.move[rows] >= self.rules.log_length))
        self.outcome[rows[trapped]] = TRAPPED

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
        self.possible[j] = b.possible[0]
        pos = e.position
        self.turn[j] = 0 if pos.turn is None else pos.turn
        kind = e.outcome
        self.outcome[j] = OUTCOMES.index(kind) if kind in OUTCOMES else CAPTURE
        self._records[j] = list(e.moves)

    # ---- observations ---------------------------------------------------------------------------

    def batch(self) -> Batch:
        """The games as a :class:`Batch` (Mr. X's station included)."""
        return Batch(self.det_at, self.det_tk, self.out, self.mrx_at, self.mrx_tk, self.move, self.round,
                     self.doubles, np.where(self.outcome == IN_PROGRESS, self.turn, -1), self.possible,
                     self.last_reveal)

    def observe(self, copy: bool = False) -> np.ndarray:
        """``(N, size)`` float32: each game's flat observation of the agent to act (Mr. X's
        station only where he is to act).  The array is the engine's own buffer, refilled by the
        next ``observe``/``step`` (as Gymnasium's vector envs with ``copy=False``); ``copy``
        returns a new one."""
        if self._obs is None:
            self._obs, self._last = np.zeros((self.n, self.flat.size), dtype=np.float32), None
        b = self.batch()
        self.flat.encode(b, self.turn == 0, self._obs, self._last)
        self._last = replace(b, det_at=b.det_at.copy(), last_reveal=b.last_reveal.copy(), mrx_at=b.mrx_at.copy())
        return self._obs.copy() if copy else self._obs

    def detectives_view(self) -> np.ndarray:
        """``(N, size)``: every game as the detectives see it (no station of Mr. X)."""
        return self.flat.encode(self.batch(), False)

    # ---- records --------------------------------------------------------------------------------

    def record_json(self, j: int) -> dict[str, Any]:
        """Game ``j``'s moves so far as a game.json document (``keep_records=True``)."""
        if not self.keep_records and not self.fallback:
            raise InputError("record_json needs VectorEngine(..., keep_records=True)")
        mrx, dets, cands = self._starts[j]
        doc = game_record(self.board, self.rules, self.names, dets, mrx, cands, self._records[j])
        doc["map"] = self.map_spec
        return doc

    def with_rules(self, **changes: Any) -> VectorEngine:
        """A new engine like this one with rule fields changed (for experiments and tests)."""
        return VectorEngine(self.n, replace(self.rules, **changes), self.board, self.d, self.seed, self.starts,
                            self.keep_records)


def _kth(cand: np.ndarray, ok: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Per row, the ``k``-th ``cand`` where ``ok`` (0-based; a row with none gives its first)."""
    if not len(cand):
        return np.zeros(0, dtype=np.int64)
    pos = np.argmax(np.cumsum(ok, axis=1, dtype=np.int16) > k[:, None], axis=1)
    return cand[np.arange(len(cand)), pos]
