"""A recorded game replayed through the rules engine: :meth:`Game.replay` gives the positions a
record passes through, move by move, as the record wrote the moves.

The engine does not read files (the layers flow engine -> formats), so a record is typed here by
the fields replaying it reads (:class:`GameRecord`, a structural type that
:class:`sy_tools.formats.record.Record` satisfies): the board and rules, the detectives (name,
start, tickets), Mr. X's tickets and start (when known), and the rounds (Mr. X's entries: ticket,
station when known, the voluntary reveal's ticket taken; the detectives' moves: name, ticket,
station, capture mark).

Replaying applies every move as written, legal or not (:meth:`Position.push` does not judge), in
the turn order the engine keeps; it judges nothing itself: each :class:`Step` carries what a
judge needs (the position before and after, whether a detective moved in turn, the detectives a
move skipped), and the referee (:mod:`sy_tools.analysis.referee`) reports on it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from .board import Board
from .budget import check_time
from .hops import MRX
from .moves import Illegal, Move
from .position import Position
from .rules import Rules
from .stations import Station
from .tickets import Ticket

# ---- what a record must offer -------------------------------------------------------------------


class MrXEntry(Protocol):
    """One of Mr. X's travel-log entries: the ticket, the station when known, and for a
    voluntary reveal the ``(detective, ticket)`` he took."""

    @property
    def ticket(self) -> Ticket: ...
    @property
    def to(self) -> Station | None: ...
    @property
    def took(self) -> tuple[str, Ticket] | None: ...


class DetectiveEntry(Protocol):
    """A detective's move; ``capture`` marks the one that caught Mr. X."""

    @property
    def name(self) -> str: ...
    @property
    def ticket(self) -> Ticket: ...
    @property
    def to(self) -> Station: ...
    @property
    def capture(self) -> bool: ...


class RoundEntry(Protocol):
    """A round: Mr. X's entries (none when he passed, two for a double move), then the
    detectives' moves in the record's order."""

    @property
    def mrx(self) -> Sequence[MrXEntry]: ...
    @property
    def detectives(self) -> Sequence[DetectiveEntry]: ...


class DetectiveSetup(Protocol):
    """A detective's name, start station and tickets."""

    @property
    def name(self) -> str: ...
    @property
    def start(self) -> Station: ...
    @property
    def tickets(self) -> Mapping[str, int]: ...


class GameRecord(Protocol):
    """The fields of a game record that replaying it reads."""

    @property
    def board(self) -> Board: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def detectives(self) -> Sequence[DetectiveSetup]: ...
    @property
    def mrx_tickets(self) -> Mapping[str, int]: ...
    @property
    def mrx_start(self) -> Station | None: ...
    @property
    def rounds(self) -> Sequence[RoundEntry]: ...


# ---- the steps ----------------------------------------------------------------------------------


class StepKind(str, enum.Enum):
    """What a :class:`Step` is."""

    #: Mr. X's turn of a round: his entry, or two (a double move), or none (a pass)
    MRX = "mrx"
    #: a detective's move, as the record wrote it
    DETECTIVE = "detective"
    #: a detective the record leaves out at the end of a round (not its last): it passes
    ABSENT = "absent"
    #: a round, or a detective's move, the record holds after the game ended (the last step:
    #: nothing of it is applied)
    AFTER_END = "after-end"

    def __str__(self) -> str:
        return self.value


class Step(NamedTuple):
    """One step of a replay: ``before`` and ``after`` are the positions around it.

    ``round`` is the record's round (from 1); ``written`` the record's own entry: the round for
    ``MRX``, the detective's move for ``DETECTIVE``, None for ``ABSENT``, and for ``AFTER_END``
    the round or detective's move that came after the end (``piece``: "" or the detective);
    ``move`` the engine's move it made (Mr. X's pass has no tickets; None for ``ABSENT`` and
    ``AFTER_END``); ``piece`` who moved or passed.  For a detective's move: ``in_turn`` says
    whether it moved in the engine's turn order (else it was applied where it stood and the
    turn stayed: it moved again, out of turn, or after it was stuck), ``repeated`` whether it had
    moved before in this round, and ``skipped`` the detectives before it in turn order that the
    record left out (they passed, as the move was applied; evaluated on ``before``).  (A named
    tuple: a replay makes one per move, and the referee replays batches of records.)"""

    kind: StepKind
    round: int
    written: Any
    move: Move | None
    piece: str
    before: Position
    after: Position
    in_turn: bool = True
    repeated: bool = False
    skipped: tuple[str, ...] = ()


#: the kinds as plain names (a lookup on the enum class costs more, once per move)
_MRX, _DETECTIVE, _ABSENT, _AFTER_END = StepKind.MRX, StepKind.DETECTIVE, StepKind.ABSENT, StepKind.AFTER_END


