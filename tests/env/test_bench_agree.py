"""The long agreement run (``python -m benchmarks.bench_env --agree STEPS``): its cases are every
preset and every variant the library's rules name, each on London and on small maps; a short run
of each map kind agrees, resumes from its output file, and reports a rule changed on either side
as a disagreement (exit status 1)."""

from __future__ import annotations

import dataclasses

import pytest

import sy_tools.engine.position as engine_position
import sy_tools.env.vector as vector_module
from benchmarks import bench_env
from sy_tools.engine.rules import PRESETS, RULE_CHOICES, Rules


def test_the_cases_are_every_preset_and_every_named_variant():
    cases = bench_env.agree_cases()
    classic = PRESETS["classic"]
    flags = [f.name for f in dataclasses.fields(Rules) if isinstance(getattr(classic, f.name), bool)]
    assert set(PRESETS) <= set(cases)
    assert len(cases) == len(PRESETS) + len(flags) + sum(len(c) - 1 for c in RULE_CHOICES.values())
    for name, rules in cases.items():
        if name not in PRESETS:  # a variant: classic with one field changed
            changed = [f.name for f in dataclasses.fields(Rules) if getattr(rules, f.name) != getattr(classic, f.name)]
            assert len(changed) == 1 and name.split("=")[0] == changed[0], (name, changed)
    assert {"cutoff_escape", "voluntary_reveal", "mrx_onto_detective=caught", "blocked_detective=out"} <= set(cases)


def test_a_short_run_agrees_and_resumes(tmp_path):
    out = str(tmp_path / "agree.txt")
    lines = list(bench_env.agree_run(200, ["2014@london", "cutoff_escape@small"], out))
    assert [ln.split(":")[0] for ln in lines] == ["agree 2014@london", "agree cutoff_escape@small"]
    assert all("DISAGREES" not in ln and "records checked" in ln for ln in lines), lines
    assert list(bench_env.agree_run(200, ["2014@london", "cutoff_escape@small"], out)) == []  # done: skipped
    assert bench_env.main(["--agree", "100", "--only", "classic@small", "--out", out]) == 0
    again = list(bench_env.agree_run(200, ["2014@london"], out, part=1))  # a part: a label of its own
    assert len(again) == 1 and again[0].startswith("agree 2014@london#1: 2")


def test_parts_play_other_games(monkeypatch):
    seeds = []
    monkeypatch.setattr(bench_env, "agree_case", lambda rules, where, steps, seed: seeds.append(seed) or {
        "steps": steps, "games": 0})
    for part in (0, 1, 2):
        list(bench_env.agree_run(10, ["classic@small"], part=part))
    assert len(set(seeds)) == 3


@pytest.mark.parametrize("side", [engine_position, vector_module])
def test_a_rule_changed_on_either_side_is_reported(monkeypatch, capsys, side):
    monkeypatch.setattr(side, "double_allowed", lambda *a: False)  # that side: no double moves
    assert bench_env.main(["--agree", "300", "--only", "classic@london,classic@small"]) == 1
    out = capsys.readouterr().out
    assert "agree classic@london: DISAGREES" in out and "agree classic@small: DISAGREES" in out, out
