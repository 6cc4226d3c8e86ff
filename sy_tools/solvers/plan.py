"""The detectives' planning search (issue 45): determinized rollouts over the rounds to his next
reveal and beyond, choosing among the joint moves ``advise`` ranks best.

``advise``'s one-turn key (:mod:`sy_tools.solvers.belief`) judges a joint move by the catch odds
of the next turn or two; the games are lost in the rounds after a reveal, when the approach over
several rounds decides.  :func:`plan_joint_move` plays each of the ``candidates`` best joint
moves out over :func:`horizon` rounds, ``rollouts`` times:

* **Determinized, fair by construction.**  Each rollout draws Mr. X's station from the possible
  set with its probabilities (the tracker's, when given; else uniform): it sees only what the
  detectives see.  Every candidate meets the same draws (common random numbers: rollout ``k``
  of every candidate starts from the same station and the same stream), so the comparison is
  not drowned in the draws' noise.
* **A strong cheap Mr. X.**  In a rollout he knows where the detectives are: he keeps out of
  their reach next turn when he can, then keeps the nearest detective as far as he can (up to
  :data:`NEAR_CAP` hops) and his possible set large (doubling it is worth a hop); a double move
  where every single move is within reach, a black ticket where it hides him (right after he was
  shown).  Ties at random from the rollout's stream.
* **Detectives that do not see him.**  The rollout keeps the possible set the detectives would
  hold (his tickets shown, his reveals, the stations they land on) and each detective steps to
  the free station nearest on average to it (:data:`TARGETS` of its stations), as the ``greedy``
  detectives do.
* **A rollout scores** 1 when he is caught or trapped within the horizon, 0 when he escapes (his
  log full, the detectives stuck) or is still free at the horizon.

The joint move with the most catches is chosen; the ranking's best keeps its place unless another
catches him in at least :data:`MARGIN` more of the rollouts (ties and near-ties keep advise's
order).  Budgets are counted in rollouts, never seconds, and the stream is seeded by the caller,
so a decision is the same from the same seed whatever the machine's load.

The rollout engine (:class:`Rollout`) runs on plain ints and lists; it models the counting
rules (tickets, reveals, double moves, the log, stuck detectives, a trapped Mr. X) and
:func:`plan_joint_move` declines (returns None) under the variants it does not model
(:func:`~sy_tools.engine.rules.counting_models`).  tests/solvers/test_plan.py plays it against
:class:`~sy_tools.engine.position.Position` on generated positions.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..analysis.rollout_tables import rollout_tables
from ..engine.position import Position, double_allowed
from ..engine.rules import Rules, counting_models
from ..engine.stations import Station, StationMask, stations_of
from .belief import Planner

#: Rounds a rollout plays past his next reveal (then at most :data:`MAX_HORIZON` in all)
PAST_REVEAL = 2
MIN_HORIZON = 3
MAX_HORIZON = 6
#: Another joint move replaces the ranking's best only when it catches him in this share more of
#: the rollouts
MARGIN = 0.1
#: The rollout detectives step towards at most this many stations of the possible set
TARGETS = 12
#: Hops to the nearest detective count up to this many for the rollout Mr. X
NEAR_CAP = 4

_BLACK = 3
_DOUBLE = 4

#: a hop of Mr. X in a rollout: (ticket index as MRX_MOVE_TICKETS, station); a move is one or two
Hop = tuple[int, Station]




class Rollout:
    """A game state of a rollout on plain ints: Mr. X's (drawn) station ``at``, the detectives'
    stations ``st`` and tickets ``tk`` (taxi, bus, underground), his tickets ``xt`` (taxi, bus,
    underground, black, double), the possible set the detectives hold ``possible``, the log
    entries made ``move``, the round, the double moves made, who is out, whose turn (0: Mr. X,
    ``i + 1``: detective ``i``) and how it ended (``winner``: ``"mrx"``, ``"detectives"`` or
    None while it goes on)."""

    __slots__ = ("tab", "rules", "at", "st", "tk", "xt", "possible", "move", "rnd", "doubles", "out", "occ",
                 "turn", "winner")

    def __init__(self, pos: Position, at: Station, possible: StationMask) -> None:
        self.tab = rollout_tables(pos.board)
        self.rules: Rules = pos.rules
        self.at = at
        self.st = list(pos.stations)
        self.tk = [[t.taxi, t.bus, t.underground] for t in pos.tickets]
        x = pos.mrx_tickets
        self.xt = [x.taxi, x.bus, x.underground, x.black, x.double]
        self.possible = possible
        self.move, self.rnd, self.doubles, self.turn = pos.move, pos.round, pos.doubles, pos.turn
        self.out = [n in pos.out for n in pos.names]
        occ = 0
        for s in self.st:
            occ |= 1 << s
        self.occ = occ
        self.winner: str | None = None
        if at in self.st:
            self.winner = "detectives"
        elif pos.ended is not None:
            self.winner = pos.ended.winner
        elif self.turn == 0 and not self.mrx_singles() and self.rules.trapped_loses:
            self.winner = "detectives"  # trapped where he stands

    # ---- what may be played ---------------------------------------------------------------

    def mrx_singles(self) -> list[tuple[Hop, ...]]:
        """Mr. X's single moves (none once his log is full)."""
        if self.move >= self.rules.log_length:
            return []
        free, nb, xt, at = ~self.occ, self.tab.nb, self.xt, self.at
        return [((t, d),) for t in range(4) if xt[t] for d in stations_of(nb[t][at] & free)]

    def mrx_doubles(self) -> list[tuple[Hop, ...]]:
        """Mr. X's double moves (where the rules let him make one now)."""
        if not double_allowed(self.rules, self.xt[_DOUBLE], self.doubles, self.move):
            return []
        free, nb, xt = ~self.occ, self.tab.nb, self.xt
        out: list[tuple[Hop, ...]] = []
        for ((t1, d1),) in self.mrx_singles():
            for t2 in range(4):
                if xt[t2] - (t2 == t1) > 0:
                    out.extend(((t1, d1), (t2, d2)) for d2 in stations_of(nb[t2][d1] & free))
        return out

    def detective_hops(self, i: int) -> list[Hop]:
        """Detective ``i``'s moves (ticket index, station)."""
        here = self.st[i]
        free = ~(self.occ & ~(1 << here))
        t3, nb = self.tk[i], self.tab.nb
        return [(t, d) for t in range(3) if t3[t] for d in stations_of(nb[t][here] & free)]

    # ---- playing ---------------------------------------------------------------------------

    def play_mrx(self, option: Sequence[Hop]) -> None:
        """Mr. X plays ``option`` (empty: a pass); the detectives' possible set follows what he
        shows."""
        rules, nb, occ = self.rules, self.tab.nb, self.occ
        if len(option) == 2:
            self.xt[_DOUBLE] -= 1
            self.doubles += 1
        p = self.possible
        for t, d in option:
            self.xt[t] -= 1
            self.move += 1
            self.at = d
            if rules.is_reveal(self.move):
                p = 1 << d
            else:
                q = 0
                m = p
                row = nb[t]
                while m:
                    low = m & -m
                    q |= row[low.bit_length() - 1]
                    m ^= low
                p = q & ~occ
        self.possible = p
        self.rnd += 1
        self.turn = 1
        self._next_detective()

    def play_detective(self, i: int, hop: Hop) -> None:
        t, d = hop
        self.tk[i][t] -= 1
        if self.rules.tickets_to_mrx:
            self.xt[t] += 1
        self.occ ^= (1 << self.st[i]) | (1 << d)
        self.st[i] = d
        if d == self.at:
            self.winner = "detectives"
            return
        self.possible &= ~(1 << d)
        self.turn = i + 2
        self._next_detective()

    def _can_move(self, i: int) -> bool:
        here = self.st[i]
        free = ~(self.occ & ~(1 << here))
        t3, nb = self.tk[i], self.tab.nb
        return any(t3[t] and nb[t][here] & free for t in range(3))

    def _next_detective(self) -> None:
        """The turn to the next detective that can move (one that cannot skips its turn, and is
        out for good where the rules say so), or the round's end: his log full or no detective
        able to move (he wins), or he has no move (trapped: he loses where the rules say so)."""
        n = len(self.st)
        i = self.turn - 1
        while i < n:
            if not self.out[i]:
                if self._can_move(i):
                    self.turn = i + 1
                    return
                t3, here, nb = self.tk[i], self.st[i], self.tab.nb
                self.out[i] = self.rules.stuck_is_out(any(t3[t] and nb[t][here] for t in range(3)))
            i += 1
        self.turn = 0
        if self.move >= self.rules.log_length:
            self.winner = "mrx"
            return
        for j in range(n):
            if not self.out[j] and self._can_move(j):
                break
        else:
            self.winner = "mrx"
            return
        if not self.mrx_singles() and self.rules.trapped_loses:
            self.winner = "detectives"  # trapped (where the rules let him pass, his pass is his move)


