"""A game at the table, move by move: the state behind ``sy-tools play``.

A :class:`Session` holds a game's set-up and the turns played so far, each one a :class:`Ply`
(Mr. X's hops, or one detective's move).  Every typed move is judged by the referee exactly as
``check`` judges a record (the record with the move added must stay legal, and a refusal carries
``check``'s reason and code), then the record is written atomically: the public record (never a
hidden station) and, when Mr. X's secret is kept, his log, the whole game as he knows it (his
start and every station; ``sy-tools check LOG`` replays it, and ``record convert --view detectives``
turns it into the public record).  ``undo`` and ``redo`` move back and forth along the turns.

The computer plays a side through the self-play policies (:mod:`sy_tools.selfplay.policies`):
Mr. X from the whole position, the detectives from what they see (the public record alone).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..analysis.referee import CheckResult, check
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.position import Position
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_TICKETS, TICKET_LETTERS, Ticket
from ..errors import AnalysisError, InputError
from ..formats.files import atomic_write_many
from ..formats.record import DetectiveMove, MrXMove, Record, Round
from ..formats.record_io import record_text
from .settings import COMPUTER_SIDES, DEFAULT_THINK

#: The refusals only a session can give (``check`` has no code for them): a move out of turn,
#: words it can't read, a hidden station with no log to keep it (or a logged move without one),
#: an inferred ticket that could be either of two, undo or redo with nothing to do.
SESSION_CODES = frozenset({"turn", "unreadable", "secret", "ambiguous", "game-over", "undo", "redo"})



class Refused(Exception):
    """A typed move the session does not accept: ``code`` is ``check``'s code for the problem
    (or ``turn``, ``unreadable``, ``secret``, ``ambiguous`` for what only a session can get
    wrong) and ``message`` says why in ``check``'s words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{message} [{code}]")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Ply:
    """One turn's entry: Mr. X's hops (one, two for a double move, none for a pass), or one
    detective's move."""

    piece: str
    mrx: tuple[MrXMove, ...] = ()
    detective: DetectiveMove | None = None

    def public_text(self, rules: Any, moves_before: int) -> str:
        """The turn as everyone at the table may hear it ("Mr. X: taxi", "Red: bus to 46")."""
        if self.detective is not None:
            d = self.detective
            return f"{d.name}: {d.ticket.value} to {d.to}" + (" (caught Mr. X)" if d.capture else "")
        if not self.mrx:
            return "Mr. X: passes (no legal move)"
        legs = []
        for j, m in enumerate(self.mrx):
            n = moves_before + j + 1
            seen = rules.is_reveal(n) or m.shown
            text = m.ticket.value + (f", shown at {m.to}" if seen and m.to is not None else "")
            if m.took is not None:
                text += f" (took {m.took[0]}'s {m.took[1].value})"
            legs.append(text)
        return "Mr. X: " + ("double move: " + " then ".join(legs) if len(legs) == 2 else legs[0])


def rounds_of(plies: Iterable[Ply]) -> tuple[Round, ...]:
    """The record's rounds for ``plies`` (each Mr. X turn opens a round), every entry placed by
    its game.json path so that findings point at it."""
    rounds: list[tuple[tuple[MrXMove, ...], list[DetectiveMove]]] = []
    for p in plies:
        if p.piece == MRX:
            r = len(rounds)
            rounds.append((tuple(m._replace(where=f"rounds[{r}].mrx[{j}]") for j, m in enumerate(p.mrx)), []))
        else:
            assert p.detective is not None and rounds, "a detective moves after Mr. X opened the round"
            r, dets = len(rounds) - 1, rounds[-1][1]
            dets.append(p.detective._replace(where=f"rounds[{r}].detectives[{len(dets)}]"))
    return tuple(Round(x, tuple(d), f"rounds[{i}]") for i, (x, d) in enumerate(rounds))


def plies_of(record: Record) -> list[Ply]:
    """The turns of a record, in the order they were played."""
    out: list[Ply] = []
    for rnd in record.rounds:
        out.append(Ply(MRX, tuple(m._replace(where="") for m in rnd.mrx)))
        out += [Ply(d.name, detective=d._replace(where="")) for d in rnd.detectives]
    return out


