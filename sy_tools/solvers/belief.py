"""The detectives' advice (``sy-tools advise``): what they know of Mr. X (his possible set and
its weights, the tickets he may show next) and the search for their joint move.

The facts both advisors report live with the advice (:mod:`sy_tools.solvers.advice`); the
forced-win seam is :mod:`sy_tools.solvers.forced_hook`."""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..analysis.distances import distances
from ..engine.board import Board
from ..engine.budget import deadline_within
from ..engine.hops import detective_hops, mrx_targets
from ..engine.moves import Move
from ..engine.position import Position, double_allowed
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket, Tickets
from ..errors import AnalysisError, InputError
from ..formats.report_text import plural
from .advice import (
    FAR,
    MOVES_AHEAD,
    Advice,
    DetectiveAdvice,
    advice_header,
    detective_reach,
    detective_reach_two,
    max_matching,
    moves_left,
)
from .beam import MAX_CANDIDATES, SMALL_SET, SMALL_SET_WIDTH
from .forced_hook import ForcedHook
from .forced_hook import solve_hook as solve_hook  # cli.advise imports it from here

Weights = Mapping[Station, float]

#: A planner of :func:`advise_detectives`: ``planner(afters, possible, weights) -> index or None``
#: chooses among the joint moves weighed (the position after each, best first)
Planner = Callable[[Sequence[Position], StationMask, Mapping[Station, float]], "int | None"]

#: The default per-decision budget of the self-play policies (seconds).
POLICY_TIME_LIMIT = 0.25

#: Stations of the possible set used for distances (the most likely ones).
MASS_STATIONS = 32

#: Each move the detectives' tickets pay for that a joint move strands (rounds a detective would
#: sit out: :meth:`_JointMoveScorer.wasted`) costs its worst-case catch odds this share of the
#: chance left: it weighs where a catch is far from sure, hardly where it is near.
STRANDED_MOVE = 0.05

#: In the look-ahead's catch odds, how likely Mr. X is on a station of his next set that a
#: detective can reach next, against 1 for one none can reach: he sees the detectives and keeps
#: out of their reach when he can (1.0: his station uniform over the set).
WARY = 0.3

#: When he is shown on his next move: the chance the detectives catch him later at a station of
#: his next set that none of them can reach next but one can reach in two moves (a chase from
#: close by), against 0 further away.  It weighs where the detectives stand when he is shown.
NEAR_REVEAL = 0.3


def _normalise(possible: StationMask, weights: Weights | None) -> dict[Station, float]:
    st = stations_of(possible)
    if weights:
        w = {s: float(weights.get(s, 0.0)) for s in st}
        total = sum(w.values())
        if total > 0:
            return {s: v / total for s, v in w.items()}
    return {s: 1.0 / len(st) for s in st} if st else {}


def _mrx_options(board: Board, rules: Rules, S: StationMask, occ: StationMask, tickets: Tickets, move: int,
                 can_double: bool) -> list[tuple[tuple[Ticket, ...], StationMask, bool]]:
    """What Mr. X may show next from anywhere in ``S``: ``(tickets, set after, revealed)``;
    ``revealed`` when a leg is a reveal move (he is then shown at a station of his choosing).
    Only options that leave him somewhere."""
    out: list[tuple[tuple[Ticket, ...], StationMask, bool]] = []
    if move >= rules.log_length:
        return out
    firsts = []
    for t in tickets.held(MRX_MOVE_TICKETS):
        s1 = mrx_targets(board, S, t, occ, rules)  # a step onto a detective ("caught") loses: not in the set
        if s1:
            firsts.append((t, s1))
            out.append(((t,), s1, rules.is_reveal(move + 1)))
    if can_double:
        for t1, s1 in firsts:
            left = tickets.spend(t1)
            for t2 in left.held(MRX_MOVE_TICKETS):
                # a reveal on the first leg shows him, but he hides again: the set after leg 2
                # is reached from one station of his choosing; counted as the whole set (an
                # over-estimate of what the detectives will know)
                s2 = mrx_targets(board, s1, t2, occ, rules)
                if s2:
                    out.append(((t1, t2), s2, rules.is_reveal(move + 2)))
    return out


def _reveal_options(board: Board, rules: Rules, S: StationMask, occ: StationMask, tickets: Tickets, move: int,
                    can_double: bool) -> list[tuple[tuple[Ticket, ...], StationMask, bool]]:
    """Under ``rules.voluntary_reveal``: what Mr. X may show with a voluntary reveal (the ticket
    he takes aside), as :func:`_mrx_options`: shown after a single move or the second leg of a
    double move (``revealed``: at a station of the set, his choice), or after the first leg
    (then one option per station, the set after the second leg reached from it)."""
    out: list[tuple[tuple[Ticket, ...], StationMask, bool]] = []
    if not rules.voluntary_reveal or move >= rules.log_length:
        return out
    fixed1, fixed2 = rules.is_reveal(move + 1), rules.is_reveal(move + 2)
    for t1 in tickets.held(MRX_MOVE_TICKETS):
        s1 = mrx_targets(board, S, t1, occ, rules)
        if not s1:
            continue
        if not fixed1:
            out.append(((t1,), s1, True))
        if not can_double:
            continue
        for t2 in tickets.spend(t1).held(MRX_MOVE_TICKETS):
            if not fixed2:
                s2 = mrx_targets(board, s1, t2, occ, rules)
                if s2:
                    out.append(((t1, t2), s2, True))
            if not fixed1:
                for x in stations_of(s1):
                    s2 = mrx_targets(board, 1 << x, t2, occ, rules)
                    if s2:
                        out.append(((t1, t2), s2, fixed2))
    return out


