"""PettingZoo's own tests on the wrapped factory, the parallel env, max_cycles and every render
mode; state() and its space; the turn-based parallel env plays the AEC env's game."""

from __future__ import annotations

import types
import warnings
from functools import partial

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test, seed_test

import sy_tools.env as sy_env
from sy_tools.env import ScotlandYardEnv, parallel_env


def _quiet():
    w = warnings.catch_warnings()
    w.__enter__()
    warnings.simplefilter("ignore", UserWarning)  # its advice: flat Box observations, player_N names
    return w


def test_api_test_on_the_wrapped_factory():
    w = _quiet()
    try:
        api_test(sy_env.env(detectives=3), num_cycles=200)
    finally:
        w.__exit__(None, None, None)


def test_parallel_api_test():
    w = _quiet()
    try:
        parallel_api_test(parallel_env(detectives=3), num_cycles=400)
    finally:
        w.__exit__(None, None, None)


def test_seed_test_on_the_factory():
    seed_test(partial(sy_env.env, detectives=2), num_cycles=100)


def _seeded(make, **kwargs):
    """An env whose first reset is seeded (reset() then deals the next game of that run) and
    whose action spaces are seeded: max_cycles_test draws unmasked actions and resets unseeded."""
    def build(**kw):
        e = make(detectives=2, illegal_action="random", **kwargs, **kw)
        e.reset(seed=17)
        for i, a in enumerate(e.possible_agents):
            e.action_space(a).seed(i)
        return e
    return build


def test_max_cycles_test():
    """max_cycles counts rounds in the AEC env (each agent acts once a round) and steps in the
    turn-based parallel env (each live agent takes part in every step): PettingZoo's cycles."""
    mod = types.SimpleNamespace(env=_seeded(sy_env.env), parallel_env=_seeded(parallel_env))
    max_cycles_test(mod)


def test_max_cycles_truncates_after_that_many_rounds():
    e = ScotlandYardEnv(detectives=2, max_cycles=3)
    e.reset(seed=1)
    turns = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            assert trunc and not term and info["truncated"] and not obs["action_mask"].any()
            e.step(None)
            continue
        turns += 1
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.position.round == 3 and e.position.ended is None and turns == 9


def test_render_test_every_mode(capsys):
    render_test(partial(ScotlandYardEnv, detectives=2))
    assert "possible:" in capsys.readouterr().out  # human mode printed


def test_state_is_the_full_flat_view_in_its_space():
    e = ScotlandYardEnv(detectives=3)
    e.reset(seed=9)
    s = e.state()
    assert s.dtype == np.float32 and e.state_space.contains(s)
    layout = e.flat
    start = {name: at for name, at, _ in layout.fields()}["mrx"]
    stations = s[start:start + len(layout.stations)]
    assert stations.sum() == 1 and layout.stations[int(np.argmax(stations))] == e.position.mrx_at
    det = e.flat_observation("det_0")
    assert det[start:start + len(layout.stations)].sum() == 0  # a detective's flat view has no Mr. X


def test_the_parallel_env_plays_the_aec_game():
    par = parallel_env(detectives=3)
    aec = ScotlandYardEnv(detectives=3)
    obs, _ = par.reset(seed=6)
    aec.reset(seed=6)
    rng = np.random.default_rng(0)
    while par.agents:
        agent = par.to_act
        assert agent == aec.agent_selection and np.array_equal(obs[agent]["action_mask"],
                                                               aec.observe(agent)["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs[agent]["action_mask"])))
        others = {a: 0 for a in par.agents if a != agent}
        obs, rewards, terms, truncs, infos = par.step({agent: action, **others})
        aec.step(action)
    assert aec.record_json() == par.aec.record_json() and any(terms.values())
    assert sorted(rewards.values()) == sorted(aec.rewards.values())
    with pytest.raises(Exception, match="no action for mrx"):
        par.reset(seed=1)
        par.step({})
