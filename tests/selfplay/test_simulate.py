"""simulate: self-play on the Position engine (library and CLI).

`sy-tools simulate` against hostile input: outputs never replace inputs or old results on a
failed run, user policies cannot end or corrupt the run, workers end with it, bad options are one
line."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import default_signals
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sy_tools.analysis.distances import distances
from sy_tools.analysis.referee import check
from sy_tools.engine.observations import DetectiveObservation
from sy_tools.engine.playout import random_playout
from sy_tools.engine.position import Position, draw
from sy_tools.engine.rules import PRESETS, rules_from_json
from sy_tools.engine.tickets import Ticket
from sy_tools.errors import InputError
from sy_tools.formats.game_json import parse_record
from sy_tools.selfplay.game import GameSpec, game_rng, rules_json
from sy_tools.selfplay.generate import random_game
from sy_tools.selfplay.runner import simulate
from sy_tools.selfplay.stats import Summary, wilson

CLASSIC = PRESETS["classic"]


def _rules(rng: random.Random):
    return dataclasses.replace(
        CLASSIC, trapped_loses=rng.random() < 0.5, double_moves_per_round=rng.choice([0, 1, 1]),
        log_length=rng.choice([5, 24, 24]), tickets_to_mrx=rng.random() < 0.8,
        double_moves_per_game=rng.choice([0, 1, 2]))


# ---- the engine's counting and its fast playout ------------------------------------------------


def test_legal_move_count_and_at_agree_with_legal_moves(london):
    rng = random.Random(5)
    for _ in range(60):
        rules = _rules(rng)
        st = rng.sample(london.stations, 6)
        p = Position.start(london, rules, list(zip("RBGYK", st[:5])), mrx_at=st[5])
        while not p.is_over():
            moves = p.legal_moves()
            assert p.legal_move_count() == len(moves)
            assert [p.legal_move_at(k) for k in range(len(moves))] == moves
            if p.turn == 0:
                assert p.mrx_single_moves() == [m for m in moves if len(m.tickets) == 1]
            if not moves:
                break
            p = p.push(rng.choice(moves))


def test_random_playout_equals_the_reference_position_loop(london):
    """The list-based playout makes exactly the moves and ends exactly where stepping
    Position.push with the same draws does, under varied rules (passes, no doubles, short logs)."""
    rng = random.Random(7)
    kinds = set()
    for _ in range(300):
        rules = _rules(rng)
        nd = rng.randint(1, 5)
        st = rng.sample(london.stations, nd + 1)
        start = Position.start(london, rules, list(zip("RBGYK", st[:nd])), mrx_at=st[nd])
        if rng.random() < 0.3 and start.legal_moves():  # start mid-round, a detective to move
            start = start.push(rng.choice(start.legal_moves()))
        seed = rng.getrandbits(32)
        fast = random_playout(start, random.Random(seed))
        r2, p, moves = random.Random(seed), start, []
        while not p.is_over():
            n = p.legal_move_count()
            if n == 0:
                p = p.declare_trapped(p.mrx_at)
                continue
            m = p.legal_move_at(draw(r2, n))
            moves.append(m)
            p = p.push(m)
        assert fast.to_moves() == moves
        assert fast.final.ended == p.ended
        for f in ("stations", "tickets", "out", "mrx_tickets", "mrx_at", "move", "round", "doubles", "turn"):
            assert getattr(fast.final, f) == getattr(p, f), f
        kinds.add(p.ended.kind.value)
        kinds.update("pass" for m in moves if m.is_pass)
    assert {"capture", "trapped", "detectives-stuck", "log-full", "pass"} <= kinds


# ---- issue 9: the simulator honours every rule field ----------------------------------------------


def test_no_double_moves_when_the_rules_allow_none(london):
    rules = rules_from_json({"preset": "classic", "double_moves_per_round": 0})
    spec = GameSpec(rules=rules, records=True)
    res = simulate(spec, 30, jobs=1)
    for g in res.games:
        assert all(len(r["mrx"]) <= 1 for r in g.record["rounds"])
        verdict = check(parse_record(g.record))
        assert verdict.legal, verdict.errors[:1]
        assert verdict.status.reason == g.reason
    assert sum(g.mrx_tickets_used[4] for g in res.games) == 0
    # random_game too
    for seed in range(10):
        doc = random_game(london, rules, random.Random(seed), double_chance=1.0)
        assert all(len(r["mrx"]) <= 1 for r in doc["rounds"])


def test_records_keep_every_rule_override(london):
    rules = rules_from_json({"preset": "2014", "log_length": 10, "tickets_to_mrx": False,
                             "reveal_moves": [2, 5, 9], "mrx_tickets": {"black": 2}})
    doc = random_game(london, rules, random.Random(1))
    assert doc["rules"] == {"preset": "2014", "mrx_tickets": {"taxi": 4, "bus": 3, "underground": 3, "black": 2,
                                                              "double": 2},
                            "tickets_to_mrx": False, "reveal_moves": [2, 5, 9], "log_length": 10}
    assert parse_record(doc).rules == rules
    assert rules_json(CLASSIC) == "classic"
    g = simulate(GameSpec(rules=rules, records=True), 1, jobs=1).games[0]
    assert parse_record(g.record).rules == rules


def test_trapped_mrx_passes_when_trapped_does_not_lose(london):
    """Mr. X with one ticket and none handed over is trapped after his first move: under
    trapped_loses false he passes (an empty "mrx" list) and the game goes on."""
    over = {"preset": "classic", "mrx_tickets": {"taxi": 1, "bus": 0, "underground": 0, "black": 0, "double": 0},
            "tickets_to_mrx": False}
    loses = rules_from_json(over)
    passes = rules_from_json({**over, "trapped_loses": False})
    doc = random_game(london, passes, random.Random(3), n_detectives=2, hunt_chance=0.0)
    assert [r["mrx"] for r in doc["rounds"][1:4]] == [[], [], []]
    assert len(doc["rounds"]) > 2
    res = simulate(GameSpec(rules=passes, detectives=2), 40, jobs=1)
    assert res.summary.reasons["trapped"] == 0 and res.summary.mrx_wins > 0
    assert all(g.rounds > 2 for g in res.games if g.reason != "capture")
    res = simulate(GameSpec(rules=loses, detectives=2), 40, jobs=1)
    assert res.summary.reasons["trapped"] > 30


# ---- records the referee accepts -------------------------------------------------------------------


@pytest.mark.parametrize("mrx,det", [("random", "random"), ("greedy", "greedy"), ("random", "greedy")])
def test_records_are_legal_with_the_same_outcome(cli, tmp_path, mrx, det):
    out = tmp_path / "rows.csv"
    r = cli("simulate", "-n", "12", "--seed", "4", "--mrx-policy", mrx, "--detective-policy", det, "--jobs", "1",
            "--records", str(tmp_path / "rec"), "--out", str(out))
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 12
    for row in rows:
        path = tmp_path / "rec" / f"game-{int(row['game']):07d}.json"
        c = cli("check", str(path), "--format", "json")
        assert c.exit_code == 0, c.output
        status = json.loads(c.output)["status"]
        assert status["reason"] == row["reason"]
        assert status["state"] == f"{row['winner']}-won"


def test_cordon_detectives_play_legal_games(tmp_path):
    res = simulate(GameSpec(mrx_policy="greedy", detective_policy="cordon", records=True, seed=1), 2, jobs=1)
    for g in res.games:
        verdict = check(parse_record(g.record))
        assert verdict.legal and verdict.status.reason == g.reason


# ---- what a detective policy sees ----------------------------------------------------------------


SEEN: list[DetectiveObservation] = []


def peeking_detective(obs, rng):
    SEEN.append(obs)
    return obs.legal_moves[0]


def _reachable(obj, seen=None):
    """Every value reachable from ``obj`` through data: dataclass fields, containers."""
    seen = set() if seen is None else seen
    stack = [obj]
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, (int, str, float, bool, type(None), Ticket)):
            continue
        seen.add(id(x))
        yield x
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (tuple, list, set, frozenset)):
            stack.extend(x)


def test_a_detective_policy_cannot_see_mrx(london):
    SEEN.clear()
    spec = GameSpec(mrx_policy="greedy", detective_policy=f"{__name__}:peeking_detective", seed=3, detectives=3)
    simulate(spec, 3, jobs=1)
    assert SEEN
    names = {f.name for f in dataclasses.fields(DetectiveObservation)}
    assert not names & {"mrx_at", "position", "station_of_mrx"}
    for obs in SEEN[:40]:
        for x in _reachable(obs):
            assert not isinstance(x, Position)
            assert not hasattr(x, "mrx_at")


def test_possible_set_is_consistent_with_the_truth(london):
    """The possible set the detectives get always contains Mr. X's true station (checked by a
    policy that is handed the truth out of band, for the test only)."""
    truth: dict[str, int] = {}

    def mrx(obs, rng):
        move = obs.legal_moves[draw(rng, len(obs.legal_moves))]
        truth["at"] = move.to if move.to is not None else obs.position.mrx_at
        return move

    def det(obs, rng):
        assert obs.possible >> truth["at"] & 1
        return obs.legal_moves[draw(rng, len(obs.legal_moves))]

    import sys
    import types

    mod = types.ModuleType("sy_test_truth")
    mod.mrx, mod.det = mrx, det  # type: ignore[attr-defined]
    sys.modules["sy_test_truth"] = mod
    try:
        simulate(GameSpec(mrx_policy="sy_test_truth:mrx", detective_policy="sy_test_truth:det", seed=9), 20, jobs=1)
    finally:
        del sys.modules["sy_test_truth"]


# ---- determinism and scale-out --------------------------------------------------------------------


def test_each_game_depends_on_seed_and_index_only():
    spec = GameSpec(mrx_policy="greedy", detective_policy="random", seed=11)
    a = simulate(spec, 30, jobs=1).games
    b = simulate(spec, 30, jobs=2, chunk_size=4).games
    assert a == b
    c = simulate(dataclasses.replace(spec, seed=12), 30, jobs=1).games
    assert a != c
    assert game_rng(1, 2).random() == game_rng(1, 2).random() != game_rng(2, 1).random()


def test_jobs_1_and_2_write_the_same_rows(cli, tmp_path):
    for j in ("1", "2"):
        r = cli("simulate", "-n", "200", "--seed", "3", "--jobs", j, "--out", str(tmp_path / f"j{j}.csv"))
        assert r.exit_code == 0
    assert (tmp_path / "j1.csv").read_text() == (tmp_path / "j2.csv").read_text()


def test_dask_cluster_gives_the_same_games(cli, tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        spec = GameSpec(mrx_policy="greedy", detective_policy="random", seed=2)
        remote = simulate(spec, 24, scheduler=cluster.scheduler_address, chunk_size=5).games
        r = cli("simulate", "-n", "60", "--seed", "2", "--scheduler", cluster.scheduler_address,
                "--out", str(tmp_path / "d.csv"))
        assert r.exit_code == 0, r.output
    assert remote == simulate(spec, 24, jobs=1).games
    cli("simulate", "-n", "60", "--seed", "2", "--jobs", "1", "--out", str(tmp_path / "l.csv"))
    assert (tmp_path / "d.csv").read_text() == (tmp_path / "l.csv").read_text()


# ---- results --------------------------------------------------------------------------------------


def test_wilson_interval():
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-5) and hi == pytest.approx(0.59617, abs=1e-5)


def test_summary_quartiles_and_frame_agree_with_pandas():
    import numpy as np

    res = simulate(GameSpec(seed=8), 301, jobs=1)
    df = res.to_frame()
    assert len(df) == 301 and list(df.columns)[:4] == ["game", "seed", "mrx_policy", "detective_policy"]
    s = res.summary
    assert s.mrx_wins == int(df["mrx_won"].sum())
    for q in (0.25, 0.5, 0.75):
        assert s.rounds_quantile(q) == pytest.approx(float(np.percentile(df["rounds"], q * 100)))
    assert s.rounds_mean() == pytest.approx(df["rounds"].mean())
    by = df.groupby("mrx_start")["mrx_won"].mean()
    assert {k: v[1] for k, v in res.win_rate_by_start().items()} == pytest.approx(by.to_dict())
    assert sum(v.games for v in res.by_start.values()) == 301
    d = res.to_dict(by_start=True)
    assert d["games"] == 301 and sum(d["reasons"].values()) == 301 and len(d["by_start"]) == len(res.by_start)
    empty = Summary()
    assert empty.win_rate == 0 and empty.rounds_quantile(0.5) == 0


def test_greedy_detectives_beat_random_ones():
    rr = simulate(GameSpec(seed=1), 200, jobs=1).summary
    rg = simulate(GameSpec(detective_policy="greedy", seed=1), 100, jobs=1).summary
    gr = simulate(GameSpec(mrx_policy="greedy", seed=1), 60, jobs=1).summary
    assert rg.interval[1] < rr.interval[0] < rr.interval[1] < gr.interval[0]


def test_distance_table(london):
    d = distances(london)
    assert d[74][46] == 1 and d[74][74] == 0 and d[1][8] == 1
    assert all(d[a][b] == d[b][a] for a in (1, 74, 199) for b in (13, 46, 108))


def test_starts_list_and_by_start(cli):
    r = cli("simulate", "-n", "40", "--starts", "166,146", "--by", "start", "--format", "csv", "--jobs", "1")
    assert r.exit_code == 0
    rows = list(csv.DictReader(r.output.splitlines()))
    assert [row["start"] for row in rows] == ["146", "166"]
    assert sum(int(row["games"]) for row in rows) == 40
    j = json.loads(cli("simulate", "-n", "5", "--starts", "166", "--format", "json", "--jobs", "1").output)
    assert j["games"] == 5 and j["spec"]["starts"] == [166]
    t = cli("simulate", "-n", "5", "--jobs", "1").output
    assert "Mr. X wins" in t and "95% CI" in t


def test_parquet_rows(cli, tmp_path):
    pytest.importorskip("pyarrow")
    import pandas as pd

    assert cli("simulate", "-n", "50", "--out", str(tmp_path / "r.parquet"), "--jobs", "1").exit_code == 0
    cli("simulate", "-n", "50", "--out", str(tmp_path / "r.csv"), "--jobs", "1")
    from sy_tools.selfplay.results import win_rates_from_file

    assert win_rates_from_file(str(tmp_path / "r.parquet")) == win_rates_from_file(str(tmp_path / "r.csv"))
    res = simulate(GameSpec(), 50, jobs=1)
    assert win_rates_from_file(str(tmp_path / "r.csv")) == res.win_rate_by_start()
    a = pd.read_parquet(tmp_path / "r.parquet")
    b = pd.read_csv(tmp_path / "r.csv", keep_default_na=False)
    assert a["winner"].tolist() == b["winner"].tolist() and a["rounds"].tolist() == b["rounds"].tolist()
    assert len(a) == 50


# ---- bad input: one line, exit 2, never a traceback ------------------------------------------------------


BOT = """
def crash(obs, rng):
    if obs.round >= 3:
        raise RuntimeError("boom")
    return obs.legal_moves[0]