class _Odds(NamedTuple):
    """What :meth:`_JointMoveScorer._catch` finds over what he may show next."""

    #: the worst-case catch odds (the figure the advice prints)
    worst: float
    #: the mean size of his possible set after his next move
    next_mean: float
    #: the worst case and the mean of the odds the search ranks by (with the chase after a reveal)
    ranked: float
    mean: float


class _OutOfTime(Exception):
    """The advisor's time limit passed."""


class _JointMoveScorer:
    """Scores the detectives' joint moves from their view (one per decision): a cheap key for
    partial ones (the beam's order), the full key of a complete one (capture and trap odds
    looking ``depth`` turns ahead), and the time limit."""

    def __init__(self, root: Position, S: StationMask, w: dict[Station, float], deadline: float) -> None:
        self.board = root.board
        self.rules = root.rules
        self.S = S
        self.w = w
        self.deadline = deadline
        self.dist = distances(self.board, FAR)
        ranked = sorted(w.items(), key=lambda kv: (-kv[1], kv[0]))[:MASS_STATIONS]
        total = sum(p for _, p in ranked) or 1.0
        self.mass = [(s, p / total) for s, p in ranked]
        self.mass_p = [p for _, p in self.mass]
        self._mass_dist: dict[Station, float] = {}
        self._mass_hops: dict[Station, list[int]] = {}
        self.doubles = root.doubles
        self.horizon = self._rounds_to_come(root)
        self.calls = 0
        self.armed = True
        self.held = root.mrx_tickets.held(MRX_MOVE_TICKETS)
        self.exits = [root.board.step(S, t) for t in self.held]
        self.exits_any = 0  # one move from his whole set, any ticket he holds (detectives aside)
        for e in self.exits:
            self.exits_any |= e
        self._two: dict[tuple[Station, Tickets], bool] = {}
        self._stuck: dict[tuple[Station, Tickets], bool] = {}
        self._reach: dict[tuple[Station, int], StationMask] = {}
        self._reach_two: dict[tuple[Station, Tickets], StationMask] = {}
        self.root_tickets = root.tickets
        dealt = self.rules.detective_tickets
        total = sum(dealt.get(t.value, 0) for t in DETECTIVE_TICKETS)
        self.taxi_share = dealt.get(Ticket.TAXI.value, 0) / total if total else 0.0
        self.names = root.names
        self.came_from: Mapping[str, Station] = {}
        self.back_at: tuple[Station, ...] = ()

    def set_came_from(self, came_from: Mapping[str, Station]) -> None:
        """Where each detective came from on its last move: a move straight back there (an
        oscillation) ranks below any other as good for the capture, in the beam too."""
        self.came_from = dict(came_from)
        self.back_at = tuple(self.came_from.get(n, -1) for n in self.names) if came_from else ()

    def mass_hops(self, x: Station) -> list[int]:
        """Hops from ``x`` to each station of his probability mass."""
        v = self._mass_hops.get(x)
        if v is None:
            row = self.dist[x]
            v = self._mass_hops[x] = [row[s] for s, _ in self.mass]
        return v

    def mass_dist(self, x: Station) -> float:
        """Mean hops from ``x`` to his probability mass."""
        v = self._mass_dist.get(x)
        if v is None:
            v = self._mass_dist[x] = sum(map(operator.mul, self.mass_p, self.mass_hops(x)))
        return v

    def check_time(self) -> None:
        """Raise :class:`_OutOfTime` past the deadline (checked every 64 calls; never while
        ``armed`` is False, so the greedy first answer always completes)."""
        self.calls += 1
        if self.armed and self.calls & 63 == 0 and time.monotonic() > self.deadline:
            raise _OutOfTime

    # -- a cheap key for partial joint moves (the beam's order) --

    def cheap_key(self, stations: tuple[Station, ...], active: Sequence[bool], wasted: int = 0,
                  stuck: int = 0) -> tuple[float, ...]:
        """The beam's cheap key for detectives standing on ``stations`` (``active``: not out),
        in the full key's order: whether they stand on his whole set, how many the moves so far
        leave with no move at all (``stuck``: :meth:`stuck_at`; a last resort, as in the full
        key, so the beam never fills with moves the full key ranks last), cheap catch odds (what
        they stand on of his set, then the odds over the stations one move from it, those within
        their reach counted caught: :meth:`_reach_odds`),
        the moves their tickets pay for that the moves so far strand (``wasted``:
        :meth:`move_wasted`), how many went straight back where they came from, the mean size
        of his next set (his tickets now), how near his mass is to the nearest detective, and
        each detective's mean distance to it."""
        occ = 0
        for s in stations:
            occ |= 1 << s
        S = self.S
        caught = sum(self.w.get(s, 0.0) for s in stations if S >> s & 1) if S & occ else 0.0
        nxt = 0  # his exits from the whole set, less the detectives (cheap: not less their stations in it)
        for e in self.exits:
            nxt += (e & ~occ).bit_count()
        nxt_mean = nxt / len(self.held) if self.held else 0.0
        cover = self._cover_dist(stations, occ)
        pull = sum(self.mass_dist(s) for s, a in zip(stations, active) if a)
        backs = sum(map(operator.eq, stations, self.back_at)) if self.back_at else 0
        odds = caught + (1.0 - caught) * self._reach_odds(stations, active, occ)
        return (1.0 if caught >= 0.9999 else 0.0, -stuck, round(odds, 3), -wasted, -backs, -round(nxt_mean, 1),
                -round(cover, 2), -pull)

    def _reach_odds(self, stations: Sequence[Station], active: Sequence[bool], occ: StationMask) -> float:
        """The beam's cheap stand-in for the next turn's catch odds: :func:`catch_odds` over the
        stations one move from his whole set (his tickets now) that no detective stands on,
        those a detective on ``stations`` can reach next (with the tickets it held at the root)
        counted as caught."""
        nxt = self.exits_any & ~occ
        if not nxt:  # no way out of his whole set: trapped (a win where that loses for him)
            return 1.0 if self.rules.trapped_loses else 0.0
        reach = 0
        for i, (s, a) in enumerate(zip(stations, active)):
            if a:
                r = self._reach.get((s, i))
                if r is None:
                    r = self._reach[(s, i)] = detective_reach(self.board, s, self.root_tickets[i])
                reach |= r
        covered = (nxt & reach).bit_count()
        return catch_odds(nxt.bit_count(), covered, covered)

    def _cover_dist(self, stations: Sequence[Station], occ: StationMask) -> float:
        """Mean hops from his probability mass to the nearest detective."""
        if not stations:
            return float(FAR)
        if len(stations) == 1:
            return sum(map(operator.mul, self.mass_p, self.mass_hops(stations[0])))
        return sum(map(operator.mul, self.mass_p, map(min, *[self.mass_hops(s) for s in stations])))

    # -- the full key of a complete joint move --

    def score(self, start: Position, moves: tuple[Move, ...], pos: Position, depth: int) -> _ScoredJointMove:
        board, rules = self.board, self.rules
        occ = pos.occupied
        caught = sum(self.w.get(s, 0.0) for s in pos.stations if self.S >> s & 1)
        S1 = self.S & ~occ
        mt = pos.mrx_tickets
        over = pos.ended is not None  # his log is full or no detective can move: he wins unless caught now
        trapped = 0
        if rules.trapped_loses and S1 and not over:
            # connections are undirected: a station has a free exit by t iff it is one t-hop
            # from a free station
            onto = rules.mrx_onto_detective == "caught"  # then he may step onto a detective: not trapped
            free = board.all_mask if onto else board.all_mask & ~occ
            has_exit = 0
            for t in mt.held(MRX_MOVE_TICKETS):
                has_exit |= mrx_targets(board, free, t, occ, rules, onto_detectives=onto)
            trapped = S1 & ~has_exit
        trapped_w = sum(self.w.get(s, 0.0) for s in stations_of(trapped))
        left = S1 & ~trapped
        sure = not left
        worst = ranked = mean = 0.0
        nxt_mean = 0.0
        if left and not over:
            dets = [(s, t) for n, s, t in zip(pos.names, pos.stations, pos.tickets) if n not in pos.out]
            worst, nxt_mean, ranked, mean = self._catch(left, occ, dets, mt, pos.move, pos.doubles, depth - 1)
        rest = max(0.0, 1.0 - caught - trapped_w)
        p_worst = caught + trapped_w + rest * worst
        p_ranked = caught + trapped_w + rest * ranked
        p_mean = caught + trapped_w + rest * mean
        stranded = []
        soon = []
        short = 0  # taxis spent by detectives short of them (:meth:`short_of_taxis`)
        for m in moves:
            i = pos.names.index(m.piece)
            if self.stuck_at(pos.stations[i], pos.tickets[i]):
                stranded.append(m.piece)
            elif not self.two_moves(pos.stations[i], pos.tickets[i]):
                soon.append(m.piece)
            short += m.tickets[0] == Ticket.TAXI and self.short_of_taxis(pos.tickets[i])
        wins = sure or p_worst >= 0.9999
        wasted = 0 if wins else self.wasted(pos)
        cover = self._cover_dist(pos.stations, occ)
        pull = sum(self.mass_dist(s) for n, s in zip(pos.names, pos.stations) if n not in pos.out)
        cost = 0.0
        for m in moves:
            t = m.tickets[0]
            have = start.tickets[start.names.index(m.piece)][t]
            cost += {Ticket.TAXI: 0.2, Ticket.BUS: 0.5, Ticket.UNDERGROUND: 1.0}.get(t, 1.0) + 1.0 / max(have, 1)
        back = self.came_from
        backs = tuple(m.piece for m in moves if back.get(m.piece, -1) == m.to) if back else ()
        # (straight back where it came from only for the capture odds or a detective's mobility: the
        # lines then say so; on a tie in those, another move)
        odds = p_ranked - STRANDED_MOVE * wasted * (1.0 - p_ranked)
        # (a detective short of taxis rides a bus or the underground where that is as likely to
        # catch him: his taxi-only corners need the taxis it keeps)
        key = (1.0 if wins else 0.0, -len(stranded) if not wins else 0.0, round(odds, 3), -short if not wins else 0,
               round(p_mean, 3),
               -len(soon) if not wins else 0.0, -len(backs), -round(nxt_mean, 1), -round(cover, 2),
               -round(pull, 2), -cost)
        return _ScoredJointMove(moves, pos, key, sure, p_worst, p_mean, tuple(stranded), nxt_mean, tuple(soon),
                                backs)

    def _rounds_to_come(self, root: Position) -> int:
        """The detectives' rounds sure to come if he is not caught: his log entries left less the
        double moves he may still make (each takes two entries in one round), at most
        :data:`~sy_tools.solvers.advice.MOVES_AHEAD` (the same for every joint move weighed:
        the detectives' moves change none of it)."""
        rules = self.rules
        doubles = 0
        if rules.double_moves_per_round >= 1:
            doubles = max(0, min(root.mrx_tickets.double, rules.double_moves_per_game - root.doubles))
        return max(0, min(rules.log_length - root.move - doubles, MOVES_AHEAD))

    def stranded_moves(self, station: Station, tickets: Tickets) -> int:
        """The moves ``tickets`` pay for in the rounds to come that a detective on ``station``
        can no longer make (others ignored): a ticket stranded by the lines it stands on is a
        round it sits out."""
        goal = min(tickets.taxi + tickets.bus + tickets.underground, self.horizon)
        return goal - moves_left(self.board, station, tickets, goal)

    def move_wasted(self, pos: Position, i: int, move: Move) -> int:
        """What detective ``i``'s ``move`` from ``pos`` strands (:meth:`stranded_moves`)."""
        assert move.to is not None
        return self.stranded_moves(move.to, pos.tickets[i].spend(move.tickets[0]))

    def wasted(self, pos: Position) -> int:
        """What the detectives still in the game strand, standing as in ``pos``."""
        return sum(self.stranded_moves(s, t) for n, s, t in zip(pos.names, pos.stations, pos.tickets)
                   if n not in pos.out)

    def stuck_at(self, station: Station, tickets: Tickets) -> bool:
        """Whether a detective on ``station`` holding ``tickets`` has no move at all (other
        detectives aside): out for the rest of the game."""
        key = (station, tickets)
        got = self._stuck.get(key)
        if got is None:
            got = self._stuck[key] = not any(True for _ in detective_hops(self.board, station, tickets))
        return got

    def near_two(self, dets: Sequence[tuple[Station, Tickets]]) -> StationMask:
        """Where some detective of ``dets`` may stand after two moves in a row
        (:func:`~sy_tools.solvers.advice.detective_reach_two`)."""
        m = 0
        for key in dets:
            r = self._reach_two.get(key)
            if r is None:
                r = self._reach_two[key] = detective_reach_two(self.board, key[0], key[1])
            m |= r
        return m

    def short_of_taxis(self, tickets: Tickets) -> bool:
        """Whether a detective holding ``tickets`` has fewer taxi tickets than its share of the
        rounds sure to come (the taxis dealt over all tickets dealt, times those rounds): a taxi
        it spends now is one it will miss where only taxis run."""
        return tickets.taxi < self.horizon * self.taxi_share

    def two_moves(self, station: Station, tickets: Tickets) -> bool:
        """Whether a detective on ``station`` holding ``tickets`` can still make two moves in a
        row (other detectives aside): one that cannot is stranded after its next move."""
        key = (station, tickets)
        got = self._two.get(key)
        if got is None:
            got = any(True for t, s in detective_hops(self.board, station, tickets)
                      for _ in detective_hops(self.board, s, tickets.spend(t)))
            self._two[key] = got
        return got

    def _catch(self, S: StationMask, occ: StationMask, dets: list[tuple[Station, Tickets]], mt: Tickets,
               move: int, doubles: int, depth: int) -> _Odds:
        """The probability the detectives catch him within ``depth`` more turns of theirs, over
        what he may show next (his station over what he may reach, wary of the detectives' reach:
        :func:`catch_odds`), and the odds the search ranks by: the same with a chase from close
        by after he is shown (:data:`NEAR_REVEAL`)."""
        board, rules = self.board, self.rules
        can_double = double_allowed(rules, mt.double, doubles, move)
        options = _mrx_options(board, rules, S, occ, mt, move, can_double)
        if not options:  # trapped, or every move of his lands on a detective ("caught")
            return _Odds(1.0, 0.0, 1.0, 1.0) if rules.trapped_loses or rules.mrx_onto_detective == "caught" else \
                _Odds(0.0, float(S.bit_count()), 0.0, 0.0)
        singles = [o for o in options if len(o[0]) == 1]
        nxt_mean = sum(o[1].bit_count() for o in singles) / len(singles) if singles else 0.0
        if depth <= 0:
            return _Odds(0.0, nxt_mean, 0.0, 0.0)
        reach = [detective_reach(board, s, t) for s, t in dets]
        # a voluntary reveal: each option with each ticket he may take (those that change a
        # detective's reach; one that changes none is the option with the detectives intact)
        plays = [(o, reach, dets) for o in options]
        if rules.voluntary_reveal:
            paid = []
            for j, (s, t) in enumerate(dets):
                for T in DETECTIVE_TICKETS:
                    if t[T] > 0:
                        r = detective_reach(board, s, t.spend(T))
                        paid.append((reach[:j] + [r] + reach[j + 1:], dets[:j] + [(s, t.spend(T))] + dets[j + 1:])
                                    if r != reach[j] else (reach, dets))
            paid = list({tuple(r): (r, d) for r, d in paid}.values())
            plays += [(o, r, d) for o in _reveal_options(board, rules, S, occ, mt, move, can_double) for r, d in paid]
        worst, ranked, total = 1.0, 1.0, 0.0
        for (tks, S2, revealed), reach, dets2 in plays:
            self.check_time()
            n = S2.bit_count()
            anyone = 0
            for r in reach:
                anyone |= r
            covered = (S2 & anyone).bit_count()
            if revealed:  # he is shown at a station of his choosing: covered if any detective reaches it
                p = q = catch_odds(n, covered, covered)
                if n > covered and NEAR_REVEAL:  # shown where a detective is two moves away: a chase from close by
                    near = (S2 & ~anyone & self.near_two(dets2)).bit_count()
                    q += (1.0 - q) * NEAR_REVEAL * near / (n - covered)
            else:
                p = q = catch_odds(n, covered, max_matching([stations_of(S2 & r) for r in reach]))
            if depth > 1 and p < 1.0:
                dp, dq = self._deeper(S2, occ, dets2, mt, tks, move, doubles, depth - 1)
                p += (1.0 - p) * dp
                q += (1.0 - q) * dq
            worst = min(worst, p)
            ranked = min(ranked, q)
            total += q
        return _Odds(worst, nxt_mean, ranked, total / len(plays))

    def _deeper(self, S2: StationMask, occ: StationMask, dets: list[tuple[Station, Tickets]], mt: Tickets,
                tks: tuple[Ticket, ...], move: int, doubles: int, depth: int) -> tuple[float, float]:
        """After he showed ``tks``: the detectives' greedy reply (each in turn to the free hop
        nearest the set), then the worst case of what he shows next (the catch odds, and the
        odds the search ranks by: :meth:`_catch`)."""
        board = self.board
        taken = occ
        new = []
        targets = stations_of(S2)[:MASS_STATIONS]
        for s, t in dets:
            best: tuple[float, Station, Ticket] | None = None
            for tk, d in detective_hops(board, s, t):
                if taken >> d & 1 and d != s:
                    continue
                row = self.dist[d]
                v = (0.0 if S2 >> d & 1 else 1.0) + sum(row[x] for x in targets) / max(len(targets), 1)
                if best is None or v < best[0]:
                    best = (v, d, tk)
            if best is None:
                new.append((s, t))
                continue
            taken = (taken & ~(1 << s)) | (1 << best[1])
            new.append((best[1], t.spend(best[2])))
        occ2 = 0
        for s, _ in new:
            occ2 |= 1 << s
        S3 = S2 & ~occ2
        if not S3:
            return 1.0, 1.0
        mt2 = mt
        for tk in tks:
            mt2 = mt2.spend(tk)
        dbl = doubles + (1 if len(tks) == 2 else 0)
        if len(tks) == 2:
            mt2 = mt2.spend("double")
        odds = self._catch(S3, occ2, new, mt2, move + len(tks), dbl, depth)
        return odds.worst, odds.ranked


