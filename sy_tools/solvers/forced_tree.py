"""The forced-win search's results: the strategy tree, refutations, text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.moves import Move
from ..engine.stations import Station, StationMask, stations_of
from ..engine.tickets import TICKET_LETTERS, Ticket
from ..formats.report_text import moment_note


@dataclass(frozen=True)
class Reply:
    """One thing Mr. X may show, and what the detectives do then.  ``tickets`` is empty for a
    pass (a trapped Mr. X where the rules let him pass); ``shown`` holds the station he is shown
    at per leg (None on hidden legs); ``possible`` is his possible set afterwards."""

    tickets: tuple[Ticket, ...]
    shown: tuple[Station | None, ...]
    possible: StationMask
    then: StrategyNode
    #: a voluntary reveal's price (``rules.voluntary_reveal``): the detective and the ticket he took
    took: tuple[str, Ticket] | None = None

    def describe(self) -> str:
        """``bus``, ``2X taxi/bus``, ``underground at 46`` (a reveal move), ``a pass``, ``bus at
        105 taking Red's bus`` (a voluntary reveal)."""
        if not self.tickets:
            return "a pass"
        legs = [t.value + (f" at {s}" if s is not None else "") for t, s in zip(self.tickets, self.shown)]
        took = "" if self.took is None else f" taking {self.took[0]}'s {self.took[1].value}"
        return ("2X " if len(legs) == 2 else "") + "/".join(legs) + took

    def to_dict(self) -> dict[str, Any]:
        d = {"tickets": [t.value for t in self.tickets], "shown": list(self.shown),
             "possible": stations_of(self.possible), "then": self.then.to_dict()}
        if self.took is not None:
            d["took"] = {"from": self.took[0], "ticket": self.took[1].value}
        return d


@dataclass(frozen=True)
class StrategyNode:
    """A joint detective move (in turn order; stuck detectives have none) and how it ends:
    ``end`` is ``"caught"`` (every station he may be at was moved onto), ``"trapped"`` or None
    (then ``replies`` covers everything he may show next).  The root when Mr. X moves first is
    not a detectives' turn (``detectives_turn`` False, no moves)."""

    moves: tuple[Move, ...]
    end: str | None = None
    replies: tuple[Reply, ...] = ()
    detectives_turn: bool = True

    @property
    def turns(self) -> int:
        """Detective turns this strategy takes at most."""
        below = max((r.then.turns for r in self.replies), default=0)
        return below + (1 if self.detectives_turn else 0)

    def to_dict(self) -> dict[str, Any]:
        return {"moves": [{"piece": m.piece, **m.to_dict()} for m in self.moves], "end": self.end,
                "detectives_turn": self.detectives_turn, "replies": [r.to_dict() for r in self.replies]}


@dataclass(frozen=True)
class Refutation:
    """Why the most promising first move fails: what Mr. X shows against it (None when the
    last turn simply cannot seal him in)."""

    moves: tuple[Move, ...]
    reply: Reply | None
    possible: StationMask = 0

    def to_dict(self) -> dict[str, Any]:
        r = self.reply
        reply = None if r is None else {k: v for k, v in r.to_dict().items() if k != "then"}
        return {"moves": [{"piece": m.piece, **m.to_dict()} for m in self.moves], "reply": reply}


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``forced``: True (a forced win within ``max_turns``; ``turns`` is the shortest), False
    (proved: none), None (a limit stopped the search; ``limit`` says which, ``proved_none_within``
    how many turns were ruled out before it).  ``first_moves`` is the winning joint move to
    play now (what ``advise`` plays)."""

    forced: bool | None
    turns: int | None
    max_turns: int
    status: str  # proved | unknown
    strategy: StrategyNode | None
    refutation: Refutation | None
    nodes: int
    wall_time: float
    possible: StationMask
    start: dict[str, Station]
    limit: str | None = None
    proved_none_within: int = 0
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def first_moves(self) -> tuple[Move, ...]:
        """The forced win's first joint move (empty when there is none or Mr. X moves first)."""
        return self.strategy.moves if self.strategy is not None else ()

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (docs/cli.md, "solve")."""
        return {
            "forced": self.forced,
            "turns": self.turns,
            "max_turns": self.max_turns,
            "status": self.status,
            "limit": self.limit,
            "proved_none_within": self.proved_none_within,
            "possible": stations_of(self.possible),
            "detectives": dict(self.start),
            "strategy": None if self.strategy is None else self.strategy.to_dict(),
            "refutation": None if self.refutation is None else self.refutation.to_dict(),
            "nodes": self.nodes,
            "wall_time": round(self.wall_time, 4),
            **self.context,
        }


def describe(result: SolveResult) -> str:
    """The result as a player reads it: the verdict, then the strategy tree (or the refutation)."""
    lines = []
    S = stations_of(result.possible)
    ctx = result.context
    when = moment_note(ctx)
    lines.append(f"Mr. X may be at {len(S)} station{'s' if len(S) != 1 else ''}{when}: {_some(S)}")
    n = result.max_turns
    if result.forced:
        t = result.turns
        lines.append(f"forced win in {t} turn{'s' if t != 1 else ''} (proved)")
        assert result.strategy is not None
        _tree(result.strategy, dict(result.start), 0, lines)
    elif result.forced is False:
        lines.append(f"no forced win within {n} turn{'s' if n != 1 else ''} (proved)")
        ref = result.refutation
        if ref is None:
            lines.append("no first move comes close: the detectives cannot reach every station he may be at, "
                         "or all its exits, in time")
        else:
            pos = dict(result.start)
            if ref.reply is None:
                lines.append(f"best try: {_joint(ref.moves, pos)}: he is neither caught nor trapped")
            else:
                first = f"after {_joint(ref.moves, pos)}, " if ref.moves else ""
                left = n - 1 if ref.moves else n
                lines.append(f"refutation: {first}he shows {ref.reply.describe()} (then at "
                             f"{_some(stations_of(ref.reply.possible))}) and no forced win follows within {left} "
                             f"turn{'s' if left != 1 else ''}")
    else:
        what = {"time": "the time limit", "nodes": "the node limit"}.get(result.limit or "", result.limit)
        done = f"; no forced win within {result.proved_none_within} (proved)" if result.proved_none_within else ""
        lines.append(f"unknown: {what} stopped the search{done}")
    lines.append(f"searched {result.nodes} nodes in {result.wall_time:.2f} s")
    return "\n".join(lines)


def _some(stations: Sequence[Station], limit: int = 12) -> str:
    """Stations as text, at most ``limit`` of them."""
    text = " ".join(map(str, stations[:limit]))
    return text + (f" ... ({len(stations)} stations)" if len(stations) > limit else "")


def _joint(moves: Sequence[Move], pos: dict[str, Station]) -> str:
    parts = []
    for m in moves:
        here = pos.get(m.piece)
        parts.append(f"{m.piece} {here} -{TICKET_LETTERS[m.tickets[0]]}-> {m.to}")
        if m.to is not None:
            pos[m.piece] = m.to
    return ", ".join(parts)


def _tree(node: StrategyNode, pos: dict[str, Station], depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    if node.detectives_turn:
        end = {"caught": ": caught", "trapped": ": trapped"}.get(node.end or "", "")
        lines.append(f"{pad}{_joint(node.moves, pos) or '(no detective can move)'}{end}")
    for r in node.replies:
        where = "" if r.shown and r.shown[-1] is not None else f" (then at {_some(stations_of(r.possible), 8)})"
        lines.append(f"{pad}  if he shows {r.describe()}{where}:")
        _tree(r.then, dict(pos), depth + 2, lines)
