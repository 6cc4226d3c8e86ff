"""The single-agent Gymnasium envs (gymnasium.make, check_env, SyncVectorEnv, opponents and
levels) and SuperSuit's wrappers on the flat observation."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import sy_tools.env  # noqa: F401  (registers the ids)
from sy_tools.env import ScotlandYardEnv, parallel_env
from sy_tools.errors import InputError


@pytest.mark.parametrize("env_id", ["sy_tools/ScotlandYardDetectives-v0", "sy_tools/ScotlandYardMrX-v0"])
def test_check_env_passes(env_id):
    env = gymnasium.make(env_id, detectives=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from the checker either
        check_env(env.unwrapped, skip_render_check=True)


def _play(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        total += reward
        done = term or trunc
    return total, info


def test_detectives_win_against_random_mrx_and_lose_to_nothing_odd():
    env = gymnasium.make("sy_tools/ScotlandYardDetectives-v0", detectives=5, opponent="random")
    rng = np.random.default_rng(0)
    results = [_play(env, 3 if g == 0 else None, rng) for g in range(6)]
    assert all(r in (-1.0, 1.0) for r, _ in results)
    assert all(info["outcome"] != "illegal-action" for _, info in results)
    assert all(info["agent"].startswith("det_") for _, info in results)


def test_mrx_env_against_greedy_detectives_and_a_level():
    rng = np.random.default_rng(1)
    for kwargs in ({"opponent": "greedy"}, {"level": "easy"}):
        env = gymnasium.make("sy_tools/ScotlandYardMrX-v0", detectives=3, **kwargs)
        total, info = _play(env, 5, rng)
        assert total in (-1.0, 1.0) and info["agent"] == "mrx"
    with pytest.raises(InputError, match="unknown level 'expert'"):
        gymnasium.make("sy_tools/ScotlandYardMrX-v0", level="expert")


def test_seeds_fix_the_game():
    env = gymnasium.make("sy_tools/ScotlandYardMrX-v0", detectives=2, opponent="random")
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=8)
        trace = [obs]
        for _ in range(6):
            obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            trace.append(obs)
            if term or trunc:
                break
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs))


def test_sync_vector_env_runs():
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("sy_tools/ScotlandYardDetectives-v0", detectives=2) for _ in range(3)])
    obs, info = envs.reset(seed=[1, 2, 3])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, rewards, term, trunc, info = envs.step(actions)
        assert obs.shape == (3, envs.single_observation_space.shape[0]) and obs.dtype == np.float32
        ended += int(term.sum())
    assert ended >= 1
    envs.close()


# ---- SuperSuit --------------------------------------------------------------------------------------


def test_supersuit_flatten_and_dtype_on_the_flat_observation():
    import supersuit as ss

    env = ss.dtype_v0(ss.flatten_v0(ScotlandYardEnv(detectives=2, observation="flat")), np.float64)
    env.reset(seed=4)
    for agent in env.agent_iter(30):
        obs, _, term, trunc, info = env.last()
        assert obs.dtype == np.float64 and obs.ndim == 1 and env.observation_space(agent).contains(obs)
        env.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))


def test_supersuit_pettingzoo_env_to_vec_env():
    """The parallel env with flat observations, its action spaces padded to one size, as a
    Gymnasium vector env (one entry per agent; only the agent to act's action is played)."""
    import supersuit as ss

    par = ss.pad_action_space_v0(parallel_env(detectives=2, observation="flat"))
    vec = ss.pettingzoo_env_to_vec_env_v1(par)
    obs, infos = vec.reset(seed=2)
    assert obs.shape == (3, ScotlandYardEnv(detectives=2).flat.size) and obs.dtype == np.float32
    games = 0
    for _ in range(120):
        actions = np.array([int(np.flatnonzero(i["action_mask"])[0]) if i["action_mask"].any() else 0
                            for i in infos])
        obs, rewards, terms, truncs, infos = vec.step(actions)
        games += int(terms.all())
    assert games >= 1
