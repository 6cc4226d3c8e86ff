"""The web table's API (docs/serve.md "The API"): every endpoint and event through Starlette's
test client, bad input, a foreign Host or Origin, oversize bodies, a wrong or missing token, and
two moves racing for one turn."""

from __future__ import annotations

import threading

import pytest
from web_helpers import BASE, FORCED_ARROWS, TOKEN, events, forced_win, served, start, x

from sy_tools.play.setup import resume_game


@pytest.fixture
def game(tmp_path):
    session = start(tmp_path)
    with served(session) as client:
        yield client, tmp_path


def tag(client) -> str:
    return client.get("/api/state").json()["tag"]


def mrx_moves(client, entries):
    for hops in entries:
        r = client.post(x("move"), json={"hops": hops, "tag": tag(client)})
        assert r.status_code == 200, r.text


def test_the_board_is_the_maps(game):
    client, _ = game
    board = client.get("/api/board").json()
    assert len(board["stations"]) == 199 and board["stations"][0] == [1, 190.0, 40.0]
    assert sorted(board["connections"]) == ["bus", "ferry", "taxi", "underground"]
    assert [13, 23] in board["connections"]["taxi"]


def test_the_table_state_says_the_game_and_never_his_station(game):
    client, _ = game
    state = client.get("/api/state").json()
    assert state["to_move"] == "Mr. X" and state["round"] == 0 and state["moves_to_reveal"] == 3
    assert [d["name"] for d in state["detectives"]] == ["Red", "Blue"]
    assert state["mrx"] == {"tickets": {"taxi": 4, "bus": 3, "underground": 3, "black": 5, "double": 2}}
    assert state["moves"] == [] and state["secret"] is True
    assert 50 in [s for s, _ in state["possible"]] and len(state["possible"]) > 1


def test_mrx_sees_his_station_and_moves_only_with_his_token(game):
    client, _ = game
    mine = client.get(x("state")).json()
    assert mine["mrx"]["at"] == 50 and mine["mrx"]["route"] == [] and mine["mrx_plays"] is True
    assert {"to": 37, "tickets": ["taxi", "black"]} in mine["mrx_moves"]["single"]
    assert ["taxi", 37, "taxi", 50] in mine["mrx_moves"]["double"]
    for path in (f"/api/x/{'T' * 31}U/state", "/api/x/nope/state", "/api/x//state", "/api/x/state",
                 f"/x/{'T' * 31}U", f"/api/x/{TOKEN.lower()}/advise"):
        r = client.get(path)
        assert r.status_code == 404 and r.json() == {"error": "not-found", "message": "no such page"}, path
    r = client.post(f"/api/x/{'A' * 32}/move", json={"hops": [{"ticket": "taxi", "to": 37}]})
    assert r.status_code == 404
    assert client.get(f"/x/{TOKEN}").status_code == 200


def test_moves_undo_and_redo(game):
    client, folder = game
    r = client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": 37}], "tag": tag(client)})
    assert r.json()["said"] == "Mr. X: taxi"
    state = client.get("/api/state").json()
    assert state["to_move"] == "Red" and {"to": 23, "tickets": ["taxi", "bus"]} in state["moves"]
    r = client.post("/api/move", json={"piece": "Red", "to": 23, "ticket": "bus", "tag": state["tag"]})
    assert r.status_code == 200 and r.json()["said"] == "Red: bus to 23"
    assert (folder / "g.txt").read_text().splitlines()[-2] == "Red 13: B 23"
    assert "37" not in (folder / "g.txt").read_text().split("Red")[0]  # (his station in his log only)
    assert "X 50: T 37" in (folder / "g.mrx.txt").read_text()
    r = client.post("/api/undo", json={"tag": tag(client)})
    assert r.json()["said"] == "undone: Red: bus to 23"
    assert client.get("/api/state").json()["can_redo"] is True
    r = client.post("/api/redo", json={"tag": tag(client)})
    assert r.json()["said"] == "redone: Red: bus to 23"
    r = client.post("/api/redo", json={"tag": tag(client)})
    assert r.status_code == 409 and r.json()["error"] == "redo"