def catch_odds(n: int, covered: int, caught: int, wary: float | None = None) -> float:
    """The odds the detectives catch him on a set of ``n`` stations, ``covered`` of them within
    a detective's reach, when they can land on ``caught`` of those at once: each covered station
    counts ``wary`` against 1 for the others (he keeps out of their reach when he can), so only
    a net over the whole set is sure (``caught == n``: 1).  ``wary`` defaults to :data:`WARY`."""
    if n <= 0:
        return 1.0
    w = WARY if wary is None else wary
    return caught * w / (covered * w + (n - covered))


@dataclass(frozen=True)
class _ScoredJointMove:
    """A complete joint move, the position after it and its key (best is largest)."""

    moves: tuple[Move, ...]
    pos: Position
    key: tuple[float, ...]
    sure: bool
    p_worst: float
    p_mean: float
    stranded: tuple[str, ...]
    next_mean: float
    #: detectives left with at most one more move (warned two turns ahead)
    soon: tuple[str, ...] = ()
    #: detectives moving straight back to where they came from
    backs: tuple[str, ...] = ()


def _joint_moves(root: Position, width: int, scorer: _JointMoveScorer) -> tuple[list[tuple[tuple[Move, ...], Position]], bool]:
    """Joint moves of the detectives still to move this round, in turn order, keeping the
    ``width`` best partial ones after each detective (by the cheap key; only those kept are
    played on the engine).  Also says whether nothing was cut (every joint move is listed)."""
    # each partial joint move carries (moves, position, moves stranded, detectives left stuck)
    frontier: list[tuple[tuple[Move, ...], Position, int, int]] = [((), root, 0, 0)]
    complete = True
    while any(p.turn != 0 and p.ended is None for _, p, _, _ in frontier):
        cands: list[tuple[tuple[float, ...], tuple[Move, ...], Position, Move | None, int, int]] = []
        for moves, p, wasted, stuck in frontier:
            active = [n not in p.out for n in p.names]
            if p.turn == 0 or p.ended is not None:
                cands.append((scorer.cheap_key(p.stations, active, wasted, stuck), moves, p, None, wasted, stuck))
                continue
            i = p.turn - 1
            for m in p.legal_moves:
                scorer.check_time()
                to = m.to
                assert to is not None
                st = p.stations[:i] + (to,) + p.stations[i + 1:]
                w = wasted + scorer.move_wasted(p, i, m)
                k = stuck + scorer.stuck_at(to, p.tickets[i].spend(m.tickets[0]))
                cands.append((scorer.cheap_key(st, active, w, k), moves + (m,), p, m, w, k))
        if len(cands) > width:
            complete = False
            cands.sort(key=lambda c: c[0], reverse=True)
            del cands[width:]
        frontier = [(moves, p if m is None else p.push(m), w, k) for _, moves, p, m, w, k in cands]
    return [(moves, p) for moves, p, _, _ in frontier], complete


