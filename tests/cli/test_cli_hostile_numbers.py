"""Numbers from hostile text: ASCII digits only wherever a station is read, one bound for a
puzzle's ``--move-number``, ticket counts the notation can read back; and ``simulate --out``
to standard output gets CSV, as a device does."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import REPO

EX = REPO / "examples"


@pytest.mark.parametrize("args", [
    ("moves", str(EX / "in-progress.json"), "--at", "４"),
    ("moves", str(EX / "in-progress.json"), "--at", "٤"),
    ("map", "neighbours", "١"),
    ("simulate", "-n", "1", "--starts", "１６６"),
    ("possible", str(EX / "in-progress.json"), "--round", "３"),
    ("solve", "--around", "154", "--detectives", "Red=185", "--move-number", "３"),
])
def test_other_scripts_digits_are_refused(cli, args):
    r = cli(*args)
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr


@pytest.mark.parametrize("command", ["solve", "advise", "cordon"])
@pytest.mark.parametrize("number", ["24", str(10**20)])
def test_move_number_bound_is_shared(cli, command, number):
    r = cli(command, "--around", "83", "--detectives", "Red=100", "--move-number", number, "--time-limit", "2")
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: --move-number: expected a move number from 0 to 23, got {number}\n"


def test_ticket_counts_the_notation_cannot_read_are_refused(cli, tmp_path):
    """Taxi tickets 2**63 passed ``check`` and converted to text that failed to read back."""
    doc = json.loads((EX / "capture.json").read_text())
    doc["mrx"]["tickets"] = {"taxi": 2**63}
    p = tmp_path / "big.json"
    p.write_text(json.dumps(doc))
    r = cli("check", str(p))
    assert r.exit_code == 2
    assert r.stderr == (f"error: {p}: mrx.tickets.taxi: expected at most 999999999999999999 tickets (18 digits), "
                        f"got {2**63}\n")
    doc["mrx"]["tickets"] = {"taxi": 10**18 - 1}  # the most there is: written and read back
    p.write_text(json.dumps(doc))
    assert cli("record", "convert", str(p), str(tmp_path / "big.txt")).exit_code == 0
    assert cli("check", str(tmp_path / "big.txt")).exit_code == 0
    assert "999999999999999999" in (tmp_path / "big.txt").read_text()


@pytest.mark.parametrize("out", ["/dev/stdout", "-"])
def test_simulate_rows_to_standard_output(tmp_path, out):
    log = tmp_path / "log"
    log.write_text("precious\n")
    with open(log, "ab") as f:
        r = subprocess.run([sys.executable, "-m", "sy_tools", "simulate", "-n", "2", "--seed", "3", "--out", out,
                            "--format", "json"], stdout=f, stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = log.read_text().splitlines()
    assert lines[0] == "precious" and lines[1].startswith("game,seed,") and len(lines) >= 4


def test_other_scripts_digits_in_a_map_or_a_size_are_refused(cli, tmp_path):
    pair = tmp_path / "pair"
    assert cli("map", "convert", "london", str(pair), "--to", "pair").exit_code == 0
    lines = (pair / "stations.txt").read_text().splitlines()
    assert lines[1].startswith("2 487 20 ")
    lines[1] = lines[1].replace("2 487 20 ", "2 ４８７ 20 ")
    (pair / "stations.txt").write_text("\n".join(lines) + "\n")
    r = cli("validate", str(pair))
    assert r.exit_code != 0 and "x must be a finite number, got '４８７'" in r.output + r.stderr
    r = cli("heatmap", str(EX / "in-progress.json"), "--size", "１６x12", "-o", str(tmp_path / "a.png"))
    assert r.exit_code == 2 and "--size" in r.stderr and not (tmp_path / "a.png").exists()
