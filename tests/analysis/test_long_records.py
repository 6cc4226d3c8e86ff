"""Long legal records (a raised ``log_length``): the possible-set weights stay linear in time
and flat in memory, and ``--time-limit`` covers reading and replaying the record."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from longgames import long_game

from sy_tools.analysis import possible as possible_module
from sy_tools.analysis.possible import possible
from sy_tools.engine.budget import OutOfTime, check_time, deadline_within, time_budget
from sy_tools.formats.game_json import parse_record

_MEASURE = """
import resource, sys
sys.path.insert(0, sys.argv[2])
from longgames import long_game
from sy_tools.analysis.possible import possible
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.map_load import load_board
rec = parse_record(long_game(load_board("london"), int(sys.argv[1]), seed=7))
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
got = possible(rec)
grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
print(grew // 1024, got.route_counts is None, round(sum(got.probabilities.values()), 9))
"""


def test_paths_weights_memory_stays_flat():
    """Exact route counts of 2,500 moves grew to thousands of digits at every move, all kept
    (193 MiB more, 700 MiB at 5,000 moves: the square of the length).  Now the counts turn into
    shares past COUNT_BITS and only the last move's weights are kept (measured in a process of
    its own: its peak is ours alone)."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, "2500", str(Path(__file__).parent.parent)],
                         capture_output=True, text=True, timeout=120, check=True).stdout.split()
    assert int(out[0]) < 40, f"{out[0]} MiB more"
    assert out[1:] == ["True", "1.0"]  # more routes than 2**COUNT_BITS: no exact count to give


def test_shares_past_the_exact_limit_match_exact_counts(london, monkeypatch):
    """The same record with the limit lifted (exact integers all the way) gives the same
    probabilities, and the history agrees too."""
    rec = parse_record(long_game(london, 150, seed=4))
    exact = possible(rec, history=True)
    assert exact.route_counts is not None
    monkeypatch.setattr(possible_module, "COUNT_BITS", 40)
    monkeypatch.setattr(possible_module, "EXACT_BITS", 20)
    floats = possible(rec, history=True)
    assert floats.route_counts is None
    assert floats.probabilities == pytest.approx(exact.probabilities, rel=1e-9)
    for a, b in zip(floats.history_probabilities, exact.history_probabilities):
        assert a == pytest.approx(b, rel=1e-9)


def test_counts_stay_exact_in_a_normal_game(london):
    """A game of classic length keeps its exact integer counts (the output is unchanged)."""
    rec = parse_record(long_game(london, 24, seed=1))
    got = possible(rec)
    assert got.route_counts is not None and all(type(c) is int for c in got.route_counts.values())
    total = sum(got.route_counts.values())
    assert got.probabilities == {s: c / total for s, c in sorted(got.route_counts.items())}


def test_budget_nests_and_is_inert_outside():
    check_time()  # no budget: never raises
    with time_budget(100):
        outer = deadline_within(1000)
        with time_budget(1e-9):
            time.sleep(0.002)
            with pytest.raises(OutOfTime, match="time limit"):
                check_time()
        check_time()
    assert outer <= time.monotonic() + 100


@pytest.fixture(scope="module")
def long_file(tmp_path_factory, london):
    """An in-progress legal record of 30,000 rounds (reading and replaying it took 10 s)."""
    p = tmp_path_factory.mktemp("long") / "long.json"
    p.write_text(json.dumps(long_game(london, 30_000, seed=2)))
    return p


@pytest.mark.parametrize("command,code", [("solve", 3), ("cordon", 1), ("advise", 1)])
def test_time_limit_covers_reading_and_replaying(cli, long_file, command, code):
    """It took 18-20 s for ``--time-limit 1`` at 100,000 rounds; now one line on stderr saying the
    limit ran out (the time itself is not checked: a busy machine stretches it)."""
    before = long_file.read_bytes()
    r = cli(command, str(long_file), "--time-limit", "0.3")
    assert r.exit_code == code
    assert r.stderr.count("\n") == 1 and "the time limit (0.3 s) ran out" in r.stderr
    assert long_file.read_bytes() == before
