
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
* Necessary conditions cut most branches before any move is tried.  Last turn: every station
  of ``S`` can still be landed on, or all its exits covered, by the detectives still to move
  (stations that must be landed on each need their own detective: a matching; so do the exits
  of a station to trap him there).  Two turns left: unless this turn can still win, each
  single ticket he may show next leaves (at least) a set that passes the last-turn test with
  the detectives' two-move reach, and (classic rules) so does each one with the next detective
  to move standing where one of its moves takes it, the same move for every ticket (the
  others keeping their reach).  Three turns left (classic rules): some single
  ticket he may show next fails the two-turn test wherever the detectives still to move end
  (:meth:`Search.refuted_after_move`).  Three or more: he has no walk that stays off every
  station a detective may reach by then and ends with an exit none may reach
  (:meth:`Search.evades`; under the cut-off escape, :meth:`Search.escapes`: no station he may
  reach next lies, with a neighbour he can shuttle to, beyond every detective's reach).
* A transposition table (bounded; cleared when full), and a set of states part-way through a
  turn shown to have no win (the moves that led there do not matter); move ordering (captures,
  then moves closing in on ``S``), Mr. X's replies largest set first with the last refutation
  tried first.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.board import Board
from ..engine.hops import detective_hops, mrx_targets
from ..engine.moves import Move
from ..engine.position import Position, double_allowed
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket, Tickets
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


class Search:
    def __init__(self, root: Position, deadline: float | None, max_nodes: int | None, table_size: int) -> None:
        self.root = root
        self.board: Board = root.board
        self.rules: Rules = root.rules
        self.names = root.names
        self.n = len(root.names)
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.table_size = table_size
        self.table: dict[tuple[Any, ...], StrategyNode | None] = {}
        self.dead: set[tuple[Any, ...]] = set()  # states part-way through a turn with no win
        self.nodes = 0
        self.hop_cache: dict[tuple[Station, Tickets], tuple[tuple[Ticket, Station], ...]] = {}
        self.killer: dict[int, _Seen] = {}
        self.best_ref: tuple[int, Refutation] | None = None
        self.mask_cache: dict[tuple[Station, Tickets], StationMask] = {}
        self.spend_cache: dict[tuple[Tickets, Ticket | str], Tickets] = {}
        self.gain_cache: dict[tuple[Tickets, Ticket], Tickets] = {}
        self.hop2_cache: dict[tuple[Station, Tickets], tuple[StationMask, StationMask]] = {}
        self.shows_cache: dict[Tickets, list[tuple[Ticket, tuple[Ticket, ...], list[StationMask]]]] = {}
        self.reach2_cache: dict[tuple[Station, Tickets], StationMask] = {}
        self.held_cache: dict[Tickets, tuple[Ticket, ...]] = {}
        self.exit_cache: dict[Tickets, list[StationMask]] = {}
        self.kinds_exits: dict[tuple[Ticket, ...], list[StationMask]] = {}
        self.within_cache: dict[tuple[Station, Tickets], list[StationMask]] = {}
        self.cover_cache: dict[tuple[StationMask, tuple[StationMask, ...]], bool] = {}
        rules = self.rules
        # the variants (docs/rules.md): closed hops, steps onto detectives, reveals
        self.cutoff = bool(rules.cutoff_escape and self.board.via)
        self.onto = rules.mrx_onto_detective == "caught"
        self.voluntary = bool(rules.voluntary_reveal)

    # ---- bookkeeping --------------------------------------------------------------------------

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes & 255 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise SearchLimit("time")
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit("nodes")

    def hops(self, station: Station, tickets: Tickets) -> tuple[tuple[Ticket, Station], ...]:
        key = (station, tickets)
        h = self.hop_cache.get(key)
        if h is None:
            h = tuple(detective_hops(self.board, station, tickets))
            self.hop_cache[key] = h
        return h

    def hop_mask(self, station: Station, tickets: Tickets) -> StationMask:
        key = (station, tickets)
        m = self.mask_cache.get(key)
        if m is None:
            m = mask_of(d for _, d in self.hops(station, tickets))
            self.mask_cache[key] = m
        return m

    def spend(self, tickets: Tickets, kind: Ticket | str) -> Tickets:
        key = (tickets, kind)
        t = self.spend_cache.get(key)
        if t is None:
            t = self.spend_cache[key] = tickets.spend(kind)
        return t

    def gain(self, tickets: Tickets, kind: Ticket) -> Tickets:
        key = (tickets, kind)
        t = self.gain_cache.get(key)
        if t is None:
            t = self.gain_cache[key] = tickets.gain(kind)
        return t

    def held(self, tickets: Tickets) -> tuple[Ticket, ...]:
        h = self.held_cache.get(tickets)
        if h is None:
            h = self.held_cache[tickets] = tickets.held()
        return h

    def legal_hops(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...]) -> list[tuple[Ticket, Station]]:
        blocked = mask_of(st) & ~(1 << st[i])
        return [(t, d) for t, d in self.hops(st[i], tk[i]) if not blocked >> d & 1]

    def position(self, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, mt: Tickets, move: int,
                 doubles: int, turn: int) -> Position:
        """The engine's position for this belief state (Mr. X's station unknown)."""
        return Position(self.board, self.rules, self.names, st, tk,
                        frozenset(n for i, n in enumerate(self.names) if out >> i & 1), mt, None, move,
                        self.root.round, doubles, turn)

    def targets(self, mask: StationMask, ticket: Ticket, occupied: StationMask) -> StationMask:
        """Where Mr. X may go from ``mask`` with ``ticket`` and not be caught at once (the
        engine's rule, cut-off escape included; the one place the search steps him).  Under
        ``mrx_onto_detective: caught`` a step onto a detective is legal but ends the game with
        the detectives winning, so those worlds leave his possible set."""
        return mrx_targets(self.board, mask, ticket, occupied, self.rules)

    def mrx_exits(self, mask: StationMask, mt: Tickets, occ: StationMask) -> StationMask:
        """Where Mr. X has a legal move to from ``mask`` (the engine's: steps onto detectives
        included under ``caught``; empty means trapped, or a pass)."""
        out = 0
        for t in self.held(mt):
            out |= mrx_targets(self.board, mask, t, occ, self.rules, onto_detectives=self.onto)
        return out

    def station_exits(self, s: Station, held: tuple[Ticket, ...], maybe: StationMask) -> StationMask:
        """Stations Mr. X at ``s`` has a connection to with ``held``, for the seal bounds: under
        the cut-off escape only connections that no detective standing anywhere in ``maybe`` can
        close (fewer exits: a bound that needs them all covered stays a necessary condition)."""
        if not self.cutoff:
            nb = self.board.neighbours
            ex = 0
            for t in held:
                ex |= nb[t][s]
            return ex
        ex = 0
        for t in held:
            ex |= mrx_targets(self.board, 1 << s, t, maybe, self.rules, onto_detectives=True)
        return ex

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

    def sealable(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
                 mt: Tickets) -> bool:
        """Last turn, detectives ``i``.. still to move: can every station of S still be landed
        on, or have all its exits covered?  (A necessary condition; False prunes.)"""
        reach = 0
        fixed = 0
        movers = 0
        lands = []
        covers = []
        for j in range(self.n):
            m = self.hop_mask(st[j], tk[j]) if j >= i and not out >> j & 1 else 0
            if m:
                reach |= m | 1 << st[j]  # where it lands, or stays when blocked in
                movers += 1
                lands.append(m)
                covers.append(m | 1 << st[j])
            else:
                fixed |= 1 << st[j]
        return self._may_win_now(S, mt, fixed, reach, movers, covers, lands)

    def exit_table(self, tickets: Tickets) -> list[StationMask]:
        """Per station, its neighbours by the kinds of ticket in ``tickets``."""
        tab = self.exit_cache.get(tickets)
        if tab is None:
            held = self.held(tickets)
            tab = self.kinds_exits.get(held)
            if tab is None:
                nb = self.board.neighbours
                tab = [0] * (max(self.board.stations) + 1)
                for s in self.board.stations:
                    for t in held:
                        tab[s] |= nb[t][s]
                self.kinds_exits[held] = tab
            self.exit_cache[tickets] = tab
        return tab

    def uncoverable(self, s: Station, held: tuple[Ticket, ...], maybe: StationMask, fixed: StationMask,
                    reach: StationMask, movers: int) -> bool:
        """Under the variants: can the detectives NOT leave Mr. X at ``s`` without a legal move
        (so they must land on ``s``)?  ``maybe``: where detectives may stand when he moves;
        ``fixed``: detectives that stay; ``reach``: where the movers may land.  Under
        ``caught`` a detective on an exit does not block it (he may step there: no trap)."""
        ex = self.station_exits(s, held, maybe)
        if self.onto:
            return bool(ex)
        ex &= ~fixed
        return bool(ex & ~reach or ex.bit_count() > movers)

    def hop_reach2(self, station: Station, tickets: Tickets) -> tuple[StationMask, StationMask]:
        """:meth:`hop_mask` and :meth:`reach2` in one look-up."""
        key = (station, tickets)
        m = self.hop2_cache.get(key)
        if m is None:
            m = self.hop2_cache[key] = (self.hop_mask(station, tickets), self.reach2(station, tickets))
        return m

    def shows(self, mt: Tickets) -> list[tuple[Ticket, tuple[Ticket, ...], list[StationMask]]]:
        """Per ticket he may show next (single moves): it, the kinds he holds after it and
        their :meth:`exit_table`."""
        out = self.shows_cache.get(mt)
        if out is None:
            out = []
            for t in self.held(mt):
                left = self.spend(mt, t)
                out.append((t, self.held(left), self.exit_table(left)))
            self.shows_cache[mt] = out
        return out

    def reach2(self, station: Station, tickets: Tickets) -> StationMask:
        """Stations a detective may stand on after two more moves (others ignored)."""
        key = (station, tickets)
        m = self.reach2_cache.get(key)
        if m is None:
            m = 0
            for t, d in self.hops(station, tickets):
                m |= self.hop_mask(d, self.spend(tickets, t))
            self.reach2_cache[key] = m
        return m

    def sealable_next(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
                      mt: Tickets, move: int) -> bool:
        """Two turns left, detectives ``i``.. still to move in the first: unless this turn may
        still end in a capture or trap, every single ticket he may show next must leave a set
        the last turn can still seal, and the next detective to move must have one move after
        which that holds for every ticket (a necessary condition; False prunes)."""
        fixed = 0  # detectives out of the game
        movers = 0
        lands: list[StationMask] = []  # per detective in the game: where it may land in the last turn
        covers: list[StationMask] = []  # per detective in the game: where it may stand after the last turn
        first = -1  # the next detective to move in this turn (-1: none)
        k_first = 0  # its index in ``lands``
        occ_rest = 0  # where the detectives but ``first`` may stand when he moves
        reach_rest = 0  # where they may stand after the last turn
        now_fixed = 0  # for this turn's own test: detectives that do not move in it
        now_reach = 0
        now_lands = []
        now_covers = []
        for j in range(self.n):
            at = 1 << st[j]
            if out >> j & 1:
                fixed |= at
                occ_rest |= at
                now_fixed |= at
                continue
            movers += 1
            hop, two = self.hop_reach2(st[j], tk[j])
            if j >= i:
                occ = hop | at
                land = two | hop
                if hop:
                    now_reach |= occ
                    now_lands.append(hop)
                    now_covers.append(occ)
                else:
                    now_fixed |= at
            else:
                occ = at
                land = hop
                now_fixed |= at
            if first == -1 and j >= i:
                first, k_first = j, len(lands)
                occ_first, reach_first = occ, land | at
            else:
                occ_rest |= occ
                reach_rest |= land | at
            lands.append(land)
            covers.append(land | at)
        if self._may_win_now(S, mt, now_fixed, now_reach, len(now_lands), now_covers, now_lands):
            return True  # this turn may still end in a capture or trap
        cap = -1 if self.rules.is_reveal(move + 1) else movers
        if first == -1:
            return self._seals_every_ticket(S, mt, occ_rest, fixed, reach_rest, movers, covers, lands, cap)
        if not self._seals_every_ticket(S, mt, occ_rest | occ_first, fixed, reach_rest | reach_first, movers, covers,
                                        lands, cap):
            return False
        if self.cutoff or self.onto:
            return True
        # ``first`` shows no ticket before it moves: some one move of it must do for all of his
        blocked = mask_of(st) & ~(1 << st[first])
        stuck = True
        for t, d in self.hops(st[first], tk[first]):
            if blocked >> d & 1:
                continue
            stuck = False
            land = self.hop_mask(d, self.spend(tk[first], t))
            at = 1 << d
            if self._seals_every_ticket(S, mt, occ_rest | at, fixed, reach_rest | land | at, movers,
                                        covers[:k_first] + [land | at] + covers[k_first + 1:],
                                        lands[:k_first] + [land] + lands[k_first + 1:], cap):
                return True
        return stuck  # stuck: it skips this turn, which the test cannot judge

    def _seals_every_ticket(self, S: StationMask, mt: Tickets, occ: StationMask, fixed: StationMask,
                            reach: StationMask, movers: int, covers: list[StationMask], lands: list[StationMask],
                            cap: int) -> bool:
        """:meth:`sealable_next`'s test per ticket: detectives may stand on ``occ`` when he
        moves (his set loses only what is landed on, and closures with more detectives only
        remove hops), ``lands``/``covers``/``reach`` in the last turn; ``cap``: -1 when he is
        shown after this move (each station he must be caught on in reach is enough), else the
        movers (they need a matching).  Tickets detectives hand him only add exits, so the
        kinds he holds after his ticket give at least as many.  A ticket whose set lies within
        one tried before, with the same kinds left after it, asks nothing more (what must be
        landed on: a subset of that); black first, the widest."""
        done: list[tuple[StationMask, list[StationMask]]] = []
        for t, after, exits in reversed(self.shows(mt)):
            rest = self.targets(S & ~occ, t, occ)
            if any(e is exits and r | rest == r for r, e in done):
                continue
            done.append((rest, exits))
            must_land = self._musts(rest, after, exits, fixed, reach, movers, covers, cap)
            if must_land is None or cap >= 0 and not _matchable(must_land, lands):
                return False
        return True

    def escapes(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
                mt: Tickets, k: int) -> bool:
        """Three or more turns left, detectives ``i``.. still to move in this one: unless this turn
        may still end in a capture or trap, does some ticket he may show next put him, in some
        world, on a station that no detective can reach within the turns left, next to another
        such station he can shuttle to with tickets he holds?  Then he is never caught nor
        trapped (True prunes)."""
        if self.sealable(i, st, tk, out, S, mt):
            return False
        board = self.board
        now = 0  # where detectives may stand when he moves next
        occ_max = 0
        kinds: set[Ticket] = set()
        for j in range(self.n):
            occ_max |= 1 << st[j]
            if out >> j & 1:
                continue
            kinds.update(t for t in DETECTIVE_TICKETS if tk[j][t] > 0)
            if j >= i:
                occ_max |= self.hop_mask(st[j], tk[j])
        reach = now = occ_max
        for _ in range(k - 1):
            reach |= board.step_any(reach, kinds)
        free = ~reach
        shuttles = k - 2  # moves he makes after the next one, before the last detectives' turn
        nb = board.neighbours
        for t in self.held(mt):
            S1 = self.targets(S & ~now, t, now) & free
            if not S1:
                continue
            left = self.spend(mt, t)
            for t2 in MRX_MOVE_TICKETS:
                if left[t2] >= shuttles and board.step(S1, t2) & free:
                    rest = S1
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        s = low.bit_length() - 1
                        if self.cutoff:  # a hop no detective within reach can close
                            if mrx_targets(board, 1 << s, t2, reach, self.rules, onto_detectives=True) & free:
                                return True
                        elif nb[t2][s] & free:
                            return True
        return False

    def evades(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
               mt: Tickets, k: int) -> bool:
        """``k`` turns left, detectives ``i``.. still to move in this one: can he, in some world,
        walk a path that never stands where a detective may stand by then, and end it with an
        exit no detective may stand on?  Then he is never caught nor trapped (True prunes).

        ``R[m]``: where detectives may stand after m more turns (this one first), each with the
        kinds of ticket it holds, the others ignored.  Backwards: ``A[k-1]``, stations outside
        ``R[k]`` with a hop out of it; ``A[m]``, stations outside ``R[m+1]`` with a hop into
        ``A[m+1]``; he evades when S meets ``A[0]``.  His first hop is any ticket he holds; the
        others (and the final exit) use kinds he holds ``k - 1`` of after it.  Only under rules
        without the cut-off escape (closures depend on where each detective stands)."""
        board = self.board
        R = [0] * (k + 1)  # R[0] unused
        for j in range(self.n):
            if out >> j & 1:
                for m in range(1, k + 1):
                    R[m] |= 1 << st[j]
                continue
            reach = self.reach_within(st[j], tk[j], k)
            for m in range(1, k + 1):
                R[m] |= reach[m if j >= i else m - 1]
        if not S & ~R[1]:
            return False
        done: dict[tuple[Ticket, ...], StationMask] = {}
        for t in self.held(mt):
            left = self.spend(mt, t)
            kinds = (Ticket.BLACK,) if left.black >= k - 1 else \
                tuple(u for u in MRX_MOVE_TICKETS if left[u] >= k - 1)  # black rides every transport
            if not kinds:
                continue
            A1 = done.get(kinds)
            if A1 is None:
                free = board.all_mask & ~R[k]
                A = free & board.step_any(free, kinds)
                for m in range(k - 2, 0, -1):
                    A = ~R[m + 1] & board.step_any(A, kinds)
                A1 = done[kinds] = A
            if A1 and board.step(A1, t) & S & ~R[1]:
                return True
        return False

    def reach_within(self, station: Station, tickets: Tickets, k: int) -> list[StationMask]:
        """``[m]``: where a detective at ``station`` with ``tickets`` may stand after at most m
        moves (m = 0..k), each with a kind it holds (counts and the others ignored)."""
        key = (station, tickets)
        out = self.within_cache.get(key)
        if out is None or len(out) <= k:
            kinds = tuple(t for t in DETECTIVE_TICKETS if tickets[t] > 0)
            out = [1 << station]
            for _ in range(k):
                out.append(out[-1] | self.board.step_any(out[-1], kinds))
            self.within_cache[key] = out
        return out

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

    def refuted(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int, S: StationMask,
                mt: Tickets, move: int, k: int) -> bool:
        """Do the necessary conditions for a win within ``k`` turns (detectives ``i``.. still to
        move in this one) fail?  (True prunes; see the module docstring.)"""
        if k == 1:
            return not self.sealable(i, st, tk, out, S, mt)
        if k == 2:
            return not self.sealable_next(i, st, tk, out, S, mt, move)
        if self.cutoff:
            return self.escapes(i, st, tk, out, S, mt, k)
        if self.evades(i, st, tk, out, S, mt, k):
            return True
        return k == 3 and not self.onto and self.refuted_after_move(i, st, tk, out, S, mt, move)

    def refuted_after_move(self, i: int, st: tuple[Station, ...], tk: tuple[Tickets, ...], out: int,
                           S: StationMask, mt: Tickets, move: int) -> bool:
        """Three turns left, detectives ``i``.. still to move in this one (classic rules): does
        some single ticket he may show next (no reveal) leave two turns that fail
        :meth:`sealable_next`'s tests, wherever this turn's movers end?  Each detective still
        to move stands anywhere within one move of its station (so lands within two, then
        three); his set loses every station a detective may land on; tickets handed to him are
        left out (fewer exits).  Each relaxation only helps the detectives: True prunes."""
        if self.rules.is_reveal(move + 1) or self.rules.is_reveal(move + 2):
            return False
        fixed = 0
        occ1 = 0  # where detectives may stand when he moves next
        first: list[tuple[StationMask, StationMask]] = []  # per mover: (lands, covers) in the next turn
        second: list[tuple[StationMask, StationMask]] = []  # per mover: (lands, covers) in the last turn
        for j in range(self.n):
            if out >> j & 1:
                fixed |= 1 << st[j]
                continue
            if j >= i:
                w = self.reach_within(st[j], tk[j], 3)
                stand, land1, land2 = w[1], w[2], w[3]
            else:
                stand = 1 << st[j]
                land1 = self.hop_mask(st[j], tk[j])
                land2 = self.reach2(st[j], tk[j]) | land1
            occ1 |= stand
            first.append((land1, land1 | stand))
            second.append((land2, land2 | stand))
        occ1 |= fixed
        movers = len(first)
        reach1 = fixed
        covers1 = [c for _, c in first]
        lands1 = [m for m, _ in first]
        occ2 = fixed
        reach2 = 0
        for _, c in first:
            reach1 |= c
            occ2 |= c
        for _, c in second:
            reach2 |= c
        covers2 = [c for _, c in second]
        lands2 = [m for m, _ in second]
        for t in self.held(mt):
            S1 = self.targets(S & ~occ1, t, occ1)
            if not S1:
                continue
            mt1 = self.spend(mt, t)
            if self._may_win_now(S1, mt1, fixed, reach1, movers, covers1, lands1):
                continue
            for t2 in self.held(mt1):
                rest = self.targets(S1 & ~occ2, t2, occ2)
                left = self.spend(mt1, t2)
                must_land = self._musts(rest, self.held(left), self.exit_table(left), fixed, reach2, movers, covers2,
                                        movers)
                if must_land is None or not _matchable(must_land, lands2):
                    return True
        return False

    def _may_win_now(self, S: StationMask, mt: Tickets, fixed: StationMask, reach: StationMask, movers: int,
                     covers: list[StationMask], lands: list[StationMask]) -> bool:
        """:meth:`sealable`'s test with each mover landing anywhere in ``lands``."""
        if S & ~reach == 0 and S.bit_count() <= movers:
            return True
        must_land = self._musts(S, self.held(mt), self.exit_table(mt), fixed, reach, movers, covers, movers)
        return must_land is not None and _matchable(must_land, lands)

    def _musts(self, rest: StationMask, held: tuple[Ticket, ...], exits: list[StationMask], fixed: StationMask,
               reach: StationMask, movers: int, covers: list[StationMask], cap: int) -> list[Station] | None:
        """The stations of ``rest`` a detective must land on (Mr. X there, holding ``held``), or
        None when one of them is out of ``reach`` or there are more than ``cap`` of them (-1:
        no cap).  Classic rules: some exit (``exits``: :meth:`exit_table` of his tickets) is out
        of the ``movers``' ``reach``, there are more exits than movers, or (``covers``: per
        mover, where it may stand after its move) the exits cannot each get their own mover;
        under the variants :meth:`uncoverable` decides.  The searches' innermost loop."""
        out: list[Station] = []
        variant = self.cutoff or self.onto
        free = ~fixed
        ckey = None
        cache = self.cover_cache
        while rest:
            low = rest & -rest
            rest ^= low
            s = low.bit_length() - 1
            if variant:
                if not self.uncoverable(s, held, reach | fixed, fixed, reach, movers):
                    continue
            else:
                ex = exits[s] & free
                if not ex & ~reach:
                    c = ex.bit_count()
                    if c <= movers:
                        if c <= 1 or not covers:
                            continue
                        if ckey is None:
                            ckey = tuple(covers)
                        key = (ex, ckey)
                        ok = cache.get(key)
                        if ok is None:
                            if len(cache) >= self.table_size:  # (it fills far faster than the table)
                                cache.clear()
                            ok = cache[key] = _matchable(stations_of(ex), covers)
                        if ok:
                            continue
            if not reach >> s & 1:
                return None
            out.append(s)
            if len(out) == cap + 1:
                return None
        return out

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


