
"""The forced-win search (:class:`Search`): an AND-OR search over the detectives' belief
states, bounded in time, nodes and memory; :mod:`sy_tools.solvers.forced` runs it.

The search runs over *belief states*, the detectives' point of view (docs/cli.md, "solve"): the
detectives' stations and tickets, who is out, Mr. X's tickets, the move number and his possible
set ``S``.  Every movement rule comes from :mod:`sy_tools.engine` (:func:`detective_hops`,
:func:`mrx_targets`, :class:`Tickets`, :meth:`Position.can_double`).

* Detectives' turn: each detective still to move, in order, makes a legal move (one with none is
  stuck: it skips the turn, and is out for good where :meth:`Rules.stuck_is_out` says so).  A
  move onto a station of ``S`` catches him only if he is there, so ``S`` loses that station;
  when ``S`` is empty he is caught.  After the last detective: a full
  travel log, or no detective able to move, ends the game for Mr. X; otherwise, if he has no
  legal move from any station of ``S`` he is trapped (a win where ``rules.trapped_loses``).
* Mr. X's turn: he shows a ticket he holds (two with a double move, each leg one log entry);
  ``S`` becomes the stations reachable from ``S`` with it, minus the detectives' stations; on a
  reveal move he is shown at a station of that set of his choosing.  Detective tickets used pass
  to him when ``rules.tickets_to_mrx``.  Under ``trapped_loses: false`` a trapped Mr. X passes.
* The rule variants follow the engine: a hop the cut-off escape closes is no hop for him; under
  ``mrx_onto_detective: caught`` a step onto a detective loses (those worlds leave ``S``, and he
  is trapped only without any move); under ``voluntary_reveal`` he may also show himself on a
  hop that is not a fixed reveal and take any ticket a detective holds (the reply records it,
  and the detectives answer with the tickets left).
* A forced win in k is an AND-OR tree: a joint move, then for each thing he may show a joint
  move, ... winning by the end of the detectives' k-th turn against every line of his play.
  The belief set is exact here: what he can do next depends only on where he stands.

Structure exploited (each exact; the tests compare against a plain search over every move):

* Iterative deepening: the shortest win is found first.
* Useless moves: a detective move ending too far from every station Mr. X may occupy within the
  horizon (and their exits) to reach one in the turns left can never catch, trap or block him.
  Such moves differ only in the ticket handed to Mr. X and in blocking other detectives; when
  the ticket cannot matter (he holds more of that kind than he can use within the horizon) one
  move that blocks no other detective and keeps an onward move stands for all of them.
* Necessary conditions (:mod:`sy_tools.solvers.forced_bounds`) cut most branches before any move
  is tried.
* A transposition table (bounded; cleared when full), and a set of states part-way through a
  turn shown to have no win (the moves that led there do not matter); move ordering (captures,
  then moves closing in on ``S``), Mr. X's replies largest set first with the last refutation
  tried first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..engine.moves import Move
from ..engine.position import Position, double_allowed
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket, Tickets
from .forced_bounds import Bounds
from .forced_bounds import matchable as _matchable  # noqa: F401  (its former name here)
from .forced_tree import Refutation, Reply, StrategyNode

#: Default cap on transposition-table entries (each a few hundred bytes).
TABLE_SIZE = 200_000


class SearchLimit(Exception):
    """A limit stopped the search."""

    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit

# a path through one detectives' turn: (detective index, ticket, destination) per move
_Path = tuple[tuple[int, Ticket, Station], ...]

# what Mr. X shows: tickets, shown stations, possible set, his tickets, move number, doubles used,
# the detectives' tickets after it and what a voluntary reveal took (detective, ticket) or None
_Option = tuple[tuple[Ticket, ...], tuple[Station | None, ...], StationMask, Tickets, int, int, tuple[Tickets, ...],
                tuple[str, Ticket] | None]

# an option's identity (what the detectives see): tickets, shown stations, what he took
_Seen = tuple[tuple[Ticket, ...], tuple[Station | None, ...], tuple[str, Ticket] | None]


@dataclass
class _TurnInfo:
    """Set once per detectives' turn: which moves can matter within the turns left."""

    useful: StationMask  # a move ending here may still catch, trap or block Mr. X in time
    near: list[StationMask]  # near[h]: within h hops of S (move ordering)
    others_reach: list[StationMask]  # per detective: where the others may stand within the horizon
    neutral: list[bool]  # per detective: no ticket it can hand Mr. X matters within the horizon
    neutral_kinds: frozenset[Ticket]


