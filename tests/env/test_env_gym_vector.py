"""The self-play Gymnasium envs: the native vector env on the batched engine agrees, step by step,
with one-game envs stepped one by one (the same seeded games, the same actions: the same
observations, masks, rewards, terminations and outcomes, through the same-step auto-resets);
its spaces, registration and seeds are Gymnasium's; bad actions and resets are refused."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from helpers import small_board

import sy_tools.env  # noqa: F401  (registers the ids)
from sy_tools.env import SelfPlayEnv, SelfPlayVectorEnv
from sy_tools.errors import InputError

ID = "sy_tools/ScotlandYardSelfPlay-v0"


def _agree(vec: SelfPlayVectorEnv, make_single, seed: int, steps: int) -> dict[str, int]:
    """Step ``vec`` with random legal actions and one single env per slot with the same; fail
    at the first difference.  Returns the games ended, and those over at the deal."""
    rng = np.random.default_rng(seed)
    obs, info = vec.reset(seed=seed)
    singles = [make_single() for _ in range(vec.num_envs)]
    outs = [s.reset(seed=seed, options={"game": j}) for j, s in enumerate(singles)]
    ended = over_at_deal = 0
    for _ in range(steps):
        for j, (o, i) in enumerate(outs):
            assert np.array_equal(obs[j], o), j
            assert np.array_equal(info["action_mask"][j], i["action_mask"]), j
            assert info["to_move"][j] == i["to_move"] and tuple(info["game"][j]) == tuple(i["game"])
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, reward, term, trunc, info = vec.step(actions)
        assert not trunc.any()
        for j, s in enumerate(singles):
            o, r, t, tr, i = s.step(actions[j])
            assert (r, t, tr) == (reward[j], term[j], False), j
            assert np.array_equal(i["rewards"], info["rewards"][j])
            if t:
                assert info["_final_info"][j] and info["final_info"]["outcome"][j] == i["outcome"]
                assert tuple(info["final_info"]["game"][j]) == tuple(i["game"])
                ended += 1
                g = info["game"][j]  # the game the slot was dealt: the single env deals the same
                o, i = s.reset(seed=int(g[0]), options={"game": int(g[1])})
                over_at_deal += i["to_move"] == -1
            outs[j] = (o, i)
    return {"ended": ended, "over_at_deal": over_at_deal}


def test_the_vector_env_agrees_with_single_envs_on_london():
    vec = gymnasium.make_vec(ID, num_envs=6, vectorization_mode="vector_entry_point", detectives=3)
    assert isinstance(vec, SelfPlayVectorEnv)
    counts = _agree(vec, lambda: SelfPlayEnv(detectives=3), seed=7, steps=170)
    assert counts["ended"] >= 3, counts


def test_the_vector_env_agrees_with_single_envs_on_a_small_map():
    board = small_board(random.Random(4))
    vec = SelfPlayVectorEnv(8, map=board, detectives=2)
    counts = _agree(vec, lambda: SelfPlayEnv(map=board, detectives=2), seed=3, steps=120)
    assert counts["ended"] >= 20 and counts["over_at_deal"] >= 1, counts


def test_spaces_metadata_and_registration():
    vec = gymnasium.make_vec(ID, num_envs=3, detectives=4)  # the vector entry point by default
    assert isinstance(vec, SelfPlayVectorEnv) and vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    single = gymnasium.make(ID, detectives=4)
    assert vec.single_observation_space == single.observation_space
    assert vec.single_action_space == single.action_space == gymnasium.spaces.Discrete(vec.engine.codec.mrx_size)
    assert vec.observation_space.shape == (3, vec.engine.observation_size)
    assert vec.observation_space.dtype == np.float32 and vec.action_space == gymnasium.spaces.MultiDiscrete([
        vec.engine.codec.mrx_size] * 3)
    obs, info = vec.reset(seed=1)
    for _ in range(30):
        assert vec.observation_space.contains(obs)
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (3, vec.single_action_space.n)
        obs, *_, info = vec.step(vec.sample())
    sync = gymnasium.make_vec(ID, num_envs=2, vectorization_mode="sync", detectives=2)
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    sync.reset(seed=0)
    sync.close()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SelfPlayEnv(detectives=2), skip_render_check=True)


def _trace(vec: SelfPlayVectorEnv, seeds: list[int | None]) -> list[np.ndarray]:
    out = []
    for seed in seeds:
        obs, info = vec.reset(seed=seed)
        out.append(info["game"].copy())
        for _ in range(20):
            obs, reward, *_ = vec.step(vec.sample())
            out += [obs.copy(), reward.copy()]
    return out


def test_seeds_reproduce_runs_and_unseeded_resets():
    a, b = (SelfPlayVectorEnv(4, detectives=2, action_masks=False) for _ in range(2))
    ta, tb = _trace(a, [5, None, None]), _trace(b, [5, None, None])
    assert all(np.array_equal(x, y) for x, y in zip(ta, tb, strict=True))
    assert ta[0][:, 0].tolist() == [5] * 4 and ta[0][:, 1].tolist() == [0, 1, 2, 3]
    assert ta[41][0, 0] != 5  # an unseeded reset deals another run


@pytest.mark.parametrize("bad", ["illegal", "float", "float-int", "shape", "bool", "str"])
def test_bad_actions_are_refused_by_the_vector_env_and_nothing_changes(bad):
    vec = SelfPlayVectorEnv(4, detectives=2)
    obs, info = vec.reset(seed=2)
    good = vec.sample(np.random.default_rng(0))
    wrong = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    actions = {"illegal": np.where(np.arange(4) == 2, wrong, good), "float": good + 0.5,
               "float-int": good.astype(float), "shape": good[:3], "bool": good > 0,
               "str": good.astype(str)}[bad]
    with pytest.raises(InputError, match="game 2: action|must be 4 integers") as err:
        vec.step(actions)
    assert "\n" not in str(err.value)
    assert np.array_equal(obs, vec.engine.observe()) and np.array_equal(info["to_move"], vec.engine.turn)
    vec.step(good)  # still usable


def test_bad_resets_are_refused():
    vec = SelfPlayVectorEnv(2, detectives=2)
    for seed in (True, 1.5, 2**63):
        with pytest.raises(InputError, match="expected a seed"):
            vec.reset(seed=seed)
    with pytest.raises(InputError, match="takes no options"):
        vec.reset(options={"game": 3})
    vec.reset(seed=np.int64(3))


@pytest.mark.parametrize("bad", [160.0, 1.5, True, "3", None, np.array([3]), -1, 10**9])
def test_the_single_env_refuses_what_is_not_an_action(bad):
    env = SelfPlayEnv(detectives=2)
    obs, info = env.reset(seed=3)
    with pytest.raises(InputError, match="the action must be"):
        env.step(bad)
    assert not env.aec.moves
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(np.int64(legal))
    assert (reward, terminated) == (0.0, False) and info["to_move"] == 1


def test_an_illegal_action_ends_the_single_game_against_its_side():
    env = SelfPlayEnv(detectives=2)
    _, info = env.reset(seed=3)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # Mr. X moves; a detective is to act
    _, reward, terminated, _, info = env.step(env.action_space.n - 1)  # beyond a detective's numbers
    assert terminated and info["outcome"] == "illegal-action" and info["rewards"].tolist() == [0.0, -1.0]
    assert reward == 0.0
    with pytest.raises(InputError, match="call reset"):
        env.step(0)


def test_an_illegal_action_by_a_later_detective_is_held_against_the_detectives():
    """Not only det_0's: the mover's own -1 is the detectives' reward (the researcher's trial
    found det_1's illegal action reported as [0, 0], a free way out of a lost game)."""
    env = SelfPlayEnv(detectives=3)
    _, info = env.reset(seed=1)
    while info["to_move"] != 2:  # det_1 to act
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not terminated
    _, reward, terminated, _, info = env.step(env.action_space.n - 1)  # beyond a detective's numbers
    assert terminated and info["outcome"] == "illegal-action"
    assert info["rewards"].tolist() == [0.0, -1.0] and reward == 0.0


def test_an_error_made_from_an_error_reads_as_the_error():
    """gymnasium's AsyncVectorEnv re-raises a worker's error as ``type(err)(err)``: that must be
    the same one line, not a TypeError from joining an exception."""
    err = InputError("not an integer", where="the action")
    again = type(err)(err)
    assert str(again) == str(err) == "the action: not an integer"