def _detectives_to_move(pos: Position) -> list[str]:
    if pos.turn == 0:
        return []
    return [n for n in pos.names[pos.turn - 1:] if n not in pos.out]


def advise_detectives(position: Position, possible: StationMask | Iterable[Station], weights: Weights | None = None,
                      depth: int = 2, time_limit: float = 10.0, forced: ForcedHook | None = None,
                      max_candidates: int = MAX_CANDIDATES, context: dict[str, Any] | None = None,
                      came_from: Mapping[str, Station] | None = None, planner: Planner | None = None) -> Advice:
    """A move for each detective still to move this round, chosen jointly (see the module).

    ``position`` has a detective to move; Mr. X's station in it, if any, is never looked at.
    ``possible`` is his possible set, ``weights`` its probabilities (default: uniform).
    ``time_limit`` bounds the whole search; ``max_candidates`` the joint moves weighed,
    :data:`SMALL_SET_WIDTH` times as many when his possible set has at most :data:`SMALL_SET`
    stations (at most :data:`MAX_CANDIDATES`).
    ``came_from``: where each detective stood before its last move; a move straight back there
    is played only when every joint move weighed without it ranks lower for the capture (the
    catch odds, the chase after a reveal included) or leaves a detective less mobile, and its line
    says so.

    ``planner`` (e.g. :func:`sy_tools.solvers.plan.planner`), when given, chooses among the
    joint moves weighed, best first, where none is a sure win: it is handed the position after
    each (Mr. X's station unknown), his possible set and its probabilities, and returns the index
    of its choice (None or 0: the ranking's best)."""
    t0 = time.monotonic()
    while position.ended is None and position.turn != 0 and not position.legal_moves:
        position = position.pass_turn()  # a stuck detective is out (a typed-in puzzle may start so)
    if position.ended is not None:
        raise AnalysisError(f"the game is over: {position.ended.describe()}")
    if position.turn == 0:
        raise AnalysisError("Mr. X is to move: the detectives' advice comes after his move")
    if depth < 1:
        raise InputError(f"--depth must be at least 1, got {depth}", where="--depth")
    pos = position._with(mrx_at=None)  # fair play: the advisor never sees his station
    S = (possible if isinstance(possible, int) else mask_of(possible)) & ~pos.occupied
    if not S:
        raise AnalysisError("Mr. X has no possible station")
    w = _normalise(S, weights)
    if S.bit_count() <= SMALL_SET:
        max_candidates *= SMALL_SET_WIDTH
    max_candidates = max(1, min(max_candidates, MAX_CANDIDATES))
    deadline = deadline_within(time_limit)
    scorer = _JointMoveScorer(pos, S, w, deadline)
    scorer.set_came_from(came_from or {})
    forced_out: dict[str, Any] | None = None
    forced_moves: tuple[Move, ...] = ()
    if forced is not None:
        res = forced(pos, S, max(0.01, time_limit / 2))
        if res is not None:
            forced_out = res.to_dict()
            if res.forced:
                forced_moves = tuple(res.first_moves)

    seen: dict[tuple[Move, ...], _ScoredJointMove] = {}
    status = "searched"
    best: _ScoredJointMove | None = None
    depth_reached = 0
    try:
        if forced_moves:
            p = pos
            for m in forced_moves:
                if p.turn == 0 or p.ended is not None or not p.is_legal(m):
                    break
                p = p.push(m)
            else:
                best = scorer.score(pos, forced_moves, p, 1)
                depth_reached = depth
                status = "forced"
        if best is None:
            scorer.armed = False  # the greedy answer always completes
            greedy, _ = _joint_moves(pos, 1, scorer)
            moves, p = greedy[0]
            best = scorer.score(pos, moves, p, 1)
            depth_reached = 1
            scorer.armed = True
            for width in (3, 9, 27, 81, 243, 729, 2187):
                cands, complete = _joint_moves(pos, min(width, max_candidates), scorer)
                for moves, p in cands:
                    if moves not in seen:
                        seen[moves] = scorer.score(pos, moves, p, depth)
                level = max(seen.values(), key=lambda s: s.key)
                best = level
                depth_reached = depth
                if complete:
                    status = "exhaustive"
                    break
                if width >= max_candidates:
                    break
    except _OutOfTime:
        status = "time-limit"
        if seen:
            best = max(seen.values(), key=lambda s: s.key)
            depth_reached = depth
    assert best is not None
    if planner is not None and status != "forced" and len(seen) > 1 and not (best.sure or best.p_worst >= 0.9999):
        ranked = sorted(seen.values(), key=lambda s: s.key, reverse=True)
        pick = planner([s.pos for s in ranked], S, w)
        if pick:
            best = ranked[pick]
    advice, warned = _detective_lines(pos, best, S, w, scorer, status == "forced")
    turns = None
    if forced_moves and status == "forced":  # (one verdict: the move lines and the summary both say it)
        turns = forced_out.get("turns") if forced_out else None
        advice = [DetectiveAdvice(a.name, a.origin, a.move, a.tickets_left,
                                  "part of a forced win (solve)" + (f": {a.reason}" if a.reason else ""), a.warning)
                  for a in advice]
    header = advice_header(pos, S, best.pos.occupied, side="detectives")
    catch = best.p_worst
    summary = _detective_summary(advice, best, S, header, turns if status == "forced" else None, warned)
    return Advice("detectives", tuple(advice), S.bit_count(), header["reach"], header["to_reveal"],
                  header["distances"], header["holds"], header["note"], catch, forced_out, status, depth,
                  depth_reached, max(len(seen), 1), time.monotonic() - t0, summary, context or {},
                  tuple(sorted(pos.out)))


