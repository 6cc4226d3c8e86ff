from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from sy_tools.engine.rules import PRESETS
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.map_load import load_board
from sy_tools.formats.record import Record
from sy_tools.selfplay.generate import detectives_view, random_game


def corpus(n: int, seed: int = 2026) -> list[Record]:
    """``n`` random legal classic records as the detectives saw them (seeded)."""
    board = load_board("london")
    rules = PRESETS["classic"]
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        doc = random_game(board, rules, random.Random(rng.getrandbits(32)))
        out.append(parse_record(detectives_view(doc, rules)))
    return out


def best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` runs (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best
