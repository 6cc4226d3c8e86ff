"""Every move ``advise`` suggests can be typed back at the play prompt (issue 39).

On generated positions (games played on at random through a play session, under the classic
rules and the variants that add move forms), each hint of ``sy-tools advise`` (its text, every
legal move of Mr. X listed) and of the session's own ``advise`` is fed to the session: a move
line verbatim to :meth:`~sy_tools.play.Console.handle` (its ``#`` comment included), the moves
of the summary and of the tree search's note to :meth:`~sy_tools.play.Session.enter`.  Each is
accepted and plays the move it names: the move the JSON of the same advice gives (the CLI), or
the move its words say, read by the small reader below rather than the notation's own (the
session).  Mr. X's advice is his private advice: his hidden stations appear in it as his log
takes them (``X T 46``), and nowhere in the detectives' advice; the session gives it, and takes
his moves, in his private step."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shlex
from pathlib import Path

import pytest

from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import Ticket
from sy_tools.formats.map_load import load_board
from sy_tools.formats.notation import move_entry_text
from sy_tools.play import Console, Session, new_game

RULES = {"classic": PRESETS["classic"],
         "reveal": dataclasses.replace(PRESETS["classic"], name="classic+", voluntary_reveal=True),
         "caught": dataclasses.replace(PRESETS["classic"], name="classic+", mrx_onto_detective="caught")}

LETTER = {"T": Ticket.TAXI, "B": Ticket.BUS, "U": Ticket.UNDERGROUND, "K": Ticket.BLACK}

_DETECTIVE = re.compile(r'(?P<name>"[^"]+"|[A-Za-z][\w.\'-]*) (?P<t>[TBU]) (?P<to>\d+)')
_HOP = re.compile(r"(?P<t>[TBUK]) (?P<to>\d+)(?: show (?P<who>\S+) (?P<took>[TBU]))?")


def words_move(typed: str) -> Move:
    """The move a typed hint says, read by hand (not by the notation's reader, which the session
    uses): ``Red B 107``, ``X T 46``, ``X 2X T 45/K 46``, ``X B 105 show Red B``, ``X -``."""
    if typed == "X -":
        return Move(MRX, (), ())
    if typed.startswith("X "):
        body = typed[2:]
        legs = body[3:].split("/") if body.startswith("2X ") else [body]
        hops = [_HOP.fullmatch(leg) for leg in legs]
        assert all(hops), typed
        shown = next((j for j, h in enumerate(hops) if h and h["who"]), None)
        took = None if shown is None else (hops[shown]["who"], LETTER[hops[shown]["took"]])
        return Move(MRX, tuple(LETTER[h["t"]] for h in hops if h), tuple(int(h["to"]) for h in hops if h), shown, took)
    m = _DETECTIVE.fullmatch(typed)
    assert m, typed
    return Move.detective(m["name"].strip('"'), LETTER[m["t"]], int(m["to"]))


def json_move(d: dict, piece: str) -> Move:
    """The move of an entry of the advice's JSON ``moves``."""
    if piece != MRX:
        return Move.detective(piece, d["ticket"], d["to"])
    took = d.get("took")
    return Move(MRX, tuple(Ticket(t) for t in d["tickets"]), tuple(d["stations"]), d.get("shown"),
                None if took is None else (took["from"], Ticket(took["ticket"])))


def split(typed: str) -> tuple[str, str]:
    """``(piece, entry)`` of a typed move, for :meth:`Session.enter`."""
    piece = shlex.split(typed)[0]
    rest = typed[typed.index('"', 1) + 1:] if typed.startswith('"') else typed.split(" ", 1)[1]
    return (MRX if piece == "X" else piece), rest.strip()


def hints(text: str) -> tuple[list[str], list[str]]:
    """The hint lines of advice text (a move typed, then ``#`` and why), and the moves named
    elsewhere: the summary's and the tree search note's."""
    lines = [ln for ln in text.splitlines() if "  # " in ln and not ln.startswith("#")]
    named: list[str] = []
    for ln in text.splitlines():
        if ln.startswith("Detectives: "):
            named += ln[len("Detectives: "):].split(": ", 1)[0].split(", ")
        elif ln.startswith("Mr. X: "):
            named.append(ln[len("Mr. X: "):].split(" (", 1)[0])
        elif ln.startswith("tree search ("):
            named += re.findall(r"(?:chose|would play|next) (X .+?)(?::|,) (?:it scores|which scores|the one)", ln)
            named += re.findall(r"; next (X .+?) scores", ln)
    return lines, named


def same_result(before: Position, after: Position, move: Move) -> bool:
    """Whether ``after`` is ``before`` with ``move`` played (stations, tickets, the end)."""
    want = before.push(move)
    return (after.stations, after.tickets, after.mrx_tickets, after.mrx_at, after.ended is None) == \
           (want.stations, want.tickets, want.mrx_tickets, want.mrx_at, want.ended is None)


def random_game(tmp_path: Path, seed: int, rules_name: str,
                detectives: list[tuple[str, int]] | None = None) -> Session:
    """A game with Mr. X's log kept (the detectives dealt, or ``detectives``), played on at
    random for a few rounds."""
    rng = random.Random(seed)
    game, log = tmp_path / f"g{seed}.txt", tmp_path / f"g{seed}.mrx.txt"
    session, _ = new_game(str(game), load_board("london"), "london", RULES[rules_name], detectives=detectives,
                          count=None if detectives else rng.randint(2, 5), seed=seed, log=str(log))
    for _ in range(rng.randint(3, 40)):
        play_on(session, rng)
    return session