# ---- the rollout policies ------------------------------------------------------------------

def _reach(r: Rollout) -> StationMask:
    """Where some detective still in the game can move next."""
    nb = r.tab.nb
    m = 0
    for i, s in enumerate(r.st):
        if r.out[i]:
            continue
        t3 = r.tk[i]
        for t in range(3):
            if t3[t]:
                m |= nb[t][s]
    return m


def rollout_mrx(r: Rollout, rnd: random.Random) -> tuple[Hop, ...]:
    """The rollout Mr. X (module docstring); ``()`` when he has no move (a pass)."""
    singles = r.mrx_singles()
    if not singles:
        return ()
    reach = _reach(r)
    dist, dets = r.tab.dist, r.st
    shown_now = r.possible.bit_count() <= 1
    options = [o for o in singles if not reach >> o[0][1] & 1 and (o[0][0] != _BLACK or shown_now)]
    if not options:  # every single move within reach: a double move out of it, else any single move
        options = [o for o in r.mrx_doubles() if _BLACK not in (o[0][0], o[1][0]) and not reach >> o[1][1] & 1] \
            or singles
    nb, occ, p0 = r.tab.nb, r.occ, r.possible
    sizes: dict[int, int] = {}
    best: list[tuple[Hop, ...]] = []
    best_key = (-1.0, -1e9)
    for o in options:
        t, d = o[-1]
        if r.rules.is_reveal(r.move + len(o)):
            size = 1
        elif len(o) == 1:
            size = sizes.get(t, -1)
            if size < 0:
                q, m, row = 0, p0, nb[t]
                while m:
                    low = m & -m
                    q |= row[low.bit_length() - 1]
                    m ^= low
                size = sizes[t] = (q & ~occ).bit_count()
        else:  # (a double move: counted as a set of a few stations, not computed)
            size = 4
        row = dist[d]
        near = min(min(row[x] for x in dets), NEAR_CAP)
        key = (0.0 if reach >> d & 1 else 1.0, near + math.log2(max(size, 1)) - (0.5 if t == _BLACK else 0.0))
        if key > best_key:
            best, best_key = [o], key
        elif key == best_key:
            best.append(o)
    return best[int(rnd.random() * len(best))]


