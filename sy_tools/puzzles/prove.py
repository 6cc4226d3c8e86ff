"""Proving a capture puzzle: the shortest forced win, every first joint move that wins it, and
the main line with Mr. X's best replies (:class:`Prover`).

The detectives' side is the solver's (:mod:`sy_tools.solvers.forced_search`): a *belief state*
(:class:`Belief`) is what the detectives know, their stations and tickets, who is out, Mr.
X's possible set ``S``, his tickets, the move number and the double moves he used.  A joint
move is the detectives' moves of one turn in turn order (a stuck detective has none; a
capture ends it).  :meth:`Prover.winning_moves` lists the joint moves from which a forced win
within ``k`` turns follows, trying *every* legal move of every detective (the search itself
prunes moves that cannot matter, which is right for "is there a win" and wrong for "how
many"), and asks the search only whether a win follows each partial move.

A puzzle's line (:meth:`Prover.main_line`): at each detectives' turn exactly one joint move
wins within the turns left, and every other loses (a solution is who goes where,
:func:`destinations`: joint moves that differ only in the tickets ridden count as one, the
line keeping the first in the engine's order, and a solver naming any of them is right); Mr. X's reply is his best, the one that
holds out longest (then the one leaving the largest possible set).  A turn where he is known
to stand on one station and a detective can step onto it is *trivial*: it ends the line
without asking for uniqueness (the trimmed last move).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..engine.moves import Move
from ..engine.position import Position
from ..engine.stations import Station, StationMask
from ..engine.tickets import Ticket, Tickets
from ..solvers.forced_search import TABLE_SIZE, Search

#: Node budget of one prover (a candidate that needs more is dropped, never half-proved).
PROVER_NODES = 3_000


class Belief(NamedTuple):
    """What the detectives know at the start of (or part-way through) their turn; the order is
    the search's."""

    stations: tuple[Station, ...]
    tickets: tuple[Tickets, ...]
    out: int  # bit i: detective i is out
    possible: StationMask
    mrx_tickets: Tickets
    move: int
    doubles: int


def belief_of(position: Position, possible: StationMask) -> Belief:
    """The belief state of ``position`` (Mr. X's station not used) with his possible set."""
    idx = {n: i for i, n in enumerate(position.names)}
    out = 0
    for n in position.out:
        out |= 1 << idx[n]
    return Belief(position.stations, position.tickets, out, possible & ~position.occupied, position.mrx_tickets,
                  position.move, position.doubles)


@dataclass(frozen=True)
class Joint:
    """A winning joint move: the moves, the belief after them and how the turn ends
    (``"caught"``, ``"trapped"`` or None: Mr. X moves next)."""

    moves: tuple[Move, ...]
    after: Belief
    end: str | None


@dataclass(frozen=True)
class MrXReply:
    """What Mr. X shows (tickets, shown station per leg or None) and the belief after it."""

    tickets: tuple[Ticket, ...]
    shown: tuple[Station | None, ...]
    after: Belief
    took: tuple[str, Ticket] | None = None

    def describe(self) -> str:
        if not self.tickets:
            return "a pass"
        legs = [t.value + (f" at {s}" if s is not None else "") for t, s in zip(self.tickets, self.shown)]
        return ("2X " if len(legs) == 2 else "") + "/".join(legs)


@dataclass(frozen=True)
class LineStep:
    """One detectives' turn of a puzzle's main line: the joint move, the number of winning
    joint moves found (1, or more on a trivial turn), whether the turn is trivial, the belief
    before it, Mr. X's best reply (None when the turn ends the game) and how many replies he
    had."""

    before: Belief
    joint: Joint
    trivial: bool
    reply: MrXReply | None = None
    replies: int = 0


class NotUnique(Exception):
    """The line has a turn with more than one winning joint move (or none)."""

    def __init__(self, turn: int, wins: int) -> None:
        super().__init__(f"turn {turn}: {wins} winning joint moves")
        self.turn = turn
        self.wins = wins


