"""A plain brute-force oracle for capture puzzles: minimax over the engine's
:class:`~sy_tools.engine.position.Position` (its legal moves and ``push``), with nothing of the
solver (no belief-state search, no bounds, no tables).

The detectives' knowledge is followed the plain way: Mr. X's possible set after a move he
makes is the set of stations some legal move of his, from some station he may be at, ends on
while showing the same tickets (and, on a reveal, the same station); a detective stepping onto
a station takes it out of the set, and out of stations means caught.  A win within k turns: a
joint move that catches him or leaves him without a legal move from every station he may be at,
or (k > 1) after which every thing he may show leaves a win within k - 1."""

from __future__ import annotations

import dataclasses
import random

from helpers import small_board

from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import Tickets

Joint = tuple[Move, ...]


def joints(pos: Position, S: frozenset[int]) -> list[tuple[Joint, Position, frozenset[int]]]:
    """Every joint move of the detectives' turn from ``pos``: (moves, position after, set after);
    a move onto his last possible station ends the turn (caught: empty set)."""
    if pos.ended is not None or pos.turn == 0:
        return [((), pos, S)]
    moves = pos.legal_moves()
    if not moves:  # stuck: it skips the turn
        return joints(pos.pass_turn(), S)
    out = []
    for m in moves:
        S2 = S - {m.to}
        after = pos.push(m)
        if not S2:
            out.append(((m,), after, S2))
            continue
        for rest, p, s in joints(after, S2):
            out.append(((m,) + rest, p, s))
    return out


def mrx_groups(pos: Position, S: frozenset[int]) -> list[tuple[Position, frozenset[int]]]:
    """What the detectives may see of his move: per (tickets, shown stations), the position
    after it (his station unknown) and the stations he may then be at."""
    groups: dict[tuple, tuple[Position, set[int]]] = {}
    for s in sorted(S):
        p = pos.with_mrx_at(s)
        if p.ended is not None:
            continue
        for m in p.legal_moves():
            seen = tuple(st if pos.rules.is_reveal(pos.move + i + 1) else None for i, st in enumerate(m.stations))
            key = (m.tickets, seen)
            after = dataclasses.replace(p.push(m), mrx_at=None)
            groups.setdefault(key, (after, set()))[1].add(m.to)
    return [(p, frozenset(d)) for p, d in groups.values()]


def joint_wins(after: Position, S: frozenset[int], k: int) -> bool:
    """Whether the detectives have won, or will within ``k - 1`` more turns, after a joint move."""
    if not S:
        return True
    if after.ended is not None:  # his log is full, or no detective can move: he won
        return False
    if after.rules.trapped_loses and all(after.with_mrx_at(s).ended is not None for s in S):
        return True
    if k == 1:
        return False
    return all(wins(p, s2, k - 1) for p, s2 in mrx_groups(after, S))


def wins(pos: Position, S: frozenset[int], k: int) -> bool:
    return any(joint_wins(after, s2, k) for _, after, s2 in joints(pos, S))


def winning_joints(pos: Position, S: frozenset[int], k: int) -> set[Joint]:
    """Every first joint move that wins within ``k`` turns."""
    return {moves for moves, after, s2 in joints(pos, S) if joint_wins(after, s2, k)}


def small_position(seed: int) -> tuple[Position, frozenset[int]]:
    """A small generated puzzle position: a random map of 10-14 stations, two or three
    detectives with few tickets, Mr. X's possible set of one to three stations, a move number
    near a reveal."""
    rng = random.Random(seed)
    board = small_board(rng, rng.randint(10, 14))
    rules = PRESETS["classic"]
    n = rng.choice((2, 2, 3))
    stations = rng.sample(sorted(board.stations), n + 3)
    dets = stations[:n]
    S = frozenset(rng.sample(stations[n:], rng.randint(1, 3)))
    tickets = tuple(Tickets.of({"taxi": rng.randint(1, 3), "bus": rng.randint(0, 2), "underground": rng.randint(0, 1)})
                    for _ in range(n))
    mt = Tickets.of({"taxi": rng.randint(1, 3), "bus": rng.randint(0, 2), "underground": rng.randint(0, 1),
                     "black": rng.randint(0, 1), "double": rng.randint(0, 1)})
    move = rng.choice((1, 2, 6, 7, 11))
    names = ("Red", "Blue", "Green")[:n]
    pos = Position(board, rules, names, tuple(dets), tickets, frozenset(), mt, None, move, move, 0, 1)
    return pos, S