def play_on(session: Session, rng: random.Random) -> None:
    """A random move that does not end the game, when there is one (single moves mostly)."""
    pos = session.position
    if session.over:
        return
    moves = [m for m in pos.legal_moves if pos.push(m).ended is None] or list(pos.legal_moves)
    singles = [m for m in moves if not m.is_double and m.took is None]
    session.enter(*split(move_entry_text(rng.choice(singles if singles and rng.random() < 0.8 else moves))))


class Table:
    """A console on ``session`` that keeps what it says apart (the table's lines, refusals)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.out: list[str] = []
        self.err: list[str] = []
        self.console = Console(session, self.out.append, self.err.append)

    def type(self, line: str) -> None:
        """Type ``line``: it must be accepted."""
        self.console.handle(line)
        assert not self.err, (line, self.err)

    def advice(self) -> str:
        s = self.session
        if s.to_move == MRX and s.secret:  # his advice is his: asked in his private step
            self.type("private")
            self.out.clear()
            self.type("advise")
            text = "\n".join(self.out)
            self.type("done")
            return text
        self.out.clear()
        self.type("advise")
        return "\n".join(self.out)


def follow(table: Table, typed: list[str], want: list[Move] | None, verbatim: bool) -> int:
    """Type the moves ``typed`` in turn (detectives: each in turn order; Mr. X: each an
    alternative, taken back before the next), checking that each plays the move it names (or
    ``want``'s), then take them back.  How many were played."""
    s = table.session
    played = 0
    for i, line in enumerate(typed):
        if s.over:
            break
        before = s.position
        move = want[i] if want is not None else words_move(line.split("  #")[0].strip())
        if verbatim:
            if move.piece == MRX:  # (his moves are typed in his private step, as at the table)
                table.type("private")
            table.type(line)
        else:
            s.enter(*split(line))
        assert same_result(before, s.position, move), (line, move)
        played += 1
        if move.piece == MRX:
            table.type("undo")
            played -= 1
    if played:
        table.type(f"undo {played}")
    return len(typed)


@pytest.mark.parametrize("seed, rules_name", [(0, "classic"), (1, "classic"), (2, "reveal"), (3, "caught"),
                                              (4, "classic"), (5, "reveal")])
def test_every_hint_of_advise_is_accepted_verbatim_by_the_play_prompt(cli, tmp_path, seed, rules_name):
    rng = random.Random(100 + seed)
    session = random_game(tmp_path, seed, rules_name)
    table = Table(session)
    checked = {"cli": 0, "session": 0, "mrx": 0, "detectives": 0}
    for _ in range(6):
        if session.over:
            break
        pos = session.position
        mrx = pos.turn == 0
        args = ["advise", session.path, "--time-limit", "60", "--seed", "3"]
        # (every move of his listed; under the voluntary reveal, with a ticket to take for each, the first 40)
        top = "40" if rules_name == "reveal" else "300"
        args += ["--at", str(pos.mrx_at), "--top", top, "--playouts", "30"] if mrx else []
        text = cli(*args)
        assert text.exit_code == 0, text.output
        doc = json.loads(cli(*args, "--format", "json").output)
        lines, named = hints(text.output)
        assert [ln.split("  #")[0].strip() for ln in lines] == [m["entry"] for m in doc["moves"] if m.get("entry")]
        wanted = [json_move(m, MRX if mrx else m["name"]) for m in doc["moves"] if m.get("entry") or mrx]
        checked["cli"] += follow(table, lines, wanted, verbatim=True)
        assert named and all(n in [ln.split("  #")[0].strip() for ln in lines] for n in named), named
        checked["cli"] += follow(table, named, None, verbatim=False)
        own = table.advice()
        lines, named = hints(own)
        assert lines and named, own
        checked["session"] += follow(table, lines, None, verbatim=True) + follow(table, named, None, verbatim=False)
        checked["mrx" if mrx else "detectives"] += 1
        play_on(session, rng)
    assert checked["cli"] and checked["session"] and checked["mrx"] and checked["detectives"], checked


def test_the_words_of_every_kind_of_move_are_read_back_by_the_session(tmp_path):
    """:func:`move_entry_text` writes each kind of move so the session plays it: a detective's
    move, Mr. X's hidden and reveal moves, a black ticket, a double move, a voluntary reveal."""
    def kind(move: Move) -> tuple[object, ...]:
        return (move.piece == MRX, move.is_double, move.shown, move.tickets[0])

    seen: set[str] = set()
    for seed in range(4):
        session = random_game(tmp_path, 50 + seed, "reveal")
        for _ in range(10):
            if session.over:
                break
            pos = session.position
            for move in {kind(m): m for m in pos.legal_moves}.values():  # (one of each kind here)
                typed = move_entry_text(move)
                session.enter(*split(typed))
                assert same_result(pos, session.position, move), typed
                assert words_move(typed) == move, typed
                session.undo(1)
                seen.add("detective" if move.piece != MRX else "double" if move.is_double else
                         "reveal" if move.took else "black" if move.tickets[0] is Ticket.BLACK else "mrx")
            play_on(session, random.Random(seed))
    assert seen >= {"detective", "mrx", "double", "black", "reveal"}, seen


def test_a_detective_name_with_spaces_is_quoted_so_the_prompt_reads_it(cli, tmp_path):
    session = random_game(tmp_path, 7, "classic", [("Inspector Lestrade", 13), ("Dr Watson", 29)])
    table = Table(session)
    checked = 0
    for _ in range(4):
        if session.over:
            break
        if session.position.turn:
            text = cli("advise", session.path, "--time-limit", "60").output
            for own in (text, table.advice()):
                lines, named = hints(own)
                assert lines and all(ln.startswith('"') for ln in lines), own
                checked += follow(table, lines, None, verbatim=True) + follow(table, named, None, verbatim=False)
        play_on(session, random.Random(1))
    assert checked
