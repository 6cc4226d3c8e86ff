"""``make bench``'s plain simulator (benchmarks/bench_simulate.py, written apart from the
engine) plays the same games as the engine, or the bench stops at its own check: it did when
the classic rules came to let a blocked detective wait (the plain one still put it out)."""

from __future__ import annotations

from benchmarks.bench_simulate import Plain
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.runner import simulate


def test_the_plain_simulator_plays_the_engines_games():
    games = simulate(GameSpec(seed=1), 300, jobs=1).games
    plain = Plain()
    assert [(g.reason, g.rounds) for g in games] == [plain.game(1, i) for i in range(300)]
    assert "detectives-stuck" in {g.reason for g in games}  # (the rule the two once disagreed on is played)