def cheat(obs, rng):
    return obs.legal_moves[0].__class__(obs.to_move, obs.legal_moves[0].tickets, (obs.stations[0] % 199 + 1,))

def onto_detective(obs, rng):
    from sy_tools.engine.moves import Move
    return Move.mrx(("taxi", obs.position.stations[0]))

NOT_CALLABLE = 3
"""


def test_forfeits_are_counted_and_the_rest_go_on(cli, tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    r = cli("simulate", "-n", "6", "--detective-policy", f"{bot}:crash", "--format", "json", "--jobs", "1",
            "--out", str(tmp_path / "f.csv"))
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)  # (stderr: one warning line per kind of forfeit)
    assert d["forfeits"] + d["reasons"]["capture"] + d["reasons"]["trapped"] == 6 and d["forfeits"] > 0
    rows = list(csv.DictReader((tmp_path / "f.csv").open()))
    f = [row for row in rows if row["reason"] == "forfeit"]
    assert f and f[0]["winner"] == "mrx"
    assert "detectives policy" in f[0]["forfeit"] and "RuntimeError: boom" in f[0]["forfeit"]
    r = cli("simulate", "-n", "3", "--detective-policy", f"{bot}:cheat", "--format", "json", "--jobs", "1")
    assert r.exit_code == 0 and json.loads(r.stdout)["forfeits"] >= 2
    res = simulate(GameSpec(detective_policy=f"{bot}:cheat"), 1, jobs=1).games[0]
    assert res.reason == "forfeit" and "illegal move" in (res.forfeit or "")
    res = simulate(GameSpec(mrx_policy=f"{bot}:onto_detective"), 1, jobs=1).games[0]
    assert res.reason == "forfeit" and res.winner == "detectives" and res.rounds == 0
    assert "mrx policy" in (res.forfeit or "") and "onto a detective" in (res.forfeit or "")


@pytest.mark.parametrize("args,message", [
    (["--mrx-policy", "nope"], "error: --mrx-policy: unknown policy 'nope': expected one of random, greedy, "
                               "advise, mcts, evasive, twoply, mcts-1000, level-easy, level-normal, level-hard, openspiel-ismcts, openspiel-mcts, "
                               "module:function or file.py:function"),
    (["--detective-policy", "nosuchmodule_xyz:f"], "error: --detective-policy: nosuchmodule_xyz:f: cannot import "
                                                   "'nosuchmodule_xyz': ModuleNotFoundError: No module named "
                                                   "'nosuchmodule_xyz'"),
    (["--detective-policy", "os:nothing_here"], "error: --detective-policy: os:nothing_here: 'os' has no "
                                                "'nothing_here'"),
    (["--mrx-policy", "os:sep"], "error: --mrx-policy: os:sep: 'sep' is not callable"),
    (["--mrx-policy", "cordon"], "error: --mrx-policy: unknown policy 'cordon': expected one of random, greedy, "
                                 "advise, mcts, evasive, twoply, mcts-1000, level-easy, level-normal, level-hard, openspiel-ismcts, openspiel-mcts, "
                                 "module:function or file.py:function"),
    (["--starts", "12,x"], "error: --starts: expected classic, 2014 or stations like 166,146, got '12,x'"),
    (["--starts", "300"], "error: --starts: station 300 is not on the map 'london'"),
    (["--rules", "nosuch"], "error: --rules: unknown rules preset 'nosuch' and no such file (presets: classic, 2014)"),
    (["--out", "x.txt"], "error: x.txt: --out must end in .csv or .parquet"),
    (["--records", "/etc/passwd"], "error: /etc/passwd: --records: expected a folder for the records, but this is a file"),
])
def test_bad_input_is_one_line(cli, args, message):
    r = cli("simulate", "-n", "2", "--jobs", "1", *args)
    assert r.exit_code == 2
    assert r.stderr.strip() == message


def test_bad_user_module_and_file(cli, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("raise ValueError('bad bot')\n")
    r = cli("simulate", "-n", "2", "--mrx-policy", f"{broken}:f")
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: --mrx-policy: {broken}:f: cannot import '{broken}': ValueError: bad bot"
    r = cli("simulate", "-n", "2", "--mrx-policy", f"{tmp_path / 'none.py'}:f")
    assert r.exit_code == 2 and "no such file" in r.stderr


def test_rules_file(cli, tmp_path):
    f = tmp_path / "rules.json"
    f.write_text(json.dumps({"preset": "classic", "double_moves_per_round": 0}))
    r = cli("simulate", "-n", "5", "--rules", str(f), "--format", "json", "--jobs", "1")
    assert r.exit_code == 0
    assert json.loads(r.output)["spec"]["rules"] == {"preset": "classic", "double_moves_per_round": 0}
    f.write_text(json.dumps({"preset": "classic", "nope": 1}))
    r = cli("simulate", "-n", "5", "--rules", str(f))
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: {f}: rules.nope: unknown rule 'nope' (expected one of black_per_detective, ")
    assert len(r.stderr.strip().splitlines()) == 1


def test_scheduler_without_dask_or_unreachable(cli, monkeypatch):
    r = cli("simulate", "-n", "2", "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 2
    assert r.stderr.startswith("error: --scheduler: cannot reach the dask scheduler at tcp://127.0.0.1:9: ")
    assert len(r.stderr.strip().splitlines()) == 1
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)
    r = cli("simulate", "-n", "2", "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: --scheduler needs dask.distributed: pip install 'sy-tools[cluster]'"


def test_parquet_without_pyarrow(cli, monkeypatch, tmp_path):
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)
    r = cli("simulate", "-n", "2", "--out", str(tmp_path / "r.parquet"))
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"error: {tmp_path / 'r.parquet'}: writing .parquet needs pyarrow: "
                                "pip install 'sy-tools[parquet]' (or use .csv)")


def test_example_records_dir(tmp_path: Path, cli):
    r = cli("simulate", "-n", "3", "--records", str(tmp_path), "--jobs", "1")
    assert r.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-0000000.json", "game-0000001.json",
                                                          "game-0000002.json"]


@pytest.mark.parametrize("mrx,to_mrx", [("random", True), ("random", False), ("greedy", True)])
def test_ticket_columns_count_the_record(mrx, to_mrx):
    rules = dataclasses.replace(CLASSIC, tickets_to_mrx=to_mrx)
    for g in simulate(GameSpec(mrx_policy=mrx, records=True, seed=6, rules=rules), 15, jobs=1).games:
        legs = [m["ticket"] for r in g.record["rounds"] for m in r["mrx"]]
        dets = [m["ticket"] for r in g.record["rounds"] for m in r["detectives"]]
        assert g.mrx_tickets_used == (*(legs.count(k) for k in ("taxi", "bus", "underground", "black")),
                                      sum(len(r["mrx"]) == 2 for r in g.record["rounds"]))
        assert g.detective_tickets_used == tuple(dets.count(k) for k in ("taxi", "bus", "underground"))
        assert g.mrx_moves == len(legs) and g.rounds == len(g.record["rounds"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["--mrx-policy", "--detective-policy", "--starts", "--rules", "--map", "--out"]),
       value=st.text(st.characters(blacklist_categories=["Cs", "Cc", "Zl", "Zp"]), min_size=1, max_size=12))
def test_odd_option_values_never_give_a_traceback(cli, tmp_path, option, value):
    if option == "--out":
        value = str(tmp_path / value.replace("/", "_"))
    r = cli("simulate", "-n", "1", "--jobs", "1", option, value)
    assert r.exit_code in (0, 2)
    if r.exit_code == 2:
        assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1


def test_fast_paths_fall_back_for_rule_fields_they_do_not_model(london, monkeypatch):
    """With a rule field declared unmodelled, counting lists the engine's moves and the playout
    steps Position by Position: the same games either way; the simulator refuses such rules."""
    import sy_tools.engine.rules as position

    rng = random.Random(3)
    cases = []
    for _ in range(40):
        rules = _rules(rng)
        st = rng.sample(london.stations, 4)
        cases.append((Position.start(london, rules, list(zip("RBG", st[:3])), mrx_at=st[3]), rng.getrandbits(32)))
    fast = [random_playout(p, random.Random(seed)) for p, seed in cases]
    monkeypatch.setattr(position, "COUNTED_RULE_FIELDS", position.COUNTED_RULE_FIELDS - {"trapped_loses", "log_length",
                                                                                         "double_moves_per_round"})
    slow = [random_playout(p, random.Random(seed)) for p, seed in cases]
    assert any(not position.counting_models(p.rules) for p, _ in cases)
    for a, b in zip(fast, slow):
        assert a.moves == b.moves and a.final.ended == b.final.ended
    odd = dataclasses.replace(CLASSIC, log_length=5)
    with pytest.raises(InputError, match="does not handle the rule field"):
        simulate(GameSpec(rules=odd), 1, jobs=1)


def test_the_detectives_view_keeps_voluntary_reveals_and_the_ticket_taken(london):
    """A voluntary reveal is seen by the detectives: their record keeps the station and the
    ticket he took, so it replays with the same tickets and outcome as the full record (the
    view once dropped both)."""
    from sy_tools.analysis.possible import possible
    from sy_tools.selfplay.generate import detectives_view, random_game

    rules = rules_from_json({"preset": "classic", "voluntary_reveal": True})
    reveals = 0
    for seed in range(40):
        doc = random_game(london, rules, random.Random(seed), n_detectives=3)
        shown = [m for rnd in doc["rounds"] for m in rnd["mrx"] if m.get("shown")]
        if not shown:
            continue
        reveals += len(shown)
        full, view = check(parse_record(doc)), check(parse_record(detectives_view(doc, rules)))
        assert view.legal and view.tickets == full.tickets, seed
        assert view.status.describe() == full.status.describe()
        p = possible(parse_record(detectives_view(doc, rules)))
        last = [m["to"] for rnd in doc["rounds"] for m in rnd["mrx"]]
        if p.capture is None and last:
            assert last[-1] in p.stations
    assert reveals >= 10


def test_cordon_detectives_plan_with_the_games_rules(london):
    """The cordon policy seals by the rules in play: under the cut-off escape Red on 58 closes
    Mr. X's only line out of 74 (underground to 46 passes over 58), which classic rules ignore."""
    from sy_tools.engine.stations import mask_of
    from sy_tools.selfplay.policies import _cordon_plan
    from sy_tools.solvers.advise import advise_puzzle_position as puzzle_position

    plain = rules_from_json({"preset": "classic", "tickets_to_mrx": False})
    cut = rules_from_json({"preset": "classic", "tickets_to_mrx": False, "cutoff_escape": True})
    plans = {}
    for name, rules in (("plain", plain), ("cut", cut)):
        pos, S = puzzle_position(london, [74], None, [("Red", 57)], "detectives", None, {"underground": 2}, 0, rules)
        obs = DetectiveObservation.of(pos, mask_of([74]))
        plans[name] = _cordon_plan(obs, 5.0)
    assert plans["cut"]["Red"].stations == (58,)
    assert "Red" not in plans["plain"] or plans["plain"]["Red"].stations != (58,)


