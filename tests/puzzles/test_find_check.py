"""``find`` keeps only what ``check`` proves again: every puzzle found on generated positions
passes :func:`check_puzzle`, through the puzzle file too; a tampered solution fails it."""

from __future__ import annotations

import dataclasses

from puzzle_oracle import small_position

from sy_tools.engine.stations import mask_of
from sy_tools.puzzles.check import check_puzzle
from sy_tools.puzzles.find import Candidate, find_puzzles
from sy_tools.puzzles.model import puzzle_from_dict, read_puzzles, write_puzzles


def _candidates(n=80):
    for seed in range(n):
        pos, S = small_position(seed)
        yield Candidate(pos, mask_of(S), f"generated {seed}")


def _found():
    return find_puzzles(_candidates(), count=50, max_turns=2)


def test_every_puzzle_found_is_proved_by_check(tmp_path):
    result = _found()
    assert len(result.puzzles) >= 5, result.stats
    assert {p.turns for p in result.puzzles} == {1, 2}
    for p in result.puzzles:
        assert check_puzzle(p).ok, p.id
    path = tmp_path / "p.json"
    write_puzzles(path, result.puzzles)
    boards = {p.id: p.board for p in result.puzzles}
    again = [puzzle_from_dict(p.to_dict(), board=boards[p.id]) for p in result.puzzles]
    assert [p.to_dict() for p in again] == [p.to_dict() for p in result.puzzles]
    for p in again:
        assert check_puzzle(p).ok
    assert read_puzzles.__doc__  # (the file reader loads maps by name: tested on London in test_cli_puzzle)


def test_a_tampered_solution_fails_check():
    p = next(p for p in _found().puzzles if p.turns == 2)
    first = p.solution[0]
    moves = list(first.moves)
    other = next(s for s in sorted(p.get_board().stations) if s not in {m.to for m in moves}
                 and s not in {st for _, st, _ in p.detectives})
    moves[0] = dataclasses.replace(moves[0], stations=(other,))
    bad = dataclasses.replace(p, solution=(dataclasses.replace(first, moves=tuple(moves)),) + p.solution[1:])
    res = check_puzzle(bad)
    assert res.status == "wrong" and "the only winning move" in res.problems[0]
    shorter = dataclasses.replace(p, turns=3)
    assert "fewer than" in check_puzzle(shorter).problems[0]


def test_known_puzzles_are_not_found_again():
    first = _found()
    again = find_puzzles(_candidates(), count=50, max_turns=2, known=first.puzzles)
    assert again.puzzles == [] and again.stats.duplicates >= len(first.puzzles)


def _survival_candidates(n=60):
    from puzzle_oracle import small_survival_position

    for seed in range(n):
        pos = small_survival_position(seed)
        if pos.ended is None:
            yield Candidate(pos, 1 << pos.mrx_at, f"generated {seed}")


def test_every_survival_puzzle_found_is_proved_by_check():
    result = find_puzzles(_survival_candidates(), count=50, max_turns=2, kind="survive")
    assert len(result.puzzles) >= 5, result.stats
    assert all(p.survival and p.to_dict()["to_move"] == "mrx" for p in result.puzzles)
    for p in result.puzzles:
        again = puzzle_from_dict(p.to_dict(), board=p.board)
        assert again.to_dict() == p.to_dict() and check_puzzle(again).ok, p.id
    # a tampered line fails: another first move of his
    p = result.puzzles[0]
    other = next(m for m in p.position().legal_moves() if m.to != p.solution[0].moves[0].to)
    bad = dataclasses.replace(p, solution=(dataclasses.replace(p.solution[0], moves=(other,)),) + p.solution[1:])
    assert check_puzzle(bad).status == "wrong"
    # and they are not found again
    again = find_puzzles(_survival_candidates(), count=50, max_turns=2, kind="survive", known=result.puzzles)
    assert again.puzzles == []
