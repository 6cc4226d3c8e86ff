"""Proving a survival puzzle: Mr. X to move survives N turns whatever the detectives do
(:class:`SurviveProver`).

Mr. X knows where he stands and where the detectives stand, and the detectives are taken to
know it too (the worst case for him): the game is one of full information, searched by plain
AND-OR over the engine's :class:`~sy_tools.engine.position.Position` (its legal moves and
``push``, so every rule preset and variant is the engine's).  A *turn* is his move (one travel
log entry, or two with a double move) and then the detectives' whole turn; he *survives* ``r``
turns when none of the detectives' turns ends the game for them (a detective lands on him, or
the engine ends a round with him trapped where ``rules.trapped_loses``); a game that ends for
him (log full, no detective able to move) is survived.

*One move* (a solution, :func:`solution_of`): his moves that differ only in the tickets ridden,
or in the station a double move passes through, end the same way except for the tickets he
keeps; they count as one solution, keyed by (legs, destination): ``46`` and ``2X 46`` are two
solutions, ``taxi 46`` and ``black 46`` one.  A solution survives when one of its moves does
(the line keeps the first such move in the engine's order; at the terminal any move of it that
survives is right, and one whose ticket does not is wrong).

Exactness and speed (each reduction exact):

* the detectives' turn is enumerated one detective at a time (a capture ends it; a stuck one
  passes, the engine says);
* a detective whose reach within the turns left (the stations it can stand on) meets neither
  Mr. X's zone (every station he can stand on or pass through within them) nor, through a chain
  of detectives, any detective that meets it, nor any other detective's reach, can neither catch
  nor block him nor anyone else: its moves differ only in the tickets it hands him (this turn
  and later ones) and in whether it can still move (the game ends for him when no detective
  can), so moves with the same *profile* (the ticket kind, and the tree of kinds it may ride
  in the turns left, down to whether it can move at the end) stand for each other; a kind he
  cannot use another ticket of counts as none;
* on the last turn he is caught exactly when some detective that moves has a ticket to his
  station (no enumeration);
* a transposition table; detectives' moves closing in on him first, his moves that end far from
  them first.

:class:`~sy_tools.solvers.forced_search.SearchLimit` ("nodes" or "time") past the budget: a
caller reports "unknown" or drops the candidate, never half-proves it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..engine.moves import Move, OutcomeKind
from ..engine.position import Position, double_allowed
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket, Tickets
from ..solvers.forced_search import SearchLimit

#: Node budget of one survival prover (pushes); a candidate that needs more is dropped.
SURVIVE_NODES = 60_000

#: A solution: (legs, destination).
Solution = tuple[int, Station]

_LOST = (OutcomeKind.CAPTURE, OutcomeKind.TRAPPED)


def solution_of(move: Move) -> Solution:
    """The solution a move of Mr. X's stands for (see the module docstring)."""
    return (len(move.tickets), move.to if move.to is not None else -1)


def solution_text(sol: Solution) -> str:
    return ("2X " if sol[0] == 2 else "") + str(sol[1]) if sol[0] else "a pass"


@dataclass(frozen=True)
class SurviveStep:
    """One turn of a survival line: the position before it (Mr. X to move), his move, whether it
    is forced (he has one solution only), how many solutions he had, and the detectives' reply
    after it (None after the last turn) with how many joint replies they had."""

    before: Position
    move: Move
    forced: bool
    solutions: int
    reply: tuple[Move, ...] | None = None
    replies: int = 0


class NotUniqueSurvival(Exception):
    """A turn of the line has no surviving solution or more than one."""

    def __init__(self, turn: int, survivors: int) -> None:
        super().__init__(f"turn {turn}: {survivors} surviving moves")
        self.turn = turn
        self.survivors = survivors


def _key(pos: Position) -> tuple[object, ...]:
    return (pos.mrx_at, pos.stations, pos.tickets, pos.out, pos.mrx_tickets, pos.move, pos.doubles, pos.turn,
            None if pos.ended is None else pos.ended.kind)