def test_wilson_ends_are_exact():
    from sy_tools.selfplay.stats import wilson

    for n in (1, 3, 7, 18, 1000):
        assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
    low, high = wilson(5, 20)
    assert 0.11 < low < 0.12 and 0.46 < high < 0.47  # 25%: [11.2%, 46.9%]


# ---- simulate_hardening ------------------------------------------------------------

BOTS = '''
import os, sys
from sy_tools.selfplay.policies import random_detective, random_mrx

def sys_exit(obs, rng):
    sys.exit(3)

def os_exit(obs, rng):
    os._exit(4)

class BadRepr:
    def __repr__(self):
        raise ValueError("no repr")

def bad_repr(obs, rng):
    return BadRepr()

class BadStr(Exception):
    def __str__(self):
        raise ValueError("no str")

def bad_str(obs, rng):
    raise BadStr()

def chatty(obs, rng):
    print("HELLO FROM A POLICY")
    return random_mrx(obs, rng)

def interrupt(obs, rng):
    raise KeyboardInterrupt

def slow(obs, rng):
    x = 0
    for i in range(3 * 10**6):
        x += i
    return random_detective(obs, rng)
'''

SMALL_MAP = {"name": "tiny", "stations": [{"id": i} for i in range(1, 9)],
             "connections": [{"a": i, "b": i % 8 + 1, "transport": "taxi"} for i in range(1, 9)]}


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    p = tmp_path / "bots.py"
    p.write_text(BOTS)
    return p


