"""The history picture's route against a brute-force oracle: every consistent route enumerated
one by one (tests/helpers.py walks the networkx graph, not the tracker's bitsets); the chosen
route must be one of them and score as well as the best of them."""

from __future__ import annotations

import json
import math
import random

import pytest
from helpers import small_board
from oracles import oracle_routes

from sy_tools.analysis.possible import possible
from sy_tools.analysis.route import likely_route
from sy_tools.engine.rules import rules_from_json
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.record_io import load_record
from sy_tools.selfplay.generate import detectives_view, random_game


def _with_board(doc, board):
    import dataclasses

    rec = parse_record(json.loads(json.dumps(dict(doc, map="london"))))
    cands = tuple(sorted(set(doc["mrx"]["start_candidates"]) - {d["start"] for d in doc["detectives"]}))
    return dataclasses.replace(rec, board=board, start_candidates=cands)


def _score(probs, stations):
    return sum(math.log(p[s]) for p, s in zip(probs, stations))


@pytest.mark.parametrize("weights", ["paths", "moves"])
def test_route_is_a_consistent_route_with_the_best_score(weights):
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        board = small_board(rng)
        rules = rules_from_json({"preset": "classic", "reveal_moves": list(range(4, 25, 4)),
                                 "mrx_deck": "classic", "detective_deck": "classic"})
        doc = random_game(board, rules, rng, n_detectives=rng.randint(1, 3),
                          mrx_start_candidates=board.start_decks["classic"])
        doc["rules"] = {"preset": "classic", "reveal_moves": list(range(4, 25, 4))}
        rec = _with_board(detectives_view(doc, rules), board)
        rec = rec.truncated(rng.randint(1, len(rec.rounds)))
        routes = oracle_routes(rec, limit=40_000)
        if not routes:
            continue
        route = likely_route(rec, weights)
        tails = {r[1:] for r in routes}
        assert route.stations in tails, (seed, route.stations)
        probs = possible(rec, weights=weights, history=True).history_probabilities
        best = max(_score(probs, t) for t in tails)
        assert math.isclose(route.log_probability, best, rel_tol=1e-9, abs_tol=1e-9), seed
        checked += 1
    assert checked >= 25


def test_route_on_the_example_passes_its_reveals():
    rec = load_record("examples/in-progress.json")
    route = likely_route(rec)
    assert len(route) == rec.n_moves == 11
    assert route.reveals == (3, 8) and route.move(3) == 55 and route.move(8) == 71
    assert route.probabilities[2] == 1.0 and route.to_dict()["stations"][0] == route.move(1)
    with pytest.raises(IndexError):
        route.move(12)
    frame = route.to_frame()
    assert list(frame["station"]) == list(route.stations) and frame["move"].iloc[-1] == 11
    assert list(frame.loc[frame["revealed"], "station"]) == [55, 71]
