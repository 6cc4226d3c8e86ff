"""The single-agent envs under Gymnasium's AsyncVectorEnv (subprocesses): a few hundred steps
play the same games as SyncVectorEnv on the same seeds (observations, masks, rewards, ends),
a second run from the seed repeats them, and close() leaves no process behind."""

from __future__ import annotations

import multiprocessing

import gymnasium
import numpy as np
import pytest

import sy_tools.env  # noqa: F401  (registers the ids)


def _run(envs, steps: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=11)
    trace = [obs.copy(), info["action_mask"].copy()]
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, reward, term, trunc, info = envs.step(actions)
        trace += [obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["action_mask"].copy()]
    return trace


@pytest.mark.parametrize("env_id,steps", [("sy_tools/ScotlandYardDetectives-v0", 300),
                                          ("sy_tools/ScotlandYardMrX-v0", 150)])
def test_async_plays_the_sync_games_and_closes_cleanly(env_id, steps):
    sync = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", detectives=2)
    expected = _run(sync, steps)
    sync.close()
    assert sum(t.sum() for t in expected[4::5]) >= 2  # games ended (and were reset) on the way
    for _ in range(2):  # the seed repeats the run
        envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="async", detectives=2)
        procs = list(envs.processes)
        assert all(p.is_alive() for p in procs)
        got = _run(envs, steps)
        envs.close()
        assert all(np.array_equal(a, b) for a, b in zip(got, expected, strict=True))
        assert envs.closed and not any(p.is_alive() for p in procs)
        assert not [p for p in multiprocessing.active_children() if p in procs]
