"""The adapters both ways: a simulate policy acting in the environment plays the game simulate
plays; an environment agent plays in simulate (the library and `sy-tools simulate`) the game it
plays in the environment, seeing the same observations; exported games check legal."""

from __future__ import annotations

import json
import sys
import types
from typing import Any

import numpy as np
import pytest

from sy_tools.analysis.referee import check
from sy_tools.env import ScotlandYardEnv, as_policy, play, policy_agent
from sy_tools.errors import InputError
from sy_tools.formats.record_io import load_record
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.runner import simulate


@pytest.mark.parametrize("mrx,det", [("greedy", "greedy"), ("random", "greedy"), ("greedy", "random")])
def test_a_simulate_policy_plays_the_game_simulate_plays(mrx, det):
    games = simulate(GameSpec(mrx_policy=mrx, detective_policy=det, detectives=4, seed=8, records=True), 4,
                     jobs=1).games
    env = ScotlandYardEnv(detectives=4)
    agents = {"mrx": policy_agent(env, mrx, "mrx"), "detectives": policy_agent(env, det, "detectives")}
    for g in games:
        info = play(env, agents, seed=8, options={"game": g.game})
        assert env.record_json() == g.record
        assert (info["winner"], info["outcome"], info["round"]) == (g.winner, g.reason, g.rounds)


def test_a_plug_in_policy_file_acts_in_the_environment(tmp_path, capsys):
    bot = tmp_path / "bot.py"
    bot.write_text("def last(obs, rng):\n    print('thinking')\n    return obs.legal_moves[-1]\n")
    env = ScotlandYardEnv(detectives=3)
    info = play(env, {"mrx": policy_agent(env, "random", "mrx"),
                      "detectives": policy_agent(env, f"{bot}:last", "detectives")}, seed=2)
    assert info["outcome"] != "illegal-action" and len(env.moves) > 3
    out = capsys.readouterr()
    assert "thinking" not in out.out and "thinking" in out.err  # a user's policy prints to stderr
    with pytest.raises(InputError, match="no such file"):
        policy_agent(env, str(tmp_path / "none.py:last"), "detectives")
    with pytest.raises(InputError, match="unknown side 'x'"):
        policy_agent(env, "random", "x")


# ---- an environment agent in simulate --------------------------------------------------------------

SEEN: list[tuple[str, dict[str, Any]]] = []


def _last_legal(observation: dict[str, Any]) -> int:
    """A deterministic agent: the highest legal action (Mr. X: a double move when he may)."""
    SEEN.append(("x" if "mrx" in observation["observation"] else "d", observation))
    return int(np.flatnonzero(observation["action_mask"])[-1])


@pytest.fixture
def agents_module(monkeypatch):
    mod = types.ModuleType("env_test_agents")
    mod.policy = as_policy(_last_legal)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "env_test_agents", mod)
    SEEN.clear()
    return "env_test_agents:policy"


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("side", ["mrx", "detectives"])
def test_an_env_agent_plays_in_simulate_as_in_the_environment(agents_module, side):
    """The same agent, the other side random: simulate and the environment play the same game,
    and every observation the agent gets in simulate is the one the environment gives."""
    spec = GameSpec(mrx_policy=agents_module if side == "mrx" else "random",
                    detective_policy=agents_module if side == "detectives" else "random",
                    detectives=3, seed=4, records=True)
    games = simulate(spec, 3, jobs=1).games
    in_simulate = list(SEEN)
    SEEN.clear()
    env = ScotlandYardEnv(detectives=3)
    other = policy_agent(env, "random", "detectives" if side == "mrx" else "mrx")
    for g in games:
        play(env, {side: _last_legal, "detectives" if side == "mrx" else "mrx": other}, seed=4,
             options={"game": g.game})
        assert env.record_json() == g.record
    assert len(SEEN) == len(in_simulate) > 20
    for (_, a), (_, b) in zip(SEEN, in_simulate):
        assert _same(a["observation"], b["observation"]) and np.array_equal(a["action_mask"], b["action_mask"])


def test_an_env_agent_plays_through_the_cli(cli, tmp_path):
    bot = tmp_path / "agent.py"
    bot.write_text("import numpy as np\nfrom sy_tools.env import as_policy\n\n\n"
                   "def lowest(observation):\n    return int(np.flatnonzero(observation['action_mask'])[0])\n\n\n"
                   "policy = as_policy(lowest)\n")
    out = tmp_path / "rec"
    r = cli("simulate", "-n", "3", "--jobs", "1", "--seed", "9", "--detective-policy", f"{bot}:policy",
            "--mrx-policy", f"{bot}:policy", "--records", str(out), "--format", "json")
    assert r.exit_code == 0, r.output
    env = ScotlandYardEnv()
    lowest = lambda obs: int(np.flatnonzero(obs["action_mask"])[0])  # noqa: E731
    for i in range(3):
        play(env, {"mrx": lowest, "detectives": lowest}, seed=9, options={"game": i})
        path = out / f"game-{i:07d}.json"
        assert json.loads(path.read_text()) == env.record_json()


def test_an_exported_file_checks_legal_with_the_same_outcome(tmp_path, cli):
    env = ScotlandYardEnv(detectives=5)
    info = play(env, {"mrx": policy_agent(env, "greedy", "mrx"), "detectives": policy_agent(env, "greedy",
                                                                                           "detectives")}, seed=3)
    path = tmp_path / "game.json"
    env.save_record(str(path))
    verdict = check(load_record(path))
    assert verdict.legal and verdict.status.kind.value == info["outcome"]
    r = cli("check", str(path))
    assert r.exit_code == 0 and verdict.status.describe() in r.output
