"""cordon under the rule variants (cut-off escape, "onto a detective is caught" with and without
trapped_loses, voluntary reveal), against a brute-force oracle that asks the engine
(:class:`Position`) everything: the detectives' moves, Mr. X's legal moves from each target
station once they stand, and whether his every move is a capture.  Each variant also checks
that solving while ignoring it disagrees with the oracle somewhere (the test has teeth)."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from helpers import plan_problems, reveal_cuts, small_board

from sy_tools.engine.board import Board
from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move, OutcomeKind
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS, Rules
from sy_tools.engine.stations import mask_of
from sy_tools.engine.tickets import DETECTIVE_TICKETS, Ticket, Tickets, Transport
from sy_tools.solvers.cordon import cordon_puzzle
from sy_tools.solvers.cordon_model import reveal_takes, solve_cordon
from sy_tools.solvers.cordon_result import SCALE, DetectiveState
from sy_tools.solvers.seal import held_tickets, is_sealed

CLASSIC = PRESETS["classic"]
CUTOFF = dataclasses.replace(CLASSIC, cutoff_escape=True)
CAUGHT = dataclasses.replace(CLASSIC, mrx_onto_detective="caught")
CAUGHT_PASS = dataclasses.replace(CLASSIC, mrx_onto_detective="caught", trapped_loses=False, cutoff_escape=True)
ILLEGAL_PASS = dataclasses.replace(CLASSIC, trapped_loses=False)
REVEAL = dataclasses.replace(CLASSIC, voluntary_reveal=True)
ALL = dataclasses.replace(CLASSIC, cutoff_escape=True, mrx_onto_detective="caught", voluntary_reveal=True)


# ---- the oracle: everything through the engine ----------------------------------------------


def engine_sealed(board: Board, rules: Rules, p: int, stations: tuple[int, ...], kinds) -> bool:
    """Mr. X on ``p`` holding one ticket of each of ``kinds`` and a double-move card, detectives
    on ``stations``, to move: has he lost?  Captured already, no legal move under trapped_loses,
    or every legal move of his (double moves included: under "caught" a first leg onto a
    detective is illegal) ends the game with a capture."""
    if p in stations:
        return True
    names = tuple(f"D{i}" for i in range(len(stations)))
    pos = Position(board, rules, names, tuple(stations), tuple(Tickets() for _ in stations), frozenset(),
                   Tickets.of({"double": 1, **{t.value: 1 for t in kinds}}), p)
    moves = pos.legal_moves()
    return all(pos.push(m).outcome.kind is OutcomeKind.CAPTURE for m in moves)


def _start(board, rules, dets, xt, k, mrx_moves, mrx_first) -> Position:
    names = tuple(d.name for d in dets)
    pos = Position(board, rules, names, tuple(d.station for d in dets), tuple(Tickets.of(d.tickets) for d in dets),
                   frozenset(), Tickets.of(xt).gain(Ticket.BLACK, k + 1), None, move=mrx_moves, round=1)
    if mrx_first:
        return pos
    first = next(i for i, d in enumerate(dets) if d.moves_first)
    return pos._next_detective(first)


def _detective_turn(pos: Position):
    """Every joint move of the detectives until Mr. X is to move (or the game ends): (moves,
    position)."""
    if pos.is_over() or pos.turn == 0:
        yield (), pos
        return
    for m in pos.legal_moves():
        for rest, end in _detective_turn(pos.push(m, capture=False)):
            yield (m,) + rest, end


def _mrx_moves(pos: Position, rules: Rules):
    """Mr. X's intermediate move (hidden, black): plain, and under the voluntary reveal each
    ticket he may take (entry not a fixed reveal)."""
    plain = Move(MRX, (Ticket.BLACK,), (None,))
    out = [plain]
    if rules.voluntary_reveal and not rules.is_reveal(pos.move + 1):
        out += [Move(MRX, (Ticket.BLACK,), (None,), 0, (n, t))
                for n, tk in zip(pos.names, pos.tickets) for t in tk.held(DETECTIVE_TICKETS)]
    return out


def _replay(pos: Position, joint) -> Position | None:
    """Play the planned joint detective moves; None if any is illegal now, or a detective the
    plan leaves standing could move (or one planned to move is skipped as stuck)."""
    for m in joint:
        if pos.is_over() or pos.turn == 0 or pos.to_move != m.piece or not pos.is_legal(m):
            return None
        pos = pos.push(m, capture=False)
    if not pos.is_over() and pos.turn != 0:
        return None
    return pos


def _weights(weights):
    total = sum(weights.values()) or 1
    return {p: max(1, round(SCALE * weights[p] / total)) for p in weights}


def _candidate_plans(pos, turns, mrx_moves_first):
    """Open-loop plans (one joint detective move sequence per turn), listed along the branch
    where Mr. X takes nothing; he moves before each turn but (unless ``mrx_moves_first``) the
    first."""
    if turns == 0:
        yield ()
        return
    if mrx_moves_first and not pos.is_over():
        pos = pos.push(Move(MRX, (Ticket.BLACK,), (None,)))
    for joint, nxt in _detective_turn(pos):
        for rest in _candidate_plans(nxt, turns - 1, True):
            yield (joint,) + rest


def _finals(pos, plan, rules, mrx_moves_first):
    """Every final position ``plan`` reaches, whatever Mr. X does between turns; None among
    them if some branch breaks the plan."""
    if not plan:
        yield pos
        return
    branches = [pos]
    if mrx_moves_first and not pos.is_over():
        branches = [pos.push(m) for m in _mrx_moves(pos, rules)]
    for b in branches:
        nxt = _replay(b, plan[0])
        if nxt is None:
            yield None
            return
        yield from _finals(nxt, plan[1:], rules, True)


def plan_value(board, rules, start, plan, w, xt, mrx_first):
    """The weight ``plan`` seals whatever Mr. X does (a station counts when sealed in every
    branch), or -1 when some branch makes it unplayable."""
    finals = list(_finals(start, plan, rules, mrx_first))
    if None in finals:
        return -1
    held = set(held_tickets(xt))
    got = 0
    for p in w:
        got += w[p] * all(
            engine_sealed(board, rules, p, f.stations,
                          held | {t for t in DETECTIVE_TICKETS if f.mrx_tickets[t] > start.mrx_tickets[t]})
            for f in finals)
    return got


def _target(board, weights, xt, k):
    """What the plan must seal (README): the possible set expanded by k - 1 moves of Mr. X with
    any ticket he holds, unpruned (a superset of where he can be under any rules)."""
    cur = dict(weights)
    for _ in range(k - 1):
        nxt = {}
        for s, c in cur.items():
            for d in {d for t in held_tickets(xt) for d in board.moves(s, t)}:
                nxt[d] = nxt.get(d, 0) + c
        cur = nxt
    return cur


def oracle(board, rules, dets, weights, xt, k, mrx_moves=0, mrx_first=False):
    """The best guaranteed sealed weight over every open-loop plan, and whether it is all."""
    w = _weights(_target(board, weights, xt, k))
    start = _start(board, rules, dets, xt, k, mrx_moves, mrx_first)
    best = max(plan_value(board, rules, start, plan, w, xt, mrx_first) for plan in _candidate_plans(start, k, mrx_first))
    return best, best == sum(w.values())


def _plan_weight(board, rules, res, weights, xt, dets, k, mrx_moves=0, mrx_first=False):
    """The plan CP-SAT chose, played through the oracle's machinery: its guaranteed weight."""
    start = _start(board, rules, dets, xt, k, mrx_moves, mrx_first)
    plan = tuple(tuple(Move.detective(p.name, p.tickets[j], p.path[j + 1]) for p in res.plan if p.tickets[j])
                 for j in range(k))
    return plan_value(board, rules, start, plan, _weights(_target(board, weights, xt, k)), xt, mrx_first)