class Game:
    """A recorded game as the engine plays it (:meth:`start`, :meth:`replay`, :meth:`final`)."""

    @staticmethod
    def start(record: GameRecord) -> Position:
        """The position before Mr. X's first move: the record's detectives, their tickets, Mr.
        X's tickets and (in a full record) his start."""
        return Position.start(record.board, record.rules, [(d.name, d.start) for d in record.detectives],
                              mrx_at=record.mrx_start,
                              detective_tickets={d.name: d.tickets for d in record.detectives},
                              mrx_tickets=record.mrx_tickets)

    @staticmethod
    def replay(record: GameRecord, start: Position | None = None) -> Iterator[Step]:
        """The record's moves applied one by one from ``start`` (default :meth:`start`), as
        :class:`Step` s in order.

        Per round: Mr. X's step (his entries as one move, a voluntary reveal included; a pass
        when he has none), then each detective's move in the record's order (a detective that
        the engine's turn order has not reached yet moves in turn, the ones before it passing;
        one that moved already, or is out, moves where it stands without taking the turn), then,
        unless the round is the record's last, an ``ABSENT`` step per detective still to move.
        The first move the record holds after the game ended (a round, or a detective's move in
        the round that ended it) gives one ``AFTER_END`` step and the replay stops there."""
        pos = Game.start(record) if start is None else start
        rounds = record.rounds
        step = tuple.__new__  # a Step without the named tuple's Python-level constructor (one per move)
        for r_i, rnd in enumerate(rounds, 1):
            if r_i & 255 == 0:
                check_time()  # (a command's --time-limit covers the replay of a long record)
            if pos.ended is not None:
                yield step(Step, (_AFTER_END, r_i, rnd, None, "", pos, pos, True, False, ()))
                return
            move = mrx_move(rnd.mrx)
            after = pos.pass_turn() if move.is_pass else pos.push(move)
            yield step(Step, (_MRX, r_i, rnd, move, MRX, pos, after, True, False, ()))
            pos = after
            names = pos.names
            moved: set[str] = set()
            for dm in rnd.detectives:
                if pos.ended is not None:  # a move after the end: nothing of it is applied
                    yield step(Step, (_AFTER_END, r_i, dm, None, dm.name, pos, pos, True, False, ()))
                    return
                name = dm.name
                i = names.index(name)
                repeated = name in moved
                in_turn = pos.turn >= 1 and i >= pos.turn - 1 and not repeated and name not in pos.out
                skipped = names[pos.turn - 1:i] if in_turn else ()
                move = Move.detective(name, dm.ticket, dm.to)
                after = pos.push(move, capture=True if dm.capture else None, advance=in_turn)
                yield step(Step, (_DETECTIVE, r_i, dm, move, name, pos, after, in_turn, repeated, skipped))
                moved.add(name)
                pos = after
            if r_i == len(rounds):
                return  # the rest have not moved yet: the position says who is to move
            while pos.ended is None and pos.turn >= 1:
                after = pos.pass_turn()
                yield step(Step, (_ABSENT, r_i, None, None, pos.names[pos.turn - 1], pos, after, True, False, ()))
                pos = after

    @staticmethod
    def final(record: GameRecord) -> Position:
        """The position the record's moves lead to (applied as written, judged by nobody: ask
        the referee, :func:`sy_tools.analysis.referee.check`, whether they were legal)."""
        pos = Game.start(record)
        for step in Game.replay(record, pos):
            pos = step.after
        return pos


def mrx_move(entries: Sequence[MrXEntry]) -> Move:
    """Mr. X's entries of one round as the engine's move: their tickets and stations (None where
    hidden), with the voluntary reveal of the first entry that took a ticket; no entry is a
    pass."""
    move = Move(MRX, tuple(m.ticket for m in entries), tuple(m.to for m in entries))
    for j, m in enumerate(entries):
        if m.took is not None:
            return move.revealing(j, *m.took)
    return move


def extra_reveals(pos: Position, entries: Sequence[MrXEntry]) -> list[Illegal]:
    """The voluntary reveals of Mr. X's entries beyond the first (as ``(code, message, hop)``):
    he shows himself voluntarily at most once a move, and a double move is one move, so the
    engine's :class:`Move` carries one reveal (:func:`mrx_move` keeps the first)."""
    shown = [j for j, m in enumerate(entries) if m.took is not None]
    return [Illegal("voluntary-reveal", f"move {pos.move + j + 1}: Mr. X shows himself voluntarily at most once a "
                    f"move, and a double move is one move (he showed himself after move {pos.move + shown[0] + 1} "
                    "already)", j) for j in shown[1:]]
