"""cordon: --time-limit bounds the whole command, the model size is estimated before it is built,
Ctrl-C stops CP-SAT at once, and puzzle detectives are distinct pieces."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from harden_tools import ROOT, run_limited
from helpers import small_board

from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import Ticket
from sy_tools.errors import InputError
from sy_tools.solvers.cordon_model import count_options, detective_options, plan_cordon, solve_cordon
from sy_tools.solvers.cordon_result import DetectiveState

FIVE = "A=13,B=26,C=29,D=34,E=50"
TICKETS = dict(PRESETS["classic"].detective_tickets)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e309", "0", "-1", "1e6", "x"])
def test_time_limit_must_be_finite_and_positive(cli, value):
    for args in (["cordon", "--around", "1"], ["heatmap", "--layer", "cordon", "g.json"]):
        r = cli(*args, "--time-limit", value)
        assert r.exit_code == 2, (args, value, r.output)
        assert "--time-limit" in r.stderr and "seconds" in r.stderr


def test_solve_refuses_non_finite_time_limits(london):
    for bad in (float("nan"), float("inf"), 0.0):
        with pytest.raises(InputError, match="--time-limit"):
            solve_cordon(london, {1: 1}, {"taxi": 1}, time_limit=bad)


@pytest.mark.parametrize("dets, message", [
    ("Red=100,Red=114,Red=82", "detective 'Red' is named twice"),
    ("Red=100, Red =114", "detective 'Red' is named twice"),
    ("=100,Blue=114", "expected NAME=STATION"),
    ("Red=100,Blue=²", "expected NAME=STATION"),
    ("Red=100,Blue=" + "1" * 5000, "expected NAME=STATION"),
    ("Red\x00=100", "printable"),
])
def test_puzzle_detectives_are_distinct_pieces(cli, dets, message):
    r = cli("cordon", "--around", "83", "--detectives", dets, "--moves", "2")
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: --detectives: ") and message in r.stderr


def test_library_refuses_repeated_names(london):
    dets = [DetectiveState("Red", 100, TICKETS), DetectiveState("Red", 114, TICKETS)]
    with pytest.raises(InputError, match="named twice"):
        solve_cordon(london, {83: 1}, {"taxi": 4}, dets, moves=2, time_limit=5)
    with pytest.raises(InputError, match="a detective needs a name"):
        solve_cordon(london, {83: 1}, {"taxi": 4}, [DetectiveState("", 100, TICKETS)], time_limit=5)


@pytest.mark.parametrize("tickets", ["taxi=²", "taxi=" + "9" * 5000, "taxi=1,taxi=2", "taxi=-1", "taxi=١"])
def test_ticket_counts_are_plain_numbers(cli, tickets):
    for opt in ("--tickets", "--mrx-tickets"):
        r = cli("cordon", "--around", "83", "--detectives", "Red=100", opt, tickets)
        assert r.exit_code == 2 and r.stderr.startswith(f"error: {opt}: "), r.output


def test_plan_turn_order_does_not_depend_on_names(london):
    """Three detectives called Red shared one turn-order slot, so the model let them move onto
    each other's stations (and reported the illegal plan as optimal)."""
    target = {101: 1, 102: 1}
    same = [DetectiveState("Red", s, TICKETS) for s in (100, 114, 82)]
    chosen, _, status = plan_cordon(london, same, target, (Ticket.TAXI,), k=2, time_limit=10)
    assert chosen is not None and status == "optimal"
    pos = [o.path[0] for o in chosen]
    for turn in range(1, 3):
        for i, o in enumerate(chosen):
            if o.tickets[turn - 1] is not None:
                assert o.path[turn] not in pos[:i] + pos[i + 1:], (turn, i, [o.path for o in chosen])
            pos[i] = o.path[turn]


def test_count_options_matches_the_listing():
    rng = random.Random(11)
    for _ in range(30):
        board = small_board(rng)
        k = rng.randint(1, 3)
        plenty = {"taxi": k, "bus": k, "underground": k}
        few = {"taxi": rng.randint(0, 2), "bus": rng.randint(0, 1), "underground": rng.randint(0, 1)}
        for tickets in (plenty, few):
            det = DetectiveState("D", rng.choice(board.stations), tickets, rng.random() < 0.8)
            others = rng.randint(0, 4)
            listed = len(detective_options(board, det, k, others))
            counted = count_options(board, det, k, others)
            if tickets is plenty:
                assert counted == listed
            else:
                assert counted >= listed


def test_too_many_moves_refused_before_building(cli):
    t = time.perf_counter()
    r = cli("cordon", "--around", "1,2,3,4,5", "--detectives", FIVE, "--moves", "6", "--time-limit", "1")
    assert r.exit_code == 2 and "6-turn plan weighs about" in r.stderr and "use --moves 4 or fewer" in r.stderr
    assert time.perf_counter() - t < 5


def test_time_limit_bounds_the_whole_command():
    """--moves 5 --time-limit 1 took 64 s and 3.2 GB on a record; --moves 4 here took 3 s."""
    r = run_limited(["cordon", "--around", "1,2,3,4,5", "--detectives", FIVE, "--moves", "4", "--time-limit", "1"],
                    timeout=60, mem_mb=2500)
    assert r.code == 0, r.stderr[-500:]
    assert r.seconds < 1 + 2.5, r.seconds  # the limit plus interpreter start-up and imports
    solver_line = r.stdout.strip().splitlines()[-1]
    assert float(solver_line.split(", ")[-1].rstrip(" s")) < 1.3


def test_past_deadline_plan_is_unknown(london):
    dets = [DetectiveState(n, s, TICKETS) for n, s in zip("ABCDE", (13, 26, 29, 34, 50))]
    t = time.perf_counter()
    chosen, duty, status = plan_cordon(london, dets, {1: 1, 2: 1}, (), k=3, time_limit=10,
                                       deadline=time.monotonic() - 1)
    assert (chosen, duty, status) == (None, [], "unknown") and time.perf_counter() - t < 2


def test_ctrl_c_stops_the_solver_at_once():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "sy_tools", "cordon", "--around", "1,2,3,4,5", "--detectives", FIVE,
                          "--moves", "4", "--time-limit", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    time.sleep(3.5)  # model built, CP-SAT searching (it runs to the limit on this one)
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert time.monotonic() - t < 1.0
    assert p.returncode == 130, (p.returncode, err)
    assert "Traceback" not in err and err.strip() == "error: interrupted"
    assert out == ""


def test_keyboard_interrupt_anywhere_is_exit_130(cli, monkeypatch):
    import sy_tools.formats.map_check as map_check

    def interrupted(*a, **k):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(map_check, "validate_map", interrupted)
    r = cli("validate", "london")
    assert r.exit_code == 130 and r.stderr.strip() == "error: interrupted"
