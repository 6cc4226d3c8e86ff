"""The environment's fixed action encoding: every engine :class:`~sy_tools.engine.moves.Move` of
a game as one integer of a ``Discrete`` space, and back, and the mask of the legal ones.

The numbering depends only on the board, the rules and the number of detectives, never on the
position, so an action means the same move wherever it is legal.  ``S`` is the number of
stations (``board.stations`` in ascending order: a station's *index* is its place there).

Detectives (``Discrete(3 * S)``): ``ticket * S + index(to)``, tickets numbered taxi 0, bus 1,
underground 2.

Mr. X, in blocks (``H`` is the number of *hops* of the board: ``(from, ticket, to)`` for every
station ``from`` (ascending), ticket taxi, bus, underground, black in turn, and ``to`` in
``board.destinations(from, ticket)`` (ascending); black rides every transport, ferry included):

* single moves, ``[0, 4 * S)``: ``ticket * S + index(to)``, tickets numbered taxi 0, bus 1,
  underground 2, black 3;
* double moves, ``[4 * S, 4 * S + 4 * H)``: ``4 * S + ticket1 * H + hop``, where ``hop`` is the
  second leg's ``(to1, ticket2, to2)`` (its ``from`` is the first leg's destination, so the pair
  names the whole move; numbering all ``(ticket, to)`` pairs twice would need ``(4 * S) ** 2``);
* the pass, ``4 * S + 4 * H`` (legal only for a trapped Mr. X under rules that let him pass);
* under ``rules.voluntary_reveal`` only, the same moves with a show: first each single move with
  a show, ``P + single * 3 * D + detective * 3 + ticket`` (``P`` = the pass + 1, ``D`` detectives
  in turn order, ``ticket`` the detective ticket he takes, numbered as a detective's); then each
  double move with a show after hop 0 or 1, ``P + 4 * S * 3 * D + (double * 2 + hop) * 3 * D +
  detective * 3 + ticket`` (``double`` counted from 0 within the double-move block).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket

Hop = tuple[Station, Ticket, Station]


class ActionCodec:
    """The action numbering of one board, rules and detective order (see the module's
    docstring): :meth:`encode` a move, :meth:`decode` an action, :meth:`mask` of a position."""

    def __init__(self, board: Board, rules: Rules, names: Sequence[str]) -> None:
        self.board = board
        self.rules = rules
        self.names = tuple(names)
        self.stations: tuple[Station, ...] = tuple(sorted(board.stations))
        self.index = {s: i for i, s in enumerate(self.stations)}
        #: every hop of the board, in the order double moves number them
        self.hops: tuple[Hop, ...] = tuple((a, t, b) for a in self.stations for t in MRX_MOVE_TICKETS
                                           for b in board.destinations(a, t))
        self.hop_index = {h: k for k, h in enumerate(self.hops)}
        n, h = len(self.stations), len(self.hops)
        self.detective_size = len(DETECTIVE_TICKETS) * n
        self.singles = len(MRX_MOVE_TICKETS) * n
        self.doubles = len(MRX_MOVE_TICKETS) * h
        self.pass_action = self.singles + self.doubles
        self.plain = self.pass_action + 1
        #: reveal choices per hop: (detective, ticket taken)
        self.takes = len(self.names) * len(DETECTIVE_TICKETS) if rules.voluntary_reveal else 0
        self.mrx_size = self.plain + self.singles * self.takes + self.doubles * 2 * self.takes

    # ---- moves to actions -----------------------------------------------------------------------

    def encode(self, move: Move) -> int:
        """The action of ``move`` (ValueError for a move the numbering has no place for)."""
        try:
            if move.piece != MRX:
                if move.piece not in self.names or len(move.tickets) != 1 or move.shown is not None:
                    raise KeyError(move.piece)
                to = move.stations[0]
                return DETECTIVE_TICKETS.index(move.tickets[0]) * len(self.stations) + self.index[to]  # type: ignore[index]
            base = self._plain(move)
            if move.took is None and move.shown is None:
                return base
            if not self.takes or move.took is None or move.shown is None or move.shown >= len(move.tickets):
                raise KeyError("shown")
            name, ticket = move.took
            take = self.names.index(name) * len(DETECTIVE_TICKETS) + DETECTIVE_TICKETS.index(ticket)
            return int(self.revealed(base, move.shown, take))
        except (KeyError, ValueError, IndexError, TypeError):
            raise ValueError(f"no action encodes the move {move}") from None

    def revealed(self, base: Any, hop: Any, take: Any) -> Any:
        """The action of plain move ``base`` (a single or double move's action) with a show after
        ``hop`` taking ``take`` (``detective * 3 + ticket``); integers or numpy arrays alike (no
        check that the hop exists: a single move has hop 0 only)."""
        return np.where(np.asarray(base) < self.singles, self.plain + np.asarray(base) * self.takes + take,
                        self.plain + self.singles * self.takes
                        + ((np.asarray(base) - self.singles) * 2 + hop) * self.takes + take)

    def _plain(self, move: Move) -> int:
        """The action of Mr. X's ``move`` without its show."""
        n = len(move.tickets)
        if n == 0:
            return self.pass_action
        t1, to1 = move.tickets[0], move.stations[0]
        k1 = MRX_MOVE_TICKETS.index(t1)
        if n == 1:
            return k1 * len(self.stations) + self.index[to1]  # type: ignore[index]
        if n == 2 and to1 is not None:
            hop = self.hop_index[(to1, Ticket(move.tickets[1]), move.stations[1])]  # type: ignore[index]
            return self.singles + k1 * len(self.hops) + hop
        raise KeyError("shape")

    # ---- actions to moves -----------------------------------------------------------------------

    def decode(self, piece: str, action: int) -> Move:
        """The move ``action`` stands for when ``piece`` (``MRX`` or a detective's name) moves
        (ValueError when it is out of range)."""
        a = int(action)
        n = len(self.stations)
        if piece != MRX:
            if piece not in self.names or not 0 <= a < self.detective_size:
                raise ValueError(f"action {a} is not an action of {piece!r}")
            return Move(piece, (DETECTIVE_TICKETS[a // n],), (self.stations[a % n],))
        if not 0 <= a < self.mrx_size:
            raise ValueError(f"action {a} is not an action of Mr. X (0 to {self.mrx_size - 1})")
        if a < self.plain:
            return self._decode_plain(a)
        a -= self.plain
        if a < self.singles * self.takes:
            base, take, hop = a // self.takes, a % self.takes, 0
        else:
            a -= self.singles * self.takes
            pair, take = divmod(a, self.takes)
            double, hop = divmod(pair, 2)
            base = self.singles + double
        name = self.names[take // len(DETECTIVE_TICKETS)]
        return self._decode_plain(base).revealing(hop, name, DETECTIVE_TICKETS[take % len(DETECTIVE_TICKETS)])

    def _decode_plain(self, a: int) -> Move:
        n = len(self.stations)
        if a < self.singles:
            return Move(MRX, (MRX_MOVE_TICKETS[a // n],), (self.stations[a % n],))
        if a < self.pass_action:
            k1, hop = divmod(a - self.singles, len(self.hops))
            to1, t2, to2 = self.hops[hop]
            return Move(MRX, (MRX_MOVE_TICKETS[k1], t2), (to1, to2))
        return Move(MRX, (), ())

    # ---- masks ----------------------------------------------------------------------------------

    def size(self, piece: str) -> int:
        """The number of actions of ``piece``."""
        return self.mrx_size if piece == MRX else self.detective_size

    def mask(self, position: Position, piece: str) -> np.ndarray:
        """1 for each action of ``piece`` that is a legal move in ``position`` (all 0 when it is
        not ``piece``'s turn or the game is over): ``position.legal_moves``, encoded."""
        out = np.zeros(self.size(piece), dtype=np.int8)
        if position.to_move != piece:
            return out
        for m in position.legal_moves():
            out[self.encode(m)] = 1
        return out


def action_int(value: object, size: int | None = None, who: str = "an action") -> int:
    """``value`` as an action number: a Python or numpy integer (a 0-d integer array too), from
    0 to ``size - 1`` when ``size`` is given.  Anything else (a float, even 160.0; a bool; a
    string; None; an array of shape (1,) or larger) is refused with an :class:`InputError` that
    says what was given: it is never rounded, played or turned into a loss."""
    from ..errors import InputError

    v = value
    if isinstance(v, np.ndarray) and v.shape == () and np.issubdtype(v.dtype, np.integer):
        v = v[()]
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        shape = f" of shape {v.shape}" if isinstance(v, np.ndarray) else ""
        raise InputError(f"{who} must be an integer, got {type(value).__name__}{shape} {value!r}")
    a = int(v)
    if size is not None and not 0 <= a < size:
        raise InputError(f"{who} must be from 0 to {size - 1}, got {a}")
    return a