def via_board(rng: random.Random) -> Board:
    """A small random board whose bus and underground lines pass over one or two stations."""
    b = small_board(rng, rng.randint(9, 14))
    via = {}
    for c in b.connections:
        if c.transport in (Transport.BUS, Transport.UNDERGROUND) and rng.random() < 0.8:
            others = [s for s in b.stations if s not in (c.a, c.b)]
            via[(c.a, c.b, c.transport)] = rng.sample(others, rng.randint(1, 2))
    return Board.build("via", b.stations, b.connections, b.coords, dict(b.start_decks), via)


def _state(rng, board, n_max=3, max_tickets=(2, 2, 1), prefix_stays=True):
    n = rng.randint(1, n_max)
    stations = rng.sample(board.stations, n + 3)
    dets = []
    for i, s in enumerate(stations[:n]):
        tk = {t.value: rng.randint(0, m) for t, m in zip(DETECTIVE_TICKETS, max_tickets)}
        dets.append(DetectiveState(f"D{i}", s, tk, True))
    if prefix_stays and n > 1 and rng.random() < 0.2:  # mid-round: the first ones already moved
        dets[0] = dataclasses.replace(dets[0], moves_first=False)
    target = {s: rng.randint(1, 4) for s in stations[n:] if rng.random() < 0.9} or {stations[-1]: 1}
    xt = {"taxi": rng.randint(0, 2), "bus": rng.randint(0, 1), "underground": rng.randint(0, 1),
          "black": rng.choice([0, 0, 1])}
    return dets, target, xt


