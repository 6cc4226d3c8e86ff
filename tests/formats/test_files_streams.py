"""Standard output is a stream: ``-``, ``/dev/stdout`` and ``/dev/fd/N`` are written to through
the open descriptor, never replaced by a renamed temporary file (which lost what a ``>> log``
redirect held), and a record written there names its map relative to the current folder."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import REPO

from sy_tools.formats.files import atomic_write_many, stream_fd
from sy_tools.formats.record_io import load_record

EX = REPO / "examples"


def _run(args: list[str], stdout, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sy_tools", *args], stdout=stdout, stderr=subprocess.PIPE,
                          cwd=cwd, timeout=60)


@pytest.mark.parametrize("out", ["-", "/dev/stdout", "/dev/fd/1"])
def test_record_convert_appends_to_a_redirected_stdout(tmp_path, out):
    log = tmp_path / "log"
    log.write_text("precious\n")
    with open(log, "ab") as f:  # the shell's ``>> log``
        r = _run(["record", "convert", str(EX / "table.txt"), out], f)
    assert r.returncode == 0, r.stderr
    text = log.read_text()
    assert text.startswith("precious\nmap london\n") and text.count("precious") == 1
    assert r.stderr == b""  # the path of a stream is not announced (it would land in the data)


def test_map_convert_writes_into_the_stream_in_order(tmp_path):
    log = tmp_path / "log"
    with open(log, "wb") as f:  # ``( echo header; sy-tools map convert london - --to bristol ) > log``
        f.write(b"header\n")
        f.flush()
        r = _run(["map", "convert", "london", "-", "--to", "bristol"], f)
        f.write(b"footer\n")
    assert r.returncode == 0, r.stderr
    lines = log.read_text().splitlines()
    assert lines[0] == "header" and lines[1].startswith("199 ") and lines[-1] == "footer"


def test_record_to_stdout_names_its_map_from_the_current_folder(tmp_path):
    """``record convert IN -`` wrote the map's path relative to /dev (``map ../tmp/...``)."""
    sub = tmp_path / "games"
    sub.mkdir()
    assert _run(["map", "convert", "london", str(sub / "board.json")], subprocess.DEVNULL).returncode == 0
    (sub / "t.txt").write_text("map board.json\nrules classic\nstart 35 45 51\nX: T\nRed 13: T 23\n")
    out = tmp_path / "out.txt"
    with open(out, "wb") as f:
        r = _run(["record", "convert", "games/t.txt", "-"], f, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert out.read_text().splitlines()[0] == "map games/board.json"
    assert load_record(out).board.name == load_record(sub / "t.txt").board.name


def test_stream_names():
    names = ("-", "/dev/stdout", "/dev//stderr", "/dev/fd/3", "/proc/self/fd/7")
    assert [stream_fd(p) for p in names] == [1, 1, 2, 3, 7]
    assert [stream_fd(p) for p in ("out.txt", "dev/stdout", "/dev/fd/٣", "/dev/null", "--")] == [None] * 5
    with pytest.raises(OSError, match="is a stream"):
        atomic_write_many([("/dev/stdout", b"a"), ("x", b"b")])