def _matchable(stations: Sequence[Station], lands: Sequence[StationMask]) -> bool:
    """Can each of ``stations`` get its own detective, detective ``j`` landing anywhere in
    ``lands[j]``?  Up to three stations, Hall's condition (every few stations have as many
    detectives between them); more, the sets of detectives the stations so far can be given, as
    one integer: bit ``u`` stands for the set ``u`` (a bitmask of detectives), so giving
    detective ``j`` to the next station moves every set without ``j`` up by ``1 << j``."""
    k = len(stations)
    if not k:
        return True
    n = len(lands)
    if k > n:
        return False
    cans = []  # per station: the detectives that may land there, a bitmask
    for s in stations:
        can = 0
        bit = 1
        for m in lands:
            if m >> s & 1:
                can |= bit
            bit <<= 1
        if not can:
            return False
        cans.append(can)
    if k == 1:
        return True
    if k == 2:
        return (cans[0] | cans[1]).bit_count() >= 2
    if k == 3:
        a, b, c = cans
        return ((a | b).bit_count() >= 2 and (a | c).bit_count() >= 2 and (b | c).bit_count() >= 2
                and (a | b | c).bit_count() >= 3)
    without = _WITHOUT.get(n)
    if without is None:
        without = _WITHOUT[n] = [sum(1 << u for u in range(1 << n) if not u >> j & 1) for j in range(n)]
    options = 1  # the empty set
    for can in cans:
        nxt = 0
        j = 0
        while can:
            if can & 1:
                nxt |= (options & without[j]) << (1 << j)
            can >>= 1
            j += 1
        if not nxt:
            return False
        options = nxt
    return True


#: per number of detectives n: per detective j, the bits of the sets (of n) without j
_WITHOUT: dict[int, list[int]] = {}
