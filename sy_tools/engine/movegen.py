"""Move generation: the legal moves of a :class:`~sy_tools.engine.position.Position`, listed,
counted, indexed and tested without building the list (python-chess's ``LegalMoveGenerator``).

``pos.legal_moves`` is a :class:`LegalMoveView`; ``pos.legal_moves.singles`` is the same view
restricted to Mr. X's single moves.  Every operation answers from the position alone:

* ``for m in pos.legal_moves`` yields the moves one by one, in the engine's fixed order (below);
* ``len(pos.legal_moves)`` counts them with popcounts (no move built, where the rules allow:
  :func:`~sy_tools.engine.rules.counting_models`; otherwise by listing them);
* ``pos.legal_moves[k]`` is the ``k``-th move in that order, built alone (the same fallback);
* ``move in pos.legal_moves`` asks :meth:`Position.is_legal` (no list);
* ``bool(pos.legal_moves)`` says whether there is any legal move (single moves decide it);
* ``pos.legal_moves()`` returns the list itself (what the method ``legal_moves()`` returned).

``list(view)`` and ``tuple(view)`` ask ``len()`` first (Python's length hint), so to get the
moves as a list, call the view.

The order: a detective's moves by ticket (taxi, bus, underground), then station ascending.  Mr.
X's single moves by ticket (taxi, bus, underground, black), then station ascending; then his
double moves by first leg (in the singles' order, those onto a detective left out), second
ticket, station; then, under ``rules.voluntary_reveal``, each of those moves again with a show
after each hop that is not a fixed reveal, per detective in turn order and ticket it holds.  A
trapped Mr. X under rules that let him pass has the single pass move.  Mr. X's moves need his
station (``mrx_at``): without it every question about them raises ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

from .hops import MRX, _bits, _nth_bit, mrx_targets
from .moves import Move
from .rules import counting_models
from .stations import Station, StationMask
from .tickets import DETECTIVE_TICKETS, Ticket

if TYPE_CHECKING:
    from .position import Position

_UNKNOWN = "Mr. X's station is not known in this position: give it (mrx_at) to list his moves"


class LegalMoveView(Sequence[Move]):
    """The legal moves of ``position``'s piece to move, as a lazy sequence (see the module's
    docstring)."""

    __slots__ = ("position",)

    def __init__(self, position: Position) -> None:
        self.position = position

    @property
    def singles(self) -> SingleMoveView:
        """Mr. X's legal single moves, as a view of their own (what ``mrx_single_moves()``
        listed)."""
        return SingleMoveView(self.position)

    def __call__(self) -> list[Move]:
        """The moves as a new list (what ``Position.legal_moves()`` returned before it was a view)."""
        return list_moves(self.position)

    def __iter__(self) -> Iterator[Move]:
        return iter_moves(self.position)

    def __len__(self) -> int:
        return count_moves(self.position)

    def __bool__(self) -> bool:
        return has_move(self.position)

    def __contains__(self, move: object) -> bool:
        return is_listed(self.position, move)

    @overload
    def __getitem__(self, k: int) -> Move: ...

    @overload
    def __getitem__(self, k: slice) -> list[Move]: ...

    def __getitem__(self, k: int | slice) -> Move | list[Move]:
        """The ``k``-th move in the engine's order (negative counts from the end, as for a
        list; a slice builds the list)."""
        if isinstance(k, slice):
            return self()[k]
        return move_at(self.position, k + len(self) if k < 0 else k)

    def __repr__(self) -> str:
        return f"<legal moves of {self.position!r}>"


class SingleMoveView(LegalMoveView):
    """Mr. X's legal single moves (``pos.legal_moves.singles``): the same view without his
    double moves and the pass, in the same order (with voluntary reveals, the single-hop ones
    among them); empty when a detective is to move."""

    __slots__ = ()

    @property
    def singles(self) -> SingleMoveView:
        return self

    def __call__(self) -> list[Move]:
        """The single moves as a new list (what ``Position.mrx_single_moves()`` returned)."""
        return single_moves(self.position)

    def __iter__(self) -> Iterator[Move]:
        return iter_singles(self.position)

    def __len__(self) -> int:
        return count_singles(self.position)

    def __bool__(self) -> bool:
        return has_move(self.position, singles_only=True)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.piece == MRX and len(move.tickets) == 1 and is_listed(self.position, move)

    @overload
    def __getitem__(self, k: int) -> Move: ...

    @overload
    def __getitem__(self, k: slice) -> list[Move]: ...

    def __getitem__(self, k: int | slice) -> Move | list[Move]:
        if isinstance(k, slice):
            return self()[k]
        return single_at(self.position, k + len(self) if k < 0 else k)

    def __repr__(self) -> str:
        return f"<legal single moves of {self.position!r}>"


# ---- listing ----------------------------------------------------------------------------------

def list_moves(pos: Position) -> list[Move]:
    """Every legal move of the piece to move, in the engine's order."""
    if pos.ended is not None:
        return []
    if pos.turn == 0:
        out: list[Move] = []
        for chunk in _mrx_chunks(pos):
            out += chunk
        return out
    return _detective_list(pos, pos.turn - 1)


