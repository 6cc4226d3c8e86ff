"""What a researcher's hostile trial of the Gymnasium envs found, each mended and kept so: a seed
given to the vector env at construction fixes every later reset; the sync/async wrapping of the
one-game env deals what docs/env.md says; any 64-bit seed (negative, numpy's) works in every
one-game env and anything else is one InputError line; FactoredReveal refuses at construction
what it cannot wrap; a rules dict, a map or starts of the wrong type, a slot that does not exist,
a huge or unsigned numpy action are one InputError line (numpy integers are integers); the
single-agent envs' info names the game, which replays it; stepping or rendering before reset,
or with an opponent that is no policy, is one clear line too."""

from __future__ import annotations

import dataclasses
import random

import gymnasium
import numpy as np
import pytest
from helpers import small_board

import sy_tools.env  # noqa: F401  (registers the ids)
from sy_tools.engine.rules import PRESETS
from sy_tools.env import DetectivesEnv, MrXEnv, ScotlandYardEnv, SelfPlayEnv, SelfPlayVectorEnv
from sy_tools.env.factored import FactoredReveal, FactoredRevealVector
from sy_tools.env.vector import VectorEngine
from sy_tools.errors import InputError

ID = "sy_tools/ScotlandYardSelfPlay-v0"
REVEAL = dataclasses.replace(PRESETS["classic"], voluntary_reveal=True)
SEED_RANGE = "expected a seed from -9223372036854775808 to 9223372036854775807"


def _one_line(err: pytest.ExceptionInfo[InputError]) -> str:
    text = str(err.value)
    assert "\n" not in text and "Traceback" not in text
    return text


# ---- 1. a seed at construction repeats every reset --------------------------------------------------


def _resets(envs, rounds: int = 3, steps: int = 15) -> list[np.ndarray]:
    trace = []
    for _ in range(rounds):
        obs, info = envs.reset()  # never a seed: the constructor's fixes them all
        trace += [info["game"].copy(), obs.copy()]
        for _ in range(steps):
            obs, reward, terminated, _, info = envs.step(envs.sample())
            trace += [obs.copy(), reward.copy(), terminated.copy(), info["game"].copy()]
    return trace


@pytest.mark.parametrize("make", ["make_vec", "class"])
def test_a_seed_given_at_construction_makes_every_unseeded_reset_repeat(make):
    def build():
        if make == "make_vec":
            return gymnasium.make_vec(ID, num_envs=3, seed=-5, detectives=2, action_masks=False)
        return SelfPlayVectorEnv(3, detectives=2, seed=-5, action_masks=False)

    first, second = _resets(build()), _resets(build())
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    assert first[0].tolist() == [[-5, 0], [-5, 1], [-5, 2]]  # the first reset() is reset(seed=-5)
    later = first[2 + 4 * 15]  # the second reset's games: a new run, drawn from the seeded generator
    assert later[0, 0] != -5 and later[:, 1].tolist() == [0, 1, 2]
    seeded = build()
    _, info = seeded.reset(seed=-5)
    assert info["game"].tolist() == first[0].tolist()


# ---- 2. sync/async wrapping of the one-game env deals as documented -----------------------------------


def test_sync_wrapping_deals_run_seed_plus_slot_and_info_game_replays_it():
    board = small_board(random.Random(3))
    sync = gymnasium.make_vec(ID, num_envs=2, vectorization_mode="sync", map=board, detectives=2)
    native = SelfPlayVectorEnv(2, map=board, detectives=2)
    obs, info = sync.reset(seed=40)
    assert info["game"].tolist() == [[40, 0], [41, 0]]  # env i: game 0 of the run seed + i
    assert native.reset(seed=40)[1]["game"].tolist() == [[40, 0], [40, 1]]  # slot j: game j of the run seed
    rng = np.random.default_rng(1)
    replayed = 0
    ended = np.zeros(2, dtype=bool)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        before = info["game"].copy()
        obs, _, now_ended, _, info = sync.step(actions)
        for j in np.flatnonzero(ended):  # the step after an end deals the slot its run's next game
            seed, game = (int(v) for v in info["game"][j])
            assert (seed, game) == (40 + j, before[j, 1] + 1)
            again, again_info = SelfPlayEnv(map=board, detectives=2).reset(seed=seed, options={"game": game})
            assert np.array_equal(again, obs[j]) and np.array_equal(again_info["action_mask"], info["action_mask"][j])
            replayed += 1
        ended = now_ended
    sync.close()
    assert replayed >= 4


# ---- 3. seeds of the one-game envs ---------------------------------------------------------------------


ONE_GAME = {"detectives": lambda: DetectivesEnv(detectives=2), "mrx": lambda: MrXEnv(detectives=2),
            "selfplay": lambda: SelfPlayEnv(detectives=2),
            "made": lambda: gymnasium.make("sy_tools/ScotlandYardDetectives-v0", detectives=2)}


