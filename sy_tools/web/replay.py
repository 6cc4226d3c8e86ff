"""``sy-tools replay``: a game as one self-contained HTML file, stepped through on the board.

The file holds the map, one frame per turn (what the detectives saw then: their pieces, where
Mr. X may be, his last reveal, the history) and, for a game whose Mr. X's log is at hand, his
true station beside it: the story of the game.  Its scripts and styles are the web table's own,
inlined, so it opens from disk with no server and no network."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from typing import Any

from ..analysis.possible import possible
from ..analysis.referee import check
from ..formats.record import Record
from ..play.session import plies_of, rounds_of
from .pages import static_text

#: The modules inlined into the file, in the order they depend on each other.
MODULES = ("board.js", "panels.js", "replay.js")


def full_record(record: Record, path: str) -> Record:
    """The whole game when ``record``'s ``play`` header names Mr. X's log and it is there (and
    says the same game), else ``record``."""
    from ..formats.record_io import load_record

    log = (record.extra.get("play") or {}).get("mrx_log")
    if not log:
        return record
    where = os.path.join(os.path.dirname(path), log)
    if not os.path.exists(where):
        return record
    full = load_record(where)
    if full.detectives_view().rounds != record.detectives_view().rounds:
        return record
    return full


def frames(record: Record) -> list[dict[str, Any]]:
    """One frame per turn of ``record``, and the start: the public view then, and Mr. X's true
    station when ``record`` holds it."""
    public = record.detectives_view()
    plies = plies_of(record)
    public_plies = plies_of(public)
    out = []
    moves = 0
    for k in range(len(plies) + 1):
        view = replace(public, rounds=rounds_of(public_plies[:k]))
        result = check(view)
        pos = result.position
        assert pos is not None
        where = possible(view)
        said = ""
        if k:
            said = public_plies[k - 1].public_text(public.rules, moves)
            moves += len(public_plies[k - 1].mrx)
        frame: dict[str, Any] = {
            "said": said, "status": result.status.describe(), "to_move": pos.to_move, "round": pos.round,
            "move": pos.move, "over": pos.outcome.over, "moment": where.moment_text(),
            "next_reveal": where.next_reveal, "moves_to_reveal": where.moves_to_reveal,
            "last_reveal": None if where.last_reveal is None else
            {"move": where.last_reveal[0], "station": where.last_reveal[1]},
            "detectives": [{"name": n, "at": at, "tickets": tk.to_dict(("taxi", "bus", "underground")),
                            "out": n in pos.out} for n, at, tk in zip(pos.names, pos.stations, pos.tickets)],
            "mrx": {"tickets": pos.mrx_tickets.to_dict()},
            "possible": [[s, round(p, 4)] for s, p in where.ranked()],
        }
        if record.mrx_start is not None:
            true = check(replace(record, rounds=rounds_of(plies[:k]))).position
            frame["mrx"]["at"] = None if true is None else true.mrx_at
        out.append(frame)
    return out


def replay_data(record: Record, board: dict[str, Any], title: str) -> dict[str, Any]:
    from .table import history_json

    return {"title": title, "board": board, "frames": frames(record),
            "history": history_json(record.detectives_view()),
            "true_history": history_json(record) if record.mrx_start is not None else None,
            "reveal_moves": list(record.rules.reveal_moves), "names": [d.name for d in record.detectives],
            "full": record.mrx_start is not None}


def _module(name: str) -> str:
    """A page module as a plain script: its imports dropped, its exports made local."""
    text = static_text(name)
    text = re.sub(r"^import [^;]*;\n", "", text, flags=re.M)
    return re.sub(r"^export ", "", text, flags=re.M)


def replay_html(data: dict[str, Any]) -> str:
    """The replay file: the data, the table's styles and scripts, all inline."""
    css = static_text("style.css")
    script = "\n".join(_module(m) for m in MODULES)
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    title = str(data["title"]).replace("&", "&amp;").replace("<", "&lt;")
    facts = static_text("facts.html")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scotland Yard: {title}</title>
<style>
{css}
</style>
</head>
<body class="page-replay">
<header class="bar">
  <div class="status"><span id="status"></span> <span id="reveal" class="reveal-note"></span></div>
  <span class="link up">replay</span>
</header>
<div id="banner" class="banner" hidden></div>
<main class="layout">
  <section class="board-wrap" id="board" aria-label="the board"></section>
  <aside class="panel">
    <div class="replay-controls">
      <button id="first" title="the start">|&lt;</button>
      <button id="back" title="a turn back (left arrow)">&lt;</button>
      <button id="play" class="primary">Play</button>
      <button id="next" title="a turn on (right arrow)">&gt;</button>
      <button id="last" title="the end">&gt;|</button>
      <input id="slider" type="range" min="0" value="0" aria-label="turn">
    </div>
    <p id="said" class="story"></p>
    <p id="truth" class="story"></p>
{facts}  </aside>
</main>
<div id="chooser" class="chooser" hidden></div>
<div id="toast" class="toast" hidden role="status"></div>
<script type="application/json" id="replay-data">{payload}</script>
<script>
(function () {{
"use strict";
{script}
}})();
</script>
</body>
</html>
"""