def test_refusals_say_why_and_his_reason_goes_to_him_alone(game):
    client, _ = game
    t = tag(client)
    r = client.post(x("move"), json={"hops": [{"ticket": "bus", "to": 37}], "tag": t})
    assert r.status_code == 409 and "no such connection" in r.json()["message"]  # (his page: his reason)
    r = client.post("/api/move", json={"piece": "Red", "to": 23, "tag": t})
    assert r.status_code == 409 and r.json()["error"] == "turn"
    mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
    t = tag(client)
    r = client.post("/api/move", json={"piece": "Red", "to": 23, "tag": t})
    assert r.json() == {"error": "ambiguous", "message": "Red can reach 23 by taxi or bus: say which, e.g. 'Red T 23'"}
    r = client.post("/api/move", json={"piece": "Red", "to": 199, "ticket": "underground", "tag": t})
    assert r.status_code == 409 and r.json()["error"] == "det-connection"
    r = client.post("/api/move", json={"piece": "Blue", "to": 27, "tag": t})
    assert r.status_code == 409 and r.json()["error"] == "turn"
    r = client.post("/api/undo", json={"tag": "0" * 16})
    assert r.status_code == 409 and r.json()["error"] == "stale"


@pytest.mark.parametrize("body, code", [
    (b"{", "bad-request"), (b"[1]", "bad-request"), (b"\xff\xfe", "bad-request"),
    (b'{"piece": "Red", "to": "23"}', "bad-request"), (b'{"piece": "Red", "to": true}', "bad-request"),
    (b'{"piece": "Red", "to": 23, "ticket": "rocket"}', "bad-request"), (b'{"to": 23}', "bad-request"),
    (b'{"piece": "Mr. X", "to": 23}', "bad-request"), (b'{"piece": "Nobody", "to": 23}', "turn"),
    (b'{"a": ' + b"[" * 2000 + b"]" * 2000 + b"}", "bad-request"),  # (within the bound, too deep for the parser)
    (b'{"piece": "Red", "to": 23, "tag": 12}', "bad-request"), (b'{"piece": "Red", "to": 23, "tag": "x"}', "bad-request"),
    (b'{"piece": "Red", "to": 23, "tag": "0123456789ABCDEF"}', "bad-request"),  # (mistyped: not "stale")
    (b'{"piece": "Red", "to": 23, "tag": "0123456789abcdef"}', "stale"),  # (a tag, of a state the game has left)
])
def test_bad_input_is_a_json_error(game, body, code):
    client, _ = game
    mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
    r = client.post("/api/move", content=body, headers={"content-type": "application/json"})
    assert r.json()["error"] == code and r.json()["message"]
    assert r.status_code in (400, 409)


@pytest.mark.parametrize("hops", [None, "T 37", [{"ticket": "taxi", "to": 37}] * 3, [1], [{"ticket": "walk", "to": 3}],
                                  [{"ticket": "taxi", "to": -1}]])
def test_bad_mrx_input_is_a_json_error(game, hops):
    client, _ = game
    r = client.post(x("move"), json={"hops": hops})
    assert r.status_code == 400 and r.json()["error"] == "bad-request"