@pytest.mark.parametrize("which", sorted(ONE_GAME))
def test_every_64_bit_seed_deals_and_any_other_is_one_line(which):
    env = ONE_GAME[which]()
    for seed in (-5, -(2**63), np.int32(-7), np.uint64(12), 2**63 - 1):
        _, info = env.reset(seed=seed)
        assert info["game"].tolist() == [int(seed), 0]
    obs, info = env.reset(seed=-5)
    for bad in (2**63, -(2**63) - 1, np.uint64(2**64 - 1), 1.5, "3", True):
        with pytest.raises(InputError, match=SEED_RANGE) as err:
            env.reset(seed=bad)
        assert str(bad) in _one_line(err)
    again, info2 = env.reset(seed=-5)
    assert np.array_equal(obs, again) and info2["game"].tolist() == [-5, 0]


# ---- 4. FactoredReveal refuses at construction what it cannot wrap -------------------------------------


@pytest.mark.parametrize("inner,message", [
    (lambda: DetectivesEnv(rules=REVEAL, detectives=2), "wraps SelfPlayEnv or MrXEnv.*got DetectivesEnv"),
    (lambda: gymnasium.make("sy_tools/ScotlandYardDetectives-v0", rules=REVEAL, detectives=2),
     "got DetectivesEnv"),
    (lambda: gymnasium.make("CartPole-v1"), "got CartPoleEnv"),
    (lambda: MrXEnv(detectives=2), "voluntary_reveal"),
    (lambda: SelfPlayVectorEnv(2, rules=REVEAL, detectives=2), "FactoredRevealVector"),
])
def test_factored_reveal_refuses_at_construction(inner, message):
    env = inner()
    with pytest.raises(InputError, match=message) as err:
        FactoredReveal(env)
    _one_line(err)


@pytest.mark.parametrize("inner,message", [
    (lambda: gymnasium.make_vec("CartPole-v1", num_envs=2), "wraps SelfPlayVectorEnv, got"),
    (lambda: SelfPlayEnv(rules=REVEAL, detectives=2), "wrap one game in FactoredReveal"),
    (lambda: SelfPlayVectorEnv(2, detectives=2), "voluntary_reveal"),
])
def test_factored_reveal_vector_refuses_at_construction(inner, message):
    with pytest.raises(InputError, match=message) as err:
        FactoredRevealVector(inner())
    _one_line(err)


# ---- 5. arguments of the wrong kind, slots that do not exist, numpy integers -----------------------------


MAKERS = {"aec": ScotlandYardEnv, "detectives": DetectivesEnv, "mrx": MrXEnv, "selfplay": SelfPlayEnv,
          "vector": lambda **kw: SelfPlayVectorEnv(2, **kw), "engine": lambda **kw: VectorEngine(2, **kw)}
BAD_ARGUMENTS = {
    "rules-dict": ({"rules": dataclasses.asdict(PRESETS["classic"])}, "rules must be a preset name.*got dict"),
    "rules-none": ({"rules": None}, "rules must be a preset name.*got NoneType"),
    "map-int": ({"map": 3}, "map must be a map name"),
    "starts-int": ({"starts": 3}, "starts must be None, a deck name"),
    "starts-off-map": ({"starts": [999]}, "starts: 999 is not a station"),
    "starts-float": ({"starts": [13, 1.5]}, "starts: 1.5 is not a station"),
    "starts-empty": ({"starts": []}, "starts: an empty list"),
}


@pytest.mark.parametrize("maker", sorted(MAKERS))
@pytest.mark.parametrize("bad", sorted(BAD_ARGUMENTS))
def test_constructor_arguments_of_the_wrong_kind_are_one_line(maker, bad):
    kwargs, message = BAD_ARGUMENTS[bad]
    with pytest.raises(InputError, match=message) as err:
        MAKERS[maker](detectives=2, **kwargs)
    _one_line(err)


def test_numpy_integers_are_integers_in_constructors_and_starts():
    e = ScotlandYardEnv(detectives=np.int64(2), starts=[np.int64(13), np.uint16(26)])
    e.reset(seed=1)
    assert e.start[0] in (13, 26)
    with pytest.raises(InputError, match="keep_records must be True or False, got 'no'"):
        SelfPlayVectorEnv(2, detectives=2, keep_records="no")


def test_record_json_of_a_slot_that_does_not_exist_is_one_line():
    vec = SelfPlayVectorEnv(3, detectives=2, keep_records=True)
    vec.reset(seed=1)
    for bad in (99, 3, -1, True, 1.5):
        with pytest.raises(InputError, match="record_json: expected a game from 0 to 2") as err:
            vec.record_json(bad)
        assert str(bad) in _one_line(err)
    assert vec.record_json(np.int64(2)) == vec.engine.record_json(2)
    for bad in (99, 3, -1, True, 1.5):  # the batched engine itself too
        with pytest.raises(InputError, match="record_json: expected a game from 0 to 2"):
            vec.engine.record_json(bad)


