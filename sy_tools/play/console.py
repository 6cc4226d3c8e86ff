"""The commands of a ``play`` session: one typed line in, what the table reads out.

:class:`Console` reads a line (a move, or a command such as ``undo`` or ``possible``), acts on
its :class:`~sy_tools.play.session.Session` and writes to ``out`` (what everyone reads) and
``err`` (refusals and errors); the terminal or the script around it only feeds it lines.

**The secret mode.**  When Mr. X's log is kept (:attr:`Session.secret`), nothing written to
``out`` or ``err`` depends on his true stations beyond what the public record shows: a refusal
of his move says only that it does not fit his log, ``moves`` and ``advise`` for him are
refused, and his own information (his station, his moves, his advice, why his move was refused)
is shown only in the *private step*: ``private`` hands the keyboard to Mr. X (``on_private``
lets the front end clear the screen), and what he reads then goes to ``private_out``; his move,
``done`` or an empty line ends the step."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..engine.hops import MRX
from ..errors import SyToolsError
from .files import resume_command
from .report import history_text, round_block, routes, who
from .session import Ply, Refused, Session
from .settings import MAX_LINE

#: The session's commands and what each does (``help`` prints them; tab completion offers them).
COMMANDS: dict[str, str] = {
    "undo": "undo [N]: take back the last move (N moves)",
    "redo": "redo [N]: play again a move taken back",
    "tickets": "tickets: every player's tickets left",
    "moves": "moves [STATION]: the legal moves of the piece to move (Mr. X's from STATION)",
    "possible": "possible [N]: where Mr. X may be, the N most likely first (default 10)",
    "advise": "advise: what the side to move should do, and why",
    "solve": "solve: can the detectives force a capture within two turns?",
    "cordon": "cordon: the smallest trap around his possible stations this turn",
    "picture": "picture [FILE]: draw where Mr. X may be (a .png, .svg or .pdf)",
    "history": "history: the moves so far, round by round",
    "private": "private: Mr. X alone at the screen: his station, his moves, his advice, his move",
    "help": "help: this list",
    "quit": "quit: stop here (the record is saved after every move; resume with 'sy-tools play GAME')",
}

#: What Mr. X may type in his private step.
PRIVATE_COMMANDS: dict[str, str] = {
    "moves": "moves: your legal moves from where you are",
    "advise": "advise: what you should do, and why",
    "route": "route: where you have been",
    "tickets": "tickets: every player's tickets left",
    "help": "help: this list",
    "done": "done (or an empty line): hand the keyboard back without moving",
}

MOVE_HELP = """moves, one a line, in the notation's words (the piece to move may be left out):
  Red T 124     a detective's move (Red 124: the ticket inferred when only one fits; T 124! marks a capture)
  X T           Mr. X's hidden move (with his log kept: X T 46, the station goes to the log only)
  X U 46        a reveal move names the station;  X 2X T/K  a double move;  X -  a pass
  X B 105 show Red B   a voluntary reveal (under that variant)"""

#: A comment: from a ``#`` at the start of a line or after a space to its end.
_COMMENT = re.compile(r"(^|\s)#.*$")

#: The words a session reads as Mr. X.
MRX_WORDS = ("x", "mrx", "mr.x")

#: The lines that frame Mr. X's private step where no screen can be cleared (a pipe).
PRIVATE_BEGIN = "--- for Mr. X's eyes only ---"
PRIVATE_END = "--- end of what is for Mr. X's eyes only ---"

#: Unicode's surrogates: what undecodable bytes become when a terminal reads them leniently.
_SURROGATE = re.compile("[\ud800-\udfff]")


def is_mrx_line(text: str) -> bool:
    """Whether a typed line (or its start) may be a move of Mr. X's: it starts with one of
    :data:`MRX_WORDS` (or a start of one), which a shared screen must not show."""
    t = text.lstrip().lower()
    if not t:
        return False
    first = t.split(None, 1)[0]
    return any(w.startswith(first) for w in MRX_WORDS) and (first in MRX_WORDS or " " not in t)


@dataclass
class Console:
    """Runs typed lines against ``session``; ``picture`` is the heatmap refreshed after every
    round (None: only on request).  ``private_out`` is what Mr. X alone reads (default:
    ``out``, framed by ``on_private``), ``on_private(True)`` / ``on_private(False)`` is called
    as his private step starts and ends (a terminal clears the screen there)."""

    session: Session
    out: Callable[[str], None]
    err: Callable[[str], None]
    picture: str | None = None
    private_out: Callable[[str], None] | None = None
    on_private: Callable[[bool], None] | None = None
    finished: bool = False
    in_private: bool = False
    _out_before: frozenset[str] = frozenset()
    _secret_reason: str | None = None

    # ---- the session's life -----------------------------------------------------------------

    def start(self, notes: list[str] | None = None) -> None:
        """Greet the table: notes about the set-up, the position, and the computer's move if it
        is to move (also on resume; when it plays both sides the front end paces its moves
        with :meth:`computer_step`)."""
        for n in notes or []:
            self.out(n)
        s = self.session
        self._out_before = frozenset(s.position.out)
        if s.over:
            self._end()
            return
        self.out(round_block(s.public()))
        self._refresh_picture()
        self._computer()

    @property
    def autoplay(self) -> bool:
        """Whether the computer plays both sides (the front end calls :meth:`computer_step` at
        its pace)."""
        return self.session.computer == "both" and not self.finished

    def prompt(self) -> str:
        """Whose turn it is, for the prompt."""
        s = self.session
        if self.in_private:
            return f"Mr. X, alone (at {s.position.mrx_at})> "
        if s.over:
            return "game over> "
        return f"{who(s.to_move)} to move (round {max(1, s.position.round + (s.to_move == MRX))})> "

    def prompt_status(self) -> str:
        """One line on the game as it stands (after a cleared screen): whose turn, the round."""
        s = self.session
        if s.over:
            return s.status_line()
        return f"{who(s.to_move)} to move, round {max(1, s.position.round + (s.to_move == MRX))}"

    def goodbye(self) -> str:
        """The line a session ends with when the game is not over: how far it is saved and how to
        resume it."""
        s = self.session
        if s.stopped is not None:
            return f"stopped: {s.stopped}"
        return f"saved after move {len(s.plies)}; resume with: {resume_command(s.path)}"

    def exit_code(self, code: int = 0) -> int:
        """``code``, or 2 when a move could not be saved or the files changed behind the session."""
        s = self.session
        return 2 if s.save_failed or s.stopped is not None else code

    def handle(self, line: str) -> None:
        """Act on one typed line."""
        if len(line) > MAX_LINE:
            self.refuse(f"the line is {len(line):,} characters long, more than {MAX_LINE:,}: not read")
            return
        if _SURROGATE.search(line):
            self.refuse("the line is not UTF-8 text: not read")
            return
        text = _COMMENT.sub("", line).strip()
        if self.in_private:
            self._private_line(text)
            return
        if not text:
            return
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if not words:
            return
        head = words[0].lower()
        try:
            if head in COMMANDS:
                getattr(self, f"_cmd_{head}")(words[1:])
            elif head in ("exit", "q"):
                self._cmd_quit([])
            else:
                self._move(text, words)
        except Refused as e:
            self._secret_reason = e.private
            self.err(f"error: {e.message} [{e.code}]")
        except SyToolsError as e:
            self.err(f"error: {e}")

    def refuse(self, message: str) -> None:
        """A line that could not be read (too long, not text): one refusal."""
        (self._private if self.in_private else self.err)(f"error: {message} [unreadable]")

    # ---- moves ------------------------------------------------------------------------------

    def _move(self, text: str, words: list[str]) -> None:
        s = self.session
        head = words[0]
        names = {n.lower(): n for n in s.position.names}
        if head.lower() in MRX_WORDS:
            piece, entry = MRX, _after_first(text)
        elif head.lower() in names:
            piece, entry = names[head.lower()], _after_first(text)
        elif _looks_like_move(head) and s.to_move is not None:
            piece, entry = s.to_move, text
        else:
            raise Refused("unreadable", f"unknown command or player {head!r}: type 'help'")
        if s.over:
            raise Refused("game-over", f"the game is over ({s.position.outcome.describe()})")
        if not entry.strip():
            raise Refused("unreadable", f"give {who(piece)}'s move, e.g. '{'X T' if piece == MRX else piece + ' T 23'}'")
        self._enter(piece, entry)

    def _enter(self, piece: str, entry: str) -> None:
        s = self.session
        before = s.position.move
        ply = s.enter(piece, entry)
        self._secret_reason = None
        if self.in_private:
            self._leave_private()
        note = ""
        if s.secret and ply.detective is not None and entry.rstrip().endswith("!") and not ply.detective.capture:
            note = " (not caught)"
        self._played(ply, before, note)
        self._computer()

    def _computer(self) -> None:
        s = self.session
        while not s.over and s.computer_to_move() and s.computer != "both":
            if not self.computer_step():
                break  # (its move could not be saved: said, and the people may quit or retry)

    def computer_step(self) -> bool:
        """Play the computer's next move (if it is its turn); whether it played one."""
        s = self.session
        if s.over or not s.computer_to_move():
            return False
        before = s.position.move
        try:
            ply = s.computer_move()
        except Refused as e:
            self.err(f"error: {e.message} [{e.code}]")
            return False
        self._played(ply, before)
        return True

    def _played(self, ply: Ply, moves_before: int, note: str = "") -> None:
        s = self.session
        self.out(ply.public_text(s.setup.rules, moves_before) + note)
        pos = s.position
        for name in self._passed_over(ply, pos):
            stuck = pos.stuck(name)
            if stuck is not None and stuck.reason != "out-earlier":
                self.out(stuck.describe())
        self._out_before = frozenset(pos.out)
        if s.over:
            self._end()
        elif s.to_move == MRX and ply.piece != MRX:
            self.out(round_block(s.public()))
            self._refresh_picture()

    def _passed_over(self, ply: Ply, pos: Any) -> list[str]:
        """The detectives whose turn came after ``ply`` and passed with no move (blocked or out):
        those between the mover and the piece now to move."""
        if ply.detective is not None and ply.detective.capture:
            return []
        names = list(pos.names)
        first = 0 if ply.piece == MRX else names.index(ply.piece) + 1
        end = names.index(pos.to_move) if pos.to_move in names else len(names)
        if pos.to_move in names and end < first:  # (a new round began: the rest of this one passed)
            end = len(names)
        return [n for n in names[first:end] if n not in self._out_before or n not in pos.out]

    def _end(self) -> None:
        s = self.session
        if s.computer is not None or s.secret:
            self.out(routes(s.record(), s.secret))
        self.out(s.status_line())
        self._refresh_picture()
        self.finished = True

    def _refresh_picture(self) -> None:
        if self.picture is not None:
            try:
                self._draw(self.picture)
            except SyToolsError as e:
                self.err(f"error: {e}")

    def check_picture(self, path: str) -> None:
        """:class:`~sy_tools.errors.InputError` when a picture at ``path`` would be written onto
        one of the session's files (the record, Mr. X's log, the lock; also through links) or
        onto something that is not a regular file."""
        from .files import distinct_targets
        from .setup import session_files

        s = self.session
        distinct_targets([*session_files(s.path, s.log, s.setup), ("the picture", path)])

    def _draw(self, path: str) -> None:
        from .. import plot

        self.check_picture(path)
        plot.save(plot.possible_figure(self.session.public()), path)

    # ---- Mr. X's private step ---------------------------------------------------------------

    def frame_private(self, starting: bool) -> None:
        """The pipe's private step: framed by :data:`PRIVATE_BEGIN` and :data:`PRIVATE_END`."""
        self.out(PRIVATE_BEGIN if starting else PRIVATE_END)

    def _private(self, text: str) -> None:
        (self.private_out or self.out)(text)

    def _cmd_private(self, args: list[str]) -> None:
        s = self.session
        if not s.secret:
            raise Refused("private", "nothing is private here: Mr. X's stations are not kept (play with --mrx-log)")
        if not s.human_mrx():
            raise Refused("private", "the computer plays Mr. X: his secrets are his own until the end")
        self.in_private = True
        if self.on_private is not None:
            self.on_private(True)
        pos = s.position
        self._private(f"Mr. X, this is for your eyes only. You are at {pos.mrx_at}.")
        if self._secret_reason is not None:
            self._private(f"your last move was refused: {self._secret_reason}")
            self._secret_reason = None
        if s.to_move == MRX:
            self._private("type your move (e.g. 'T 46'), 'moves', 'advise', 'route', or 'done' to hand back")
        else:
            self._private("it is not your turn: 'moves', 'advise', 'route', or 'done' to hand back")

    def _leave_private(self) -> None:
        self.in_private = False
        if self.on_private is not None:
            self.on_private(False)

    def _private_line(self, text: str) -> None:
        s = self.session
        words = text.split()
        head = words[0].lower() if words else ""
        try:
            if not words or head in ("done", "quit", "exit"):
                self._leave_private()
                if head in ("quit", "exit"):
                    self._cmd_quit([])
            elif head == "help":
                self._private("\n".join(f"  {v}" for v in PRIVATE_COMMANDS.values()))
            elif head == "moves":
                self._private(self._mrx_moves())
            elif head == "advise":
                self._private(self._advice(s.position.mrx_at))
            elif head == "route":
                self._private(routes(s.record(), True).splitlines()[0])
            elif head == "tickets":
                self._cmd_tickets([], self._private)
            else:
                entry = _after_first(text) if head in MRX_WORDS else text
                if s.to_move != MRX:
                    raise Refused("turn", f"it is {who(s.to_move)}'s turn")
                self._enter(MRX, entry)
        except Refused as e:
            self._private(f"error: {e.private or e.message} [{e.code}]")
        except SyToolsError as e:
            self._private(f"error: {e}")

    def _mrx_moves(self) -> str:
        from ..analysis.legal import legal_moves

        s = self.session
        if s.to_move != MRX:
            raise Refused("turn", f"it is {who(s.to_move)}'s turn")
        return legal_moves(s.record()).to_text(False)

    # ---- commands ---------------------------------------------------------------------------

    def _count(self, args: list[str], default: int | None) -> int | None:
        if not args:
            return default
        if len(args) == 1 and args[0].isascii() and args[0].isdigit() and int(args[0]) > 0:
            return int(args[0])
        raise Refused("unreadable", f"expected a number, got {' '.join(args)!r}")

    def _cmd_help(self, args: list[str]) -> None:
        self.out(MOVE_HELP + "\ncommands:\n" + "\n".join(f"  {v}" for v in COMMANDS.values()))

    def _cmd_quit(self, args: list[str]) -> None:
        self.finished = True

    def _cmd_undo(self, args: list[str]) -> None:
        s = self.session
        taken = s.undo(self._count(args, 1) or 1)
        if not taken:
            raise Refused("undo", "nothing to undo")
        legs = sum(len(p.mrx) for p in s.plies)  # Mr. X's moves before the earliest ply taken back
        texts = []
        for p in reversed(taken):
            texts.append(p.public_text(s.setup.rules, legs))
            legs += len(p.mrx)
        self.out(f"undone: {'; '.join(reversed(texts))}; {who(s.to_move)} to move")
        self._out_before = frozenset(s.position.out)

    def _cmd_redo(self, args: list[str]) -> None:
        s = self.session
        done = s.redo(self._count(args, 1) or 1)
        if not done:
            raise Refused("redo", "nothing to redo")
        self.out(f"redone: {len(done)} move{'s' if len(done) != 1 else ''}; "
                 + ("the game is over" if s.over else f"{who(s.to_move)} to move"))
        if s.over:
            self._end()
        self._computer()

    def _cmd_tickets(self, args: list[str], out: Callable[[str], None] | None = None) -> None:
        from ..formats.report_text import tickets_left_text

        table = self.session.position.ticket_table()
        table["Mr. X"] = table.pop(MRX)
        (out or self.out)(tickets_left_text(table))

    def _cmd_moves(self, args: list[str]) -> None:
        from ..analysis.legal import legal_moves

        s = self.session
        at = self._count(args, None)
        if s.to_move == MRX and at is None:
            if s.secret:
                raise Refused("private", "Mr. X's moves depend on where he is: 'moves STATION' for any station, "
                                         "or 'private' for his own")
            raise Refused("unreadable", "Mr. X's moves depend on where he is: 'moves STATION'")
        if s.to_move != MRX and at is not None:
            raise Refused("unreadable", f"{s.to_move} is to move: 'moves' takes a station only for Mr. X")
        self.out(legal_moves(s.public(), at).to_text(False))

    def _cmd_possible(self, args: list[str]) -> None:
        from ..analysis.possible import possible

        self.out(possible(self.session.public()).to_text(self._count(args, 10)))

    def _cmd_advise(self, args: list[str]) -> None:
        s = self.session
        if s.over:
            raise Refused("game-over", "the game is over")
        if s.to_move == MRX:
            if s.secret:
                raise Refused("private", "Mr. X's advice is for him alone: 'private', then 'advise'")
            raise Refused("unreadable", "Mr. X's advice needs his station: it is kept only with his log (--mrx-log)")
        self.out(self._advice(None))

    def _advice(self, at: int | None) -> str:
        from ..selfplay.budgets import ADVISE_CANDIDATES
        from ..selfplay.policies import TreeSearch
        from ..solvers.advise import advise_record

        s = self.session
        if at is not None:  # (his hint: the session's, seeded from the game's own secret seed)
            return s.mrx_advice().describe()
        if s.over:
            raise Refused("game-over", "the game is over")
        # (the detectives' advice, on the shared screen, takes nothing from his seed)
        return advise_record(s.public(), top=3, time_limit=s.think, choose=TreeSearch(rng=0),
                             candidates=ADVISE_CANDIDATES).describe()

    def _cmd_solve(self, args: list[str]) -> None:
        from ..solvers.forced import solve_record
        from ..solvers.forced_tree import describe

        self.out(describe(solve_record(self.session.public(), 2, self.session.think)))

    def _cmd_cordon(self, args: list[str]) -> None:
        from ..solvers.cordon import cordon

        self.out(cordon(self.session.public(), 1, time_limit=self.session.think).to_text(False))

    def _cmd_picture(self, args: list[str]) -> None:
        path = args[0] if args else self.picture
        if path is None:
            raise Refused("unreadable", "picture FILE: name the file (e.g. picture possible.png)")
        self._draw(path)
        self.out(f"drawn: {path}")

    def _cmd_history(self, args: list[str]) -> None:
        self.out(history_text(self.session.public()))


def _after_first(text: str) -> str:
    """The line after its first word (a quoted name counts as one word)."""
    text = text.strip()
    if text.startswith('"'):
        end = text.find('"', 1)
        return text[end + 1:] if end > 0 else ""
    parts = text.split(None, 1)
    return parts[1] if len(parts) > 1 else ""


def _looks_like_move(word: str) -> bool:
    """Whether a line's first word starts a move (``T``, ``124``, ``2X``, ``-``)."""
    w = word.upper().rstrip("!")
    return w in ("T", "B", "U", "K", "2X", "-") or (w.isascii() and w.isdigit()) or (
        w[:1] in "TBUK" and w[1:].isdigit())


def run_lines(console: Console, lines: Iterable[str]) -> int:
    """Play ``lines`` (a script, or standard input when it is not a terminal) until the game
    ends, ``quit`` or the lines run out: 0, or 2 when something could not be saved."""
    for line in lines:
        if console.finished:
            break
        console.handle(line)
    return console.exit_code(0)