def default_log_path(game: str) -> str:
    """Where Mr. X's log goes when the command line does not say: beside the record,
    ``game.txt`` -> ``game.mrx.txt``."""
    root, ext = os.path.splitext(game)
    return f"{root}.mrx{ext}"


@dataclass
class Session:
    """A game being played: the set-up, the turns so far and the turns undone.

    ``log`` is the path of Mr. X's secret log (None: only the public record is kept, and his
    hidden stations are known to nobody here); ``computer`` the side the computer plays."""

    setup: Record
    path: str
    log: str | None = None
    computer: str | None = None
    think: float = DEFAULT_THINK
    seed: int = 0
    plies: list[Ply] = field(default_factory=list)
    undone: list[Ply] = field(default_factory=list)
    _checked: tuple[int, tuple[Ply, ...], CheckResult] | None = field(default=None, repr=False)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.computer is not None and self.computer not in COMPUTER_SIDES:
            raise ValueError(f"computer side {self.computer!r}: expected one of {', '.join(COMPUTER_SIDES)}")
        if self.computer is not None and self.log is None:
            raise ValueError("a game against the computer keeps Mr. X's log")
        self.setup = replace(self.setup, rounds=())

    # ---- the game as it stands --------------------------------------------------------------

    @property
    def secret(self) -> bool:
        """Whether Mr. X's true stations are kept (in his log)."""
        return self.log is not None

    def record(self, plies: Sequence[Ply] | None = None) -> Record:
        """The game so far as the session knows it: the whole game when Mr. X's log is kept,
        else the detectives' record."""
        return replace(self.setup, rounds=rounds_of(self.plies if plies is None else plies))

    def public(self) -> Record:
        """The record as the detectives keep it: no hidden station, no true start."""
        return self.record().detectives_view()

    def result(self) -> CheckResult:
        """``check`` of :meth:`record` (cached until the turns change)."""
        key = tuple(self.plies)
        if self._checked is None or self._checked[1] != key:
            self._checked = (len(key), key, check(self.record()))
        return self._checked[2]

    @property
    def position(self) -> Position:
        pos = self.result().position
        assert pos is not None
        return pos

    @property
    def over(self) -> bool:
        return self.position.outcome.over

    @property
    def to_move(self) -> str | None:
        """``MRX``, the detective to move, or None when the game is over."""
        return self.position.to_move

    def computer_to_move(self) -> bool:
        """Whether it is the computer's turn."""
        who = self.to_move
        if who is None or self.computer is None:
            return False
        return (who == MRX) == (self.computer == "mrx")

    def status_line(self) -> str:
        """The game's status in ``check``'s words, as its last line says it."""
        return f"{self.path}: legal; {self.position.outcome.describe()}"

    # ---- moves ------------------------------------------------------------------------------

    def enter(self, piece: str, entry: str) -> Ply:
        """Judge and play a typed move: ``piece`` is ``MRX`` or a detective's name, ``entry``
        the move in the notation's words.  :class:`Refused` (nothing changes) when the move is
        not legal here; else the turn is played and the files written."""
        ply = self._typed(piece, entry)
        self._play(ply)
        return ply

    def _typed(self, piece: str, entry: str) -> Ply:
        pos = self.position
        if pos.outcome.over:
            raise Refused("game-over", f"the game is over ({pos.outcome.describe()})")
        who = pos.to_move
        if self.computer_to_move():
            raise Refused("turn", f"it is the computer's turn ({'Mr. X' if who == MRX else who})")
        if (piece == MRX) != (who == MRX):
            name = "Mr. X" if who == MRX else who
            raise Refused("turn", f"it is {name}'s turn, not {'Mr. X' if piece == MRX else piece}'s")
        if piece != MRX and piece != who:
            if piece not in pos.names:
                raise Refused("turn", f"unknown player {piece!r} (players: X, {', '.join(pos.names)})")
            raise Refused("turn", f"it is {who}'s turn, not {piece}'s (the detectives move in turn order)")
        return self._mrx_ply(pos, entry) if piece == MRX else self._detective_ply(pos, piece, entry)

    def _mrx_ply(self, pos: Position, entry: str) -> Ply:
        from ..formats.notation import read_mrx_entry

        try:
            hops = read_mrx_entry(entry)
        except ValueError as e:
            raise Refused("unreadable", str(e)) from None
        rules = pos.rules
        for j, m in enumerate(hops):
            n = pos.move + j + 1
            seen = rules.is_reveal(n) or m.shown
            letter = TICKET_LETTERS[m.ticket]
            if seen and m.to is None:
                raise Refused("reveal-missing", f"move {n} is a reveal move: give the station Mr. X shows, e.g. "
                                                f"'X {letter} 46'")
            if not seen and m.to is not None and not self.secret:
                raise Refused("secret", f"move {n} is hidden: its station would be public in {self.path}; to keep "
                                        "Mr. X's stations, play with --mrx-log FILE")
            if not seen and m.to is None and self.secret:
                raise Refused("secret", f"move {n}: give Mr. X's station too, e.g. 'X {letter} 46' (it goes to "
                                        f"his log {self.log}, never to the record)")
        return Ply(MRX, hops)

    def _detective_ply(self, pos: Position, name: str, entry: str) -> Ply:
        from ..formats.notation import read_detective_entry

        try:
            ticket, to, capture = read_detective_entry(entry)
        except ValueError as e:
            raise Refused("unreadable", str(e)) from None
        if to is None:
            raise Refused("unreadable", f"a detective's move needs its station, e.g. '{name} T 23'")
        if ticket is None:
            ticket = self._inferred_ticket(pos, name, to)
        if self.secret and pos.mrx_at is not None and to == pos.mrx_at:
            capture = True  # his log says he is there: the move catches him
        return Ply(name, detective=DetectiveMove(name, ticket, to, "", capture))

    def _inferred_ticket(self, pos: Position, name: str, to: Station) -> Ticket:
        """The ticket of ``NAME STATION``: the one ticket that makes the move; when none does,
        the ticket of a connection that exists (the referee then says why it can't be used)."""
        fits = sorted({m.tickets[0] for m in pos.detective_moves(name) if m.to == to}, key=DETECTIVE_TICKETS.index)
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            words = " or ".join(t.value for t in fits)
            raise Refused("ambiguous", f"{name} can reach {to} by {words}: say which, e.g. "
                                       f"'{name} {TICKET_LETTERS[fits[0]]} {to}'")
        here = pos.detective(name)[0]
        for t in DETECTIVE_TICKETS:
            if to in pos.board.destinations(here, t):
                return t
        raise Refused("det-connection", f"{name} cannot move {here} -> {to}: no taxi, bus or underground "
                                        "connection joins them")

    def _play(self, ply: Ply) -> None:
        """Play ``ply`` if the record stays legal (:class:`Refused` with the referee's first
        error otherwise), then write the files."""
        plies = self.plies + [ply]
        result = check(self.record(plies))
        if not result.legal:
            first = result.errors[0]
            raise Refused(first.code, first.message)
        self.plies = plies
        self._checked = (len(plies), tuple(plies), result)
        self.undone.clear()
        self.save()

    def _human(self, ply: Ply) -> bool:
        if self.computer is None:
            return True
        return (ply.piece == MRX) != (self.computer == "mrx")

    def undo(self, n: int = 1) -> list[Ply]:
        """Take back the last ``n`` turns of the humans (with the computer's replies to them);
        the turns taken back, latest first."""
        taken: list[Ply] = []
        for _ in range(n):
            if not any(self._human(p) for p in self.plies):
                break
            while self.plies:
                p = self.plies.pop()
                self.undone.append(p)
                taken.append(p)
                if self._human(p):
                    break
        if taken:
            self.save()
        return taken

    def redo(self, n: int = 1) -> list[Ply]:
        """Play again the last ``n`` human turns undone (and the computer's replies that
        followed them); the turns played again."""
        done: list[Ply] = []
        for _ in range(n):
            if not self.undone:
                break
            self.plies.append(self.undone.pop())
            done.append(self.plies[-1])
            while self.undone and not self._human(self.undone[-1]):
                self.plies.append(self.undone.pop())
                done.append(self.plies[-1])
        if done:
            self.save()
        return done

    # ---- the computer -----------------------------------------------------------------------

    def computer_move(self) -> Ply:
        """The computer's turn, played (and the files written)."""
        pos = self.position
        rng = random.Random(self.seed * 1_000_003 + len(self.plies))
        if pos.turn == 0:
            ply = self._computer_mrx(pos, rng)
        else:
            ply = Ply(pos.to_move or "", detective=self._as_detective_move(detective_choice(
                self.public(), self.think, self._memo, rng)))
        self._play(ply)
        return ply

    def _computer_mrx(self, pos: Position, rng: random.Random) -> Ply:
        from ..engine.observations import MrXObservation
        from ..engine.stations import mask_of
        from ..selfplay.policies import mrx_policy

        if not pos.legal_moves:
            return Ply(MRX, ())
        where = _possible_now(self.public())
        move = mrx_policy(MrXObservation(pos, mask_of(where.stations), {"time_limit": self.think}), rng)
        hops = []
        for j, (t, s) in enumerate(zip(move.tickets, move.stations)):
            shown = move.shown == j
            hops.append(MrXMove(t, s, "", shown, move.took if shown else None))
        return Ply(MRX, tuple(hops))

    def _as_detective_move(self, move: Move) -> DetectiveMove:
        to = move.stations[0]
        assert to is not None
        pos = self.position
        return DetectiveMove(move.piece, move.tickets[0], to, "", pos.mrx_at == to)

    # ---- files ------------------------------------------------------------------------------

    def save(self) -> None:
        """Write the public record (and Mr. X's log) atomically: a crash leaves the last turn's
        files whole."""
        files: list[tuple[str, bytes]] = [(self.path, record_text(self.public(), self.path).encode())]
        if self.log is not None:
            files.append((self.log, record_text(self.record(), self.log).encode()))
        atomic_write_many(files)


