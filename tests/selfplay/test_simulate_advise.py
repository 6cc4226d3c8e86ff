"""The advise policies are simulate built-ins, reproducible from the seed whatever the jobs."""

from __future__ import annotations

from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.policies import DETECTIVE_POLICIES, MRX_POLICIES
from sy_tools.selfplay.runner import simulate


def _rows(result):
    return [(g.game, g.mrx_start, g.winner, g.reason, g.rounds) for g in result.games]


def test_advise_policies_are_built_in_and_reproducible():
    assert "advise" in MRX_POLICIES and "advise" in DETECTIVE_POLICIES
    spec = GameSpec(mrx_policy="advise", detective_policy="advise", seed=11)
    one = simulate(spec, 3, jobs=1)
    two = simulate(spec, 3, jobs=2)
    assert _rows(one) == _rows(two) and len(one.games) == 3
    assert all(g.reason != "forfeit" for g in one.games)


def test_simulate_plays_the_cutoff_and_caught_variants_and_check_agrees(tmp_path):
    """Games under mrx_onto_detective: caught and cutoff_escape (made-up via data would need a
    map file; London's rulebook via data suffices for legality) replay legal through check with
    the same outcome."""
    import json
    from dataclasses import replace

    from sy_tools.analysis.referee import check
    from sy_tools.engine.rules import PRESETS
    from sy_tools.formats.game_json import parse_record

    rules = replace(PRESETS["classic"], name="classic+", mrx_onto_detective="caught", cutoff_escape=True)
    spec = GameSpec(mrx_policy="random", detective_policy="random", seed=5, rules=rules, records=True)
    result = simulate(spec, 30, jobs=1)
    caught_by_his_move = 0
    for g in result.games:
        doc = json.loads(json.dumps(g.record))
        r = check(parse_record(doc))
        assert r.legal, [p.line(None) for p in r.problems]
        assert r.status.kind.value == g.reason
        caught_by_his_move += r.status.reason == "capture" and not any(
            m.get("capture") for m in doc["rounds"][-1]["detectives"])
    assert caught_by_his_move >= 1


def test_simulate_plays_voluntary_reveals_and_check_agrees():
    """Random Mr. X under voluntary_reveal picks reveal moves now and then; the records say them
    (shown/took) and replay legal with the same outcome and the tickets handed over."""
    import json
    from dataclasses import replace

    from sy_tools.analysis.referee import check
    from sy_tools.engine.rules import PRESETS
    from sy_tools.formats.game_json import parse_record

    rules = replace(PRESETS["classic"], name="classic+", voluntary_reveal=True)
    spec = GameSpec(mrx_policy="random", detective_policy="random", seed=9, rules=rules, records=True)
    shows = 0
    for g in simulate(spec, 8, jobs=1).games:
        doc = json.loads(json.dumps(g.record))
        shows += sum(1 for r in doc["rounds"] for m in r["mrx"] if m.get("shown"))
        r = check(parse_record(doc))
        assert r.legal, [p.line(None) for p in r.problems][:3]
        assert r.status.kind.value == g.reason
    assert shows >= 5
