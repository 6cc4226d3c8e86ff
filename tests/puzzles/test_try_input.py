"""What a person types to ``puzzle try`` as Mr. X (:func:`read_mrx_move`), beyond what the
pty tests drive."""

from __future__ import annotations

from helpers import REPO

from sy_tools.puzzles.model import read_puzzles

FILE = REPO / "examples" / "puzzles" / "puzzles.json"


def test_mr_x_may_type_a_double_move_as_solve_writes_it():
    """``2X T 194 T 182`` (solve writes a double move with 2X) is the double move; ``2X`` with
    one leg says it takes two."""
    from sy_tools.puzzles.attempt import read_mrx_move

    p = next(q for q in read_puzzles(FILE) if q.id == "p1bbc6d052c")  # Mr. X at 195 with a double move
    legal = p.position().legal_moves()
    double = next(m for m in legal if len(m.tickets) == 2)
    legs = " ".join(f"{t.value} {s}" for t, s in zip(double.tickets, double.stations))
    assert read_mrx_move(legs, legal) == double
    assert read_mrx_move("2X " + legs, legal) == double
    assert read_mrx_move(f"2x {double.stations[0]}", legal) == "a double move (2X) takes two legs: 2X T 46 B 58"


def test_two_stations_typed_for_the_detectives_ask_for_one_move_at_a_time():
    """``103 104`` (two detectives' stations on one line) is not read as a ticket named 103."""
    from sy_tools.puzzles.attempt import read_move

    p = next(q for q in read_puzzles(FILE) if q.kind == "capture")
    legal = p.position().legal_moves()
    first, second = legal[0].to, legal[-1].to
    said = read_move(f"{first} {second}", legal)
    assert isinstance(said, str) and said.startswith("one detective's move at a time"), said
    assert read_move(f"xx {first}", legal) == "unknown ticket 'xx': T, B or U (taxi, bus, underground)"
    assert read_move(str(first), legal) == next(m for m in legal if m.to == first)