def rollout_detective(r: Rollout, i: int, rnd: random.Random) -> Hop:
    """Detective ``i`` of a rollout steps to the free station nearest on average to at most
    :data:`TARGETS` stations of the possible set (never his drawn station); ties to the cheaper
    ticket, then at random."""
    hops = r.detective_hops(i)
    poss = stations_of(r.possible)
    if len(poss) > TARGETS:
        step = len(poss) / TARGETS
        poss = [poss[int(k * step)] for k in range(TARGETS)]
    dist = r.tab.dist
    best: list[Hop] = []
    best_key = (1 << 30, 9)
    for h in hops:
        row = dist[h[1]]
        key = (sum(row[x] for x in poss), h[0])
        if key < best_key:
            best, best_key = [h], key
        elif key == best_key:
            best.append(h)
    return best[int(rnd.random() * len(best))]


def play_out(r: Rollout, rounds: int, rnd: random.Random) -> bool:
    """Play ``r`` on for at most ``rounds`` more rounds (the round under way counts when a
    detective is to move); whether the detectives caught or trapped him."""
    last = r.rnd + rounds
    while r.winner is None:
        if r.turn == 0:
            if r.rnd >= last:
                break
            r.play_mrx(rollout_mrx(r, rnd))
        else:
            i = r.turn - 1
            r.play_detective(i, rollout_detective(r, i, rnd))
    return r.winner == "detectives"


