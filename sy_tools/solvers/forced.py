"""Forced capture in N (the puzzle solver): can the detectives force a win within N turns,
whatever Mr. X does, and how?  :func:`solve` on a position and Mr. X's possible set,
:func:`solve_record` on a record, :func:`solve_puzzle` on puzzle flags; the search itself (and
the semantics it proves) is :mod:`sy_tools.solvers.forced_search`, its results
:mod:`sy_tools.solvers.forced_tree`."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from typing import Any

from ..engine.args import int_arg
from ..engine.board import Board
from ..engine.budget import budget_deadline, deadline_within, time_budget
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..errors import AnalysisError
from ..formats.record import Record
from .forced_search import TABLE_SIZE, Search, SearchLimit
from .forced_tree import SolveResult, StrategyNode
from .puzzles import puzzle_position


def solve(position: Position, possible: StationMask | Iterable[Station], turns: int = 2,
          time_limit: float | None = None, max_nodes: int | None = None, table_size: int = TABLE_SIZE,
          context: dict[str, Any] | None = None) -> SolveResult:
    """The shortest forced win within ``turns`` detective turns from ``position`` (Mr. X's
    station unknown; it is the detectives' turn, or his) with his possible set ``possible``.

    ``time_limit`` (seconds: positive and finite, else a :class:`ValueError`) covers the whole
    search; None is no limit of its own (an enclosing :func:`~sy_tools.engine.budget.time_budget`
    still rules; the command line always gives one).  When it (or ``max_nodes``) stops the search
    the result is ``status="unknown"``.  Ctrl-C (KeyboardInterrupt) propagates."""
    t0 = time.perf_counter()
    turns = int_arg(turns, "turns (--moves)", 1)
    deadline = deadline_within(time_limit) if time_limit is not None else budget_deadline()
    if max_nodes is not None:
        max_nodes = int_arg(max_nodes, "max_nodes", 1)
    if position.ended is not None:
        raise AnalysisError(f"the game is over: {position.ended.describe()}")
    S = possible if isinstance(possible, int) else mask_of(possible)
    S &= ~position.occupied
    if not S:
        raise AnalysisError("Mr. X has no possible station")
    search = Search(position, deadline, max_nodes, table_size)
    idx = {n: i for i, n in enumerate(position.names)}
    out = 0
    for n in position.out:
        out |= 1 << idx[n]
    args = (position.stations, position.tickets, out, S, position.mrx_tickets, position.move, position.doubles)
    found: StrategyNode | None = None
    won_in: int | None = None
    limit: str | None = None
    ruled_out = 0
    try:
        if position.turn == 0 and position.rules.trapped_loses and not search.mrx_exits(
                S, position.mrx_tickets, position.occupied):
            raise AnalysisError("the game is over: Mr. X is trapped (no legal move from any possible station)")
        for k in range(1, turns + 1):
            search.best_ref = None
            if position.turn == 0:
                replies = search.mrx(*args, k, ())
                node = StrategyNode((), None, replies, detectives_turn=False) if replies is not None else None
            else:
                node = search.turn(position.turn - 1, *args, k, root=True)
            if node is not None:
                found, won_in = node, k
                break
            ruled_out = k
    except SearchLimit as stop:
        limit = stop.limit
    refutation = None
    if found is None and limit is None and search.best_ref is not None:
        refutation = search.best_ref[1]
    forced = True if found is not None else (None if limit else False)
    return SolveResult(
        forced=forced,
        turns=won_in,
        max_turns=turns,
        status="unknown" if forced is None else "proved",
        strategy=found,
        refutation=refutation,
        nodes=search.nodes,
        wall_time=time.perf_counter() - t0,
        possible=S,
        start=position.detective_stations(),
        limit=limit,
        proved_none_within=ruled_out,
        context=context or {},
    )


def solve_inputs(record: Record) -> tuple[Position, StationMask, dict[str, Any]]:
    """The detectives' view of where ``record`` stands (it must be legal and in progress): the
    position with Mr. X's station unknown, his possible set and a context for the output."""
    from ..analysis.possible import possible
    from ..analysis.record_position import record_position

    pos = record_position(record, in_progress=True)
    S = mask_of(possible(record, weights="uniform").stations)
    pos = dataclasses.replace(pos, mrx_at=None)
    to_move = "mrx" if pos.turn == 0 else pos.names[pos.turn - 1]
    ctx = {"round": pos.round, "mrx_moves": pos.move, "to_move": to_move, "file": record.file, "when": pos.when}
    return pos, S, ctx


def solve_record(record: Record, turns: int = 2, time_limit: float | None = None,
                 max_nodes: int | None = None) -> SolveResult:
    """:func:`solve` on the position a game record reaches (detectives' point of view);
    ``time_limit`` (None: no limit) covers replaying the record too.  Raises
    :class:`AnalysisError` when the record is illegal or the game is over, and its
    :class:`~sy_tools.engine.budget.OutOfTime` when replaying the record takes all of ``time_limit``."""
    with time_budget(time_limit) if time_limit is not None else nullcontext():  # the replay and the search
        pos, S, ctx = solve_inputs(record)
        return solve(pos, S, turns, time_limit, max_nodes, context=ctx)


def solve_puzzle(board: Board, around: Sequence[Station], detectives: Sequence[tuple[str, Station]],
           detective_tickets: Mapping[str, int] | None = None, mrx_tickets: Mapping[str, int] | None = None,
           move_number: int = 0, rules: Rules | None = None, turns: int = 2, time_limit: float | None = None,
           max_nodes: int | None = None) -> SolveResult:
    """:func:`solve` on a puzzle (see :func:`~sy_tools.solvers.puzzles.puzzle_position`)."""
    pos, S = puzzle_position(board, around, detectives, detective_tickets, mrx_tickets, move_number, rules)
    return solve(pos, S, turns, time_limit, max_nodes, context={"around": stations_of(S), "move_number": move_number})
