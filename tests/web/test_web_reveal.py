"""Mr. X's voluntary reveal on his page (the ``voluntary_reveal`` variant; docs/serve.md "Mr.
X's page"), through the API: offered only under the rule and never on a fixed reveal, his
choice of a detective's ticket, the table told what the public record shows, and refusals."""

from __future__ import annotations

import dataclasses

import pytest
from web_helpers import served, start, x

from sy_tools.engine.rules import preset


def tag(client) -> str:
    return client.get("/api/state").json()["tag"]


@pytest.fixture
def variant(tmp_path):
    session = start(tmp_path, rules=dataclasses.replace(preset("classic"), voluntary_reveal=True))
    with served(session) as client:
        yield client, tmp_path


def test_no_show_offered_under_the_classic_rules(tmp_path):
    session = start(tmp_path)
    with served(session) as client:
        assert client.get(x("state")).json()["mrx_moves"]["show"] is None
        r = client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": 37, "show": {"from": "Red",
                                                                                        "ticket": "bus"}}],
                                         "tag": tag(client)})
        assert r.status_code == 409 and r.json()["error"] == "voluntary-reveal"
        assert "voluntary" in r.json()["message"]
        assert client.get("/api/state").json()["said"] == []


def test_he_shows_himself_and_takes_a_ticket(variant):
    client, folder = variant
    mine = client.get(x("state")).json()
    assert mine["mrx_moves"]["show"] == {"hops": [True, True],
                                         "take": [{"from": "Red", "tickets": ["taxi", "bus", "underground"]},
                                                  {"from": "Blue", "tickets": ["taxi", "bus", "underground"]}]}
    assert "show" not in client.get("/api/state").json()  # (his page only)
    r = client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": 37, "show": {"from": "Red", "ticket": "bus"}}],
                                     "tag": tag(client)})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == "Mr. X: taxi, shown at 37 (took Red's bus)"
    state = client.get("/api/state").json()
    assert state["last_reveal"] == {"move": 1, "station": 37}
    assert state["possible"] == [[37, 1.0]]
    assert state["history"][0]["mrx"] == [{"ticket": "taxi", "to": 37, "shown": True,
                                           "took": {"from": "Red", "ticket": "bus"}}]
    assert state["detectives"][0]["tickets"]["bus"] == 7
    assert "T 37 show Red B" in (folder / "g.txt").read_text()
    assert client.get(x("state")).json()["mrx"]["route"][0]["shown"] is True


def test_a_fixed_reveal_is_not_offered_and_a_double_shows_once(variant):
    client, _ = variant
    for hops in ([{"ticket": "taxi", "to": 37}],):
        assert client.post(x("move"), json={"hops": hops, "tag": tag(client)}).status_code == 200
    for name, to in (("Red", 23), ("Blue", 27)):
        r = client.post("/api/move", json={"piece": name, "to": to, "ticket": "taxi", "tag": tag(client)})
        assert r.status_code == 200, r.text
    offer = client.get(x("state")).json()["mrx_moves"]["show"]
    assert offer["hops"] == [True, False]  # (his move 3 is a fixed reveal)
    twice = {"from": "Blue", "ticket": "taxi"}
    r = client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": 24, "show": twice},
                                              {"ticket": "taxi", "to": 13, "show": twice}], "tag": tag(client)})
    assert r.status_code == 409 and r.json()["error"] == "voluntary-reveal"
    r = client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": 50}, {"ticket": "taxi", "to": 49,
                                                                            "show": twice}], "tag": tag(client)})
    assert r.status_code == 409 and r.json()["error"] == "voluntary-reveal"
    assert "fixed reveal" in r.json()["message"]
    assert client.get("/api/state").json()["said"][-1] == "Blue: taxi to 27"


@pytest.mark.parametrize("show, code", [
    ({"from": "Nobody", "ticket": "bus"}, "reveal-ticket"),
    ({"from": "Red", "ticket": "black"}, "reveal-ticket"),
    ({"from": "Red", "ticket": "boat"}, "bad-request"),
    ("Red B", "bad-request"),
    ({"ticket": "bus"}, "bad-request"),
])
def test_a_bad_show_is_refused_with_a_reason(variant, show, code):
    client, _ = variant
    r = client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": 37, "show": show}], "tag": tag(client)})
    assert r.json()["error"] == code, r.text
    assert r.json()["message"]
    assert client.get("/api/state").json()["said"] == []
