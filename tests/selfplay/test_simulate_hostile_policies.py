"""A plug-in policy returning an odd move forfeits its game (one clear reason), never a
traceback; integer-like stations (numpy's) are played as their ints; what a policy writes to
descriptor 1 never lands in the results."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move, plain_move
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import Ticket

POLICIES = '''
import os
import numpy as np
from sy_tools.engine.moves import Move
from sy_tools.selfplay.policies import DETECTIVE_POLICIES, MRX_POLICIES

def _det(obs, rng):
    return DETECTIVE_POLICIES["random"](obs, rng)

def numpy_stations(obs, rng):
    m = _det(obs, rng)
    return Move(m.piece, m.tickets, tuple(np.int32(s) for s in m.stations))

def float_stations(obs, rng):
    m = _det(obs, rng)
    return Move(m.piece, m.tickets, tuple(s + 0.0 for s in m.stations))

def negative_station(obs, rng):
    m = _det(obs, rng)
    return Move(m.piece, m.tickets, (-3,))

def text_tickets(obs, rng):
    m = _det(obs, rng)
    return Move(m.piece, tuple(t.value for t in m.tickets), m.stations)

class Agreeable(Move):
    __slots__ = ()
    def __eq__(self, other):
        return True
    __hash__ = Move.__hash__

def agreeable(obs, rng):
    m = _det(obs, rng)
    return Agreeable(m.piece, m.tickets, (m.stations[0] % 199 + 1,))

def noisy_mrx(obs, rng):
    os.write(1, b"policy noise\\n")
    return MRX_POLICIES["random"](obs, rng)
'''


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    p = tmp_path_factory.mktemp("pol") / "odd.py"
    p.write_text(POLICIES)
    return p


def _simulate(policy_file, *args):
    return subprocess.run([sys.executable, "-m", "sy_tools", "simulate", "-n", "3", "--seed", "5", "--format", "json",
                           *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name,forfeits", [("numpy_stations", False), ("text_tickets", False),
                                           ("float_stations", True), ("negative_station", True),
                                           ("agreeable", True)])
def test_odd_moves_play_as_ints_or_forfeit(cli, policies, tmp_path, name, forfeits):
    records = tmp_path / "games"
    r = cli("simulate", "-n", "3", "--seed", "5", "--format", "json", "--detective-policy", f"{policies}:{name}",
            "--records", str(records))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["forfeits"] == (3 if forfeits else 0)
    for f in sorted(records.iterdir()):  # whatever was played was legal
        assert cli("check", str(f)).exit_code == 0


def test_numpy_stations_with_two_workers(policies):
    r = _simulate(policies, "--detective-policy", f"{policies}:numpy_stations", "--jobs", "2")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    json.loads(r.stdout)


def test_descriptor_1_of_a_policy_goes_to_stderr(policies):
    r = _simulate(policies, "--mrx-policy", f"{policies}:noisy_mrx", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 3 and "policy noise" in r.stderr


def test_problems_names_odd_values_instead_of_raising(london):
    pos = Position.start(london, PRESETS["classic"], [("Red", 13), ("Blue", 26)], mrx_at=35)
    ok = plain_move(Move(MRX, (Ticket.TAXI,), (np.int64(48),)))
    assert isinstance(ok, Move) and type(ok.stations[0]) is int and not pos.problems(ok)
    assert not pos.problems(Move(MRX, (Ticket.TAXI,), (np.int64(48),)))
    for bad, words in [((48.0,), "integer"), (("48",), "integer"), ((-1,), "negative"), ((True,), "integer"),
                       ((10**30,), "not on the map")]:
        probs = pos.problems(Move(MRX, (Ticket.TAXI,), bad))
        assert [p[0] for p in probs] == ["move-shape"] and words in probs[0][1]
    assert pos.problems(Move(MRX, ("taxy",), (48,)))[0][0] == "move-shape"
    assert pos.problems("a string")[0][0] == "move-shape"  # type: ignore[arg-type]


# ---- a plug-in can't move or corrupt the run's output (issue 44) ---------------------------------

HOSTILE = '''
import os, sys, threading, time
from sy_tools.engine.moves import Move
from sy_tools.selfplay.policies import DETECTIVE_POLICIES, MRX_POLICIES

os.write(1, b"noise at import, descriptor 1\\n")
print("noise at import, print")


def chdir_mrx(obs, rng):
    os.chdir(os.environ["HOSTILE_FOLDER"])
    return MRX_POLICIES["random"](obs, rng)


def _chatter():
    while True:
        os.write(1, b"noise from a thread, descriptor 1\\n")
        print("noise from a thread, print", flush=True)
        time.sleep(0.001)


_threads = []


def thread_mrx(obs, rng):
    if not _threads:
        _threads.append(threading.Thread(target=_chatter, daemon=True))
        _threads[0].start()
    return MRX_POLICIES["random"](obs, rng)


class BadIndex:
    def __index__(self):
        raise RuntimeError("no index for you")


def bad_index(obs, rng):
    m = DETECTIVE_POLICIES["random"](obs, rng)
    return Move(m.piece, m.tickets, (BadIndex(),))
'''


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    p = tmp_path_factory.mktemp("hostile") / "hostile.py"
    p.write_text(HOSTILE)
    return p


def _run(cwd, *args, env=None):
    from helpers import default_signals

    return subprocess.run([sys.executable, "-m", "sy_tools", "simulate", "--seed", "5", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, preexec_fn=default_signals)


def test_a_policy_that_changes_folder_moves_no_output(hostile, tmp_path):
    """Relative --out and --records were written into the folder the policy moved to, replacing
    a file there; now they land where they were asked for, and the other folder is untouched."""
    import os

    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    (elsewhere / "r.csv").write_text("precious\n")
    env = {**os.environ, "HOSTILE_FOLDER": str(elsewhere)}
    r = _run(work, "-n", "3", "--jobs", "1", "--mrx-policy", f"{hostile}:chdir_mrx", "--out", "r.csv",
             "--records", "recs", "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 3
    assert (work / "r.csv").read_text().count("\n") == 4  # the header and a row a game
    assert len(list((work / "recs").iterdir())) == 3
    assert sorted(p.name for p in elsewhere.iterdir()) == ["r.csv"] and (elsewhere / "r.csv").read_text() == "precious\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_what_a_policy_prints_at_import_or_from_a_thread_goes_to_stderr_marked(hostile, tmp_path, jobs):
    """A policy writing to descriptor 1 at import, or from a thread of its own later, broke
    ``--format json``; now stdout holds the JSON alone and each stray line is on stderr, marked."""
    from sy_tools.selfplay.stray import MARK

    r = _run(tmp_path, "-n", "6", "--jobs", jobs, "--mrx-policy", f"{hostile}:thread_mrx", "--format", "json",
             "--out", "-")
    assert r.returncode == 0, r.stderr
    rows, _, summary = r.stdout.partition("\n{")
    assert rows.startswith("game,") and rows.count("\n") == 6
    assert json.loads("{" + summary)["games"] == 6
    lines = r.stderr.splitlines()
    for text in ("noise at import, descriptor 1", "noise at import, print", "noise from a thread, descriptor 1",
                 "noise from a thread, print"):
        assert MARK + text in lines, text
    assert all(line.startswith(MARK) or not line.startswith("noise") for line in lines)


def test_a_station_whose_index_raises_is_a_forfeit(hostile, tmp_path):
    """A returned station whose ``__index__`` raised was a traceback; now each game is a forfeit
    with one line saying why."""
    out = tmp_path / "r.csv"
    r = _run(tmp_path, "-n", "3", "--jobs", "1", "--detective-policy", f"{hostile}:bad_index", "--format", "json",
             "--out", str(out))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert json.loads(r.stdout)["forfeits"] == 3
    import csv

    reasons = [row["forfeit"] for row in csv.DictReader(out.open())]
    assert len(reasons) == 3 and all("a station must be an integer" in f and "\n" not in f for f in reasons)
