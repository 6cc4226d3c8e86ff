
"""The rules engine: one place that says what is legal.

A :class:`Position` is an immutable point in a game (python-chess's ``Board`` is the model): the
board and rules, each detective's station and tickets in turn order, who is out, Mr. X's tickets
and (when known) his station, the move and round numbers, and whose turn it is.  It offers
:attr:`Position.legal_moves` (a lazy view: listed, counted, indexed and tested by
:mod:`sy_tools.engine.movegen`), :meth:`Position.is_legal`, :meth:`Position.problems` (why a
move is illegal), :meth:`Position.push` and :attr:`Position.outcome`.  Replaying a record's
moves through positions is :mod:`sy_tools.engine.game`'s.

Every command asks this module what is legal: the referee replays records through
:class:`Position`, the possible-set filter steps with :func:`mrx_targets`, cordon plans and reach
enumerate :func:`detective_hops`, and the simulator, advisor and solver pick from
:attr:`Position.legal_moves`.

The rules, as implemented (docs/rules.md says the same):

* A round: Mr. X moves (one travel-log entry, or two with a double move), then every detective
  in turn order.  Every piece must move if it can.
* Mr. X moves with a ticket he holds along a connection it rides (black rides all four
  transports and is the only ticket for the ferry), never onto a detective.  A double move spends
  a double ticket and is two such moves against the same detective stations; it is allowed while
  ``rules.double_moves_per_round >= 1``, he holds a double ticket, fewer than
  ``rules.double_moves_per_game`` were used, and his log has room for both entries.
* A detective moves with its own taxi, bus or underground ticket, never onto another detective.
  A detective with no such move when its turn comes is stuck: it skips the turn, and is out for
  good when :meth:`Rules.stuck_is_out` says so (``rules.blocked_detective``: always under
  ``out``; under ``waits`` only when no ticket it holds rides a line from its station).
  :meth:`Position.stuck` says why a detective cannot move.  Used detective tickets pass to Mr. X
  when ``rules.tickets_to_mrx``; he may use them from his next move on.
* The game ends when a detective moves onto Mr. X (capture); when Mr. X is to move and has no
  legal move (trapped: the detectives win under ``rules.trapped_loses``, otherwise he passes);
  after the round in which his log filled (log full: Mr. X wins); or when no detective can move
  any more (Mr. X wins).  A pass says he had no legal move: it is illegal under
  ``rules.trapped_loses``, and :meth:`Position.trapped_stations` is where he may have passed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .board import Board
from .hops import MRX, detective_hops, mrx_targets
from .movegen import LegalMoveView, count_moves, move_at, single_moves
from .moves import Illegal, Move, Outcome, OutcomeKind, Stuck, plain_move, when_text
from .rules import Rules
from .stations import Station, StationMask, StationSet
from .tickets import (
    DETECTIVE_KINDS,
    DETECTIVE_TICKETS,
    Ticket,
    Tickets,
    Transport,
)


def double_allowed(rules: Rules, double_tickets: int, doubles_used: int, moves_made: int) -> bool:
    """The double-move rule, written here only: Mr. X may make a double move while the rules
    allow one in a round, he holds a double ticket, fewer than ``rules.double_moves_per_game``
    were used, and his travel log has room for both entries (``moves_made + 2 <= log_length``).
    :meth:`Position.can_double`, the playout and the solvers all ask it."""
    return (rules.double_moves_per_round >= 1 and double_tickets > 0
            and doubles_used < rules.double_moves_per_game and moves_made + 2 <= rules.log_length)

@dataclass(frozen=True, slots=True, eq=False)
class Position:
    """A point in a game.  Build the start with :meth:`Position.start`; move with :meth:`push`.

    ``turn`` is 0 when Mr. X is to move and ``i + 1`` when detective ``i`` is.  ``round`` counts
    Mr. X's turns begun; ``move`` his travel-log entries.  ``mrx_at`` is None when his station
    is not known (a detectives' record): then only ticket and turn rules can be checked, and the
    caller (the referee, the tracker) follows his possible set.
    """

    board: Board
    rules: Rules
    names: tuple[str, ...]
    stations: tuple[Station, ...]
    tickets: tuple[Tickets, ...]
    out: frozenset[str]
    mrx_tickets: Tickets
    mrx_at: Station | None
    move: int = 0
    round: int = 0
    doubles: int = 0
    turn: int = 0
    ended: Outcome | None = None

    # ---- construction -----------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        board: Board,
        rules: Rules | str,
        detectives: Iterable[tuple[str, Station]] | Mapping[str, Station],
        mrx_at: Station | None = None,
        detective_tickets: Mapping[str, Mapping[str, int] | Tickets] | None = None,
        mrx_tickets: Mapping[str, int] | Tickets | None = None,
    ) -> Position:
        """The position before Mr. X's first move (``rules``: a :class:`Rules` or a preset
        name).  Tickets default to the rules' (Mr. X's black tickets follow
        ``rules.black_per_detective``)."""
        if isinstance(rules, str):
            from .rules import preset

            rules = preset(rules)
        pairs = list(detectives.items()) if isinstance(detectives, Mapping) else list(detectives)
        names = tuple(n for n, _ in pairs)
        per = detective_tickets or {}
        tks = tuple(Tickets.of(per.get(n, rules.detective_tickets)) for n in names)
        mt = Tickets.of(mrx_tickets if mrx_tickets is not None else rules.mrx_start_tickets(len(names)))
        return cls(board, rules, names, tuple(s for _, s in pairs), tks, frozenset(), mt, mrx_at)

    def _with(self, **changes: Any) -> Position:
        """A copy with ``changes`` (cheaper than ``dataclasses.replace``)."""
        new = object.__new__(Position)
        for name in Position.__slots__:  # type: ignore[attr-defined]
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    # ---- queries ----------------------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        """``MRX``, a detective's name, or None when the game is over."""
        if self.ended is not None:
            return None
        return MRX if self.turn == 0 else self.names[self.turn - 1]

    @property
    def when(self) -> str:
        """This moment in the words every command and title uses (:func:`when_text`)."""
        return when_text(self.round, self.move)

    @property
    def occupied(self) -> StationMask:
        """The detectives' stations as a mask."""
        m = 0
        for s in self.stations:
            m |= 1 << s
        return m

    def detective(self, name: str) -> tuple[Station, Tickets]:
        """A detective's station and tickets."""
        i = self.names.index(name)
        return self.stations[i], self.tickets[i]

    def detective_stations(self) -> dict[str, Station]:
        """Detective name -> station."""
        return dict(zip(self.names, self.stations))

    def ticket_table(self) -> dict[str, dict[str, int]]:
        """Every player's tickets: each detective's taxi/bus/underground, Mr. X's all five kinds."""
        out = {n: t.to_dict(DETECTIVE_KINDS) for n, t in zip(self.names, self.tickets)}
        out[MRX] = self.mrx_tickets.to_dict()
        return out

    def can_double(self) -> bool:
        """Whether Mr. X may make a double move now (:func:`double_allowed`)."""
        return double_allowed(self.rules, self.mrx_tickets.double, self.doubles, self.move)

    def mrx_exits(self, station: Station) -> StationMask:
        """Stations Mr. X may move to from ``station`` now (single moves)."""
        occ = self.occupied
        out = 0
        for t in self.mrx_tickets.held():
            out |= self._mrx_dests(station, t, occ)
        return out

    def mrx_can_move_from(self, station: Station) -> bool:
        """Whether Mr. X standing at ``station`` has a legal move (a double move needs a legal
        first leg, so single moves decide it)."""
        return self.move < self.rules.log_length and bool(self.mrx_exits(station))

    def trapped_stations(self, mask: StationMask) -> StationMask:
        """The stations of ``mask`` where Mr. X, standing there now, would have no legal move:
        where he may be after a pass (the detectives' view narrows to them; the referee, the
        possible-set filter and the simulator all ask this)."""
        out = 0
        for s in StationSet(mask):
            if not self.mrx_can_move_from(s):
                out |= 1 << s
        return out

    def stuck(self, name: str) -> Stuck | None:
        """Why detective ``name`` cannot move now, the others where they stand (None when it
        has a legal move and is not out): no ticket it holds rides a line from its station, or
        every station it could reach is held by another detective (:attr:`Stuck.blockers`);
        and whether that puts it out for the rest of the game or it waits for a move to open up
        (``rules.blocked_detective``).  :meth:`Stuck.describe` is the sentence a player reads.
        ``ValueError`` when ``name`` is not a detective of this game."""
        if name not in self.names:
            raise ValueError(f"no detective {name!r} in this game (its detectives: {', '.join(self.names)})")
        i = self.names.index(name)
        if name not in self.out and self._detective_hops(i):
            return None
        here, held = self.stations[i], self.tickets[i]
        reach = {d for _, d in detective_hops(self.board, here, held)}
        lines = tuple(t.value for t in DETECTIVE_TICKETS if self.board.destinations(here, t))
        blockers = tuple((n, s) for n, s in zip(self.names, self.stations) if s in reach and n != name)
        return Stuck(name, here, held.to_dict(DETECTIVE_KINDS), lines, blockers,
                     name in self.out or self.rules.stuck_is_out(bool(reach)),
                     name in self.out and bool(self._detective_hops(i)), self.rules.blocked_detective)

    def stuck_reason(self, name: str) -> str | None:
        """:meth:`stuck`'s sentence for detective ``name`` (None when it can move): e.g. "Green
        cannot move from 108: every station it can reach is held by Blue (105) or Red (89); it
        waits, and moves again once a move opens up (blocked_detective: waits)"."""
        why = self.stuck(name)
        return None if why is None else why.describe()

    # ---- legal moves ------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveView:
        """The legal moves of the piece to move, as a lazy view (python-chess's
        ``board.legal_moves``): iterate it, ``len()`` it (counted, not listed), index it
        (``pos.legal_moves[k]``, the ``k``-th in the engine's fixed order), ask ``move in
        pos.legal_moves`` (:meth:`is_legal`, no list), test its truth, or call it for the list
        (``pos.legal_moves()``, as when this was a method).  ``pos.legal_moves.singles`` is Mr.
        X's single moves alone.  See :mod:`sy_tools.engine.movegen` for the order.

        For Mr. X his station must be known (``mrx_at``); a trapped Mr. X under rules that let
        him pass has the single pass move."""
        return LegalMoveView(self)

    def _detective_hops(self, i: int) -> list[tuple[Ticket, Station]]:
        blocked = self.occupied & ~(1 << self.stations[i])
        return [(t, d) for t, d in detective_hops(self.board, self.stations[i], self.tickets[i])
                if not blocked >> d & 1]

    def detective_moves(self, name: str) -> list[Move]:
        """The moves detective ``name`` could make from where it stands, the others where they
        are now (whether or not it is its turn)."""
        i = self.names.index(name)
        return [Move(name, (t,), (d,)) for t, d in self._detective_hops(i)]

    def _mrx_dests(self, at: Station, ticket: Ticket, occ: StationMask) -> StationMask:
        """Where Mr. X may move from ``at`` with ``ticket``: never onto a detective, except under
        ``mrx_onto_detective: caught``, where he may (and is caught there)."""
        return mrx_targets(self.board, 1 << at, ticket, occ, self.rules,
                           onto_detectives=self.rules.mrx_onto_detective == "caught")

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here (``problems`` says why not)."""
        return not self.problems(move)

    def problems(self, move: Move) -> list[Illegal]:
        """Why ``move`` is illegal here, as ``(code, message)`` pairs (empty: legal).

        Codes: ``game-over``, ``turn``, ``mrx-ticket``, ``double-allowance``, ``log-full``,
        ``mrx-connection``, ``mrx-ferry``, ``mrx-onto-detective``, ``mrx-pass``, ``det-ticket``,
        ``det-connection``, ``det-collision``, ``det-stuck``, and ``move-shape`` for what is not a
        move of plain values (:func:`~sy_tools.engine.moves.plain_move`: a float or string
        station, an unknown ticket ...; integer-like stations such as numpy's count as their
        ``int``).  Mr. X's destinations are checked only when his station is known."""
        plain = plain_move(move)
        if isinstance(plain, str):
            return [Illegal("move-shape", plain)]
        move = plain
        off = [s for s in move.stations if s is not None and s not in self.board]
        if off:
            return [Illegal("move-shape", f"station {off[0]} is not on the map {self.board.name!r}")]
        if self.ended is not None:
            return [Illegal("game-over", f"the game is over ({self.ended.describe()})")]
        if move.piece == MRX:
            if self.turn != 0:
                return [Illegal("turn", f"it is {self.to_move}'s turn, not Mr. X's")]
            return self._mrx_problems(move)
        if move.piece not in self.names:
            return [Illegal("turn", f"unknown piece {move.piece!r}")]
        if self.turn == 0:
            return [Illegal("turn", f"it is Mr. X's turn, not {move.piece}'s")]
        turn = [] if self.names[self.turn - 1] == move.piece else \
            [Illegal("turn", f"it is {self.to_move}'s turn, not {move.piece}'s")]
        return turn + self._detective_problems(move)

    def _mrx_problems(self, move: Move) -> list[Illegal]:
        probs: list[Illegal] = []
        r = self.rules
        if move.is_pass:
            if r.trapped_loses:
                probs.append(Illegal("mrx-pass", "Mr. X may not pass: with no legal move he is trapped and loses "
                                     "(trapped_loses: true)"))
            elif self.mrx_at is not None and self.mrx_can_move_from(self.mrx_at):
                probs.append(Illegal("mrx-pass", "Mr. X must move: he has a legal move"))
            return probs
        if len(move.tickets) != len(move.stations) or len(move.tickets) > 2:
            return [Illegal("mrx-shape", "a move is one or two hops, each with a ticket and a station")]
        if move.is_double:
            if r.double_moves_per_round < 1:
                probs.append(Illegal("double-allowance", "these rules allow no double move in a round"))
            elif self.mrx_tickets.double <= 0 or self.doubles >= r.double_moves_per_game:
                allowance = min(self.mrx_tickets.double + self.doubles, r.double_moves_per_game)
                probs.append(Illegal("double-allowance",
                                     f"a double move beyond the allowance ({allowance} per game, {self.doubles} used; "
                                     f"double tickets held {self.mrx_tickets.double})"))
        probs += self._voluntary_problems(move)
        left = self.mrx_tickets
        here = self.mrx_at
        occ = self.occupied
        for leg, (t, to) in enumerate(zip(move.tickets, move.stations)):
            n = self.move + leg + 1
            if n > r.log_length:
                probs.append(Illegal("log-full", f"move {n}: the travel log holds only {r.log_length} moves", leg))
            if left[t] <= 0:
                probs.append(Illegal("mrx-ticket", f"move {n}: Mr. X has no {t.value} ticket left"
                                     + _taken_note(move, leg, t, r), leg))
            left = left.spend(t)
            if to is None:
                here = None
                continue
            if here is None:
                pass
            elif self.board.step(1 << here, t) >> to & 1:
                if not mrx_targets(self.board, 1 << here, t, occ, r, onto_detectives=True) >> to & 1:
                    probs.append(Illegal("mrx-cutoff", f"move {n}: Mr. X's {t.value} hop {here} -> {to} passes "
                                         "over a detective (cut-off escape)", leg))
            else:
                kinds = self.board.transports_between(here, to)
                if kinds == {Transport.FERRY}:
                    probs.append(Illegal("mrx-ferry", f"move {n}: {here} -> {to} is a ferry crossing, which needs "
                                         f"a black ticket, not {t.value}", leg))
                else:
                    has = f" (only {', '.join(sorted(k.value for k in kinds))})" if kinds else ""
                    probs.append(Illegal("mrx-connection", f"move {n}: Mr. X moves {here} -> {to} by {t.value}, "
                                         f"but there is no such connection{has}", leg))
            if occ >> to & 1 and (r.mrx_onto_detective != "caught" or leg + 1 < len(move.tickets)):
                probs.append(Illegal("mrx-onto-detective", f"move {n}: Mr. X moves onto a detective at {to}", leg))
            here = to
        return probs

    def _voluntary_problems(self, move: Move) -> list[Illegal]:
        """A voluntary reveal: allowed by the rules, on a hop that is not a fixed reveal, at a
        station, taking a ticket the named detective holds."""
        if move.shown is None and move.took is None:
            return []
        if not self.rules.voluntary_reveal:
            return [Illegal("voluntary-reveal", "these rules have no voluntary reveal (voluntary_reveal: false)")]
        if move.shown is None or move.took is None:
            return [Illegal("voluntary-reveal", "a voluntary reveal shows Mr. X and takes one detective's ticket: "
                            "give both")]
        h = move.shown
        if not 0 <= h < len(move.tickets):
            return [Illegal("voluntary-reveal", f"no hop {h} to reveal after")]
        n = self.move + h + 1
        probs = []
        if self.rules.is_reveal(n):
            probs.append(Illegal("voluntary-reveal", f"move {n} is a fixed reveal already", h))
        if move.stations[h] is None:
            probs.append(Illegal("voluntary-reveal", f"move {n}: a reveal needs the station he showed", h))
        name, t = move.took
        if name not in self.names:
            probs.append(Illegal("reveal-ticket", f"move {n}: there is no detective {name!r} to take a ticket from", h))
        elif t not in DETECTIVE_TICKETS or self.tickets[self.names.index(name)][t] <= 0:
            probs.append(Illegal("reveal-ticket", f"move {n}: {name} has no {t.value} ticket for Mr. X to take", h))
        return probs

    def _detective_problems(self, move: Move) -> list[Illegal]:
        name = move.piece
        i = self.names.index(name)
        probs: list[Illegal] = []
        if len(move.tickets) != 1 or len(move.stations) != 1 or move.stations[0] is None:
            return [Illegal("det-shape", f"{name} moves one hop with one ticket to a known station")]
        if name in self.out:
            return [Illegal("det-stuck", f"{name} moves after it was stuck (out of the game)")]
        t, to = move.tickets[0], move.stations[0]
        here = self.stations[i]
        if t is Ticket.BLACK:
            probs.append(Illegal("det-ticket", f"{name} moves with a black ticket; detectives have none"))
        elif self.tickets[i][t] <= 0:
            probs.append(Illegal("det-ticket", f"{name} has no {t.value} ticket left"))
        if t is Ticket.BLACK or to not in self.board.destinations(here, t):
            kinds = sorted(x.value for x in self.board.transports_between(here, to))
            has = f" (only {', '.join(kinds)})" if kinds else ""
            probs.append(Illegal("det-connection", f"{name} moves {here} -> {to} by {t.value}, but there is no "
                                 f"such connection{has}"))
        other = next((n for n, s in zip(self.names, self.stations) if s == to and n != name), None)
        if other is not None:
            probs.append(Illegal("det-collision", f"{name} moves onto {to}, where {other} stands"))
        return probs

    # ---- making moves -----------------------------------------------------------------------

    def push(self, move: Move, capture: bool | None = None, advance: bool = True) -> Position:
        """The position after ``move``.  Like python-chess, ``push`` does not check legality
        (ask :meth:`is_legal` first); it applies the move as well as it can (tickets never go
        below zero), so the referee can report an illegal move and carry on.

        A detective's move captures Mr. X when it lands on his known station; when his station
        is not known, ``capture`` says whether it did (a record's ``"capture": true``).  A
        detective move may name a detective later in the order than the one to move: the ones in
        between pass (the referee warns about it).  With ``advance=False`` the turn stays where
        it is (the referee applying a detective's out-of-turn move as written)."""
        if move.piece == MRX:
            return self._push_mrx(move)
        return self._push_detective(move, capture, advance)

    def _push_mrx(self, move: Move) -> Position:
        mt = self.mrx_tickets
        doubles = self.doubles
        if move.is_double:
            mt = mt.spend("double")
            doubles += 1
        for t in move.tickets:
            mt = mt.spend(t)
        at = move.stations[-1] if move.stations else self.mrx_at
        det_tickets = self.tickets
        if move.took is not None and move.took[0] in self.names:  # a voluntary reveal's price
            i, t = self.names.index(move.took[0]), move.took[1]
            det_tickets = det_tickets[:i] + (det_tickets[i].spend(t),) + det_tickets[i + 1:]
            if self.rules.tickets_to_mrx and det_tickets[i] != self.tickets[i]:
                mt = mt.gain(t)
        nxt = self._with(mrx_tickets=mt, mrx_at=at, move=self.move + len(move.tickets), round=self.round + 1,
                         doubles=doubles, turn=0, tickets=det_tickets)
        if self.rules.mrx_onto_detective == "caught" and at is not None and self.occupied >> at & 1:
            by = self.names[self.stations.index(at)]
            return nxt._with(ended=Outcome(OutcomeKind.CAPTURE, nxt.round, nxt.move, by=by, station=at))
        return nxt._next_detective(0)

    def _push_detective(self, move: Move, capture: bool | None, advance: bool = True) -> Position:
        i = self.names.index(move.piece)
        t, to = move.tickets[0], move.stations[0]
        assert to is not None
        stations = list(self.stations)
        stations[i] = to
        tickets = list(self.tickets)
        tickets[i] = tickets[i].spend(t)
        mt = self.mrx_tickets
        if self.rules.tickets_to_mrx and t is not Ticket.BLACK:
            mt = mt.gain(t)
        caught = capture if capture is not None else self.mrx_at == to
        out = self.out
        if advance and self.turn >= 1 and i + 1 > self.turn:  # skipped detectives pass; stuck ones may be out
            out = out | {n for j, n in enumerate(self.names[self.turn - 1:i], self.turn - 1)
                         if not self._detective_hops(j) and self._stuck_is_out(j)}
        nxt = self._with(stations=tuple(stations), tickets=tuple(tickets), mrx_tickets=mt, out=out)
        if caught:
            end = Outcome(OutcomeKind.CAPTURE, self.round, self.move, by=move.piece, station=to)
            return nxt._with(mrx_at=to, ended=end, turn=i + 1)
        if not advance:
            return nxt
        return nxt._next_detective(i + 1)

    def pass_turn(self) -> Position:
        """The position after the piece to move passes: a detective that could not (or, in a
        record, did not) move, or a trapped Mr. X under rules that let him pass.  A detective
        without a legal move is out for good where :meth:`Rules.stuck_is_out` says so."""
        if self.ended is not None:
            return self
        if self.turn == 0:
            return self._with(round=self.round + 1)._next_detective(0)
        i = self.turn - 1
        out = self.out | {self.names[i]} if not self._detective_hops(i) and self._stuck_is_out(i) else self.out
        return self._with(out=out)._next_detective(i + 1)

    def _stuck_is_out(self, i: int) -> bool:
        """Whether detective ``i``, with no legal move on its turn, is out for good (the
        ``blocked_detective`` rule: :meth:`Rules.stuck_is_out`, told whether a ticket it holds
        rides a line from its station)."""
        return self.rules.stuck_is_out(next(detective_hops(self.board, self.stations[i], self.tickets[i]), None)
                                       is not None)

    def _next_detective(self, i: int) -> Position:
        """Hand the turn to detective ``i`` or the next one that can move (a stuck one skips its
        turn, and is out for good where the rules say so); after the last, end the round."""
        out = self.out
        n = len(self.names)
        while i < n:
            name = self.names[i]
            if name not in out:
                if self._detective_hops(i):
                    return self._with(turn=i + 1, out=out)
                if self._stuck_is_out(i):
                    out = out | {name}
            i += 1
        return self._with(out=out)._end_round()

    def _end_round(self) -> Position:
        r = self.rules
        if self.move >= r.log_length:
            return self._with(ended=Outcome(OutcomeKind.LOG_FULL, self.round, self.move), turn=0)
        out = self.out
        if all(n in out or not self._detective_hops(i) for i, n in enumerate(self.names)):
            return self._with(ended=Outcome(OutcomeKind.DETECTIVES_STUCK, self.round, self.move), turn=0)
        nxt = self._with(turn=0)
        if nxt.mrx_at is not None and r.trapped_loses and not nxt.mrx_can_move_from(nxt.mrx_at):
            return nxt._with(ended=Outcome(OutcomeKind.TRAPPED, self.round, self.move, station=nxt.mrx_at))
        return nxt

    def with_mrx_at(self, station: Station) -> Position:
        """This position with Mr. X known to stand on ``station`` (the caller checks that he
        may be there).  If he is to move and has no legal move there, he is trapped."""
        pos = self._with(mrx_at=station)
        if pos.ended is None and pos.turn == 0 and self.rules.trapped_loses and not pos.mrx_can_move_from(station):
            return pos.declare_trapped(station)
        return pos

    def declare_trapped(self, station: Station | None) -> Position:
        """End the game with Mr. X trapped (the referee's verdict when every station he may be
        at has no legal move and his exact station is not known)."""
        return self._with(ended=Outcome(OutcomeKind.TRAPPED, self.round, self.move, station=station), turn=0)

    # ---- the outcome --------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome:
        """How the game stands now."""
        if self.ended is not None:
            return self.ended
        if self.turn == 0:
            return Outcome(OutcomeKind.IN_PROGRESS, self.round, self.move, to_move=MRX)
        return Outcome(OutcomeKind.IN_PROGRESS, self.round, self.move, to_move=self.names[self.turn - 1])

    def is_over(self) -> bool:
        return self.ended is not None

    # ---- sampling (self-play) -----------------------------------------------------------------

    def random_move(self, rng: Any) -> Move | None:
        """A legal move drawn uniformly (:func:`draw`), or None when there is none."""
        n = count_moves(self)
        return move_at(self, draw(rng, n)) if n else None

    # ---- the names before the view, kept for one release (aliases: no extra call) -------------

    #: ``len(pos.legal_moves)`` (:func:`~sy_tools.engine.movegen.count_moves`)
    legal_move_count = count_moves
    #: ``pos.legal_moves[k]`` for ``k >= 0`` (:func:`~sy_tools.engine.movegen.move_at`)
    legal_move_at = move_at
    #: ``pos.legal_moves.singles()`` (:func:`~sy_tools.engine.movegen.single_moves`)
    mrx_single_moves = single_moves
    #: :meth:`with_mrx_at`
    placed = with_mrx_at
    #: :meth:`detective_stations`
    positions = detective_stations

    def __repr__(self) -> str:
        dets = ", ".join(f"{n} {s}" for n, s in zip(self.names, self.stations))
        at = "?" if self.mrx_at is None else self.mrx_at
        return f"<Position round {self.round} move {self.move}: Mr. X {at}; {dets}; {self.outcome.describe()}>"


def _taken_note(move: Move, leg: int, ticket: Ticket, rules: Rules) -> str:
    """Why a ticket Mr. X took on an earlier leg of this double move does not pay for ``leg``:
    a double move is one move, and what he gains in it (a voluntary reveal's ticket, like the
    detectives' used ones) is his from his next move on; without ``tickets_to_mrx`` it leaves the game."""
    if move.took is None or not isinstance(move.shown, int) or move.shown >= leg or move.took[1] != ticket:
        return ""
    where = "is his from his next move" if rules.tickets_to_mrx else "leaves the game (tickets_to_mrx: false)"
    return f" (the {ticket.value} ticket he took from {move.took[0]} in this double move {where})"


def draw(rng: Any, n: int) -> int:
    """A uniform index below ``n`` from ``rng.random()`` (what the random players draw)."""
    return int(rng.random() * n)
