"""The commands of a ``play`` session: one typed line in, what the table reads out.

:class:`Console` reads a line (a move, or a command such as ``undo`` or ``possible``), acts on
its :class:`~sy_tools.play.session.Session` and writes to ``out`` (what everyone reads) and
``err`` (refusals and errors); the terminal or the script around it only feeds it lines."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..engine.hops import MRX
from ..errors import SyToolsError
from .report import history_text, round_block, routes, who
from .session import Ply, Refused, Session

#: The session's commands and what each does (``help`` prints them; tab completion offers them).
COMMANDS: dict[str, str] = {
    "undo": "undo [N]: take back the last move (N moves)",
    "redo": "redo [N]: play again a move taken back",
    "tickets": "tickets: every player's tickets left",
    "moves": "moves [STATION]: the legal moves of the piece to move (Mr. X's from STATION or his log)",
    "possible": "possible [N]: where Mr. X may be, the N most likely first (default 10)",
    "advise": "advise: what the side to move should do, and why",
    "solve": "solve: can the detectives force a capture within two turns?",
    "cordon": "cordon: the smallest trap around his possible stations this turn",
    "picture": "picture [FILE]: draw where Mr. X may be (a .png, .svg or .pdf)",
    "history": "history: the moves so far, round by round",
    "help": "help: this list",
    "quit": "quit: stop here (the record is saved after every move; resume with the same command)",
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


@dataclass
class Console:
    """Runs typed lines against ``session``; ``picture`` is the heatmap refreshed after every
    round (None: only on request)."""

    session: Session
    out: Callable[[str], None]
    err: Callable[[str], None]
    picture: str | None = None
    finished: bool = False
    _out_before: frozenset[str] = field(default_factory=frozenset)

    # ---- the session's life -----------------------------------------------------------------

    def start(self, notes: list[str] | None = None) -> None:
        """Greet the table: notes about the set-up, the position, and the computer's move if it
        is to move (also on resume)."""
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

    def prompt(self) -> str:
        """Whose turn it is, for the prompt."""
        s = self.session
        if s.over:
            return "game over> "
        return f"{who(s.to_move)} to move (round {max(1, s.position.round + (s.to_move == MRX))})> "

    def handle(self, line: str) -> None:
        """Act on one typed line."""
        text = _COMMENT.sub("", line).strip()
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
            elif head == "exit":
                self._cmd_quit([])
            else:
                self._move(text, words)
        except Refused as e:
            self.err(f"error: {e.message} [{e.code}]")
        except SyToolsError as e:
            self.err(f"error: {e}")

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
        before = s.position.move
        ply = s.enter(piece, entry)
        self._played(ply, before)
        self._computer()

    def _computer(self) -> None:
        s = self.session
        while not s.over and s.computer_to_move():
            before = s.position.move
            self._played(s.computer_move(), before)

    def _played(self, ply: Ply, moves_before: int) -> None:
        s = self.session
        self.out(ply.public_text(s.setup.rules, moves_before))
        pos = s.position
        for name in sorted(pos.out - self._out_before):
            self.out(f"{name} has no move left: out for the rest of the game")
        self._out_before = frozenset(pos.out)
        if s.over:
            self._end()
        elif s.to_move == MRX and ply.piece != MRX:
            self.out(round_block(s.public()))
            self._refresh_picture()

    def _end(self) -> None:
        s = self.session
        if s.computer is not None or s.secret:
            self.out(routes(s.record(), s.secret))
        self.out(s.status_line())
        self._refresh_picture()
        self.finished = True

    def _refresh_picture(self) -> None:
        if self.picture is not None:
            self._draw(self.picture)

    def _draw(self, path: str) -> None:
        from .. import plot

        plot.save(plot.possible_figure(self.session.public()), path)

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
        self.out(f"undone: {'; '.join(p.public_text(s.setup.rules, 0) for p in taken)}; {who(s.to_move)} to move")
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

    def _cmd_tickets(self, args: list[str]) -> None:
        from ..formats.report_text import tickets_left_text

        table = self.session.position.ticket_table()
        table["Mr. X"] = table.pop(MRX)
        self.out(tickets_left_text(table))

    def _cmd_moves(self, args: list[str]) -> None:
        from ..analysis.legal import legal_moves

        s = self.session
        at = self._count(args, None)
        if s.to_move == MRX and at is None and not s.secret:
            raise Refused("unreadable", "Mr. X's moves depend on where he is: 'moves STATION'")
        if s.to_move == MRX and s.computer == "mrx":
            raise Refused("secret", "the computer's Mr. X keeps his moves to himself")
        record = s.record() if s.to_move == MRX and at is None else s.public()
        self.out(legal_moves(record, at).to_text(False))

    def _cmd_possible(self, args: list[str]) -> None:
        from ..analysis.possible import possible

        self.out(possible(self.session.public()).to_text(self._count(args, 10)))

    def _cmd_advise(self, args: list[str]) -> None:
        from ..selfplay.budgets import ADVISE_CANDIDATES
        from ..selfplay.policies import TreeSearch
        from ..solvers.advise import advise_record

        s = self.session
        if s.over:
            raise Refused("game-over", "the game is over")
        at = s.position.mrx_at if s.to_move == MRX else None
        if s.to_move == MRX and at is None:
            raise Refused("unreadable", "Mr. X's advice needs his station: it is kept only with his log (--mrx-log)")
        # Mr. X's hint is `sy-tools advise`'s (its tree search seeded from the game's seed)
        self.out(advise_record(s.public(), at=at, top=3, time_limit=s.think, choose=TreeSearch(rng=s.seed),
                               candidates=ADVISE_CANDIDATES).describe())

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
    ends, ``quit`` or the lines run out: 0 (the record is saved after every move)."""
    for line in lines:
        if console.finished:
            break
        console.handle(line)
    return 0