def _brute_size(board, rules, target, tickets):
    near = {s for p in target for t in Ticket for s in board.moves(p, t)}
    vias = {s for m in board.via.values() for s in _bits(m)} if rules.cutoff_escape else set()
    places = sorted(set(target) | near | vias)
    for size in range(len(places) + 1):
        for combo in itertools.combinations(places, size):
            if all(engine_sealed(board, rules, p, combo, tickets) for p in target):
                return size
    raise AssertionError("unreachable")


def _bits(m):
    return [i for i in range(m.bit_length()) if m >> i & 1]


def _check_against_oracle(board, rules, dets, target, xt, k, mrx_moves=0, mrx_first=False, size=True):
    if mrx_first:  # he moves before the first planned turn: every detective moves in it
        dets = [dataclasses.replace(d, moves_first=True) for d in dets]
    res = solve_cordon(board, target, xt, dets, moves=k, time_limit=20, rules=rules, mrx_moves=mrx_moves,
                mrx_first=mrx_first)
    best, full = oracle(board, rules, dets, target, xt, k, mrx_moves, mrx_first)
    if res.status == "infeasible":  # some detective has no move sequence that survives his takes
        assert best == -1 and not res.plan and res.feasible is None
        return res
    assert res.status == "optimal"
    got = _plan_weight(board, rules, res, target, xt, dets, k, mrx_moves, mrx_first)
    assert got == best, (got, best, [p.describe() for p in res.plan])
    assert res.feasible == full
    if size and k == 1:
        assert res.cordon_size == _brute_size(board, rules, sorted(target), held_tickets(xt))
    return res


def _differs_when_ignored(board, rules, dets, target, xt, k, mrx_moves=0, mrx_first=False) -> bool:
    """Whether solving as if the variant were off gives a different best sealed weight than the
    variant's oracle (the mutation "ignore the variant")."""
    if mrx_first:
        dets = [dataclasses.replace(d, moves_first=True) for d in dets]
    plain = solve_cordon(board, target, xt, dets, moves=k, time_limit=20, rules=CLASSIC, mrx_moves=mrx_moves,
                  mrx_first=mrx_first)
    best, _ = oracle(board, rules, dets, target, xt, k, mrx_moves, mrx_first)
    value = _plan_weight(board, rules, plain, target, xt, dets, k, mrx_moves, mrx_first)
    w = _weights(_target(board, target, xt, k))
    reported = sum(w[p] for p in w if p not in plain.open)
    return value != best or reported != value


# ---- against the oracle -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [CUTOFF, CAUGHT_PASS, ILLEGAL_PASS], ids=["cutoff", "caught-pass", "illegal-pass"])
def test_seal_variants_against_the_oracle(rules):
    differs = 0
    for seed in range(45):
        rng = random.Random(seed)
        board = via_board(rng)
        dets, target, xt = _state(rng, board)
        if seed % 2:  # the tickets they use stay theirs: fewer exits open, more seals to find
            rules = dataclasses.replace(rules, tickets_to_mrx=False)
        _check_against_oracle(board, rules, dets, target, xt, 1)
        differs += _differs_when_ignored(board, rules, dets, target, xt, 1)
    assert differs > 0  # ignoring the variant would fail this test


def test_caught_with_trapped_loses_seals_as_classic():
    """Under "caught" (trapped_loses on) his only moves onto detectives are captures: the seal is
    the classic one, and the oracle agrees on every state."""
    for seed in range(25):
        rng = random.Random(500 + seed)
        board = via_board(rng)
        dets, target, xt = _state(rng, board)
        _check_against_oracle(board, CAUGHT, dets, target, xt, 1)


