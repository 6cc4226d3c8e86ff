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
from typing import TYPE_CHECKING, Any

from ..analysis.referee import CheckResult, check
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.position import Position
from ..engine.stations import Station
from ..engine.tickets import DETECTIVE_TICKETS, TICKET_LETTERS, Ticket
from ..errors import AnalysisError, InputError
from ..formats.files import atomic_write_many, stream_fd
from ..formats.play_header import PLAY_LEVELS
from ..formats.record import DetectiveMove, MrXMove, Record, Round
from ..formats.record_io import record_text
from .files import GameLock, Watched, create_private
from .settings import COMPUTER_SIDES, DEFAULT_LEVEL, DEFAULT_PACE, DEFAULT_THINK

if TYPE_CHECKING:
    from ..solvers.advise import Advice

#: The refusals only a session can give (``check`` has no code for them): a move out of turn,
#: words it can't read, a hidden station with no log to keep it (or a logged move without one),
#: an inferred ticket that could be either of two, undo or redo with nothing to do.
SESSION_CODES = frozenset({"turn", "unreadable", "secret", "ambiguous", "game-over", "undo", "redo",
                           "mrx-log", "unsaved", "changed", "private"})



class Refused(Exception):
    """A typed move the session does not accept: ``code`` is ``check``'s code for the problem
    (or one of :data:`SESSION_CODES` for what only a session can get wrong) and ``message`` says
    why in ``check``'s words.  ``private``: the reason for Mr. X's eyes only, when the message
    may not say it (his move does not fit his log: the shared screen is told no more)."""

    def __init__(self, code: str, message: str, private: str | None = None) -> None:
        super().__init__(f"{message} [{code}]")
        self.code = code
        self.message = message
        self.private = private


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
    hidden stations are known to nobody here); ``computer`` the side the computer plays
    (``mrx``, ``detectives``, ``both`` or None) at ``level``; ``seed`` the computer's own seed
    (kept in the log only).  The set-up is written into both files (the record's ``play``
    header), so a plain resume plays the same game.

    Files: every accepted move is saved at once; a move that cannot be saved is taken back
    (:class:`Refused` with the code ``unsaved``) and :attr:`save_failed` is set; a file changed
    on disk behind the session is never overwritten (the code ``changed``; the session then
    takes no more moves: :attr:`stopped`)."""

    setup: Record
    path: str
    log: str | None = None
    computer: str | None = None
    think: float = DEFAULT_THINK
    seed: int = 0
    plies: list[Ply] = field(default_factory=list)
    undone: list[Ply] = field(default_factory=list)
    level: str = DEFAULT_LEVEL
    pace: float = DEFAULT_PACE
    lock: GameLock | None = None
    stopped: str | None = None
    save_failed: bool = False
    watched: Watched = field(default_factory=Watched, repr=False)
    _checked: tuple[int, tuple[Ply, ...], CheckResult] | None = field(default=None, repr=False)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.computer is not None and self.computer not in COMPUTER_SIDES:
            raise ValueError(f"computer side {self.computer!r}: expected one of {', '.join(COMPUTER_SIDES)}")
        if self.computer is not None and self.log is None:
            raise ValueError("a game against the computer keeps Mr. X's log")
        if self.level not in PLAY_LEVELS:
            raise ValueError(f"level {self.level!r}: expected one of {', '.join(PLAY_LEVELS)}")
        self.setup = replace(self.setup, rounds=())

    # ---- the game as it stands --------------------------------------------------------------

    @property
    def secret(self) -> bool:
        """Whether Mr. X's true stations are kept (in his log): then nothing the shared screen
        shows may depend on them."""
        return self.log is not None

    def header(self, public: bool) -> dict[str, Any]:
        """The ``play`` header the files hold: the public record's (with the log's path, without
        the computer's seed) or the log's (with the seed)."""
        head: dict[str, Any] = {}
        if self.computer is not None:
            head["computer"] = self.computer
            head["level"] = self.level
        if public and self.log is not None:
            head["mrx_log"] = os.path.relpath(os.path.abspath(self.log), os.path.dirname(os.path.abspath(self.path)))
        head["think"] = self.think
        if self.computer == "both":
            head["pace"] = self.pace
        if not public and self.log is not None:
            head["seed"] = self.seed
        return head

    def record(self, plies: Sequence[Ply] | None = None) -> Record:
        """The game so far as the session knows it: the whole game when Mr. X's log is kept,
        else the detectives' record."""
        extra = {**self.setup.extra, "play": self.header(public=self.log is None)}
        return replace(self.setup, rounds=rounds_of(self.plies if plies is None else plies), extra=extra)

    def public(self, plies: Sequence[Ply] | None = None) -> Record:
        """The record as the detectives keep it: no hidden station, no true start, no seed."""
        view = self.record(plies).detectives_view()
        return replace(view, extra={**view.extra, "play": self.header(public=True)})

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
        if who is None or self.computer is None or self.stopped is not None:
            return False
        return self.computer == "both" or (who == MRX) == (self.computer == "mrx")

    def human_mrx(self) -> bool:
        """Whether a person plays Mr. X with his log kept (his moves are typed unseen)."""
        return self.secret and self.computer not in ("mrx", "both")

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
        if self.stopped is not None:
            raise Refused("changed", self.stopped)
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
                                        "his log, never to the record)")
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
        if self.secret:
            capture = pos.mrx_at is not None and to == pos.mrx_at  # his log says whether the move catches him
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
            if self.secret:
                raise self._public_refusal(plies, first.code, first.message)
            raise Refused(first.code, first.message)
        before = (self.plies, self._checked, list(self.undone))
        self.plies = plies
        self._checked = (len(plies), tuple(plies), result)
        self.undone.clear()
        try:
            self.save()
        except Refused:
            self.plies, self._checked, self.undone = before
            raise

    def _public_refusal(self, plies: list[Ply], code: str, message: str) -> Refused:
        """The refusal the shared screen may read when the whole game (with his log) rules a
        move out: the public record's own verdict when it rules the move out too (it knows no
        hidden station), else only that the move does not fit his log (the reason is his)."""
        public = check(self.public(plies))
        if not public.legal:
            first = public.errors[0]
            return Refused(first.code, first.message)
        return Refused("mrx-log", "not a move that fits Mr. X's log; the reason is his to see ('private')",
                       private=f"{message} [{code}]")

    def _human(self, ply: Ply) -> bool:
        if self.computer is None:
            return True
        if self.computer == "both":
            return False
        return (ply.piece == MRX) != (self.computer == "mrx")

    def can_undo(self) -> bool:
        """Whether :meth:`undo` takes anything back: a person's turn (with the computer's
        replies to it); under ``computer both`` any turn."""
        if self.computer == "both":
            return bool(self.plies)
        return any(self._human(p) for p in self.plies)

    def undo(self, n: int = 1) -> list[Ply]:
        """Take back the last ``n`` turns of the humans (with the computer's replies to them);
        the turns taken back, latest first.  Under ``computer both`` every turn counts."""
        before = (list(self.plies), list(self.undone))
        taken: list[Ply] = []
        for _ in range(n):
            if not self.can_undo():
                break
            while self.plies:
                p = self.plies.pop()
                self.undone.append(p)
                taken.append(p)
                if self._human(p) or self.computer == "both":
                    break
        if taken:
            self._save_or_restore(before)
        return taken

    def redo(self, n: int = 1) -> list[Ply]:
        """Play again the last ``n`` human turns undone (and the computer's replies that
        followed them); the turns played again."""
        before = (list(self.plies), list(self.undone))
        done: list[Ply] = []
        for _ in range(n):
            if not self.undone:
                break
            self.plies.append(self.undone.pop())
            done.append(self.plies[-1])
            while self.computer != "both" and self.undone and not self._human(self.undone[-1]):
                self.plies.append(self.undone.pop())
                done.append(self.plies[-1])
        if done:
            self._save_or_restore(before)
        return done

    def _save_or_restore(self, before: tuple[list[Ply], list[Ply]]) -> None:
        try:
            self.save()
        except Refused:
            self.plies, self.undone = before
            raise

    def mrx_advice(self, top: int = 3) -> Advice:
        """``sy-tools advise``'s advice for Mr. X at his station (an
        :class:`~sy_tools.solvers.advise.Advice`; his secret: for his eyes only), its tree search
        seeded from the game's own seed.  :class:`Refused` when the game is over, it is not his
        turn, or his station is not kept (no log)."""
        from ..selfplay.budgets import ADVISE_CANDIDATES
        from ..selfplay.policies import TreeSearch
        from ..solvers.advise import advise_record

        if self.over:
            raise Refused("game-over", "the game is over")
        if self.to_move != MRX:
            raise Refused("turn", f"it is {self.to_move}'s turn")
        if not self.secret:
            raise Refused("unreadable", "Mr. X's advice needs his station: it is kept only with his log (--mrx-log)")
        return advise_record(self.public(), at=self.position.mrx_at, top=top, time_limit=self.think,
                             choose=TreeSearch(rng=self.seed), candidates=ADVISE_CANDIDATES)

    # ---- the computer -----------------------------------------------------------------------

    def computer_move(self) -> Ply:
        """The computer's turn, played (and the files written).  Its choice depends only on the
        game so far (the detectives' on the public record since the round began), so a game
        stopped anywhere and resumed plays on exactly as it would have."""
        pos = self.position
        rng = random.Random(self.seed * 1_000_003 + len(self.plies))
        if pos.turn == 0:
            ply = self._computer_mrx(pos, rng)
        else:
            ply = Ply(pos.to_move or "", detective=self._as_detective_move(self._computer_detective()))
        self._play(ply)
        return ply

    def _computer_mrx(self, pos: Position, rng: random.Random) -> Ply:
        from ..engine.observations import MrXObservation
        from ..engine.stations import mask_of

        if not pos.legal_moves:
            return Ply(MRX, ())
        where = _possible_now(self.public())
        policy = computer_policy("mrx", self.level)
        move = policy(MrXObservation(pos, mask_of(where.stations), {"time_limit": self.think}), rng)
        hops = []
        for j, (t, s) in enumerate(zip(move.tickets, move.stations)):
            shown = move.shown == j
            hops.append(MrXMove(t, s, "", shown, move.took if shown else None))
        return Ply(MRX, tuple(hops))

    def _computer_detective(self) -> Move:
        """The computer detectives' move: each round's decisions are made afresh from the
        round's start (a memo per round), and on a resume in the middle of a round the
        detectives who already moved decide again first, so the memo is what it would have been."""
        round_start = len(self.plies)
        while round_start and self.plies[round_start - 1].piece != MRX:
            round_start -= 1
        key = tuple(self.plies[:round_start])
        if self._memo.get("key") != key or self._memo.get("decided", 0) > len(self.plies):
            # a new round, or moves taken back: decide again from the round's start
            self._memo = {"key": key, "memo": {}, "decided": round_start}
        memo = self._memo["memo"]
        while True:
            at = self._memo["decided"]
            public = self.public(self.plies[:at])
            rng = random.Random(self.seed * 1_000_003 + at)
            move = detective_choice(public, self.think, memo, rng, self.level)
            self._memo["decided"] = at + 1
            if at == len(self.plies):
                return move

    def _as_detective_move(self, move: Move) -> DetectiveMove:
        to = move.stations[0]
        assert to is not None
        pos = self.position
        return DetectiveMove(move.piece, move.tickets[0], to, "", pos.mrx_at == to)

    # ---- files ------------------------------------------------------------------------------

    def files(self) -> list[tuple[str, bytes]]:
        """What the session's files hold now: the public record (and Mr. X's log)."""
        out: list[tuple[str, bytes]] = [(self.path, record_text(self.public(), self.path).encode())]
        if self.log is not None:
            out.append((self.log, record_text(self.record(), self.log).encode()))
        return out

    def save(self) -> None:
        """Write the public record (and Mr. X's log) atomically: a crash leaves the last turn's
        files whole.  :class:`Refused` (``changed``) when a file no longer holds what this
        session last wrote (nothing is written, and the session takes no more moves), or
        (``unsaved``) when the files cannot be written."""
        if self.stopped is not None:
            raise Refused("changed", self.stopped)
        changed = self.watched.changed()
        if changed:
            self.stopped = (f"{', '.join(changed)} changed on disk behind this session (another program or "
                            "session?): nothing was overwritten, and this session takes no more moves; quit, "
                            "and resume to play on from what the files hold")
            raise Refused("changed", self.stopped)
        files = self.files()
        made = self.log is not None and stream_fd(self.log) is None and create_private(self.log)
        try:
            atomic_write_many(files)
        except OSError as e:
            if made:
                assert self.log is not None
                _unlink_quietly(self.log)
            self.save_failed = True
            where = e.filename if isinstance(e.filename, str) else self.path
            raise Refused("unsaved", f"could not save {where}: {e.strerror or e}; the move was taken back, "
                                     "the files hold the game as before") from None
        for path, data in files:
            self.watched.remember(path, data)