def _hand(tickets: Tickets) -> str:
    """A detective's tickets in words: ``1 taxi, 3 underground`` (``no ticket``)."""
    return ", ".join(f"{tickets[t]} {t.value}" for t in DETECTIVE_TICKETS if tickets[t] > 0) or "no ticket"


def _at_its_turn(pos: Position, moves: Sequence[Move], i: int) -> Position:
    """The position when detective ``i``'s turn came in the joint move ``moves`` played from
    ``pos`` (the detectives before it moved, the others not yet)."""
    for m in moves:
        if pos.names.index(m.piece) > i:
            break
        pos = pos.push(m)
    return pos


def _on(blockers: Mapping[Station, str]) -> str:
    """``Green (46) and Black (58)``."""
    said = [f"{n} ({s})" for s, n in blockers.items()]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _mobility_warning(name: str, to: Station, left: Tickets, scorer: _JointMoveScorer,
                      wins: bool) -> tuple[str, str] | None:
    """The warning for a detective that lands on ``to`` holding ``left``, when its tickets pay
    for more moves in the rounds to come than it can make from there
    (:func:`~sy_tools.solvers.advice.moves_left`): said while it can still act on it (a round or
    more before it is out), not only at the move that strands it.  ``(line, summary)`` words."""
    goal = min(left.taxi + left.bus + left.underground, scorer.horizon)
    can = moves_left(scorer.board, to, left, goal)
    if can >= goal and not (can <= 1 and can < scorer.horizon):  # (out of tickets: said a round ahead too)
        return None
    hand = _hand(left)
    if can == 0 and not left.total:
        text = f"spends {name}'s last ticket: out from the next round"
        short = f"{name} is out after this move"
    elif can == 0:
        text = (f"leaves {name} no move from {to} with the tickets it holds ({hand}): out from the next round"
                + ("" if wins else "; a last resort: every joint move weighed leaves a detective so, or wins"))
        short = f"{name} is out after this move"
    elif can == 1:
        pays = f", which pay for {plural(goal, 'move')}" if goal > 1 else ""
        text = (f"leaves {name} one more move from {to} with the tickets it holds ({hand}){pays}: its next move "
                "is its last, so make it count")
        short = f"{name}'s next move is its last"
    else:
        text = (f"leaves {name} {plural(can, 'more move')} in a row from {to} with the tickets it holds ({hand}), "
                f"which pay for {goal}: steer it towards the lines its tickets ride")
        short = f"{name} has {plural(can, 'more move')} left"
    return text + (" (it costs nothing if the catch comes as planned)" if wins else ""), short