def test_the_batched_engine_refuses_huge_unsigned_actions_and_a_sampler_that_is_no_generator():
    a, b = VectorEngine(3, detectives=2), VectorEngine(3, detectives=2)
    a.reset(6)
    b.reset(6)
    acts = a.sample(np.random.default_rng(0))
    assert np.array_equal(a.step(acts.astype(np.uint64)).obs, b.step([np.uint64(acts[0]), *acts[1:].tolist()]).obs)
    before = a.observe(copy=True)
    with pytest.raises(InputError, match=r"game 1: the action 9223372036854775808 is out of range") as err:
        a.step(np.array([0, 2**63, 0], dtype=np.uint64))  # (wrapped round to -1 before)
    _one_line(err)
    assert np.array_equal(before, a.observe())
    with pytest.raises(InputError, match="sample needs a numpy Generator"):
        a.sample(3)


@pytest.mark.parametrize("which", ["aec", "detectives", "mrx", "selfplay"])
def test_unsigned_numpy_actions_are_integers_in_the_one_game_envs(which):
    env = MAKERS[which](detectives=2)
    out = env.reset(seed=4)
    mask = env.observe("mrx")["action_mask"] if which == "aec" else out[1]["action_mask"]
    with pytest.raises(InputError, match="must be from 0 to") as err:
        env.step(np.uint64(2**64 - 1))
    assert "18446744073709551615" in _one_line(err)
    env.step(np.uint64(np.flatnonzero(mask)[0]))  # a legal action as uint64 is played
    assert len(env.unwrapped.aec.moves if which != "aec" else env.moves) >= 1


def test_unsigned_and_mixed_numpy_actions_in_the_vector_env():
    a, b = (SelfPlayVectorEnv(3, detectives=2) for _ in range(2))
    a.reset(seed=6)
    b.reset(seed=6)
    rng = np.random.default_rng(0)
    for _ in range(10):
        acts = a.sample(rng)
        oa = a.step(acts.astype(np.uint64))[0]
        ob = b.step([np.uint64(acts[0])] + [int(x) for x in acts[1:]])[0]  # numpy and Python integers mixed
        assert np.array_equal(oa, ob)
    before = a.engine.observe(copy=True)
    for bad in (np.array([0, 2**63, 0], dtype=np.uint64), [0, 0, 2**64], [0, 10**30, 0]):
        with pytest.raises(InputError, match=r"game [12]: the action \d+ is out of range \(actions 0 to 8004") as err:
            a.step(bad)
        _one_line(err)
    assert np.array_equal(before, a.engine.observe())


def test_unsigned_and_mixed_numpy_pairs_in_the_factored_envs():
    env = FactoredReveal(SelfPlayEnv(rules=REVEAL, detectives=2))
    _, info = env.reset(seed=2)
    move = int(np.flatnonzero(info["move_mask"])[0])
    with pytest.raises(InputError, match="the action's move must be from 0 to"):
        env.step((np.uint64(2**64 - 1), 0))
    env.step((np.uint64(move), 0))  # numpy and Python integers mixed: a pair of integers
    assert len(env.unwrapped.aec.moves) == 1
    vec = FactoredRevealVector(SelfPlayVectorEnv(2, rules=REVEAL, detectives=2))
    vec.reset(seed=2)
    with pytest.raises(InputError, match=r"game 0: the action \[18446744073709551615, 0\] is out of range") as err:
        vec.step(np.array([[2**64 - 1, 0], [0, 0]], dtype=np.uint64))
    _one_line(err)


# ---- 6. the single-agent envs' info names the game ------------------------------------------------------


@pytest.mark.parametrize("which", ["detectives", "mrx"])
def test_single_agent_info_game_replays_the_game(which):
    env = ONE_GAME[which]()
    _, info = env.reset(seed=21)
    assert info["game"].dtype == np.int64 and info["game"].tolist() == [21, 0]
    obs, info = env.reset()
    assert info["game"].tolist() == [21, 1]
    step_info = env.step(int(np.flatnonzero(info["action_mask"])[0]))[4]
    assert step_info["game"].tolist() == [21, 1]
    again, again_info = ONE_GAME[which]().reset(seed=21, options={"game": 1})
    assert np.array_equal(again, obs) and np.array_equal(again_info["action_mask"], info["action_mask"])
    sync = gymnasium.make_vec(f"sy_tools/ScotlandYard{'Detectives' if which == 'detectives' else 'MrX'}-v0",
                              num_envs=2, vectorization_mode="sync", detectives=2)
    assert sync.reset(seed=21)[1]["game"].tolist() == [[21, 0], [22, 0]]
    sync.close()


