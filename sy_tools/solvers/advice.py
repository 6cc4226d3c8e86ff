"""Advice results: the detectives' and Mr. X's, with their text and JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.moves import Move
from ..engine.stations import Station
from ..engine.tickets import TICKET_LETTERS, Ticket, Tickets


@dataclass(frozen=True)
class DetectiveAdvice:
    """One detective's advised move (``move`` None: it has no legal move and is out)."""

    name: str
    origin: Station
    move: Move | None
    tickets_left: Tickets
    reason: str
    warning: str | None = None

    def to_dict(self) -> dict[str, Any]:
        m = self.move
        return {"name": self.name, "from": self.origin,
                "ticket": None if m is None else m.tickets[0].value, "to": None if m is None else m.to,
                "tickets_left": self.tickets_left.to_dict(("taxi", "bus", "underground")),
                "reason": self.reason, "warning": self.warning}

    def line(self) -> str:
        if self.move is None:
            if self.reason.endswith("stuck: out of the game"):
                return f"{self.name} at {self.origin}: no legal move ({self.reason})"
            return f"{self.name} at {self.origin}: stays ({self.reason})"
        t = self.move.tickets[0]
        left = self.tickets_left[t]
        text = f"{self.name} {self.origin} -{TICKET_LETTERS[t]}-> {self.move.to}  ({t.value}, {left} left): {self.reason}"
        return text + (f"  WARNING: {self.warning}" if self.warning else "")


@dataclass(frozen=True)
class MrXOption:
    """One of Mr. X's moves, judged.  ``risk`` is 0 when no detective can reach where he ends
    (otherwise the share of the detectives' possible set they could land on)."""

    move: Move
    capturers: tuple[str, ...]
    trappable: bool
    possible_after: int
    nearest: int | None
    reveal: bool
    reason: str
    key: tuple[float, ...] = field(repr=False, compare=False, default=())

    @property
    def safe(self) -> bool:
        """No detective can catch him next turn, whatever they do."""
        return not self.capturers

    def to_dict(self) -> dict[str, Any]:
        return {**self.move.to_dict(), "reason": self.reason, "safe": self.safe,
                "can_be_caught_by": list(self.capturers), "trappable": self.trappable,
                "possible_after": self.possible_after, "nearest_detective": self.nearest,
                "reveal": self.reveal, "spends": tickets_spent(self.move)}


@dataclass(frozen=True)
class Advice:
    """What :func:`advise_detectives` or :func:`advise_mrx` found.

    ``moves``: :class:`DetectiveAdvice` per detective still to move, or Mr. X's best
    :class:`MrXOption` first.  ``status``: ``exhaustive`` (every joint move was weighed),
    ``searched`` (the candidate cap was reached) or ``time-limit`` (stopped early)."""

    side: str
    moves: tuple[Any, ...]
    possible_count: int
    reach_by_reveal: int | None
    moves_to_reveal: int | None
    distances: dict[str, int | None]
    holds: dict[str, int]
    holds_note: str
    catch: float | None
    forced: dict[str, Any] | None
    status: str
    depth: int
    depth_reached: int
    candidates: int
    wall_time: float
    summary: str
    context: dict[str, Any] = field(default_factory=dict)
    out: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (docs/cli.md, "advise")."""
        return {"side": self.side, **self.context, "summary": self.summary,
                "moves": [m.to_dict() for m in self.moves],
                "possible_count": self.possible_count, "reach_by_reveal": self.reach_by_reveal,
                "moves_to_reveal": self.moves_to_reveal, "distances": dict(self.distances),
                "out": list(self.out), "mrx_holds": dict(self.holds), "holds_note": self.holds_note,
                "catch_probability": None if self.catch is None else round(self.catch, 4),
                "forced": self.forced, "status": self.status, "depth": self.depth,
                "depth_reached": self.depth_reached, "candidates": self.candidates,
                "wall_time": round(self.wall_time, 4)}

    def describe(self) -> str:
        """The advice as a player reads it."""
        lines: list[str] = []
        ctx = self.context
        if "when" in ctx:
            lines.append(f"{ctx['when']}; {'Mr. X' if self.side == 'mrx' else 'the detectives'} to move")
        mrx = self.side == "mrx"
        reach = "" if self.reach_by_reveal is None else \
            f"; {self.reach_by_reveal} {'you' if mrx else 'he'} may reach by the next reveal " \
            f"({self.moves_to_reveal} move(s) away)"
        who = "the detectives think you may be" if mrx else "he may be"
        lines.append(f"{who} at {self.possible_count} station{'s' if self.possible_count != 1 else ''}{reach}")
        dist = ", ".join(f"{n} {'-' if d is None else d}{' (out)' if n in self.out else ''}"
                         for n, d in self.distances.items())
        lines.append(f"distances {'to you' if mrx else 'to his possible set'}: {dist}")
        lines.append(f"{'you hold' if mrx else 'he holds'}: {self.holds_note}")
        lines.append("")
        if self.side == "detectives":
            lines += [m.line() for m in self.moves]
        else:
            for i, m in enumerate(self.moves, 1):
                lines.append(f"{i}. {_mrx_move_text(m.move)}: {m.reason}")
        lines.append("")
        lines.append(self.summary)
        stop = " (stopped at the time limit)" if self.status == "time-limit" else ""
        if mrx:
            lines.append(f"search: {self.status}{stop}, {self.candidates} move(s) weighed, {self.wall_time:.2f} s")
        else:
            lines.append(f"search: {self.status}{stop}, depth {self.depth_reached}/{self.depth}, "
                         f"{self.candidates} joint move(s) weighed, {self.wall_time:.2f} s")
        return "\n".join(lines)



def _mrx_move_text(m: Move) -> str:
    if m.is_pass:
        return "pass"
    hops = " ".join(f"-{TICKET_LETTERS[t]}-> {s}" + (" (show)" if m.shown == j else "")
                    for j, (t, s) in enumerate(zip(m.tickets, m.stations)))
    took = "" if m.took is None else f" taking {m.took[0]}'s {m.took[1].value}"
    return ("2X " if m.is_double else "") + hops + took


def mrx_move_words(m: Move) -> str:
    """``take the taxi to 3``, ``double move: taxi to 3, then black to 4``."""
    if m.is_pass:
        return "pass"
    legs = [f"{t.value} to {s}" + (" and show yourself" if m.shown == j else "")
            for j, (t, s) in enumerate(zip(m.tickets, m.stations))]
    took = "" if m.took is None else f", taking {m.took[0]}'s {m.took[1].value} ticket"
    return ("double move: " + ", then ".join(legs) if m.is_double else "take the " + legs[0]) + took


def tickets_spent(m: Move) -> list[str]:
    out = [t.value for t in m.tickets if t is Ticket.BLACK]
    if m.is_double:
        out.append("double")
    return out
