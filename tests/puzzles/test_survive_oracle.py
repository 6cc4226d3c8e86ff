"""The survive kind against a brute-force oracle (tests/puzzles/puzzle_oracle.py: plain minimax
over the engine's positions, every detective move tried): on small generated positions the
prover's surviving solutions are exactly the oracle's for one and two turns, its horizon N is
the oracle's, every turn of a kept line has one surviving solution by the oracle (the line's),
and a prover that lets a second solution through is caught."""

from __future__ import annotations

from puzzle_oracle import after_x_holds, small_survival_position, surviving_solutions

from sy_tools.puzzles.survive import NotUniqueSurvival, SurviveProver, solution_of

SEEDS = range(80)


def _horizon(pos, max_turns):
    sols = {(len(m.tickets), m.to) for m in pos.legal_moves()}
    if len(sols) < 2 or pos.ended is not None:
        return None
    for n in range(1, max_turns + 1):
        alive = surviving_solutions(pos, n)
        if len(alive) <= 1:
            return n if alive else None
    return None


def compare(seed: int) -> list[str]:
    pos = small_survival_position(seed)
    if pos.ended is not None:
        return []
    problems = []
    for r in (1, 2):
        prover = SurviveProver(pos, None, None)
        mine = {sol for sol, _ in prover.survivors(pos, r, None)}
        oracle = surviving_solutions(pos, r)
        if mine != oracle:
            problems.append(f"seed {seed}, {r} turns: prover {sorted(mine)}, oracle {sorted(oracle)}")
    prover = SurviveProver(pos, None, None)
    h = prover.horizon(pos, 2)
    if h != _horizon(pos, 2):
        problems.append(f"seed {seed}: horizon {h}, oracle {_horizon(pos, 2)}")
    if h is not None:
        try:
            line = prover.main_line(pos, h)
        except NotUniqueSurvival:
            return problems
        for turn, st in enumerate(line):
            sols = surviving_solutions(st.before, h - turn)
            if sols != {solution_of(st.move)}:
                problems.append(f"seed {seed} turn {turn + 1}: oracle {sorted(sols)}, line {solution_of(st.move)}")
            if not after_x_holds(st.before.push(st.move), h - turn):
                problems.append(f"seed {seed} turn {turn + 1}: the line's move does not survive")
    return problems


def test_survivors_match_the_oracle():
    problems = [p for seed in SEEDS for p in compare(seed)]
    assert not problems, problems


def test_the_generated_positions_hold_unique_and_ambiguous_survivals():
    """The comparison means something: one survivor, several, none, and lines kept."""
    counts = {"one": 0, "several": 0, "none": 0, "kept": 0}
    for seed in SEEDS:
        pos = small_survival_position(seed)
        if pos.ended is not None:
            continue
        n = len(surviving_solutions(pos, 2))
        counts["one" if n == 1 else "several" if n else "none"] += 1
        prover = SurviveProver(pos, None, None)
        h = prover.horizon(pos, 2)
        if h is not None:
            try:
                prover.main_line(pos, h)
                counts["kept"] += 1
            except NotUniqueSurvival:
                pass
    assert min(counts.values()) >= 3, counts


def test_a_second_solution_let_through_is_caught(monkeypatch):
    """Sabotage: survivors that stop at the first surviving solution make two-solution turns
    look unique; the oracle comparison must then fail."""
    real = SurviveProver.survivors

    def first_only(self, pos, r, limit=2):
        return real(self, pos, r, 1)

    monkeypatch.setattr(SurviveProver, "survivors", first_only)
    problems = [p for seed in SEEDS for p in compare(seed)]
    assert problems