def test_cutoff_two_turns_against_the_oracle():
    for seed in range(12):
        rng = random.Random(700 + seed)
        board = via_board(rng)
        dets, target, xt = _state(rng, board, n_max=2, max_tickets=(2, 1, 1))
        _check_against_oracle(board, CUTOFF, dets, target, xt, 2)


@pytest.mark.parametrize("k, mrx_first", [(1, True), (2, False), (2, True)])
def test_voluntary_reveal_against_the_oracle(k, mrx_first):
    """Mr. X may take a ticket on each of his turns in the plan's window: the plan must be
    playable whatever he takes, and a kind he could take counts as his for the seal."""
    differs = 0
    for seed in range(30 if k == 1 else 14):
        rng = random.Random(900 + 31 * k + seed)
        board = small_board(rng, rng.randint(8, 12))
        dets, target, xt = _state(rng, board, n_max=3 if k == 1 else 2, max_tickets=(2, 1, 1))
        mrx_moves = rng.choice([0, 1, 2, 6])  # 2 and 7: the next entries include the fixed reveal 3 or 8
        _check_against_oracle(board, REVEAL, dets, target, xt, k, mrx_moves, mrx_first, size=False)
        differs += _differs_when_ignored(board, REVEAL, dets, target, xt, k, mrx_moves, mrx_first)
    assert differs > 0


def test_all_variants_together_against_the_oracle():
    for seed in range(12):
        rng = random.Random(1300 + seed)
        board = via_board(rng)
        dets, target, xt = _state(rng, board, n_max=2, max_tickets=(2, 1, 1))
        _check_against_oracle(board, ALL, dets, target, xt, 2, mrx_moves=rng.choice([0, 3]), size=False)


def test_london_via_data_against_the_oracle(london):
    """London carries the rulebook's via data (underground 153-140 over 154, 74-46 over 58 and
    45): positions around those lines, detectives one hop from the via stations."""
    assert london.via
    differs = 0
    rng = random.Random(5)
    for i in range(16):
        target = {153: 1} if i % 2 else {74: 1}
        near = sorted({s for v in (154, 58, 45, 140, 46) for t in DETECTIVE_TICKETS for s in london.moves(v, t)}
                      - set(target))
        stations = rng.sample(near, rng.randint(1, 3))
        dets = [DetectiveState(f"D{j}", s, {"taxi": 2, "bus": 1, "underground": 1}) for j, s in enumerate(stations)]
        xt = {"taxi": 0, "bus": 0, "underground": 2, "black": rng.choice([0, 1])}
        rules = dataclasses.replace(CUTOFF, tickets_to_mrx=bool(i % 4 == 3))
        _check_against_oracle(london, rules, dets, target, xt, 1)
        differs += _differs_when_ignored(london, rules, dets, target, xt, 1)
    assert differs > 0


# ---- the rulebook's examples and the decisions ---------------------------------------------------


def test_rulebook_cutoff_153_154(london):
    """Mr. X on 153 with only underground tickets: his line to 140 passes 154.  Classic rules
    need a detective on 140 itself; under the cut-off escape one on 154 does as well, and the
    engine agrees."""
    stops = set(london.moves(153, Ticket.UNDERGROUND))
    assert 140 in stops and 154 not in stops
    occ = mask_of(stops - {140} | {154})
    ug = (Ticket.UNDERGROUND,)
    assert is_sealed(london, 153, occ, ug, CUTOFF) and engine_sealed(london, CUTOFF, 153, tuple(_bits(occ)), ug)
    assert not is_sealed(london, 153, occ, ug, CLASSIC)
    assert not engine_sealed(london, CLASSIC, 153, tuple(_bits(occ)), ug)
    # the cordon size counts it: guarding 154 instead of 140 is as good
    res = cordon_puzzle(london, [153], [("Red", 155)], mrx_tickets={"underground": 3}, rules=CUTOFF)
    assert res.feasible is False or res.feasible is True  # a plan exists either way
    assert res.cordon_size == 1  # standing on 153 itself


