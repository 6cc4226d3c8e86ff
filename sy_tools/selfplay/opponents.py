"""Mr. X opponents of kinds written from the literature, to measure the detectives against more
than one style of play (issue 45).  Each is a self-play policy ``policy(observation, rng) ->
Move`` that sees his whole :class:`~sy_tools.engine.observations.MrXObservation` (Mr. X knows
everything) and draws from ``rng`` only to break ties, so a game is reproducible from its seed.

* ``evasive`` (:func:`evasive_mrx`): the evader of the pursuit-evasion literature: he keeps out of
  every detective's reach next turn when he can, and off stations with no way on out of their
  present reach (a dead end traps him), then maximises a blend of his distance to the
  nearest detective, the size of the possible set the detectives will hold (its logarithm:
  doubling the set is worth one hop) and his ways on (half a hop each, up to three); a black ticket or a double move costs something, so he
  spends one where it buys more hiding or distance than it costs (a black ticket is cheap right
  after he was shown, a double move cheap when every single move is within a detective's reach).
* ``twoply`` (:func:`twoply_mrx`): a two-ply search: for each of his moves he plays out the
  detectives' greedy replies (each in turn, the ``greedy`` detectives' rule: the move nearest on
  average to the possible set his move leaves them; their reply depends only on what he shows, so
  it is computed once per ticket shown) and judges the position after them: caught first, then
  how many of his next moves keep out of every detective's reach, then distance and hiding as
  the evasive Mr. X does.
* ``mcts-1000``: the ``mcts`` yardstick with :data:`~sy_tools.selfplay.budgets.MCTS_YARDSTICK_ITERATIONS`
  iterations a move (the budget of the literature's experiments), registered in
  :mod:`sy_tools.selfplay.policies`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..analysis.distances import distances
from ..engine.board import Board
from ..engine.hops import detective_hops, mrx_targets
from ..engine.moves import Move
from ..engine.observations import MrXObservation, mrx_move_seen
from ..engine.position import Position, draw
from ..engine.stations import Station, StationMask, stations_of
from ..engine.tickets import MRX_MOVE_TICKETS, Ticket, Tickets

#: hops to the nearest detective count up to this many (further is as safe)
NEAR_CAP = 4
#: what a black ticket costs (in hops of distance) right after he was shown, and otherwise
BLACK_COST_SHOWN = 0.3
BLACK_COST = 1.5
#: what a double move costs when a single move keeps him out of reach, and when none does
DOUBLE_COST = 3.0
DOUBLE_COST_NEEDED = 0.3
#: how much a doubling of his possible set is worth, in hops
HIDE_WEIGHT = 1.0
#: what each way out of the detectives' present reach from where he lands is worth (up to 3), in hops
EXIT_WEIGHT = 0.5


def _reach(board: Board, stations: Sequence[Station], tickets: Sequence[Tickets], out: Any,
           names: Sequence[str]) -> StationMask:
    """Where some detective still in the game can move next (other detectives aside)."""
    m = 0
    for n, s, t in zip(names, stations, tickets):
        if n in out:
            continue
        for _tk, d in detective_hops(board, s, t):
            m |= 1 << d
    return m


class _Judge:
    """What his moves are worth from one position: the possible set each move leaves (per
    tickets shown, and per station where a leg shows him), distances, costs."""

    def __init__(self, obs: MrXObservation) -> None:
        self.pos = pos = obs.position
        self.possible = obs.possible
        self.board = pos.board
        self.dist = distances(pos.board)
        self.reach = _reach(pos.board, pos.stations, pos.tickets, pos.out, pos.names)
        self.shown_now = obs.possible.bit_count() <= 1
        self._sets: dict[tuple[Any, ...], StationMask] = {}

    def set_after(self, m: Move) -> StationMask:
        """The detectives' possible set after ``m`` (a single station where its last leg shows him)."""
        legs = list(mrx_move_seen(self.pos, self.possible, m))
        return legs[-1][2] if legs else self.possible

    def size_after(self, m: Move) -> int:
        key = tuple(m.tickets) if not any(self.pos.rules.is_reveal(self.pos.move + k + 1) for k in range(len(m.tickets))) \
            else (tuple(m.tickets), m.stations)
        got = self._sets.get(key)
        if got is None:
            got = self._sets[key] = self.set_after(m)
        return got.bit_count()

    def near(self, to: Station, stations: Sequence[Station]) -> int:
        row = self.dist[to]
        return min(min((row[s] for s in stations), default=NEAR_CAP), NEAR_CAP)

    def exits(self, to: Station, m: Move) -> int:
        """His moves from ``to`` after ``m`` (the tickets it leaves him) onto stations no
        detective can reach now: his room to run next turn."""
        left = self.pos.mrx_tickets
        for t in m.tickets:
            left = left.spend(t)
        out = 0
        for t in left.held(MRX_MOVE_TICKETS):
            out |= mrx_targets(self.board, 1 << to, t, self.pos.occupied, self.pos.rules)
        return (out & ~self.reach).bit_count()

    def cost(self, m: Move, needed: bool) -> float:
        black = sum(1 for t in m.tickets if t is Ticket.BLACK)
        c = black * (BLACK_COST_SHOWN if self.shown_now else BLACK_COST)
        if m.is_double:
            c += DOUBLE_COST_NEEDED if needed else DOUBLE_COST
        return c

    def hide(self, m: Move) -> float:
        return HIDE_WEIGHT * math.log2(max(self.size_after(m), 1))


