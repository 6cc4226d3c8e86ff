"""The Python API checks its arguments at the boundary as the command line checks its options
(issue 44): a wrong argument is a TypeError or ValueError naming the argument and the value,
never a quiet wrong answer or an AttributeError from deep inside; numpy integers are taken
wherever an int is; every time limit is positive and finite; a library search obeys its limit
as a whole."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from helpers import REPO, default_signals

from sy_tools import check, load_record, possible
from sy_tools.analysis.reach import reach_from
from sy_tools.solvers.advise import advise_puzzle, advise_record
from sy_tools.solvers.cordon import cordon, cordon_puzzle
from sy_tools.solvers.forced import solve, solve_puzzle, solve_record

EX = REPO / "examples"


@pytest.fixture(scope="module")
def game():
    return load_record(EX / "in-progress.json")


def test_truncated_refuses_negative_and_odd_round_counts(game):
    """``truncated(-1)`` quietly dropped the last round (a slice from the end)."""
    assert len(game.truncated(0).rounds) == 0 and len(game.truncated(len(game.rounds)).rounds) == len(game.rounds)
    assert len(game.truncated(np.int64(3)).rounds) == 3
    with pytest.raises(ValueError, match=r"n_rounds must be at least 0, got -1"):
        game.truncated(-1)
    with pytest.raises(ValueError, match=rf"n_rounds must be at most {len(game.rounds)}"):
        game.truncated(len(game.rounds) + 1)
    with pytest.raises(TypeError, match=r"n_rounds must be an integer, got 2\.5"):
        game.truncated(2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"n_detective_moves must be at least 0, got -2"):
        game.truncated(2, -2)


@pytest.mark.parametrize("call", [check, possible, lambda r: cordon(r), lambda r: solve_record(r, 1),
                                  lambda r: advise_record(r, at=4)], ids=["check", "possible", "cordon", "solve",
                                                                          "advise"])
def test_a_path_where_a_record_belongs_is_a_type_error(call):
    """``check("path")`` raised AttributeError: 'str' object has no attribute 'board'."""
    with pytest.raises(TypeError, match=r"record must be a Record \(load one with sy_tools\.load_record\(path\)\), "
                                        r"got 'examples/in-progress\.json'"):
        call("examples/in-progress.json")


def test_negative_ticket_counts_are_refused(london):
    """``cordon_puzzle`` and ``reach_from`` took negative counts and answered as if they were 0."""
    with pytest.raises(ValueError, match=r"mrx_tickets\['taxi'\] must be at least 0, got -4"):
        cordon_puzzle(london, [83], [("Red", 100)], mrx_tickets={"taxi": -4})
    with pytest.raises(ValueError, match=r"detective_tickets\['bus'\] must be at least 0, got -1"):
        cordon_puzzle(london, [83], [("Red", 100)], detective_tickets={"taxi": 3, "bus": -1})
    with pytest.raises(ValueError, match=r"tickets\['taxi'\] must be at least 0, got -3"):
        reach_from(london, [13], {"taxi": -3})
    with pytest.raises(ValueError, match=r"mrx_tickets: unknown ticket kind 'taxy'"):
        solve_puzzle(london, [83], [("Red", 100)], mrx_tickets={"taxy": 4})
    with pytest.raises(TypeError, match=r"tickets\['bus'\] must be an integer, got 1\.5"):
        reach_from(london, [13], {"bus": 1.5})


def test_numpy_integers_are_stations_and_counts(london, game):
    """numpy integers were refused with a false 'station 4 is not on the map'."""
    i = np.int64
    assert advise_record(game, at=i(4), time_limit=5).summary == advise_record(game, at=4, time_limit=5).summary
    a = cordon_puzzle(london, [i(83)], [("Red", i(100)), ("Blue", np.int32(114))],
                      mrx_tickets={"taxi": i(4), "bus": 0, "underground": 0, "black": 0}, moves=2)
    b = cordon_puzzle(london, [83], [("Red", 100), ("Blue", 114)],
                      mrx_tickets={"taxi": 4, "bus": 0, "underground": 0, "black": 0}, moves=2)
    assert (a.status, a.cordon_size, a.plan) == (b.status, b.cordon_size, b.plan)
    assert type(a.plan[0].path[0]) is int
    assert reach_from(london, [i(13)], {"taxi": i(3)}) == reach_from(london, [13], {"taxi": 3})
    s = solve_puzzle(london, [i(154)], [("Red", i(185))], move_number=i(2), turns=1)
    assert s.status == "proved"
    adv = advise_puzzle(london, None, i(4), [("Red", i(13))], time_limit=5)
    assert adv.side == "mrx"
    with pytest.raises(TypeError, match=r"around: a station must be an integer, got 83\.0"):
        cordon_puzzle(london, [83.0], [("Red", 100)])  # type: ignore[list-item]


def test_top_must_be_at_least_one(game):
    """``advise_record(top=0)`` raised IndexError."""
    with pytest.raises(ValueError, match=r"top must be at least 1, got 0"):
        advise_record(game, at=4, top=0)
    assert len(advise_record(game, at=4, top=1, time_limit=5).moves) == 1


@pytest.mark.parametrize("limit", [float("nan"), float("inf"), -1.0, 0, 1e9])
def test_time_limits_must_be_positive_and_finite(game, london, limit):
    """``solve_record(..., time_limit=nan)`` or ``inf`` searched without any limit."""
    words = r"time_limit must be a positive, finite number of seconds up to 86400"
    for call in (lambda: solve_record(game, 1, time_limit=limit),
                 lambda: cordon(game, time_limit=limit),
                 lambda: advise_record(game, at=4, time_limit=limit),
                 lambda: cordon_puzzle(london, [83], [("Red", 100)], time_limit=limit),
                 lambda: solve_puzzle(london, [83], [("Red", 100)], time_limit=limit)):
        with pytest.raises(ValueError, match=words):
            call()
    from sy_tools.selfplay.game import GameSpec, check_spec

    with pytest.raises(ValueError, match="cordon_" + words):  # (self-play's cordon detectives plan with it)
        check_spec(GameSpec(cordon_time_limit=limit))


def test_no_time_limit_is_none_and_documented(game):
    """``time_limit=None`` is the forced-win search's "no limit of its own" (documented); a
    string is not a number of seconds."""
    assert "None is no limit of its own" in (solve.__doc__ or "")
    assert solve_record(game, 1, time_limit=None).status == "proved"
    with pytest.raises(TypeError, match=r"time_limit must be a number of seconds, got '5'"):
        solve_record(game, 1, time_limit="5")  # type: ignore[arg-type]


_HUGE_PLAN = """
import sys
from sy_tools import load_record
from sy_tools.solvers.cordon import cordon
try:
    cordon(load_record(sys.argv[1]), moves=1000, time_limit=2)
