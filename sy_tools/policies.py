"""Self-play policies: how a simulated Mr. X or detective team chooses its move.

A policy is a function ``policy(observation, rng) -> Move`` that returns one of
``observation.legal_moves``; ``rng`` is the game's own ``random.Random``.  What a side may know is
what it is passed (OpenSpiel's observations are the model):

* Mr. X sees everything: a :class:`MrXObservation` holds the :class:`~sy_tools.position.Position`
  (his station included) and the set of stations the detectives think possible.
* The detectives see a :class:`DetectiveObservation`: their stations and tickets, every player's
  ticket counts, the tickets Mr. X showed, his reveals and his possible set, never his station.
  Nothing in it refers to the position the simulator keeps.

Each observation carries ``memo``, a dict that lives for one game and one side, for policies
that plan ahead (``cordon``) or keep their own notes (a user's bot).

Built-in policies: ``random``, ``greedy`` (both sides) and ``cordon`` (detectives).  Any other
name is ``module:function`` or ``path/to/file.py:function``; :func:`load_policy` resolves it.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .board import Board, Station, StationMask, Ticket, stations_of
from .errors import InputError
from .files import _kind
from .position import MRX, Move, Position, Tickets, draw, mrx_targets
from .rules import Rules

# ---- observations ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MrXObservation:
    """What Mr. X knows when he is to move: everything.  ``legal_moves`` (double moves
    included) and ``single_moves`` are listed when first asked for."""

    position: Position
    #: the stations the detectives consider possible for him now (before this move)
    possible: StationMask
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def board(self) -> Board:
        return self.position.board

    @cached_property
    def legal_moves(self) -> tuple[Move, ...]:
        return tuple(self.position.legal_moves())

    @cached_property
    def single_moves(self) -> tuple[Move, ...]:
        return tuple(self.position.mrx_single_moves())


@dataclass(frozen=True, eq=False)
class DetectiveObservation:
    """What the detectives know when detective ``to_move`` is to move.  Mr. X's station is not
    here: only what the detectives saw (tickets, reveals) and what follows from it."""

    board: Board
    rules: Rules
    to_move: str
    names: tuple[str, ...]
    stations: tuple[Station, ...]
    tickets: tuple[Tickets, ...]
    out: frozenset[str]
    mrx_tickets: Tickets
    #: the tickets Mr. X showed, one per travel-log entry
    shown: tuple[Ticket, ...]
    #: Mr. X's travel-log entry number -> the station he showed there
    reveals: Mapping[int, Station]
    #: the stations Mr. X may be at, from his start candidates, tickets and reveals
    possible: StationMask
    round: int
    move: int
    legal_moves: tuple[Move, ...]
    memo: dict[str, Any] = field(default_factory=dict)
    #: his probability per possible station (e.g. from :func:`sy_tools.tracker.possible`);
    #: None: every possible station counts the same
    weights: Mapping[Station, float] | None = None

    @property
    def station(self) -> Station:
        """Where the detective to move stands."""
        return self.stations[self.names.index(self.to_move)]

    def possible_stations(self) -> list[Station]:
        return stations_of(self.possible)

    @classmethod
    def of(cls, position: Position, possible: StationMask, shown: tuple[Ticket, ...] = (),
           reveals: Mapping[int, Station] | None = None, weights: Mapping[Station, float] | None = None,
           memo: dict[str, Any] | None = None) -> DetectiveObservation:
        """The detectives' observation of ``position`` (a detective to move); Mr. X's station,
        if the position knows it, is left out."""
        if position.turn == 0 or position.ended is not None:
            raise ValueError("a detective observation needs a position where a detective is to move")
        return cls(position.board, position.rules, position.names[position.turn - 1], position.names,
                   position.stations, position.tickets, position.out, position.mrx_tickets, tuple(shown),
                   dict(reveals or {}), possible, position.round, position.move, tuple(position.legal_moves()),
                   memo if memo is not None else {}, weights)

    def position(self) -> Position:
        """A :class:`Position` of what the detectives see (``mrx_at`` None)."""
        return observed_position(self)


def observed_position(obs: Any) -> Position:
    """The :class:`Position` a detectives' observation describes, Mr. X's station unknown.  The
    double moves he used are inferred from his double tickets (the rules' start count less those
    he holds)."""
    names = tuple(obs.names)
    turn = names.index(obs.to_move) + 1
    used = max(0, int(obs.rules.mrx_tickets.get("double", 0)) - obs.mrx_tickets.double)
    return Position(obs.board, obs.rules, names, tuple(obs.stations), tuple(obs.tickets), frozenset(obs.out),
                    obs.mrx_tickets, None, obs.move, obs.round, used, turn)


Policy = Callable[[Any, Any], Move]


# ---- distances ---------------------------------------------------------------------------------


_DIST: dict[int, tuple[Board, list[list[int]]]] = {}


def distances(board: Board) -> list[list[int]]:
    """``d[a][b]``: the fewest detective hops (taxi, bus, underground, tickets ignored) from
    ``a`` to ``b``; computed once per board (breadth-first from every station)."""
    cached = _DIST.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    size = max(board.stations, default=0) + 1
    far = 10 * size
    nbr = [0] * size
    for t in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND):
        for s, m in board.neighbours[t].items():
            nbr[s] |= m
    table = [[far] * size for _ in range(size)]
    for s in board.stations:
        row = table[s]
        seen = frontier = 1 << s
        d = 0
        while frontier:
            for x in stations_of(frontier):
                row[x] = d
            nxt = 0
            for x in stations_of(frontier):
                nxt |= nbr[x]
            frontier = nxt & ~seen
            seen |= frontier
            d += 1
    _DIST[id(board)] = (board, table)
    return table


_DIST_ARRAY: dict[int, tuple[Board, Any]] = {}


def _distance_array(board: Board) -> Any:
    """:func:`distances` as a numpy array (for summing many distances at once)."""
    cached = _DIST_ARRAY.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    import numpy as np

    arr = np.array(distances(board), dtype=np.int64)
    _DIST_ARRAY[id(board)] = (board, arr)
    return arr


# ---- random ------------------------------------------------------------------------------------


def random_mrx(obs: MrXObservation, rng: Any) -> Move:
    """Uniform over Mr. X's legal moves (double moves included, each counted once)."""
    return obs.legal_moves[draw(rng, len(obs.legal_moves))]


