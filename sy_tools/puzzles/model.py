"""A puzzle and the puzzle file (docs/puzzles.md, "The puzzle file").

A :class:`Puzzle` is a position as the detectives know it (their stations and tickets, who is
out, Mr. X's possible stations and tickets, the move number and the double moves he used), the
number of turns within which they force a capture, the unique solution line with Mr. X's best
replies, the themes the proof shows, where it came from and its rating.  A puzzle file is one
JSON document holding a list of puzzles (:func:`read_puzzles`, :func:`write_puzzles`: written
atomically, in a stable key order); each puzzle also carries its position in one line of text
(:meth:`Puzzle.text`)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.position import Position
from ..engine.rules import Rules, rules_from_json
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_KINDS, TICKET_KINDS, TICKET_LETTERS, Ticket, Tickets
from ..errors import InputError
from .prove import Belief, LineStep

#: The ``format`` value of a puzzle file, and its version.
FILE_FORMAT = "sy-tools puzzles"
FILE_VERSION = 1
#: keys of which a bare puzzle object (a file holding one puzzle) has at least one
_PUZZLE_KEYS = frozenset({"possible", "turns", "solution", "mrx_tickets"})

#: Puzzle kinds: the detectives force a capture; Mr. X survives (:mod:`sy_tools.puzzles.survive`).
KINDS = ("capture", "survive")


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating (:mod:`sy_tools.puzzles.rate`): value, deviation, volatility, attempts."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    attempts: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"rating": round(self.rating, 1), "rd": round(self.rd, 1), "volatility": round(self.volatility, 6),
                "attempts": self.attempts}


@dataclass(frozen=True)
class Step:
    """One detectives' turn of a solution: their moves, how it ends (``caught``, ``trapped``
    or None), whether it is trivial (Mr. X known at one station, a detective next to it: any
    capture is right there), and Mr. X's best reply after it (None when the turn ends it)."""

    moves: tuple[Move, ...]
    end: str | None = None
    trivial: bool = False
    reply_tickets: tuple[Ticket, ...] = ()
    reply_shown: tuple[Station | None, ...] = ()
    reply_possible: tuple[Station, ...] = ()
    replies: int = 0
    #: a survival puzzle's step: ``moves`` is Mr. X's move, ``trivial`` says it was forced (his
    #: only move), ``choices`` counts his solutions and ``reply_moves`` is the detectives'
    #: strongest reply (``replies``: how many joint replies they had)
    reply_moves: tuple[Move, ...] = ()
    choices: int = 0

    @property
    def has_reply(self) -> bool:
        return self.end is None and not self.trivial

    @property
    def is_survival(self) -> bool:
        return bool(self.moves) and self.moves[0].piece == MRX

    def survival_dict(self) -> dict[str, Any]:
        m = self.moves[0]
        d: dict[str, Any] = {"moves": [{"piece": MRX, "tickets": [t.value for t in m.tickets],
                                        "stations": list(m.stations)}],
                             "forced": self.trivial, "choices": self.choices}
        if self.reply_moves or self.replies:
            d["reply"] = {"moves": [{"piece": r.piece, "ticket": r.tickets[0].value, "to": r.to}
                                    for r in self.reply_moves], "replies": self.replies}
        return d

    def reply_text(self) -> str:
        """``bus``, ``2X taxi/black``, ``underground at 46`` (a reveal)."""
        if not self.reply_tickets:
            return "a pass"
        legs = [t.value + (f" at {s}" if s is not None else "") for t, s in zip(self.reply_tickets, self.reply_shown)]
        return ("2X " if len(legs) == 2 else "") + "/".join(legs)

    def to_dict(self) -> dict[str, Any]:
        if self.is_survival:
            return self.survival_dict()
        d: dict[str, Any] = {"moves": [{"piece": m.piece, "ticket": m.tickets[0].value, "to": m.to} for m in self.moves],
                             "end": self.end, "trivial": self.trivial}
        if self.has_reply:
            d["reply"] = {"tickets": [t.value for t in self.reply_tickets], "shown": list(self.reply_shown),
                          "possible": list(self.reply_possible), "replies": self.replies}
        return d


