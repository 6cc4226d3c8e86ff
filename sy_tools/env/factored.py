"""Voluntary-reveal actions factored: a move, then "reveal or not" (and what Mr. X takes).

Under ``rules.voluntary_reveal`` Mr. X's flat actions (:mod:`sy_tools.env.actions`) hold every
move again per show: 236,185 actions on London with 5 detectives, most of his legal ones
reveals, so a uniformly random Mr. X shows himself on almost every move.  Factored, an action is
a pair ``(move, reveal)``: ``move`` one of the ``P`` plain actions (single and double moves and
the pass, numbered as the flat ones), ``reveal`` 0 for none or ``1 + hop * 3 * D + detective * 3
+ ticket`` (show after ``hop``, 0 or 1, taking that detective's ticket, numbered taxi 0, bus 1,
underground 2): ``MultiDiscrete([P, 1 + 6 * D])``.

The masks are exact, read off the flat mask (the engine's legal moves): ``move_mask`` (``P``)
is the legal plain moves, and ``reveal_mask`` (``2 x R``) the reveals legal with a legal move
of one leg (row 0) or two (row 1).  The engine offers a show with every legal single and double
move alike (after a hop that is not a fixed reveal, of a ticket a detective holds), so ``(move,
reveal)`` is legal exactly when ``move_mask[move]`` and ``reveal_mask[legs(move) - 1, reveal]``
(a pass takes no reveal); the tests rebuild the flat mask from the two and compare it with the
engine's on random games.  A learner samples the move, then "reveal or not" (column 0 or the
others), then which.

:class:`FactoredReveal` wraps :class:`~sy_tools.env.gym_vector.SelfPlayEnv` or
:class:`~sy_tools.env.single.MrXEnv`: its action space is the pair, its ``info`` has
``move_mask`` and ``reveal_mask`` instead of ``action_mask`` (a detective's turn: its own moves
in ``move_mask``, reveal 0 only).  A pair that names no action (a reveal with a pass, after hop 1
of a single move, or with a detective's move) is refused with :class:`InputError`.
:class:`FactoredRevealVector` does the same for the native vector env
(:class:`~sy_tools.env.gym_vector.SelfPlayVectorEnv`; under the voluntary reveal its batched
engine steps each game through its own AEC env).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv, VectorWrapper
from gymnasium.vector.utils import batch_space

from ..errors import InputError
from .actions import ActionCodec, action_int
from .checks import action_array, is_int
from .vector import IN_PROGRESS


class RevealFactoring:
    """The factored actions of one codec under voluntary reveal (the module's docstring)."""

    def __init__(self, codec: ActionCodec) -> None:
        if not codec.takes:
            raise InputError("factored reveal actions need rules with voluntary_reveal: true")
        self.codec = codec
        #: plain actions (single, double moves, the pass) and reveal choices (none first)
        self.moves, self.reveals = codec.plain, 1 + 2 * codec.takes

    def legs(self, move: Any) -> Any:
        """1 for a single move, 2 for a double move, 0 for the pass (of plain actions)."""
        m = np.asarray(move)
        return np.where(m < self.codec.singles, 1, np.where(m < self.codec.pass_action, 2, 0))

    def split(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(move_mask, reveal_mask)`` of Mr. X's flat masks ``(..., mrx_size)``: ``(..., P)`` and
        ``(..., 2, R)``, int8."""
        c = self.codec
        m = np.asarray(mask).astype(bool)
        lead = m.shape[:-1]
        single_end = c.plain + c.singles * c.takes
        reveal = np.zeros((*lead, 2, self.reveals), dtype=np.int8)
        reveal[..., 0] = 1
        ones = m[..., c.plain:single_end].reshape(*lead, c.singles, c.takes).any(axis=-2)
        reveal[..., 0, 1:1 + c.takes] = ones
        twos = m[..., single_end:].reshape(*lead, c.doubles, 2 * c.takes).any(axis=-2)
        reveal[..., 1, 1:] = twos
        return m[..., :c.plain].astype(np.int8), reveal

    def join(self, move: Any, reveal: Any) -> Any:
        """The flat action of ``(move, reveal)`` (integers or arrays); -1 where the pair names
        none (a reveal with the pass, or after hop 1 of a single move)."""
        move, reveal = np.asarray(move), np.asarray(reveal)
        hop, take = np.divmod(np.maximum(reveal - 1, 0), self.codec.takes)
        flat = np.where(reveal == 0, move, self.codec.revealed(np.minimum(move, self.codec.pass_action - 1), hop, take))
        bad = (reveal > 0) & (hop >= self.legs(move))
        return np.where(bad, -1, flat)

    def joined_mask(self, move_mask: np.ndarray, reveal_mask: np.ndarray) -> np.ndarray:
        """The flat mask ``(..., mrx_size)`` the factored masks stand for (the tests' check)."""
        c = self.codec
        lead = move_mask.shape[:-1]
        mm = move_mask.astype(bool)
        singles = mm[..., :c.singles, None] & reveal_mask[..., 0, None, 1:1 + c.takes].astype(bool)
        doubles = mm[..., c.singles:c.pass_action, None] & reveal_mask[..., 1, None, 1:].astype(bool)
        return np.concatenate([mm, singles.reshape(*lead, -1), doubles.reshape(*lead, -1)], axis=-1)


class FactoredReveal(gymnasium.Wrapper):  # type: ignore[misc]
    """A one-game env (:class:`SelfPlayEnv` or :class:`MrXEnv`) with factored Mr. X actions (the
    module's docstring)."""

    def __init__(self, env: gymnasium.Env) -> None:
        from .gym_vector import SelfPlayEnv
        from .single import MrXEnv

        inner = getattr(env, "unwrapped", env)
        if isinstance(inner, VectorEnv):
            raise InputError(f"FactoredReveal wraps one game (SelfPlayEnv or MrXEnv), got the vector env "
                             f"{type(inner).__name__}: wrap that in FactoredRevealVector")
        if not isinstance(inner, (SelfPlayEnv, MrXEnv)):
            raise InputError(f"FactoredReveal wraps SelfPlayEnv or MrXEnv (the envs where Mr. X acts), "
                             f"got {type(inner).__name__}")
        self.factoring = RevealFactoring(inner.aec.codec)  # refuses rules without the voluntary reveal
        super().__init__(env)
        self.aec: Any = inner.aec
        self.action_space = spaces.MultiDiscrete([self.factoring.moves, self.factoring.reveals])

    def _masks(self, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` with the factored masks for the flat one (a detective's moves, padded to Mr.
        X's numbers, come out as its moves with reveal 0 only)."""
        info = dict(info)
        info["move_mask"], info["reveal_mask"] = self.factoring.split(info.pop("action_mask"))
        return info

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return obs, self._masks(info)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        pair: Any = action
        if not (isinstance(action, (list, tuple)) and len(action) == 2 and all(is_int(v) for v in action)):
            # (a list or tuple of Python and numpy integers is taken as it is: numpy makes floats of some mixes)
            pair = np.asarray(action) if not isinstance(action, (str, bytes)) else np.asarray(None)
            if pair.shape != (2,) or pair.dtype == np.bool_ or not np.issubdtype(pair.dtype, np.integer):
                raise InputError(f"the action must be a pair of integers (move, reveal), got {str(action)[:60]}")
        f = self.factoring
        move = action_int(pair[0], f.moves, "the action's move")
        reveal = action_int(pair[1], f.reveals, "the action's reveal")
        mrx_turn = self.aec.agent_selection == "mrx"
        flat = int(f.join(move, reveal)) if mrx_turn else (move if reveal == 0 else -1)
        if flat < 0:
            raise InputError(f"the action ({move}, {reveal}) names no move: a reveal goes with a hop of Mr. X's "
                             "single or double move only")
        obs, reward, terminated, truncated, info = self.env.step(flat)
        return obs, float(reward), terminated, truncated, self._masks(info)


class FactoredRevealVector(VectorWrapper):  # type: ignore[misc]
    """:class:`~sy_tools.env.gym_vector.SelfPlayVectorEnv` with factored Mr. X actions: each
    game's action is a ``(move, reveal)`` pair (``actions`` of shape ``(N, 2)``) and ``info``
    has ``move_mask`` ``(N, P)`` and ``reveal_mask`` ``(N, 2, R)`` instead of ``action_mask``.
    A pair that is not one, or names no action in its game, is refused with
    :class:`InputError` and nothing is played."""

    def __init__(self, env: Any) -> None:
        from .gym_vector import SelfPlayVectorEnv

        inner = getattr(env, "unwrapped", env)
        if not isinstance(inner, SelfPlayVectorEnv):
            raise InputError(f"FactoredRevealVector wraps SelfPlayVectorEnv, got {type(inner).__name__}"
                             + (": wrap one game in FactoredReveal" if isinstance(inner, gymnasium.Env) else ""))
        RevealFactoring(inner.engine.codec)  # refuses rules without the voluntary reveal
        super().__init__(env)
        self.inner: Any = inner  # the SelfPlayVectorEnv
        self.factoring = RevealFactoring(self.inner.engine.codec)
        self.single_action_space = spaces.MultiDiscrete([self.factoring.moves, self.factoring.reveals])
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _masks(self, info: dict[str, Any]) -> dict[str, Any]:
        info = dict(info)
        mask = info.pop("action_mask", None)
        info.pop("_action_mask", None)
        info["move_mask"], info["reveal_mask"] = self.factoring.split(
            self.inner.action_masks() if mask is None else mask)
        info["_move_mask"] = info["_reveal_mask"] = np.ones(self.num_envs, dtype=bool)
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return obs, self._masks(info)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        n, f = self.num_envs, self.factoring
        actions = action_array(actions, (n, 2), f"moves 0 to {f.moves - 1}, reveals 0 to {f.reveals - 1}")
        a = np.asarray(actions) if not isinstance(actions, (str, bytes)) else np.asarray(None)
        if a.shape != (n, 2) or a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
            raise InputError(f"actions must be {n} pairs of integers (shape ({n}, 2)), got {a.dtype} of shape {a.shape}")
        move, reveal = a[:, 0].astype(np.int64), a[:, 1].astype(np.int64)
        engine = self.inner.engine
        live = engine.outcome == IN_PROGRESS
        flat = np.where(engine.turn == 0, f.join(np.clip(move, 0, f.moves - 1), np.clip(reveal, 0, f.reveals - 1)),
                        np.where(reveal == 0, move, -1))
        bad = live & ((move < 0) | (move >= f.moves) | (reveal < 0) | (reveal >= f.reveals) | (flat < 0))
        if bad.any():
            j = int(np.argmax(bad))
            raise InputError(f"game {j}: the action ({move[j]}, {reveal[j]}) names no move (nothing was played)")
        obs, reward, terminated, truncated, info = self.env.step(np.where(live, flat, 0))
        return obs, reward, terminated, truncated, self._masks(info)
