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
    if puzzle.survival:
        return check_survival(puzzle, deadline, max_nodes, t0)
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
    return _finished(res, prover.nodes, t0)


def _finished(res: CheckResult, nodes: int, t0: float) -> CheckResult:
    """``res`` with its verdict (wrong when a problem was found), the prover's nodes and the time."""
    if res.problems:
        res.status = "wrong"
    res.nodes = nodes
    res.seconds = time.monotonic() - t0
    return res


def check_survival(puzzle: Puzzle, deadline: float | None, max_nodes: int | None, t0: float) -> CheckResult:
    """:func:`check_puzzle` for a survival puzzle: one of his moves alone survives its N turns
    (with N - 1 at least two do), each turn of the line has one surviving move after the
    detectives' strongest reply, and the file's solution is that line (his moves as solutions,
    the detectives' replies as who goes where)."""
    from .model import survival_steps_of
    from .survive import NotUniqueSurvival, SurviveProver, solution_of, solution_text

    pos = puzzle.position()
    prover = SurviveProver(pos, deadline, max_nodes)
    res = CheckResult(puzzle.id, "proved")
    try:
        n = prover.horizon(pos, puzzle.turns)
        if n is None:
            alive = prover.survivors(pos, puzzle.turns, 2)
            res.problems.append("no move of his survives" if not alive else
                                "two or more of his moves survive" if len(alive) > 1 else "he has one move only")
        elif n < puzzle.turns:
            res.problems.append(f"one move alone survives {n} turns already, fewer than the {puzzle.turns} the "
                                "puzzle says")
        else:
            try:
                line = survival_steps_of(prover.main_line(pos, n))
            except NotUniqueSurvival as e:
                res.problems.append(f"turn {e.turn} of the line has {e.survivors} surviving moves" if e.survivors
                                    else f"turn {e.turn} of the line has no surviving move")
            else:
                if len(line) != len(puzzle.solution):
                    res.problems.append(f"the solution has {len(puzzle.solution)} turns, the proof {len(line)}")
                for i, (p, g) in enumerate(zip(line, puzzle.solution), 1):
                    if solution_of(p.moves[0]) != solution_of(g.moves[0]):
                        res.problems.append(f"turn {i}: the solution plays {solution_text(solution_of(g.moves[0]))}, "
                                            f"the only surviving move is {solution_text(solution_of(p.moves[0]))}")
                    elif (p.trivial, p.choices) != (g.trivial, g.choices or p.choices):  # as solve prints them
                        res.problems.append(f"turn {i}: he has {_moves_said(p)}, the solution says {_moves_said(g)}")
                    elif destinations(p.reply_moves) != destinations(g.reply_moves):
                        res.problems.append(f"turn {i}: the detectives' strongest reply is {_dest(p.reply_moves)}, "
                                            f"the solution says {_dest(g.reply_moves)}")
    except SearchLimit:
        res.status = "unknown"
    return _finished(res, prover.nodes, t0)


def survival_positions(puzzle: Puzzle) -> list[Any]:
    """The positions (Mr. X to move) at each turn of a survival puzzle's line, the engine
    playing the file's moves without proving anything."""
    pos = puzzle.position()
    out = [pos]
    for step in puzzle.solution:
        if not step.reply_moves:
            break
        try:
            pos = pos.push(step.moves[0])
            for m in step.reply_moves:
                pos = pos.push(m)
        except (ValueError, IndexError):
            break
        if pos.ended is not None or pos.turn != 0:
            break
        out.append(pos)
    return out


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
        elif p.has_reply and g.replies and p.replies != g.replies:  # solve prints "of his N replies"
            out.append(f"turn {i}: Mr. X has {p.replies} replies, the solution says {g.replies}")
        elif p.has_reply and g.reply_possible and tuple(p.reply_possible) != tuple(g.reply_possible):
            out.append(f"turn {i}: after his reply he may be at {' '.join(map(str, p.reply_possible))}, the solution "
                       f"says {' '.join(map(str, g.reply_possible))}")
    return out


def _moves_said(step: Any) -> str:
    return "one move only (forced)" if step.trivial else f"{step.choices or 'several'} moves"


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
