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

SELF_PLAY = "sy_tools/ScotlandYardSelfPlay-v0"
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


@pytest.mark.parametrize("keyword", [{"render_mode": "ansi"}, {"max_cycle": 3}, {"max_cycles": 0}])
def test_the_native_vector_env_refuses_a_keyword_in_one_line(keyword):
    with pytest.raises(InputError) as e:
        gymnasium.make_vec(SELF_PLAY, num_envs=2, **keyword)
    name = next(iter(keyword))
    assert name in str(e.value) and "\n" not in str(e.value)
    if name != "max_cycles":
        assert "its keywords are num_envs, rules, map" in str(e.value) and "max_cycles" in str(e.value)


def test_max_cycles_truncates_as_the_one_game_env_and_deals_anew(board):
    """The native env with max_cycles=2 against SelfPlayEnv(max_cycles=2) slot by slot: the same
    observations, rewards, terminations and truncations; each truncated game's last view is in
    final_obs, its record in final_info, and the slot is dealt the run's next game."""
    from sy_tools.env import SelfPlayEnv

    vec = gymnasium.make_vec(SELF_PLAY, num_envs=4, map=board, detectives=2, max_cycles=2, keep_records=True)
    singles = [SelfPlayEnv(map=board, detectives=2, max_cycles=2) for _ in range(4)]
    obs, info = vec.reset(seed=5)
    outs = [s.reset(seed=5, options={"game": j}) for j, s in enumerate(singles)]
    rng = np.random.default_rng(2)
    truncs = ends = 0
    for _ in range(40):
        for j, (o, i) in enumerate(outs):
            assert np.array_equal(obs[j], o) and np.array_equal(info["action_mask"][j], i["action_mask"]), j
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, reward, term, trunc, info = vec.step(actions)
        for j, s in enumerate(singles):
            o, r, t, tr, i = s.step(actions[j])
            assert (r, t, tr) == (reward[j], term[j], trunc[j]), j
            if t or tr:
                record = info["final_info"]["record"][j]
                assert record == s.aec.record_json() and info["_final_info"][j]
                assert tuple(info["final_info"]["game"][j]) == tuple(i["game"])
                if tr:
                    assert np.array_equal(info["final_obs"][j], o) and info["final_info"]["outcome"][j] == "in-progress"
                    # Mr. X's view (he was to move); the detectives' view of the same state beside it
                    assert np.array_equal(info["final_obs_detectives"][j], s.aec.flat_observation("det_0"))
                    assert not np.array_equal(info["final_obs_detectives"][j], o)
                truncs, ends = truncs + bool(tr), ends + bool(t)
                g = info["game"][j]
                assert g[1] >= 4  # the run's next game
                o, i = s.reset(seed=int(g[0]), options={"game": int(g[1])})
            outs[j] = (o, i)
    assert truncs >= 3 and ends >= 1, (truncs, ends)


def test_the_library_and_the_envs_read_what_sy_tools_rules_writes(cli, tmp_path):
    import json

    from sy_tools.engine.rules import rules_from_json
    from sy_tools.env import ScotlandYardEnv, SelfPlayVectorEnv

    out = cli("rules", "2014", "--format", "json")
    assert out.exit_code == 0
    doc = json.loads(out.stdout)
    def same(a, b) -> bool:  # every rule the same (an edited file's rules are named 2014+)
        return dataclasses.replace(a, name=b.name) == b

    assert rules_from_json(doc) == PRESETS["2014"]  # unedited: the preset itself, name included
    doc["mrx_onto_detective"] = "caught"  # edited, as docs/rules.md suggests
    path = tmp_path / "caught.json"
    path.write_text(json.dumps(doc))
    want = dataclasses.replace(PRESETS["2014"], mrx_onto_detective="caught")
    assert same(ScotlandYardEnv(rules=str(path), detectives=2).rules, want)
    assert same(DetectivesEnv(rules=str(path), detectives=2).aec.rules, want)
    assert same(SelfPlayVectorEnv(2, rules=str(path), detectives=2).engine.rules, want)
    with pytest.raises(InputError, match=r"^rules: unknown rules preset 'no-such\.json' and no such file"):
        ScotlandYardEnv(rules="no-such.json")


def test_the_parallel_env_refuses_an_unknown_agent_in_the_actions():
    from sy_tools.env import parallel_env

    p = parallel_env(detectives=2)
    obs, infos = p.reset(seed=1)
    move = int(np.flatnonzero(obs["mrx"]["action_mask"])[0])
    with pytest.raises(InputError, match=r"^actions: unknown agent 'det_9' \(the agents are mrx, det_0, det_1\)$"):
        p.step({"mrx": move, "det_9": 0})
    assert p.to_act == "mrx"  # nothing played
    p.step({"mrx": move, "det_1": 0})  # another agent's action is ignored, as documented
    assert p.to_act == "det_0"


