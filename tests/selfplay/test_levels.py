"""The computer's strength levels (sy_tools.selfplay.levels): one list of names for the CLI and
simulate, budgets set with setdefault, legal games reproducible from the seed at every level."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace

import pytest

from sy_tools.analysis.referee import check
from sy_tools.engine.rules import PRESETS
from sy_tools.formats.game_json import parse_record
from sy_tools.selfplay import levels
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.policies import DETECTIVE_POLICIES, MRX_POLICIES
from sy_tools.selfplay.runner import simulate

#: classic rules cut to eight moves of Mr. X (two reveals): games short enough for a quick test
SHORT = replace(PRESETS["classic"], log_length=8, reveal_moves=(3, 8))


def test_the_levels_are_one_list_that_simulate_knows():
    assert levels.LEVELS == ("easy", "normal", "hard")
    assert levels.DEFAULT_LEVEL in levels.LEVELS
    for side in levels.SIDES:
        assert tuple(levels.LEVEL_TABLE[side]) == levels.LEVELS
    names = levels.level_policy_names()
    assert names == tuple("level-" + level for level in levels.LEVELS)
    for registry in (MRX_POLICIES, DETECTIVE_POLICIES):
        assert tuple(n for n in registry if n.startswith(levels.LEVEL_POLICY_PREFIX)) == names


def test_simulate_help_lists_the_levels_without_importing_the_policies():
    code = ("import sys; from sy_tools.cli import main\n"
            "try:\n    main(['simulate', '--help'])\nexcept SystemExit:\n    pass\n"
            "print('POLICIES', 'sy_tools.selfplay.policies' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "POLICIES False" in r.stdout, r.stdout[-500:] + r.stderr
    flat = " ".join(r.stdout.split()).replace("- ", "-")  # (click wraps the help at a hyphen)
    for name in levels.level_policy_names():  # in --mrx-policy's help and in --detective-policy's
        assert flat.count(name) == 2, name


def test_unknown_side_or_level_names_the_choices():
    with pytest.raises(ValueError, match="easy, normal, hard"):
        levels.level_policy("mrx", "expert")
    with pytest.raises(ValueError, match="mrx or detectives"):
        levels.level_policy("x", "easy")


@pytest.mark.parametrize("side", levels.SIDES)
@pytest.mark.parametrize("level", levels.LEVELS)
def test_a_level_sets_its_budget_with_setdefault_and_plays_its_policy(monkeypatch, side, level):
    spec = levels.level_spec(side, level)
    registry = MRX_POLICIES if side == "mrx" else DETECTIVE_POLICIES
    seen = []
    monkeypatch.setitem(registry, spec.policy, lambda obs, rng: seen.append(dict(obs.memo)) or "the move")
    policy = levels.level_policy(side, level)
    given = {"time_limit": 3.0, "advise_time_limit": 3.0, "other": 1}
    obs = SimpleNamespace(memo=dict(given))
    assert policy(obs, None) == "the move"
    expected = {**spec.budget, **given}  # the caller's keys win
    assert seen == [expected] and obs.memo == expected
    assert levels.level_budget(side, level) == dict(spec.budget)


def test_the_budgets_grow_with_the_level_and_are_not_seconds():
    for side in levels.SIDES:
        normal, hard = (levels.level_spec(side, lv) for lv in ("normal", "hard"))
        assert levels.level_spec(side, "easy").budget == {}
        assert set(normal.budget) == set(hard.budget)
        for key, value in normal.budget.items():
            assert hard.budget[key] >= value, (side, key)
        # seconds only as the safety net: the budgets that end a decision are counts
        assert {k for k, v in hard.budget.items() if isinstance(v, float)} <= {"time_limit", "advise_time_limit"}
        assert any(hard.budget[k] > v for k, v in normal.budget.items())


def _games(result):
    return [(g.game, g.winner, g.reason, g.rounds, json.dumps(g.record, sort_keys=True)) for g in result.games]


@pytest.mark.parametrize("level", levels.LEVELS)
def test_each_level_plays_legal_games_reproducible_whatever_the_jobs(level):
    """Both sides at ``level``, short games: every game legal by check and over, none
    forfeited, the same games (records byte for byte) with one worker or two."""
    name = levels.LEVEL_POLICY_PREFIX + level
    spec = GameSpec(mrx_policy=name, detective_policy=name, rules=SHORT, seed=39, records=True)
    one = simulate(spec, 2, jobs=1)
    assert [g.reason for g in one.games] != ["forfeit"] * 2 and all(g.forfeit is None for g in one.games)
    for g in one.games:
        result = check(parse_record(json.loads(json.dumps(g.record))))
        assert result.legal and result.status.over, result.problems
        assert result.status.winner == g.winner
    assert _games(simulate(spec, 2, jobs=2)) == _games(one)
