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
