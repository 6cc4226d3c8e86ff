"""Results offer tables for pandas: numeric, tidy, 1-based where tables count from 1."""

from __future__ import annotations

import pytest
from helpers import REPO

from sy_tools.analysis.possible import possible
from sy_tools.analysis.referee import check
from sy_tools.formats.record_io import load_record
from sy_tools.solvers.cordon import cordon

EX = REPO / "examples"


def test_possible_history_by_move_number_and_tidy_frames():
    rec = load_record(EX / "in-progress.json")
    res = possible(rec, history=True)
    # move 3 is a reveal at 55 (README): 1-based, as the tables count
    assert res.at_move(3) == {55: 1.0}
    assert set(res.at_move(1)) == set(res.history[0])
    with pytest.raises(IndexError):
        res.at_move(0)
    frame = res.history_frame()
    assert list(frame.columns) == ["move", "station", "probability"]
    assert str(frame["station"].dtype).startswith("int") and str(frame["probability"].dtype).startswith("float")
    assert frame.groupby("move")["probability"].sum().round(9).eq(1.0).all()
    assert len(frame) == sum(len(h) for h in res.history)
    now = res.to_frame()
    assert list(now.columns) == ["station", "probability", "routes"] and len(now) == len(res.stations)
    assert now["probability"].is_monotonic_decreasing


def test_check_and_cordon_frames():
    broken = check(load_record(EX / "broken" / "wrong-ticket.json")).to_frame()
    assert list(broken.columns) == ["level", "code", "where", "message"] and "det-connection" in set(broken["code"])
    res = cordon(load_record(EX / "in-progress.json"), moves=2, time_limit=10)
    plan = res.to_frame()
    assert list(plan.columns) == ["detective", "turn", "ticket", "from", "to", "on_duty"]
    assert len(plan) == 2 * len(res.plan) and set(plan["turn"]) == {1, 2}
