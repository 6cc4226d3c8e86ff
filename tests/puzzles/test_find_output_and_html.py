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
