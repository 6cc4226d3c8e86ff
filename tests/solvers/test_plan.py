"""The detectives' planning search (sy_tools.solvers.plan): its rollout engine plays as the
engine (Position) does on generated positions; the search is fair (the same choice whatever Mr.
X's true station, from the same public position and seed), legal, and reproducible."""

from __future__ import annotations

import random

from helpers import walk_positions

from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.observations import DetectiveObservation, mrx_move_seen
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.stations import stations_of
from sy_tools.engine.tickets import MRX_MOVE_TICKETS
from sy_tools.selfplay.policies import detective_policy
from sy_tools.solvers import plan
from sy_tools.solvers.belief import advise_detectives


def _hops(m: Move) -> tuple[tuple[int, int], ...]:
    return tuple((MRX_MOVE_TICKETS.index(t), s) for t, s in zip(m.tickets, m.stations))  # type: ignore[misc]


def _same_state(r: plan.Rollout, pos: Position, possible: int) -> None:
    assert r.st == list(pos.stations)
    assert r.tk == [[t.taxi, t.bus, t.underground] for t in pos.tickets]
    x = pos.mrx_tickets
    assert r.xt == [x.taxi, x.bus, x.underground, x.black, x.double]
    assert (r.move, r.rnd, r.doubles) == (pos.move, pos.round, pos.doubles)
    assert r.at == pos.mrx_at
    assert [n for n, o in zip(pos.names, r.out) if o] == sorted(pos.out, key=pos.names.index)
    if pos.ended is None:
        assert r.winner is None and r.turn == pos.turn
        assert r.possible == possible
    else:
        assert r.winner == pos.ended.winner, (pos.ended, r.winner)


def test_the_rollout_engine_plays_as_the_engine_on_generated_positions(london):
    """From positions of random games under varied rules, both engines list the same moves for
    the piece to move and, after the same random move, hold the same state (stations, tickets,
    log, round, who is out, the detectives' possible set, how the game ended), to the end."""
    compared = 0
    for seed in range(8):
        for k, (start, possible) in enumerate(walk_positions(london, seed)):
            if k % 7:
                continue
            rng = random.Random(k)
            pos = start
            r = plan.Rollout(pos, pos.mrx_at, possible)
            while True:
                _same_state(r, pos, possible)
                if pos.ended is not None:
                    break
                legal = list(pos.legal_moves())
                if pos.turn == 0:
                    if not legal:  # (he is trapped where he stands: the rollout said so at once)
                        assert r.winner == ("detectives" if pos.rules.trapped_loses else None)
                        break
                    ours = {o for o in r.mrx_singles() + r.mrx_doubles()}
                    assert ours == {_hops(m) for m in legal if not m.is_pass}
                else:
                    i = pos.turn - 1
                    assert set(r.detective_hops(i)) == {_hops(m)[0] for m in legal}
                move = legal[int(rng.random() * len(legal))]
                if pos.turn == 0:
                    for _, _, after, _ in mrx_move_seen(pos, possible, move):
                        possible = after
                    r.play_mrx(() if move.is_pass else _hops(move))
                else:
                    r.play_detective(pos.turn - 1, _hops(move)[0])
                    if move.to is not None:
                        possible &= ~(1 << move.to)
                pos = pos.push(move)
                compared += 1
    assert compared > 500


def _public_positions(london, count: int):
    """Positions where the detectives are to move (the round's first), with a possible set of at
    least two stations: yields (position, possible)."""
    found = 0
    for seed in range(40):
        for pos, possible in walk_positions(london, 100 + seed):
            if pos.turn == 1 and pos.ended is None and (possible & ~pos.occupied).bit_count() >= 2 \
                    and len(list(pos.legal_moves())) > 1:
                yield pos, possible & ~pos.occupied
                found += 1
                if found >= count:
                    return
                break


def test_the_plan_is_fair_the_same_for_every_true_station(london):
    """advise with the planner gives the same joint move whatever station of his possible set
    the position says he is at (two different true routes, one public record), for the same
    seed; the planner is consulted and changes advise's choice in some of them."""
    calls: list[int] = []
    changed = 0
    for pos, possible in _public_positions(london, 8):
        stations = stations_of(possible)
        answers = []
        for at in (stations[0], stations[-1]):
            base = plan.planner(16, 4, seed=3)

            def counting(afters, S, w, base=base):
                pick = base(afters, S, w)
                calls.append(pick or 0)
                return pick

            adv = advise_detectives(pos._with(mrx_at=at), possible, depth=1, max_candidates=9, planner=counting)
            answers.append([(a.name, a.move) for a in adv.moves])
        assert answers[0] == answers[1], pos
        plain = advise_detectives(pos._with(mrx_at=None), possible, depth=1, max_candidates=9)
        changed += [(a.name, a.move) for a in plain.moves] != answers[0]
    assert calls and changed >= 1


def test_the_planned_policy_plays_legal_moves_reproducibly(london):
    """The advise detectives with the planner: each move legal, and the same from the same seed."""
    for pos, possible in _public_positions(london, 4):
        moves = []
        for _ in range(2):
            obs = DetectiveObservation.of(pos, possible, memo={"advise_plan_rollouts": 8, "advise_candidates": 3,
                                                               "advise_depth": 1, "advise_solve_nodes": 0})
            move = detective_policy(obs, random.Random(11))
            assert move in obs.legal_moves and move.piece == pos.names[0] and move.piece != MRX
            moves.append(move)
        assert moves[0] == moves[1]


def test_the_horizon_reaches_past_the_next_reveal():
    rules = PRESETS["classic"]  # reveals at 3, 8, 13, 18, 24
    assert plan.horizon(rules, 3) == plan.MAX_HORIZON  # five moves to the next reveal, then two
    assert plan.horizon(rules, 7) == plan.MIN_HORIZON  # one move to it, then two
    assert plan.horizon(rules, 23) == 2  # the log's last entry, then its round


def test_advise_plan_is_level_hard_with_the_planner_on(london, monkeypatch):
    """``simulate``'s ``advise-plan``: the level-hard budgets (a caller's memo keys still win) and
    the planner asked with the planning budgets; ``level-hard`` never asks it."""
    from sy_tools.selfplay import budgets
    from sy_tools.selfplay.policies import DETECTIVE_POLICIES

    asked = []

    def cheap(rollouts, candidates, seed=0):
        asked.append((rollouts, candidates))
        return real(2, 2, seed)

    real = plan.planner
    monkeypatch.setattr(plan, "planner", cheap)
    for name in ("level-hard", "advise-plan"):
        for pos, possible in _public_positions(london, 2):
            obs = DetectiveObservation.of(pos, possible, memo={"advise_candidates": 3, "advise_solve_nodes": 0})
            move = DETECTIVE_POLICIES[name](obs, random.Random(3))
            assert move in obs.legal_moves
            assert obs.memo["advise_depth"] == 2 and obs.memo["advise_candidates"] == 3
        assert bool(asked) == (name == "advise-plan"), name
    assert set(asked) == {(budgets.DETECTIVE_PLAN_ROLLOUTS, budgets.DETECTIVE_PLAN_CANDIDATES)}