def test_bodies_are_bounded_and_json(game):
    client, _ = game
    big = b'{"piece": "' + b"R" * 5000 + b'"}'
    r = client.post("/api/move", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too-large"

    def chunks():  # no length said: the stream is cut at the bound
        for _ in range(100):
            yield b" " * 1000

    r = client.post("/api/move", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/move", content=b'{"piece": "Red"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"] == "bad-request"


def test_a_foreign_host_or_origin_is_refused(game):
    client, _ = game
    for headers in ({"host": "evil.example"}, {"host": "127.0.0.1.evil.example:8000"},
                    {"host": "127.0.0.1:8000.evil.example"}, {"host": "localhost:"}, {"host": "[::1]:80.evil.example"}, {"origin": "http://evil.example"},
                    {"origin": "null"}, {"origin": "http://127.0.0.1:9999"}, {"sec-fetch-site": "cross-site"}):
        for method, path in (("GET", "/api/state"), ("GET", "/"), ("POST", "/api/undo"), ("GET", x("state")),
                             ("GET", "/api/events")):
            r = client.request(method, path, headers=headers, json={} if method == "POST" else None)
            assert r.status_code == 403 and r.json()["error"].startswith("forbidden"), (headers, path)
    ok = client.post("/api/undo", json={}, headers={"origin": BASE})
    assert ok.status_code == 409 and ok.json()["error"] == "undo"  # (past the guard: nothing to undo)
    assert client.get("/api/state", headers={"host": "localhost:8000"}).status_code == 200


def test_unknown_paths_and_methods_are_json(game):
    client, _ = game
    assert client.get("/nope").json()["error"] == "not-found"
    assert client.get("/static/nope.js").json()["error"] == "not-found"
    r = client.put("/api/move")
    assert r.status_code == 405 and r.json()["error"] == "method"
    r = client.get("/api/analysis/everything")
    assert r.status_code == 404 and r.json()["error"] == "not-found"


def test_pages_and_scripts_are_the_packages_own(game):
    client, _ = game
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/static/table.js">' in page.text and 'id="undo"' in page.text
    assert '<script type="module" src="/static/mrx.js">' in client.get(f"/x/{TOKEN}").text
    assert "{{" not in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"
    for src in ("table.js", "mrx.js", "board.js", "live.js", "panels.js", "style.css"):
        assert client.get(f"/static/{src}").status_code == 200, src


def test_analysis_answers_on_the_public_record(game):
    client, _ = game
    r = client.get("/api/analysis/advise")
    assert r.status_code == 409 and r.json()["error"] == "turn"
    mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
    possible = client.get("/api/analysis/possible").json()
    assert possible["kind"] == "possible" and "possible stations" in possible["text"]
    advice = client.get("/api/analysis/advise").json()
    assert advice["arrows"] and {a["name"] for a in advice["arrows"]} <= {"Red", "Blue"}
    assert "cordon" in client.get("/api/analysis/cordon").json()["text"]
    solved = client.get("/api/analysis/solve").json()
    assert solved["kind"] == "solve" and solved["arrows"] == []
    assert (solved["verdict"], solved["line"]) == ("none", "no forced win within 2 turns (proved)")


def test_solve_draws_a_proved_forced_win_on_the_board(tmp_path):
    with served(forced_win(tmp_path)) as client:
        solved = client.get("/api/analysis/solve").json()
    assert solved["verdict"] == "forced" and solved["turns"] == 2
    assert solved["arrows"] == FORCED_ARROWS  # the first joint move, each detective from where it stands
    assert solved["line"] == "forced win in 2 turns (proved): Red taxi to 127, Blue taxi to 118, Green bus to 142"
    assert "forced win in 2 turns (proved)" in solved["text"] and ": caught" in solved["text"]


def test_solve_stopped_by_its_limit_says_unknown(tmp_path, monkeypatch):
    from sy_tools.solvers import forced

    real = forced.solve_record  # (a search this small ends before its time limit: a node limit stops it)
    monkeypatch.setattr(forced, "solve_record", lambda record, turns, limit: real(record, turns, limit, max_nodes=1))
    with served(forced_win(tmp_path)) as client:
        solved = client.get("/api/analysis/solve")
    assert solved.status_code == 200 and solved.json()["verdict"] == "unknown" and solved.json()["arrows"] == []
    assert solved.json()["line"] == ("forced win: unknown (not found within the time limit of 1 s); none within 1 turn "
                                     "(proved)")


def test_mrx_advice_is_his(game):
    client, _ = game
    advice = client.get(x("advise")).json()
    assert advice["text"].startswith("round") or "Mr. X" in advice["text"]
    assert advice["arrows"] and advice["arrows"][0]["stations"][0] is not None


def test_events_push_every_change(game):
    client, _ = game
    with client.stream("GET", "/api/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        first = events(lines, 1)[0]
        assert first["to_move"] == "Mr. X"
        mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
        assert events(lines, 1)[0]["last"] == "Mr. X: taxi"
        client.post("/api/move", json={"piece": "Red", "to": 23, "ticket": "taxi", "tag": tag(client)})
        assert events(lines, 1)[0]["last"] == "Red: taxi to 23"
        client.post("/api/undo", json={"tag": tag(client)})
        assert events(lines, 1)[0]["to_move"] == "Red"


def test_an_idle_stream_pings_so_a_silent_connection_is_noticed(tmp_path):
    """A page cannot see an SSE comment: the heartbeat is an event (its data the seconds between
    two), sent at once and while idle, so a page hearing nothing for a few of them reconnects."""
    with served(start(tmp_path), heartbeat=0.05) as client, client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        seen: list[str] = []
        for line in lines:
            seen.append(line)
            if seen.count("data: 0.05") == 3 or len(seen) > 40:
                break
        assert seen[:4] == ["retry: 1000", "", "event: ping", "data: 0.05"]
        assert seen.count("event: state") == 1 and seen.count("data: 0.05") == 3


def test_mrx_events_carry_his_state(game):
    client, _ = game
    assert client.get(f"/api/x/{'Z' * 32}/events").status_code == 404
    with client.stream("GET", x("events")) as stream:
        lines = stream.iter_lines()
        assert events(lines, 1)[0]["mrx"]["at"] == 50
        mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
        assert events(lines, 1)[0]["mrx"]["at"] == 37


def test_two_moves_racing_for_one_turn_one_is_taken(game):
    client, folder = game
    mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
    t = tag(client)
    answers: list = []
    go = threading.Barrier(2)

    def post(to: int) -> None:
        go.wait()
        answers.append(client.post("/api/move", json={"piece": "Red", "to": to, "ticket": "taxi", "tag": t}))

    threads = [threading.Thread(target=post, args=(to,)) for to in (23, 4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409]
    lost = next(a for a in answers if a.status_code == 409).json()
    assert lost["error"] == "stale" and "no longer yours" in lost["message"]
    taken = next(a for a in answers if a.status_code == 200).json()["said"]
    record = (folder / "g.txt").read_text()
    assert record.count("Red 13: T ") == 1 and taken.split()[-1] in record.split("Red 13: T ")[1]
    assert client.get("/api/state").json()["to_move"] == "Blue"


def test_a_restarted_server_serves_the_same_game(tmp_path):
    session = start(tmp_path)
    with served(session) as client:
        mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
        before = client.get("/api/state").json()
    again = resume_game(str(tmp_path / "g.txt"))
    with served(again) as client:
        assert client.get("/api/state").json() == before
        assert client.get(x("state")).json()["mrx"]["at"] == 37


def test_the_computer_plays_its_side_as_soon_as_it_is_its_turn(tmp_path):
    session = start(tmp_path, computer="mrx", level="easy")
    with served(session) as client, client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        state = events(lines, 1)[0]
        while state["to_move"] != "Red":
            state = events(lines, 1)[0]
        assert state["last"].startswith("Mr. X: ") and state["computer"] == "mrx"


def test_the_computers_mr_x_keeps_his_secrets_until_the_end(tmp_path):
    """Nobody at the table is Mr. X: his page and every endpoint of his refuse (``private``), as
    ``play``'s ``private`` does, until the game is over; then his route is there to see."""
    session = start(tmp_path, detectives=[("Red", 13)], computer="mrx", level="easy")
    with served(session) as client:
        with client.stream("GET", x("events")) as stream:  # (a stream: its answer's status, not its end)
            assert stream.status_code == 403
        for r in (client.get(f"/x/{TOKEN}"), client.get(x("state")), client.get(x("advise")),
                  client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": 37}]})):
            assert r.status_code == 403 and r.json()["error"] == "private", r.text
            assert r.json()["message"] == "the computer plays Mr. X: his secrets are his own until the end"
            assert "\"at\"" not in r.text
    (tmp_path / "over").mkdir()
    session = start(tmp_path / "over", detectives=[("Red", 29)], mrx_start=26)
    session.enter("Mr. X", "T 15")
    session.enter("Red", "B 15")
    session.computer = "mrx"  # (as if the computer had played him to this end)
    assert session.over
    with served(session) as client:
        assert client.get(f"/x/{TOKEN}").status_code == 200
        assert client.get(x("state")).json()["mrx"]["route"][0]["to"] == 15


def test_the_computer_plays_both_sides_at_its_pace(tmp_path):
    session = start(tmp_path, computer="both", level="easy", pace=0)
    with served(session) as client, client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        said = set()
        while len(said) < 4:  # the table only watches
            said.add(events(lines, 1)[0]["last"])
        state = client.get("/api/state").json()
        assert state["computer"] == "both" and state["history"][0]["detectives"]
        r = client.post("/api/move", json={"piece": "Red", "to": 23})
        assert r.status_code == 409 and r.json()["error"] in ("turn", "game-over")


def _waited(client, done, what: str):
    """The table's state once ``done(state)`` (polled; fails after a few seconds without it)."""
    import time

    for _ in range(400):
        state = client.get("/api/state").json()
        if done(state):
            return state
        time.sleep(0.025)
    raise AssertionError(f"never {what}: {state['to_move']} to move, computer_error {state['computer_error']!r}")


def test_a_computer_move_that_fails_is_told_and_the_computer_plays_on(tmp_path):
    session = start(tmp_path, computer="detectives", level="easy")
    real = session.computer_move

    def broken():
        raise RuntimeError("Mr. X is at 37")  # (a fault whose words would give him away)
    session.computer_move = broken
    with served(session) as client:
        mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
        state = _waited(client, lambda s: s["computer_error"], "told")
        assert "RuntimeError" in state["computer_error"] and "37" not in state["computer_error"]
        assert state["to_move"] == "Red" and state["computer_turn"]
        assert "RuntimeError" in client.get(x("state")).json()["computer_error"]
        session.computer_move = real
        r = client.post("/api/undo", json={"tag": state["tag"]})  # (the person's move: tried again after it)
        assert r.status_code == 200 and client.get("/api/state").json()["computer_error"] is None
        mrx_moves(client, [[{"ticket": "taxi", "to": 37}]])
        state = _waited(client, lambda s: s["to_move"] == "Mr. X" and s["round"] == 1, "played on")
        assert state["computer_error"] is None and len(state["history"][0]["detectives"]) == 2
