"""Adapters both ways between the environment's agents and ``simulate``'s policies.

* :func:`policy_agent`: any ``simulate`` policy (a built-in name, ``module:function``,
  ``file.py:function`` or the function itself) as an agent of a :class:`ScotlandYardEnv`: a
  function from observation to action.  The policy sees what ``simulate`` shows it (the
  environment's :meth:`~ScotlandYardEnv.policy_observation`: for the detectives, no station of
  Mr. X) and draws from the game's own random stream, so with the same seed the environment
  plays the very game ``simulate`` plays.
* :func:`as_policy`: an agent (observation -> action) as a ``simulate`` policy, for
  ``sy-tools simulate --mrx-policy file.py:NAME`` / ``--detective-policy file.py:NAME``: each
  call builds the observation the environment would give from ``simulate``'s, and decodes the
  action back into a move.
* :func:`play`: one game of the environment with one agent per side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.observations import DetectiveObservation, MrXObservation, mrx_move_seen
from ..engine.rules import Rules
from ..engine.stations import Station
from ..errors import InputError
from ..selfplay.policies import DETECTIVE_POLICIES, MRX_POLICIES, Policy, load_policy, run_policy
from .actions import ActionCodec, action_int
from .aec import MRX_AGENT, ScotlandYardEnv
from .checks import show
from .observe import ObservationLayout, PublicState

#: an agent of the environment: observation -> action
Agent = Callable[[Any], int]

SIDES = ("mrx", "detectives")


def _side(side: str) -> str:
    if side not in SIDES:
        raise InputError(f"unknown side {side!r}: expected mrx or detectives")
    return side


def policy_agent(env: ScotlandYardEnv, policy: str | Policy, side: str, where: str | None = None) -> Agent:
    """``simulate``'s ``policy`` for ``side`` (``"mrx"`` or ``"detectives"``) as an agent of
    ``env``: called with the observation of the agent to act, it returns that agent's action.
    A policy given by name loads as ``--mrx-policy`` / ``--detective-policy`` load it
    (:class:`InputError` when it does not exist, naming ``where`` it was given: default
    ``policy_agent(mrx)`` or ``policy_agent(detectives)``); a user's policy prints to stderr."""
    side = _side(side)
    where = where or f"policy_agent({side})"
    if not isinstance(policy, str) and not callable(policy):
        raise InputError(f"a {side} policy must be a policy name, 'module:function' or a function, "
                         f"got {type(policy).__name__} {show(policy)}", where=where)
    fn = load_policy(policy, side, where) if isinstance(policy, str) else policy
    builtins = MRX_POLICIES if side == "mrx" else DETECTIVE_POLICIES
    quiet = not (isinstance(policy, str) and policy in builtins)

    def act(observation: Any) -> int:
        agent = env.agent_selection
        if (agent == MRX_AGENT) != (side == "mrx"):
            raise InputError(f"a {side} policy asked to move {agent}")
        move = run_policy(fn, env.policy_observation(agent), env.rng, quiet)
        return env.codec.encode(move)

    return act


def as_policy(agent: Agent, probabilities: str | None = None) -> Policy:
    """``agent`` (a function from the environment's observation to its action) as a
    ``simulate`` policy, for either side: save it in a file and name it in ``sy-tools simulate
    --detective-policy file.py:NAME`` (or ``--mrx-policy``).

    The observation is built as the environment builds it, from ``simulate``'s; with
    ``probabilities`` (the agent was trained with them), the detectives' ``probabilities`` are
    the weights ``simulate`` passes with its observation, or each possible station alike when
    it passes none (it computes no route counts), and Mr. X's likewise.  The action is
    decoded into a move, which ``simulate`` checks as it checks any policy's; an action that is
    not an integer of the space (a float such as 161.7 is never truncated) is an
    :class:`InputError`."""
    from ..analysis.tracker import WEIGHTS

    if not callable(agent):
        raise InputError(f"as_policy: the agent must be a function from observation to action, "
                         f"got {type(agent).__name__}")
    if probabilities is not None and probabilities not in WEIGHTS:
        raise InputError(f"as_policy: unknown probabilities {show(probabilities)}: expected None or one of "
                         f"{', '.join(WEIGHTS)}")

    def policy(obs: Any, rng: Any) -> Move:
        memo = obs.memo
        rules: Rules = obs.position.rules if isinstance(obs, MrXObservation) else obs.rules
        board = obs.position.board if isinstance(obs, MrXObservation) else obs.board
        names = obs.position.names if isinstance(obs, MrXObservation) else obs.names
        key = (id(board), id(rules), tuple(names), probabilities)
        layout: ObservationLayout | None = memo.get("env_layout") if memo.get("env_layout_key") == key else None
        if layout is None:
            layout = ObservationLayout(ActionCodec(board, rules, names), rules, probabilities)
            memo["env_layout"], memo["env_layout_key"] = layout, key
        codec = layout.codec
        if isinstance(obs, MrXObservation):
            pos = obs.position
            shown, reveals = memo.setdefault("env_shown", []), memo.setdefault("env_reveals", {})
            st = PublicState(pos.stations, pos.tickets, pos.out, 0, pos.mrx_tickets, tuple(shown), dict(reveals),
                             obs.possible, pos.round, pos.move, _alike(obs.possible) if probabilities else None)
            move = codec.decode(MRX, action_int(agent(layout.mrx(st, pos.mrx_at, pos.doubles, codec.mask(pos, MRX))),
                                                codec.mrx_size, "the agent's action"))
            if move in pos.legal_moves:  # what the detectives will have seen of it
                for leg, t, _, seen in mrx_move_seen(pos, obs.possible, move):
                    shown.append(t)
                    if seen is not None:
                        reveals[leg] = seen
            return move
        assert isinstance(obs, DetectiveObservation)
        weights = obs.weights if obs.weights is not None else _alike(obs.possible) if probabilities else None
        st = PublicState(obs.stations, obs.tickets, obs.out, obs.names.index(obs.to_move) + 1, obs.mrx_tickets,
                         obs.shown, obs.reveals, obs.possible, obs.round, obs.move, weights)
        mask = np.zeros(codec.detective_size, dtype=np.int8)
        for m in obs.legal_moves:
            mask[codec.encode(m)] = 1
        return codec.decode(obs.to_move, action_int(agent(layout.detective(st, obs.to_move, mask)),
                                                    codec.detective_size, "the agent's action"))

    return policy


def _alike(possible: int) -> dict[Station, float]:
    """Each possible station equally likely."""
    n = possible.bit_count()
    return {s: 1 / n for s in range(possible.bit_length()) if possible >> s & 1} if n else {}


def play(env: ScotlandYardEnv, agents: Mapping[str, Agent], seed: int | None = None,
         options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play one game of ``env`` (``reset(seed, options)`` first) with ``agents``: one per
    agent name, or one per side (``"mrx"``, ``"detectives"``); return the final ``infos``
    entry (``outcome``, ``winner``, ``round``, ``move``)."""
    if not isinstance(agents, Mapping):
        raise InputError(f"agents must be a dict of agent or side name: function, got {type(agents).__name__}")
    env.reset(seed=seed, options=dict(options) if options is not None else None)
    info: dict[str, Any] = {}
    for name in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        fn = agents.get(name) or agents.get("mrx" if name == MRX_AGENT else "detectives")
        if fn is None:
            raise InputError(f"no agent for {name}: give one for it or for its side")
        env.step(fn(obs))
    return dict(info)
