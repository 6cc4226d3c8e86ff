"""Feeding a :class:`~sy_tools.play.console.Console` lines from a terminal (prompt_toolkit:
line editing, history, tab completion); :func:`sy_tools.play.run_lines` reads a pipe or file."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from prompt_toolkit.completion import Completer, Completion

from ..engine.hops import MRX
from .console import COMMANDS, Console

#: Exit status after Ctrl-C at the prompt (the shell's convention).
INTERRUPTED = 130


def run_terminal(console: Console, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """An interactive session at a terminal: a prompt saying whose turn it is, line editing,
    history and tab completion of commands, players, tickets and stations.  Mr. X's own
    moves are typed unseen when his log is kept and the table shares the screen.  0 at the
    end of the game, ``quit`` or Ctrl-D; :data:`INTERRUPTED` on Ctrl-C."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    prompt: Any = PromptSession(history=InMemoryHistory(), completer=MoveCompleter(console),
                                complete_while_typing=False)
    s = console.session
    while not console.finished:
        hidden = s.secret and s.computer is None and s.to_move == MRX
        try:
            line = prompt.prompt(console.prompt(), is_password=hidden)
        except KeyboardInterrupt:
            return INTERRUPTED
        except EOFError:
            return 0
        console.handle(line)
    return 0


class MoveCompleter(Completer):  # type: ignore[misc]
    """Tab completion: commands and players first; then tickets and the stations the piece to
    move can reach (every station for Mr. X when his station is not known here)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def get_completions(self, document: Any, complete_event: Any) -> Iterator[Any]:
        before = document.text_before_cursor
        words = before.split()
        current = "" if before.endswith(" ") or not words else words[-1]
        first = not words or (len(words) == 1 and bool(current))
        for word in self.words(first):
            if word.lower().startswith(current.lower()) and word != current:
                yield Completion(word, start_position=-len(current))

    def words(self, first: bool) -> list[str]:
        """The words offered at this point of the line."""
        s = self.console.session
        pos = s.position
        tickets = ["T", "B", "U"] if s.to_move not in (None, MRX) else ["T", "B", "U", "K", "2X", "-"]
        if first:
            return [*COMMANDS, "X", *pos.names, *tickets]
        return tickets + [str(t) for t in self.stations()]

    def stations(self) -> list[int]:
        s = self.console.session
        pos = s.position
        if s.to_move is None:
            return []
        if s.to_move != MRX:
            return sorted({m.to for m in pos.legal_moves() if m.to is not None})
        if pos.mrx_at is not None and s.computer != "mrx":
            return sorted({m.stations[0] for m in pos.legal_moves.singles() if m.stations[0] is not None})
        return sorted(pos.board.stations)
