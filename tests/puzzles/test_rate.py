"""Ratings: Glicko-2 as Glickman's worked example gives it; reproducible from a seed; and
ordered sensibly: over generated puzzles, those the weakest solver gets right rate lower
than those only the strongest solves."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from puzzle_oracle import small_position

from sy_tools.engine.stations import mask_of
from sy_tools.puzzles.attempt import SOLVERS, Solver, Turn, attempt
from sy_tools.puzzles.find import Candidate, find_puzzles
from sy_tools.puzzles.model import Rating
from sy_tools.puzzles.prove import Prover, belief_of
from sy_tools.puzzles.rate import glicko2, rate_puzzles


def test_glicko2_matches_glickmans_example():
    r = glicko2(Rating(1500, 200, 0.06), [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=1e-5)
    assert r.attempts == 3


@dataclass(frozen=True)
class Perfect:
    """The strongest solver: plays a winning joint move found by the prover."""

    name: str = "perfect"
    rating: float = 2200.0

    def chooser(self, rng: random.Random):
        def choose(turn: Turn):
            b = belief_of(turn.position, turn.possible)
            return Prover(turn.position, None, None).winning_moves(b, turn.left, 1)[0].moves
        return choose


LADDER = (SOLVERS[0], SOLVERS[1], Perfect())


@pytest.fixture(scope="module")
def generated():
    cands = []
    for seed in range(120):
        pos, S = small_position(seed)
        cands.append(Candidate(pos, mask_of(S), f"generated {seed}"))
    return find_puzzles(cands, count=60, max_turns=2).puzzles


def test_ratings_are_reproducible_and_ordered(generated):
    a = rate_puzzles(generated, LADDER, tries=3, seed=7)
    b = rate_puzzles(generated, LADDER, tries=3, seed=7)
    assert [p.rating for p in a.puzzles] == [p.rating for p in b.puzzles]
    easy = [p.rating.rating for p in a.puzzles if a.solved_by(p.id)["random"] > 0]
    hard = [p.rating.rating for p in a.puzzles
            if a.solved_by(p.id)["perfect"] == 1 and a.solved_by(p.id)["random"] == 0
            and a.solved_by(p.id)["greedy"] == 0]
    assert easy and hard, (len(easy), len(hard))
    assert max(easy) < min(hard)
    assert all(a.solved_by(p.id)["perfect"] == 1 for p in a.puzzles)


def test_the_solver_ladder_is_graded():
    assert [s.rating for s in SOLVERS] == sorted(s.rating for s in SOLVERS)
    assert isinstance(SOLVERS[0], Solver) and SOLVERS[0].policy == "random"


def test_a_wrong_move_fails_the_attempt(generated):
    p = next(p for p in generated if p.turns == 2)

    def wrong(turn: Turn):
        moves = Prover(turn.position, None, None).winning_moves(belief_of(turn.position, turn.possible), turn.left,
                                                                None)
        good = {tuple((m.piece, m.to) for m in j.moves) for j in moves}
        legal = turn.position.legal_moves()
        first = next(m for m in legal if not any(g[0] == (m.piece, m.to) for g in good))
        return (first,)

    res = attempt(p, wrong)
    assert not res.solved and res.wrong_turn == 1 and "not a forced win" in res.lines[0]


@dataclass(frozen=True)
class PerfectX:
    """The strongest Mr. X: plays a surviving move found by the survival prover."""

    name: str = "x-perfect"
    rating: float = 2200.0

    def chooser(self, rng: random.Random):
        from sy_tools.puzzles.survive import SurviveProver

        def choose(turn: Turn):
            return SurviveProver(turn.position, None, None).survivors(turn.position, turn.left, 1)[0][1]
        return choose


def test_survival_ratings_are_reproducible_and_ordered():
    """The same over generated survive puzzles, Mr. X's ladder attempting them."""
    from puzzle_oracle import small_survival_position

    from sy_tools.puzzles.attempt import MRX_SOLVERS

    cands = [Candidate(p, 1 << p.mrx_at, f"generated {seed}") for seed in range(150)
             if (p := small_survival_position(seed)).ended is None]
    puzzles = find_puzzles(cands, count=60, max_turns=2, kind="survive").puzzles
    ladder = (MRX_SOLVERS[0], MRX_SOLVERS[1], PerfectX())
    a = rate_puzzles(puzzles, mrx_solvers=ladder, tries=3, seed=7)
    b = rate_puzzles(puzzles, mrx_solvers=ladder, tries=3, seed=7)
    assert [p.rating for p in a.puzzles] == [p.rating for p in b.puzzles]
    assert all(a.solved_by(p.id)["x-perfect"] == 1 for p in a.puzzles)
    easy = [p.rating.rating for p in a.puzzles if a.solved_by(p.id)["x-random"] > 0]
    hard = [p.rating.rating for p in a.puzzles if a.solved_by(p.id)["x-random"] == 0
            and a.solved_by(p.id)["x-greedy"] == 0]
    assert easy and hard, (len(easy), len(hard))
    assert max(easy) < min(hard)


def test_rate_never_writes_its_input(cli, tmp_path):
    """`puzzle rate FILE` prints the ratings and leaves FILE as it was; `-o` writes a new file,
    and `-o` naming FILE (or a link to it) is refused with one line, FILE untouched."""
    import json
    import shutil

    src = tmp_path / "p.json"
    from pathlib import Path

    shutil.copy(Path(__file__).parents[2] / "examples" / "puzzles" / "puzzles.json", src)
    first = json.loads(src.read_text())["puzzles"][0]["id"]
    before = src.read_bytes()
    r = cli("puzzle", "rate", str(src), "--id", first, "--tries", "1")
    assert r.exit_code == 0, r.stderr
    assert first in r.stdout and "not saved" in r.stderr
    assert src.read_bytes() == before
    (tmp_path / "link.json").symlink_to(src)
    for target in (src, tmp_path / "link.json"):
        r = cli("puzzle", "rate", str(src), "--id", first, "-o", str(target))
        assert r.exit_code == 2 and "overwrite an input" in r.stderr and "Traceback" not in r.stderr
        assert src.read_bytes() == before
    r = cli("puzzle", "rate", str(src), "--id", first, "--tries", "1", "-o", str(tmp_path / "rated.json"))
    assert r.exit_code == 0, r.stderr
    rated = json.loads((tmp_path / "rated.json").read_text())["puzzles"]
    assert [p["id"] for p in rated] == [p["id"] for p in json.loads(before)["puzzles"]]
    assert src.read_bytes() == before
