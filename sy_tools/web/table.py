"""The game behind the web table: what each page may see, and the moves it may make.

:class:`Table` wraps a :class:`~sy_tools.play.session.Session` (the rules, the files, the lock,
the computer) and turns it into JSON payloads:

* :meth:`Table.public_state`: what every table page shows.  It is built from the public record
  (:meth:`Session.public`) alone, so it can never depend on where Mr. X really is: the
  possible stations, the detectives, every player's tickets, the history, the moves of the
  detective to move.
* :meth:`Table.mrx_state`: Mr. X's own page (his station, his route, his legal moves): only
  ever sent behind his token.

Moves carry the :meth:`Table.tag` of the state they were chosen on: a move made on a state the
game has left (another screen moved first) is refused with the code ``stale``, so two screens
entering a move at once get exactly one move taken.  Nothing here is thread-safe: the web app
calls it under one lock.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis.possible import Possible, possible
from ..analysis.referee import check
from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.position import Position
from ..engine.tickets import DETECTIVE_TICKET_KINDS, DETECTIVE_TICKETS, MRX_TICKET_KINDS, TICKET_LETTERS, Ticket
from ..formats.record import Record
from ..formats.record_io import record_text
from ..formats.report_text import plural
from ..play.session import Ply, Refused, Session, plies_of

#: How many turns ahead the table's Solve looks for a forced capture (as ``sy-tools solve``'s default).
SOLVE_TURNS = 2

#: A state's tag (:meth:`Table.tag`): its first hex digits of a hash.
TAG_LENGTH = 16
TAG = re.compile(f"[0-9a-f]{{{TAG_LENGTH}}}")

#: The tickets as the web payloads spell them, and their letters in the notation.
TICKET_NAMES = {t.value: TICKET_LETTERS[t] for t in Ticket}


class WebRefused(Exception):
    """A request the table does not accept: ``code`` (one of the session's codes, ``stale``,
    ``bad-request``, ``forbidden``...), ``message`` for the screen that asked, ``status`` the
    HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass
class _Cached:
    tag: str
    public: dict[str, Any]


def _ticket(word: Any) -> Ticket:
    try:
        return Ticket(word)
    except ValueError:
        raise WebRefused("bad-request", f"unknown ticket {str(word)[:40]!r}: expected one of "
                                        f"{', '.join(t.value for t in Ticket)}", 400) from None


