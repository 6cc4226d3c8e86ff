"""The researcher's second trial (2026-12-05): a game over inside ``reset`` of the one-side
envs is reported by the next step, the envs' keyword and agent refusals are one line naming the
choices, the native vector env truncates at ``max_cycles`` and hands over the ended games'
records, the envs take a rules file, and ``simulate`` says why an agent's games were forfeit."""

from __future__ import annotations

import dataclasses
import random

import gymnasium
import numpy as np
import pytest
from helpers import small_board

import sy_tools.env  # noqa: F401  (registers the ids)
from sy_tools.engine.rules import PRESETS
from sy_tools.env import DetectivesEnv, MrXEnv
from sy_tools.errors import InputError

CAUGHT = dataclasses.replace(PRESETS["classic"], mrx_onto_detective="caught")


@pytest.fixture(scope="module")
def board():
    return small_board(random.Random(4))


def _reports_the_end(env, reward: float) -> None:
    """``env`` was just reset into a game already over: the next step, any action, ends it."""
    obs, r, terminated, truncated, info = env.step(0)
    assert (r, terminated, truncated) == (reward, True, False)
    assert not info["action_mask"].any()
    with pytest.raises(InputError, match="the game is over"):
        env.step(0)


def test_a_game_caught_inside_reset_is_reported_by_the_next_step():
    env = DetectivesEnv(rules=CAUGHT, detectives=5)  # the random Mr. X runs onto a detective in reset
    obs, info = env.reset(seed=138)
    assert info["outcome"] == "capture" and not info["action_mask"].any()
    with pytest.raises(InputError, match="must be an integer"):
        env.step(0.5)  # not an action: refused, the end still to report
    _reports_the_end(env, 1.0)
    obs, info = env.reset(seed=1)
    assert info["action_mask"].any()


def test_mrx_trapped_at_the_deal_is_reported_by_the_next_step(board):
    for cls, reward in ((MrXEnv, -1.0), (DetectivesEnv, 1.0)):
        env = cls(map=board, detectives=2)
        obs, info = env.reset(seed=3, options={"game": 4})
        assert info["outcome"] == "trapped" and not info["action_mask"].any()
        _reports_the_end(env, reward)


def test_sync_vector_env_of_detectives_runs_through_ends_inside_reset(board):
    envs = gymnasium.make_vec("sy_tools/ScotlandYardDetectives-v0", num_envs=4, vectorization_mode="sync",
                              rules=CAUGHT, map=board, detectives=2)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    empty = ends = 0
    for _ in range(300):
        empty += int((~info["action_mask"].any(axis=1)).sum())
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, reward, terminated, truncated, info = envs.step(actions)
        ends += int(terminated.sum())
    assert empty >= 3 and ends >= 30, (empty, ends)


def test_an_opponent_of_the_wrong_side_names_the_envs_argument_and_its_choices():
    with pytest.raises(InputError) as e:
        gymnasium.make("sy_tools/ScotlandYardDetectives-v0", opponent="cordon")  # a detectives' policy
    text = str(e.value)
    assert text.startswith("DetectivesEnv opponent (a Mr. X policy): unknown policy 'cordon'") and "advise" in text
    assert "--mrx-policy" not in text and "cordon," not in text
    assert MrXEnv(opponent="cordon").opponent is not None  # the detectives' env takes it
    with pytest.raises(InputError, match=r"^MrXEnv opponent \(a detectives' policy\): unknown policy 'evasive'"):
        MrXEnv(opponent="evasive")