def _one_line(r, code: int = 2) -> str:
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def _no_temp(folder: Path) -> None:
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


# ---- 1. --out: checked first, written to a temp file, never over an input -----------------------


@pytest.mark.parametrize("ext", ["csv", "parquet"])
@pytest.mark.parametrize("bad", [["--starts", "999"], ["--mrx-policy", "nope"], ["--map", "no-such-map.json"]])
def test_a_failed_run_leaves_the_old_out_file(cli, tmp_path, ext, bad):
    out = tmp_path / f"old.{ext}"
    out.write_bytes(b"precious")
    _one_line(cli("simulate", "-n", "3", "--jobs", "1", "--out", str(out), *bad))
    assert out.read_bytes() == b"precious"
    _no_temp(tmp_path)


def test_an_interrupted_run_leaves_the_old_out_file(cli, tmp_path, bots):
    out = tmp_path / "old.csv"
    out.write_text("precious")
    r = cli("simulate", "-n", "3", "--jobs", "1", "--out", str(out), "--mrx-policy", f"{bots}:interrupt")
    assert _one_line(r, 130) == "error: interrupted"
    assert out.read_text() == "precious"
    _no_temp(tmp_path)


def test_out_through_a_symlink_replaces_the_file_it_names(cli, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    r = cli("simulate", "-n", "3", "--jobs", "1", "--out", str(link))
    assert r.exit_code == 0
    assert link.is_symlink() and len(list(csv.DictReader(real.open()))) == 3
    _no_temp(tmp_path)


def test_out_never_replaces_an_input(cli, tmp_path, bots):
    m = tmp_path / "tiny.json"
    m.write_text(json.dumps(SMALL_MAP))
    rules = tmp_path / "rules.csv"
    rules.write_text(json.dumps({"preset": "classic", "double_moves_per_round": 0}))
    for args, victim in [(["--map", str(m), "--detective-count", "2"], m), (["--rules", str(rules)], rules),
                         (["--mrx-policy", f"{bots}:chatty"], bots)]:
        before = victim.read_bytes()
        out = victim if victim.suffix == ".csv" else tmp_path / "alias.csv"
        if out != victim:
            out.unlink(missing_ok=True)
            out.symlink_to(victim)
        r = cli("simulate", "-n", "2", "--jobs", "1", "--out", str(out), *args)
        assert "refusing to overwrite an input" in _one_line(r)
        assert victim.read_bytes() == before


def test_empty_out_is_an_error(cli):
    assert _one_line(cli("simulate", "-n", "2", "--out", "")) == (
        "error: --out: expected a file name ending in .csv or .parquet, got ''")


# ---- 2. --records never writes over an input --------------------------------------------------


def test_records_never_replace_an_input(cli, tmp_path):
    rec = tmp_path / "recs"
    rec.mkdir()
    rules = rec / "game-0000001.json"
    rules.write_text(json.dumps({"preset": "classic"}))
    r = cli("simulate", "-n", "3", "--jobs", "1", "--rules", str(rules), "--records", str(rec))
    assert "refusing to overwrite an input" in _one_line(r)
    assert json.loads(rules.read_text()) == {"preset": "classic"}
    assert sorted(p.name for p in rec.iterdir()) == ["game-0000001.json"]
    # a record the run does not write may share the folder
    r = cli("simulate", "-n", "1", "--jobs", "1", "--rules", str(rules), "--records", str(rec))
    assert r.exit_code == 0


# ---- 3. a policy that exits ---------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sys_exit_in_a_policy_is_a_forfeit(cli, bots, jobs):
    r = cli("simulate", "-n", "3", "--jobs", jobs, "--mrx-policy", f"{bots}:sys_exit", "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["forfeits"] == 3


def test_sys_exit_at_import_is_one_line(cli, tmp_path):
    p = tmp_path / "quits.py"
    p.write_text("import sys\nsys.exit(5)\n")
    assert _one_line(cli("simulate", "-n", "2", "--mrx-policy", f"{p}:f")) == (
        f"error: --mrx-policy: {p}:f: cannot import '{p}': SystemExit: 5")


def test_a_dead_worker_is_one_line_not_a_hang(cli, bots):
    t = time.monotonic()
    r = cli("simulate", "-n", "4", "--jobs", "2", "--mrx-policy", f"{bots}:os_exit")
    assert "a worker process died while playing games" in _one_line(r)
    assert time.monotonic() - t < 60  # a hang bound only


# ---- 4. records name their map so that check replays them ----------------------------------------


def test_records_with_a_map_file_elsewhere_replay(cli, tmp_path, monkeypatch):
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "tiny.json").write_text(json.dumps(SMALL_MAP))
    monkeypatch.chdir(tmp_path)
    r = cli("simulate", "-n", "3", "--jobs", "1", "--map", "maps/tiny.json", "--detective-count", "2",
            "--records", "out/recs")
    assert r.exit_code == 0, r.stderr
    for rec in sorted((tmp_path / "out" / "recs").iterdir()):
        assert json.loads(rec.read_text())["map"] == "../../maps/tiny.json"
        c = cli("check", str(rec))
        assert c.exit_code == 0, c.stderr


# ---- 5, 8, 12, 13: options refused at once --------------------------------------------------------


@pytest.mark.parametrize("value", ["1e6", "inf", "nan", "0"])
def test_cordon_time_limit_is_a_time_limit(cli, value):
    line = _one_line(cli("simulate", "-n", "2", "--detective-policy", "cordon", "--cordon-time-limit", value))
    assert "--cordon-time-limit" in line and "expected a positive number of seconds" in line


def test_seed_must_fit_64_bits(cli, tmp_path):
    out = tmp_path / "r.parquet"
    line = _one_line(cli("simulate", "-n", "2", "--seed", str(2**64), "--out", str(out)))
    assert line.startswith("error: --seed: expected a seed from -9223372036854775808 to 9223372036854775807")
    assert not out.exists()
    r = cli("simulate", "-n", "2", "--jobs", "1", "--seed", str(2**63 - 1), "--out", str(out))
    assert r.exit_code == 0


def test_jobs_is_bounded(cli, monkeypatch):
    assert "--jobs" in _one_line(cli("simulate", "-n", "2", "--jobs", "100000"))
    import concurrent.futures

    from sy_tools.selfplay import game as sim
    from sy_tools.selfplay import runner

    seen = []
    real = concurrent.futures.ProcessPoolExecutor

    def spy(n, **kw):
        seen.append(n)
        return real(n, **kw)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", spy)
    assert len(list(runner.iter_games(sim.GameSpec(), 3, jobs=1000))) == 3
    assert seen == [3]


def test_unknown_deck_is_refused(cli, tmp_path):
    rules = tmp_path / "r.json"
    rules.write_text(json.dumps({"preset": "classic", "mrx_deck": "nope"}))
    assert _one_line(cli("simulate", "-n", "2", "--rules", str(rules))) == (
        "error: --rules: the rules' mrx_deck 'nope' is not a start deck of the map 'london' (its decks: "
        "2014-detectives, 2014-mrx, classic)")
    m = tmp_path / "tiny.json"  # a map without decks deals from every station, as before
    m.write_text(json.dumps(SMALL_MAP))
    r = cli("simulate", "-n", "2", "--jobs", "1", "--map", str(m), "--detective-count", "2", "--rules", str(rules))
    assert r.exit_code == 0, r.stderr


# ---- 9, 10: what a policy returns or prints --------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_broken_repr_and_str_are_forfeits(cli, tmp_path, bots, jobs):
    out = tmp_path / "r.csv"
    for name, text in [("bad_repr", "<BadRepr object whose repr() failed>"),
                       ("bad_str", "raised BadStr: <BadStr object whose str() failed>")]:
        r = cli("simulate", "-n", "2", "--jobs", jobs, "--mrx-policy", f"{bots}:{name}", "--out", str(out))
        assert r.exit_code == 0, r.stderr
        rows = list(csv.DictReader(out.open()))
        assert all(text in row["forfeit"] for row in rows), rows


def test_a_policy_cannot_print_into_the_json(cli, bots):
    r = cli("simulate", "-n", "2", "--jobs", "1", "--mrx-policy", f"{bots}:chatty", "--format", "json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["games"] == 2
    # workers write to the real stdout: a real process
    p = subprocess.run([sys.executable, "-m", "sy_tools", "simulate", "-n", "4", "--jobs", "2", "--mrx-policy",
                        f"{bots}:chatty", "--format", "json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["games"] == 4
    assert "HELLO FROM A POLICY" in p.stderr


# ---- 6. a scheduler that is not dask -------------------------------------------------------------


@pytest.mark.parametrize("reply", [b"", b"HTTP/1.0 400 Bad request\r\n\r\n", b"\xff" * 64],
                         ids=["silent", "http", "garbage"])
def test_a_non_dask_scheduler_is_one_error_in_bounded_time(reply):
    pytest.importorskip("distributed")
    from sy_tools.selfplay.runner import _connect

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    srv.settimeout(0.2)
    stop = threading.Event()
    conns = []

    def serve() -> None:
        while not stop.is_set():
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            if reply:
                c.sendall(reply)
            conns.append(c)

    th = threading.Thread(target=serve, daemon=True)
    th.start()
    t = time.monotonic()
    try:
        with pytest.raises(InputError, match="cannot reach the dask scheduler at tcp://127.0.0.1:"):
            _connect(f"tcp://127.0.0.1:{srv.getsockname()[1]}", deadline=2.0)
        assert time.monotonic() - t < 30  # a hang bound only
    finally:
        stop.set()
        th.join(2)
        for c in conns:
            c.close()
        srv.close()


# ---- 7, 11: signals end the workers with the run ---------------------------------------------------


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir() or not hasattr(os, "killpg"), reason="needs /proc and POSIX signals")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_workers_and_keeps_the_old_file(tmp_path, bots, sig):
    out = tmp_path / "old.csv"
    out.write_text("precious")
    cmd = [sys.executable, "-m", "sy_tools", "simulate", "-n", "40", "--jobs", "2", "--detective-policy",
           f"{bots}:slow", "--out", str(out)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=default_signals)
    try:
        deadline = time.monotonic() + 60  # (a bound on a busy machine's start-up, not a speed)
        kids: list[int] = []
        while time.monotonic() < deadline and len(kids) < 2:
            time.sleep(0.1)
            kids = _children(p.pid)
        assert len(kids) >= 2, "the workers never started"
        time.sleep(0.3)
        s = getattr(signal, sig)
        if sig == "SIGINT":
            os.killpg(p.pid, s)  # Ctrl-C reaches the whole process group
        else:
            p.send_signal(s)
        _, err = p.communicate(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(k) for k in kids):
            time.sleep(0.05)
        assert not any(_alive(k) for k in kids), "a worker outlived the run"
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    if sig == "SIGINT":
        assert p.returncode == 130
        assert err.decode().strip() == "error: interrupted"
    else:
        assert p.returncode == -s
    assert out.read_text() == "precious"
    _no_temp(tmp_path)


# ---- 14: messages name the option, the file and what is wrong ------------------------------------


def test_messages_name_option_and_file(cli, tmp_path):
    assert _one_line(cli("simulate", "-n", "2", "--records", "")) == "error: --records: expected a folder name, got ''"
    dangling = tmp_path / "dangl"
    dangling.symlink_to(tmp_path / "gone")
    assert _one_line(cli("simulate", "-n", "2", "--records", str(dangling))) == (
        f"error: {dangling}: --records: is a symbolic link to '{tmp_path / 'gone'}', which does not exist; "
        "give a folder")
    fifo = tmp_path / "pf.parquet"
    os.mkfifo(fifo)
    assert _one_line(cli("simulate", "-n", "2", "--out", str(fifo))) == (
        f"error: {fifo}: --out: is a named pipe: parquet needs a regular file (write .csv to a pipe or device)")
    assert _one_line(cli("simulate", "-n", "2", "--mrx-policy", "/dev/zero:f")) == (
        "error: --mrx-policy: /dev/zero:f: '/dev/zero' is a character device, not a regular file; give a .py file")


def test_out_to_a_pipe_with_no_reader(cli, tmp_path):
    fifo = tmp_path / "p.csv"
    os.mkfifo(fifo)
    assert _one_line(cli("simulate", "-n", "2", "--jobs", "1", "--out", str(fifo))) == (
        f"error: {fifo}: --out: a named pipe with no reader")


# ---- heatmap reads parquet results -------------------------------------------------------------


def test_heatmap_winrate_reads_parquet(cli, tmp_path, london):
    pytest.importorskip("pyarrow")
    from sy_tools.plot.winrate import load_winrates

    pq = tmp_path / "r.parquet"
    assert cli("simulate", "-n", "20", "--jobs", "1", "--out", str(pq)).exit_code == 0
    cs = tmp_path / "r.csv"
    assert cli("simulate", "-n", "20", "--jobs", "1", "--out", str(cs)).exit_code == 0
    assert load_winrates(pq, london) == load_winrates(cs, london)
