"""A puzzle's uniqueness against a brute-force oracle (tests/puzzles/puzzle_oracle.py: plain
minimax over the engine's positions): on small generated positions the prover's winning first
joint moves are exactly the oracle's, the shortest win agrees, and the main line is refused
exactly when the oracle finds a second solution."""

from __future__ import annotations

from puzzle_oracle import small_position, winning_joints, wins

from sy_tools.engine.stations import mask_of
from sy_tools.puzzles.prove import NotUnique, Prover, belief_of, destinations

SEEDS = range(60)


def _shortest(pos, S, k_max):
    return next((k for k in range(1, k_max + 1) if wins(pos, S, k)), None)


def compare(seed: int) -> list[str]:
    """Where the prover and the oracle disagree on position ``seed`` (empty: nowhere)."""
    pos, S = small_position(seed)
    prover = Prover(pos, None, None)
    b = belief_of(pos, mask_of(S))
    k = _shortest(pos, S, 2)
    if prover.shortest(b, 2) != k:
        return [f"seed {seed}: shortest win {prover.shortest(b, 2)}, oracle {k}"]
    if k is None:
        return []
    oracle = winning_joints(pos, S, k)
    mine = {j.moves for j in prover.winning_moves(b, k, None)}
    problems = []
    if mine != oracle:
        problems.append(f"seed {seed}: winning joint moves differ: prover only {sorted(map(str, mine - oracle))}, "
                        f"oracle only {sorted(map(str, oracle - mine))}")
    solutions = {destinations(m) for m in oracle}
    try:
        prover.main_line(b, k)
        refused = False
    except NotUnique as e:
        refused = e.turn == 1
    if (len(solutions) > 1) != refused and not prover.trivial(b):
        problems.append(f"seed {seed}: {len(solutions)} solutions by the oracle, main line "
                        f"{'refused' if refused else 'kept'} at turn 1")
    return problems


def test_winning_moves_match_the_oracle():
    problems = [p for seed in SEEDS for p in compare(seed)]
    assert not problems, problems


def test_the_generated_positions_hold_unique_and_ambiguous_puzzles():
    """The comparison means something: some positions have one solution, some several."""
    counts = {"one": 0, "several": 0}
    for seed in SEEDS:
        pos, S = small_position(seed)
        k = _shortest(pos, S, 2)
        if k is not None:
            n = len({destinations(m) for m in winning_joints(pos, S, k)})
            counts["one" if n == 1 else "several"] += 1
    assert counts["one"] >= 3 and counts["several"] >= 3, counts


def test_a_second_solution_let_through_is_caught(monkeypatch):
    """Sabotage: a prover that stops at the first winning joint move calls ambiguous positions
    unique; the oracle comparison must then fail."""
    real = Prover.winning_moves

    def first_only(self, b, k, limit=2):
        return real(self, b, k, 1)

    monkeypatch.setattr(Prover, "winning_moves", first_only)
    problems = [p for seed in SEEDS for p in compare(seed)]
    assert problems


def test_every_turn_of_a_kept_line_is_unique_by_the_oracle():
    """Each turn of a kept line (the later ones, after Mr. X's best reply, included) has one
    solution by the oracle, and it is the line's."""
    from sy_tools.engine.position import Position

    checked = 0
    for seed in SEEDS:
        pos, S = small_position(seed)
        prover = Prover(pos, None, None)
        b = belief_of(pos, mask_of(S))
        k = prover.shortest(b, 2)
        if k is None:
            continue
        try:
            line = prover.main_line(b, k)
        except NotUnique:
            continue
        for turn, step in enumerate(line):
            if step.trivial:
                continue
            bb = step.before
            here = Position(pos.board, pos.rules, pos.names, bb.stations, bb.tickets,
                            frozenset(n for i, n in enumerate(pos.names) if bb.out >> i & 1), bb.mrx_tickets, None,
                            bb.move, pos.round, bb.doubles, 1)
            sols = {destinations(m) for m in winning_joints(here, frozenset(_bits(bb.possible)), k - turn)}
            assert sols == {destinations(step.joint.moves)}, (seed, turn)
            checked += 1
    assert checked >= 5


def _bits(mask):
    return [i for i in range(mask.bit_length()) if mask >> i & 1]
