"""Random legal games (seeded), for tests, benchmarks and research corpora.

:func:`random_game` plays a whole game under the rules with random (slightly purposeful) players
and returns a full game.json document: Mr. X's every station is written down, captures are
marked.  :func:`detectives_view` strips what the detectives could not see.
"""

from __future__ import annotations

import random
from typing import Any

from .board import Board, Station, Ticket
from .rules import Rules


def random_game(
    board: Board,
    rules: Rules,
    rng: random.Random,
    n_detectives: int | None = None,
    double_chance: float = 0.15,
    hunt_chance: float = 0.7,
    mrx_start_candidates: list[Station] | None = None,
) -> dict[str, Any]:
    """Play one random legal game; return its full game.json document.

    Detectives step onto Mr. X whenever they can with probability ``hunt_chance`` (so games do
    end in captures); otherwise every choice is uniform among the legal ones.
    """
    n_det = n_detectives if n_detectives is not None else rng.randint(1, 5)
    det_deck = list(board.start_decks.get(rules.detective_deck) or board.stations)
    starts = rng.sample(det_deck, n_det)
    names = ["Red", "Blue", "Green", "Yellow", "Black"][:n_det]
    if mrx_start_candidates is None:
        mrx_deck = [s for s in (board.start_decks.get(rules.mrx_deck) or board.stations) if s not in starts]
    else:
        mrx_deck = [s for s in mrx_start_candidates if s not in starts]
    mrx_at = rng.choice(mrx_deck)
    doc: dict[str, Any] = {
        "map": board.name,
        "rules": rules.name if rules.name in ("classic", "2014") else "classic",
        "detectives": [{"name": n, "start": s} for n, s in zip(names, starts)],
        "mrx": {"start": mrx_at},
        "rounds": [],
    }
    if mrx_start_candidates is not None:
        doc["mrx"]["start_candidates"] = sorted(set(mrx_start_candidates))
    pos = dict(zip(names, starts))
    det_tickets = {n: dict(rules.detective_tickets) for n in names}
    mrx_tickets = rules.mrx_start_tickets(n_det)
    doubles_left = min(mrx_tickets.get("double", 0), rules.double_moves_per_game)
    out: set[str] = set()
    moves = 0

    def mrx_options(at: Station) -> list[tuple[Ticket, Station]]:
        occ = set(pos.values())
        return [(t, d) for t in Ticket if mrx_tickets.get(t.value, 0) > 0
                for d in board.moves(at, t) if d not in occ]

    def det_options(name: str) -> list[tuple[Ticket, Station]]:
        occ = {s for n, s in pos.items() if n != name}
        return [(t, d) for t in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND) if det_tickets[name][t.value] > 0
                for d in board.moves(pos[name], t) if d not in occ]

    while moves < rules.log_length:
        opts = mrx_options(mrx_at)
        if not opts:
            break  # trapped
        legs = 1
        if doubles_left and moves + 2 <= rules.log_length and rng.random() < double_chance:
            legs = 2
            doubles_left -= 1
            mrx_tickets["double"] -= 1
        entries = []
        for _ in range(legs):
            opts = mrx_options(mrx_at)
            if not opts:
                break
            t, d = rng.choice(opts)
            mrx_tickets[t.value] -= 1
            mrx_at = d
            moves += 1
            entries.append({"ticket": t.value, "to": d})
        rnd: dict[str, Any] = {"mrx": entries, "detectives": []}
        doc["rounds"].append(rnd)
        caught = False
        for name in names:
            if name in out:
                continue
            opts = det_options(name)
            if not opts:
                out.add(name)
                continue
            hits = [o for o in opts if o[1] == mrx_at]
            t, d = hits[0] if hits and rng.random() < hunt_chance else rng.choice(opts)
            det_tickets[name][t.value] -= 1
            if rules.tickets_to_mrx:
                mrx_tickets[t.value] = mrx_tickets.get(t.value, 0) + 1
            pos[name] = d
            mv = {"name": name, "ticket": t.value, "to": d}
            if d == mrx_at:
                mv["capture"] = True
                caught = True
            rnd["detectives"].append(mv)
            if caught:
                break
        if caught or all(n in out or not det_options(n) for n in names):
            break
    return doc


def detectives_view(doc: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The record the detectives kept: no true start, no stations on hidden moves."""
    out = {k: v for k, v in doc.items() if k not in ("mrx", "rounds")}
    mrx = {k: v for k, v in doc.get("mrx", {}).items() if k != "start"}
    if mrx:
        out["mrx"] = mrx
    rounds = []
    n = 0
    for rnd in doc["rounds"]:
        xs = []
        for m in rnd["mrx"]:
            n += 1
            xs.append(m if rules.is_reveal(n) else {"ticket": m["ticket"]})
        rounds.append({"mrx": xs, "detectives": list(rnd.get("detectives", []))})
    out["rounds"] = rounds
    return out
