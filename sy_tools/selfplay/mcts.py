"""A Monte-Carlo tree search player for both sides: the yardstick ``advise`` is measured against.

Written from the ideas of Nijssen & Winands, "Monte Carlo Tree Search for the Hide-and-Seek Game
Scotland Yard" (IEEE TCIAIG 4(4), 2012), on this package's own pieces; budgets are counted in
*iterations*, never seconds, so a game is the same on a busy machine as on an idle one, and every
random draw comes from a stream seeded by one draw of the game's ``rng``.

* **Mr. X** (:func:`mcts_mrx`) knows where he is.  An open-loop UCT tree over his own moves (a
  node is a sequence of his moves; the detectives' replies between them are played by the playout
  policy, so a node's children are those of his moves legal in the sampled state).
* **The detectives** (:func:`mcts_detective`) never see his station: one search per detective
  move, over its :class:`~sy_tools.engine.observations.DetectiveObservation` alone.  Each
  iteration *determinizes*: it draws his station from the possible set weighted by **location
  categorization** (:data:`CATEGORY_WEIGHTS`, by the distance from the station to the nearest
  detective).  The tree holds the detectives' moves (this one's at the root, the others' below,
  open loop); his moves are the playout policy's.  **Coalition reduction**: a detective's reward
  for a capture is 1 when it is the one that catches him, ``1 - COALITION_REDUCTION`` when
  another detective does.
* **Playouts** are epsilon-greedy (:data:`EPSILON`): with probability ``1 - EPSILON`` Mr. X moves
  to keep the nearest detective as far as possible, a detective steps towards where the
  detectives believe he is; otherwise a uniformly random legal move.  What the detectives believe
  is a *phantom* station: drawn (by location categorization) from their possible set when the
  search starts, moved along each ticket he shows to a random station that ticket reaches, set to
  his station at a reveal, and moved on when a detective lands on it and misses him.  In Mr. X's
  search the playout detectives chase the phantom (they do not know where he is); in the
  detectives' own search they chase his drawn station (the textbook determinization: each sample
  is played out as a game of perfect information; it did no worse than the phantom in a 40-game
  check against advise Mr. X), while the tree's filter still uses the phantom.
* **Move filtering**: Mr. X uses a black ticket only right after he was shown (or when the
  detectives' possible set has at most :data:`BLACK_SET_SIZE` stations) and never on a leg that
  is shown anyway; he makes a double move only when no single move ends two hops or more from
  every detective, or when its first leg is a reveal (the second is then hidden), and of the
  double moves to one station only the one with the cheapest tickets is weighed.  A detective
  does not move further from the possible set (the root: the nearest possible station; below it:
  the phantom).  When a filter leaves no move, all legal moves are weighed.
* **Playouts are cut** after :data:`MRX_HORIZON` or :data:`DETECTIVE_HORIZON` rounds (the paper
  plays to the end); a game not over by then scores for Mr. X ``0.5 + 0.5 * min(d, 5) / 5``, ``d``
  the hops to the nearest detective (a capture or trap scores 0, his win 1); for the detectives
  it scores one minus that.

The chosen move is the root's most visited.  The moves searched at the root are the engine's
legal moves (``observation.legal_moves``); the playouts model the counting rules (tickets, reveals,
double moves, the log, stuck detectives, trapped Mr. X) but not the variants' finer points
(cut-off escape, a voluntary reveal, Mr. X onto a detective).
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis.rollout_tables import rollout_tables
from ..engine.board import Board
from ..engine.moves import Move
from ..engine.observations import DetectiveObservation, MrXObservation, observed_position
from ..engine.position import double_allowed
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, stations_of
from ..engine.tickets import MRX_MOVE_TICKETS

#: Mr. X's iterations per move (about 0.2 s of CPU a move on this project's 2-core machine, 0.4 s at most)
MRX_ITERATIONS = 300
#: iterations per detective move (about 0.05 s each; five searches a round)
DETECTIVE_ITERATIONS = 150
#: rounds a playout runs past the searched position before it is scored: Mr. X looks far (his
#: safety is in the long run), the detectives near (measured: a 3-round horizon made the
#: detectives far stronger than 6, and Mr. X far weaker)
MRX_HORIZON = 6
DETECTIVE_HORIZON = 3
#: the playouts' chance of a uniformly random move instead of the heuristic's
EPSILON = 0.2
#: the UCT exploration constant (rewards lie in [0, 1])
EXPLORATION = 0.7
#: what a detective gives up when another detective makes the capture
COALITION_REDUCTION = 0.1
#: location categorization: a possible station's weight by the hops from it to the nearest
#: detective (index 0 unused, then 1, 2, 3, 4, 5 or more), calibrated as the paper does: the odds
#: that Mr. X stood at a station of that category, over the share of the possible set in it, in 140
#: simulated games (greedy and advise Mr. X against greedy detectives, seed 99), when the
#: detectives began their round
CATEGORY_WEIGHTS: tuple[float, ...] = (0.0, 0.25, 1.15, 2.1, 1.85, 1.4)
#: Mr. X may use a black ticket when the detectives' possible set is at most this large
BLACK_SET_SIZE = 3

_BLACK = 3
_DOUBLE = 4
#: a ticket's cost when several lead to one station (taxi cheapest, black dearest)
_COST = (0, 1, 2, 4)

#: a hop: (ticket index as MRX_MOVE_TICKETS, station); Mr. X's move is one or two hops
Hop = tuple[int, Station]
MrXOption = tuple[Hop, ...]




def _pick(mask: StationMask, rnd: random.Random) -> Station:
    """A uniformly drawn station of a non-empty ``mask``."""
    k = int(rnd.random() * mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1



class _Sim:
    """A game state for the search: plain ints and lists (Mr. X's station ``at`` known, or drawn)."""

    __slots__ = ("at", "phantom", "st", "tk", "xt", "move", "rnd", "doubles", "out", "occ", "turn", "over",
                 "catcher", "value")
    at: Station
    phantom: Station
    st: list[Station]
    tk: list[list[int]]
    xt: list[int]
    move: int
    rnd: int
    doubles: int
    out: list[bool]
    occ: StationMask
    turn: int
    over: bool
    catcher: int  # the capturing detective's index; -1 no capture, -2 Mr. X trapped
    value: float  # Mr. X's score of the finished playout

    def copy(self) -> _Sim:
        s = _Sim.__new__(_Sim)
        s.at, s.phantom, s.move, s.rnd, s.doubles, s.occ, s.turn = (self.at, self.phantom, self.move, self.rnd,
                                                                   self.doubles, self.occ, self.turn)
        s.st, s.tk, s.xt, s.out = list(self.st), [list(t) for t in self.tk], list(self.xt), list(self.out)
        s.over, s.catcher, s.value = self.over, self.catcher, self.value
        return s


class _Search:
    """One decision's search: the board's tables, the rules, the stream, the horizon."""

    def __init__(self, board: Board, rules: Rules, rnd: random.Random, last_round: int,
                 omniscient: bool = False) -> None:
        tab = rollout_tables(board)
        #: the playout detectives step towards his (drawn) station, not the phantom
        self.omniscient = omniscient
        self.nb, self.any, self.dist = tab.nb, tab.any, tab.dist
        self.rules = rules
        self.rnd = rnd
        self.last_round = last_round
        self.reveal = frozenset(rules.reveal_moves)

    # ---- what may be played ---------------------------------------------------------------

    def mrx_singles(self, s: _Sim) -> list[MrXOption]:
        free = ~s.occ
        at, nb, xt = s.at, self.nb, s.xt
        return [((t, d),) for t in range(4) if xt[t] for d in stations_of(nb[t][at] & free)]

    def mrx_options(self, s: _Sim, black_ok: bool) -> list[MrXOption]:
        """Mr. X's moves after the filter (all of them when it leaves none)."""
        singles = self.mrx_singles(s)
        doubles: list[MrXOption] = []
        if singles and double_allowed(self.rules, s.xt[_DOUBLE], s.doubles, s.move):
            free, nb, xt = ~s.occ, self.nb, s.xt
            for ((t1, d1),) in singles:
                for t2 in range(4):
                    if xt[t2] - (t2 == t1) > 0:
                        doubles.extend(((t1, d1), (t2, d2)) for d2 in stations_of(nb[t2][d1] & free))
        return self.mrx_filter(s, singles + doubles, black_ok) if singles else []

    def mrx_filter(self, s: _Sim, options: Sequence[MrXOption], black_ok: bool) -> list[MrXOption]:
        """The move filter of Mr. X (module docstring)."""
        dist, dets = self.dist, s.st
        move = s.move
        safe_single = any(min(dist[o[0][1]][x] for x in dets) >= 2 for o in options if len(o) == 1)
        kept: list[MrXOption] = []
        best_double: dict[tuple[Station, Station], tuple[int, int]] = {}
        for o in options:
            bad = False
            for leg, (t, _) in enumerate(o):
                if t == _BLACK:  # right after a reveal (or a small set), and not on a shown leg
                    ok = black_ok if leg == 0 else move + 1 in self.reveal
                    bad = bad or not ok or move + leg + 1 in self.reveal
            if bad:
                continue
            if len(o) == 2:
                first_shown = move + 1 in self.reveal
                if safe_single and not first_shown:
                    continue
                key = (o[0][1] if first_shown else -1, o[1][1])
                cost = _COST[o[0][0]] + _COST[o[1][0]]
                prev = best_double.get(key)
                if prev is not None and prev[0] <= cost:
                    continue
                best_double[key] = (cost, len(kept))
            kept.append(o)
        if best_double:  # keep only the cheapest double move to each (shown, final) pair
            keep_idx = {i for _, i in best_double.values()}
            kept = [o for i, o in enumerate(kept) if len(o) == 1 or i in keep_idx]
        return kept or list(options)

    def detective_options(self, s: _Sim, i: int) -> list[Hop]:
        here = s.st[i]
        free = ~(s.occ & ~(1 << here))
        t3, nb = s.tk[i], self.nb
        return [(t, d) for t in range(3) if t3[t] for d in stations_of(nb[t][here] & free)]

    def _can_move(self, s: _Sim, i: int) -> bool:
        """Whether detective ``i`` has a legal move (:meth:`detective_options`, not listed)."""
        here = s.st[i]
        free = ~(s.occ & ~(1 << here))
        t3, nb = s.tk[i], self.nb
        return any(t3[t] and nb[t][here] & free for t in range(3))

    # ---- playing a move --------------------------------------------------------------------

    def play_mrx(self, s: _Sim, option: MrXOption) -> None:
        rnd, nb, occ = self.rnd, self.nb, s.occ
        if len(option) == 2:
            s.xt[_DOUBLE] -= 1
            s.doubles += 1
        for t, d in option:
            s.xt[t] -= 1
            s.move += 1
            s.at = d
            if s.move in self.reveal:
                s.phantom = d
            else:
                m = nb[t][s.phantom] & ~occ
                if m:
                    s.phantom = _pick(m, rnd)
        s.rnd += 1
        s.turn = 1
        self._next_detective(s)

    def play_detective(self, s: _Sim, i: int, hop: Hop) -> None:
        t, d = hop
        s.tk[i][t] -= 1
        if self.rules.tickets_to_mrx:
            s.xt[t] += 1
        s.occ ^= (1 << s.st[i]) | (1 << d)
        s.st[i] = d
        if d == s.at:
            s.over, s.catcher, s.value = True, i, 0.0
            return
        if d == s.phantom:  # he is not here: the detectives' guess moves on
            m = self.any[d] & ~s.occ
            if m:
                s.phantom = _pick(m, self.rnd)
        s.turn = i + 2
        self._next_detective(s)

    def _next_detective(self, s: _Sim) -> None:
        """Hand the turn to the next detective that can move (a stuck one skips its turn, and is
        out for good where :meth:`Rules.stuck_is_out` says so), or end the round: the log full,
        no detective able to move, Mr. X trapped, or the horizon reached."""
        n = len(s.st)
        i = s.turn - 1
        while i < n:
            if not s.out[i]:
                if self._can_move(s, i):
                    s.turn = i + 1
                    return
                t3, here = s.tk[i], s.st[i]
                s.out[i] = self.rules.stuck_is_out(any(t3[t] and self.nb[t][here] for t in range(3)))
            i += 1
        s.turn = 0
        if s.move >= self.rules.log_length or all(s.out[j] or not self._can_move(s, j) for j in range(n)):
            s.over, s.catcher, s.value = True, -1, 1.0
        elif s.rnd >= self.last_round:
            near = min(self.dist[s.at][x] for x in s.st)
            s.over, s.catcher, s.value = True, -1, 0.5 + 0.5 * min(near, 5) / 5
        elif not self.mrx_singles(s):
            if self.rules.trapped_loses:
                s.over, s.catcher, s.value = True, -2, 0.0
            else:  # he passes
                s.rnd += 1
                s.turn = 1
                self._next_detective(s)

    # ---- the playout policy ------------------------------------------------------------------

    def playout_mrx(self, s: _Sim) -> MrXOption:
        rnd, dist = self.rnd, self.dist
        singles = self.mrx_singles(s)
        if rnd.random() < EPSILON:
            plain = [o for o in singles if o[0][0] != _BLACK] or singles
            return plain[int(rnd.random() * len(plain))]
        dets = s.st
        black_ok = s.move in self.reveal
        best: list[MrXOption] = []
        best_key = (-1, -1)
        for o in singles:
            t, d = o[0]
            row = dist[d]
            key = (min(min(row[x] for x in dets), 5), int(t != _BLACK or black_ok))
            if key > best_key:
                best, best_key = [o], key
            elif key == best_key:
                best.append(o)
        if best_key[0] <= 1 and double_allowed(self.rules, s.xt[_DOUBLE], s.doubles, s.move):
            free, nb, xt = ~s.occ, self.nb, s.xt
            for ((t1, d1),) in singles:
                for t2 in range(3):  # no black on a double in a playout
                    if xt[t2] - (t2 == t1) > 0:
                        for d2 in stations_of(nb[t2][d1] & free):
                            key = (min(min(dist[d2][x] for x in dets), 5), 1)
                            if key > best_key:
                                best, best_key = [((t1, d1), (t2, d2))], key
                            elif key == best_key:
                                best.append(((t1, d1), (t2, d2)))
        return best[int(rnd.random() * len(best))]

    def playout_detective(self, s: _Sim, i: int) -> Hop:
        rnd = self.rnd
        opts = self.detective_options(s, i)
        if rnd.random() < EPSILON:
            return opts[int(rnd.random() * len(opts))]
        row = self.dist[s.at if self.omniscient else s.phantom]
        best: list[Hop] = []
        best_key = (1 << 30, 0)
        for h in opts:
            key = (row[h[1]], h[0])
            if key < best_key:
                best, best_key = [h], key
            elif key == best_key:
                best.append(h)
        return best[int(rnd.random() * len(best))]

    def playout(self, s: _Sim) -> None:
        while not s.over:
            if s.turn == 0:
                self.play_mrx(s, self.playout_mrx(s))
            else:
                i = s.turn - 1
                self.play_detective(s, i, self.playout_detective(s, i))

    def detective_filter(self, s: _Sim, i: int, options: list[Hop]) -> list[Hop]:
        """A detective does not move further from the phantom (all moves when none is left)."""
        row = self.dist[s.phantom]
        here = row[s.st[i]]
        return [h for h in options if row[h[1]] <= here] or options


class _Node:
    """An open-loop tree node: the statistics of the move that leads here, for the piece that
    made it, and the children by move."""

    __slots__ = ("children", "visits", "total")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.total = 0.0


def _select(node: _Node, options: Sequence[Any], rnd: random.Random) -> tuple[Any, _Node, bool]:
    """UCT among ``options`` (the moves legal in this iteration's state): a move not tried yet
    first (drawn at random, and its node made), else the best upper bound.  Returns the move, its
    node and whether it was new."""
    kids = node.children
    new = [o for o in options if o not in kids]
    if new:
        o = new[int(rnd.random() * len(new))]
        child = kids[o] = _Node()
        return o, child, True
    total = 0
    for o in options:
        total += kids[o].visits
    log_n = math.log(max(total, 1))
    best_o, best_v = options[0], -1.0
    for o in options:
        c = kids[o]
        v = c.total / c.visits + EXPLORATION * math.sqrt(log_n / c.visits)
        if v > best_v:
            best_o, best_v = o, v
    return best_o, kids[best_o], False


def _reward(s: _Sim, mover: int) -> float:
    """The reward of a finished playout for ``mover`` (-1 Mr. X, else the detective's index)."""
    if mover < 0:
        return float(s.value)
    if s.catcher >= 0:
        return 1.0 if s.catcher == mover else 1.0 - COALITION_REDUCTION
    if s.catcher == -2:  # trapped: no detective made the capture
        return 1.0 - COALITION_REDUCTION
    return 1.0 - float(s.value)


def _most_visited(root: _Node, options: Sequence[Any]) -> Any:
    best, key = options[0], (-1, -1.0)
    for o in options:
        c = root.children.get(o)
        if c is not None and (c.visits, c.total) > key:
            best, key = o, (c.visits, c.total)
    return best


def _weights(dist: list[list[int]], stations: Sequence[Station], dets: Sequence[Station]) -> list[float]:
    """Location categorization: each station's weight by the hops to its nearest detective."""
    top = len(CATEGORY_WEIGHTS) - 1
    return [CATEGORY_WEIGHTS[min(min((dist[p][x] for x in dets), default=top), top)] for p in stations]


class _Sampler:
    """Draws a station from a possible set weighted by location categorization."""

    def __init__(self, dist: list[list[int]], possible: StationMask, dets: Sequence[Station]) -> None:
        self.stations = stations_of(possible)
        w = _weights(dist, self.stations, dets)
        if not any(w):
            w = [1.0] * len(self.stations)
        acc, self.cum = 0.0, []
        for x in w:
            acc += x
            self.cum.append(acc)

    def draw(self, rnd: random.Random) -> Station:
        k = bisect(self.cum, rnd.random() * self.cum[-1])
        return self.stations[min(k, len(self.stations) - 1)]


def _stream(rng: Any) -> random.Random:
    """The search's own stream: seeded by one draw of the game's ``rng``."""
    return random.Random(int(rng.random() * 2**53))


def _mrx_option(move: Move) -> MrXOption:
    return tuple((MRX_MOVE_TICKETS.index(t), d) for t, d in zip(move.tickets, move.stations))  # type: ignore[misc]


@dataclass(frozen=True)
class MrXSearch:
    """What :func:`search_mrx` found: the chosen ``move`` (the root's most visited), the
    ``playouts`` run, and per root move weighed ``(move, visits, mean score)`` (a playout scores
    1 when he wins, 0 when he is caught or trapped, ``0.5 + 0.5 * min(d, 5) / 5`` when it is cut
    off with the nearest detective ``d`` hops away), most visited first.  ``complete`` is False
    when the deadline stopped the search before its budget."""

    move: Move
    playouts: int = 0
    stats: tuple[tuple[Move, int, float], ...] = ()
    complete: bool = True


def mcts_mrx(obs: MrXObservation, rng: Any, iterations: int | None = None,
             candidates: Sequence[Move] | None = None) -> Move:
    """Mr. X's move by MCTS (module docstring); ``iterations`` (default ``memo["mcts_iterations"]``
    or :data:`MRX_ITERATIONS`) playouts.  ``candidates`` (legal moves) restricts the root's
    options to those moves (None or empty: every legal move; the move filter then applies among
    them; the rest of the search is unchanged): the ``advise`` Mr. X lets the search choose among
    his sound moves so."""
    return search_mrx(obs, rng, iterations, candidates).move


def search_mrx(obs: MrXObservation, rng: Any, iterations: int | None = None,
               candidates: Sequence[Move] | None = None, deadline: float | None = None) -> MrXSearch:
    """:func:`mcts_mrx` with what the search saw; it stops early (``complete`` False) once
    ``time.monotonic()`` passes ``deadline`` (None: never), after at least one playout."""
    pos = obs.position
    pool = list(candidates) if candidates else list(obs.legal_moves)
    legal = [m for m in pool if m.shown is None] or pool
    if len(legal) == 1 or legal[0].is_pass:
        return MrXSearch(legal[0])
    n = int(iterations or obs.memo.get("mcts_iterations", MRX_ITERATIONS))
    rnd = _stream(rng)
    search = _Search(pos.board, pos.rules, rnd, pos.round + MRX_HORIZON)
    root_sim = _Sim()
    assert pos.mrx_at is not None
    root_sim.at = pos.mrx_at
    root_sim.phantom = pos.mrx_at
    root_sim.st, root_sim.tk = list(pos.stations), [[t.taxi, t.bus, t.underground] for t in pos.tickets]
    x = pos.mrx_tickets
    root_sim.xt = [x.taxi, x.bus, x.underground, x.black, x.double]
    root_sim.move, root_sim.rnd, root_sim.doubles, root_sim.turn = pos.move, pos.round, pos.doubles, 0
    root_sim.out = [name in pos.out for name in pos.names]
    root_sim.occ = pos.occupied
    root_sim.over, root_sim.catcher, root_sim.value = False, -1, 0.0
    by_option = {_mrx_option(m): m for m in legal}
    black_ok = pos.move in search.reveal or obs.possible.bit_count() <= BLACK_SET_SIZE
    root_options = search.mrx_filter(root_sim, list(by_option), black_ok)
    if len(root_options) == 1:
        return MrXSearch(by_option[root_options[0]])
    sampler = _Sampler(search.dist, obs.possible, pos.stations) if obs.possible else None
    root = _Node()
    done = 0
    while done < n:
        if deadline is not None and done and time.monotonic() > deadline:
            break
        done += 1
        s = root_sim.copy()
        s.phantom = sampler.draw(rnd) if sampler is not None else s.at
        node, path, options = root, [], root_options
        while True:
            o, node, fresh = _select(node, options, rnd)
            path.append(node)
            search.play_mrx(s, o)
            while not s.over and s.turn != 0:
                i = s.turn - 1
                search.play_detective(s, i, search.playout_detective(s, i))
            if fresh or s.over:
                break
            options = search.mrx_options(s, s.move in search.reveal)
        search.playout(s)
        r = s.value
        for nd in path:
            nd.visits += 1
            nd.total += r
    kids = [(o, root.children[o]) for o in root_options if o in root.children]
    kids.sort(key=lambda oc: (oc[1].visits, oc[1].total), reverse=True)
    stats = tuple((by_option[o], c.visits, c.total / c.visits) for o, c in kids)
    return MrXSearch(by_option[_most_visited(root, root_options)], done, stats, done == n)


def mcts_detective(obs: DetectiveObservation, rng: Any, iterations: int | None = None) -> Move:
    """The move of detective ``obs.to_move`` by determinized MCTS over Mr. X's possible set
    (module docstring); ``iterations`` (default ``memo["mcts_iterations"]`` or
    :data:`DETECTIVE_ITERATIONS`) playouts.  Uses the observation only: never his station."""
    legal = list(obs.legal_moves)
    if len(legal) == 1 or not obs.possible:
        return legal[0]
    me = obs.names.index(obs.to_move)
    tab = rollout_tables(obs.board)
    dist = tab.dist
    poss = stations_of(obs.possible)
    # the root's filter: not further from the nearest possible station
    near = {m: min(dist[m.to or 0][p] for p in poss) for m in legal}
    here = min(dist[obs.station][p] for p in poss)
    legal = [m for m in legal if near[m] <= here] or legal
    if len(legal) == 1:
        return legal[0]
    n = int(iterations or obs.memo.get("mcts_iterations", DETECTIVE_ITERATIONS))
    rnd = _stream(rng)
    search = _Search(obs.board, obs.rules, rnd, obs.round + DETECTIVE_HORIZON, omniscient=True)
    root_sim = _Sim()
    root_sim.st, root_sim.tk = list(obs.stations), [[t.taxi, t.bus, t.underground] for t in obs.tickets]
    x = obs.mrx_tickets
    root_sim.xt = [x.taxi, x.bus, x.underground, x.black, x.double]
    root_sim.move, root_sim.rnd, root_sim.doubles = obs.move, obs.round, observed_position(obs).doubles
    root_sim.turn = me + 1
    root_sim.at = root_sim.phantom = -1  # drawn in each iteration
    root_sim.out = [name in obs.out for name in obs.names]
    occ = 0
    for st in obs.stations:
        occ |= 1 << st
    root_sim.occ = occ
    root_sim.over, root_sim.catcher, root_sim.value = False, -1, 0.0
    by_option = {(MRX_MOVE_TICKETS.index(m.tickets[0]), m.to): m for m in legal}
    root_options: list[Any] = list(by_option)
    sampler = _Sampler(dist, obs.possible, obs.stations)
    root = _Node()
    for _ in range(n):
        s = root_sim.copy()
        s.at = sampler.draw(rnd)
        s.phantom = sampler.draw(rnd)
        node, path, options = root, [], root_options
        while True:
            i = s.turn - 1
            o, node, fresh = _select(node, options, rnd)
            path.append((node, i))
            search.play_detective(s, i, o)
            while not s.over and s.turn == 0:
                search.play_mrx(s, search.playout_mrx(s))
            if fresh or s.over:
                break
            i = s.turn - 1
            options = search.detective_filter(s, i, search.detective_options(s, i))
        search.playout(s)
        for nd, i in path:
            nd.visits += 1
            nd.total += _reward(s, i)
    return by_option[_most_visited(root, root_options)]


__all__ = ["mcts_mrx", "search_mrx", "MrXSearch", "mcts_detective", "MRX_ITERATIONS", "DETECTIVE_ITERATIONS", "MRX_HORIZON",
           "DETECTIVE_HORIZON", "EPSILON",
           "EXPLORATION", "COALITION_REDUCTION", "CATEGORY_WEIGHTS", "BLACK_SET_SIZE"]