def random_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """Uniform over the detective's legal moves."""
    return obs.legal_moves[draw(rng, len(obs.legal_moves))]


# ---- greedy ------------------------------------------------------------------------------------

_TICKET_COST = {Ticket.TAXI: 0, Ticket.BUS: 1, Ticket.UNDERGROUND: 2}


def greedy_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """Step towards the probability mass of Mr. X's possible set: the move whose destination has
    the smallest mean distance to the possible stations (each equally likely); ties go to the
    cheaper ticket (taxi, bus, underground), then at random."""
    poss = stations_of(obs.possible)
    if not poss:
        return random_detective(obs, rng)
    table = _distance_array(obs.board)
    moves = obs.legal_moves
    totals = table[[m.stations[0] for m in moves]][:, poss].sum(axis=1).tolist()
    best: list[Move] = []
    best_key: tuple[int, int] | None = None
    for m, total in zip(moves, totals):
        key = (total, _TICKET_COST.get(m.tickets[0], 3))
        if best_key is None or key < best_key:
            best, best_key = [m], key
        elif key == best_key:
            best.append(m)
    return best[draw(rng, len(best))]


def greedy_mrx(obs: MrXObservation, rng: Any) -> Move:
    """Keep the nearest detective as far away as possible (distances over 3 hops count as 3),
    then hide: prefer the move after which the detectives' possible set is largest, a black
    ticket only where it at least doubles it; double moves only when a detective stands next to
    him.  Ties at random."""
    pos = obs.position
    singles = obs.single_moves
    if not singles or (len(singles) == 1 and (not pos.can_double() or len(obs.legal_moves) == 1)):
        return obs.legal_moves[0]  # his only move (or the pass)
    dist = distances(pos.board)
    dets = pos.stations
    assert pos.mrx_at is not None
    here = dist[pos.mrx_at]
    threatened = min((here[s] for s in dets), default=99) <= 1
    moves = obs.legal_moves if threatened else singles
    occ = pos.occupied
    board, rules = pos.board, pos.rules
    hidden: dict[tuple[Ticket, ...], int] = {}
    best: list[Move] = []
    best_key: tuple[int, float, int] | None = None
    for m in moves:
        if m.is_double and not threatened:
            continue
        to = m.to
        assert to is not None
        row = dist[to]
        near = min(min((row[s] for s in dets), default=99), 3)
        size = hidden.get(m.tickets)
        if size is None:
            p = obs.possible
            for t in m.tickets:
                p = mrx_targets(board, p, t, occ, rules)
            size = hidden[m.tickets] = p.bit_count()
        if rules.is_reveal(pos.move + len(m.tickets)):
            size = 1
        hide = size / 2 if Ticket.BLACK in m.tickets else float(size)
        key = (near, hide, -len(m.tickets))
        if best_key is None or key > best_key:
            best, best_key = [m], key
        elif key == best_key:
            best.append(m)
    return best[draw(rng, len(best))]


