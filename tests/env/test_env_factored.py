"""Voluntary-reveal actions factored into (move, reveal): the pair's flat action is the codec's
(every legal pair on a small map against encode), the factored masks rebuild the engine's flat
mask exactly on random games, and a wrapped env plays whole games with factored actions, a
random Mr. X then showing himself about as often as he chooses to."""

from __future__ import annotations

import dataclasses
import random

import gymnasium
import numpy as np
import pytest
from helpers import small_board

from sy_tools.engine.hops import MRX
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import DETECTIVE_TICKETS
from sy_tools.env import ScotlandYardEnv, SelfPlayEnv, SelfPlayVectorEnv
from sy_tools.env.factored import FactoredReveal, FactoredRevealVector, RevealFactoring
from sy_tools.errors import InputError

REVEAL = dataclasses.replace(PRESETS["classic"], voluntary_reveal=True)


def test_join_is_the_codecs_numbering():
    board = small_board(random.Random(2))
    env = ScotlandYardEnv(REVEAL, board, 2)
    codec, f = env.codec, RevealFactoring(env.codec)
    moves, reveals = np.meshgrid(np.arange(f.moves), np.arange(f.reveals), indexing="ij")
    flat = f.join(moves, reveals)
    for m in range(f.moves):
        move = codec.decode(MRX, m)
        for r in range(f.reveals):
            if r == 0:
                want = m
            else:
                hop, take = divmod(r - 1, codec.takes)
                want = -1 if hop >= len(move.tickets) else codec.encode(move.revealing(
                    hop, codec.names[take // 3], DETECTIVE_TICKETS[take % 3]))
            assert flat[m, r] == want, (m, r)


@pytest.mark.parametrize("where", ["london", "small"])
def test_the_factored_masks_are_exact(where):
    board = "london" if where == "london" else small_board(random.Random(5))
    env = ScotlandYardEnv(REVEAL, board, 3 if where == "london" else 2)
    f = RevealFactoring(env.codec)
    rng = np.random.default_rng(1)
    compared, shows = 0, 0
    for game in range(30):
        env.reset(seed=3, options={"game": game})
        while not any(env.terminations.values()) and compared < 80:
            mask = env.observe(env.agent_selection)["action_mask"]
            if env.agent_selection == "mrx":
                move_mask, reveal_mask = f.split(mask)
                assert np.array_equal(f.joined_mask(move_mask, reveal_mask), mask.astype(bool))
                compared += 1
                shows += int(reveal_mask[:, 1:].any())
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert compared >= 40 and shows >= 20, (compared, shows)



def test_a_wrapped_env_plays_games_with_factored_actions():
    env = FactoredReveal(SelfPlayEnv(rules=REVEAL, detectives=3))
    f = env.factoring
    assert env.action_space.nvec.tolist() == [f.moves, 1 + 2 * 9]
    rng = np.random.default_rng(0)
    mrx_moves = shows = games = 0
    _, info = env.reset(seed=4)
    while games < 2:
        move = int(rng.choice(np.flatnonzero(info["move_mask"])))
        reveal = 0
        if info["to_move"] == 0:
            mrx_moves += 1
            legs = int(f.legs(move))
            row = np.flatnonzero(info["reveal_mask"][max(legs, 1) - 1, 1:]) + 1
            if legs and len(row) and rng.random() < 0.25:  # reveal or not, then which
                reveal = int(rng.choice(row))
                shows += 1
        _, _, terminated, _, info = env.step(np.array([move, reveal]))
        assert info.get("outcome") != "illegal-action"
        if terminated:
            games += 1
            _, info = env.reset()
    assert mrx_moves >= 10 and 0 < shows < mrx_moves / 2, (mrx_moves, shows)


def test_what_names_no_action_is_refused():
    env = FactoredReveal(SelfPlayEnv(rules=REVEAL, detectives=2))
    _, info = env.reset(seed=1)
    f = env.factoring
    single = int(np.flatnonzero(info["move_mask"][:f.codec.singles])[0])
    for bad, message in [((single, 1 + f.codec.takes), "names no move"), ((f.codec.pass_action, 1), "names no move"),
                         (single, "pair of integers"), ((single, 0.5), "pair of integers"),
                         ((single, f.reveals), "reveal must be from"), ((True, False), "pair of integers")]:
        with pytest.raises(InputError, match=message):
            env.step(bad)
    assert not env.unwrapped.aec.moves
    _, _, _, _, info = env.step((single, 0))
    assert info["to_move"] == 1
    det = int(np.flatnonzero(info["move_mask"])[0])
    with pytest.raises(InputError, match="names no move"):
        env.step((det, 1))
    with pytest.raises(InputError, match="voluntary_reveal"):
        FactoredReveal(SelfPlayEnv(detectives=2))


def test_mrx_against_built_in_detectives_with_factored_actions():
    env = FactoredReveal(gymnasium.make("sy_tools/ScotlandYardMrX-v0", rules=REVEAL, detectives=2, opponent="random"))
    _, info = env.reset(seed=6)
    move = int(np.flatnonzero(info["move_mask"])[0])
    reveal = int(np.flatnonzero(info["reveal_mask"][0, 1:])[0]) + 1
    env.step((move, reveal))
    assert env.unwrapped.aec.moves[0].shown == 0  # he showed himself after his first hop


def test_the_vector_env_with_factored_actions_plays_as_the_single_env():
    """The same pairs in the native vector env and in one wrapped single env per slot: the same
    observations, factored masks and rewards."""
    board = small_board(random.Random(7))
    vec = FactoredRevealVector(SelfPlayVectorEnv(3, rules=REVEAL, map=board, detectives=2))
    singles = [FactoredReveal(SelfPlayEnv(rules=REVEAL, map=board, detectives=2)) for _ in range(3)]
    obs, info = vec.reset(seed=4)
    outs = [s.reset(seed=4, options={"game": j}) for j, s in enumerate(singles)]
    rng = np.random.default_rng(2)
    shows = 0
    for _ in range(40):
        pairs = []
        for j, (o, i) in enumerate(outs):
            assert np.array_equal(obs[j], o) and np.array_equal(info["move_mask"][j], i["move_mask"])
            assert np.array_equal(info["reveal_mask"][j], i["reveal_mask"])
            legal = np.flatnonzero(i["move_mask"])
            move = int(rng.choice(legal)) if len(legal) else 0
            row = np.flatnonzero(i["reveal_mask"][max(int(vec.factoring.legs(move)), 1) - 1, 1:]) + 1
            reveal = int(rng.choice(row)) if i["to_move"] == 0 and vec.factoring.legs(move) and len(row) \
                and rng.random() < 0.3 else 0
            shows += reveal > 0
            pairs.append((move, reveal))
        obs, reward, term, _, info = vec.step(np.array(pairs))
        for j, s in enumerate(singles):
            o, r, t, _, i = s.step(pairs[j])
            assert (r, t) == (reward[j], term[j])
            if t:
                g = info["game"][j]
                o, i = s.reset(seed=int(g[0]), options={"game": int(g[1])})
            outs[j] = (o, i)
    assert shows >= 3
    fresh = [(int(m.argmax()), 0) for m in info["move_mask"]]  # each game's lowest legal move, no reveal
    with pytest.raises(InputError, match="game 1: the action"):
        vec.step(np.array([fresh[0], (vec.factoring.moves, 0), fresh[2]]))
    with pytest.raises(InputError, match="3 pairs of integers"):
        vec.step(np.array(fresh)[:, 0])
    vec.step(np.array(fresh))  # still usable