def _possible_now(record: Record) -> Any:
    from ..analysis.possible import possible

    return possible(record)


def detective_choice(public: Record, think: float, memo: dict[str, Any], rng: random.Random | None = None) -> Move:
    """The computer detectives' move at the end of ``public``, the detectives' record (it holds
    nothing they did not see): the advise detectives' plan for the round (kept in ``memo``),
    weighing at most the self-play cap of joint moves (more where his possible set is small) within
    ``think`` seconds."""
    from ..engine.observations import DetectiveObservation
    from ..engine.stations import mask_of
    from ..selfplay.policies import ADVISE_CANDIDATES, detective_policy
    from ..solvers.advise import came_from

    result = check(public)
    pos = result.position
    assert pos is not None and pos.turn > 0 and not result.status.over
    where = _possible_now(public)
    shown: list[Ticket] = []
    reveals: dict[int, Station] = {}
    for rnd in public.rounds:
        for m in rnd.mrx:
            shown.append(m.ticket)
            if m.to is not None:
                reveals[len(shown)] = m.to
    memo.setdefault("advise_candidates", ADVISE_CANDIDATES)
    memo["advise_time_limit"] = think
    memo["came_from"] = came_from(public)  # (from the record: a resumed game plays as one never stopped)
    obs = DetectiveObservation.of(pos, mask_of(where.stations), tuple(shown), reveals, where.probabilities, memo)
    return detective_policy(obs, rng)


def refuse_resume_options(given: Sequence[str]) -> None:
    """The set-up options belong to ``--new``: refuse them on a resumed game."""
    if given:
        raise InputError(f"{', '.join(given)} set up a new game: give --new, or leave them out to resume the record")


def check_resumable(record: Record, path: str) -> None:
    """A record to resume must be legal: :class:`AnalysisError` with ``check``'s first finding."""
    result = check(record)
    if not result.legal:
        first = result.errors[0]
        raise AnalysisError(f"the record is illegal: {first.message} (run 'sy-tools check')", path,
                            record.place(first.where))