def horizon(rules: Rules, move: int) -> int:
    """Rounds a rollout plays: to his next reveal and :data:`PAST_REVEAL` past it, between
    :data:`MIN_HORIZON` and :data:`MAX_HORIZON`, never past his log."""
    nxt = rules.next_reveal(move)
    h = (nxt - move if nxt is not None else rules.log_length - move) + PAST_REVEAL
    return max(1, min(max(h, MIN_HORIZON), MAX_HORIZON, rules.log_length - move + 1))


@dataclass(frozen=True)
class Plan:
    """What :func:`plan_joint_move` found: the index of the chosen candidate and each
    candidate's catches out of ``rollouts``."""

    index: int
    catches: tuple[int, ...]
    rollouts: int
    horizon: int


class _Draw:
    """Draws his station from the possible set with its probabilities."""

    def __init__(self, S: StationMask, weights: Mapping[Station, float] | None) -> None:
        self.stations = stations_of(S)
        w = [float(weights.get(s, 0.0)) if weights else 1.0 for s in self.stations]
        if not any(x > 0 for x in w):
            w = [1.0] * len(self.stations)
        acc, self.cum = 0.0, []
        for x in w:
            acc += x
            self.cum.append(acc)

    def __call__(self, rnd: random.Random) -> Station:
        k = bisect(self.cum, rnd.random() * self.cum[-1])
        return self.stations[min(k, len(self.stations) - 1)]


def plan_joint_move(afters: Sequence[Position], S: StationMask, weights: Mapping[Station, float] | None,
                    rollouts: int, seed: int) -> Plan | None:
    """Choose among joint moves by rollouts (module docstring).  ``afters``: the position after
    each candidate joint move, the ranking's best first (Mr. X's station unknown in them);
    ``S``: his possible set before the joint move, ``weights`` its probabilities;
    ``rollouts`` per candidate; ``seed`` the stream's.  None when there is nothing to choose or
    the rules hold a variant the rollouts do not model."""
    if len(afters) < 2 or rollouts < 1 or not S or not counting_models(afters[0].rules):
        return None
    root = afters[0]
    h = horizon(root.rules, root.move)
    draw = _Draw(S, weights)
    starts = []
    seeder = random.Random(seed)
    for _ in range(rollouts):
        starts.append((draw(seeder), seeder.getrandbits(48)))
    catches = []
    for after in afters:
        caught = 0
        for at, stream in starts:
            r = Rollout(after, at, S & ~after.occupied)
            if r.winner is None:
                caught += play_out(r, h, random.Random(stream))
            else:
                caught += r.winner == "detectives"
        catches.append(caught)
    best = 0
    for k in range(1, len(afters)):
        if catches[k] > catches[best] and (best or catches[k] - catches[0] >= MARGIN * rollouts):
            best = k
    return Plan(best, tuple(catches), rollouts, h)


__all__ = ["MARGIN", "Plan", "Rollout", "horizon", "plan_joint_move",
           "planner", "play_out", "rollout_detective", "rollout_mrx"]


def planner(rollouts: int, candidates: int, seed: int = 0) -> Planner:
    """A :data:`~sy_tools.solvers.belief.Planner` for :func:`~sy_tools.solvers.belief.advise_detectives`:
    :func:`plan_joint_move` among the ranking's ``candidates`` best joint moves, ``rollouts``
    each, its stream seeded by ``seed``."""

    def choose(afters: Sequence[Position], S: StationMask, weights: Mapping[Station, float]) -> int | None:
        found = plan_joint_move(afters[:candidates], S, weights, rollouts, seed)
        return found.index if found is not None else None

    return choose
