"""Necessary conditions for a forced win (:class:`Bounds`, the base of
:class:`~sy_tools.solvers.forced_search.Search`, over the same belief states): tests that fail
only where the detectives have no win within the turns left, so the search prunes with them
before it tries any move (the tests of the search compare it against a plain search over every
move), and the matching of stations to detectives they rest on (:func:`matchable`).

Last turn: every station of ``S`` can still be landed on, or all its exits covered, by the
detectives still to move (stations that must be landed on each need their own detective: a
matching; so do the exits of a station to trap him there).  Two turns left: unless this turn can still win, each
single ticket he may show next leaves (at least) a set that passes the last-turn test with
the detectives' two-move reach, and (classic rules) so does each one with the next detective
to move standing where one of its moves takes it, the same move for every ticket (the
others keeping their reach).  Three turns left (classic rules): some single
ticket he may show next fails the two-turn test wherever the detectives still to move end
(:meth:`Bounds.refuted_after_move`).  Three or more: he has no walk that stays off every
station a detective may reach by then and ends with an exit none may reach
(:meth:`Bounds.evades`; under the cut-off escape, :meth:`Bounds.escapes`: no station he may
reach next lies, with a neighbour he can shuttle to, beyond every detective's reach).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.hops import mrx_targets
from ..engine.position import Position
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket, Tickets
from .forced_moves import BeliefMoves


class Bounds(BeliefMoves):
    """The necessary conditions (see the module docstring); True from :meth:`refuted` prunes."""

    def __init__(self, root: Position, table_size: int) -> None:
        super().__init__(root, table_size)
        self.cover_cache: dict[tuple[StationMask, tuple[StationMask, ...]], bool] = {}

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
            if must_land is None or cap >= 0 and not matchable(must_land, lands):
                return False
        return True

    def _may_win_now(self, S: StationMask, mt: Tickets, fixed: StationMask, reach: StationMask, movers: int,
                     covers: list[StationMask], lands: list[StationMask]) -> bool:
        """:meth:`sealable`'s test with each mover landing anywhere in ``lands``."""
        if S & ~reach == 0 and S.bit_count() <= movers:
            return True
        must_land = self._musts(S, self.held(mt), self.exit_table(mt), fixed, reach, movers, covers, movers)
        return must_land is not None and matchable(must_land, lands)

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
                            ok = cache[key] = matchable(stations_of(ex), covers)
                        if ok:
                            continue
            if not reach >> s & 1:
                return None
            out.append(s)
            if len(out) == cap + 1:
                return None
        return out

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
                if must_land is None or not matchable(must_land, lands2):
                    return True
        return False

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


def matchable(stations: Sequence[Station], lands: Sequence[StationMask]) -> bool:
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
