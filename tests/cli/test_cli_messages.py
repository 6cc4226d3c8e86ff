"""Command-line messages and output safety: the format hint names the command's own option,
check --format json always prints a document, no command writes over its own input."""

from __future__ import annotations

import json
import shutil

import pytest
from helpers import REPO
from limited_cli import unblock_later

EX = REPO / "examples"


@pytest.mark.parametrize("args, option", [
    (["validate", "{}"], "--input-format"),
    (["validate", "--format", "json", "{}"], "--input-format"),
    (["map", "info", "{}"], "--input-format"),
    (["map", "convert", "{}", "out.json"], "--input-format"),  # --from: a hidden alias
])
def test_format_hint_names_the_commands_option(cli, tmp_path, args, option):
    p = tmp_path / "x.dat"
    p.write_text("hello world\n")
    r = cli(*[a.replace("{}", str(p)) for a in args])
    assert r.exit_code == 2
    text = r.stderr + r.output
    assert f"pass {option} json|pair|bristol" in text and "--format json|pair" not in text


def test_map_diff_hint_names_its_input_format_option(cli, tmp_path):
    """map diff reads maps, so it has --input-format like every map reader (and names it)."""
    p = tmp_path / "x.dat"
    p.write_text("hello world\n")
    r = cli("map", "diff", "london", str(p))
    assert r.exit_code == 2 and "cannot tell the map format" in r.stderr and "pass --input-format" in r.stderr


@pytest.mark.parametrize("make", ["missing", "folder", "binary", "fifo"])
def test_check_json_document_for_unreadable_files(cli, tmp_path, make):
    import os

    p = tmp_path / "g.json"
    if make == "folder":
        p.mkdir()
    elif make == "binary":
        p.write_bytes(b"\x00\x01")
    elif make == "fifo":
        os.mkfifo(p)
        unblock_later(p)
    r = cli("check", "--format", "json", str(p))
    assert r.exit_code == 2
    d = json.loads(r.output)
    assert d["readable"] is False and d["legal"] is False and d["file"] == str(p) and d["status"] is None
    (prob,) = d["problems"]
    assert prob["code"] == "unreadable" and prob["level"] == "error" and prob["message"]


@pytest.mark.parametrize("suffix", [".svg", ".pdf", ".png"])
def test_heatmap_never_draws_over_its_record(cli, tmp_path, suffix):
    game = tmp_path / f"game{suffix}"
    shutil.copy(EX / "in-progress.json", game)
    before = game.read_bytes()
    for layer in ("possible", "history", "reach"):
        extra = ["--from", "13"] if layer == "reach" else []
        r = cli("heatmap", str(game), "--layer", layer, *extra, "-o", str(game))
        assert r.exit_code == 2 and "refusing to overwrite an input file" in r.stderr
    link = tmp_path / f"link{suffix}"
    link.symlink_to(game)
    r = cli("heatmap", str(game), "-o", str(link))
    assert r.exit_code == 2 and "refusing to overwrite" in r.stderr
    assert game.read_bytes() == before


def test_heatmap_and_record_convert_never_write_over_the_records_map(cli, tmp_path):
    (tmp_path / "maps").mkdir()
    board = tmp_path / "maps" / "board.svg"  # an odd name for a map, but a file it reads
    assert cli("map", "convert", "london", str(tmp_path / "maps" / "b.json")).exit_code == 0
    shutil.move(tmp_path / "maps" / "b.json", board)
    doc = json.loads((EX / "in-progress.json").read_text())
    doc["map"] = "maps/board.svg"
    rec = tmp_path / "g.json"
    rec.write_text(json.dumps(doc))
    before = board.read_bytes()
    r = cli("check", str(rec), "--format", "json")
    assert json.loads(r.output)["readable"] is True
    r = cli("heatmap", str(rec), "-o", str(board))
    assert r.exit_code == 2 and "refusing to overwrite" in r.stderr
    r = cli("heatmap", "--layer", "reach", "--from", "13", "--map", str(board), "-o", str(board))
    assert r.exit_code == 2 and "refusing to overwrite" in r.stderr
    r = cli("record", "convert", str(rec), str(board))
    assert r.exit_code == 2 and "refusing to overwrite" in r.stderr
    assert board.read_bytes() == before


def test_heatmap_round_must_not_be_negative(cli):
    r = cli("heatmap", str(EX / "in-progress.json"), "--round", "-1")
    assert r.exit_code == 2 and "--round" in r.stderr


def test_workers_bounded(cli):
    r = cli("cordon", "--around", "83", "--workers", "1000000")
    assert r.exit_code == 2 and "--workers" in r.stderr


@pytest.mark.parametrize("content,message", [
    ('{"preset": "classic", "log_length": ' + "1" * 5000 + "}", "rules.log_length: expected a positive integer, got a "
                                                                "number with 5000 digits"),
    ('{"preset": "classic", "log_length": 0}', "rules.log_length: expected a positive integer, got 0"),
    ('{"preset": "classic", "trapped_loses": true, "trapped_loses": false}', "rules.trapped_loses: key "),
    ('{"preset": "classic", "mrx_deck": "\\ud800"}', "lone surrogate"),
    ("[1, 2", "invalid JSON"),
])
def test_a_rules_file_gets_one_line(cli, tmp_path, content, message):
    """--rules FILE (simulate, solve) goes through the same hardened reader as records: a
    5,000-digit number was a traceback."""
    f = tmp_path / "rules.json"
    f.write_text(content)
    for args in (["simulate", "-n", "1", "--jobs", "1"], ["solve", "--around", "83", "--detectives", "Red=13"]):
        r = cli(*args, "--rules", str(f))
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
        assert message in r.stderr and str(f) in r.stderr


