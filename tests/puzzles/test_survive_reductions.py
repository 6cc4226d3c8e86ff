"""The survival prover's exact reductions (sy_tools/puzzles/survive.py) against the brute-force
oracle (tests/puzzles/puzzle_oracle.py) on positions made for them: detectives far from Mr. X
whose handed-over ticket or whose being able to move decides the game, Mr. X short of tickets,
double moves, rules with and without ``tickets_to_mrx`` and ``trapped_loses``.  Each reduction
was sabotaged once to see these tests fail (the commit message lists them)."""

from __future__ import annotations

from puzzle_oracle import surviving_solutions, tight_survival_position

from sy_tools.engine.position import Position
from sy_tools.puzzles.survive import SurviveProver

SEEDS = range(3000)


def _far_detective(pos: Position, r: int) -> bool:
    """Some move of his leaves a detective the prover takes as unable to matter."""
    full = (1 << len(pos.names)) - 1
    for m in pos.legal_moves():
        after = pos.push(m)
        if after.ended is None and after.turn != 0:
            rel = SurviveProver(pos, None, None).relevant(after, r)
            if rel is not None and rel != full:
                return True
    return False


def test_reductions_match_the_oracle():
    problems, compared = [], 0
    for seed in SEEDS:
        pos = tight_survival_position(seed)
        if pos.ended is not None:
            continue
        for r in (1, 2, 3):
            if not _far_detective(pos, r):
                continue
            compared += 1
            mine = {sol for sol, _ in SurviveProver(pos, None, None).survivors(pos, r, None)}
            oracle = surviving_solutions(pos, r)
            if mine != oracle:
                problems.append(f"seed {seed}, {r} turns: prover {sorted(mine)}, oracle {sorted(oracle)}")
    assert not problems, problems
    assert compared >= 300, compared