def _station(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1_000_000:
        raise WebRefused("bad-request", f"a station is a number, got {str(value)[:40]!r}", 400)
    return value


def _hop_json(ticket: Ticket, to: int | None, shown: bool = False,
              took: tuple[str, Ticket] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"ticket": ticket.value, "to": to}
    if shown:  # (a voluntary reveal: public, as the station it shows)
        out["shown"] = True
        if took is not None:
            out["took"] = {"from": took[0], "ticket": took[1].value}
    return out


def _mrx_hop_json(m: Any) -> dict[str, Any]:
    return _hop_json(m.ticket, m.to, m.shown, m.took)


def _quoted(name: str) -> str:
    """A detective's name as the notation reads it (quoted when it is not one word)."""
    return name if re.fullmatch(r"[A-Za-z0-9_.'-]+", name) else '"' + name.replace('"', "") + '"'


def history_json(record: Record) -> list[dict[str, Any]]:
    """The rounds of ``record``: Mr. X's hops (a station only where ``record`` holds it) and
    each detective's move."""
    out = []
    for i, rnd in enumerate(record.rounds, 1):
        out.append({"round": i, "mrx": [_mrx_hop_json(m) for m in rnd.mrx],
                    "detectives": [{"name": d.name, "ticket": d.ticket.value, "to": d.to, "capture": d.capture}
                                   for d in rnd.detectives]})
    return out


def _said(plies: Sequence[Ply], rules: Any) -> list[str]:
    """Each turn of ``plies`` (a public record's) as the table hears it."""
    out, moves = [], 0
    for p in plies:
        out.append(p.public_text(rules, moves))
        moves += len(p.mrx)
    return out


class Table:
    """One game served on the web: ``session`` is the game (its lock held by the caller)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.last_action = ""
        #: Why the computer's last move failed (None: it did not): shown on every page until the
        #: computer moves, or a person does.
        self.computer_error: str | None = None
        self._cache: _Cached | None = None
        self._board: dict[str, Any] | None = None

    # ---- what everyone sees -----------------------------------------------------------------

    def public(self) -> Record:
        return self.session.public()

    def tag(self) -> str:
        """A short name of the game as the table sees it: the public record and how many turns
        can be redone (it changes with every move, undo and redo, and is the same after a
        restart: the files are the truth)."""
        s = self.session
        text = (record_text(self.public(), s.path) + f"\nundone {len(s.undone)}\n{s.stopped or ''}\n"
                f"{self.computer_error or ''}")
        return hashlib.sha256(text.encode()).hexdigest()[:TAG_LENGTH]

    def public_state(self) -> dict[str, Any]:
        """The table's view of the game, from the public record only (cached per :meth:`tag`)."""
        tag = self.tag()
        if self._cache is None or self._cache.tag != tag:
            self._cache = _Cached(tag, self._public_state(tag))
        return self._cache.public

    def _public_state(self, tag: str) -> dict[str, Any]:
        s = self.session
        public = self.public()
        result = check(public)
        pos = result.position
        assert pos is not None
        where = possible(public)
        rules = public.rules
        said = _said(plies_of(public), rules)
        state: dict[str, Any] = {
            "tag": tag,
            "game": _name(s.path),
            "status": result.status.describe(),
            "over": pos.outcome.over,
            "winner": pos.outcome.winner,
            "to_move": pos.to_move,
            "round": pos.round,
            "move": pos.move,
            "moment": where.moment_text(),
            "next_reveal": where.next_reveal,
            "moves_to_reveal": where.moves_to_reveal,
            "reveal_moves": list(rules.reveal_moves),
            "last_reveal": None if where.last_reveal is None else
            {"move": where.last_reveal[0], "station": where.last_reveal[1]},
            "detectives": [{"name": n, "at": at, "tickets": tk.to_dict(DETECTIVE_TICKET_KINDS), "out": n in pos.out}
                           for n, at, tk in zip(pos.names, pos.stations, pos.tickets)],
            "mrx": {"tickets": pos.mrx_tickets.to_dict(MRX_TICKET_KINDS)},
            "possible": [[st, round(p, 6)] for st, p in where.ranked()],
            "capture": None if where.capture is None else
            {"station": where.capture.station, "by": where.capture.by, "round": where.capture.round},
            "moves": self._detective_moves(pos),
            "mrx_entry": self._mrx_entry(pos),
            "claim": not s.secret,
            "history": history_json(public),
            "said": said,
            "last": said[-1] if said else "",
            "can_undo": s.can_undo(),
            "can_redo": bool(s.undone),
            "computer": s.computer,
            "level": s.level if s.computer else None,
            "computer_turn": s.computer_to_move(),
            "computer_error": self.computer_error,
            "secret": s.secret,
            "stopped": s.stopped,
        }
        return state

    def _detective_moves(self, pos: Position) -> list[dict[str, Any]]:
        """The detective to move: each station it may reach and the tickets that take it there."""
        who = pos.to_move
        if who is None or who == MRX or who in pos.out:
            return []
        fits: dict[int, list[str]] = {}
        for m in pos.detective_moves(who):
            to = m.stations[0]
            assert to is not None
            fits.setdefault(to, []).append(m.tickets[0].value)
        return [{"to": to, "tickets": ts} for to, ts in sorted(fits.items())]

    def _mrx_entry(self, pos: Position) -> dict[str, Any] | None:
        """In a game without Mr. X's log (e.g. resumed from a ``play`` of people only), the table
        enters his public move when it is his turn: the tickets he holds (``tickets``), whether
        he may use a double move (``double``), which of its hops are reveals (``reveal``: the
        table then names the station he shows), whether the rules let a trapped Mr. X pass, and
        his voluntary reveal where the rules have it (``show``, as on his page).
        None otherwise (his log kept: he moves on his own page; or the computer plays him)."""
        s = self.session
        if s.secret or s.computer in ("mrx", "both") or pos.outcome.over or pos.to_move != MRX:
            return None
        rules = s.setup.rules
        held = pos.mrx_tickets.to_dict(MRX_TICKET_KINDS)
        tickets = [k for k in MRX_TICKET_KINDS if k != "double" and held.get(k, 0) > 0]
        double = held.get("double", 0) > 0 and pos.move + 2 <= rules.log_length
        return {"tickets": tickets, "double": double, "reveal": [rules.is_reveal(pos.move + j) for j in (1, 2)],
                "pass": not rules.trapped_loses, "show": self._show_offer(pos)}

    def board(self) -> dict[str, Any]:
        """The map as the pages draw it (:func:`board_json`)."""
        if self._board is None:
            self._board = board_json(self.session.setup.board)
        return self._board

    # ---- Mr. X's own view -------------------------------------------------------------------

    def mrx_hidden(self) -> bool:
        """Whether Mr. X's secrets are nobody's to see yet: the computer plays him and the game
        is not over (nobody at the table is Mr. X, so his page shows nothing until the end)."""
        s = self.session
        return s.computer in ("mrx", "both") and not s.over

    def mrx_state(self) -> dict[str, Any]:
        """Mr. X's page: the table's view, and his station, route and legal moves (secret)."""
        s = self.session
        state = dict(self.public_state())
        full = s.record()
        pos = s.position
        route = [_mrx_hop_json(m) for rnd in full.rounds for m in rnd.mrx]
        state["mrx"] = {**state["mrx"], "at": pos.mrx_at, "start": full.mrx_start, "route": route}
        state["mrx_history"] = history_json(full)
        singles: dict[int, list[str]] = {}
        doubles: list[list[Any]] = []
        mine = s.secret and s.computer not in ("mrx", "both")
        if mine and pos.to_move == MRX and pos.mrx_at is not None:
            for m in pos.legal_moves:
                if m.shown is not None:
                    continue  # (a voluntary reveal: the same moves, offered below as "show")
                if len(m.tickets) == 1:
                    to = m.stations[0]
                    assert to is not None
                    singles.setdefault(to, []).append(m.tickets[0].value)
                elif len(m.tickets) == 2:
                    doubles.append([m.tickets[0].value, m.stations[0], m.tickets[1].value, m.stations[1]])
        state["mrx_moves"] = {"single": [{"to": to, "tickets": ts} for to, ts in sorted(singles.items())],
                              "double": doubles, "pass": mine and pos.to_move == MRX and _can_pass(pos),
                              "show": self._show_offer(pos) if mine and pos.to_move == MRX else None}
        state["mrx_plays"] = mine
        state["reveal_now"] = bool(pos.to_move == MRX and s.setup.rules.is_reveal(pos.move + 1))
        return state

    def _show_offer(self, pos: Position) -> dict[str, Any] | None:
        """Under ``rules.voluntary_reveal``: after which hops of this move he may show himself
        (``hops``: the first, the second of a double move; not on a fixed reveal) and the tickets
        he may take (``take``: each detective in the game with the kinds it holds); else None."""
        rules = self.session.setup.rules
        if not rules.voluntary_reveal:
            return None
        hops = [not rules.is_reveal(pos.move + j) and pos.move + j <= rules.log_length for j in (1, 2)]
        take = []
        for name, tk in zip(pos.names, pos.tickets):
            kinds = [k.value for k in DETECTIVE_TICKETS if tk[k] > 0]
            if kinds and name not in pos.out:
                take.append({"from": name, "tickets": kinds})
        return {"hops": hops, "take": take} if any(hops) and take else None

    # ---- moves ------------------------------------------------------------------------------

    def _fresh(self, tag: Any) -> None:
        """A move chosen on the state ``tag`` names (None: on the game as it stands) is still the
        player's to make; a tag that is not one (mistyped) is bad input, not a stale move."""
        if tag is not None and not (isinstance(tag, str) and TAG.fullmatch(tag)):
            raise WebRefused("bad-request", f"tag: the state's tag as /api/state gives it (16 hex digits), got "
                                            f"{str(tag)[:40]!r}", 400)
        if tag is not None and tag != self.tag():
            raise WebRefused("stale", "the game has moved on since this screen last looked (another screen was "
                                      f"quicker: {self.public_state()['last'] or 'a change'}): this move is no longer "
                                      "yours to make; look again")

    def _refused(self, e: Refused, mrx: bool) -> WebRefused:
        return WebRefused(e.code, (e.private or e.message) if mrx else e.message)

    def detective_move(self, body: dict[str, Any]) -> str:
        """A detective's move from the table: ``{"piece", "to", "ticket" (optional), "tag"}``;
        what the table hears."""
        self._fresh(body.get("tag"))
        piece = body.get("piece")
        if not isinstance(piece, str) or piece == MRX:
            raise WebRefused("bad-request", "piece: name the detective to move (Mr. X moves on his own page)", 400)
        to = _station(body.get("to"))
        ticket = body.get("ticket")
        entry = (f"{TICKET_LETTERS[_ticket(ticket)]} " if ticket is not None else "") + str(to)
        if body.get("capture") is True:
            entry += "!"
        return self._enter(piece, entry, mrx=False)

    def mrx_move(self, body: dict[str, Any]) -> str:
        """Mr. X's move from his page: ``{"hops": [{"ticket", "to"}, ...], "tag"}`` (two hops for
        a double move, none for a pass); what the table hears.  A refusal carries his reason."""
        self._fresh(body.get("tag"))
        return self._enter(MRX, self._mrx_words(body), mrx=True)

    def table_mrx_move(self, body: dict[str, Any]) -> str:
        """Mr. X's public move entered at the table, in a game without his log: ``{"hops":
        [{"ticket", "to" (only at a reveal)}, ...], "tag"}``; what the table hears."""
        self._fresh(body.get("tag"))
        s = self.session
        if s.secret:
            raise WebRefused("private", "Mr. X enters his moves on his own page in this game (his log is kept)")
        return self._enter(MRX, self._mrx_words(body), mrx=False)

    def _mrx_words(self, body: dict[str, Any]) -> str:
        """Mr. X's turn in ``body`` (``hops``) in the notation's words (``T 37``, ``2X T/K``, ``-``)."""
        hops = body.get("hops")
        if not isinstance(hops, list) or len(hops) > 2 or not all(isinstance(h, dict) for h in hops):
            raise WebRefused("bad-request", "hops: a list of one or two {ticket, to} (none for a pass)", 400)
        words = []
        shows = 0
        for h in hops:
            t = TICKET_LETTERS[_ticket(h.get("ticket"))]
            to = h.get("to")
            word = t if to is None else f"{t} {_station(to)}"
            show = h.get("show")
            if show is not None:
                word += " show " + self._show_words(show)
                shows += 1
            words.append(word)
        if shows > 1:
            raise WebRefused("voluntary-reveal", "he shows himself at most once a move (a double move is one move)", 409)
        return "-" if not words else words[0] if len(words) == 1 else "2X " + "/".join(words)

    def _show_words(self, show: Any) -> str:
        """A hop's ``show``, ``{"from": DETECTIVE, "ticket": KIND}``, in the notation's words
        (``Red B``): the detective must be one of the game's."""
        if not isinstance(show, dict) or not isinstance(show.get("from"), str):
            raise WebRefused("bad-request", "show: {from: a detective's name, ticket: the kind he takes}", 400)
        name = show["from"]
        if name not in self.session.position.names:
            raise WebRefused("reveal-ticket", f"there is no detective {name[:40]!r} to take a ticket from", 409)
        kind = _ticket(show.get("ticket"))
        if kind not in DETECTIVE_TICKETS:
            raise WebRefused("reveal-ticket", f"a voluntary reveal takes a detective's ticket (taxi, bus or "
                                              f"underground), not {kind.value}", 409)
        return f"{_quoted(name)} {TICKET_LETTERS[kind]}"

    def _enter(self, piece: str, entry: str, mrx: bool) -> str:
        try:
            self.session.enter(piece, entry)
        except Refused as e:
            raise self._refused(e, mrx) from None
        self.computer_error = None
        return self._heard()

    def _heard(self) -> str:
        said = self.public_state()["said"]
        self.last_action = said[-1] if said else ""
        return self.last_action

    def undo(self, body: dict[str, Any]) -> str:
        """Take back the last move (a person's, with the computer's replies)."""
        return self._step(body, back=True)

    def redo(self, body: dict[str, Any]) -> str:
        """Play again the last move undone."""
        return self._step(body, back=False)

    def _step(self, body: dict[str, Any], back: bool) -> str:
        self._fresh(body.get("tag"))
        before = self.public_state()["said"]
        try:
            changed = self.session.undo(1) if back else self.session.redo(1)
        except Refused as e:
            raise self._refused(e, False) from None
        word = "undo" if back else "redo"
        if not changed:
            raise WebRefused(word, f"nothing to {word}")
        self.computer_error = None
        after = self.public_state()["said"]
        turns = reversed(before[len(after):]) if back else after[len(before):]
        self.last_action = f"{word}ne: " + "; ".join(turns)
        return self.last_action

    def computer_step(self) -> str | None:
        """The computer's move when it is its turn (what the table hears), else None.  A move
        that fails (refused, not saved, or a fault in its search) is not raised: the pages are
        told (:attr:`computer_error`), and it is tried again after the next change (a person's
        undo, redo or move) or when the server is started again."""
        s = self.session
        if s.over or not s.computer_to_move():
            return None
        try:
            s.computer_move()
        except Refused as e:
            self.computer_error = f"the computer's move was refused: {e.message}"
            return None
        except Exception as e:  # (a fault: its message may name Mr. X's station, so only its kind)
            self.computer_failed(e)
            return None
        self.computer_error = None
        return self._heard()

    def computer_failed(self, e: BaseException) -> None:
        """Tell the pages the computer could not move (``e``: what stopped it, named by its kind only)."""
        self.computer_error = (f"the computer could not make its move (an error in the program: "
                               f"{type(e).__name__}); the game is saved as it stands: undo to try again, or "
                               "stop the server and resume the game")

    # ---- analysis ---------------------------------------------------------------------------

    def analysis(self, kind: str) -> dict[str, Any]:
        """An answer on the public record: ``possible``, ``advise`` (the detectives' advice),
        ``cordon`` or ``solve``, each within the game's think time."""
        s = self.session
        public = self.public()
        if kind == "possible":
            where: Possible = possible(public)
            return {"kind": kind, "text": where.to_text(10), "stations": [[st, round(p, 6)] for st, p in where.ranked()]}
        if s.over:
            raise WebRefused("game-over", "the game is over")
        if kind == "advise":
            if s.to_move == MRX:
                raise WebRefused("turn", "Mr. X is to move: the detectives' advice comes after his move (his own is on "
                                         "his page)")
            from ..solvers.advise import advise_record

            advice = advise_record(public, side="detectives", time_limit=s.think)
            arrows = [{"name": m.name, "from": m.origin, "to": m.move.to, "ticket": m.move.tickets[0].value}
                      for m in advice.moves if m.move is not None]
            return {"kind": kind, "text": advice.describe(), "arrows": arrows}
        if kind == "cordon":
            from ..solvers.cordon import cordon

            plan = cordon(public, 1, time_limit=s.think)
            return {"kind": kind, "text": plan.to_text(False), "stations": sorted(plan.cordon)}
        if kind == "solve":
            return self._solve(public)
        raise WebRefused("not-found", f"no analysis {kind[:40]!r}: possible, advise, cordon or solve", 404)

    def _solve(self, public: Record) -> dict[str, Any]:
        """Whether the detectives can force a capture within :data:`SOLVE_TURNS` turns, as a line
        (``line``; ``verdict``: ``forced``, ``none`` or ``unknown``), the solver's whole answer
        (``text``) and, for a proved forced win, its first joint move as ``arrows`` (each
        detective from where it stands, in turn order), the moves to play now."""
        from ..engine.budget import OutOfTime
        from ..solvers.forced import solve_record
        from ..solvers.forced_tree import describe

        s = self.session
        n = SOLVE_TURNS
        try:
            result = solve_record(public, n, s.think)
        except OutOfTime:  # (replaying the record took the whole limit)
            result = None
        if result is None or result.forced is None:
            line = f"forced win: unknown (not found within the time limit of {s.think:g} s)"
            if result is not None and result.proved_none_within:
                line += f"; none within {plural(result.proved_none_within, 'turn')} (proved)"
            return {"kind": "solve", "verdict": "unknown", "turns": None, "line": line,
                    "text": line if result is None else describe(result), "arrows": []}
        if not result.forced:
            line = f"no forced win within {plural(n, 'turn')} (proved)"
            return {"kind": "solve", "verdict": "none", "turns": None, "line": line, "text": describe(result),
                    "arrows": []}
        assert result.turns is not None
        at = dict(result.start)  # (the detectives' stations: public)
        arrows = [{"name": m.piece, "from": at[m.piece], "to": m.to, "ticket": m.tickets[0].value}
                  for m in result.first_moves if m.to is not None]
        line = f"forced win in {plural(result.turns, 'turn')} (proved)"
        if arrows:
            line += ": " + ", ".join(f"{a['name']} {a['ticket']} to {a['to']}" for a in arrows)
        return {"kind": "solve", "verdict": "forced", "turns": result.turns, "line": line, "text": describe(result),
                "arrows": arrows}

    def mrx_advice(self) -> dict[str, Any]:
        """Mr. X's advice (his station: secret), as ``sy-tools advise`` gives it
        (:meth:`Session.mrx_advice`), its first choice as an arrow."""
        s = self.session
        if s.to_move != MRX and not s.over:
            raise WebRefused("turn", "your advice comes when it is your turn")
        try:
            advice = s.mrx_advice()
        except Refused as e:
            raise self._refused(e, True) from None
        arrows = [{"tickets": [t.value for t in m.move.tickets], "stations": list(m.move.stations)}
                  for m in advice.moves[:1]]
        return {"kind": "advise", "text": advice.describe(), "arrows": arrows}


def board_json(b: Board) -> dict[str, Any]:
    """The map as the pages draw it: each station at the board's own coordinates (a computed
    layout for a map without them), and the connections by transport."""
    coords = b.coords
    if not coords or any(s not in coords for s in b.stations):
        from ..plot.layout import layout

        coords = layout(b)[0]
    lines: dict[str, list[list[int]]] = {}
    for c in sorted(b.connections):
        lines.setdefault(c.transport.value, []).append([c.a, c.b])
    stations = [[s, round(float(coords[s][0]), 2), round(float(coords[s][1]), 2)] for s in sorted(b.stations)]
    return {"stations": stations, "connections": lines}


def _can_pass(pos: Position) -> bool:
    return any(m.is_pass for m in pos.legal_moves)


def _name(path: str) -> str:
    import os

    return os.path.basename(path)