def iter_moves(pos: Position) -> Iterator[Move]:
    """:func:`list_moves` one by one (Mr. X's are built a kind at a time: single moves, double
    moves, moves with a voluntary reveal)."""
    if pos.ended is not None:
        return iter(())
    if pos.turn == 0:
        return (m for chunk in _mrx_chunks(pos) for m in chunk)
    return iter(_detective_list(pos, pos.turn - 1))  # a detective has a handful


def _detective_list(pos: Position, i: int) -> list[Move]:
    """Detective ``i``'s legal moves (the order of :func:`~sy_tools.engine.hops.detective_hops`,
    without the other detectives' stations)."""
    name, here, tickets, board = pos.names[i], pos.stations[i], pos.tickets[i], pos.board
    blocked = pos.occupied & ~(1 << here)
    out: list[Move] = []
    for t in DETECTIVE_TICKETS:
        if getattr(tickets, t.value) > 0:
            out += [Move(name, (t,), (d,)) for d in board.destinations(here, t) if not blocked >> d & 1]
    return out


def _mrx_chunks(pos: Position) -> Iterator[list[Move]]:
    """Mr. X's legal moves in the engine's order, a list at a time: his single moves, then his
    double moves, then the moves with a voluntary reveal (the one place that order is written;
    the listing joins the lists, the iteration builds the double moves only when it gets there)."""
    at = pos.mrx_at
    if at is None:
        raise ValueError(_UNKNOWN)
    rules = pos.rules
    if pos.move >= rules.log_length:
        return
    board, occ = pos.board, pos.occupied
    caught = rules.mrx_onto_detective == "caught"  # (Position._mrx_dests, inlined: one call fewer per hop)
    singles: list[Move] = []
    firsts: list[tuple[Ticket, Station]] = []
    for t in pos.mrx_tickets.held():
        dests = mrx_targets(board, 1 << at, t, occ, rules, onto_detectives=caught)
        for d in board.destinations(at, t):
            if dests >> d & 1:
                if not occ >> d & 1:  # onto a detective ("caught" rules) ends the game there
                    firsts.append((t, d))
                singles.append(Move(MRX, (t,), (d,)))
    if not singles:
        if not rules.trapped_loses:
            yield [Move(MRX, (), ())]
        return
    yield singles
    listed = [singles]  # the moves a voluntary reveal may go with
    if pos.can_double():
        doubles: list[Move] = []
        for t1, d1 in firsts:
            for t2 in pos.mrx_tickets.spend(t1).held():
                dests = mrx_targets(board, 1 << d1, t2, occ, rules, onto_detectives=caught)
                for d2 in board.destinations(d1, t2):
                    if dests >> d2 & 1:
                        doubles.append(Move(MRX, (t1, t2), (d1, d2)))
        yield doubles
        listed.append(doubles)
    if rules.voluntary_reveal:
        for chunk in listed:
            yield [m.revealing(h, n, t) for m in chunk for h in range(len(m.tickets))
                   if not rules.is_reveal(pos.move + h + 1)
                   for n, tk in zip(pos.names, pos.tickets) for t in tk.held(DETECTIVE_TICKETS)]