# ---- more holes: order of calls, odd options -------------------------------------------------------------


@pytest.mark.parametrize("which", ["aec", "detectives", "mrx", "selfplay"])
def test_step_or_render_before_reset_is_one_line_and_close_twice_is_fine(which):
    env = MAKERS[which](detectives=2, render_mode="ansi")
    with pytest.raises(InputError, match=r"step\(\) before reset\(\)") as err:
        env.step(0)
    _one_line(err)
    with pytest.raises(InputError, match=r"render\(\) before reset\(\)"):
        env.render()
    env.reset(seed=1)
    assert "Mr. X" in env.render()
    env.close()
    env.close()


def test_a_game_number_past_64_bits_and_an_opponent_that_is_no_policy_are_one_line():
    for env in (SelfPlayEnv(detectives=2), DetectivesEnv(detectives=2), ScotlandYardEnv(detectives=2)):
        for game in (2**63, 2**70, np.uint64(2**64 - 1)):
            with pytest.raises(InputError, match="game must be a non-negative integer") as err:
                env.reset(seed=1, options={"game": game})
            _one_line(err)
    for opponent in (None, 3):
        with pytest.raises(InputError, match="policy must be a policy name"):
            MrXEnv(detectives=2, opponent=opponent)
    with pytest.raises(InputError, match="SelfPlayEnv takes no seed at construction"):
        gymnasium.make_vec(ID, num_envs=2, vectorization_mode="sync", detectives=2, seed=5)


def test_the_aec_and_parallel_envs_after_the_end_and_with_odd_arguments():
    from sy_tools.env import parallel_env, play

    par = parallel_env(detectives=2)
    with pytest.raises(InputError, match=r"step\(\) before reset\(\)"):
        par.step({"mrx": 0})
    obs, _ = par.reset(seed=2)
    for bad in (None, [0], 3):
        with pytest.raises(InputError, match="actions must be a dict of agent: action"):
            par.step(bad)
    illegal = int(np.flatnonzero(obs["mrx"]["action_mask"] == 0)[0])
    assert all(par.step({"mrx": illegal})[2].values())  # an illegal action ends the game
    with pytest.raises(InputError, match="the game is over: call reset"):
        par.step({"mrx": 0})
    par.close()
    par.close()

    env = ScotlandYardEnv(detectives=2)
    env.reset(seed=2)
    env.step(illegal)
    with pytest.raises(InputError, match="mrx is done .*the only valid action is None") as err:
        env.step(np.uint64(0))
    _one_line(err)
    for _ in env.possible_agents:  # PettingZoo's loop: each done agent steps out with None
        env.step(None)
    with pytest.raises(InputError, match="every agent has stepped out: call reset"):
        env.step(None)
    for call in (env.observe, env.action_space, env.observation_space, env.piece):
        with pytest.raises(InputError, match="unknown agent 'det_7': expected mrx, det_0, det_1"):
            call("det_7")
    with pytest.raises(InputError, match="agents must be a dict"):
        play(env, [lambda obs: 0], seed=1)
    vec = SelfPlayVectorEnv(2, detectives=2)
    with pytest.raises(InputError, match="rng must be a numpy Generator"):
        vec.sample(3)


def test_adapters_and_records_refuse_what_they_cannot_use():
    from sy_tools.env import as_policy, policy_agent

    for bad, message in ((3, "the agent must be a function"), (None, "the agent must be a function")):
        with pytest.raises(InputError, match=message):
            as_policy(bad)
    with pytest.raises(InputError, match="unknown probabilities 'bogus'"):
        as_policy(lambda obs: 0, probabilities="bogus")
    env = ScotlandYardEnv(detectives=2)
    env.reset(seed=1)
    with pytest.raises(InputError, match="save_record: expected a file path, got int"):
        env.save_record(3)
    with pytest.raises(InputError, match="unknown agent 'bogus'"):
        env.flat_observation("bogus")  # once a detective's view, silently
    with pytest.raises(InputError, match="it is not det_0's turn"):
        env.policy_observation("det_0")
    with pytest.raises(InputError, match="a detectives policy asked to move mrx"):
        policy_agent(env, "random", "detectives")(None)


def test_without_a_seed_at_construction_unseeded_resets_stay_fresh():
    a, b = (SelfPlayVectorEnv(2, detectives=2) for _ in range(2))
    assert a.engine.games.tolist() == [[0, 0], [0, 1]]  # run 0 dealt at construction, as before
    assert a.reset()[1]["game"][0, 0] != b.reset()[1]["game"][0, 0]  # fresh entropy (a 2**-62 chance to meet)
