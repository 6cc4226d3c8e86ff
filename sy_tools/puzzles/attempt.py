"""Attempts at a puzzle (:func:`attempt`): someone plays the detectives turn by turn, the
solver judges each joint move and answers as Mr. X.

A joint move is right when a forced win within the turns left follows it (any such move,
not only the file's: a puzzle has one solution per turn, who goes where, and the tickets
ridden may differ); Mr. X then replies his best (the reply that holds out longest, then the
one leaving the largest possible set: the main line's rule).  A wrong joint move ends the
attempt.  The one who plays is a :data:`Chooser`: a person at the terminal (``puzzle try``),
or a graded built-in policy (:data:`SOLVERS`, for the ratings)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.moves import Move
from ..engine.position import Position
from ..engine.stations import StationMask, stations_of
from .model import Puzzle
from .prove import Belief, Joint, MrXReply, Prover, destinations


@dataclass(frozen=True)
class Turn:
    """What the one who plays sees at a turn: the puzzle, the turn (from 1), the turns left, the
    position (Mr. X's station unknown, the first detective that can move to move) and his
    possible set."""

    puzzle: Puzzle
    number: int
    left: int
    position: Position
    possible: StationMask


#: Who plays: given the turn, the joint move (moves in turn order; stop at a capture).
Chooser = Callable[[Turn], Sequence[Move]]


@dataclass
class AttemptResult:
    """How an attempt went: solved or not, the turn it went wrong on (None when solved), and
    what happened, line by line (what ``puzzle try`` prints)."""

    solved: bool
    wrong_turn: int | None = None
    lines: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"solved": self.solved, "wrong_turn": self.wrong_turn, "lines": list(self.lines)}


def position_of(puzzle: Puzzle, b: Belief) -> Position:
    """The engine's position for belief ``b`` of ``puzzle``'s game, the first detective that
    can move to move."""
    base = puzzle.position()
    names = base.names
    out = frozenset(n for i, n in enumerate(names) if b.out >> i & 1)
    pos = Position(base.board, base.rules, names, b.stations, b.tickets, out, b.mrx_tickets, None, b.move, base.round,
                   b.doubles, 1)
    i = 0
    while i < len(names) and (names[i] in out or not pos.detective_moves(names[i])):
        i += 1
    if 0 < i < len(names):
        pos = Position(base.board, base.rules, names, b.stations, b.tickets, out, b.mrx_tickets, None, b.move,
                       base.round, b.doubles, i + 1)
    return pos


def best_reply(prover: Prover, after: Belief, k: int) -> MrXReply:
    """Mr. X's best reply after a winning joint move with ``k`` turns left (this one included)."""
    best: tuple[tuple[int, int], MrXReply] | None = None
    for o in prover.replies(after):
        kk = prover.shortest(o.after, k - 1)
        key = (kk if kk is not None else k, o.after.possible.bit_count())
        if best is None or key > best[0]:
            best = (key, o)
    assert best is not None
    return best[1]


def attempt(puzzle: Puzzle, choose: Chooser, tell: Callable[[str], None] | None = None,
            max_nodes: int | None = 200_000) -> AttemptResult:
    """Play ``puzzle`` with ``choose`` on the detectives' side (see the module docstring);
    ``tell`` hears each line of what happens as it happens."""
    res = AttemptResult(False)

    def say(line: str) -> None:
        res.lines.append(line)
        if tell is not None:
            tell(line)

    prover = Prover(puzzle.position(), None, max_nodes)
    b, k = puzzle.belief(), puzzle.turns
    turn = 1
    while True:
        wins: dict[Any, Joint] = {}
        for j in prover.winning_moves(b, k, None):
            wins.setdefault(destinations(j.moves), j)
        moves = tuple(choose(Turn(puzzle, turn, k, position_of(puzzle, b), b.possible)))
        hit = wins.get(destinations(moves))
        if hit is None:
            right = next(iter(wins.values()))
            say(f"turn {turn}: not a forced win: he gets away (the solution: "
                f"{', '.join(f'{m.piece} to {m.to}' for m in right.moves)})")
            res.wrong_turn = turn
            return res
        j = hit
        if j.end is not None:
            say(f"turn {turn}: {'caught' if j.end == 'caught' else 'he cannot move: trapped'}. Solved!")
            res.solved = True
            return res
        r = best_reply(prover, j.after, k)
        say(f"turn {turn}: right. Mr. X shows {r.describe()}; he may now be at "
            f"{' '.join(map(str, stations_of(r.after.possible)))}")
        b, k, turn = r.after, k - 1, turn + 1


def joint_by_detective(turn: Turn, pick: Callable[[Position, StationMask, list[Move]], Move]) -> list[Move]:
    """A joint move made one detective at a time through the engine: ``pick(position,
    possible, legal moves)`` chooses each detective's move; stuck detectives pass; a move onto
    his last possible station ends it."""
    pos, S = turn.position, turn.possible
    moves: list[Move] = []
    while S and pos.ended is None and pos.turn >= 1:
        legal = pos.legal_moves()
        if not legal:
            pos = pos.pass_turn()
            continue
        m = pick(pos, S, legal)
        moves.append(m)
        if m.to is not None:
            S &= ~(1 << m.to)
        pos = pos.push(m)
    return moves


# ---- graded solvers ------------------------------------------------------------------------------

def _policy_chooser(name: str, memo: dict[str, Any] | None, rng: random.Random) -> Chooser:
    from ..engine.observations import DetectiveObservation
    from ..selfplay.policies import load_policy

    policy = load_policy(name, "detectives")

    def choose(turn: Turn) -> list[Move]:
        state: dict[str, Any] = dict(memo or {})

        def pick(pos: Position, S: StationMask, legal: list[Move]) -> Move:
            obs = DetectiveObservation.of(pos, S, memo=state)
            return policy(obs, rng)

        return joint_by_detective(turn, pick)

    return choose


@dataclass(frozen=True)
class Solver:
    """A graded solver: a name, the built-in detectives' policy it plays with its budget
    (``memo``) and its fixed rating (the ladder :data:`SOLVERS`)."""

    name: str
    policy: str
    rating: float
    memo: tuple[tuple[str, Any], ...] = ()

    def chooser(self, rng: random.Random) -> Chooser:
        return _policy_chooser(self.policy, dict(self.memo), rng)


#: The graded solvers, weakest first, with the fixed ratings the puzzles are rated against:
#: random moves, the greedy step, and advise at growing budgets: one joint move one turn ahead
#: (its ``normal`` level), nine joint moves two turns ahead, and its ``hard`` level's 27 joint
#: moves two turns ahead with a forced-win search of 5,000 nodes.
SOLVERS: tuple[Solver, ...] = (
    Solver("random", "random", 1000.0),
    Solver("greedy", "greedy", 1250.0),
    Solver("advise-1", "advise", 1500.0, (("advise_candidates", 1), ("advise_depth", 1), ("advise_solve_nodes", 0),
                                          ("advise_time_limit", 60.0))),
    Solver("advise-9", "advise", 1750.0, (("advise_candidates", 9), ("advise_depth", 2), ("advise_solve_nodes", 0),
                                          ("advise_time_limit", 60.0))),
    Solver("advise-27", "advise", 2000.0, (("advise_candidates", 27), ("advise_depth", 2),
                                           ("advise_solve_nodes", 5000), ("advise_time_limit", 60.0))),
)


# ---- a person at the terminal --------------------------------------------------------------------

class GaveUp(Exception):
    """The person at the terminal stopped (``quit``, or the end of the input)."""


def read_move(text: str, legal: Sequence[Move]) -> Move | str:
    """A detective's move as a person types it (``41``, ``T 41``, ``bus 41``), or why it is not
    one of ``legal``.  A station alone takes the first legal ticket to it (taxi, bus,
    underground: who goes where is the solution)."""
    from ..engine.tickets import Ticket

    words = text.replace(",", " ").split()
    kinds = {"t": Ticket.TAXI, "taxi": Ticket.TAXI, "b": Ticket.BUS, "bus": Ticket.BUS, "u": Ticket.UNDERGROUND,
             "underground": Ticket.UNDERGROUND}
    if not words or not words[-1].isascii() or not words[-1].isdigit() or len(words) > 2 or len(words[-1]) > 6:
        return "type a station (41), or a ticket and a station (T 41, bus 41); ? lists the moves"
    to = int(words[-1])
    ticket = None
    if len(words) == 2:
        ticket = kinds.get(words[0].lower())
        if ticket is None:
            return f"unknown ticket {words[0]!r}: T, B or U (taxi, bus, underground)"
    for m in legal:
        if m.to == to and (ticket is None or m.tickets[0] is ticket):
            return m
    return f"no legal move to {to}" + (f" by {ticket.value}" if ticket is not None else "")


def terminal_chooser(read: Callable[[str], str | None], write: Callable[[str], None]) -> Chooser:
    """A person choosing each detective's move: ``read(prompt)`` gives a line (None at the end
    of the input), ``write`` shows a line.  ``?`` lists the legal moves; ``quit`` gives up
    (:class:`GaveUp`)."""
    from ..engine.tickets import TICKET_LETTERS

    def pick(pos: Position, S: StationMask, legal: list[Move]) -> Move:
        name = pos.names[pos.turn - 1]
        here = pos.stations[pos.turn - 1]
        while True:
            line = read(f"{name} at {here} moves to: ")
            if line is None or line.strip().lower() in ("quit", "q", "exit"):
                raise GaveUp()
            if line.strip() == "?":
                write("  " + ", ".join(f"{TICKET_LETTERS[m.tickets[0]]} {m.to}" for m in legal))
                continue
            m = read_move(line, legal)
            if isinstance(m, Move):
                return m
            write("  " + m)

    def choose(turn: Turn) -> list[Move]:
        write(f"turn {turn.number} of {turn.number + turn.left - 1}: Mr. X may be at "
              f"{' '.join(map(str, stations_of(turn.possible)))}")
        return joint_by_detective(turn, pick)

    return choose