def single_moves(pos: Position) -> list[Move]:
    """Mr. X's legal single moves in the engine's order (empty when a detective is to move)."""
    if pos.ended is not None or pos.turn != 0:
        return []
    if not counting_models(pos.rules):
        return [m for m in iter_moves(pos) if len(m.tickets) == 1]
    return [Move(MRX, (t,), (d,)) for t, m in first_masks(pos) or [] for d in _bits(m)]


def iter_singles(pos: Position) -> Iterator[Move]:
    """:func:`single_moves` one by one."""
    if pos.ended is not None or pos.turn != 0:
        return iter(())
    if not counting_models(pos.rules):
        return (m for m in iter_moves(pos) if len(m.tickets) == 1)
    return (Move(MRX, (t,), (d,)) for t, m in first_masks(pos) or [] for d in _bits(m))


# ---- counting and indexing --------------------------------------------------------------------

def first_masks(pos: Position) -> list[tuple[Ticket, StationMask]] | None:
    """Per ticket Mr. X holds, where a single move with it may go (None: his log is full).  Only
    for rules :func:`counting_models` models."""
    at = pos.mrx_at
    if at is None:
        raise ValueError(_UNKNOWN)
    if pos.move >= pos.rules.log_length:
        return None
    occ = pos.occupied
    return [(t, mrx_targets(pos.board, 1 << at, t, occ)) for t in pos.mrx_tickets.held()]


def count_moves(pos: Position) -> int:
    """``len(list_moves(pos))``, counted with popcounts instead of building every move (under
    rule fields the counting does not model, by listing them)."""
    if pos.ended is not None:
        return 0
    if pos.turn != 0:
        return len(pos._detective_hops(pos.turn - 1))
    if not counting_models(pos.rules):
        return len(list_moves(pos))
    masks = first_masks(pos)
    if masks is None:
        return 0
    singles = sum(m.bit_count() for _, m in masks)
    if not singles:
        return 0 if pos.rules.trapped_loses else 1
    n = singles
    if pos.can_double():
        nb, occ = pos.board.neighbours, pos.occupied
        for t1, m in masks:
            seconds = pos.mrx_tickets.spend(t1).held()
            while m:
                low = m & -m
                d1 = low.bit_length() - 1
                m ^= low
                for t2 in seconds:
                    n += (nb[t2][d1] & ~occ).bit_count()
    return n


def count_singles(pos: Position) -> int:
    """``len(single_moves(pos))`` with popcounts (the same fallback)."""
    if pos.ended is not None or pos.turn != 0:
        return 0
    if not counting_models(pos.rules):
        return len(single_moves(pos))
    return sum(m.bit_count() for _, m in first_masks(pos) or [])


def move_at(pos: Position, k: int) -> Move:
    """``list_moves(pos)[k]`` without building the others (``k >= 0``; the same order: Mr. X's
    singles by ticket then station, then his double moves by first leg, second ticket,
    station)."""
    if pos.turn != 0 or pos.ended is not None:
        if pos.ended is None:
            hops = pos._detective_hops(pos.turn - 1)
            if 0 <= k < len(hops):
                t, d = hops[k]
                return Move(pos.names[pos.turn - 1], (t,), (d,))
        raise IndexError(f"legal move {k} out of range")
    if k < 0:
        raise IndexError(f"legal move {k} out of range")
    if not counting_models(pos.rules):
        return list_moves(pos)[k]
    masks = first_masks(pos)
    singles = sum(m.bit_count() for _, m in masks or [])
    if not singles and not pos.rules.trapped_loses and masks is not None and k == 0:
        return Move(MRX, (), ())
    if k < singles:
        return _nth_single(masks or [], k)
    k -= singles
    if singles and pos.can_double():
        nb, occ = pos.board.neighbours, pos.occupied
        for t1, m in masks or []:
            seconds = pos.mrx_tickets.spend(t1).held()
            while m:
                low = m & -m
                d1 = low.bit_length() - 1
                m ^= low
                for t2 in seconds:
                    m2 = nb[t2][d1] & ~occ
                    c = m2.bit_count()
                    if k < c:
                        return Move(MRX, (t1, t2), (d1, _nth_bit(m2, k)))
                    k -= c
    raise IndexError("legal move index out of range")


