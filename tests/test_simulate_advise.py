"""The advise policies are simulate built-ins, reproducible from the seed whatever the jobs."""

from __future__ import annotations

from sy_tools.policies import DETECTIVE_POLICIES, MRX_POLICIES
from sy_tools.simulate import GameSpec, simulate


def _rows(result):
    return [(g.game, g.mrx_start, g.winner, g.reason, g.rounds) for g in result.games]


def test_advise_policies_are_built_in_and_reproducible():
    assert "advise" in MRX_POLICIES and "advise" in DETECTIVE_POLICIES
    spec = GameSpec(mrx_policy="advise", detective_policy="advise", seed=11)
    one = simulate(spec, 3, jobs=1)
    two = simulate(spec, 3, jobs=2)
    assert _rows(one) == _rows(two) and len(one.games) == 3
    assert all(g.reason != "forfeit" for g in one.games)
