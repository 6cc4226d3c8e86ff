"""Single-agent Gymnasium envs: one side learns, the other is a built-in ``simulate`` policy.

* ``DetectivesEnv`` (``gymnasium.make("sy_tools/ScotlandYardDetectives-v0")``): the
  detectives as one team; each step is the turn of the detective to move (the observation's
  ``to_move`` says which); Mr. X's moves are the opponent's, played in between.
* ``MrXEnv`` (``gymnasium.make("sy_tools/ScotlandYardMrX-v0")``): Mr. X against built-in
  detectives; each step is one of his moves (a double move is one action).

Observations are the side's view as the flat float32 vector of :mod:`sy_tools.env.flat`
(``Box(0, 1)``); the legal actions are ``info["action_mask"]`` (int8, one per action of
:mod:`sy_tools.env.actions`; Gymnasium's ``Discrete.sample(mask=...)`` takes it).  Reward +1
when the side wins, -1 when it loses, 0 before; an illegal action ends the game with -1 (or,
``illegal_action="random"``, is replaced by a random legal one).  A game over inside ``reset``
(Mr. X trapped at the deal, or caught by the opponent's moves played there) is reported by the
next ``step``, any action (:class:`~sy_tools.env.checks.EndAtDeal`).  ``opponent``: a policy of
the other side, a built-in name as ``simulate --mrx-policy`` takes it for ``DetectivesEnv``
(``random``, ``greedy``, ``advise``, ``mcts``, ``level-easy`` ...) or ``--detective-policy`` for
``MrXEnv`` (those, ``cordon`` and ``advise-plan``), a ``module:function``, or the function itself (another name
is one :class:`InputError` line naming the ``opponent`` argument and the names it takes); ``level`` (``easy``, ``normal``, ``hard``) plays
that level's policy instead.  Seeds deal as the AEC env deals (``reset(seed=s)``, ``s`` any
64-bit integer, negative too: game 0 of ``simulate --seed s``; each later ``reset()`` the next
game), and the opponent draws from the game's stream, so a seed fixes the whole game given the
actions; ``info["game"]`` is the game's ``(seed, game)``, and ``reset(seed=seed,
options={"game": game})`` deals it again.  Other keyword arguments go to
:class:`~sy_tools.env.aec.ScotlandYardEnv` (``rules``, ``map``, ``detectives``, ``max_cycles``,
...).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from ..errors import InputError
from .adapters import policy_agent
from .aec import MRX_AGENT, RENDER_FPS, RENDER_MODES, ScotlandYardEnv
from .checks import EndAtDeal, gym_seed


class _SideEnv(EndAtDeal, gymnasium.Env):  # type: ignore[misc]
    side = "detectives"
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(self, opponent: Any = "random", level: str | None = None, render_mode: str | None = None,
                 **kwargs: Any) -> None:
        if level is not None:
            from ..selfplay.levels import LEVELS

            if level not in LEVELS:
                raise InputError(f"unknown level {level!r}: expected {', '.join(LEVELS)}")
            opponent = f"level-{level}"
        self.aec = ScotlandYardEnv(render_mode=render_mode, **kwargs)
        self.render_mode = render_mode
        other = "mrx" if self.side == "detectives" else "detectives"
        who = "a Mr. X" if other == "mrx" else "a detectives'"
        self.opponent = policy_agent(self.aec, opponent, other, where=f"{type(self).__name__} opponent ({who} policy)")
        self.observation_space = self.aec.flat.space()
        self.action_space = self.aec.action_space(MRX_AGENT if self.side == "mrx" else "det_0")
        self._size = int(self.action_space.n)  # type: ignore[attr-defined]  # a Discrete

    def _mine(self, agent: str) -> bool:
        return (agent == MRX_AGENT) == (self.side == "mrx")

    def _play_opponent(self) -> None:
        aec = self.aec
        while aec.agents and not any(aec.terminations.values()) and not any(aec.truncations.values()) \
                and not self._mine(aec.agent_selection):
            aec.step(self.opponent(None))

    def _out(self) -> tuple[np.ndarray, dict[str, Any]]:
        aec = self.aec
        agent = aec.agent_selection if self._mine(aec.agent_selection) else \
            (MRX_AGENT if self.side == "mrx" else "det_0")
        info = dict(aec.infos.get(agent, {}))
        info["action_mask"] = aec.observe_mask(agent)
        info["agent"] = agent
        info["game"] = np.array(aec.game, dtype=np.int64)  # (seed, game): reset(seed=, options={"game": }) replays it
        return aec.flat_observation(agent), info

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        self.aec.reset(seed=seed, options=options)  # checks the seed and options first: a bad one changes nothing
        super().reset(seed=None if seed is None else gym_seed(int(seed)))
        self._play_opponent()
        self._dealt()  # over already (trapped at the deal, caught by the opponent's moves): the next step reports it
        return self._out()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        a, report_only = self._begin_step(action, self._size)
        if report_only:  # the game ended inside reset(): this step (any action) reports it
            obs, info = self._out()
            return obs, float(aec.rewards.get(info["agent"], 0.0)), any(aec.terminations.values()), \
                any(aec.truncations.values()), info
        actor = aec.agent_selection
        aec.step(a)
        reward = float(aec.rewards.get(actor, 0.0))
        while aec.agents and not any(aec.terminations.values()) and not any(aec.truncations.values()) \
                and not self._mine(aec.agent_selection):
            aec.step(self.opponent(None))
            reward += float(aec.rewards.get(actor, 0.0))
        obs, info = self._out()
        return obs, reward, any(aec.terminations.values()), any(aec.truncations.values()), info

    def render(self) -> Any:
        return self.aec.render()


class DetectivesEnv(_SideEnv):
    """The detectives as one team against a built-in Mr. X (the module's docstring)."""

    side = "detectives"


class MrXEnv(_SideEnv):
    """Mr. X against built-in detectives (the module's docstring)."""

    side = "mrx"


#: the ids :func:`register` gives the envs
IDS = {"sy_tools/ScotlandYardDetectives-v0": "sy_tools.env.single:DetectivesEnv",
       "sy_tools/ScotlandYardMrX-v0": "sy_tools.env.single:MrXEnv"}


def register() -> None:
    """Register :data:`IDS` with Gymnasium (importing :mod:`sy_tools.env` does it)."""
    for env_id, entry in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry, disable_env_checker=False)
