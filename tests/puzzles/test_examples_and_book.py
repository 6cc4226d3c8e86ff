"""examples/puzzles/: every puzzle there is proved by ``puzzle check`` (all of them: the proofs
are cheap), rated, of N >= 2; the CLI's check, solve, book and its refusals; the book's pages
(the diagram zoomed to the stations that matter, station numbers readable)."""

from __future__ import annotations

import json

import pytest
from helpers import REPO

from sy_tools.formats.map_load import load_board
from sy_tools.plot.puzzle_book import BookEntry, puzzle_pages
from sy_tools.puzzles.book import book_items, book_order
from sy_tools.puzzles.check import check_puzzle
from sy_tools.puzzles.model import read_puzzles

FILE = REPO / "examples" / "puzzles" / "puzzles.json"


@pytest.fixture(scope="module")
def examples():
    return read_puzzles(FILE)


def test_every_example_puzzle_is_proved(examples):
    assert 30 <= len(examples) <= 45
    assert all(p.turns >= 2 for p in examples)
    assert sum(p.turns == 4 and p.kind == "capture" for p in examples) >= 3
    assert sum(p.survival for p in examples) >= 3
    bad = [r.line() for r in (check_puzzle(p) for p in examples) if not r.ok]
    assert not bad, bad
    assert all(p.rating is not None and p.rating.attempts > 0 for p in examples)


def test_the_cli_checks_and_solves(cli, examples, tmp_path):
    p = examples[0]
    r = cli("puzzle", "check", str(FILE), "--id", p.id)
    assert r.exit_code == 0 and r.output.splitlines()[-1] == "1 of 1 puzzle proved"
    r = cli("puzzle", "solve", str(FILE), "--id", p.id)
    assert r.exit_code == 0 and p.question() in r.output and "turn 1: " in r.output
    # a wrong solution: exit 1 naming the turn
    doc = json.loads(FILE.read_text())
    bad = doc["puzzles"][0]
    bad["solution"][0]["moves"][0]["to"] = bad["possible"][0] if bad["solution"][0]["moves"][0]["to"] != \
        bad["possible"][0] else bad["possible"][-1]
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "sy-tools puzzles", "version": 1, "puzzles": [bad]}))
    r = cli("puzzle", "check", str(wrong))
    assert r.exit_code == 1 and "WRONG: turn 1" in r.output


BAD_FILES = {
    "{": "not JSON",
    '{"puzzles": [{"turns": 2}]}': "detectives: expected a list",
    '{"puzzles": [{"turns": 2, "detectives": [{"name": "Red", "station": 999}]}]}': "999 is not on the map",
    '{"puzzles": []}': "no puzzles in the file",
}


def test_a_bad_file_is_one_line(cli, tmp_path):
    for n, (text, message) in enumerate(BAD_FILES.items()):
        f = tmp_path / f"p{n}.json"
        f.write_text(text)
        r = cli("puzzle", "check", str(f))
        lines = r.output.strip().splitlines()
        assert (r.exit_code, len(lines)) == (2, 1) and message in lines[0], r.output


def test_the_book_orders_by_rating_and_zooms(examples, tmp_path, cli):
    ordered = book_order(examples)
    ratings = [p.rating.rating for p in ordered]
    assert ratings == sorted(ratings)
    items = book_items(examples[:2])
    board = load_board("london")
    pages = puzzle_pages(board, [BookEntry(**i) for i in items])
    assert len(pages) == 2  # one page of two puzzles, one of solutions
    axes = [ax for ax in pages[0].axes]
    assert len(axes) == 2
    for ax, item in zip(axes, items):
        numbers = {t.get_text() for t in ax.texts}
        assert {str(s) for s in item["view"]} <= numbers  # every station that matters is drawn, numbered
        assert len(numbers) < 120  # zoomed: not the whole board
        assert min(t.get_fontsize() for t in ax.texts if t.get_text().isdigit()) >= 6
    ids = [p.id for p in examples[:2]]
    out = tmp_path / "book.html"
    r = cli("puzzle", "book", str(FILE), "--id", ids[0], "--id", ids[1], "-o", str(out))
    assert r.exit_code == 0
    text = out.read_text()
    assert text.count("<img alt=") == 2 and "Solutions" in text  # (and the key: <img class=legend) and examples[0].question() in text
    r = cli("puzzle", "book", str(FILE), "-o", str(tmp_path / "book.txt"))
    assert r.exit_code == 2 and ".pdf or .html" in r.output


BAD_FLAGS = {
    ("--turns", "5"): "--turns: expected turns from 1 to 4",
    ("--policies", "bad"): "--policies: expected MRX:DETECTIVES pairs",
    ("--policies", "nobody:greedy"): "--policies: unknown policy 'nobody'",
    ("--kind", "survive", "--turns", "4"): "--turns: survive puzzles go up to 3 turns",
}


def test_find_refuses_bad_flags_in_one_line(cli, tmp_path):
    for flags, message in BAD_FLAGS.items():
        r = cli("puzzle", "find", "-o", str(tmp_path / "p.json"), "--count", "1", *flags)
        lines = r.output.strip().splitlines()
        assert (r.exit_code, len(lines)) == (2, 1) and message in lines[0], r.output
    assert not (tmp_path / "p.json").exists()


def test_find_resumes_a_file(cli, tmp_path, examples):
    """A file's puzzles are read first and kept; a run that finds nothing new leaves it as it was."""
    out = tmp_path / "p.json"
    out.write_text(FILE.read_text())
    r = cli("puzzle", "find", str(REPO / "examples" / "capture.json"), "-o", str(out), "--turns", "2")
    assert r.exit_code == 0 and f"0 new puzzles ({len(examples)} in {out})" in r.output
    assert out.read_text() == FILE.read_text()