def _detective_lines(pos: Position, best: _ScoredJointMove, S: StationMask, w: dict[Station, float],
                     scorer: _JointMoveScorer, forced: bool = False) -> tuple[list[DetectiveAdvice], list[str]]:
    """Each detective's line (its move, why, and any warning) and the warnings in short for the
    summary."""
    board = pos.board
    after = best.pos
    occ = after.occupied
    S1 = S & ~occ
    nxt = 0
    for t in after.mrx_tickets.held(MRX_MOVE_TICKETS):
        nxt |= mrx_targets(board, S1, t, occ, pos.rules)
    n_next = nxt.bit_count()
    n_now = S.bit_count()
    exits = 0  # where he could go from his possible set were no detective in the way
    for t in after.mrx_tickets.held(MRX_MOVE_TICKETS):
        exits |= board.step(S, t)
    reach = {}
    for n, s, tk in zip(after.names, after.stations, after.tickets):
        if n not in after.out:
            reach[n] = detective_reach(board, s, tk) & nxt
    by_name = {m.piece: m for m in best.moves}
    out = []
    dist = scorer.dist
    wins = forced or best.p_worst >= 0.9999
    blocks = {} if best.sure else _next_round_warnings(after, by_name, scorer.horizon)
    shorts = [short for _, short in blocks.get("", [])]  # (a block no line of this round made)
    for name in _detectives_to_move(pos):
        i = pos.names.index(name)
        origin = pos.stations[i]
        m = by_name.get(name)
        if m is None:
            stuck = _at_its_turn(pos, best.moves, i).stuck(name) if S1 else None
            why = ("no need to move: the moves above catch him wherever he is" if stuck is None
                   else stuck.describe())  # (the engine's words: who blocks it, whether it waits or is out)
            out.append(DetectiveAdvice(name, origin, None, pos.tickets[i], why))
            continue
        to = m.to
        assert to is not None
        left = after.tickets[i]
        parts = []
        if S >> to & 1:  # (the words of `possible`: his possible stations now, and after his next move)
            parts.append(f"lands on {to}, one of his {plural(n_now, 'possible station')} (p {w.get(to, 0.0):.2f})")
        elif exits >> to & 1:
            parts.append(f"blocks {to}, one of the {plural(exits.bit_count(), 'station')} one move from his "
                         f"{plural(n_now, 'possible station')}")
        mine = reach.get(name, 0)
        if mine and n_next:
            others = 0
            for k, r in reach.items():
                if k != name:
                    others |= r
            only = mine & ~others
            text = f"threatens {mine.bit_count()} of the {plural(n_next, 'station')} possible after his next move"
            if only:
                sts = stations_of(only)
                text += f" (only it reaches {', '.join(map(str, sts[:4]))}{', ...' if len(sts) > 4 else ''})"
            parts.append(text)
        before = min((dist[origin][s] for s in stations_of(S)), default=FAR)
        now = min((dist[to][s] for s in stations_of(S1)), default=FAR)
        if (not parts or len(parts) < 2) and FAR not in (before, now):  # (FAR: he is caught, or unreachable)
            was = f"was {plural(before, 'hop')}"  # (hops said with their noun, never beside a station)
            if now < before:
                parts.append(f"closes in ({plural(now, 'hop')} from his possible stations, {was})")
            elif now == before:
                parts.append(f"keeps {plural(now, 'hop')} from his possible stations")
            else:
                parts.append(f"steps back ({plural(now, 'hop')} from his possible stations, {was}) to cover his "
                             "way out")
        if name in best.backs:
            only = len({s for _, s in detective_hops(board, origin, pos.tickets[i]) if not pos.occupied >> s & 1}) == 1
            parts.append(f"back to {to}, where it came from: " + (
                "its only move" if only else
                "every joint move weighed without that return is less likely to catch him (now or after he is "
                "shown) or leaves a detective less mobile"))
        warned = [] if best.sure else [t for t in [_mobility_warning(name, to, left, scorer, wins)] if t]
        warned += blocks.get(name, [])
        shorts += [short for _, short in warned if short not in shorts]
        out.append(DetectiveAdvice(name, origin, m, left, "; ".join(parts), "; ".join(t for t, _ in warned) or None))
    return out, shorts


