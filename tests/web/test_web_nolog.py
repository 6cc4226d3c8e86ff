"""A game without Mr. X's log (docs/serve.md "A game without Mr. X's log"), e.g. one resumed
from a ``play`` of people only: the table enters Mr. X's public move (the ticket only, the
station at a reveal) and a detective's capture claim, through the API."""

from __future__ import annotations

import dataclasses

import pytest
from web_helpers import STARTS, served, start, x

from sy_tools.engine.rules import preset
from sy_tools.formats.map_load import load_board
from sy_tools.play import new_game
from sy_tools.play.setup import resume_game


def tag(client) -> str:
    return client.get("/api/state").json()["tag"]


def no_log(folder, **rules):
    session, _ = new_game(str(folder / "g.txt"), load_board("london"), "london",
                          dataclasses.replace(preset("classic"), **rules), detectives=STARTS, seed=1, think=1)
    return session


@pytest.fixture
def game(tmp_path):
    with served(no_log(tmp_path)) as client:
        yield client, tmp_path


def mrx(client, *hops):
    return client.post("/api/mrx-move", json={"hops": list(hops), "tag": tag(client)})


def det(client, name, to, ticket, **kw):
    r = client.post("/api/move", json={"piece": name, "to": to, "ticket": ticket, "tag": tag(client), **kw})
    assert r.status_code == 200, r.text
    return r.json()


def test_the_table_enters_his_tickets_and_the_station_at_a_reveal(game):
    client, folder = game
    state = client.get("/api/state").json()
    assert state["secret"] is False and state["claim"] is True
    assert state["mrx_entry"] == {"tickets": ["taxi", "bus", "underground", "black"], "double": True,
                                  "reveal": [False, False], "pass": False, "show": None}
    r = mrx(client, {"ticket": "taxi"})
    assert r.status_code == 200 and r.json()["said"] == "Mr. X: taxi"
    assert client.get("/api/state").json()["mrx_entry"] is None  # (the detectives' turn)
    det(client, "Red", 4, "taxi")
    det(client, "Blue", 27, "taxi")
    r = mrx(client, {"ticket": "bus", "to": 46})
    assert r.status_code == 409 and r.json()["error"] == "secret"  # (a hidden move names no station)
    assert mrx(client, {"ticket": "taxi"}).status_code == 200
    det(client, "Red", 3, "taxi")
    det(client, "Blue", 28, "taxi")
    assert client.get("/api/state").json()["mrx_entry"]["reveal"] == [True, False]
    r = mrx(client, {"ticket": "underground"})
    assert r.status_code == 409 and r.json()["error"] == "reveal-missing"  # (a reveal names the station)
    r = mrx(client, {"ticket": "underground", "to": 46})
    assert r.status_code == 200 and r.json()["said"] == "Mr. X: underground, shown at 46"
    state = client.get("/api/state").json()
    assert state["last_reveal"] == {"move": 3, "station": 46} and state["possible"] == [[46, 1.0]]
    assert (folder / "g.txt").read_text().splitlines()[-3] == "X: T, T, U 46"


def test_a_double_move_an_undo_and_a_stale_entry(game):
    client, _ = game
    before = tag(client)
    r = mrx(client, {"ticket": "taxi"}, {"ticket": "black"})
    assert r.status_code == 200 and r.json()["said"] == "Mr. X: double move: taxi then black"
    assert client.get("/api/state").json()["mrx"]["tickets"]["double"] == 1
    r = client.post("/api/mrx-move", json={"hops": [{"ticket": "taxi"}], "tag": before})
    assert r.status_code == 409 and r.json()["error"] == "stale"
    assert client.post("/api/undo", json={"tag": tag(client)}).json()["said"] == \
        "undone: Mr. X: double move: taxi then black"
    assert client.get("/api/state").json()["mrx_entry"]["tickets"] == ["taxi", "bus", "underground", "black"]


