"""cordon's multi-turn plan against brute force: the plan's whole objective (sealed weight, then
fewest on duty, fewest bus/underground tickets, finals closest to the target) equals the best
over every joint plan played turn by turn, so the solver settings (cordon_model._new_solver) and
the options the model drops as dominated (cordon_model.undominated) change no answer, tie-breaks
included.  Boards with parallel lines (taxi, bus and underground between the same stations) and
Mr. X lacking kinds are where dropping an option could go wrong."""

from __future__ import annotations

import itertools
import random

import pytest
from helpers import small_board

from sy_tools.engine.board import Board, Connection
from sy_tools.engine.stations import mask_of
from sy_tools.engine.tickets import DETECTIVE_TICKETS, Ticket
from sy_tools.solvers.cordon_model import detective_options, solve_cordon, undominated
from sy_tools.solvers.cordon_result import SCALE, DetectiveState
from sy_tools.solvers.seal import distances_to, held_tickets, is_sealed


def _brute_objective(board, dets, probs, xt, k):
    """The best (sealed weight, -on duty, -bus/underground tickets, -distance) over every joint
    k-turn plan: detectives in turn order, each moving onto a free station with its own tickets,
    or, with no such move, skipping the turn: out for good when no ticket it holds rides a line
    from its station (classic rules, ``blocked_detective: waits``; docs/rules.md)."""
    tickets = held_tickets(xt)
    w = {p: max(1, round(SCALE * probs[p])) for p in probs}
    near = distances_to(board, mask_of(probs))
    far = max(near.values(), default=0) + 1
    best = None

    def score(pos, used, cost):
        now = tuple(set(tickets) | used)
        occ = mask_of(pos)
        sealed = [p for p in probs if is_sealed(board, p, occ, now)]
        duty = next(size for size in range(len(pos) + 1) for c in itertools.combinations(pos, size)
                    if all(is_sealed(board, p, mask_of(c), now) for p in sealed))
        return (sum(w[p] for p in sealed), -duty, -cost, -sum(min(near.get(s, far), far) for s in pos))

    def go(turn, i, pos, left, out, used, cost):
        nonlocal best
        if i == len(dets):
            if turn + 1 == k:
                s = score(pos, used, cost)
                best = s if best is None or s > best else best
            else:
                go(turn + 1, 0, pos, left, out, used, cost)
            return
        if (turn == 0 and not dets[i].moves_first) or i in out:
            go(turn, i + 1, pos, left, out, used, cost)
            return
        moves = [(t, x) for t in DETECTIVE_TICKETS if left[i][t.value] > 0 for x in board.moves(pos[i], t)
                 if x not in pos]
        if not moves:
            rides = any(left[i][t.value] > 0 and board.moves(pos[i], t) for t in DETECTIVE_TICKETS)
            go(turn, i + 1, pos, left, out if rides else out | {i}, used, cost)
        for t, x in moves:
            spent = left[:i] + ({**left[i], t.value: left[i][t.value] - 1},) + left[i + 1:]
            go(turn, i + 1, pos[:i] + (x,) + pos[i + 1:], spent, out, used | {t}, cost + (t is not Ticket.TAXI))

    go(0, 0, tuple(d.station for d in dets), tuple(dict(d.tickets) for d in dets), frozenset(), frozenset(), 0)
    return best


def _objective(board, res):
    """The same terms read off the plan the solver chose."""
    w = {p: max(1, round(SCALE * res.probabilities[p])) for p in res.target}
    near = distances_to(board, mask_of(res.target))
    far = max(near.values(), default=0) + 1
    return (sum(w[p] for p in res.target if p not in res.open), -sum(p.on_duty for p in res.plan),
            -sum(t not in (None, "taxi") for p in res.plan for t in p.tickets),
            -sum(min(near.get(p.path[-1], far), far) for p in res.plan))


def _parallel_board(rng):
    """A small board where most lines have a twin of another transport between the same stations."""
    board = small_board(rng, rng.randint(8, 12))
    twins = [Connection.of(c.a, c.b, rng.choice(["taxi", "bus", "underground"])) for c in board.connections
             if c.transport.value != "ferry" and rng.random() < 0.6]
    return Board.build("parallel", board.stations, board.connections + tuple(twins), board.coords, board.start_decks)


@pytest.mark.parametrize("parallel", [False, True])
def test_plan_objective_against_brute_force(parallel):
    rng = random.Random(3 + parallel)
    for _ in range(16):
        board = _parallel_board(rng) if parallel else small_board(rng, rng.randint(8, 12))
        k = rng.randint(2, 3)
        n = rng.randint(1, 3 if k == 2 else 2)
        stations = rng.sample(board.stations, n + 2)
        dets = [DetectiveState(f"D{i}", s, {"taxi": rng.randint(0, 3), "bus": rng.randint(0, 2),
                                            "underground": rng.randint(0, 1)}, rng.random() < 0.85)
                for i, s in enumerate(stations[:n])]
        xt = {"taxi": rng.choice([0, 4]), "bus": rng.randint(0, 1), "underground": rng.randint(0, 1), "black": 0}
        res = solve_cordon(board, {s: rng.randint(1, 4) for s in stations[n:]}, xt, dets, moves=k, time_limit=20)
        assert res.status == "optimal"
        # (the target: his possible stations after k - 1 more moves)
        assert _objective(board, res) == _brute_objective(board, dets, res.probabilities, xt, k)


@pytest.mark.parametrize("exact", [False, True])
def test_every_dropped_option_has_a_dominator(london, exact):
    """Each option undominated drops has a kept one with the same stations and stays, no more
    bus/underground tickets and (of the kinds Mr. X lacks) a subset of the kinds, the same ones
    when ``exact``; and it drops some (underground and bus often run between the same stations)."""
    rng = random.Random(8)
    dropped = 0
    for _ in range(12):
        det = DetectiveState("D", rng.choice(london.stations), {"taxi": 3, "bus": 3, "underground": rng.randint(0, 3)})
        lacking = rng.sample(DETECTIVE_TICKETS, rng.randint(0, 3))
        listed = detective_options(london, det, 3, 4)
        kept = undominated(listed, lacking, exact)
        assert set(kept) <= set(listed)
        for o in set(listed) - set(kept):
            kinds = {t for t in o.tickets if t in lacking}
            assert any(c.path == o.path and c.blocked == o.blocked and c.cost <= o.cost
                       and ({t for t in c.tickets if t in lacking} == kinds if exact
                            else {t for t in c.tickets if t in lacking} <= kinds) for c in kept), o
            dropped += 1
    assert dropped > 50


def test_exact_keeps_every_handed_kind_apart(london):
    """Under mrx_onto_detective: caught without trapped_loses handing him a kind can help the seal
    (a capture along it), so there options differing in the kinds he lacks are all kept."""
    det = DetectiveState("D", 1, {"taxi": 3, "bus": 3, "underground": 3})
    listed = detective_options(london, det, 2, 4)
    exact = undominated(listed, [Ticket.UNDERGROUND], exact=True)
    assert len(undominated(listed, [Ticket.UNDERGROUND])) < len(exact) < len(listed)
