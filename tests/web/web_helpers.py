"""What the web tests share: a game on disk served through Starlette's test client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from starlette.testclient import TestClient

from sy_tools.engine.rules import preset
from sy_tools.formats.map_load import load_board
from sy_tools.play import new_game
from sy_tools.web.app import create_app
from sy_tools.web.table import Table

TOKEN = "T" * 32
BASE = "http://127.0.0.1:8000"
STARTS = [("Red", 13), ("Blue", 26)]


def london():
    return load_board("london"), preset("classic")


def start(folder: Path, mrx_start: int = 50, detectives=STARTS, rules=None, **kw):
    """A new game with Mr. X's log in ``folder`` (the session holds the lock; classic rules
    unless ``rules``)."""
    board, classic = london()
    rules = rules or classic
    session, _ = new_game(str(folder / "g.txt"), board, "london", rules, detectives=detectives,
                          log=str(folder / "g.mrx.txt"), mrx_start=mrx_start, secret_seed=5, seed=1, **{"think": 1, **kw})
    return session


#: A game where the detectives can force a capture in two turns: Mr. X shows himself at 134 on
#: his third move, and Red, Blue and Green close round him (``sy-tools solve`` proves it).
FORCED_STARTS = [("Red", 133), ("Blue", 142), ("Green", 134)]
FORCED_MOVES = [("Mr. X", "T 158"), ("Red", "T 127"), ("Blue", "T 118"), ("Green", "T 142"), ("Mr. X", "K 141"),
                ("Red", "T 116"), ("Blue", "T 129"), ("Green", "B 157"), ("Mr. X", "K 134")]
#: Its first joint move, as the table's Solve draws it.
FORCED_ARROWS = [{"name": "Red", "from": 116, "to": 127, "ticket": "taxi"},
                 {"name": "Blue", "from": 129, "to": 118, "ticket": "taxi"},
                 {"name": "Green", "from": 157, "to": 142, "ticket": "bus"}]


def forced_win(folder: Path, **kw):
    """:data:`FORCED_MOVES` played in a new game in ``folder`` (the session holds the lock)."""
    session = start(folder, mrx_start=141, detectives=FORCED_STARTS, **kw)
    for piece, entry in FORCED_MOVES:
        session.enter(piece, entry)
    return session


@contextmanager
def served(session, **kw) -> Iterator[TestClient]:
    """The app of ``session`` in a test client whose lifespan runs (the lock is given back after)."""
    app = create_app(Table(session), token=TOKEN, **kw)
    try:
        with TestClient(app, base_url=BASE) as client:
            yield client
    finally:
        session.lock.release()


def events(lines: Iterator[str], n: int) -> list[dict]:
    """The next ``n`` state events of an event stream's lines (their data, parsed)."""
    out: list[dict] = []
    kind = ""
    for line in lines:
        if line.startswith("event: "):
            kind = line[len("event: "):]
        elif line.startswith("data: ") and kind == "state":
            out.append(json.loads(line[len("data: "):]))
            if len(out) == n:
                break
    return out


def x(path: str) -> str:
    """An endpoint of Mr. X's, under his token."""
    return f"/api/x/{TOKEN}/{path}"
