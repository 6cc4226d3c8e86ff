"""Nothing the table's endpoints answer depends on where Mr. X really is (issue 40, "Safe by
default"): two games with the same public record and different true routes of Mr. X (the route
oracle finds them), played through the app with the same public requests, give byte-identical
answers on every public endpoint and a byte-identical event stream.  Mr. X's own moves go
through his token; what his page is told may differ, and is not compared."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from oracles import oracle_routes
from web_helpers import TOKEN, served, start, x

from sy_tools.engine.rules import preset
from sy_tools.engine.tickets import TICKET_LETTERS, Ticket

STARTS = [("Red", 13), ("Blue", 26), ("Green", 94)]

#: the public endpoints asked after every request (the analyses: in the rounds they answer)
PUBLIC = ["/api/state", "/api/analysis/possible", "/", "/static/table.js", "/api/board",
          f"/api/x/{'A' * 32}/state", "/api/x/state", "/x/nope"]
ANALYSES = ["/api/analysis/advise", "/api/analysis/solve", "/api/analysis/cordon"]


def _played(seed: int, folder, rules=None):
    """The public record of a few random rounds with his log (no capture; under the voluntary
    reveal ``rules``, a voluntary reveal on his second move)."""
    session = start(folder, detectives=STARTS, mrx_start=None, rules=rules)
    rng = random.Random(seed)
    while session.position.move < 5 + seed % 3 and not session.over:
        pos = session.position
        legal = [m for m in pos.legal_moves() if pos.turn == 0 or m.to != pos.mrx_at]
        if pos.turn == 0:
            legal = [m for m in legal if len(m.tickets) == 1 and m.shown is None] or legal
            if pos.move == 1 and seed % 2 == 0:  # a double move too, now and then
                legal = [m for m in pos.legal_moves() if len(m.tickets) == 2 and m.shown is None]
            if pos.move == 1 and rules is not None:
                legal = [m for m in pos.legal_moves() if len(m.tickets) == 1 and m.shown == 0]
        m = legal[rng.randrange(len(legal))]
        hops = [f"{TICKET_LETTERS[t]} {s}" + (f" show {m.took[0]} {TICKET_LETTERS[m.took[1]]}" if m.shown == j and
                                               m.took is not None else "")
                for j, (t, s) in enumerate(zip(m.tickets, m.stations))]
        entry = hops[0] if len(hops) == 1 else "2X " + "/".join(hops)
        session.enter(m.piece, entry)
    session.lock.release()
    return session.public()


def _normal(body: bytes) -> bytes:
    """An answer without the seconds an analysis took, nor how far the advice's search got in
    them (the machine's load decides both; the advice itself is compared)."""
    body = re.sub(rb"\b\d+\.\d+ s\b", b"T s", re.sub(rb'"wall_time":[0-9.e-]+', b'"wall_time":T', body))
    return re.sub(rb"search: [a-z-]+( \(stopped at the time limit\))?, depth \d+/(\d+), \d+ joint moves? weighed",
                  rb"search: S, depth N/\2, N joint moves weighed", body)


def _transcript(folder, public, route, rules=None) -> tuple[list[bytes], bytes, list[int]]:
    """Play ``public`` with Mr. X on ``route``: every public answer after every request, the
    event stream, and the status codes of his own requests."""
    # (a think time no search reaches: the answers are then what the nodes decide, not the load)
    session = start(folder, detectives=STARTS, mrx_start=route[0], rules=rules, think=600)
    answers: list[bytes] = []
    his: list[int] = []
    board = public.board
    seen: list[str] = []
    with served(session) as client, client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        last = [""]

        def catch_up() -> None:
            """The events up to the game's state now (each change is read before the next)."""
            now = tag()
            if now == last[0]:
                return
            for line in lines:
                seen.append(line)
                if line.startswith("data: ") and f'"tag":"{now}"' in line:
                    break
            last[0] = now

        def look(analyses: bool) -> None:
            catch_up()
            for path in PUBLIC + (ANALYSES if analyses else []):
                r = client.get(path)
                answers.append(f"{path} {r.status_code} ".encode() + _normal(r.content))

        def tag() -> str:
            return client.get("/api/state").json()["tag"]

        def post(path: str, body: dict) -> None:
            r = client.post(path, json=body)
            answers.append(f"POST {path} {r.status_code} ".encode() + r.content)
            look(False)

        look(True)
        leg = 0
        for r, rnd in enumerate(public.rounds):
            here = route[leg]
            never = next(s for s in sorted(board.stations, reverse=True)
                         if s not in board.destinations(here, Ticket.TAXI) and s != here)
            post("/api/mrx-move", {"hops": [{"ticket": "taxi"}], "tag": tag()})  # (his page's: refused)
            r_ = client.post(x("move"), json={"hops": [{"ticket": "taxi", "to": never}], "tag": tag()})
            his.append(r_.status_code)  # refused: nothing public changes
            look(False)
            hops = []
            for m in rnd.mrx:
                leg += 1
                hops.append({"ticket": m.ticket.value, "to": route[leg]})
                if m.took is not None:
                    hops[-1]["show"] = {"from": m.took[0], "ticket": m.took[1].value}
            r_ = client.post(x("move"), json={"hops": hops, "tag": tag()})
            his.append(r_.status_code)
            assert r_.status_code == 200, r_.text
            look(r % 2 == 1)
            for i, d in enumerate(rnd.detectives):
                if i == 0:
                    post("/api/move", {"piece": d.name, "to": 199, "ticket": "underground", "tag": tag()})  # refused
                    post("/api/move", {"piece": d.name, "to": d.to, "ticket": d.ticket.value, "tag": "0" * 16})
                post("/api/move", {"piece": d.name, "to": d.to, "ticket": d.ticket.value, "tag": tag()})
                look(i == 0 and r % 2 == 0)
            if r == 1:
                post("/api/undo", {"tag": tag()})
                post("/api/redo", {"tag": tag()})
        post("/api/undo", {"tag": tag()})
        post("/api/undo", {"tag": tag()})
        post("/api/redo", {"tag": tag()})
        look(True)
    return answers, "\n".join(seen).encode(), his


def _where(one: bytes, other: bytes) -> str:
    """Where two answers part (for the failure's message)."""
    i = next((k for k, (p, q) in enumerate(zip(one, other)) if p != q), min(len(one), len(other)))
    return f"{one[:50]!r}: {one[max(0, i - 200):i + 100]!r} != {other[max(0, i - 200):i + 100]!r}"


@pytest.mark.parametrize("seed, variant", [(0, False), (1, False), (2, True), (3, True)])
def test_every_public_answer_and_event_is_the_same_whatever_his_route(tmp_path, seed, variant):
    rules = dataclasses.replace(preset("classic"), voluntary_reveal=True) if variant else None
    (tmp_path / "gen").mkdir()
    public = _played(seed, tmp_path / "gen", rules)
    if variant:
        assert any(m.took is not None for r in public.rounds for m in r.mrx)
    routes = oracle_routes(public)
    assert routes is not None and len(routes) > 1
    a, b = random.Random(seed).sample(routes, 2)
    assert a != b
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    answers_a, events_a, his_a = _transcript(tmp_path / "a", public, a, rules)
    answers_b, events_b, his_b = _transcript(tmp_path / "b", public, b, rules)
    assert len(answers_a) == len(answers_b)
    for one, other in zip(answers_a, answers_b):
        assert one == other, _where(one, other)
    assert events_a == events_b and events_a.count(b"event: state") > 3
    assert (tmp_path / "a" / "g.txt").read_bytes() == (tmp_path / "b" / "g.txt").read_bytes()
    assert (tmp_path / "a" / "g.mrx.txt").read_bytes() != (tmp_path / "b" / "g.mrx.txt").read_bytes()
    assert TOKEN not in answers_a[0].decode()