def _next_round_warnings(after: Position, moved: Mapping[str, Move], horizon: int) -> dict[str, list[tuple[str, str]]]:
    """The warnings (``(line, summary)`` words) for the detectives whose next move the joint move
    (``moved``, ending in ``after``) leaves at risk, by the name of the mover whose line says it:
    every move a detective has leads onto a detective that moves after it (or is out), so none
    will have left (blocked); or every move that keeps it in play does, and its free moves strand
    it (hemmed in); or one station alone keeps it in play (its tickets pay for ``horizon`` rounds
    at most).  Said on that detective's line when it moved, else on the lines of the movers onto
    its ways ("" when none of them moved now: the summary alone says it)."""
    if after.ended is not None:
        return {}
    board = after.board
    found: dict[str, list[tuple[str, str]]] = {}
    for i, (name, station, tickets) in enumerate(zip(after.names, after.stations, after.tickets)):
        if name in after.out:
            continue
        held = {s: n for j, (n, s) in enumerate(zip(after.names, after.stations))
                if j > i or (n in after.out and j != i)}
        ways = list(detective_hops(board, station, tickets))
        free = [w for w in ways if w[1] not in held]
        if not ways:
            continue  # (its tickets strand it, not a team-mate: the mobility warning's)
        if not free:
            stops = {to: held[to] for _, to in ways}
            then = "is out for the rest of the game" if after.rules.stuck_is_out(True) else "waits a round"
            text = (f"{name} has no free move next round: its moves from {station} all lead onto {_on(stops)}, who "
                    f"move after it, so it {then} (blocked_detective: {after.rules.blocked_detective}); keep one "
                    f"of those stations free for {name}")
            short = f"{name} is blocked next round"
        else:
            goal = min(tickets.total, horizon)  # (the moves in a row each way on leaves it, this one included)
            run = {w: 1 + moves_left(board, w[1], tickets.spend(w[0]), goal - 1) for w in ways}
            best_free = max(run[w] for w in free)
            keep = sorted({w[1] for w in ways if w[1] in held and run[w] > best_free})
            good = sorted({w for w in free if run[w] >= 2}, key=lambda w: w[1])
            if best_free <= 1 and keep:
                stops = {to: held[to] for to in keep}
                text = (f"{name} is hemmed in next round: its moves from {station} that keep it in play lead onto "
                        f"{_on(stops)}, who move after it, and its other moves strand it (keep one of those "
                        f"stations free for {name})")
                short = f"{name} is hemmed in next round"
            elif len({to for _, to in good}) == 1 and any(run[w] <= 1 for w in ways):
                t, to = good[0]
                stops = {}
                text = (f"only {to} ({t.value}) keeps {name} in play next round: its other moves from {station} strand "
                        f"it, so keep {to} free for {name}")
                short = f"only {to} keeps {name} in play next round"
            else:
                continue
        by = [name] if name in moved else [n for n in stops.values() if n in moved and moved[n].to in stops] or [""]
        for n in by:
            found.setdefault(n, []).append((text, short))
    return found


def _detective_summary(advice: list[DetectiveAdvice], best: _ScoredJointMove, S: StationMask, header: dict[str, Any],
                       forced_turns: int | None = None, warned: Sequence[str] = ()) -> str:
    """The line to read aloud: the joint move and one verdict, the forced win's when the moves
    are its first (``forced_turns``), else the search's; then the warnings in short (``warned``:
    the lines say them in full)."""
    plays = ", ".join(a.entry for a in advice if a.entry is not None)
    if forced_turns is not None:
        verdict = f"a forced win within {plural(forced_turns, 'turn')} whatever he does (solve)"
    elif best.sure:
        verdict = "that catches or traps him now, wherever he is"
    elif best.p_worst >= 0.9999:
        verdict = "a win within the horizon whatever he shows"
    elif best.p_worst > 0:
        verdict = f"at least {best.p_worst:.0%} to catch him within the horizon whatever he shows"
    else:
        verdict = (f"no sure catch yet; he may be at {plural(S.bit_count(), 'station')}"
                   + (f", {header['reach']} by the next reveal" if header["reach"] is not None else ""))
    warn = f" WARNING: {'; '.join(warned)} (see the move lines)." if warned else ""
    return f"Detectives: {plays or 'no move'}: {verdict}.{warn}"
