"""What the play tests share: typing an engine move as a player would, an independent judge
(the notation text edited by hand, then ``check``), and the start of a game."""

from __future__ import annotations

import random
from pathlib import Path

from sy_tools.analysis.referee import check
from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.rules import preset
from sy_tools.engine.tickets import TICKET_LETTERS, Ticket
from sy_tools.formats.map_load import load_board
from sy_tools.formats.record_io import parse_record_text

LETTERS = {v: k for k, v in TICKET_LETTERS.items()}


def typed(move: Move, with_stations: bool, rules, moves_before: int) -> str:
    """``move`` as typed at the table: Mr. X's hidden stations only ``with_stations`` (his log
    is kept), reveal stations always."""
    if move.piece != MRX:
        return f"{move.piece} {TICKET_LETTERS[move.tickets[0]]} {move.to}"
    if move.is_pass:
        return "X -"
    hops = []
    for j, (t, s) in enumerate(zip(move.tickets, move.stations)):
        seen = rules.is_reveal(moves_before + j + 1) or move.shown == j
        hop = TICKET_LETTERS[t] + (f" {s}" if with_stations or seen else "")
        if move.shown == j and move.took is not None:
            hop += f" show {move.took[0]} {TICKET_LETTERS[move.took[1]]}"
        hops.append(hop)
    return "X " + (hops[0] if len(hops) == 1 else "2X " + "/".join(hops))


def with_entry(text: str, piece: str, entry: str) -> str:
    """The notation ``text`` with one more entry on ``piece``'s line (``X`` or a detective's
    name), the detective's line padded with ``-`` up to the round Mr. X's line has reached: the
    record a player would have written by hand."""
    lines = text.splitlines()
    x = next(i for i, ln in enumerate(lines) if ln.startswith("X"))
    x_entries = [e for e in lines[x].split(":", 1)[1].split(",") if e.strip()]
    if piece == MRX:
        idx = x
        n_before = len(x_entries)
    else:
        idx = next(i for i, ln in enumerate(lines) if ln.split(" ")[0] == piece and ":" in ln)
        n_before = len(x_entries) - 1
    head, body = lines[idx].split(":", 1)
    entries = [e.strip() for e in body.split(",") if e.strip()]
    entries += ["-"] * (n_before - len(entries))
    lines[idx] = f"{head}: " + ", ".join(entries + [entry])
    return "\n".join(lines) + "\n"


def judged(text: str, file: str):
    """``check`` of a notation text (None when it cannot even be read)."""
    try:
        return check(parse_record_text(text, file))
    except Exception:  # unreadable: the session must refuse it too
        return None


def random_wrong_move(pos, rng: random.Random) -> Move:
    """A move that is probably illegal here: a random ticket to a random station (near the
    piece half the time)."""
    board = pos.board
    stations = sorted(board.stations)
    if pos.turn == 0:
        n = 2 if rng.random() < 0.2 else 1
        tickets = tuple(rng.choice(list(Ticket)) for _ in range(n))
        return Move(MRX, tickets, tuple(rng.choice(stations) for _ in range(n)))
    name = pos.names[pos.turn - 1]
    here = pos.stations[pos.turn - 1]
    t = rng.choice([Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND])
    near = [d for tk in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND) for d in board.destinations(here, tk)]
    to = rng.choice(near) if near and rng.random() < 0.5 else rng.choice(stations)
    return Move(name, (t,), (to,))


def london():
    return load_board("london"), preset("classic")


def read(path: Path) -> str:
    return path.read_text() if path.exists() else ""