def _candidates(obs: MrXObservation) -> list[Move]:
    """His moves worth weighing: every legal move but a voluntary reveal."""
    return [m for m in obs.legal_moves if m.shown is None] or list(obs.legal_moves)


def _pick(scored: Sequence[tuple[tuple[float, ...], Move]], rng: Any) -> Move:
    best = max(k for k, _ in scored)
    top = [m for k, m in scored if k == best]
    return top[draw(rng, len(top))] if rng is not None and len(top) > 1 else top[0]


def evasive_mrx(obs: MrXObservation, rng: Any) -> Move:
    """The evasive Mr. X (module docstring)."""
    legal = obs.legal_moves
    if len(legal) <= 1 or legal[0].is_pass:
        return legal[0]
    judge = _Judge(obs)
    moves = _candidates(obs)
    singles = [m for m in moves if not m.is_double]
    needed = not any(not (judge.reach >> (m.to or 0) & 1) for m in singles)
    dets = obs.position.stations
    scored = []
    for m in moves:
        to = m.to
        assert to is not None
        if m.is_double and not needed and not obs.position.rules.is_reveal(obs.position.move + 1):
            continue  # (a double move only where he needs one, or to hide again right after a shown leg)
        safe = 0.0 if judge.reach >> to & 1 else 1.0
        exits = judge.exits(to, m)
        value = judge.near(to, dets) + judge.hide(m) + EXIT_WEIGHT * min(exits, 3) - judge.cost(m, needed)
        scored.append(((safe, 1.0 if exits else 0.0, round(value, 3)), m))
    return _pick(scored, rng)


def greedy_replies(pos: Position, possible: StationMask) -> tuple[Station, ...]:
    """Where the ``greedy`` detectives stand after their replies to his move from ``pos`` (Mr.
    X's move made, ``possible`` their set after it): each in turn takes the move whose
    destination is nearest on average to ``possible``, ties to the cheaper ticket, then the first
    listed (deterministic: the two-ply Mr. X's model of them)."""
    board = pos.board
    dist = distances(board)
    poss = stations_of(possible)
    stations = list(pos.stations)
    occ = 0
    for s in stations:
        occ |= 1 << s
    cheap = {Ticket.TAXI: 0, Ticket.BUS: 1, Ticket.UNDERGROUND: 2}
    for i, (name, s, t) in enumerate(zip(pos.names, pos.stations, pos.tickets)):
        if name in pos.out:
            continue
        best: tuple[int, int] | None = None
        to = s
        for tk, d in detective_hops(board, s, t):
            if occ >> d & 1:
                continue
            row = dist[d]
            key = (sum(row[x] for x in poss), cheap.get(tk, 3))
            if best is None or key < best:
                best, to = key, d
        occ = (occ & ~(1 << s)) | (1 << to)
        stations[i] = to
    return tuple(stations)


def twoply_mrx(obs: MrXObservation, rng: Any) -> Move:
    """The two-ply Mr. X (module docstring)."""
    legal = obs.legal_moves
    if len(legal) <= 1 or legal[0].is_pass:
        return legal[0]
    pos = obs.position
    judge = _Judge(obs)
    moves = _candidates(obs)
    singles = [m for m in moves if not m.is_double]
    needed = not any(not (judge.reach >> (m.to or 0) & 1) for m in singles)
    board = pos.board
    held = pos.mrx_tickets
    replies: dict[tuple[Any, ...], tuple[Station, ...]] = {}
    scored = []
    for m in moves:
        to = m.to
        assert to is not None
        if m.is_double and not needed and not pos.rules.is_reveal(pos.move + 1):
            continue
        after_set = judge.set_after(m)
        key = (tuple(m.tickets), after_set)
        dets = replies.get(key)
        if dets is None:
            dets = replies[key] = greedy_replies(pos.push(m)._with(mrx_at=None), after_set)
        if to in dets:
            scored.append(((0.0, 0.0, 0.0), m))
            continue
        # his next moves from ``to`` that keep out of every detective's reach after their reply
        left = held
        for t in m.tickets:
            left = left.spend(t)
        occ = 0
        for s in dets:
            occ |= 1 << s
        reach = _reach(board, dets, pos.tickets, pos.out, pos.names)
        exits = 0
        for t in left.held(MRX_MOVE_TICKETS):
            exits |= mrx_targets(board, 1 << to, t, occ, pos.rules)
        free = (exits & ~reach).bit_count()
        value = judge.near(to, dets) + judge.hide(m) - judge.cost(m, needed)
        scored.append(((1.0, float(min(free, 3)), round(value, 3)), m))
    return _pick(scored, rng)


#: the opponents by their ``simulate`` names (``mcts-1000`` is registered beside them)
POLICIES = {"evasive": evasive_mrx, "twoply": twoply_mrx}


def mcts_yardstick(obs: MrXObservation, rng: Any) -> Move:
    """The ``mcts`` yardstick Mr. X at :data:`~sy_tools.selfplay.budgets.MCTS_YARDSTICK_ITERATIONS`
    iterations a move (``memo["mcts_iterations"]`` when set wins)."""
    from .budgets import MCTS_YARDSTICK_ITERATIONS
    from .mcts import mcts_mrx

    obs.memo.setdefault("mcts_iterations", MCTS_YARDSTICK_ITERATIONS)
    return mcts_mrx(obs, rng)


POLICIES["mcts-1000"] = mcts_yardstick

__all__ = ["POLICIES", "evasive_mrx", "greedy_replies", "mcts_yardstick", "twoply_mrx"]
