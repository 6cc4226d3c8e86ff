"""Checking a puzzle (:func:`check_puzzle`): prove it again from its position, as ``puzzle
find`` did, and compare the proof with the solution the file gives."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..solvers.forced_search import SearchLimit
from .model import Puzzle, steps_of
from .prove import Belief, NotUnique, Prover, destinations


@dataclass
class CheckResult:
    """A puzzle's check: ``status`` ``proved`` (the win in ``turns`` holds, each turn of the
    line has one solution and the file's solution is it), ``wrong`` (``problems`` says why) or
    ``unknown`` (a limit stopped the proof)."""

    id: str
    status: str
    problems: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "proved"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "problems": list(self.problems), "nodes": self.nodes,
                "seconds": round(self.seconds, 3)}

    def line(self) -> str:
        what = {"proved": "proved: one solution", "unknown": "unknown: a limit stopped the proof"}.get(
            self.status, "WRONG: " + "; ".join(self.problems))
        return f"{self.id}: {what}"


def check_puzzle(puzzle: Puzzle, time_limit: float | None = None, max_nodes: int = 200_000) -> CheckResult:
    """Re-prove ``puzzle``: the detectives force a capture within ``puzzle.turns`` turns and not
    fewer, every turn of the main line has exactly one winning joint move (Mr. X replying his
    best), and the file's solution is that line (who goes where, how each turn ends, what Mr.
    X shows)."""
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    pos = puzzle.position()
    prover = Prover(pos, deadline, max_nodes)
    b = puzzle.belief()
    res = CheckResult(puzzle.id, "proved")
    try:
        k = prover.shortest(b, puzzle.turns)
        if k is None:
            res.problems.append(f"no forced capture within {puzzle.turns} turns")
        elif k < puzzle.turns:
            res.problems.append(f"a forced capture in {k} turns, fewer than the {puzzle.turns} the puzzle says")
        else:
            try:
                line = steps_of(prover.main_line(b, k))
            except NotUnique as e:
                res.problems.append(f"turn {e.turn} of the line has {e.wins} solutions" if e.wins
                                    else f"turn {e.turn} of the line has no winning move")
            else:
                res.problems += _compare(line, puzzle.solution)
    except SearchLimit:
        res.status = "unknown"
    if res.problems:
        res.status = "wrong"
    res.nodes = prover.nodes
    res.seconds = time.monotonic() - t0
    return res


def _compare(proved: Sequence[Any], given: Sequence[Any]) -> list[str]:
    if len(proved) != len(given):
        return [f"the solution has {len(given)} turns, the proof {len(proved)}"]
    out = []
    for i, (p, g) in enumerate(zip(proved, given), 1):
        if destinations(p.moves) != destinations(g.moves):
            out.append(f"turn {i}: the solution plays {_dest(g.moves)}, the only winning move is {_dest(p.moves)}")
        elif (p.end, p.trivial) != (g.end, g.trivial):
            out.append(f"turn {i}: the solution ends {g.end or 'open'}, the proof {p.end or 'open'}")
        elif p.has_reply and (p.reply_tickets, p.reply_shown) != (g.reply_tickets, g.reply_shown):
            out.append(f"turn {i}: Mr. X's best reply is {p.reply_text()}, the solution says {g.reply_text()}")
    return out


def _dest(moves: Sequence[Any]) -> str:
    return ", ".join(f"{m.piece} to {m.to}" for m in moves) or "no move"


def replay_line(puzzle: Puzzle) -> list[Belief]:
    """The beliefs after each of Mr. X's replies on the file's solution line (the positions a
    solver meets), computed by the engine's moves without proving anything."""
    pos = puzzle.position()
    prover = Prover(pos, None, None)
    s = prover.search
    b = puzzle.belief()
    out: list[Belief] = []
    for step in puzzle.solution:
        if not step.has_reply:
            break
        st, tk, mt, S = list(b.stations), list(b.tickets), b.mrx_tickets, b.possible
        for m in step.moves:
            i = pos.names.index(m.piece)
            st[i] = m.to if m.to is not None else st[i]
            tk[i] = s.spend(tk[i], m.tickets[0])
            if pos.rules.tickets_to_mrx:
                mt = s.gain(mt, m.tickets[0])
            S &= ~(1 << st[i])
        after = b._replace(stations=tuple(st), tickets=tuple(tk), mrx_tickets=mt, possible=S)
        nxt = next((r for r in prover.replies(after)
                    if (r.tickets, r.shown) == (step.reply_tickets, step.reply_shown)), None)
        if nxt is None:
            break
        b = nxt.after
        out.append(b)
    return out