@dataclass(frozen=True)
class Puzzle:
    """A puzzle (see the module docstring); :meth:`position` and :meth:`possible` give the
    engine's position and Mr. X's possible set.  A ``survive`` puzzle is Mr. X's: he is to move
    at ``possible[0]`` (his station, known to him and, in the worst case, to them) and survives
    ``turns`` turns with one move only (:mod:`sy_tools.puzzles.survive`)."""

    map: str
    rules: Rules
    detectives: tuple[tuple[str, Station, Tickets], ...]
    out: tuple[str, ...]
    possible: tuple[Station, ...]
    mrx_tickets: Tickets
    move_number: int
    round: int
    doubles_used: int
    turns: int
    solution: tuple[Step, ...]
    kind: str = "capture"
    themes: tuple[str, ...] = ()
    source: str = ""
    rating: Rating | None = None
    board: Board | None = field(default=None, compare=False, repr=False)

    # ---- the position -------------------------------------------------------------------------

    def get_board(self) -> Board:
        if self.board is not None:
            return self.board
        from ..formats.map_load import load_board

        return load_board(self.map)

    @property
    def survival(self) -> bool:
        return self.kind == "survive"

    def position(self) -> Position:
        """The engine's position: the first detective that can move is to move, Mr. X's station
        unknown (a survival puzzle: Mr. X to move at his station)."""
        board = self.get_board()
        names = tuple(n for n, _, _ in self.detectives)
        if self.survival:
            return Position(board, self.rules, names, tuple(s for _, s, _ in self.detectives),
                            tuple(t for _, _, t in self.detectives), frozenset(self.out), self.mrx_tickets,
                            self.possible[0], self.move_number, self.round, self.doubles_used, 0)
        pos = Position(board, self.rules, names, tuple(s for _, s, _ in self.detectives),
                       tuple(t for _, _, t in self.detectives), frozenset(self.out), self.mrx_tickets, None,
                       self.move_number, self.round, self.doubles_used, 1)
        i = 0
        while i < len(names) and (names[i] in self.out or not pos.detective_moves(names[i])):
            i += 1
        return pos if i == 0 or i == len(names) else Position(
            board, self.rules, names, pos.stations, pos.tickets, pos.out, pos.mrx_tickets, None, pos.move, pos.round,
            pos.doubles, i + 1)

    @property
    def possible_mask(self) -> StationMask:
        return mask_of(self.possible)

    def belief(self) -> Belief:
        from .prove import belief_of

        return belief_of(self.position(), self.possible_mask)

    @property
    def id(self) -> str:
        """A short name that depends on the position alone (equal positions, equal ids)."""
        return "p" + hashlib.sha256(repr(self.key()).encode()).hexdigest()[:10]

    def key(self) -> tuple[Any, ...]:
        """The position's identity: equal keys are the same puzzle (the detectives' names do
        not matter, their order and tickets do)."""
        return (self.map, json.dumps(self.rules.to_record(), sort_keys=True),
                tuple((s, tuple(t.to_dict(DETECTIVE_KINDS).values()), n in self.out) for n, s, t in self.detectives),
                self.possible, tuple(self.mrx_tickets.to_dict().values()), self.move_number, self.doubles_used) + (
            ("survive",) if self.survival else ())

    def question(self) -> str:
        """The puzzle in one line."""
        n = self.turns
        if self.survival:
            return (f"Mr. X to move (at {self.possible[0]}): survive {n} turn{'s' if n != 1 else ''}, whatever the "
                    "detectives do.")
        where = (f"Mr. X is at {self.possible[0]}" if len(self.possible) == 1
                 else f"Mr. X may be at {len(self.possible)} stations")
        return (f"Detectives to move ({where}): catch him within {n} turn{'s' if n != 1 else ''}, whatever he "
                "does.")

    def text(self) -> str:
        """The position in one line of text: map, rules, move number, Mr. X's possible stations
        and tickets, each detective's station and tickets (``*``: out), the goal."""
        def counts(t: Tickets, kinds: Sequence[str]) -> str:
            return " ".join(f"{_LETTER[k]}{t[k]}" for k in kinds)

        rules = self.rules.to_record()
        dets = ", ".join(f"{n}{'*' if n in self.out else ''} {s} ({counts(t, DETECTIVE_KINDS)})"
                         for n, s, t in self.detectives)
        head = f"map {self.map}; rules {rules if isinstance(rules, str) else json.dumps(rules, sort_keys=True)}; "
        if self.survival:
            return (head + f"move {self.move_number}; X {self.possible[0]} ({counts(self.mrx_tickets, TICKET_KINDS)}); "
                    f"{dets}; Mr. X to move; survive {self.turns}")
        return (head + f"move {self.move_number}; X? {' '.join(map(str, self.possible))} "
                f"({counts(self.mrx_tickets, TICKET_KINDS)}); {dets}; detectives to move; capture in {self.turns}")

    # ---- the file form ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (docs/puzzles.md)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "turns": self.turns,
            "question": self.question(),
            "map": self.map,
            "rules": self.rules.to_record(),
            "move_number": self.move_number,
            "round": self.round,
            "doubles_used": self.doubles_used,
            "to_move": "mrx" if self.survival else "detectives",
            "detectives": [{"name": n, "station": s, "tickets": t.to_dict(DETECTIVE_KINDS), "out": n in self.out}
                           for n, s, t in self.detectives],
            "possible": list(self.possible),
            "mrx_tickets": self.mrx_tickets.to_dict(),
            "solution": [s.to_dict() for s in self.solution],
            "themes": list(self.themes),
            "text": self.text(),
            "source": self.source,
            "rating": None if self.rating is None else self.rating.to_dict(),
        }

    def with_rating(self, rating: Rating | None) -> Puzzle:
        return replace(self, rating=rating)


