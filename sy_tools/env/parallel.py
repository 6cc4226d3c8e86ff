"""``ScotlandYardParallelEnv``: the game as a PettingZoo ``ParallelEnv``, one turn per step.

Scotland Yard is turn-based, so each ``step(actions)`` plays one turn: the action of the agent
to act (the one whose ``action_mask`` is not all 0; :attr:`ScotlandYardParallelEnv.to_act`
names it) is played, and the actions given for the others are ignored (they may be left out).
Everything else (spaces, observations, rewards, ``infos``, illegal actions, seeds) is the AEC
env's: the parallel env drives a :class:`~sy_tools.env.aec.ScotlandYardEnv`.  ``max_cycles``
counts parallel steps (each live agent takes part in every step: PettingZoo's cycle); after that
many, every agent is truncated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..errors import InputError
from .aec import ScotlandYardEnv
from .checks import env_max_cycles, show


class ScotlandYardParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The parallel API over a :class:`ScotlandYardEnv` made with ``kwargs`` (its arguments;
    ``max_cycles`` here counts steps)."""

    metadata = {**ScotlandYardEnv.metadata, "name": "scotland_yard_parallel_v0"}

    def __init__(self, max_cycles: int | None = None, **kwargs: Any) -> None:
        self.aec = ScotlandYardEnv(**kwargs)
        self.max_cycles = env_max_cycles(max_cycles)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode
        self.state_space = self.aec.state_space
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    @property
    def to_act(self) -> str | None:
        """The agent whose action the next step plays (None once the game is over)."""
        return self.aec.agent_selection if self.agents else None

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        self._steps = 0
        return ({a: self.aec.observe(a) for a in self.agents}, {a: dict(self.aec.infos[a]) for a in self.agents})

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        aec = self.aec
        if not isinstance(actions, Mapping):
            raise InputError(f"actions must be a dict of agent: action, got {type(actions).__name__}")
        unknown = [a for a in actions if a not in self.possible_agents]
        if unknown:  # a misspelt agent's action would be dropped without a word
            raise InputError(f"actions: unknown agent {show(unknown[0])} (the agents are "
                             f"{', '.join(self.possible_agents)})")
        if not self.agents:
            raise InputError("step() before reset(): call reset() first" if not aec.agents else
                             "the game is over: call reset()")
        agent = aec.agent_selection
        if agent not in actions:
            raise InputError(f"no action for {agent}, the agent to act")
        aec.step(actions[agent])
        self._steps += 1
        agents = self.agents
        obs = {a: aec.observe(a) for a in agents}
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in agents}
        terms = {a: bool(aec.terminations[a]) for a in agents}
        truncs = {a: bool(aec.truncations[a]) for a in agents}
        if self.max_cycles is not None and self._steps >= self.max_cycles and not all(terms.values()):
            truncs = {a: True for a in agents}
        infos = {a: dict(aec.infos[a]) for a in agents}
        if all(t or u for t, u in zip(terms.values(), truncs.values())):
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_env(**kwargs: Any) -> ScotlandYardParallelEnv:
    """The parallel env (PettingZoo's factory name): ``ScotlandYardParallelEnv(**kwargs)``."""
    return ScotlandYardParallelEnv(**kwargs)
