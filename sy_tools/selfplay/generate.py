"""Seeded random records (for tests and benchmarks)."""

from __future__ import annotations

import random
from typing import Any

from ..engine.board import Board
from ..engine.moves import Move
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.stations import Station
from .game import DETECTIVE_NAMES, game_record


def random_game(
    board: Board,
    rules: Rules,
    rng: random.Random,
    n_detectives: int | None = None,
    double_chance: float = 0.15,
    hunt_chance: float = 0.7,
    mrx_start_candidates: list[Station] | None = None,
) -> dict[str, Any]:
    """Play one random legal game; return its full game.json document (every move from
    :meth:`Position.legal_moves`, the rules written with every override).

    Mr. X makes a double move with probability ``double_chance`` when he may; detectives step
    onto Mr. X whenever they can with probability ``hunt_chance`` (so games do end in captures);
    otherwise every choice is uniform among the legal ones."""
    n_det = n_detectives if n_detectives is not None else rng.randint(1, 5)
    det_deck = list(board.start_decks.get(rules.detective_deck) or board.stations)
    starts = rng.sample(det_deck, n_det)
    names = list(DETECTIVE_NAMES[:n_det])
    if mrx_start_candidates is None:
        mrx_deck = [s for s in (board.start_decks.get(rules.mrx_deck) or board.stations) if s not in starts]
    else:
        mrx_deck = [s for s in mrx_start_candidates if s not in starts]
    mrx_at = rng.choice(mrx_deck)
    pos = Position.start(board, rules, list(zip(names, starts)), mrx_at=mrx_at)
    moves: list[Move] = []
    while not pos.is_over():
        legal = pos.legal_moves()
        if not legal:
            pos = pos.declare_trapped(pos.mrx_at)
            break
        if pos.turn == 0:
            doubles = [m for m in legal if m.is_double]
            singles = [m for m in legal if not m.is_double]
            move = rng.choice(doubles if doubles and rng.random() < double_chance else singles)
        else:
            hits = [m for m in legal if m.to == pos.mrx_at]
            move = hits[0] if hits and rng.random() < hunt_chance else rng.choice(legal)
        moves.append(move)
        pos = pos.push(move)
    doc = game_record(board, rules, names, starts, mrx_at, [], moves)
    if mrx_start_candidates is None:
        del doc["mrx"]["start_candidates"]
    else:
        doc["mrx"]["start_candidates"] = sorted(set(mrx_start_candidates))
    return doc


def detectives_view(doc: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The record the detectives kept: no true start, no stations on hidden moves (a fixed
    reveal, and a voluntary one with the ticket he took, they saw)."""
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
            xs.append(m if rules.is_reveal(n) or m.get("shown") else {"ticket": m["ticket"]})
        rounds.append({"mrx": xs, "detectives": list(rnd.get("detectives", []))})
    out["rounds"] = rounds
    return out