# ---- the survive kind: Mr. X to move, every station known ------------------------------------------

def _lost(pos: Position) -> bool:
    from sy_tools.engine.moves import OutcomeKind

    return pos.ended is not None and pos.ended.kind in (OutcomeKind.CAPTURE, OutcomeKind.TRAPPED)


def x_survives(pos: Position, r: int) -> bool:
    """Plain minimax: Mr. X to move at ``pos`` (his station known) survives ``r`` turns (his
    move and the detectives' whole turn each; a game that ends otherwise than captured or
    trapped is survived)."""
    if pos.ended is not None:
        return not _lost(pos)
    if r == 0:
        return True
    return any(after_x_holds(pos.push(m), r) for m in pos.legal_moves())


def after_x_holds(pos: Position, r: int) -> bool:
    """After his move: he survives every way the detectives play this turn, and ``r - 1`` more."""
    if pos.ended is not None:
        return not _lost(pos)
    if pos.turn == 0:
        return x_survives(pos, r - 1)
    moves = pos.legal_moves()
    if not moves:
        return after_x_holds(pos.pass_turn(), r)
    return all(after_x_holds(pos.push(m), r) for m in moves)


def surviving_solutions(pos: Position, r: int) -> set[tuple[int, int]]:
    """His solutions (legs, destination; a pass is (0, -1)) with a move that survives ``r`` turns."""
    return {(len(m.tickets), -1 if m.to is None else m.to) for m in pos.legal_moves() if after_x_holds(pos.push(m), r)}


def small_survival_position(seed: int) -> Position:
    """A small generated survival position: a random map of 9-12 stations, two or three
    detectives with few tickets, Mr. X to move at a station no detective holds, a black ticket
    or a double move now and then."""
    rng = random.Random(seed)
    board = small_board(rng, rng.randint(11, 16))
    rules = PRESETS["classic"]
    n = rng.choice((2, 2, 3))
    stations = rng.sample(sorted(board.stations), n + 1)
    tickets = tuple(Tickets.of({"taxi": rng.randint(1, 3), "bus": rng.randint(0, 2), "underground": rng.randint(0, 1)})
                    for _ in range(n))
    mt = Tickets.of({"taxi": rng.randint(1, 3), "bus": rng.randint(0, 2), "underground": rng.randint(0, 1),
                     "black": rng.choice((0, 0, 1)), "double": rng.choice((0, 0, 1))})
    move = rng.choice((4, 6, 9, 22))
    names = ("Red", "Blue", "Green")[:n]
    return Position(board, rules, names, tuple(stations[:n]), tickets, frozenset(), mt, stations[n], move, move, 0, 0)


def tight_survival_position(seed: int) -> Position:
    """A small survival position where the prover's reductions matter: a map of 9-16 stations,
    three or four detectives (some far from him, with mixed tickets: what they hand him under
    ``tickets_to_mrx`` may decide whether he can move, and where they end whether they can
    still move), Mr. X with none or one ticket of each kind, double moves often, and rules
    with and without ``tickets_to_mrx`` and ``trapped_loses``, one or two double moves."""
    rng = random.Random(seed)
    board = small_board(rng, rng.randint(9, 16))
    rules = dataclasses.replace(PRESETS[rng.choice(("classic", "2014"))], tickets_to_mrx=rng.random() < 0.7,
                                trapped_loses=rng.random() < 0.7, double_moves_per_game=rng.choice((1, 2)),
                                blocked_detective=rng.choice(("waits", "out")))
    n = rng.choice((3, 3, 4))
    stations = rng.sample(sorted(board.stations), n + 1)
    tickets = tuple(Tickets.of({"taxi": rng.randint(0, 2), "bus": rng.randint(0, 2),
                                "underground": rng.randint(0, 1)}) for _ in range(n))
    mt = Tickets.of({"taxi": rng.randint(0, 1), "bus": rng.randint(0, 1), "underground": rng.randint(0, 1),
                     "black": rng.choice((0, 0, 1)), "double": rng.choice((0, 1, 2))})
    move = rng.choice((4, 6, 9, 21, 22))
    doubles = rng.choice((0, 0, 1))
    names = ("Red", "Blue", "Green", "Yellow")[:n]
    return Position(board, rules, names, tuple(stations[:n]), tickets, frozenset(), mt, stations[n], move, move,
                    doubles, 0)