_LETTER = {**{str(t): letter for t, letter in TICKET_LETTERS.items()}, "double": "2X"}


def steps_of(line: Sequence[LineStep]) -> tuple[Step, ...]:
    """A prover's line as the file's solution steps."""
    out = []
    for st in line:
        r = st.reply
        out.append(Step(st.joint.moves, st.joint.end, st.trivial,
                        r.tickets if r else (), r.shown if r else (),
                        tuple(stations_of(r.after.possible)) if r else (), st.replies))
    return tuple(out)


# ---- reading -------------------------------------------------------------------------------------

class _Bad(Exception):
    pass


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise _Bad(what)


def _int(v: Any, what: str, low: int = 0) -> int:
    _need(isinstance(v, int) and not isinstance(v, bool) and v >= low, f"{what}: expected an integer >= {low}, "
          f"got {json.dumps(v)[:40] if _jsonable(v) else type(v).__name__}")
    return int(v)


def _bool(v: Any, what: str) -> bool:
    _need(isinstance(v, bool),
          f"{what}: expected true or false, got {json.dumps(v)[:40] if _jsonable(v) else type(v).__name__}")
    return bool(v)


def _jsonable(v: Any) -> bool:
    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


def _counts(v: Any, kinds: Sequence[str], what: str) -> Tickets:
    _need(isinstance(v, dict), f"{what}: expected an object of ticket counts")
    unknown = [k for k in v if k not in kinds]
    _need(not unknown, f"{what}: unknown ticket kind {unknown[:1]}")
    return Tickets.of({k: _int(v.get(k, 0), f"{what}.{k}") for k in kinds})


