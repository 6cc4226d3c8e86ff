"""The advise detectives' catch odds are wary of a Mr. X who sees them (:func:`catch_odds`): a
station of his next set within a detective's reach counts ``WARY`` against 1 for the others, so
only a net over the whole set is sure."""

from __future__ import annotations

import random

import pytest

from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.stations import mask_of
from sy_tools.engine.tickets import Tickets
from sy_tools.solvers import belief
from sy_tools.solvers.belief import WARY, advise_detectives, catch_odds


def test_a_net_over_the_whole_set_is_sure():
    for n in range(1, 8):
        assert catch_odds(n, n, n) == 1.0


def test_nothing_within_reach_is_no_chance():
    assert catch_odds(5, 0, 0) == 0.0


def test_not_wary_is_his_station_uniform():
    for n, covered, caught in [(4, 2, 1), (5, 3, 3), (7, 7, 5), (3, 1, 0)]:
        assert catch_odds(n, covered, caught, wary=1.0) == pytest.approx(caught / n)


def test_wary_odds_are_below_uniform_unless_the_net_is_whole():
    rng = random.Random(3)
    for _ in range(500):
        n = rng.randint(1, 30)
        covered = rng.randint(0, n)
        caught = rng.randint(0, covered)
        p = catch_odds(n, covered, caught)
        assert 0.0 <= p <= caught / n + 1e-12
        if covered < n and caught:
            assert p < caught / n
        # more stations caught at once never lowers the odds
        if caught < covered:
            assert catch_odds(n, covered, caught + 1) > p
    assert 0.0 < WARY < 1.0


def test_one_station_in_reach_of_two_counts_less_than_half():
    """Of two stations he may be at, a detective reaching only one is no longer a coin toss."""
    assert catch_odds(2, 1, 1) == pytest.approx(WARY / (WARY + 1))
    assert catch_odds(2, 1, 1) < 0.5


def test_advise_still_reports_a_sure_net_as_certain(london, monkeypatch):
    """Where a joint move lands on every station he may be at, the advice is that move with
    catch 1, whatever WARY is."""
    rules = PRESETS["classic"]
    # by taxi Red on 1 reaches 8 and 9, Blue on 18 reaches 8, 31 and 43; Mr. X is at 8 or 43
    pos = Position(london, rules, ("Red", "Blue"), (1, 18), (Tickets(taxi=5), Tickets(taxi=5)), frozenset(),
                   Tickets(taxi=4, bus=3, underground=3), None, 4, 4, 0, 1)
    pos = pos._next_detective(0)
    S = mask_of([8, 43])
    for wary in (WARY, 1.0):
        monkeypatch.setattr(belief, "WARY", wary)
        adv = advise_detectives(pos, S, depth=2, time_limit=30)
        landed = {a.move.to for a in adv.moves if a.move is not None}
        assert landed == {8, 43}
        assert adv.catch == pytest.approx(1.0)
