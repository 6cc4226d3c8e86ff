"""Regenerate the example records under examples/ from fixed seeds (run from the repo root):

    .venv/bin/python tools/make_examples.py
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from sy_tools.analysis.referee import check
from sy_tools.engine.rules import PRESETS
from sy_tools.formats.files import atomic_write_text
from sy_tools.formats.game_json import parse_record, record_json_text
from sy_tools.formats.map_load import load_board
from sy_tools.selfplay.generate import detectives_view, random_game

OUT = Path("examples")
RULES = PRESETS["classic"]


def write(name: str, doc: dict) -> None:
    rec = parse_record(doc)
    atomic_write_text(OUT / name, record_json_text(rec))


def find(pred, **kw):
    board = load_board("london")
    for seed in range(20000):
        doc = random_game(board, RULES, random.Random(seed), **kw)
        res = check(parse_record(doc))
        if pred(doc, res):
            return seed, doc
    raise SystemExit("no seed found")


def mrx_move(doc: dict, n: int) -> dict:
    """Mr. X's n-th travel-log entry (1-based) in a game.json document."""
    return [m for rnd in doc["rounds"] for m in rnd["mrx"]][n - 1]


def crosses_ferry(doc):
    prev = doc["mrx"]["start"]
    ferry = {frozenset(p) for p in ((108, 115), (115, 157), (157, 194))}
    for rnd in doc["rounds"]:
        for m in rnd["mrx"]:
            if m["ticket"] == "black" and frozenset((prev, m["to"])) in ferry:
                return True
            prev = m["to"]
    return False


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "broken").mkdir(exist_ok=True)
    _, cap = find(lambda d, r: r.status.reason == "capture" and len(d["rounds"]) >= 12, n_detectives=5)
    write("capture.json", cap)
    _, prog = find(lambda d, r: len(d["rounds"]) >= 15 and r.status.reason != "trapped", n_detectives=5,
                   hunt_chance=0.0)
    view = detectives_view(prog, RULES)
    view["rounds"] = view["rounds"][:10]
    write("in-progress.json", view)
    _, win = find(lambda d, r: r.status.reason == "log-full", n_detectives=4, hunt_chance=0.0, double_chance=0.5)
    write("mrx-wins.json", win)
    _, fer = find(lambda d, r: crosses_ferry(d) and sum(len(x["mrx"]) == 2 for x in d["rounds"]) == 2,
                  n_detectives=3, double_chance=0.6, hunt_chance=0.3,
                  mrx_start_candidates=[108, 115, 157, 194, 116, 105])
    write("double-and-ferry.json", fer)

    # broken records (each with one fault)
    b = copy.deepcopy(cap)
    d0 = b["rounds"][1]["detectives"][0]
    d0["ticket"] = "underground" if d0["ticket"] != "underground" else "bus"
    write("broken/wrong-ticket.json", b)
    b = copy.deepcopy(cap)
    b["rounds"][0]["detectives"][1]["to"] = b["rounds"][0]["detectives"][0]["to"]
    write("broken/two-on-one-station.json", b)
    b = detectives_view(copy.deepcopy(cap), RULES)
    mrx_move(b, 3).pop("to")
    atomic_write_text(OUT / "broken/missing-reveal.json", json.dumps(b, indent=1) + "\n")
    b = detectives_view(copy.deepcopy(cap), RULES)
    m = mrx_move(b, 8)
    m["to"] = 1 if m["to"] != 1 else 199
    write("broken/contradiction.json", b)
    b = copy.deepcopy(view)
    b["rounds"][3]["detectives"][1]["to"] = 200
    atomic_write_text(OUT / "broken/not-on-map.json", json.dumps(b, indent=1) + "\n")


if __name__ == "__main__":
    main()