def puzzle_from_dict(d: Any, where: str = "puzzle", board: Board | None = None) -> Puzzle:
    """A puzzle from its JSON form; :class:`InputError` naming the field otherwise.  The
    solution is read as written (``puzzle check`` proves it)."""
    try:
        return _from_dict(d, where, board)
    except _Bad as e:
        # "turns: expected ..." -> where "puzzles[0].turns", as the JSON path is written elsewhere
        field, sep, detail = str(e).partition(": ")
        if sep and field and not re.search(r"\s", field):
            raise InputError(detail, where=f"{where}.{field}") from None
        raise InputError(str(e), where=where) from None


def _from_dict(d: Any, where: str, board: Board | None) -> Puzzle:
    _need(isinstance(d, dict), "expected a JSON object")
    kind = d.get("kind", "capture")
    _need(kind in KINDS, f"kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    map_name = d.get("map", "london")
    _need(isinstance(map_name, str) and bool(map_name), "map: expected a map name")
    rules = rules_from_json(d.get("rules"), where + ".rules")
    if board is None:
        from ..formats.map_load import load_board

        board = load_board(map_name)
    dets_raw = d.get("detectives")
    _need(isinstance(dets_raw, list) and 1 <= len(dets_raw) <= 5, "detectives: expected a list of 1 to 5")
    dets = []
    out = []
    for i, x in enumerate(dets_raw):
        _need(isinstance(x, dict), f"detectives[{i}]: expected an object")
        name = x.get("name")
        _need(isinstance(name, str) and bool(name.strip()), f"detectives[{i}].name: expected a name")
        s = _int(x.get("station"), f"detectives[{i}].station", 1)
        _need(s in board, f"detectives[{i}].station: {s} is not on the map {board.name!r}")
        dets.append((name, s, _counts(x.get("tickets", dict(rules.detective_tickets)), DETECTIVE_KINDS,
                                      f"detectives[{i}].tickets")))
        if _bool(x.get("out", False), f"detectives[{i}].out"):
            out.append(name)
    _need(len({n for n, _, _ in dets}) == len(dets), "detectives: two share a name")
    _need(len({s for _, s, _ in dets}) == len(dets), "detectives: two share a station")
    possible_raw = d.get("possible")
    _need(isinstance(possible_raw, list) and bool(possible_raw), "possible: expected a non-empty list of stations")
    possible = tuple(sorted({_int(s, "possible", 1) for s in possible_raw}))
    bad = [s for s in possible if s not in board or s in {t for _, t, _ in dets}]
    _need(not bad, f"possible: station {bad[:1]} is not on the map or holds a detective")
    _need(kind != "survive" or len(possible) == 1, "possible: a survive puzzle has Mr. X at one station")
    mt = _counts(d.get("mrx_tickets"), TICKET_KINDS, "mrx_tickets")
    move = _int(d.get("move_number", 0), "move_number")
    _need(move < rules.log_length, f"move_number: expected less than {rules.log_length}")
    turns = _int(d.get("turns"), "turns", 1)
    _need(turns <= 6, "turns: expected at most 6")
    sol_raw = d.get("solution", [])
    _need(isinstance(sol_raw, list), "solution: expected a list")
    steps = []
    names = {n for n, _, _ in dets}
    for i, st in enumerate(sol_raw):
        w = f"solution[{i}]"
        _need(isinstance(st, dict) and isinstance(st.get("moves"), list), f"{w}: expected an object with moves")
        if kind == "survive":
            steps.append(_survival_step(st, w, names))
            continue
        moves = []
        for j, m in enumerate(st["moves"]):
            _need(isinstance(m, dict) and m.get("piece") in names, f"{w}.moves[{j}]: expected a detective's move")
            _need(m.get("ticket") in DETECTIVE_KINDS, f"{w}.moves[{j}].ticket: expected taxi, bus or underground")
            moves.append(Move.detective(m["piece"], m["ticket"], _int(m.get("to"), f"{w}.moves[{j}].to", 1)))
        end = st.get("end")
        _need(end in (None, "caught", "trapped"), f"{w}.end: expected caught, trapped or null")
        reply = st.get("reply") or {}
        _need(isinstance(reply, dict), f"{w}.reply: expected an object")
        tks = reply.get("tickets", [])
        _need(isinstance(tks, list) and all(t in TICKET_KINDS[:4] for t in tks), f"{w}.reply.tickets: bad ticket")
        shown = reply.get("shown", [None] * len(tks))
        _need(isinstance(shown, list) and len(shown) == len(tks), f"{w}.reply.shown: one entry per ticket")
        poss = reply.get("possible", [])
        _need(isinstance(poss, list), f"{w}.reply.possible: expected a list")
        steps.append(Step(tuple(moves), end, _bool(st.get("trivial", False), f"{w}.trivial"), tuple(Ticket(t) for t in tks),
                          tuple(None if s is None else _int(s, f"{w}.reply.shown", 1) for s in shown),
                          tuple(_int(s, f"{w}.reply.possible", 1) for s in poss),
                          _int(reply.get("replies", 0), f"{w}.reply.replies")))
    rating = None
    if d.get("rating") is not None:
        r = d["rating"]
        _need(isinstance(r, dict), "rating: expected an object or null")
        try:
            rating = Rating(float(r.get("rating", 1500)), float(r.get("rd", 350)), float(r.get("volatility", 0.06)),
                            _int(r.get("attempts", 0), "rating.attempts"))
        except (TypeError, ValueError):
            raise _Bad("rating: expected numbers") from None
        _need(all(math.isfinite(v) for v in (rating.rating, rating.rd, rating.volatility)),
              "rating: expected finite numbers")
    themes = d.get("themes", [])
    _need(isinstance(themes, list) and all(isinstance(t, str) for t in themes), "themes: expected a list of words")
    source = d.get("source", "")
    _need(isinstance(source, str), "source: expected text")
    return Puzzle(map_name, rules, tuple(dets), tuple(out), possible, mt, move,
                  _int(d.get("round", max(move, 1)), "round"), _int(d.get("doubles_used", 0), "doubles_used"),
                  turns, tuple(steps), kind, tuple(themes), source, rating, board)


def _survival_step(st: dict[str, Any], w: str, names: set[str]) -> Step:
    raw = st["moves"]
    _need(len(raw) == 1 and isinstance(raw[0], dict), f"{w}.moves: expected Mr. X's one move")
    tks, sts = raw[0].get("tickets"), raw[0].get("stations")
    _need(isinstance(tks, list) and 1 <= len(tks) <= 2 and all(t in TICKET_KINDS[:4] for t in tks),
          f"{w}.moves[0].tickets: expected one or two of taxi, bus, underground, black")
    _need(isinstance(sts, list) and len(sts) == len(tks), f"{w}.moves[0].stations: one station per ticket")
    move = Move(MRX, tuple(Ticket(t) for t in tks), tuple(_int(x, f"{w}.moves[0].stations", 1) for x in sts))
    reply = st.get("reply") or {}
    _need(isinstance(reply, dict) and isinstance(reply.get("moves", []), list), f"{w}.reply: expected an object")
    rmoves = []
    for j, m in enumerate(reply.get("moves", [])):
        _need(isinstance(m, dict) and m.get("piece") in names, f"{w}.reply.moves[{j}]: expected a detective's move")
        _need(m.get("ticket") in DETECTIVE_KINDS, f"{w}.reply.moves[{j}].ticket: expected taxi, bus or underground")
        rmoves.append(Move.detective(m["piece"], m["ticket"], _int(m.get("to"), f"{w}.reply.moves[{j}].to", 1)))
    return Step((move,), None, _bool(st.get("forced", False), f"{w}.forced"), replies=_int(reply.get("replies", 0), f"{w}.reply.replies"),
                reply_moves=tuple(rmoves), choices=_int(st.get("choices", 0), f"{w}.choices"))


def read_puzzles(path: str | os.PathLike[str]) -> list[Puzzle]:
    """The puzzles of a puzzle file (a missing file is an :class:`InputError`).  A file may
    hold the collection (``{"format": "sy-tools puzzles", "puzzles": [...]}``) or one puzzle."""
    from ..formats.files import read_text
    from ..formats.map_load import load_board

    name = os.fspath(path)
    text = read_text(name)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON (line {e.lineno}, column {e.colno}: {e.msg})", file=name) from None
    if isinstance(doc, dict) and "puzzles" in doc:
        fmt, version = doc.get("format", FILE_FORMAT), doc.get("version", FILE_VERSION)
        if fmt != FILE_FORMAT:
            raise InputError(f"expected {FILE_FORMAT!r}, got {json.dumps(fmt)[:40]}", file=name, where="format")
        if not (isinstance(version, int) and not isinstance(version, bool) and 1 <= version <= FILE_VERSION):
            raise InputError(f"expected {FILE_VERSION} (the puzzle file version this sy-tools reads), got "
                             f"{json.dumps(version)[:40]}", file=name, where="version")
        items = doc["puzzles"]
    elif isinstance(doc, dict) and _PUZZLE_KEYS & doc.keys():
        items = [doc]
    else:  # a game record, a map, a list...: say so rather than name a field it lacks
        raise InputError(f"not a puzzle file (expected {{\"format\": \"{FILE_FORMAT}\", \"puzzles\": [...]}} or "
                         "one puzzle object)", file=name)
    if not isinstance(items, list):
        raise InputError("puzzles: expected a list", file=name)
    boards: dict[str, Board] = {}
    out = []
    for i, d in enumerate(items):
        m = d.get("map", "london") if isinstance(d, dict) else "london"
        if isinstance(m, str) and m not in boards:
            try:
                boards[m] = load_board(m)
            except InputError as e:
                raise InputError(f"puzzles[{i}].map: {e.detail}", file=name) from None
        try:
            out.append(puzzle_from_dict(d, f"puzzles[{i}]", boards.get(m) if isinstance(m, str) else None))
        except InputError as e:
            raise InputError(e.detail, file=name, where=e.where) from None
    first: dict[str, int] = {}
    for i, p in enumerate(out):  # two copies would make --id ambiguous and count twice in a book
        j = first.setdefault(p.id, i)
        if j != i:
            raise InputError(f"the same puzzle ({p.id}) as puzzles[{j}]", file=name, where=f"puzzles[{i}]")
    return out


def puzzles_document(puzzles: Iterable[Puzzle]) -> dict[str, Any]:
    """The JSON document of a puzzle file."""
    return {"format": FILE_FORMAT, "version": FILE_VERSION, "puzzles": [p.to_dict() for p in puzzles]}


def write_puzzles(path: str | os.PathLike[str], puzzles: Iterable[Puzzle]) -> None:
    """Write a puzzle file atomically (the whole file, so an interrupted run leaves the last
    complete one)."""
    from ..formats.files import atomic_write_text

    atomic_write_text(path, json.dumps(puzzles_document(puzzles), indent=1, ensure_ascii=False) + "\n")


def position_lines(puzzle: Puzzle) -> list[str]:
    """The position as a player reads it: the question, the detectives, Mr. X's tickets."""
    from ..formats.report_text import plural

    if puzzle.survival:
        tick = ", ".join(f"{_LETTER[k]} {v}" for k, v in puzzle.mrx_tickets.to_dict().items())
        dets = ", ".join(f"{n} {s} ({' '.join(f'{_LETTER[k]}{t[k]}' for k in DETECTIVE_KINDS)})"
                         + (" (out)" if n in puzzle.out else "") for n, s, t in puzzle.detectives)
        return [f"{puzzle.id}: {puzzle.question()}",
                f"Mr. X is at {puzzle.possible[0]}; his tickets: {tick}; he has made {puzzle.move_number} moves "
                f"({puzzle.doubles_used} double)",
                f"detectives (in turn order): {dets}"]
    dets = ", ".join(f"{n} {s}" + (" (out)" if n in puzzle.out else "") for n, s, _ in puzzle.detectives)
    nxt = puzzle.rules.next_reveal(puzzle.move_number)
    reveal = f"; he shows himself after move {nxt}" if nxt is not None else ""
    tick = ", ".join(f"{_LETTER[k]} {v}" for k, v in puzzle.mrx_tickets.to_dict().items())
    where = (f"Mr. X is at {puzzle.possible[0]}" if len(puzzle.possible) == 1 else
             f"Mr. X may be at {plural(len(puzzle.possible), 'station')}: {' '.join(map(str, puzzle.possible))}")
    return [f"{puzzle.id}: {puzzle.question()}",
            f"{where}; his tickets: {tick}; he has made {puzzle.move_number} moves{reveal}",
            f"detectives (in turn order): {dets}"]


def solution_lines(puzzle: Puzzle) -> list[str]:
    """The solution step by step: each turn's joint move, then Mr. X's best reply."""
    from .prove import moves_text

    where = {n: s for n, s, _ in puzzle.detectives}
    out = []
    if puzzle.survival:
        return survival_solution_lines(puzzle)
    for i, st in enumerate(puzzle.solution, 1):
        end = {"caught": ": caught", "trapped": ": he cannot move (trapped)"}.get(st.end or "", "")
        note = " (any capture: he is found)" if st.trivial else ""
        out.append(f"turn {i}: {moves_text(st.moves, where)}{end}{note}")
        if st.has_reply:
            others = f"; of his {st.replies} replies none lasts longer" if st.replies > 1 else ""
            out.append(f"  Mr. X's best reply: {st.reply_text()} (then at "
                       f"{' '.join(map(str, st.reply_possible))}){others}")
    if puzzle.themes:
        out.append("themes: " + ", ".join(puzzle.themes))
    return out


def survival_steps_of(line: Sequence[Any]) -> tuple[Step, ...]:
    """A survival prover's line (:class:`~sy_tools.puzzles.survive.SurviveStep` s) as the file's
    solution steps."""
    return tuple(Step((st.move,), None, st.forced, replies=st.replies, reply_moves=tuple(st.reply or ()),
                      choices=st.solutions) for st in line)


def mrx_move_text(move: Move, at: Station) -> str:
    """``Mr. X 45 -T-> 46`` or ``Mr. X 45 -2X T/K-> 46 -> 47``."""
    letters = "/".join(TICKET_LETTERS[t] for t in move.tickets)
    path = " -> ".join(str(s) for s in move.stations)
    return f"Mr. X {at} -{'2X ' if move.is_double else ''}{letters}-> {path}"


def survival_solution_lines(puzzle: Puzzle) -> list[str]:
    """A survival puzzle's solution step by step: his one surviving move, then the detectives'
    strongest reply."""
    from .prove import moves_text

    where = {n: s for n, s, _ in puzzle.detectives}
    at = puzzle.possible[0]
    out = []
    left = puzzle.turns
    for i, st in enumerate(puzzle.solution, 1):
        m = st.moves[0]
        why = ("his only move" if st.trivial else
               f"the only one of his {st.choices} moves that survives {left} turn{'s' if left != 1 else ''}")
        out.append(f"turn {i}: {mrx_move_text(m, at)} ({why})")
        at = m.to if m.to is not None else at
        if st.reply_moves:
            out.append(f"  the detectives' strongest reply (of {st.replies}): {moves_text(st.reply_moves, where)}")
        left -= 1
    if len(puzzle.solution) == puzzle.turns:
        out.append(f"he survives {puzzle.turns} turn{'s' if puzzle.turns != 1 else ''}: no detective can reach him")
    if puzzle.themes:
        out.append("themes: " + ", ".join(puzzle.themes))
    return out
