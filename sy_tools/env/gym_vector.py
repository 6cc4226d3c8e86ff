"""Self-play of both sides as Gymnasium envs: one game (:class:`SelfPlayEnv`) and ``N`` games at
once on the batched engine (:class:`SelfPlayVectorEnv`, a native ``gymnasium.vector.VectorEnv``).

``gymnasium.make("sy_tools/ScotlandYardSelfPlay-v0", ...)`` makes the one-game env;
``gymnasium.make_vec("sy_tools/ScotlandYardSelfPlay-v0", num_envs=N, ...)`` makes the vector
env (its ``vector_entry_point``; ``vectorization_mode="sync"`` or ``"async"`` wraps ``N``
one-game envs instead).  In every game each step is the turn of the agent to act there: Mr. X
or the detective whose turn it is, as in the AEC env.

* **Observation**: the flat float32 view (:mod:`sy_tools.env.flat`) of the agent to act (Mr.
  X's station only in his own view); its ``to_move`` field, and ``info["to_move"]`` (0 Mr. X,
  ``i + 1`` detective ``i``), say who that is.  (On a small map a game can be over at the
  deal, Mr. X starting with no move: ``to_move`` is -1, the mask all 0, and the next step, with
  any action, reports its end.)
* **Actions**: one ``Discrete(A)`` for both sides, ``A`` the number of Mr. X's actions
  (:mod:`sy_tools.env.actions`); a detective's actions are the first ``3 * S`` numbers.
  ``info["action_mask"]`` (int8, ``A`` per game) marks the legal ones of the agent to act.
* **Reward**: Mr. X's, +1 when he wins and -1 when he loses, 0 before (the game is zero-sum: the
  detectives' reward is its negative); ``info["rewards"]`` has both, ``[mrx, detectives]``.
* **Seeds**: ``reset(seed=s)`` deals game 0 of ``sy-tools simulate --seed s`` to the one-game env
  (each later ``reset()`` the next game), and games ``0 .. N - 1`` of that run to the vector
  env's slots; each game that ends there is replaced in the same step by the run's next game
  (the ``AutoresetMode.SAME_STEP`` of Gymnasium 1.x; ``info["final_info"]`` describes the game
  that ended, with its game.json under ``keep_records``; ``max_cycles`` truncates).  ``info["game"]`` is each slot's ``(seed,
  game)``: ``SelfPlayEnv().reset(seed=seed, options={"game": game})`` deals the same game, and
  the same actions play it the same way.  The vector env's ``seed`` argument, when given, is the
  run dealt at construction and by the first ``reset()`` without a seed; each later ``reset()``
  without one deals a new run, its seed drawn from the env's generator, which that seed (or the
  last ``reset(seed=...)``) seeded: a seed fixes the whole sequence of resets.  Without it run 0
  is dealt at construction and unseeded resets draw from fresh entropy, as Gymnasium's do.  ``SyncVectorEnv`` and
  ``AsyncVectorEnv`` of ``SelfPlayEnv`` deal other games from the same seed (env ``j`` game 0,
  1, ... of the run ``s + j``, Gymnasium's seeding); ``info["game"]`` names each slot's game in
  both, and docs/env.md has the table.

Why self-play and not the detectives against a built-in Mr. X: the built-in opponents are
``simulate`` policies that read an engine position and draw from each game's own stream, one
game at a time; the batched engine steps every game at once, so while the opponents' moves are
made in some games the learner's games would have to wait, which it cannot do.  A learner
against a batched opponent plays it in the same step: where ``info["to_move"]`` is 0 the
opponent's action (for a random Mr. X, a random legal one: :meth:`SelfPlayVectorEnv.sample`),
elsewhere the learner's.  The one-side envs with the built-in opponents are
:class:`~sy_tools.env.single.DetectivesEnv` and :class:`~sy_tools.env.single.MrXEnv`, under
``SyncVectorEnv`` or ``AsyncVectorEnv``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..engine.board import Board
from ..engine.rules import Rules
from ..engine.stations import Station
from ..errors import InputError
from ..selfplay.game import DETECTIVE_NAMES
from .aec import MRX_AGENT, RENDER_FPS, RENDER_MODES, ScotlandYardEnv
from .checks import (
    EndAtDeal,
    action_array,
    env_board,
    env_detectives,
    env_flag,
    env_max_cycles,
    env_rules,
    env_seed,
    env_slot,
    env_starts,
    gym_seed,
    refuse_keywords,
    show,
)
from .vector import IN_PROGRESS, OUTCOMES, VectorEngine

#: the keywords :class:`SelfPlayVectorEnv` takes (``make_vec`` passes ``num_envs``)
KEYWORDS = ("num_envs", "rules", "map", "detectives", "starts", "seed", "action_masks", "copy", "keep_records",
            "max_cycles")

#: the id both envs are registered under
SELF_PLAY_ID = "sy_tools/ScotlandYardSelfPlay-v0"


class SelfPlayEnv(EndAtDeal, gymnasium.Env):  # type: ignore[misc]
    """One game of self-play (the module's docstring).  Keyword arguments go to
    :class:`~sy_tools.env.aec.ScotlandYardEnv` (``rules``, ``map``, ``detectives``, ``starts``,
    ``max_cycles``, ``illegal_action``, ``render_mode``); an illegal action is handled as
    ``illegal_action`` says (default: the game ends, -1 for the side that chose it)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(self, render_mode: str | None = None, seed: Any = None, **kwargs: Any) -> None:
        if seed is not None:  # the vector env's keyword, given to make_vec(..., vectorization_mode="sync")
            raise InputError(f"SelfPlayEnv takes no seed at construction (got {show(seed)}): give reset(seed=...) "
                             "(SyncVectorEnv and AsyncVectorEnv: envs.reset(seed=s) resets env i with s + i)")
        self.aec = ScotlandYardEnv(render_mode=render_mode, **kwargs)
        self.render_mode = render_mode
        self.observation_space = self.aec.flat.space()
        self._size = self.aec.codec.mrx_size
        self.action_space = spaces.Discrete(self._size)

    def _out(self) -> tuple[np.ndarray, dict[str, Any]]:
        aec = self.aec
        agent = aec.agent_selection
        mask = np.zeros(self._size, dtype=np.int8)
        over = self._over()
        if not over:
            m = aec.observe_mask(agent)
            mask[:len(m)] = m
        to_move = -1 if over else aec.possible_agents.index(agent)
        info: dict[str, Any] = {"action_mask": mask, "to_move": to_move, "game": np.array(aec.game, dtype=np.int64)}
        return aec.flat_observation(agent), info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        self.aec.reset(seed=seed, options=options)  # checks the seed and options first
        super().reset(seed=None if seed is None else gym_seed(int(seed)))
        self._dealt()  # over at the deal: the next step reports it
        return self._out()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        a, report_only = self._begin_step(action, self._size)  # not an action: refused, nothing changes
        agent = aec.agent_selection
        if not report_only:  # else the game ended at the deal: this step (any action) reports it
            piece = aec.piece(agent)
            if a >= aec.codec.size(piece):  # beyond a detective's numbers: illegal for it, as its own station
                a = aec.codec.index[aec.position.stations[aec.names.index(piece)]]
            aec.step(a)
        obs, info = self._out()
        # the detectives' side: the mover's own reward when a detective moved (an illegal action
        # penalises the mover alone, as PettingZoo does; at a normal end all detectives' agree)
        side = agent if agent != MRX_AGENT and agent in aec.rewards else "det_0"
        rewards = np.array([aec.rewards.get(MRX_AGENT, 0.0), aec.rewards.get(side, 0.0)], dtype=np.float32)
        info["rewards"] = rewards
        terminated, truncated = any(aec.terminations.values()), any(aec.truncations.values())
        if terminated or truncated:
            info["outcome"] = aec.outcome
        return obs, float(rewards[0]), terminated, truncated, info

    def render(self) -> Any:
        return self.aec.render()


class SelfPlayVectorEnv(VectorEnv):  # type: ignore[misc]
    """``num_envs`` games of self-play stepped at once on the batched engine
    (:class:`~sy_tools.env.vector.VectorEngine`; the module's docstring).

    ``action_masks``: put ``info["action_mask"]`` in every step's ``info`` (False saves
    building them, ``N x A`` bytes a step; then :meth:`action_masks` and :meth:`sample` give
    them when needed).  ``copy``: return a copy of the observations (False: the engine's own
    buffer, refilled by the next step).  ``keep_records``: keep each game's moves
    (:meth:`record_json`).  A game that ends is dealt anew in the same step: its outcome, ``(seed,
    game)`` and rewards are in ``info["final_info"]`` where ``info["_final_info"]`` is set (it has
    ended, so the observation it ended in is not kept).  ``max_cycles``: truncate a game once that
    many rounds are played (as the AEC env's ``max_cycles``: when Mr. X is to begin the next
    round), ``truncations[j]`` True, its last observation in ``info["final_obs"][j]``, and deal
    the slot anew in the same step (None: play every game to its end).  With ``keep_records``,
    ``info["final_info"]["record"][j]`` is the game.json of the game that ended (or was
    truncated) in slot ``j``.  Actions that are not one legal action per game are refused with
    :class:`InputError` and nothing is played; a keyword the env does not take is refused naming
    it and the ones it takes."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 16, rules: Rules | str = "classic", map: str | Board = "london",
                 detectives: int = 5, starts: str | tuple[Station, ...] | None = None, seed: int | None = None,
                 action_masks: bool = True, copy: bool = True, keep_records: bool = False,
                 max_cycles: int | None = None, render_mode: str | None = None, **others: Any) -> None:
        refuse_keywords({"render_mode": render_mode} if render_mode is not None else others, KEYWORDS,
                        "SelfPlayVectorEnv", {"render_mode": "it does not render (SelfPlayEnv does: gymnasium.make, "
                                                             "or make_vec(..., vectorization_mode='sync'))"})
        #: the most rounds a game is played before it is truncated (None: to its end)
        self.max_cycles = env_max_cycles(max_cycles)
        board = env_board(map)
        self.engine = VectorEngine(num_envs, env_rules(rules), board if isinstance(map, Board) else map,
                                   env_detectives(detectives, len(DETECTIVE_NAMES)),
                                   seed=0 if seed is None else env_seed(seed),
                                   starts=env_starts(starts, board), keep_records=env_flag(keep_records, "keep_records"))
        #: the run the first reset() without a seed deals again (the one dealt now), and the seed of
        #: the generator later ones draw their runs from: a seed given here fixes every reset's games
        #: (None: run 0 is dealt now, and a reset() without a seed draws a run from fresh entropy)
        self._first_run: int | None = None if seed is None else int(seed)
        if seed is not None:
            super().reset(seed=gym_seed(int(seed)))
        self.num_envs = self.engine.n
        self.single_observation_space = self.engine.flat.space()
        self.single_action_space = spaces.Discrete(self.engine.codec.mrx_size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self.with_masks, self.copy = env_flag(action_masks, "action_masks"), env_flag(copy, "copy")
        self._all = np.ones(self.num_envs, dtype=bool)
        start, length = next((st, n) for f, st, n in self.engine.flat.fields() if f == "to_move")
        self._to_move = slice(start, start + length)
        self._never = np.zeros(self.num_envs, dtype=bool)
        self._shape, self._expected = (self.num_envs,), f"actions 0 to {self.engine.codec.mrx_size - 1}"

    # ---- the API ------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal games ``0 .. N - 1`` of the run ``seed`` into the slots.  Without a seed: the
        first time, the run of the constructor's ``seed`` (as ``reset(seed=seed)`` deals it);
        after that a run drawn from the env's generator, which that seed (or the last
        ``reset(seed=...)``) seeded, so the whole sequence of resets repeats.  No options are
        taken (None or an empty dict)."""
        if options is not None and (not isinstance(options, Mapping) or options):
            raise InputError(f"SelfPlayVectorEnv.reset takes no options, got {options!r}")
        if seed is None and self._first_run is not None:
            seed = self._first_run
        if seed is not None:
            run = env_seed(seed)
            super().reset(seed=gym_seed(run))
        else:
            run = int(self.np_random.integers(0, 2**62))
        self._first_run = None
        obs = self.engine.reset(run)
        return (obs.copy() if self.copy else obs), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play ``actions[j]`` in game ``j`` (by the agent to act there) for every game."""
        engine = self.engine
        st = engine.step(action_array(actions, self._shape, self._expected))
        ended, outcome, game = st.ended.copy(), st.outcome, st.game
        records = engine.ended_records if engine.keep_records and ended.any() else {}
        truncated = self._never.copy()
        final_obs = None
        if self.max_cycles is not None:
            truncated = engine.due_to_truncate(self.max_cycles)
            if truncated.any():  # as the AEC env's max_cycles: truncate, keep the last view, deal anew
                slots = np.flatnonzero(truncated)
                final_obs = np.empty(self.num_envs, dtype=object)
                final_det = np.empty(self.num_envs, dtype=object)
                seen = engine.detectives_view()  # (a truncated game's last view is Mr. X's: he was to move)
                for j in slots.tolist():
                    final_obs[j] = st.obs[j].copy()
                    final_det[j] = seen[j].copy()
                    final_obs[j][self._to_move] = final_det[j][self._to_move] = 0.0  # over: no one to move
                outcome, game = outcome.copy(), game.copy()
                game[slots] = engine.games[slots]  # outcome: in-progress there (0)
                records = {**records, **engine.truncate(slots)}
                st.obs = engine.observe()
        info = self._info()
        done = ended | truncated
        if done.any():
            names = np.array(OUTCOMES, dtype=object)
            final: dict[str, Any] = {"outcome": np.where(done, names[outcome], None), "_outcome": done,
                                     "game": game, "_game": done, "rewards": st.rewards, "_rewards": done}
            if engine.keep_records:
                kept = np.empty(self.num_envs, dtype=object)
                for j, record in records.items():
                    kept[j] = record
                final["record"], final["_record"] = kept, done
            info["final_info"], info["_final_info"] = final, done
            if final_obs is not None:
                info["final_obs"], info["_final_obs"] = final_obs, truncated
                info["final_obs_detectives"], info["_final_obs_detectives"] = final_det, truncated
        info["rewards"], info["_rewards"] = st.rewards, self._all
        obs = st.obs.copy() if self.copy else st.obs
        return obs, st.rewards[:, 0].copy(), ended, truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ---- helpers --------------------------------------------------------------------------------

    def _info(self) -> dict[str, Any]:
        to_move = np.where(self.engine.outcome == IN_PROGRESS, self.engine.turn, -1)  # -1: over at the deal
        info: dict[str, Any] = {"to_move": to_move, "_to_move": self._all,
                                "game": self.engine.games.copy(), "_game": self._all}
        if self.with_masks:
            info["action_mask"], info["_action_mask"] = self.action_masks(), self._all
        return info

    def action_masks(self) -> np.ndarray:
        """``(N, A)`` int8: 1 for each legal action of the agent to act in each game."""
        mx, md = self.engine.masks()
        out = mx.view(np.int8).copy()
        out[:, :md.shape[1]] |= md.view(np.int8)
        return out

    def sample(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """A uniformly random legal action in every game (``rng``: numpy's; default the env's
        generator), without building the masks."""
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise InputError(f"sample: rng must be a numpy Generator (np.random.default_rng(seed)) or None, "
                             f"got {type(rng).__name__}")
        return self.engine.sample(self.np_random if rng is None else rng)

    def record_json(self, j: int) -> dict[str, Any]:
        """Game ``j``'s moves so far as a game.json document (``keep_records=True``): ``j`` a
        slot, 0 to ``num_envs - 1``."""
        return self.engine.record_json(env_slot(j, self.num_envs))


def register() -> None:
    """Register :data:`SELF_PLAY_ID` (``gymnasium.make`` and ``gymnasium.make_vec``)."""
    if SELF_PLAY_ID not in gymnasium.registry:
        gymnasium.register(id=SELF_PLAY_ID, entry_point="sy_tools.env.gym_vector:SelfPlayEnv",
                           vector_entry_point="sy_tools.env.gym_vector:SelfPlayVectorEnv",
                           disable_env_checker=False)
