"""The plain baseline run as a process: ``python -m benchmarks.plain_tracker GAME.json ...``.

What most public trackers do: ``json.load`` each record, a Python set of stations, neighbours
looked up in a networkx graph built from the map file, one line of JSON per record.  Classic
rules and the London map only (the benchmark corpus)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import networkx as nx

ALLOWED = {"taxi": {"taxi"}, "bus": {"bus"}, "underground": {"underground"},
           "black": {"taxi", "bus", "underground", "ferry"}}
REVEALS = {3, 8, 13, 18, 24}


def main(paths: list[str]) -> None:
    data = json.loads((Path(__file__).resolve().parent.parent / "data" / "london.json").read_text())
    g = nx.MultiGraph()
    for c in data["connections"]:
        g.add_edge(c["a"], c["b"], transport=c["transport"])
    deck = set(data["start_decks"]["classic"])
    out = sys.stdout
    for p in paths:
        doc = json.loads(Path(p).read_text())
        pos = {d["name"]: d["start"] for d in doc["detectives"]}
        cands = doc.get("mrx", {}).get("start_candidates")
        S = (set(g.nodes) if cands == "any" else set(cands) if cands else set(deck)) - set(pos.values())
        n = 0
        for rnd in doc["rounds"]:
            occupied = set(pos.values())
            for m in rnd["mrx"]:
                n += 1
                ok = ALLOWED[m["ticket"]]
                nxt = set()
                for s in S:
                    for _, v, d in g.edges(s, data=True):
                        if d["transport"] in ok:
                            nxt.add(v)
                S = nxt - occupied
                if n in REVEALS:
                    S &= {m["to"]}
            for dm in rnd.get("detectives", []):
                pos[dm["name"]] = dm["to"]
                if dm.get("capture"):
                    S &= {dm["to"]}
                    break
                S.discard(dm["to"])
        out.write(json.dumps({"file": p, "count": len(S), "stations": sorted(S)}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
