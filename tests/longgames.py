"""Long legal records for the hardening tests and benchmarks: a ``log_length`` override, enough
tickets for everyone, Mr. X taxiing at random and detectives wandering by taxi without ever
stepping onto him or each other (no reveals after the classic ones)."""

from __future__ import annotations

import random
from typing import Any

from sy_tools.engine.board import Board
from sy_tools.engine.tickets import Ticket


def long_game(board: Board, rounds: int, seed: int = 1, detectives: int = 3) -> dict[str, Any]:
    """A game.json document (the detectives' view: only reveal moves show Mr. X's station)."""
    rng = random.Random(seed)
    taxi = board.neighbours[Ticket.TAXI]
    reveal = (3, 8, 13, 18, 24)
    names = ["Red", "Blue", "Green", "Yellow", "Black"][:detectives]
    stations = list(board.stations)
    picks = rng.sample(stations, detectives + 1)
    x, pos = picks[0], dict(zip(names, picks[1:]))
    n = rounds + 10
    doc: dict[str, Any] = {
        "rules": {"preset": "classic", "log_length": n, "detective_tickets": {"taxi": n, "bus": 0, "underground": 0},
                  "mrx_tickets": {"taxi": n, "bus": 0, "underground": 0, "black": 0, "double": 0}},
        "detectives": [{"name": d, "start": s} for d, s in pos.items()],
        "mrx": {"start_candidates": [x]},
        "rounds": [],
    }
    for move in range(1, rounds + 1):
        occupied = set(pos.values())
        options = [s for s in _stations(taxi[x]) if s not in occupied]
        if not options:
            break
        x = rng.choice(options)
        rnd: dict[str, Any] = {"mrx": [{"ticket": "taxi", **({"to": x} if move in reveal else {})}], "detectives": []}
        for d in names:
            occupied = set(pos.values()) | {x}
            opts = [s for s in _stations(taxi[pos[d]]) if s not in occupied]
            if opts:
                pos[d] = rng.choice(opts)
                rnd["detectives"].append({"name": d, "ticket": "taxi", "to": pos[d]})
            else:
                break  # a stuck detective is out; keep it simple: end the round's moves here
        doc["rounds"].append(rnd)
    return doc


def _stations(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
