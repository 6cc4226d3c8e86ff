"""The Mr. X opponents of other kinds (sy_tools.selfplay.opponents): legal wherever they are
asked, reproducible from the seed, playable in simulate under their registered names."""

from __future__ import annotations

import random

import pytest
from helpers import walk_positions

from sy_tools.engine.observations import DetectiveObservation, MrXObservation, mrx_move_seen
from sy_tools.selfplay import opponents
from sy_tools.selfplay.game import GameSpec
from sy_tools.selfplay.policies import MRX_POLICIES, greedy_detective
from sy_tools.selfplay.runner import simulate


@pytest.mark.parametrize("name", ["evasive", "twoply"])
def test_opponent_moves_are_legal_in_random_positions(london, name):
    policy = opponents.POLICIES[name]
    asked = 0
    for seed in range(5):
        for pos, possible in walk_positions(london, seed):
            if pos.turn != 0:
                continue
            obs = MrXObservation(pos, possible)
            move = policy(obs, random.Random(seed))
            assert not pos.problems(move), (name, seed, move, pos.problems(move))
            asked += 1
    assert asked > 20


class _Fixed:
    """An rng whose every draw is ``x`` (so a policy's tie-break is known)."""

    def __init__(self, x: float) -> None:
        self.x = x

    def random(self) -> float:
        return self.x


def test_the_two_ply_model_of_the_detectives_is_the_greedy_policy(london):
    """greedy_replies plays each detective as the greedy policy does, wherever that policy's
    choice does not depend on its tie-break (the same move from the first and the last draw)."""
    checked = 0
    for seed in range(4):
        for pos, possible in walk_positions(london, seed):
            if pos.turn != 0 or not pos.legal_moves:
                continue
            move = MrXObservation(pos, possible).legal_moves[0]
            after = list(mrx_move_seen(pos, possible, move))[-1][2]
            p = pos.push(move)._with(mrx_at=None)
            model = opponents.greedy_replies(p, after)
            while p.turn != 0 and p.ended is None:
                i = p.turn - 1
                obs = DetectiveObservation.of(p, after)
                first, last = greedy_detective(obs, _Fixed(0.0)), greedy_detective(obs, _Fixed(0.999))
                if first != last:
                    break
                assert model[i] == first.to, (seed, p.names[i])
                checked += 1
                p = p.push(first)
    assert checked > 30


@pytest.mark.parametrize("name", ["evasive", "twoply", "mcts-1000"])
def test_registered_opponents_play_games_reproducible_from_the_seed(name, monkeypatch):
    if name == "mcts-1000":  # the yardstick's budget is its own tests' business: a small one here
        from sy_tools.selfplay import budgets

        monkeypatch.setattr(budgets, "MCTS_YARDSTICK_ITERATIONS", 20)
    assert name in MRX_POLICIES
    spec = GameSpec(mrx_policy=name, detective_policy="greedy", seed=5, records=True)
    a = simulate(spec, 3, jobs=1)
    b = simulate(spec, 3, jobs=1)
    assert [g.record for g in a.games] == [g.record for g in b.games]
    assert all(g.forfeit is None for g in a.games)


def test_the_opponents_table_plays_each_row_and_says_the_goal():
    bench = pytest.importorskip("benchmarks.opponents")
    rows = [("greedy", "greedy"), ("evasive", "greedy")]
    out = list(bench.lines(games=2, jobs=1, seed=1, matchups=rows))
    assert out[0].startswith("opponents:") and any("mcts-1000" in line for line in out)
    assert out[-2].lstrip().startswith("greedy X") and out[-1].lstrip().startswith("evasive X")
    steps = list(bench.interleaved(2, seed=1, matchups=rows))
    assert steps[-1].startswith("  after 2 game(s) a row: greedy vs greedy ")
    # the interleaved run plays the same games as the rows
    assert [line.split("/")[0].split()[-1] for line in out[-2:]] == \
        [cell.split(" vs greedy ")[1].split("/")[0] for cell in steps[-1].split(": ", 1)[1].split("; ")]


def test_a_game_table_split_between_processes_and_resumed_is_the_table_played_at_once(tmp_path):
    # benchmarks.gametable: two shards into their own files, one of them cut short and resumed,
    # give the same table as one run; a run on a complete file plays nothing
    gt = pytest.importorskip("benchmarks.gametable")
    cells = [("1", "greedy", "greedy"), ("2", "random", "greedy")]
    whole, a, b = (str(tmp_path / f) for f in ("whole.csv", "a.csv", "b.csv"))
    assert len(list(gt.run(cells, 5, 3, whole))) == 10
    next(iter(gt.run(cells, 5, 3, a, (0, 2))))  # cut short after one game ...
    assert len(list(gt.run(cells, 5, 3, a, (0, 2)))) == 5  # ... resumed: the other five of games 0, 2, 4
    assert len(list(gt.run(cells, 5, 3, b, (1, 2)))) == 4
    assert list(gt.run(cells, 5, 3, whole)) == []
    assert gt.summary([a, b], cells) == gt.summary([whole], cells)

    def games(outs):
        return {k: sorted((int(r["game"]), r["winner"], r["reason"], r["rounds"]) for r in v)
                for k, v in gt.rows(outs).items()}

    assert games([a, b]) == games([whole]) and all(len(v) == 5 for v in games([whole]).values())
    with pytest.raises(ValueError, match="0 <= K < N"):
        gt.parse_shard("2/2")
    # a matchup twice in a table is played and counted once
    twice = str(tmp_path / "twice.csv")
    assert len(list(gt.run(cells + [("3", "greedy", "greedy")], 2, 3, twice))) == 4
    assert gt.summary([twice], cells + [("3", "greedy", "greedy")]).count("| greedy | greedy |") == 1


def test_only_splits_a_matchup_where_both_sides_name_a_policy():
    bench = pytest.importorskip("benchmarks.opponents")
    assert bench.matchup("advise:openspiel-ismcts:300") == ("advise", "openspiel-ismcts:300")
    assert bench.matchup("openspiel-ismcts:1000:level-hard") == ("openspiel-ismcts:1000", "level-hard")
    with pytest.raises(ValueError, match="expected MRX:DETECTIVES"):
        bench.matchup("greedy")