def single_at(pos: Position, k: int) -> Move:
    """``single_moves(pos)[k]`` (``k >= 0``) without building the others."""
    if pos.ended is not None or pos.turn != 0 or k < 0:
        raise IndexError(f"legal single move {k} out of range")
    if not counting_models(pos.rules):
        return single_moves(pos)[k]
    masks = first_masks(pos) or []
    if k < sum(m.bit_count() for _, m in masks):
        return _nth_single(masks, k)
    raise IndexError(f"legal single move {k} out of range")


def _nth_single(masks: list[tuple[Ticket, StationMask]], k: int) -> Move:
    for t, m in masks:
        c = m.bit_count()
        if k < c:
            return Move(MRX, (t,), (_nth_bit(m, k),))
        k -= c
    raise IndexError("legal single move index out of range")


# ---- questions without a list -----------------------------------------------------------------

def has_move(pos: Position, singles_only: bool = False) -> bool:
    """Whether the piece to move has a legal move (a single move, with ``singles_only``).  Mr.
    X's double moves and reveals all start with a single move, so his single moves decide it
    (or the pass, where the rules let a trapped Mr. X pass)."""
    if pos.ended is not None:
        return False
    if pos.turn != 0:
        return not singles_only and bool(pos._detective_hops(pos.turn - 1))
    at = pos.mrx_at
    if at is None:
        raise ValueError(_UNKNOWN)
    if pos.move >= pos.rules.log_length:
        return False
    return bool(pos.mrx_exits(at)) or not (singles_only or pos.rules.trapped_loses)


def is_listed(pos: Position, move: object) -> bool:
    """Whether ``move`` is one of the moves :func:`list_moves` lists: :meth:`Position.is_legal`,
    after the checks it leaves to the caller (a well-formed move of the piece to move, every
    station known; as for the list, Mr. X's moves need his station)."""
    if not isinstance(move, Move) or pos.ended is not None:
        return False
    if pos.turn == 0 and pos.mrx_at is None:
        raise ValueError(_UNKNOWN)
    tickets, stations = move.tickets, move.stations
    if not (isinstance(tickets, tuple) and isinstance(stations, tuple) and len(tickets) == len(stations)):
        return False
    if not all(isinstance(s, int) and s >= 0 for s in stations):
        return False  # a hidden hop (None) is never listed
    took = move.took
    if took is not None and not (isinstance(took, tuple) and len(took) == 2):
        return False
    if move.shown is not None and not isinstance(move.shown, int):
        return False
    if not all(isinstance(t, Ticket) for t in tickets) or (took is not None and not isinstance(took[1], Ticket)):
        try:  # a ticket spelled as its string equals the enum, in the list too
            move = Move(move.piece, tuple(Ticket(t) for t in tickets), stations, move.shown,
                        None if took is None else (took[0], Ticket(took[1])))
        except (ValueError, TypeError):
            return False
    if pos.turn == 0:
        if move.piece != MRX or pos.move >= pos.rules.log_length:
            return False
        if move.is_pass and (move.shown is not None or took is not None):
            return False
    elif move.piece != pos.names[pos.turn - 1] or move.shown is not None or took is not None:
        return False
    return pos.is_legal(move)