# ---- cordon ------------------------------------------------------------------------------------

#: the cordon detectives plan only when Mr. X's possible set is at most this large
CORDON_MAX_POSSIBLE = 40


def cordon_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """Follow the 1-turn cordon plan (:func:`sy_tools.cordon.solve`: seal the most of Mr. X's
    possible set, each station equally likely, with the fewest detectives on duty), made once per
    round when the first detective moves: the detectives on cordon duty take their planned moves;
    the others, a detective whose planned move is no longer legal, and every detective while the
    possible set has more than :data:`CORDON_MAX_POSSIBLE` stations move greedily.  The solver
    runs on one worker with ``memo["time_limit"]`` seconds (default 2) per plan."""
    memo = obs.memo
    if memo.get("round") != obs.round:
        memo["round"] = obs.round
        memo["plan"] = _cordon_plan(obs, float(memo.get("time_limit", 2.0)))
    planned = memo["plan"].get(obs.to_move)
    if planned is not None and planned in obs.legal_moves:
        return planned
    return greedy_detective(obs, rng)


def _cordon_plan(obs: DetectiveObservation, time_limit: float) -> dict[str, Move]:
    from .board import DETECTIVE_TICKET_KINDS
    from .cordon import DetectiveState, solve

    if not obs.possible or obs.possible.bit_count() > CORDON_MAX_POSSIBLE:
        return {}
    start = obs.names.index(obs.to_move)
    dets = [DetectiveState(n, s, t.to_dict(DETECTIVE_TICKET_KINDS), True)
            for n, s, t in zip(obs.names[start:], obs.stations[start:], obs.tickets[start:]) if n not in obs.out]
    result = solve(obs.board, {p: 1 for p in stations_of(obs.possible)}, obs.mrx_tickets.to_dict(), dets,
                   moves=1, time_limit=time_limit, workers=1, rules=obs.rules, mrx_moves=obs.move)
    plan: dict[str, Move] = {}
    for p in result.plan:
        if p.on_duty and p.tickets and p.tickets[0] is not None:
            plan[p.name] = Move(p.name, (Ticket(p.tickets[0]),), (p.path[1],))
    return plan


# ---- advise --------------------------------------------------------------------------------------

#: Joint moves the advise detectives weigh per round in self-play: a fixed cap (not a time budget)
#: keeps games reproducible whatever the machine's speed or load.
ADVISE_CANDIDATES = 27


def advise_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """``sy-tools advise`` for the detectives (:func:`sy_tools.advise.detective_policy`): the
    joint move for the round, planned once, each detective playing its part; it weighs
    :data:`ADVISE_CANDIDATES` joint moves looking two turns ahead."""
    from .advise import detective_policy

    obs.memo.setdefault("advise_candidates", ADVISE_CANDIDATES)
    obs.memo.setdefault("advise_time_limit", 60.0)
    return detective_policy(obs, rng)


def advise_mrx(obs: MrXObservation, rng: Any) -> Move:
    """``sy-tools advise`` for Mr. X (:func:`sy_tools.advise.mrx_policy`): his top-ranked move."""
    from .advise import mrx_policy

    return mrx_policy(obs, rng)


# ---- names -------------------------------------------------------------------------------------

