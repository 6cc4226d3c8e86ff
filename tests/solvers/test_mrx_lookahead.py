"""Mr. X's advice never ranks first a move that loses by force within two turns when another move
does not: checked against a plain brute force (every detective move, his moves station by
station, the detectives' belief built by enumeration) on generated positions; and every move the
advice calls a proved loss is one."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import small_board
from test_solve import _observation, oracle, random_position

from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.solvers.advise import advise_mrx


def loses(pos: Position, S: frozenset[int], m: Move, k: int = 2) -> bool:
    """Brute force: after ``m`` from ``pos`` (his station known, ``S`` the detectives' belief),
    can the detectives force a capture within ``k`` turns knowing only what they saw?"""
    after = pos.push(m)
    if after.ended is not None:
        return after.ended.winner == "detectives"
    seen = _observation(pos, m)
    belief = set()
    for s in S:
        for mv in dataclasses.replace(pos, mrx_at=s).legal_moves():
            if _observation(pos, mv) == seen and mv.to is not None:
                belief.add(mv.to)
    hidden = dataclasses.replace(pos, mrx_at=None).push(Move(MRX, m.tickets, tuple(None for _ in m.tickets),
                                                             None, m.took))
    if hidden.ended is not None:
        return False
    belief -= {s for s in hidden.stations}
    return bool(belief) and oracle(hidden, frozenset(belief), k)


def mrx_position(rng: random.Random) -> tuple[Position, frozenset[int]] | None:
    board = small_board(rng, rng.randint(7, 12))
    pos, S = random_position(rng, board, rng.choice([2, 3]), 4)
    pos = dataclasses.replace(pos, turn=0, out=frozenset())
    S = frozenset(s for s in S if s not in pos.stations)
    if not S:
        return None
    at = rng.choice(sorted(S))
    pos = dataclasses.replace(pos, mrx_at=at)
    legal = pos.legal_moves()
    if not legal or legal[0].is_pass:
        return None
    return pos, S


@pytest.mark.parametrize("search", [False, True], ids=["ranking", "tree-search"])
@pytest.mark.parametrize("seed", range(2))
def test_the_first_move_is_never_a_proved_loss_when_another_move_is_not(seed, search):
    """The ranking alone, and with the tree search choosing among its best moves as `sy-tools
    advise` does by default (double moves weighed too)."""
    from sy_tools.selfplay.policies import TreeSearch

    rng = random.Random(seed)
    cases = doomed_seen = choice_mattered = chose_other = 0
    for _ in range(90):
        got = mrx_position(rng)
        if got is None:
            continue
        pos, S = got
        verdict = {m: loses(pos, S, m) for m in pos.legal_moves()}
        adv = advise_mrx(pos, S, top=3, time_limit=60, choose=TreeSearch(30, 4, seed) if search else None)
        best = adv.moves[0]
        chose_other += adv.search is not None and adv.search.index > 0
        cases += 1
        if not all(verdict.values()):
            assert not verdict[best.move], (pos, sorted(S), best.move, best.reason)
        for o in adv.moves:
            if o.loses_within is not None:
                doomed_seen += 1
                assert verdict[o.move], (pos, sorted(S), o.move, o.reason)
        choice_mattered += any(verdict.values()) and not all(verdict.values())
    assert cases > 30 and doomed_seen > 3 and choice_mattered > 3, (cases, doomed_seen, choice_mattered)
    assert (chose_other > 3) == search, chose_other  # the search does move other moves first


def test_the_advise_policy_never_plays_a_proved_loss_when_another_move_is_not():
    """The self-play policy lets a tree search choose among the ranking's best moves: never one
    the brute force proves lost within two turns while another move is not (the search alone,
    free to choose among every move, does play such moves here)."""
    from sy_tools.engine.observations import MrXObservation
    from sy_tools.engine.stations import mask_of
    from sy_tools.selfplay.mcts import mcts_mrx
    from sy_tools.selfplay.policies import mrx_policy

    rng = random.Random(100)
    mattered = searched = search_alone_lost = 0
    for _ in range(90):
        got = mrx_position(rng)
        if got is None:
            continue
        pos, S = got
        verdict = {m: loses(pos, S, m) for m in pos.legal_moves()}
        if all(verdict.values()) or not any(verdict.values()):
            continue
        mattered += 1
        memo = {"advise_mrx_candidates": 4, "advise_mrx_iterations": 40, "time_limit": 60.0}
        obs = MrXObservation(pos, mask_of(S), memo)
        move = mrx_policy(obs, random.Random(1))
        assert not verdict[move], (pos, sorted(S), move)
        ranked = advise_mrx(pos, S, top=1000, time_limit=60, doubles="when-needed", sound=4).moves
        searched += sum(1 for o in ranked[:4] if o.loses_within is None and not verdict[o.move]) > 1
        search_alone_lost += verdict[mcts_mrx(MrXObservation(pos, mask_of(S)), random.Random(1), 40)]
    assert mattered > 8 and searched > 3 and search_alone_lost > 0, (mattered, searched, search_alone_lost)
