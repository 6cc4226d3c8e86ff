"""ScotlandYardEnv as PettingZoo specifies an AEC environment: its API and seed tests, the
extra it needs, seeds that deal as simulate deals, illegal actions refused, the renderings."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
from helpers import small_board
from pettingzoo.test import api_test, seed_test

from sy_tools.engine.moves import Move
from sy_tools.engine.rules import PRESETS
from sy_tools.env import ScotlandYardEnv
from sy_tools.errors import InputError
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.runner import simulate


@pytest.mark.parametrize("kwargs", [{}, {"detectives": 2, "probabilities": "uniform", "rules": "2014"}])
def test_pettingzoo_api_test(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # its advice: flat Box observations, player_N names
        api_test(ScotlandYardEnv(**kwargs), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(ScotlandYardEnv, num_cycles=200)


def test_spaces_are_fixed_and_documented_sizes(london):
    env = ScotlandYardEnv(detectives=3)
    s, hops = len(london.stations), sum(len(london.destinations(a, t)) for a in london.stations
                                          for t in ("taxi", "bus", "underground", "black"))
    assert env.action_space("det_0").n == 3 * s
    assert env.action_space("mrx").n == 4 * s + 4 * hops + 1
    assert env.possible_agents == ["mrx", "det_0", "det_1", "det_2"]
    det = env.observation_space("det_1")["observation"]
    assert det["reveals"].shape == (24, s) and det["agent"].shape == (3,) and "mrx" not in det.spaces
    assert env.observation_space("mrx")["observation"]["mrx"].shape == (s,)
    reveal = ScotlandYardEnv(rules=dataclasses.replace(PRESETS["classic"], voluntary_reveal=True), detectives=3)
    assert reveal.action_space("mrx").n == env.action_space("mrx").n + 4 * s * 9 + 4 * hops * 18


@pytest.mark.parametrize("reveal", [False, True])
def test_the_numbering_is_one_to_one(london, reveal):
    """Every action decodes to a move that encodes back to it (the voluntary reveal's on a
    small map: its space is large); the moves of one piece never share an action."""
    board = london if not reveal else small_board(random.Random(3))
    env = ScotlandYardEnv(rules=dataclasses.replace(PRESETS["classic"], voluntary_reveal=reveal), map=board,
                          detectives=3)
    for agent in ("mrx", "det_2"):
        piece = env.piece(agent)
        moves = [env.codec.decode(piece, a) for a in range(env.action_space(agent).n)]
        assert [env.codec.encode(m) for m in moves] == list(range(len(moves)))
    with pytest.raises(ValueError, match="no action encodes"):
        env.codec.encode(Move.detective("Red", "taxi", 10**5))


# ---- the extra ---------------------------------------------------------------------------------


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_without_pettingzoo_the_import_says_what_to_install():
    r = _python("import sys; sys.modules['pettingzoo'] = None\nimport sy_tools.env")
    assert r.returncode != 0
    assert "ImportError: sy_tools.env needs pettingzoo and gymnasium (pettingzoo is missing): " \
           "pip install 'sy-tools[rl]'" in r.stderr


def test_nothing_else_imports_pettingzoo_or_gymnasium():
    r = _python("import sys\nimport sy_tools, sy_tools.cli.app, sy_tools.selfplay.runner, sy_tools.analysis.batch\n"
                "from sy_tools.cli.app import main\n"
                "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo', 'gymnasium')))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_bad_arguments_are_one_line_errors():
    with pytest.raises(InputError, match="expected 1 to 5 detectives, got 6"):
        ScotlandYardEnv(detectives=6)
    with pytest.raises(InputError, match="unknown render_mode 'window'"):
        ScotlandYardEnv(render_mode="window")
    with pytest.raises(InputError, match="unknown probabilities 'exact'"):
        ScotlandYardEnv(probabilities="exact")
    env = ScotlandYardEnv(detectives=2)
    with pytest.raises(InputError, match="mrx_start 13 is not one of Mr. X's start candidates"):
        env.reset(options={"mrx_start": 13, "detective_starts": [26, 29], "start_candidates": [35, 45]})
    with pytest.raises(InputError, match="expected 2 detective_starts, got 1"):
        env.reset(options={"mrx_start": 13, "detective_starts": [26]})


# ---- seeds ---------------------------------------------------------------------------------------


def test_reset_deals_as_simulate_deals():
    """reset(seed=s) deals game 0 of simulate --seed s; each reset() after it the next game."""
    games = simulate(GameSpec(detectives=4, seed=11), 4, jobs=1).games
    env = ScotlandYardEnv(detectives=4)
    for g in games:
        if g.game == 0:
            env.reset(seed=11)
        else:
            env.reset()
        mrx, dets, _ = env.start
        assert (mrx, dets) == (g.mrx_start, g.detective_starts)
        assert env.game == (11, g.game)
    env.reset(seed=11, options={"game": 2})
    assert env.start[:2] == (games[2].mrx_start, games[2].detective_starts)


# ---- illegal actions -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["unmasked", "unmasked-numpy"])
def test_an_illegal_action_ends_the_game_unapplied(bad):
    """As PettingZoo's TerminateIllegalWrapper: the game ends, -1 for the agent that chose the
    action, 0 for every other; the action is never applied.  (What is not an action at all is
    refused: test_env_refusals.)"""
    env = ScotlandYardEnv(detectives=2)
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))  # Mr. X moves
    agent = env.agent_selection
    mask = env.last()[0]["action_mask"]
    action = int(np.flatnonzero(mask == 0)[0]) if bad == "unmasked" else np.flatnonzero(mask == 0)[0]
    before = env.position
    env.step(action)
    assert env.position is before and len(env.moves) == 1
    assert all(env.terminations.values())
    assert {a: env._cumulative_rewards[a] for a in env.agents} == {"mrx": 0.0, "det_0": -1.0, "det_1": 0.0}
    assert env.infos[agent]["outcome"] == "illegal-action"
    assert env.infos[agent]["illegal"] == f"{agent} chose {action!r}, which is not a legal action"
    assert not env.observe(agent)["action_mask"].any()
    with pytest.raises(ValueError, match="the only valid action is None"):
        env.step(0)
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []
    assert env.record_json()["rounds"][0]["detectives"] == []


def test_the_end_rewards_and_infos():
    env = ScotlandYardEnv(detectives=5)
    env.reset(seed=1)
    seen = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            seen.append((agent, reward, info["outcome"]))
            env.step(None)
            continue
        assert reward == 0 and info["outcome"] == "in-progress"
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    winner = env.position.outcome.winner
    kind = env.position.outcome.kind.value
    assert sorted(seen) == sorted([("mrx", 1.0 if winner == "mrx" else -1.0, kind)]
                                  + [(f"det_{i}", -1.0 if winner == "mrx" else 1.0, kind) for i in range(5)])


# ---- rendering ---------------------------------------------------------------------------------------


def test_render_ansi_human_and_rgb_array(capsys):
    env = ScotlandYardEnv(detectives=2, render_mode="ansi")
    env.reset(seed=5, options={"mrx_start": 13, "detective_starts": [26, 29], "start_candidates": [13, 35, 45]})
    env.step(env.codec.encode(env.position.legal_moves[0]))
    assert env.render() == (
        "in progress: round 1, after Mr. X's move 1; Red to move\n"
        "Mr. X not seen yet: T3 B3 U3 K5 2X2; log T\n"
        "Red 26: T10 B8 U4  Blue 29: T10 B8 U4\n"
        "possible: 13 stations")
    while env.position.move < 3:  # to his first reveal, move 3: the detectives' view names the station shown
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.render().splitlines()[1].startswith(f"Mr. X last seen at {env.position.mrx_at} (move 3): ")
    shown = ScotlandYardEnv(detectives=2, render_mode="human")
    shown.reset(seed=5, options={"mrx_start": 13, "detective_starts": [26, 29], "start_candidates": [13, 35, 45]})
    assert shown.render() is None
    out = capsys.readouterr().out
    assert out.startswith("in progress: before Mr. X's first move") and "Mr. X not seen yet" in out and "13" not in out.splitlines()[1]
    pic = ScotlandYardEnv(detectives=2, render_mode="rgb_array")
    pic.reset(seed=5)
    img = pic.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.shape == (480, 640, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 20  # a picture, not a blank
    with pytest.warns(UserWarning, match="render_mode"):
        assert ScotlandYardEnv().render() is None