def test_takes_count_only_non_fixed_reveal_entries():
    # entries 3 and 8 are fixed reveals: no ticket is taken on them
    assert reveal_takes(REVEAL, 3, mrx_moves=1, mrx_first=False) == (0, 1, 1)  # entries 2, 3
    assert reveal_takes(REVEAL, 3, mrx_moves=1, mrx_first=True) == (1, 1, 2)  # entries 2, 3, 4
    assert reveal_takes(REVEAL, 3, mrx_moves=None) == (0, 1, 2)
    assert reveal_takes(CLASSIC, 3, mrx_moves=1) == (0, 0, 0)


def test_a_plan_keeps_a_spare_ticket_against_a_take(london):
    """Two turns on the bus: with two tickets Mr. X could take the second before turn 2 under the
    voluntary reveal, so no such plan is offered (and Red, able to move, may not stand); with
    three there is one to spare; with one, Red rides in turn 1 and is then stuck."""
    from sy_tools.solvers.cordon_model import detective_options

    one = DetectiveState("Red", 100, {"taxi": 0, "bus": 1, "underground": 0})
    two = DetectiveState("Red", 100, {"taxi": 0, "bus": 2, "underground": 0})
    three = DetectiveState("Red", 100, {"taxi": 0, "bus": 3, "underground": 0})
    takes = reveal_takes(REVEAL, 2, mrx_moves=0)
    assert takes == (0, 1)
    assert not detective_options(london, two, 2, 0, takes)
    assert detective_options(london, two, 2, 0, (0, 0))
    assert {o.tickets for o in detective_options(london, three, 2, 0, takes)} == {(Ticket.BUS, Ticket.BUS)}
    # the turn-1 move stays possible (he takes only after it), then Red is stuck
    assert {o.tickets for o in detective_options(london, one, 2, 0, takes)} == {(Ticket.BUS, None)}


# ---- plans replay legal through the referee -------------------------------------------------------


@pytest.mark.parametrize("rules", [CUTOFF, CAUGHT, REVEAL, ALL], ids=["cutoff", "caught", "reveal", "all"])
@pytest.mark.parametrize("k", [1, 2])
def test_variant_plans_replay_through_the_referee(london, rules, k):
    """k-turn plans under each variant, appended to the detectives' record after a reveal (Mr.
    X's next moves hidden, black), replay through the referee with no detective problem."""
    from sy_tools.solvers.cordon import cordon

    done = 0
    for seed, rec_doc, rec, _ in reveal_cuts(london, rules, range(3000, 3040), lambda rng: rng.randint(2, 4), black=k):
        if done == 8:
            break
        res = cordon(rec, moves=k, time_limit=20)
        if res.status == "infeasible":  # no plan survives his takes (voluntary reveal)
            assert rules.voluntary_reveal
            continue
        assert res.status in ("optimal", "feasible") and res.plan
        bad = plan_problems(rec_doc, res.plan, k)
        assert not bad, (seed, [p.describe() for p in res.plan], bad)
        done += 1
    assert done >= 8


def test_puzzle_rules_option_through_the_cli(cli, tmp_path):
    """Mr. X on 74 with only underground tickets: his one exit, 46, is on a line over 58.  Red on
    57 reaches 58 by taxi: under the cut-off escape (tickets kept) that seals him."""
    rules = tmp_path / "rules.json"
    rules.write_text('{"preset": "classic", "cutoff_escape": true, "tickets_to_mrx": false}')
    args = ("cordon", "--around", "74", "--detectives", "Red=57", "--mrx-tickets", "underground=2", "--format", "json")
    import json

    cut = json.loads(cli(*args, "--rules", str(rules)).stdout)
    assert cut["feasible"] is True and cut["cordon"] == [58] and cut["plan"][0]["path"] == [57, 58]
    classic = json.loads(cli(*args).stdout)
    assert classic["feasible"] is False and classic["open"] == [74] and classic["status"] == "optimal"
    r = cli("cordon", "examples/in-progress.json", "--rules", "classic")
    assert r.exit_code == 2 and "--rules is for puzzle mode" in r.stderr


def test_status_values_are_the_documented_ones():
    from sy_tools.solvers.cordon_result import CORDON_STATUSES, CordonStatus

    assert CORDON_STATUSES == ("optimal", "feasible", "infeasible", "model-invalid", "unknown")
    assert CordonStatus.of_solver("MODEL_INVALID") is CordonStatus.MODEL_INVALID
    assert CordonStatus.of_solver("SOMETHING_NEW") is CordonStatus.UNKNOWN
    assert [s.found for s in CordonStatus] == [True, True, False, False, False]
