"""What is not an action, or not a good reset, is refused with one clear error and changes
nothing: floats (even 160.0), bools, strings, None, arrays of shape (1,) or more; numpy integers
are integers everywhere (actions, seeds, reset options, policies)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sy_tools.analysis.referee import check
from sy_tools.engine.rules import PRESETS, rules_from_json
from sy_tools.env import ScotlandYardEnv, as_policy, env, play
from sy_tools.errors import InputError
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.runner import simulate


def _started(detectives: int = 2) -> ScotlandYardEnv:
    e = ScotlandYardEnv(detectives=detectives)
    e.reset(seed=3)
    return e


@pytest.mark.parametrize("bad", ["float", "float-int", "bool", "str", "none", "array1", "array2", "negative",
                                 "too-big"])
def test_what_is_not_an_action_is_refused_and_nothing_changes(bad):
    e = _started()
    legal = int(np.flatnonzero(e.observe("mrx")["action_mask"])[0])
    action = {"float": legal + 0.7, "float-int": float(legal), "bool": True, "str": str(legal), "none": None,
              "array1": np.array([legal]), "array2": np.array([legal, legal]), "negative": -1,
              "too-big": e.action_space("mrx").n}[bad]
    before, seen = e.position, e.observe("mrx")
    with pytest.raises(InputError, match="mrx's action must be") as err:
        e.step(action)
    assert "\n" not in str(err.value)
    assert e.position is before and not e.moves and e.agent_selection == "mrx"
    assert not any(e.terminations.values()) and e.outcome == "in-progress"
    assert np.array_equal(e.observe("mrx")["action_mask"], seen["action_mask"])
    e.step(legal)  # still usable: the legal action plays
    assert len(e.moves) == 1


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint16, lambda a: np.array(a)])
def test_numpy_integers_are_actions(kind):
    e = _started()
    legal = int(np.flatnonzero(e.observe("mrx")["action_mask"])[0])
    e.step(kind(legal))
    assert len(e.moves) == 1 and e.outcome == "in-progress"


@pytest.mark.parametrize("options,message", [
    ({"mrx_start": True, "detective_starts": [26, 29]}, "mrx_start must be a station number, got True"),
    ({"mrx_start": 13.0, "detective_starts": [26, 29]}, "mrx_start must be a station number, got 13.0"),
    ({"mrx_start": 13, "detective_starts": [26, 29], "start_candidates": [13, 10**30]},
     "start_candidates entry 1000000000000000000000000000000 is not a station of the map"),
    ({"mrx_start": 13, "detective_starts": [26, 29], "start_candidates": [13, -4]},
     "start_candidates entry -4 is not a station of the map"),
    ({"mrx_start": 13, "detective_starts": 26}, "detective_starts must be a list of stations, got 26"),
    ({"mrx_start": 13, "detective_starts": [26, 900]}, "detective_starts entry 900 is not a station"),
    ({"game": -1}, "game must be a non-negative integer, got -1"),
    ({"game": 1.5}, "game must be a non-negative integer, got 1.5"),
    ({"start_candidates": [13]}, "start_candidates is taken only with mrx_start and detective_starts"),
    ({"mrx_start": 13}, "give both mrx_start and detective_starts, or neither"),
])
def test_bad_reset_options_are_one_error_and_the_env_stays_usable(options, message):
    e = ScotlandYardEnv(detectives=2)
    e.reset(seed=4)
    before = (e.position, e.game, e.start)
    with pytest.raises(InputError, match="reset options: " + message.replace("(", r"\(")):
        e.reset(options=options)
    assert (e.position, e.game, e.start) == before  # nothing changed
    e.reset()  # usable: the next game of the run
    assert e.game == (4, 1)
    fresh = ScotlandYardEnv(detectives=2)
    with pytest.raises(InputError):
        fresh.reset(seed=4, options=options)
    fresh.reset(seed=4)
    assert fresh.start == before[2]


def test_reset_takes_numpy_integers():
    e = ScotlandYardEnv(detectives=2)
    e.reset(seed=np.int64(5), options={"mrx_start": np.int64(13), "detective_starts": np.array([26, 29]),
                                       "start_candidates": np.array([13, 35], dtype=np.int32), "game": np.uint8(2)})
    assert e.start == (13, (26, 29), (13, 35)) and e.game == (5, 2)
    assert all(type(s) is int for s in (e.start[0], *e.start[1], *e.start[2]))
    play(e, {"mrx": lambda o: np.flatnonzero(o["action_mask"])[0], "detectives": lambda o: np.flatnonzero(
        o["action_mask"])[-1]})
    assert check(e.record()).legal  # the exported record reads back, legal


def test_reset_refuses_a_bool_seed_and_non_dict_options():
    e = ScotlandYardEnv(detectives=2)
    with pytest.raises(InputError, match="expected a seed"):
        e.reset(seed=True)
    with pytest.raises(InputError, match="reset options must be a dict, got list"):
        e.reset(options=[1])


def test_as_policy_refuses_a_non_integer_action():
    bad = as_policy(lambda obs: float(np.flatnonzero(obs["action_mask"])[0]) + 0.7)
    e = _started()
    with pytest.raises(InputError, match="the agent's action must be an integer, got float"):
        bad(e.policy_observation("mrx"), e.rng)
    good = as_policy(lambda obs: np.flatnonzero(obs["action_mask"])[0])  # a numpy integer is an action
    assert good(e.policy_observation("mrx"), e.rng) in e.position.legal_moves
    games = simulate(GameSpec(detectives=2, seed=1, mrx_policy="random", detective_policy="random"), 1, jobs=1).games
    assert games  # (simulate itself unchanged)


def test_huge_ticket_counts_still_make_spaces():
    """A rules file may give 18-digit ticket counts: the spaces still build."""
    rules = rules_from_json({"preset": "classic", "detective_tickets": {"taxi": 10**18 - 1, "bus": 10**18 - 1,
                                                                        "underground": 10**18 - 1}})
    e = ScotlandYardEnv(rules=rules, detectives=5)
    e.reset(seed=1)
    assert e.observation_space("mrx").contains(e.observe("mrx"))
    assert e.state_space.contains(e.state())


def test_the_factory_enforces_order_and_reads_through():
    wrapped = env(detectives=2)
    with pytest.raises(AttributeError, match="before reset"):
        wrapped.agent_selection  # noqa: B018
    wrapped.reset(seed=2)
    assert wrapped.unwrapped.__class__ is ScotlandYardEnv and wrapped.codec is wrapped.unwrapped.codec
    rules = dataclasses.replace(PRESETS["classic"], voluntary_reveal=True)
    assert env(rules=rules, detectives=1).unwrapped.rules.voluntary_reveal
