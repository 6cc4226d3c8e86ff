"""The cordon's results: statuses, the detectives' states and options, the plan."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.stations import Station, StationMask
from ..engine.tickets import TICKET_LETTERS, Ticket
from ..formats.output import table
from ..formats.report_text import SHORT_LIST, moment_note, station_preview

SCALE = 1_000_000  # probability -> integer weight


class CordonStatus(str, enum.Enum):
    """How a CP-SAT solve ended (the JSON ``status`` and ``cordon_status`` values)."""

    OPTIMAL = "optimal"  # proven best
    FEASIBLE = "feasible"  # the best found within the time limit
    INFEASIBLE = "infeasible"
    MODEL_INVALID = "model-invalid"
    UNKNOWN = "unknown"  # nothing found within the time limit

    def __str__(self) -> str:
        return self.value

    @classmethod
    def of_solver(cls, name: str) -> CordonStatus:
        """From CP-SAT's ``status_name`` (``OPTIMAL``, ``MODEL_INVALID``, ...)."""
        try:
            return cls(name.lower().replace("_", "-"))
        except ValueError:
            return cls.UNKNOWN

    @property
    def no_plan(self) -> str:
        """Why a solve with this status has no answer, for text output."""
        if self is CordonStatus.INFEASIBLE:
            return "none exists (under voluntary reveals: none survives the tickets Mr. X may take)"
        if self is CordonStatus.MODEL_INVALID:
            return "the model is invalid (a bug: please report it)"
        return f"none found within the time limit ({self.value})"

    @property
    def found(self) -> bool:
        """Whether the solve has an answer (proven or not)."""
        return self in (CordonStatus.OPTIMAL, CordonStatus.FEASIBLE)

#: The status values, in the order docs/cli.md lists them.
CORDON_STATUSES: tuple[str, ...] = tuple(s.value for s in CordonStatus)


@dataclass(frozen=True)
class DetectiveState:
    """A detective as the plan starts: where, with which tickets, and whether it moves in the
    first planned turn (False when it already moved in the current round)."""

    name: str
    station: Station
    tickets: Mapping[str, int]
    moves_first: bool = True


@dataclass(frozen=True)
class Option:
    """One way a detective can spend its next k turns."""

    path: tuple[Station, ...]  # k + 1 stations, the first where it stands now
    tickets: tuple[Ticket | None, ...]  # per turn; None = no move
    blocked: tuple[StationMask | None, ...]  # per turn: a stay needs all these destinations occupied
    cost: int  # bus + underground tickets used


@dataclass(frozen=True)
class DetectivePlan:
    name: str
    path: tuple[Station, ...]
    tickets: tuple[str | None, ...]
    on_duty: bool

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "path": list(self.path), "tickets": list(self.tickets), "on_duty": self.on_duty}

    def describe(self) -> str:
        parts = [str(self.path[0])]
        for t, s in zip(self.tickets, self.path[1:]):
            parts.append(f"-{TICKET_LETTERS[t]}-> {s}" if t else "(no move)")
        return " ".join(parts)



@dataclass(frozen=True)
class CordonResult:
    """What ``cordon`` found.  ``feasible`` is None when no detectives were given (puzzle mode
    asks only for the cordon size)."""

    target: tuple[Station, ...]
    probabilities: dict[Station, float]
    moves: int
    cordon_size: int | None
    cordon: tuple[Station, ...]
    cordon_status: CordonStatus
    feasible: bool | None
    plan: tuple[DetectivePlan, ...]
    open: tuple[Station, ...]
    sealed_probability: float
    status: CordonStatus
    wall_time: float
    detectives_available: int = 0
    context: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def out_of_time(cls, moves: int, wall_time: float, context: dict[str, Any] | None = None,
                    detectives: int = 0) -> CordonResult:
        """The result when the time limit ran out before any solve: status ``unknown``, no plan."""
        return cls((), {}, moves, None, (), CordonStatus.UNKNOWN, None, (), (), 0.0, CordonStatus.UNKNOWN, wall_time,
                   detectives, context or {})

    def to_frame(self):  # -> pandas.DataFrame
        """The plan as a pandas DataFrame: one row per detective and turn (``detective``,
        ``turn`` 1-based, ``ticket`` or None for no move, ``from``, ``to``, ``on_duty``)."""
        import pandas as pd

        rows = [(p.name, j, t, a, b, p.on_duty) for p in self.plan
                for j, (t, a, b) in enumerate(zip(p.tickets, p.path, p.path[1:]), 1)]
        return pd.DataFrame(rows, columns=["detective", "turn", "ticket", "from", "to", "on_duty"])

    def to_text(self, show_all: bool = False) -> str:
        """The result as ``sy-tools cordon`` prints it:
        where Mr. X may be, the cordon, the plan and what it leaves open (long lists shortened
        unless ``show_all``)."""
        ctx = self.context
        lines = []
        after = (["his next move"] if ctx.get("to_move") == "mrx" else []) + \
            ([f"{self.moves - 1} more move{'s' if self.moves > 2 else ''}"] if self.moves > 1 else [])
        head = (f"Mr. X may be at {len(self.target)} station{'s' if len(self.target) != 1 else ''}"
                f"{' after ' + ' and '.join(after) if after else ''}{moment_note(ctx)}")
        if show_all:
            lines.append(f"{head}: " + " ".join(map(str, self.target)))
        else:
            top = sorted(self.target, key=lambda s: (-self.probabilities.get(s, 0.0), s))[:SHORT_LIST]
            more = len(self.target) - len(top)
            lines.append(f"{head}; most likely: " + ", ".join(f"{s} ({self.probabilities.get(s, 0.0):.2f})" for s in top)
                         + (f" ... (+{more}; --all lists them)" if more else ""))
        if self.cordon_size is None:
            lines.append(f"cordon size: not found within the time limit ({self.cordon_status})")
        else:
            n = self.detectives_available
            need = f"; {n} detective{'s' if n != 1 else ''} available" if n else ""
            lines.append(f"cordon size: {self.cordon_size} ({self.cordon_status}){need}")
            lines.append("one minimal cordon: " + station_preview(self.cordon, show_all))
        if self.plan:
            verdict = "seals every possible station" if self.feasible else "cannot seal everything"
            lines.append(f"plan for {self.moves} turn{'s' if self.moves != 1 else ''}: {verdict}")
            rows = [[p.name, p.describe(), "yes" if p.on_duty else ""] for p in self.plan]
            lines.append(table(["detective", "moves", "on duty"], rows, right=[False, False, False]))
            if self.open:
                lines.append(f"open stations ({len(self.open)}): " + station_preview(self.open, show_all))
            lines.append(f"sealed probability: {self.sealed_probability:.4f}")
        elif self.detectives_available:
            lines.append(f"no plan: {self.status.no_plan}")
        lines.append(f"solver: {self.status}, {self.wall_time:.2f} s")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (docs/cli.md, "cordon")."""
        return {
            "moves": self.moves,
            "target": list(self.target),
            "cordon_size": self.cordon_size,
            "cordon": list(self.cordon),
            "cordon_status": str(self.cordon_status),
            "feasible": self.feasible,
            "plan": [p.to_dict() for p in self.plan],
            "open": list(self.open),
            "sealed_probability": self.sealed_probability,
            "status": str(self.status),
            "wall_time": round(self.wall_time, 4),
            "detectives": self.detectives_available,
            **self.context,
        }
