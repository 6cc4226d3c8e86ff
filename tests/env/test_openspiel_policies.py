"""OpenSpiel's bots as simulate policies (``openspiel-ismcts``, ``openspiel-mcts``): legal,
reproducible whatever the jobs, their budget read from the name, fair to the detectives."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from sy_tools.analysis.referee import check
from sy_tools.engine.observations import DetectiveObservation
from sy_tools.engine.rules import PRESETS
from sy_tools.errors import InputError
from sy_tools.formats.game_json import parse_record
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.policies import is_plug_in, load_policy
from sy_tools.selfplay.runner import simulate

#: short games: an 8-move log
SHORT = replace(PRESETS["classic"], log_length=8, reveal_moves=(3, 8))


def _games(run):
    return [json.dumps(g.record, sort_keys=True) for g in run.games]


@pytest.mark.parametrize("mrx, detectives", [("openspiel-ismcts:12", "greedy"), ("greedy", "openspiel-ismcts:8"),
                                             ("openspiel-mcts:10", "openspiel-mcts:6")])
def test_openspiel_bots_play_legal_games_reproducible_whatever_the_jobs(mrx, detectives):
    spec = GameSpec(mrx_policy=mrx, detective_policy=detectives, detectives=3, rules=SHORT, seed=5, records=True)
    one = simulate(spec, 2, jobs=1)
    for g in one.games:
        assert g.forfeit is None
        result = check(parse_record(json.loads(json.dumps(g.record))))
        assert result.legal and result.status.over, result.problems
        assert result.status.winner == g.winner
    assert _games(simulate(spec, 2, jobs=2)) == _games(one)


def test_the_budget_is_read_from_the_name():
    assert not is_plug_in("openspiel-ismcts:1000", "mrx") and not is_plug_in("openspiel-mcts", "detectives")
    assert callable(load_policy("openspiel-ismcts:1000", "detectives"))
    for bad in ("openspiel-ismcts:0", "openspiel-ismcts:many", "openspiel-mcts:"):
        with pytest.raises(InputError, match="simulations a decision"):
            load_policy(bad, "mrx")


def test_the_detectives_search_draws_mr_x_from_their_possible_set_not_his_station():
    """The detectives' search starts from their observation (no station of Mr. X in it) and
    draws his station from the possible set it gives, each station alike: the true one (51)
    is not favoured."""
    from collections import Counter

    from scipy.stats import chisquare

    from sy_tools.engine.position import Position
    from sy_tools.formats.map_load import load_board
    from sy_tools.selfplay import openspiel_bots

    board = load_board("london")
    start = Position.start(board, SHORT, [("Red", 13), ("Blue", 26), ("Green", 29)], 52)
    pos = start.push(next(m for m in start.legal_moves.singles() if m.to == 51))
    possible = (1 << 51) | (1 << 67) | (1 << 86) | (1 << 132)
    obs = DetectiveObservation.of(pos, possible)
    root = openspiel_bots._root(obs)
    rng = random.Random(8)
    seen = Counter(root.resample_from_infostate(1, rng).pos.mrx_at for _ in range(400))
    assert set(seen) == {51, 67, 86, 132}
    assert chisquare(list(seen.values())).pvalue > 0.001
    assert openspiel_bots.decide("ismcts", obs, random.Random(4), 10).piece == "Red"



def test_registering_the_bots_does_not_load_openspiel():
    """OpenSpiel loads at a bot's first move, not when the policies (or the CLI) are imported."""
    import subprocess
    import sys

    code = ("import sys, sy_tools.selfplay.policies as p, sy_tools.cli; "
            "p.load_policy('openspiel-ismcts:50', 'mrx'); assert 'pyspiel' not in sys.modules, 'pyspiel loaded'")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