MRX_POLICIES: dict[str, Policy] = {"random": random_mrx, "greedy": greedy_mrx, "advise": advise_mrx}
DETECTIVE_POLICIES: dict[str, Policy] = {"random": random_detective, "greedy": greedy_detective,
                                         "cordon": cordon_detective, "advise": advise_detective}


def describe(obj: Any, error: bool = False, limit: int = 300) -> str:
    """``repr(obj)`` (for an exception ``error=True``: ``Type: message``) that never raises,
    however broken the object's ``__repr__``/``__str__``; cut to ``limit`` characters."""
    try:
        kind = type(obj).__name__
        if not isinstance(kind, str):
            kind = "object"
    except Exception:
        kind = "object"
    try:
        text = str(obj) if error else repr(obj)
        if not isinstance(text, str):
            raise TypeError
    except KeyboardInterrupt:
        raise
    except BaseException:
        text = f"<{kind} object whose {'str' if error else 'repr'}() failed>"
    text = text.replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{kind}: {text}" if error else text


def run_policy(policy: Policy, obs: Any, rng: Any, quiet: bool = False) -> Any:
    """``policy(obs, rng)``; with ``quiet`` what it prints goes to stderr (stdout carries the
    results)."""
    if not quiet:
        return policy(obs, rng)
    with contextlib.redirect_stdout(sys.stderr):
        return policy(obs, rng)


def policy_source(spec: str) -> str | None:
    """The file a ``file.py:function`` or ``module:function`` policy was loaded from (None for a
    built-in name or when not known)."""
    if ":" not in spec:
        return None
    target = spec.rpartition(":")[0]
    if target.endswith(".py") or os.sep in target:
        return target if os.path.isfile(target) else None
    module = sys.modules.get(target)
    path = getattr(module, "__file__", None)
    return path if isinstance(path, str) else None


def load_policy(spec: str, side: str) -> Policy:
    """The policy named ``spec`` for ``side`` (``"mrx"`` or ``"detectives"``): a built-in name,
    ``module:function`` or ``path/to/file.py:function``.  :class:`InputError` when it does not
    exist, does not import or is not callable."""
    builtins = MRX_POLICIES if side == "mrx" else DETECTIVE_POLICIES
    option = "--mrx-policy" if side == "mrx" else "--detective-policy"
    if spec in builtins:
        return builtins[spec]
    if ":" not in spec:
        raise InputError(f"unknown policy {spec!r}: expected one of {', '.join(builtins)}, module:function or "
                         "file.py:function", where=option)
    target, _, name = spec.rpartition(":")
    try:
        if target.endswith(".py") or os.sep in target:
            if not os.path.exists(target):
                raise InputError(f"{spec}: no such file {target!r}", where=option)
            if not os.path.isfile(target):
                kind = _kind(os.stat(target).st_mode)
                raise InputError(f"{spec}: {target!r} is {kind}, not a regular file; give a .py file", where=option)
            mod_name = "sy_tools_policy_" + os.path.splitext(os.path.basename(target))[0]
            sp = importlib.util.spec_from_file_location(mod_name, target)
            if sp is None or sp.loader is None:
                raise InputError(f"{spec}: cannot load {target!r} as Python", where=option)
            module = importlib.util.module_from_spec(sp)
            with contextlib.redirect_stdout(sys.stderr):  # its prints must not mix with our output
                sp.loader.exec_module(module)
        else:
            with contextlib.redirect_stdout(sys.stderr):
                module = importlib.import_module(target)
    except (InputError, KeyboardInterrupt):
        raise
    except BaseException as e:  # a user's module may raise anything while importing, sys.exit too
        raise InputError(f"{spec}: cannot import {target!r}: {describe(e, error=True)}", where=option) from None
    fn = getattr(module, name, None)
    if fn is None:
        raise InputError(f"{spec}: {target!r} has no {name!r}", where=option)
    if not callable(fn):
        raise InputError(f"{spec}: {name!r} is not callable", where=option)
    return fn  # type: ignore[no-any-return]


__all__ = ["MRX", "DetectiveObservation", "MrXObservation", "Policy", "distances", "load_policy",
           "random_mrx", "random_detective", "greedy_mrx", "greedy_detective", "cordon_detective"]
