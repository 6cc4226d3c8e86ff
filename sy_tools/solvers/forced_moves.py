"""What the forced-win search asks of the engine about a belief state, cached
(:class:`BeliefMoves`, the base of :class:`~sy_tools.solvers.forced_bounds.Bounds` and
:class:`~sy_tools.solvers.forced_search.Search`): a detective's hops and where they land, its
tickets after a move, the kinds a piece holds, where Mr. X may step
(:func:`~sy_tools.engine.hops.mrx_targets`: the cut-off escape and steps onto detectives as the
engine rules them) and the exits and reaches the bounds count.  Every movement rule comes from
:mod:`sy_tools.engine`; the search forgets a cache once it holds ``table_size`` entries."""

from __future__ import annotations

from ..engine.board import Board
from ..engine.hops import detective_hops, mrx_targets
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, mask_of
from ..engine.tickets import DETECTIVE_TICKETS, Ticket, Tickets


class BeliefMoves:
    """The engine's answers about belief states, cached (see the module docstring)."""

    def __init__(self, root: Position, table_size: int) -> None:
        self.root = root
        self.board: Board = root.board
        self.rules: Rules = root.rules
        self.names = root.names
        self.n = len(root.names)
        self.table_size = table_size
        self.hop_cache: dict[tuple[Station, Tickets], tuple[tuple[Ticket, Station], ...]] = {}
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
        rules = self.rules
        # the variants (docs/rules.md): closed hops, steps onto detectives, reveals
        self.cutoff = bool(rules.cutoff_escape and self.board.via)
        self.onto = rules.mrx_onto_detective == "caught"
        self.voluntary = bool(rules.voluntary_reveal)

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
