"""The MCTS yardstick (sy_tools.selfplay.mcts): legal, fair, reproducible, and playable in simulate;
and the strength harness (benchmarks/strength.py) that measures advise against it."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from helpers import walk_positions

from sy_tools.analysis.referee import check
from sy_tools.engine.observations import DetectiveObservation, MrXObservation
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.formats.game_json import parse_record
from sy_tools.selfplay import mcts
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.policies import DETECTIVE_POLICIES, MRX_POLICIES
from sy_tools.selfplay.runner import simulate

CLASSIC = PRESETS["classic"]


def test_mcts_moves_are_legal_in_random_positions(london):
    """Both sides, small budgets, many positions of random games under varied rules."""
    seen = {"mrx": 0, "det": 0}
    for seed in range(6):
        for k, (pos, possible) in enumerate(walk_positions(london, seed)):
            if k % 4:
                continue
            rng = random.Random(k)
            if pos.turn == 0:
                move = mcts.mcts_mrx(MrXObservation(pos, possible), rng, iterations=25)
                seen["mrx"] += 1
            else:
                move = mcts.mcts_detective(DetectiveObservation.of(pos, possible), rng, iterations=25)
                seen["det"] += 1
            assert pos.is_legal(move), (move, pos, pos.problems(move))
    assert seen["mrx"] >= 10 and seen["det"] >= 40


def test_detective_move_does_not_depend_on_where_mrx_is(london):
    """Two positions identical but for Mr. X's station (both in the possible set) give the same
    observation and, with the same stream, the same move; the observation holds no position."""
    rng = random.Random(3)
    checked = 0
    while checked < 12:
        st = rng.sample(london.stations, 7)
        base = Position.start(london, CLASSIC, list(zip(("Red", "Blue", "Green", "Yellow", "Black"), st[:5])),
                              mrx_at=st[5])
        base = base.push(base.legal_moves()[0])  # Mr. X moved: Red to move
        a = dataclasses.replace(base, mrx_at=st[5])
        b = dataclasses.replace(base, mrx_at=st[6])
        possible = (1 << st[5]) | (1 << st[6]) | (1 << rng.choice(london.stations))
        possible &= ~base.occupied
        oa, ob = DetectiveObservation.of(a, possible), DetectiveObservation.of(b, possible)
        assert not any(isinstance(v, Position) for v in vars(oa).values())
        ma = mcts.mcts_detective(oa, random.Random(checked), iterations=40)
        mb = mcts.mcts_detective(ob, random.Random(checked), iterations=40)
        assert ma == mb
        checked += 1


def test_mcts_is_reproducible_for_a_fixed_stream(london):
    for pos, possible in walk_positions(london, 11):
        if pos.turn == 0 and pos.move >= 2:
            obs = [MrXObservation(pos, possible) for _ in range(2)]
            assert mcts.mcts_mrx(obs[0], random.Random(5), 60) == mcts.mcts_mrx(obs[1], random.Random(5), 60)
        elif pos.turn and pos.move >= 2:
            one = mcts.mcts_detective(DetectiveObservation.of(pos, possible), random.Random(5), 60)
            two = mcts.mcts_detective(DetectiveObservation.of(pos, possible), random.Random(5), 60)
            assert one == two
            break


def test_mcts_plays_whole_games_in_simulate(monkeypatch):
    """`simulate --mrx-policy mcts --detective-policy mcts` plays to the end: no forfeit, the
    records replay legal through `check` with the same outcome (small budgets, a short log)."""
    assert "mcts" in MRX_POLICIES and "mcts" in DETECTIVE_POLICIES
    monkeypatch.setattr(mcts, "MRX_ITERATIONS", 30)
    monkeypatch.setattr(mcts, "DETECTIVE_ITERATIONS", 15)
    rules = dataclasses.replace(CLASSIC, name="classic+", log_length=6)
    spec = GameSpec(mrx_policy="mcts", detective_policy="mcts", seed=4, rules=rules, records=True)
    one = simulate(spec, 2, jobs=1)
    assert one.games is not None and len(one.games) == 2
    for g in one.games:
        assert g.reason != "forfeit", g.forfeit
        r = check(parse_record(json.loads(json.dumps(g.record))))
        assert r.legal and r.status.kind.value == g.reason
    again = simulate(dataclasses.replace(spec, records=False), 2, jobs=1)
    assert [(g.winner, g.reason, g.rounds) for g in one.games] == [(g.winner, g.reason, g.rounds) for g in again.games]


def test_strength_harness_plays_and_prints_wilson_intervals():
    strength = pytest.importorskip("benchmarks.strength")
    m = strength.play("greedy", "random", 4, jobs=1, seed=1)
    assert m.games == 4 and sum(m.reasons.values()) == 4
    lo, hi = m.interval
    assert lo <= m.mrx_wins / 4 <= hi
    lines = strength.run(games=2, jobs=1, seed=1, matchups=[("random", "greedy")])
    assert any("mcts: Mr. X" in line for line in lines)
    assert lines[-1].lstrip().startswith("random X") and "/2" in lines[-1] and "[" in lines[-1]


def test_mr_x_search_reports_what_it_saw_and_stops_at_its_deadline(london):
    """search_mrx: the chosen move is the most played; visits add up to the playouts; a deadline
    already past stops it after one playout (said: not complete), none runs the whole budget."""
    import time

    checked = 0
    for pos, possible in walk_positions(london, 4):
        if pos.turn != 0 or pos.move < 1:
            continue
        full = mcts.search_mrx(MrXObservation(pos, possible), random.Random(2), 50)
        if not full.stats:
            continue
        assert full.complete and full.playouts == 50 and sum(v for _, v, _ in full.stats) == 50
        assert full.move == full.stats[0][0] and all(0.0 <= q <= 1.0 for _, _, q in full.stats)
        assert full.move == mcts.mcts_mrx(MrXObservation(pos, possible), random.Random(2), 50)
        cut = mcts.search_mrx(MrXObservation(pos, possible), random.Random(2), 50, deadline=time.monotonic() - 1)
        assert not cut.complete and cut.playouts == 1 and sum(v for _, v, _ in cut.stats) == 1
        checked += 1
    assert checked >= 3