class Prover:
    """The forced-win search set up on ``position`` (its board, rules, detectives' names and
    round), asked the puzzle's questions.  ``deadline`` (``time.monotonic()``) and
    ``max_nodes`` bound the search: past them it raises
    :class:`~sy_tools.solvers.forced_search.SearchLimit`."""

    def __init__(self, position: Position, deadline: float | None = None, max_nodes: int | None = PROVER_NODES,
                 table_size: int = TABLE_SIZE) -> None:
        self.position = position
        self.search = Search(position, deadline, max_nodes, table_size)

    @property
    def nodes(self) -> int:
        return self.search.nodes

    def wins_within(self, b: Belief, k: int) -> bool:
        """Whether the detectives, to move at the start of their turn, force a win within ``k``
        turns."""
        return self.search.turn(0, *b, k) is not None

    def shortest(self, b: Belief, k_max: int) -> int | None:
        """The fewest turns within which the detectives force a win (None: not within ``k_max``)."""
        for k in range(1, k_max + 1):
            if self.wins_within(b, k):
                return k
        return None

    def winning_moves(self, b: Belief, k: int, limit: int | None = 2) -> list[Joint]:
        """The joint moves (in the engine's move order) from which a win within ``k`` turns
        follows, this turn included; they stop at ``limit`` different :func:`destinations`
        (None: all of them)."""
        s = self.search
        info = s.turn_info(0, *b, k)
        found: list[Joint] = []
        self._joint(0, b, k, (), info, limit, found)
        return found

    def _joint(self, i: int, b: Belief, k: int, path: tuple[tuple[int, Ticket, Station], ...], info: object,
               limit: int | None, found: list[Joint]) -> None:
        s = self.search
        st, tk, out, S, mt, move, doubles = b
        while i < s.n and out >> i & 1:
            i += 1
        if i == s.n:
            node = s.end_round(st, tk, out, S, mt, move, doubles, k, path, False)
            if node is not None:
                found.append(Joint(s.moves(path), b, node.end))
            return
        hops = s.legal_hops(i, st, tk)
        if not hops:  # stuck: skips the turn (out for good where the rules say so)
            gone = 1 << i if s.rules.stuck_is_out(bool(s.hops(st[i], tk[i]))) else 0
            self._joint(i + 1, b._replace(out=out | gone), k, path, info, limit, found)
            return
        for t, d in hops:
            s.tick()
            p2 = path + ((i, t, d),)
            S2 = S & ~(1 << d)
            st2 = st[:i] + (d,) + st[i + 1:]
            tk2 = tk[:i] + (s.spend(tk[i], t),) + tk[i + 1:]
            mt2 = s.gain(mt, t) if s.rules.tickets_to_mrx else mt
            b2 = Belief(st2, tk2, out, S2, mt2, move, doubles)
            if not S2:
                found.append(Joint(s.moves(p2), b2, "caught"))
            elif s.detective(i + 1, st2, tk2, out, S2, mt2, move, doubles, k, p2, info, False) is not None:  # type: ignore[arg-type]
                self._joint(i + 1, b2, k, p2, info, limit, found)
            if limit is not None and len({destinations(j.moves) for j in found}) >= limit:
                return

    def replies(self, b: Belief) -> list[MrXReply]:
        """Everything Mr. X may show after the detectives' turn that left ``b``."""
        st, tk, out, S, mt, move, doubles = b
        return [MrXReply(o[0], o[1], Belief(st, o[6], out, o[2], o[3], o[4], o[5]), o[7])
                for o in self.search.mrx_options(st, tk, out, S, mt, move, doubles)]

    def trivial(self, b: Belief) -> bool:
        """Mr. X is known to stand on one station and a detective that moves this turn can step
        onto it."""
        if b.possible.bit_count() != 1:
            return False
        s = self.search
        target = b.possible.bit_length() - 1
        return any(not b.out >> i & 1 and any(d == target for _, d in s.legal_hops(i, b.stations, b.tickets))
                   for i in range(s.n))

    def main_line(self, b: Belief, k: int) -> list[LineStep]:
        """The puzzle's line from ``b`` with a win in ``k`` (the shortest): each detectives'
        turn's only winning joint move and Mr. X's best reply, until the game ends or a turn is
        trivial.  :class:`NotUnique` when a turn has more than one winning joint move."""
        steps: list[LineStep] = []
        turn = 1
        while True:
            if self.trivial(b):
                wins = self.winning_moves(b, 1, 1)
                steps.append(LineStep(b, wins[0], True))
                return steps
            wins = self.winning_moves(b, k, 2)
            solutions = len({destinations(w.moves) for w in wins})
            if solutions != 1:
                raise NotUnique(turn, solutions)
            j = wins[0]
            if j.end is not None:
                steps.append(LineStep(b, j, False))
                return steps
            options = self.replies(j.after)
            best: tuple[tuple[int, int], MrXReply] | None = None
            for o in options:
                kk = self.shortest(o.after, k - 1)
                assert kk is not None, "a winning joint move met a reply it does not beat"
                key = (kk, o.after.possible.bit_count())
                if best is None or key > best[0]:
                    best = (key, o)
            assert best is not None
            steps.append(LineStep(b, j, False, best[1], len(options)))
            b, k, turn = best[1].after, k - 1, turn + 1


def destinations(moves: Sequence[Move]) -> tuple[tuple[str, Station | None], ...]:
    """A joint move as a solver states it: who goes where (two joint moves that differ only in
    the tickets ridden are one solution)."""
    return tuple((m.piece, m.to) for m in moves)


def moves_text(moves: Sequence[Move], stations: dict[str, Station]) -> str:
    """``Red 13 -T-> 14, Blue 26 -B-> 41`` (``stations``: where each stands before; updated),
    as ``solve`` writes a joint move."""
    from ..solvers.forced_tree import _joint

    return _joint(moves, stations)