class Search(Bounds):
    """The AND-OR search (see the module docstring): :meth:`turn` from a detectives' turn,
    :meth:`mrx` from Mr. X's."""

    def __init__(self, root: Position, deadline: float | None, max_nodes: int | None, table_size: int) -> None:
        super().__init__(root, table_size)
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.table: dict[tuple[Any, ...], StrategyNode | None] = {}
        self.dead: set[tuple[Any, ...]] = set()  # states part-way through a turn with no win
        self.nodes = 0
        self.killer: dict[int, _Seen] = {}
        self.best_ref: tuple[int, Refutation] | None = None

    # ---- bookkeeping --------------------------------------------------------------------------

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes & 255 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise SearchLimit("time")
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit("nodes")

    def position(self, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, mt: Tickets, move: int,
                 doubles: int, turn: int) -> Position:
        """The engine's position for this belief state (Mr. X's station unknown)."""
        return Position(self.board, self.rules, self.names, st, tk,
                        frozenset(n for i, n in enumerate(self.names) if out >> i & 1), mt, None, move,
                        self.root.round, doubles, turn)

    # ---- one detectives' turn -----------------------------------------------------------------

    def turn(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask, mt: Tickets,
             move: int, doubles: int, k: int, root: bool = False) -> StrategyNode | None:
        """A winning strategy from detective ``i``'s move on, with ``k`` turns left (this one
        included), or None when there is none."""
        key = (i, st, tk, out, S, mt, move, doubles, k)
        if key in self.table:
            return self.table[key]
        if self.refuted(i, st, tk, out, S, mt, move, k):
            res = None
        else:
            info = self.turn_info(i, st, tk, out, S, mt, move, doubles, k)
            res = self.detective(i, st, tk, out, S, mt, move, doubles, k, (), info, root)
        if len(self.table) >= self.table_size:  # bounded memory: start afresh
            self.table.clear()
            for cache in (self.hop_cache, self.mask_cache, self.spend_cache, self.reach2_cache, self.held_cache,
                          self.exit_cache, self.within_cache, self.gain_cache, self.hop2_cache, self.shows_cache,
                          self.cover_cache):
                if len(cache) >= self.table_size:
                    cache.clear()
        self.table[key] = res
        return res

    def turn_info(self, i0: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
                  mt: Tickets, move: int, doubles: int, k: int) -> _TurnInfo:
        board, rules = self.board, self.rules
        # Mr. X's kinds within the horizon: what he holds, and what detectives may hand him
        kinds = set(self.held(mt))
        if rules.tickets_to_mrx:
            kinds |= set(DETECTIVE_TICKETS)
        legs = (k - 1) + self.doubles_within(mt, doubles, k - 1)
        zone = S
        for _ in range(legs):
            zone |= board.step_any(zone, kinds)
        zone |= board.step_any(zone, kinds)  # the exits he must not have at the end
        if self.cutoff:  # standing on a line's via station closes it: those stations matter too
            for (a, b, _), v in board.via.items():
                if zone >> a & 1 or zone >> b & 1:
                    zone |= v
        # a move ending within k - 1 detective hops of the zone may still matter
        useful = zone
        for _ in range(k - 1):
            useful |= board.step_any(useful, DETECTIVE_TICKETS)
        near = [S]  # near[h]: stations within h detective hops of S
        for _ in range(3 if k > 1 else 1):
            near.append(near[-1] | board.step_any(near[-1], DETECTIVE_TICKETS))
        # where each detective may stand within the horizon (its moves ignore the others)
        reach = []
        for j in range(self.n):
            r = 1 << st[j]
            if not out >> j & 1:
                steps = k if j >= i0 else k - 1
                kinds_j = [t for t in DETECTIVE_TICKETS if tk[j][t] > 0]
                for _ in range(steps):
                    r |= board.step_any(r, kinds_j)
            reach.append(r)
        others = [0] * self.n
        for j in range(self.n):
            for e in range(self.n):
                if e != j:
                    others[j] |= reach[e]
        cap = legs + 1  # Mr. X holding this many of a kind cannot use one more within the horizon
        neutral_kinds = frozenset(t for t in DETECTIVE_TICKETS if mt[t] >= cap)
        neutral = [not rules.tickets_to_mrx or all(tk[j][t] <= 0 or t in neutral_kinds for t in DETECTIVE_TICKETS)
                   for j in range(self.n)]
        if self.voluntary and k > 1:  # he may take the tickets a far move leaves: every move differs
            neutral = [False] * self.n
            neutral_kinds = frozenset()
        return _TurnInfo(useful, near, others, neutral, neutral_kinds)

    def doubles_within(self, mt: Tickets, doubles: int, turns: int) -> int:
        """How many of his next ``turns`` turns may be double moves, as the engine's rule
        (:func:`double_allowed`) counts them with his double tickets and the allowance, the
        travel log's room left out (a wider horizon than he has near its end: still a bound)."""
        room = self.rules.log_length - 2  # a log with room for both legs, whatever the move number
        n = 0
        while n < turns and double_allowed(self.rules, mt.double - n, doubles + n, room):
            n += 1
        return n

    def candidates(self, i: int, hops: list[tuple[Ticket, Station]], tk: Tickets, S: StationMask, k: int,
                   info: _TurnInfo) -> list[tuple[Ticket, Station]]:
        """Detective ``i``'s moves worth trying, best first (see the module docstring)."""
        useful = [h for h in hops if info.useful >> h[1] & 1]
        useless = [h for h in hops if not info.useful >> h[1] & 1]
        near = info.near
        if self.voluntary and k > 1:
            useless.sort(key=lambda h: (h[0] is not Ticket.TAXI, h[1]))
            useful.sort(key=lambda h: (next((j for j, m in enumerate(near) if m >> h[1] & 1), len(near)),
                                       h[0] is not Ticket.TAXI, h[1]))
            return useful + useless

        def closeness(h: tuple[Ticket, Station]) -> tuple[int, bool, Station]:
            return next((j for j, m in enumerate(near) if m >> h[1] & 1), len(near)), h[0] is not Ticket.TAXI, h[1]

        useful.sort(key=closeness)
        if not useless or not (info.neutral[i] or k == 1):
            return useful + useless
        # useless moves of one ticket class are interchangeable; keep one that blocks nobody
        blocked = info.others_reach[i]
        groups: dict[Any, list[tuple[Ticket, Station]]] = {}
        for t, d in useless:
            cls = None if info.neutral[i] or t in info.neutral_kinds else t
            groups.setdefault(cls, []).append((t, d))
        kept: list[tuple[Ticket, Station]] = []
        for group in groups.values():
            rep = next((h for h in group if not blocked >> h[1] & 1
                        and self.hop_mask(h[1], self.spend(tk, h[0])) & ~blocked), None)
            kept.extend([rep] if rep is not None else group)
        return useful + kept

    def detective(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
                  mt: Tickets, move: int, doubles: int, k: int, path: _Path, info: _TurnInfo,
                  root: bool) -> StrategyNode | None:
        """A winning strategy from detective ``i``'s move on in this turn (``path``: the moves
        made in it so far), or None.  Part-way through a turn (not the root's) the state alone
        decides whether one exists, whatever moves led to it: a None is remembered in
        ``self.dead`` (a winning strategy is not: it holds the moves of ``path``)."""
        if not path or root:
            return self._detective(i, st, tk, out, S, mt, move, doubles, k, path, info, root)
        key = (i, st, tk, out, S, mt, move, doubles, k)
        if key in self.dead:
            return None
        res = self._detective(i, st, tk, out, S, mt, move, doubles, k, path, info, root)
        if res is None:
            if len(self.dead) >= self.table_size:
                self.dead.clear()
            self.dead.add(key)
        return res

    def _detective(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
                   mt: Tickets, move: int, doubles: int, k: int, path: _Path, info: _TurnInfo,
                   root: bool) -> StrategyNode | None:
        if path and self.refuted(i, st, tk, out, S, mt, move, k):
            return None
        while i < self.n and out >> i & 1:
            i += 1
        if i == self.n:
            return self.end_round(st, tk, out, S, mt, move, doubles, k, path, root)
        hops = self.legal_hops(i, st, tk)
        if not hops:  # stuck: it skips the turn, out for good where the rules say so
            gone = 1 << i if self.rules.stuck_is_out(bool(self.hops(st[i], tk[i]))) else 0
            return self.detective(i + 1, st, tk, out | gone, S, mt, move, doubles, k, path, info, root)
        gain = self.rules.tickets_to_mrx
        for t, d in self.candidates(i, hops, tk[i], S, k, info):
            self.tick()
            S2 = S & ~(1 << d)
            p2 = path + ((i, t, d),)
            if not S2:
                return StrategyNode(self.moves(p2), "caught")
            st2 = st[:i] + (d,) + st[i + 1:]
            tk2 = tk[:i] + (self.spend(tk[i], t),) + tk[i + 1:]
            r = self.detective(i + 1, st2, tk2, out, S2, self.gain(mt, t) if gain else mt, move, doubles, k, p2, info,
                               root)
            if r is not None:
                return r
        return None

    def moves(self, path: _Path) -> tuple[Move, ...]:
        return tuple(Move.detective(self.names[i], t, d) for i, t, d in path)

    def end_round(self, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask, mt: Tickets,
                  move: int, doubles: int, k: int, path: _Path, root: bool) -> StrategyNode | None:
        rules = self.rules
        if move >= rules.log_length:
            return None  # his log is full: he has won
        if all(out >> j & 1 or not self.legal_hops(j, st, tk) for j in range(self.n)):
            return None  # no detective can move any more: he has won
        occ = mask_of(st)
        if rules.trapped_loses and not self.mrx_exits(S, mt, occ):
            return StrategyNode(self.moves(path), "trapped")
        if k == 1:
            if root and self.best_ref is None:
                self.best_ref = (0, Refutation(self.moves(path), None, S))
            return None
        replies = self.mrx(st, tk, out, S, mt, move, doubles, k - 1, path if root else None)
        if replies is None:
            return None
        return StrategyNode(self.moves(path), None, replies)

    # ---- Mr. X's turn ---------------------------------------------------------------------------

    def mrx_options(self, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask, mt: Tickets,
                    move: int, doubles: int, only: _Seen | None = None) -> list[_Option]:
        """Everything he may show: (tickets, shown stations, possible set after, his tickets
        after, move number after, double moves used after, detectives' tickets after, what he
        took); with ``only``, just that one (if he may show it)."""
        if only is not None and only[2] is not None:  # a voluntary reveal: list them all
            return [o for o in self.mrx_options(st, tk, out, S, mt, move, doubles) if (o[0], o[1], o[7]) == only]
        rules = self.rules
        occ = mask_of(st)
        opts: list[_Option] = []
        pos = self.position(st, tk, out, mt, move, doubles, 0)
        double = pos.can_double()
        want_t = only[0] if only is not None else ()
        if only is not None:
            if not want_t:  # a pass
                return [o for o in self._passes(S, mt, move, doubles, occ, tk)]
            double = double and len(want_t) == 2
        for t in MRX_MOVE_TICKETS:
            if mt[t] <= 0 or (only is not None and t is not want_t[0]):
                continue
            S1 = self.targets(S, t, occ)
            if not S1:
                continue
            mt1 = self.spend(mt, t)
            firsts: list[tuple[Station | None, StationMask]] = \
                [(s, 1 << s) for s in stations_of(S1)] if rules.is_reveal(move + 1) else [(None, S1)]
            if only is not None:
                firsts = [(r, m1) for r, m1 in firsts if r == only[1][0]]
            if only is None or len(want_t) == 1:
                for r, m1 in firsts:
                    opts.append(((t,), (r,), m1, mt1, move + 1, doubles, tk, None))
            if not double:
                continue
            mtd = self.spend(mt1, "double")
            for r, m1 in firsts:
                for t2 in MRX_MOVE_TICKETS:
                    if mtd[t2] <= 0 or (only is not None and t2 is not want_t[1]):
                        continue
                    S2 = self.targets(m1, t2, occ)
                    if not S2:
                        continue
                    seconds: list[tuple[Station | None, StationMask]] = \
                        [(s, 1 << s) for s in stations_of(S2)] if rules.is_reveal(move + 2) else [(None, S2)]
                    if only is not None:
                        seconds = [(r2, m2) for r2, m2 in seconds if r2 == only[1][1]]
                    for r2, m2 in seconds:
                        opts.append(((t, t2), (r, r2), m2, self.spend(mtd, t2), move + 2, doubles + 1, tk, None))
        if only is None:
            if self.voluntary:
                opts.extend(self._reveals(tk, S, mt, move, doubles, occ, double))
            opts.extend(self._passes(S, mt, move, doubles, occ, tk))
        return opts

    def _reveals(self, tk: tuple[Tickets, ...], S: StationMask, mt: Tickets, move: int, doubles: int,
                 occ: StationMask, double: bool) -> list[_Option]:
        """His moves with a voluntary reveal (``rules.voluntary_reveal``): on a hop that is not a
        fixed reveal he is shown at a station of his choosing and takes one ticket a detective
        holds (his from his next move on when ``tickets_to_mrx``, as the engine's ``push``)."""
        rules = self.rules
        steals = [(j, T) for j in range(self.n) for T in DETECTIVE_TICKETS if tk[j][T] > 0]
        if not steals:
            return []
        opts: list[_Option] = []

        def add(tks: tuple[Ticket, ...], shown: tuple[Station | None, ...], m: StationMask, mt2: Tickets,
                dbl: int) -> None:
            for j, T in steals:
                tk2 = tk[:j] + (self.spend(tk[j], T),) + tk[j + 1:]
                opts.append((tks, shown, m, mt2.gain(T) if rules.tickets_to_mrx else mt2, move + len(tks), dbl, tk2,
                             (self.names[j], T)))

        fixed1, fixed2 = rules.is_reveal(move + 1), rules.is_reveal(move + 2)
        for t in self.held(mt):
            S1 = self.targets(S, t, occ)
            if not S1:
                continue
            mt1 = self.spend(mt, t)
            if not fixed1:  # shown after a single move
                for s in stations_of(S1):
                    add((t,), (s,), 1 << s, mt1, doubles)
            if not double:
                continue
            mtd = self.spend(mt1, "double")
            for t2 in self.held(mtd):
                mt2 = self.spend(mtd, t2)
                if not fixed1:  # shown after the first leg of a double move
                    for s in stations_of(S1):
                        S2 = self.targets(1 << s, t2, occ)
                        for r2, m2 in ([(x, 1 << x) for x in stations_of(S2)] if fixed2 else [(None, S2)] if S2
                                       else []):
                            add((t, t2), (s, r2), m2, mt2, doubles + 1)
                if not fixed2:  # shown after the second leg
                    for r, m1 in ([(x, 1 << x) for x in stations_of(S1)] if fixed1 else [(None, S1)]):
                        for s in stations_of(self.targets(m1, t2, occ)):
                            add((t, t2), (r, s), 1 << s, mt2, doubles + 1)
        return opts

    def _passes(self, S: StationMask, mt: Tickets, move: int, doubles: int, occ: StationMask,
                tk: tuple[Tickets, ...]) -> list[_Option]:
        """A pass, where the rules let a trapped Mr. X pass: he is at a station without exits."""
        if self.rules.trapped_loses:
            return []
        stuck = 0
        for s in stations_of(S):
            if not self.mrx_exits(1 << s, mt, occ):
                stuck |= 1 << s
        return [((), (), stuck, mt, move, doubles, tk, None)] if stuck else []

    def hopeless(self, st: tuple[Station, ...], out: int, o: _Option, k: int) -> bool:
        """Does a known result or the bound for ``k`` turns refute this reply at once?"""
        _, _, S, mt, move, doubles, tk, _ = o
        key = (0, st, tk, out, S, mt, move, doubles, k)
        if key in self.table:
            return self.table[key] is None
        return self.refuted(0, st, tk, out, S, mt, move, k)

    def mrx(self, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask, mt: Tickets,
            move: int, doubles: int, k: int, root_path: _Path | None = None) -> tuple[Reply, ...] | None:
        """Replies winning against everything he may show next (``k`` detective turns left
        after his move), or None when something he shows refutes every continuation."""
        killer = self.killer.get(k)

        def refuted(o: _Option, n_done: int) -> None:
            self.killer[k] = (o[0], o[1], o[7])
            if root_path is not None and (self.best_ref is None or self.best_ref[0] < n_done):
                self.best_ref = (n_done, Refutation(self.moves(root_path),
                                                    Reply(o[0], o[1], o[2], StrategyNode(()), o[7]), S))

        if killer is not None:  # the reply that refuted last time: try it before listing them all
            first = next((o for o in self.mrx_options(st, tk, out, S, mt, move, doubles, killer)), None)
            if first is not None and self.hopeless(st, out, first, k):
                refuted(first, 1)
                return None
        opts = self.mrx_options(st, tk, out, S, mt, move, doubles)
        for o in opts:  # a reply the bounds refute at once spares searching the others
            if self.hopeless(st, out, o, k):
                refuted(o, 1)
                return None
        opts.sort(key=lambda o: ((o[0], o[1], o[7]) != killer, -o[2].bit_count()))
        replies = []
        for n_done, o in enumerate(opts):
            tks, shown, S2, mt2, move2, doubles2, tk2, took = o
            self.tick()
            node = self.turn(0, st, tk2, out, S2, mt2, move2, doubles2, k)
            if node is None:
                refuted(o, n_done + 2)
                return None
            replies.append(Reply(tks, shown, S2, node, took))
        replies.sort(key=lambda r: ([t.value for t in r.tickets], [s or 0 for s in r.shown],
                                    ("", "") if r.took is None else (r.took[0], r.took[1].value)))
        return tuple(replies)
