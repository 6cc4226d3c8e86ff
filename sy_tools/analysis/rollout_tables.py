"""A board's tables for the hot loops of rollouts (the ``mcts`` yardstick, the detectives'
planning search): neighbour masks per ticket as lists indexed by station, every transport's
neighbours, and the detectives' hop distances; built once per board."""

from __future__ import annotations

from ..engine.board import Board
from ..engine.tickets import MRX_MOVE_TICKETS
from .distances import distances


class RolloutTables:
    """``nb[i][s]``: the neighbour mask of station ``s`` by ``MRX_MOVE_TICKETS[i]``; ``any[s]``:
    by taxi, bus or underground; ``dist``: the detectives' hop distances."""

    def __init__(self, board: Board) -> None:
        size = max(board.stations, default=0) + 1
        self.board = board
        self.nb = [[board.neighbours[t].get(s, 0) for s in range(size)] for t in MRX_MOVE_TICKETS]
        self.any = [self.nb[0][s] | self.nb[1][s] | self.nb[2][s] for s in range(size)]
        self.dist = distances(board)


_TABLES: dict[int, RolloutTables] = {}


def rollout_tables(board: Board) -> RolloutTables:
    """``board``'s tables (kept for as long as the board object lives)."""
    t = _TABLES.get(id(board))
    if t is None or t.board is not board:
        t = _TABLES[id(board)] = RolloutTables(board)
    return t