class SurviveProver:
    """The survival search on ``position``'s board and rules (see the module docstring).
    ``deadline`` (``time.monotonic()``) and ``max_nodes`` bound it."""

    def __init__(self, position: Position, deadline: float | None = None,
                 max_nodes: int | None = SURVIVE_NODES) -> None:
        self.position = position
        self.board = position.board
        self.rules = position.rules
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[object, ...], bool] = {}
        self._dist: dict[Station, dict[Station, int]] = {}
        self._profiles: dict[tuple[object, ...], object] = {}

    # ---- bookkeeping --------------------------------------------------------------------------

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit("nodes")
        if self.nodes & 255 == 0 and self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchLimit("time")

    def distances(self, a: Station) -> dict[Station, int]:
        """Detective hops (any ticket) from ``a`` to every station reached (ordering only)."""
        d = self._dist.get(a)
        if d is None:
            d = {a: 0}
            frontier, seen, n = 1 << a, 1 << a, 0
            while frontier:
                n += 1
                frontier = self.board.step_any(frontier, DETECTIVE_TICKETS) & ~seen
                seen |= frontier
                m = frontier
                while m:
                    low = m & -m
                    d[low.bit_length() - 1] = n
                    m ^= low
            self._dist[a] = d
        return d

    # ---- Mr. X's moves ------------------------------------------------------------------------

    def solutions(self, pos: Position) -> dict[Solution, list[tuple[Move, Position]]]:
        """Mr. X's moves by solution (engine order within each), with the position after each;
        moves that lead to the same position are listed once."""
        out: dict[Solution, list[tuple[Move, Position]]] = {}
        seen: set[tuple[object, ...]] = set()
        for m in pos.legal_moves():
            after = pos.push(m)
            k = _key(after)
            if k in seen:
                continue
            seen.add(k)
            out.setdefault(solution_of(m), []).append((m, after))
        return out

    def survives(self, pos: Position, r: int) -> bool:
        """Mr. X, to move at ``pos`` (his station known), survives ``r`` turns."""
        if pos.ended is not None:
            return pos.ended.kind not in _LOST
        if r <= 0:
            return True
        k = _key(pos) + (r,)
        hit = self.table.get(k)
        if hit is not None:
            return hit
        quick = self._last_turn(pos) if r == 1 else self._quick_single(pos, r)
        res = quick if quick is not None else any(self.holds(pos.push(m), r) for m in self._moves_far_first(pos))
        self.table[k] = res
        return res

    def _last_turn(self, pos: Position) -> bool | None:
        """Mr. X to move with one turn left, decided from the stations alone when it can be:
        False when every move of his ends where some detective holds a ticket to (a capture
        nothing can block); True when one ends out of their reach with an exit none of them can
        reach either (or trapped Mr. X passes); None: the detectives' moves must be tried."""
        rules = self.rules
        if rules.cutoff_escape or rules.mrx_onto_detective == "caught" or rules.voluntary_reveal:
            return None
        self.tick()
        board = self.board
        occ = 0
        hit = 0
        for n, st, tk in zip(pos.names, pos.stations, pos.tickets):
            occ |= 1 << st
            if n in pos.out:
                continue
            for t in DETECTIVE_TICKETS:
                if tk[t] > 0:
                    hit |= board.step(1 << st, t)
        cover = hit | occ
        unsure = False
        for singles_only in (True, False):
            moves = pos.legal_moves.singles() if singles_only else pos.legal_moves()
            for m in moves:
                if singles_only == m.is_double or m.to is None:
                    continue
                if hit >> m.to & 1:
                    continue
                if not rules.trapped_loses or pos.move + len(m.tickets) >= rules.log_length:
                    return True
                mt = pos.mrx_tickets
                for t in m.tickets:
                    mt = mt.spend(t)
                if any(mt[t] > 0 and board.step(1 << m.to, t) & ~cover for t in MRX_MOVE_TICKETS):
                    return True
                unsure = True
            if singles_only and not pos.can_double():
                break
        if not unsure and not pos.legal_moves.singles() and not rules.trapped_loses:
            return None  # a pass: let the engine say
        return None if unsure else False

    def _quick_single(self, pos: Position, r: int) -> bool | None:
        """True when a single move of his passes the fixed-plan test (:meth:`safe_for_sure`),
        tried on all of them before any is searched; None otherwise."""
        for m in pos.legal_moves.singles():
            self.tick()
            after = pos.push(m)
            if after.ended is None and after.turn != 0 and self.safe_for_sure(after, r):
                return True
        return None

    def _moves_far_first(self, pos: Position) -> Iterator[Move]:
        """His moves, single ones first (those ending farthest from the detectives first), then
        double ones; moves that end the same way (same tickets, same destination) once."""
        dets = [s for n, s in zip(pos.names, pos.stations) if n not in pos.out]

        def near(m: Move) -> int:
            d = self.distances(m.to) if m.to is not None else {}
            return -min((d.get(s, 99) for s in dets), default=99)

        singles = list(pos.legal_moves.singles())
        if not singles:
            yield from pos.legal_moves()
            return
        yield from sorted(singles, key=near)
        if not pos.can_double():
            return
        seen: set[object] = set()
        doubles = []
        for m in pos.legal_moves():
            if m.is_double:
                k = (tuple(sorted(m.tickets)), m.to, m.took)
                if k not in seen:
                    seen.add(k)
                    doubles.append(m)
        yield from sorted(doubles, key=near)

    def safe_for_sure(self, pos: Position, r: int) -> bool:
        """A sufficient test for :meth:`holds` (the detectives to move at ``pos``, ``r`` turns
        left): he has a fixed plan of moves that no detective can ever step onto or block, the
        detectives' stations after ``j`` of their turns taken as anywhere they reach within ``j``
        hops, and at the end an exit none of them can reach (his gains ignored)."""
        x = pos.mrx_at
        assert x is not None
        board = self.board
        if self.rules.cutoff_escape or self.rules.mrx_onto_detective == "caught" or self.rules.voluntary_reveal:
            return False
        reach = []  # reach[j]: every station a detective may stand on after j of their turns
        m = 0
        for s in pos.stations:
            m |= 1 << s
        reach.append(m)
        held = [[t for t in DETECTIVE_TICKETS if tk[t] > 0] if n not in pos.out else []
                for n, tk in zip(pos.names, pos.tickets)]
        per = [1 << s for s in pos.stations]
        for _ in range(r):
            m = 0
            for i in range(len(per)):
                if held[i]:
                    per[i] |= board.step_any(per[i], held[i])
                m |= per[i]
            reach.append(m)
        if reach[1] >> x & 1:
            return False
        rules = self.rules

        def plan(at: Station, j: int, mt: Tickets, move: int, doubles: int) -> bool:
            # he stands at ``at`` after j detective turns (1 <= j <= r), safe so far
            if j == r:
                if not rules.trapped_loses:
                    return True
                for t in MRX_MOVE_TICKETS:
                    if mt[t] > 0 and board.step(1 << at, t) & ~reach[r]:
                        return True
                return False
            bad = reach[j + 1] | reach[j]
            for t in MRX_MOVE_TICKETS:
                if mt[t] <= 0:
                    continue
                step = board.step(1 << at, t) & ~bad
                mt1 = mt.spend(t)
                while step:
                    low = step & -step
                    step ^= low
                    if plan(low.bit_length() - 1, j + 1, mt1, move + 1, doubles):
                        return True
            if double_allowed(rules, mt.double, doubles, move):
                mt0 = mt.spend("double")
                for t in MRX_MOVE_TICKETS:
                    if mt0[t] <= 0:
                        continue
                    mids = board.step(1 << at, t) & ~reach[j]
                    mt1 = mt0.spend(t)
                    while mids:
                        low = mids & -mids
                        mids ^= low
                        for t2 in MRX_MOVE_TICKETS:
                            if mt1[t2] <= 0:
                                continue
                            step = board.step(low, t2) & ~bad
                            while step:
                                low2 = step & -step
                                step ^= low2
                                if plan(low2.bit_length() - 1, j + 1, mt1.spend(t2), move + 2, doubles + 1):
                                    return True
            return False

        return plan(x, 1, pos.mrx_tickets, pos.move, pos.doubles)

    # ---- the detectives' turn -----------------------------------------------------------------

    def holds(self, pos: Position, r: int) -> bool:
        """After a move of Mr. X's (the detectives to move at ``pos``, or the game over): he
        survives this detectives' turn and ``r - 1`` more turns after it."""
        self.tick()
        if pos.ended is not None:
            return pos.ended.kind not in _LOST
        if pos.turn == 0:  # no detective could move this turn
            return self.survives(pos, r - 1)
        if r == 1 and not self._can_reach_him(pos):
            return True
        k = _key(pos) + (r,)
        hit = self.table.get(k)
        if hit is not None:
            return hit
        if r > 1 and self.safe_for_sure(pos, r):
            self.table[k] = True
            return True
        res = self._turn(pos, r, self.relevant(pos, r))
        self.table[k] = res
        return res

    def _can_reach_him(self, pos: Position) -> bool:
        """On the last turn: some detective still to move holds a ticket to his station (a
        capture is never blocked: no detective stands on him), or the round might end with him
        trapped (every exit he holds a ticket for may be taken, or the cut-off rule is on).
        False: he survives this turn whatever they do."""
        x = pos.mrx_at
        assert x is not None
        taken = 0
        for i, (name, s) in enumerate(zip(pos.names, pos.stations)):
            taken |= 1 << s
            if name in pos.out or i < pos.turn - 1:
                continue
            for t in DETECTIVE_TICKETS:
                if pos.tickets[i][t] > 0:
                    dests = self.board.destinations(s, t)
                    if x in dests:
                        return True
                    for e in dests:
                        taken |= 1 << e
        if not self.rules.trapped_loses:
            return False
        if self.rules.cutoff_escape:
            return True
        exits = 0
        for t in MRX_MOVE_TICKETS:
            if pos.mrx_tickets[t] > 0:
                exits |= self.board.step(1 << x, t)
        return not exits & ~taken

    def relevant(self, pos: Position, r: int) -> int | None:
        """Bit i: detective i may matter within ``r`` turns (see the module docstring); None:
        all may (the reduction is off under ``voluntary_reveal``)."""
        if self.rules.voluntary_reveal:
            return None
        board, rules = self.board, self.rules
        x = pos.mrx_at
        assert x is not None
        mt = pos.mrx_tickets
        kinds = {t for t in MRX_MOVE_TICKETS if mt[t] > 0}
        if rules.tickets_to_mrx:
            kinds |= set(DETECTIVE_TICKETS)
        can_double = double_allowed(rules, mt.double, pos.doubles, pos.move)
        legs = (r - 1) + (min(r - 1, max(0, min(mt.double, rules.double_moves_per_game - pos.doubles)))
                          if can_double else 0)
        zone = 1 << x
        for _ in range(legs + (1 if rules.trapped_loses else 0)):  # (+1: the exits detectives may close)
            zone |= board.step_any(zone, kinds)
        if rules.cutoff_escape and board.via:
            for (a, b, _), v in board.via.items():
                if zone >> a & 1 or zone >> b & 1:
                    zone |= v
        n = len(pos.names)
        reach = []
        for i in range(n):
            m = 1 << pos.stations[i]
            if pos.names[i] not in pos.out:
                held = [t for t in DETECTIVE_TICKETS if pos.tickets[i][t] > 0]
                for _ in range(r):
                    m |= board.step_any(m, held)
            reach.append(m)
        rel = 0
        area = zone
        grew = True
        while grew:
            grew = False
            for i in range(n):
                if not rel >> i & 1 and reach[i] & area:
                    rel |= 1 << i
                    area |= reach[i]
                    grew = True
        for i in range(n):  # two that may meet: one may block the other (its profile is not its own)
            if not rel >> i & 1 and any(j != i and reach[i] & reach[j] for j in range(n)):
                rel |= 1 << i
        return rel

    def _turn(self, pos: Position, r: int, relevant: int | None) -> bool:
        """The rest of the detectives' turn from ``pos`` (a detective to move): Mr. X survives
        every way they may play it."""
        if pos.ended is not None:
            return pos.ended.kind not in _LOST
        if pos.turn == 0:
            return self.survives(pos, r - 1)
        i = pos.turn - 1
        moves = pos.legal_moves()
        if not moves:
            self.tick()
            return self._turn(pos.pass_turn(), r, relevant)
        x = pos.mrx_at
        assert x is not None
        if relevant is not None and not relevant >> i & 1:
            moves = self._representatives(pos, moves, r)
        else:
            d = self.distances(x)
            moves = sorted(moves, key=lambda m: d.get(m.to, 99) if m.to is not None else 99)
        for m in moves:
            self.tick()
            after = pos.push(m)
            if after.ended is not None:
                if after.ended.kind in _LOST:
                    return False
                continue
            if after.turn == 0:
                if not self.survives(after, r - 1):
                    return False
            else:
                k = _key(after) + (r,)
                hit = self.table.get(k)
                if hit is None:
                    hit = self._turn(after, r, relevant)
                    self.table[k] = hit
                if not hit:
                    return False
        return True

    def _representatives(self, pos: Position, moves: Sequence[Move], r: int) -> list[Move]:
        """One move per profile of a detective that cannot matter (see the module docstring):
        the kind it hands Mr. X (none when he cannot use another ticket of it within the turns
        left) and :meth:`_profile` of where it ends."""
        mt = pos.mrx_tickets
        cap = 2 * r  # he cannot use more legs than this within the turns left
        matter = frozenset(t for t in DETECTIVE_TICKETS if self.rules.tickets_to_mrx and mt[t] < cap)
        held = pos.tickets[pos.turn - 1]
        out: dict[object, Move] = {}
        for m in moves:
            t = m.tickets[0]
            assert m.to is not None
            out.setdefault((t if t in matter else None, self._profile(m.to, held.spend(t), r - 1, matter)), m)
        return list(out.values())

    def _profile(self, at: Station, held: Tickets, k: int, matter: frozenset[Ticket]) -> object:
        """What Mr. X can tell of a detective nobody can meet, at ``at`` holding ``held``, in
        its next ``k`` turns: the kinds in ``matter`` it may hand him, turn by turn (the tree of
        them), and whether it can move (at the end: True/False; an empty set: stuck)."""
        key = (at, held, k, matter)
        hit = self._profiles.get(key)
        if hit is not None:
            return hit
        hops = [(t, d) for t in DETECTIVE_TICKETS if held[t] > 0 for d in self.board.destinations(at, t)]
        res: object = (bool(hops) if k <= 0 else
                       frozenset((t if t in matter else None, self._profile(d, held.spend(t), k - 1, matter))
                                 for t, d in hops))
        self._profiles[key] = res
        return res

    # ---- the puzzle's questions ---------------------------------------------------------------

    def joint_replies(self, pos: Position) -> Iterator[tuple[tuple[Move, ...], Position]]:
        """Every joint move of the detectives' turn from ``pos`` (a detective to move), with the
        position after it, in the engine's order; a capture ends one."""
        if pos.ended is not None or pos.turn == 0:
            yield (), pos
            return
        moves = pos.legal_moves()
        if not moves:
            yield from self.joint_replies(pos.pass_turn())
            return
        for m in moves:
            self.tick()
            for rest, p in self.joint_replies(pos.push(m)):
                yield (m,) + rest, p

    def survivors(self, pos: Position, r: int, limit: int | None = 2) -> list[tuple[Solution, Move]]:
        """Mr. X's solutions at ``pos`` that survive ``r`` turns, each with its first surviving
        move (engine order); stops at ``limit`` solutions (None: all)."""
        sols = self.solutions(pos)
        out = []
        for sol, options in sols.items():
            m = next((m for m, after in options if self.holds(after, r)), None)
            if m is not None:
                out.append((sol, m))
                if limit is not None and len(out) >= limit:
                    break
        return out

    def horizon(self, pos: Position, max_turns: int) -> int | None:
        """The puzzle's N at ``pos``: the fewest turns that only one of his solutions survives
        (with one turn fewer at least two survive); None when no such N <= ``max_turns``
        (two or more survive ``max_turns``, none survives, or only one move at all).  Each
        level stops at the second survivor found (surviving ``n + 1`` turns implies surviving
        ``n``, so the next level tries every solution again, the survivors first)."""
        sols = self.solutions(pos)
        if len(sols) < 2:
            return None
        order = list(sols)
        for n in range(1, max_turns + 1):
            alive = []
            for s in order:
                if any(self.holds(a, n) for _, a in sols[s]):
                    alive.append(s)
                    if len(alive) == 2:
                        break
            if len(alive) <= 1:
                return n if alive else None
            order = alive + [s for s in order if s not in alive]
        return None

    def strongest_reply(self, after: Position, r: int,
                        any_reply: bool = False) -> tuple[tuple[Move, ...], Position, int] | None:
        """The detectives' reply on the line after his move (``r`` turns left after it): the
        first joint move, closing in on him most (the least total distance to him, then the
        engine's order), that leaves him one surviving solution; with the number of joint
        replies.  None when every reply leaves him two or more (``any_reply``: then the one
        closing in most)."""
        x = after.mrx_at
        assert x is not None
        d = self.distances(x)
        replies = list(self.joint_replies(after))

        def closeness(item: tuple[tuple[Move, ...], Position]) -> int:
            return sum(d.get(s, 99) for n, s in zip(item[1].names, item[1].stations) if n not in item[1].out)

        order = sorted(range(len(replies)), key=lambda j: (closeness(replies[j]), j))
        for j in order:
            moves, p = replies[j]
            if p.ended is None and len(self.survivors(p, r, 2)) == 1:
                return moves, p, len(replies)
        if any_reply and order:
            moves, p = replies[order[0]]
            return moves, p, len(replies)
        return None

    def main_line(self, pos: Position, n: int) -> list[SurviveStep]:
        """The puzzle's line from ``pos`` (Mr. X to move) surviving ``n`` turns: at each turn his
        only surviving solution (a forced one, with no other move, is allowed after the first)
        and the detectives' strongest reply.  :class:`NotUniqueSurvival` when a turn has none or
        more than one."""
        steps: list[SurviveStep] = []
        for turn in range(1, n + 1):
            r = n - turn + 1
            sols = self.solutions(pos)
            found = self.survivors(pos, r, 2)
            if len(found) != 1 or (turn == 1 and len(sols) < 2):
                raise NotUniqueSurvival(turn, len(found))
            move = found[0][1]
            after = pos.push(move)
            forced = len(sols) == 1
            if r == 1 or after.ended is not None:
                steps.append(SurviveStep(pos, move, forced, len(sols)))
                return steps
            reply = self.strongest_reply(after, r - 1)
            if reply is None:
                raise NotUniqueSurvival(turn + 1, 2)
            moves, pos2, count = reply
            steps.append(SurviveStep(pos, move, forced, len(sols), moves, count))
            pos = pos2
            if pos.ended is not None:
                return steps
        return steps
