"""``puzzle find`` never writes over a record it mines (nor through a link to it), and its log
on a pipe ends with where the search stopped, as the summary does; the HTML book carries the
diagrams' key (the PDF has it at each page's foot)."""

from __future__ import annotations

from helpers import REPO

RECORD = REPO / "examples" / "capture.json"


def test_find_never_writes_over_a_record_it_mines(cli, tmp_path):
    rec = tmp_path / "game.json"
    rec.write_text(RECORD.read_text())
    link = tmp_path / "link.json"
    link.symlink_to(rec)
    for out in (rec, link):
        r = cli("puzzle", "find", str(rec), "-o", str(out), "--count", "1")
        assert r.exit_code == 2 and "--out:" in r.output and "also a record" in r.output, r.output
    assert rec.read_text() == RECORD.read_text()


def test_find_log_on_a_pipe_ends_where_the_search_stopped(cli, tmp_path):
    out = tmp_path / "p.json"
    r = cli("puzzle", "find", str(RECORD), "-o", str(out), "--turns", "1", "--count", "1", "--time-limit", "60")
    assert r.exit_code == 0
    tried = r.stdout.splitlines()[-1].split("; ")[1].split(" candidates")[0]
    assert r.stderr.splitlines()[-1].split(" candidates")[0].endswith(f"; {tried}"), (r.stdout, r.stderr)


def test_the_html_book_has_the_key():
    from sy_tools.formats.map_load import load_board
    from sy_tools.plot.puzzle_book import book_html

    text = book_html(load_board("london"), [], "t")
    assert "class='legend'" in text and "data:image/png;base64," in text and "a square marks where Mr. X" in text


def test_a_solution_is_never_split_across_pages():
    """Each solutions page starts with a puzzle's heading (a reader finds which puzzle a line
    belongs to), every line kept in order, and only a solution longer than a page runs on."""
    from sy_tools.plot.puzzle_book import BookEntry, solution_pages

    def entry(n: int, lines: int) -> BookEntry:
        return BookEntry(f"Puzzle {n}", "q", (), {}, (), (), tuple(f"turn {i}" for i in range(lines)))

    entries = [entry(n, k) for n, k in enumerate([5, 3, 4, 2, 9], 1)]
    pages = solution_pages(entries, per=10)
    assert [p[0] for p in pages] == ["Puzzle 1", "Puzzle 2", "Puzzle 4", "Puzzle 5"]
    assert all(len(p) <= 10 for p in pages)
    assert [x for p in pages for x in p if x] == [x for e in entries for x in (e.heading, *e.solution)]
    long = solution_pages([entry(1, 25)], per=10)  # longer than a page: runs on, nothing lost
    assert [len(p) for p in long] == [10, 10, 6]


def test_a_puzzle_file_given_as_a_record_and_png_pages_of_html_are_refused(cli, tmp_path):
    puzzles = REPO / "examples" / "puzzles" / "puzzles.json"
    r = cli("puzzle", "find", str(puzzles), "-o", str(tmp_path / "p.json"), "--count", "1")
    lines = r.output.strip().splitlines()
    assert (r.exit_code, len(lines)) == (2, 1) and "a puzzle file, not a game record" in lines[0], r.output
    r = cli("puzzle", "book", str(puzzles), "-o", str(tmp_path / "b.html"), "--pages-png", str(tmp_path / "pg"))
    assert r.exit_code == 2 and "--pages-png:" in r.output and not list(tmp_path.iterdir()), r.output