def _possible_now(record: Record) -> Any:
    from ..analysis.possible import possible

    return possible(record)


def computer_policy(side: str, level: str) -> Any:
    """The self-play policy the computer plays ``side`` (``mrx`` or ``detectives``) with at
    ``level``: :func:`sy_tools.selfplay.levels.level_policy` (budgets in nodes and iterations,
    so a game is the same from its seed)."""
    from ..selfplay.levels import level_policy

    return level_policy(side, level)


def detective_choice(public: Record, think: float, memo: dict[str, Any], rng: random.Random | None = None,
                     level: str = DEFAULT_LEVEL) -> Move:
    """The computer detectives' move at the end of ``public``, the detectives' record (it holds
    nothing they did not see): the policy of ``level`` (:func:`computer_policy`), which may plan
    the round's joint move once (kept in ``memo``), within ``think`` seconds."""
    from ..engine.observations import DetectiveObservation
    from ..engine.stations import mask_of
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
    memo["advise_time_limit"] = think
    memo["came_from"] = came_from(public)  # (from the record: a resumed game plays as one never stopped)
    obs = DetectiveObservation.of(pos, mask_of(where.stations), tuple(shown), reveals, where.probabilities, memo)
    return computer_policy("detectives", level)(obs, rng)  # type: ignore[no-any-return]


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


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
