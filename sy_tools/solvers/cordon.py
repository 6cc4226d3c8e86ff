
"""The smallest detective cordon around Mr. X, and the detective moves that reach it (CP-SAT).

Definitions (docs/cli.md, "cordon"):

* ``P``: Mr. X's possible stations when the detectives are to move (expanded by his next move
  first when the record ends on the detectives' moves).
* ``exits(p)``: stations Mr. X can move to from ``p`` with the tickets he holds.
* ``p`` is *sealed* by an occupied set ``C`` when ``p`` is in ``C`` (capture) or every exit of
  ``p`` is in ``C`` (trapped).
* cordon size: the minimum ``|C|`` sealing every station of the target.
* plan (``moves`` = k turns): a legal move sequence per detective such that the final stations
  seal the target: ``P`` expanded by k - 1 moves of Mr. X with any ticket he holds.  Objective:
  seal the most probability (all of it when possible), then fewest detectives on cordon duty,
  then fewest bus/underground tickets.

Rule variants (docs/rules.md), all decided by the :mod:`~sy_tools.engine.position` engine's tables:

* ``cutoff_escape``: an exit whose line passes over a detective's final station is closed, so a
  detective standing on a ``via`` station seals as well as one on the exit itself.
* ``mrx_onto_detective: caught`` / ``trapped_loses``: ``p`` is sealed when Mr. X there has no
  move that keeps him free: no legal move at all (a win when ``trapped_loses``), or, under
  ``caught``, only moves onto detectives.
* ``voluntary_reveal``: the plan is open-loop, so it must survive whatever tickets he takes:
  each detective keeps enough of every kind it plans to use, and any kind a detective still
  holds when he may first take one counts as his for the seal.

ortools is imported only inside the solving functions.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.args import int_arg
from ..engine.board import Board
from ..engine.budget import OutOfTime, check_time_limit, deadline_within, time_budget
from ..engine.hops import MRX
from ..engine.position import Position
from ..engine.rules import PRESETS, Rules
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_KINDS, Ticket
from ..errors import AnalysisError, InputError
from ..formats.record import Record
from .cordon_model import _check_deadline, _OutOfTime, solve_cordon
from .cordon_result import CordonResult, CordonStatus, DetectiveState  # noqa: F401  (CordonStatus: named here too)
from .puzzles import check_move_number, cordon_puzzle_inputs
from .seal import expand


@dataclass(frozen=True)
class CordonInputs:
    """What the solver needs from a record: Mr. X's possible stations (route counts) when the
    detectives are to move, his tickets, and the detectives as they stand."""

    board: Board
    weights: dict[Station, int]
    mrx_tickets: dict[str, int]
    detectives: tuple[DetectiveState, ...]
    context: dict[str, Any]
    tickets_to_mrx: bool = True
    position: Position | None = None  # the engine's position the record reaches
    rules: Rules | None = None
    mrx_moves: int | None = None  # his travel-log entries so far (before the move expanded below)
    mrx_first: bool = False  # he moves before the detectives' first planned turn (weights expanded by it)


def cordon_inputs(record: Record, after: Ticket | None = None, deadline: float | None = None) -> CordonInputs:
    """Replay ``record`` (it must be legal and in progress) and set up the cordon problem.
    Past ``deadline`` (``time.monotonic()``) between its steps it raises :class:`CordonTimeout`."""
    from ..analysis.possible import possible
    from ..analysis.record_position import record_position

    pos = record_position(record, in_progress=True)
    _check_deadline(deadline)
    poss = possible(record, weights="paths")
    _check_deadline(deadline)
    weights = dict(poss.route_counts or {s: 1 for s in poss.stations})
    if pos.to_move == MRX:
        tickets = (after,) if after is not None else pos.mrx_tickets.held()
        if after is not None and pos.mrx_tickets[after] <= 0:
            raise InputError(f"--after {after.value}: Mr. X has no {after.value} ticket left", record.file)
        weights = expand(record.board, weights, tickets, 1, blocked=pos.occupied, rules=record.rules,
                         doubles=after is None and pos.can_double())
        if not weights:
            raise AnalysisError("Mr. X has no move with that ticket from any possible station", record.file)
        first_movers = set(pos.names)
    else:
        if after is not None:
            raise InputError("--after applies only when Mr. X moves next; the detectives are to move now",
                             record.file)
        first_movers = set(pos.names[pos.turn - 1:])
    dets = tuple(DetectiveState(n, s, t.to_dict(DETECTIVE_KINDS), n in first_movers)
                 for n, s, t in zip(pos.names, pos.stations, pos.tickets) if n not in pos.out)
    ctx = {"round": pos.round, "mrx_moves": pos.move, "to_move": "mrx" if pos.to_move == MRX else pos.to_move,
           "file": record.file, "when": pos.when}
    return CordonInputs(record.board, weights, pos.mrx_tickets.to_dict(), dets, ctx, record.rules.tickets_to_mrx,
                        pos, record.rules, pos.move, pos.to_move == MRX)

#: The exception :func:`cordon_inputs` raises past its deadline.
CordonTimeout = _OutOfTime


def cordon(record: Record, moves: int = 1, after: Ticket | None = None, time_limit: float = 10.0,
           workers: int | None = None) -> CordonResult:
    """The cordon for the position a game record reaches (detectives' point of view).
    ``time_limit`` bounds the whole call: replaying the record, then the solves; when the replay
    alone uses it up, the result has status ``unknown`` and no plan.

    Raises :class:`AnalysisError` when the record is illegal or the game is over."""
    moves = int_arg(moves, "moves", 1)
    time_limit = check_time_limit(time_limit)
    t0 = time.perf_counter()
    deadline = deadline_within(time_limit)  # (an enclosing budget, the command's, may end sooner)
    try:
        with time_budget(time_limit):
            inp = cordon_inputs(record, after, deadline)
    except (_OutOfTime, OutOfTime):
        return CordonResult.out_of_time(moves, time.perf_counter() - t0, {"file": record.file})
    left = deadline - time.monotonic()
    if left <= 0.005:
        return CordonResult.out_of_time(moves, time.perf_counter() - t0, inp.context, len(inp.detectives))
    res = solve_cordon(inp.board, inp.weights, inp.mrx_tickets, inp.detectives, moves, left, workers, inp.context,
                inp.tickets_to_mrx, inp.rules, inp.mrx_moves, inp.mrx_first, deadline)
    return dataclasses.replace(res, wall_time=time.perf_counter() - t0)


def cordon_puzzle(board: Board, around: Sequence[Station], detectives: Sequence[tuple[str, Station]] = (),
           detective_tickets: Mapping[str, int] | None = None,
           mrx_tickets: Mapping[str, int] | None = None, moves: int = 1, time_limit: float = 10.0,
           workers: int | None = None, tickets_to_mrx: bool | None = None, rules: Rules | None = None,
           move_number: int | None = None) -> CordonResult:
    """Puzzle mode: Mr. X is somewhere in ``around`` (equally likely); how many detectives trap
    him, and can these ``detectives`` (name, station) do it in ``moves`` turns?  ``rules``
    (default classic) give the variants and the default tickets; ``move_number``: travel-log
    entries he has made (places the fixed reveals for the voluntary reveal; None: unknown)."""
    weights, mt, dets = cordon_puzzle_inputs(board, around, detectives, detective_tickets, mrx_tickets, rules)
    if move_number is not None:
        move_number = int_arg(move_number, "move_number")
        check_move_number(move_number, rules or PRESETS["classic"])
    return solve_cordon(board, weights, mt, dets, moves, time_limit, workers, {"around": sorted(weights)},
                        tickets_to_mrx, rules, move_number)