def test_an_edited_rules_preset_is_a_rules_file(cli, tmp_path):
    """What 'sy-tools rules --format json' prints, edited, is accepted by --rules."""
    d = json.loads(cli("rules", "2014", "--format", "json").output)
    d["log_length"] = 5
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(d))
    r = cli("simulate", "-n", "20", "--jobs", "1", "--rules", str(f), "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.output)
    assert out["rounds"]["q3"] <= 5 and out["reasons"]["log-full"] > 0, out


@pytest.mark.parametrize("address", ["nonsense", "tcp://", "http://a b:1", "x" * 500])
def test_a_bad_scheduler_address_is_one_line(cli, address):
    """A malformed address left a dask Client behind whose __del__ printed a traceback."""
    r = cli("simulate", "-n", "1", "--scheduler", address)
    assert r.exit_code == 2 and "--scheduler" in r.stderr and "Traceback" not in r.stderr


def _sy_tools(*args: str, **kw):
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "sy_tools", *args], stderr=subprocess.PIPE,
                            cwd=EX.parent, **kw)


@pytest.mark.parametrize("args", [["check", "examples/table.txt"], ["possible", "examples/in-progress.json"],
                                  ["rules"]])
def test_a_reader_that_went_away_ends_quietly(args):
    """'sy-tools check x | head -1' printed "error: Broken pipe" with exit 2 (bad input) in most
    runs, or ended silently with 1: now quietly 141 (128 + SIGPIPE, as the shell's tools)."""
    import subprocess

    p = _sy_tools(*args, stdout=subprocess.PIPE)
    assert p.stdout is not None
    p.stdout.close()  # before it prints: the reader is gone
    _, err = p.communicate(timeout=60)
    assert p.returncode == 141 and err == b"", err


def test_a_closed_stdout_is_an_error_line():
    """Started with stdout closed ('>&-'): a traceback in possible, silent success elsewhere."""
    import os

    for args in (["possible", "examples/in-progress.json"], ["check", "examples/capture.json"]):
        p = _sy_tools(*args, preexec_fn=lambda: os.close(1))
        _, err = p.communicate(timeout=60)
        assert p.returncode == 2 and err.decode().strip() == "error: standard output is closed; nothing could be printed"


def test_converting_to_standard_output(tmp_path):
    """'-o /dev/stdout' as the README promises: the converted text and nothing else (the path
    line once landed in the data; /dev/stdout was 'File exists' or 'No such file')."""
    import subprocess

    p = _sy_tools("map", "convert", "london", "/dev/stdout", "--to", "json", stdout=subprocess.PIPE)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert json.loads(out)["name"] == "london"
    p = _sy_tools("record", "convert", "examples/capture.json", "/dev/stdout", stdout=subprocess.PIPE)
    out, err = p.communicate(timeout=60)
    p2 = _sy_tools("record", "convert", "examples/capture.json", str(tmp_path / "c.txt"), stdout=subprocess.PIPE)
    p2.communicate(timeout=60)
    assert p.returncode == 0 and out.decode() == (tmp_path / "c.txt").read_text()
    p = _sy_tools("map", "convert", "london", "/dev/stdout", stdout=subprocess.PIPE)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and b"pass --to" in err and out == b""
    p = _sy_tools("record", "convert", "examples/capture.json", "-", stdout=subprocess.PIPE)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0 and out.decode() == (tmp_path / "c.txt").read_text() and not (EX.parent / "-").exists()


@pytest.mark.parametrize("cmd", ["cordon", "solve", "advise"])
@pytest.mark.parametrize("name", ["Mr. X", "mr.x", "MrX"])
def test_no_detective_is_called_mr_x_in_a_puzzle(cli, cmd, name):
    """A detective named "Mr. X" was taken for him: advise hung past its time limit, solve and
    cordon printed "Mr. X 185 -U-> 153" as a detective's move."""
    r = cli(cmd, "--around", "154", "--detectives", f"Red=13,{name}=185", "--time-limit", "2")
    assert r.exit_code == 2 and r.stderr.strip() == (f"error: --detectives: a detective cannot be called {name!r}: "
                                                     "the name is Mr. X's")


def test_no_detective_is_called_mr_x_in_a_record(cli, tmp_path):
    """A record's detective "Mr. X" had his moves counted as Mr. X's ('legal; round 3' after one
    round): every reader refuses the name, the batch's fast path too."""
    text = tmp_path / "mx.txt"
    text.write_text('start 35 45 51\nX: T\n"Mr. X" 13: T 23\nBlue 26: T 27\n')
    r = cli("check", str(text))
    assert r.exit_code == 2 and "line 3" in r.stderr and "cannot be called 'Mr. X'" in r.stderr
    doc = json.loads((EX / "in-progress.json").read_text())
    doc["detectives"][1]["name"] = "mr. x"
    for rnd in doc["rounds"]:
        for m in rnd["detectives"]:
            if m["name"] == "Blue":
                m["name"] = "mr. x"
    f = tmp_path / "mx.json"
    f.write_text(json.dumps(doc))
    for args in (["check", str(f)], ["possible", str(f), "--format", "jsonl", "--weights", "uniform"]):
        r = cli(*args)
        assert r.exit_code == 2 and "detectives[1].name" in r.output + r.stderr, r.output + r.stderr


def test_a_bare_number_is_not_a_detective(cli):
    """'--detectives 3' (simulate's count) was taken as a detective 'D1' on station 3."""
    r = cli("cordon", "--around", "83", "--detectives", "3")
    assert r.exit_code == 2 and "expected NAME=STATION (e.g. Red=13), got '3'" in r.stderr