except ValueError as e:
    print(e)
"""


def test_a_thousand_turn_cordon_is_refused_at_once():
    """``cordon(record, moves=1000, time_limit=2)`` ran for minutes, estimating the plan's size
    turn by turn from the start each time; now the estimate stops at the first turn past the
    bound.  (In a child with a generous hang bound: the old code outlived it.)"""
    p = subprocess.run([sys.executable, "-c", _HUGE_PLAN, str(EX / "in-progress.json")], capture_output=True,
                       text=True, timeout=120, preexec_fn=default_signals)
    assert p.returncode == 0, p.stderr
    assert "--moves 1000: a 1000-turn plan weighs more than" in p.stdout and "use --moves 5 or fewer" in p.stdout


def test_a_long_expansion_stops_at_the_deadline(london, monkeypatch):
    """A cordon of many turns without detectives expanded his possible set turn after turn with
    no look at the clock; now each turn checks it (here a clock that has run out after the
    first look: unknown, nothing solved)."""
    import sy_tools.solvers.cordon_model as model

    looks = []

    def late(deadline):
        looks.append(deadline)
        if len(looks) > 1:
            raise model._OutOfTime

    monkeypatch.setattr(model, "_check_deadline", late)
    res = cordon_puzzle(london, [83], moves=500, time_limit=5)
    assert res.status == "unknown" and res.cordon_size is None and len(looks) == 2


def test_a_rules_file_is_bounded(tmp_path, cli):
    """An 8 MB rules file made ``advise --time-limit 1`` take 6-8 s (66 MB: 43 s and 1.6 GB);
    a rules file holds about 1 kB, and one past 1 MiB is refused at once, one line."""
    p = tmp_path / "big.json"
    p.write_text('{"preset": "classic"' + " " * (2 << 20) + "}")
    r = cli("advise", "--around", "154", "--detectives", "Red=185", "--rules", str(p), "--time-limit", "1")
    assert r.exit_code == 2
    assert r.stderr == f"error: {p}: is larger than 1 MiB, the most sy-tools reads from such a file\n"


def test_the_command_line_limit_counts_from_the_start(cli, monkeypatch):
    """``--time-limit`` counted from the command's body: reading a ``--rules`` file (and
    loading the solver) came on top.  Here reading the rules takes longer than the whole limit:
    the solver then has no time left, and says so."""
    import time

    import sy_tools.formats.rules_file as rules_file

    real = rules_file.load_rules

    def slow(spec, option="--rules"):
        time.sleep(0.5)
        return real(spec, option)

    monkeypatch.setattr(rules_file, "load_rules", slow)
    r = cli("cordon", "--around", "83", "--detectives", "Red=100,Blue=114,Green=82", "--moves", "2",
            "--rules", "classic", "--time-limit", "0.3", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["status"] == "unknown"  # no time left for the solver (it was 'optimal')


@pytest.mark.parametrize("side, search", [("mrx", "advise_mrx"), ("detectives", "advise_detectives")])
def test_advise_record_searches_within_the_callers_limit(game, monkeypatch, side, search):
    """``advise_record``'s search got a fresh ``time_limit`` after the record was replayed, so the
    call could take the replay's time plus the whole limit.  The search now runs under the call's
    one budget: the deadline it sees is the one set when the call began."""
    import time

    import sy_tools.solvers.advise as advise_module
    from sy_tools.engine.budget import budget_deadline

    seen: list[float | None] = []

    def spy(*args, **kwargs):
        seen.append(budget_deadline())
        raise RuntimeError("stop here")

    monkeypatch.setattr(advise_module, search, spy)
    kwargs = {"at": 4} if side == "mrx" else {"side": "detectives", "round_": len(game.rounds)}
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="stop here"):
        advise_record(game, time_limit=7, **kwargs)
    end = time.monotonic()
    assert len(seen) == 1 and seen[0] is not None and start + 7 <= seen[0] <= end + 7