@pytest.mark.parametrize("body, code", [
    ({"hops": [{"ticket": "boat"}]}, "bad-request"),
    ({"hops": "T"}, "bad-request"),
    ({"hops": [{"ticket": "taxi"}] * 3}, "bad-request"),
    ({"hops": [{"ticket": "taxi", "to": "46"}]}, "bad-request"),
    ({"hops": []}, "mrx-trapped"),
])
def test_bad_entries_are_refused_with_a_reason(game, body, code):
    client, _ = game
    r = client.post("/api/mrx-move", json={**body, "tag": tag(client)})
    assert r.status_code in (400, 409) and r.json()["message"], r.text
    assert r.json()["error"] == code or code == "mrx-trapped"
    assert client.get("/api/state").json()["said"] == []


def test_a_capture_claim_ends_the_game_and_a_wrong_one_is_refused(game):
    client, folder = game
    for red, blue in ((4, 27), (3, 28)):
        assert mrx(client, {"ticket": "taxi"}).status_code == 200
        det(client, "Red", red, "taxi")
        det(client, "Blue", blue, "taxi")
    shown = next(st for st in (11, 12, 4) if mrx(client, {"ticket": "taxi", "to": st}).status_code == 200)
    r = client.post("/api/move", json={"piece": "Red", "to": next(m["to"] for m in client.get("/api/state").json()
                                                                   ["moves"] if m["to"] != shown),
                                       "ticket": "taxi", "capture": True, "tag": tag(client)})
    assert r.status_code == 409 and r.json()["error"] == "capture-wrong", r.text  # (he was shown elsewhere)
    said = det(client, "Red", shown, "taxi", capture=True)["said"]
    assert said == f"Red: taxi to {shown} (caught Mr. X)"
    state = client.get("/api/state").json()
    assert state["over"] is True and state["winner"] == "detectives" and state["mrx_entry"] is None
    assert f"T {shown}!" in (folder / "g.txt").read_text()


def test_with_his_log_the_table_does_not_enter_his_moves(tmp_path):
    with served(start(tmp_path)) as client:
        state = client.get("/api/state").json()
        assert state["mrx_entry"] is None and state["claim"] is False
        r = mrx(client, {"ticket": "taxi"})
        assert r.status_code == 409 and r.json()["error"] == "private"
        assert client.get(x("state")).json()["mrx"]["route"] == []


def test_a_humans_only_play_game_resumes_in_serve_with_the_table_entering(tmp_path):
    session = no_log(tmp_path)
    session.enter("Mr. X", "T")
    session.lock.release()
    resumed = resume_game(str(tmp_path / "g.txt"))
    with served(resumed) as client:
        state = client.get("/api/state").json()
        assert state["to_move"] == "Red" and state["claim"] is True
        det(client, "Red", 4, "taxi")
        det(client, "Blue", 27, "taxi")
        assert client.get("/api/state").json()["mrx_entry"]["tickets"] == ["taxi", "bus", "underground", "black"]


def test_the_table_enters_his_voluntary_reveal(tmp_path):
    with served(no_log(tmp_path, voluntary_reveal=True)) as client:
        show = client.get("/api/state").json()["mrx_entry"]["show"]
        assert show["hops"] == [True, True] and show["take"][0] == {"from": "Red",
                                                                    "tickets": ["taxi", "bus", "underground"]}
        r = mrx(client, {"ticket": "taxi", "show": {"from": "Blue", "ticket": "underground"}})
        assert r.status_code == 409 and r.json()["error"] == "reveal-missing"  # (a reveal names his station)
        r = mrx(client, {"ticket": "taxi", "to": 37, "show": {"from": "Blue", "ticket": "underground"}})
        assert r.status_code == 200, r.text
        assert r.json()["said"] == "Mr. X: taxi, shown at 37 (took Blue's underground)"
        state = client.get("/api/state").json()
        assert state["possible"] == [[37, 1.0]] and state["detectives"][1]["tickets"]["underground"] == 3
        assert "T 37 show Blue U" in (tmp_path / "g.txt").read_text()
