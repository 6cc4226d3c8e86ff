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
    (``memo``), its rating and the rating's deviation (measured: :data:`SOLVERS`)."""

    name: str
    policy: str
    rating: float
    memo: tuple[tuple[str, Any], ...] = ()
    rd: float = 30.0

    def chooser(self, rng: random.Random) -> Chooser:
        return _policy_chooser(self.policy, dict(self.memo), rng)


#: The graded solvers, weakest first, with the ratings the puzzles are rated against: random
#: moves, the greedy step, and advise at growing budgets: one joint move one turn ahead (its
#: ``normal`` level), nine joint moves two turns ahead, and its ``hard`` level's 27 joint moves
#: two turns ahead with a forced-win search of 5,000 nodes.  The ratings and deviations are
#: measured from 800 four-round games between these and :data:`MRX_SOLVERS`
#: (:mod:`sy_tools.puzzles.ladder`), by
#: ``python -m benchmarks.bench_puzzles solver-ratings --seed 1 --positions 40`` on 2026-12-05.
SOLVERS: tuple[Solver, ...] = (
    Solver("random", "random", 1124.0, rd=47.0),
    Solver("greedy", "greedy", 1394.0, rd=35.0),
    Solver("advise-1", "advise", 1522.0, (("advise_candidates", 1), ("advise_depth", 1), ("advise_solve_nodes", 0),
                                          ("advise_time_limit", 60.0)), rd=33.0),
    Solver("advise-9", "advise", 1541.0, (("advise_candidates", 9), ("advise_depth", 2), ("advise_solve_nodes", 0),
                                          ("advise_time_limit", 60.0)), rd=32.0),
    Solver("advise-27", "advise", 1565.0, (("advise_candidates", 27), ("advise_depth", 2),
                                           ("advise_solve_nodes", 5000), ("advise_time_limit", 60.0)), rd=32.0),
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
        if ticket is None and words[0].isdigit():
            return "one detective's move at a time: type its station (41), or a ticket and a station (T 41)"
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


# ---- survival puzzles: the one who plays is Mr. X ----------------------------------------------

#: Who plays Mr. X in a survival puzzle: given the turn (its ``position`` has him to move at his
#: station; ``possible`` is his station), his move.
MrXChooser = Callable[[Turn], Move]


def detectives_reply(prover: Any, after: Position, left: int) -> tuple[tuple[Move, ...], Position]:
    """The detectives' reply to a surviving move of his with ``left`` turns left after it: the
    line's strongest reply (:meth:`~sy_tools.puzzles.survive.SurviveProver.strongest_reply`),
    or, when every reply leaves him two surviving moves or more (a ticket other than the
    line's), the one closing in most."""
    got = prover.strongest_reply(after, left, any_reply=True)
    assert got is not None
    return got[0], got[1]


def attempt_survival(puzzle: Puzzle, choose: MrXChooser, tell: Callable[[str], None] | None = None,
                     max_nodes: int | None = 2_000_000) -> AttemptResult:
    """Play survival ``puzzle`` with ``choose`` as Mr. X: a move is right when it survives the
    turns left (any such move: by the puzzle's uniqueness, one solution, with any ticket that
    survives); the detectives then reply their strongest."""
    from .model import mrx_move_text
    from .survive import SurviveProver, solution_of, solution_text

    res = AttemptResult(False)

    def say(line: str) -> None:
        res.lines.append(line)
        if tell is not None:
            tell(line)

    pos = puzzle.position()
    prover = SurviveProver(pos, None, max_nodes)
    where = {n: s for n, s in zip(pos.names, pos.stations)}
    for turn in range(1, puzzle.turns + 1):
        left = puzzle.turns - turn + 1
        assert pos.mrx_at is not None
        at = pos.mrx_at
        move = choose(Turn(puzzle, turn, left, pos, 1 << at))
        after = pos.push(move)
        if not prover.holds(after, left):
            right = prover.survivors(pos, left, 1)
            sol = solution_text(solution_of(right[0][1])) if right else "none"
            if right and solution_of(right[0][1]) == solution_of(move):  # the right station, a ticket that fails
                sol = mrx_move_text(right[0][1], at) + ": the ticket matters"
            say(f"turn {turn}: {mrx_move_text(move, at)} is caught within {left} turn{'s' if left != 1 else ''} "
                f"(the solution: {sol})")
            res.wrong_turn = turn
            return res
        if left == 1 or after.ended is not None:
            say(f"turn {turn}: {mrx_move_text(move, at)}: right. He survives {puzzle.turns} "
                f"turn{'s' if puzzle.turns != 1 else ''}. Solved!")
            res.solved = True
            return res
        from .prove import moves_text

        reply, pos = detectives_reply(prover, after, left - 1)
        say(f"turn {turn}: right. The detectives reply {moves_text(reply, where)}")
        if pos.ended is not None:  # (cannot happen: the move survives)
            break
    res.solved = True
    return res


def _mrx_policy_chooser(name: str, memo: dict[str, Any] | None, rng: random.Random) -> MrXChooser:
    from ..engine.observations import MrXObservation
    from ..selfplay.policies import load_policy

    policy = load_policy(name, "mrx")

    def choose(turn: Turn) -> Move:
        obs = MrXObservation(turn.position, turn.possible, dict(memo or {}))
        return policy(obs, rng)  # type: ignore[no-any-return]

    return choose


def terminal_mrx_chooser(read: Callable[[str], str | None], write: Callable[[str], None]) -> MrXChooser:
    """A person choosing Mr. X's move: a station (``46``), a ticket and a station (``K 46``), or a
    double move (``46 47``, ``T 46 B 47``); ``?`` lists his moves; ``quit`` gives up."""
    from ..engine.tickets import TICKET_LETTERS

    def choose(turn: Turn) -> Move:
        pos = turn.position
        write(f"turn {turn.number} of {turn.number + turn.left - 1}: the detectives at "
              + ", ".join(f"{n} {s}" for n, s in zip(pos.names, pos.stations) if n not in pos.out))
        legal = pos.legal_moves()
        while True:
            line = read(f"Mr. X at {pos.mrx_at} moves to: ")
            if line is None or line.strip().lower() in ("quit", "q", "exit"):
                raise GaveUp()
            if line.strip() == "?":
                write("  " + ", ".join(" ".join(f"{TICKET_LETTERS[t]} {s}" for t, s in zip(m.tickets, m.stations))
                                       for m in legal))
                continue
            m = read_mrx_move(line, legal)
            if isinstance(m, Move):
                return m
            write("  " + m)

    return choose


def read_mrx_move(text: str, legal: Sequence[Move]) -> Move | str:
    """Mr. X's move as a person types it: legs of an optional ticket (T, B, U, K: black) and a
    station; two legs make a double move.  A station without a ticket takes the first legal
    ticket there (the engine's order).  A leading ``2X`` (as ``solve`` writes a double move)
    asks for two legs."""
    from ..engine.tickets import Ticket

    kinds = {"t": Ticket.TAXI, "taxi": Ticket.TAXI, "b": Ticket.BUS, "bus": Ticket.BUS, "u": Ticket.UNDERGROUND,
             "underground": Ticket.UNDERGROUND, "k": Ticket.BLACK, "black": Ticket.BLACK, "x": Ticket.BLACK}
    words = text.replace(",", " ").split()
    double = bool(words) and words[0].lower() == "2x"  # as solve writes one: 2X T 194 T 182
    words = words[double:]
    legs: list[tuple[Ticket | None, int]] = []
    ticket: Ticket | None = None
    for w in words:
        if w.isascii() and w.isdigit() and len(w) <= 6:
            legs.append((ticket, int(w)))
            ticket = None
        elif w.lower() in kinds and ticket is None:
            ticket = kinds[w.lower()]
        else:
            return f"unknown word {w[:20]!r}: type a station (46), a ticket and a station (K 46), or two for a double (2X T 46 B 58)"
    if not legs or ticket is not None or len(legs) > 2:
        return "type a station (46), a ticket and a station (K 46), or two legs for a double move; ? lists them"
    if double and len(legs) != 2:
        return "a double move (2X) takes two legs: 2X T 46 B 58"
    for m in legal:
        if len(m.tickets) == len(legs) and all(s == to and (t is None or mt is t)
                                               for (t, to), mt, s in zip(legs, m.tickets, m.stations)):
            return m
    return "no legal move " + " ".join(f"{t.value + ' ' if t else ''}{s}" for t, s in legs)


@dataclass(frozen=True)
class MrXSolver:
    """A graded solver of survival puzzles: a built-in Mr. X policy with its budget, its
    rating and deviation (measured: :data:`MRX_SOLVERS`)."""

    name: str
    policy: str
    rating: float
    memo: tuple[tuple[str, Any], ...] = ()
    rd: float = 30.0

    def chooser(self, rng: random.Random) -> MrXChooser:
        return _mrx_policy_chooser(self.policy, dict(self.memo), rng)


#: The graded solvers of survival puzzles, weakest first: random moves, the greedy Mr. X, and
#: advise's ranking alone (its ``normal`` level) and with a 300-iteration tree search among his
#: best four moves (its ``hard`` level).  Ratings measured with :data:`SOLVERS` (same command,
#: same date, one scale).
MRX_SOLVERS: tuple[MrXSolver, ...] = (
    MrXSolver("x-random", "random", 1249.0, rd=30.0),
    MrXSolver("x-greedy", "greedy", 1580.0, rd=27.0),
    MrXSolver("x-advise-1", "advise", 1726.0, (("advise_mrx_candidates", 1), ("advise_mrx_iterations", 0),
                                               ("time_limit", 60.0)), rd=32.0),
    MrXSolver("x-advise-300", "advise", 1799.0, (("advise_mrx_candidates", 4), ("advise_mrx_iterations", 300),
                                                 ("time_limit", 60.0)), rd=37.0),
)
