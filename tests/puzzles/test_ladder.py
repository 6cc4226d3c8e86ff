"""The solvers' ratings come from games between them (sy_tools.puzzles.ladder): the fit
recovers the order of synthetic players, a seed gives the same games and ratings, greedy play
rates above random play on both sides, and the constants the library holds are in ladder
order."""

from __future__ import annotations

import random

import pytest

from sy_tools.puzzles.attempt import MRX_SOLVERS, SOLVERS
from sy_tools.puzzles.ladder import fit_ratings, measure_ladder


def test_the_fit_recovers_synthetic_strengths():
    rng = random.Random(3)
    truth = {"a": 1800.0, "b": 1500.0, "c": 1200.0}
    games = []
    for _ in range(400):
        x, y = rng.sample(sorted(truth), 2)
        p = 1 / (1 + 10 ** (-(truth[x] - truth[y]) / 400))
        games.append((x, y, rng.random() < p))
    r = fit_ratings(games)
    assert r["a"][0] > r["b"][0] > r["c"][0]
    assert sum(v[0] for v in r.values()) / 3 == pytest.approx(1500.0)
    assert r["a"][0] - r["c"][0] == pytest.approx(600, abs=150)
    assert all(0 < d < 100 for _, d in r.values())
    # a player that wins every game still gets a finite rating
    one_sided = fit_ratings([("a", "b", True)] * 20)
    assert one_sided["a"][0] > one_sided["b"][0] and one_sided["a"][0] < 3000


def test_the_ladder_is_reproducible_and_ordered():
    cheap = dict(positions=10, detectives=SOLVERS[:2], mrx=MRX_SOLVERS[:2])
    a = measure_ladder(5, **cheap)
    b = measure_ladder(5, **cheap)
    assert a.games == b.games and a.ratings == b.ratings
    assert len(a.games) == 40
    r = {k: v[0] for k, v in a.ratings.items()}
    assert r["greedy"] > r["random"] and r["x-greedy"] > r["x-random"], r


def test_the_library_ratings_are_in_ladder_order():
    for ladder in (SOLVERS, MRX_SOLVERS):
        assert [s.rating for s in ladder] == sorted(s.rating for s in ladder)
        assert all(0 < s.rd < 200 for s in ladder)