def test_start_candidates_go_with_both_start_stations_and_lose_the_detectives():
    from sy_tools.env import ScotlandYardEnv

    env = ScotlandYardEnv(detectives=2)
    with pytest.raises(InputError, match="start_candidates is taken only with mrx_start and detective_starts"):
        env.reset(seed=1, options={"start_candidates": [13, 26, 29]})
    env.reset(seed=1, options={"mrx_start": 13, "detective_starts": [26, 50], "start_candidates": [13, 26, 29]})
    assert env.start == (13, (26, 50), (13, 29))  # 26, a detective's station, dropped as documented


def test_simulate_says_once_per_kind_why_an_agents_games_were_forfeit(cli, tmp_path):
    bot = tmp_path / "agent.py"
    bot.write_text("import numpy as np\nfrom sy_tools.env import as_policy\n\n"
                   "shaped = as_policy(lambda o: np.flatnonzero(o['action_mask'])[:1])  # shape (1,): no action\n"
                   "real = as_policy(lambda o: float(np.flatnonzero(o['action_mask'])[0]))  # a float: no action\n")
    r = cli("simulate", "-n", "3", "--seed", "1", "--jobs", "1", "--detective-policy", f"{bot}:shaped",
            "--mrx-policy", f"{bot}:real", "--format", "json")
    assert r.exit_code == 0 and __import__("json").loads(r.stdout)["forfeits"] == 3  # the exit status as before
    lines = r.stderr.splitlines()
    assert len(lines) == 1, lines  # three games, one kind: one line
    assert lines[0].startswith("warning: 3 games forfeit (the first, game 0: mrx policy")
    assert "must be an integer, got float" in lines[0]
    r = cli("simulate", "-n", "3", "--seed", "1", "--jobs", "1", "--detective-policy", f"{bot}:shaped")
    assert r.stderr.startswith("warning: 3 games forfeit") and "ndarray of shape (1,)" in r.stderr
    assert len(r.stderr.splitlines()) == 1  # the array printed differs game by game: still one kind


def test_check_env_finds_a_render_fps(recwarn):
    from gymnasium.utils.env_checker import check_env

    from sy_tools.env import SelfPlayEnv

    for env in (DetectivesEnv(detectives=2, render_mode="ansi"), SelfPlayEnv(detectives=2, render_mode="ansi")):
        check_env(env, skip_render_check=False)
    assert not [w for w in recwarn if "render fps" in str(w.message)]


@pytest.mark.parametrize("make", ["detectives", "mrx", "selfplay", "aec", "sync"])
def test_a_misspelt_keyword_is_one_line_naming_it_and_the_keywords(make):
    # (gymnasium.make handed it on as a TypeError from deep inside)
    makers = {"detectives": lambda **kw: gymnasium.make("sy_tools/ScotlandYardDetectives-v0", **kw),
              "mrx": lambda **kw: gymnasium.make("sy_tools/ScotlandYardMrX-v0", **kw),
              "selfplay": lambda **kw: gymnasium.make(SELF_PLAY, **kw),
              "aec": sy_tools.env.env,
              "sync": lambda **kw: gymnasium.make_vec(SELF_PLAY, num_envs=2, vectorization_mode="sync", **kw)}
    with pytest.raises(InputError, match=r"^the env takes no keyword max_cycle=3: its keywords are rules, map, .*max_cycles"):
        makers[make](max_cycle=3)


def test_rules_from_json_says_what_a_json_text_or_an_edited_name_is():
    import json

    from sy_tools.engine.rules import rules_from_json

    doc = {"name": "2014", "log_length": 10}
    assert rules_from_json(doc).log_length == 10 and rules_from_json(doc).reveal_moves == PRESETS["2014"].reveal_moves
    with pytest.raises(InputError, match=r"a JSON text\? pass json.loads\(text\)") as err:
        rules_from_json(json.dumps(doc))
    assert len(str(err.value)) < 200
    with pytest.raises(InputError, match=r"^rules.name: unknown rules preset 'mine' \(the preset the other fields"):
        rules_from_json({**doc, "name": "mine"})


@pytest.mark.parametrize("make", ["aec", "vector"])
def test_an_unknown_start_deck_is_refused_at_construction_naming_starts(make):
    from sy_tools.env import ScotlandYardEnv, SelfPlayVectorEnv

    maker = ScotlandYardEnv if make == "aec" else (lambda **kw: SelfPlayVectorEnv(2, **kw))
    for bad in ("clasic", "13"):  # (the AEC env took it and failed at reset, naming the CLI's --starts)
        with pytest.raises(InputError, match=rf"^starts: unknown start deck '{bad}': expected classic, 2014"):
            maker(starts=bad)
    maker(starts="2014")


def test_a_slot_given_as_a_string_is_shown_as_one():
    from sy_tools.env import SelfPlayVectorEnv

    with pytest.raises(InputError, match=r"^record_json: expected a game from 0 to 1, got '1'$"):
        SelfPlayVectorEnv(2, keep_records=True).record_json("1")
