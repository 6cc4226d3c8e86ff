"""The information diagnostic of the benchmarks (benchmarks/oracle.py): the advise detectives
told his station.  It must hand them exactly his true station, and refuse to run elsewhere."""

from __future__ import annotations

import json

import pytest

from benchmarks import oracle
from sy_tools.engine.moves import Move
from sy_tools.engine.observations import DetectiveObservation
from sy_tools.engine.position import Position
from sy_tools.engine.stations import mask_of
from sy_tools.engine.tickets import Ticket
from sy_tools.selfplay import policies
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.runner import simulate


def test_the_oracle_gives_the_advise_detectives_his_true_station(monkeypatch):
    asked: dict[int, list[tuple[int, int]]] = {}  # one list per game (its memo)
    advise = policies.DETECTIVE_POLICIES["advise"]

    def spy(obs, rng):
        asked.setdefault(id(obs.memo), []).append((obs.move, obs.possible))
        return advise(obs, rng)

    monkeypatch.setitem(policies.DETECTIVE_POLICIES, "advise", spy)
    spec = GameSpec(mrx_policy="greedy", detective_policy="benchmarks.oracle:oracle_advise", seed=3, records=True)
    result = simulate(spec, 2, jobs=1)
    assert all(g.reason != "forfeit" for g in result.games)
    assert len(asked) == 2
    for game, calls in zip(result.games, asked.values()):
        doc = json.loads(json.dumps(game.record))
        at = [m["to"] for r in doc["rounds"] for m in r.get("mrx") or []]
        assert calls
        for move, possible in calls:  # where he stood after the move the detectives answer
            assert possible == 1 << at[move - 1], (move, possible, at)


def test_the_oracle_refuses_to_guess_outside_simulate(london):
    start = Position.start(london, "classic", [("Red", 13), ("Blue", 26)], mrx_at=91)
    after = start.push(Move.mrx((Ticket.TAXI, 105)))  # (named so that no frame holds a "pos")
    obs = DetectiveObservation.of(after, mask_of([56, 90, 105]))
    with pytest.raises(RuntimeError, match="no simulator position"):
        oracle.oracle_advise(obs, None)
