"""Located findings: one type for every problem sy-tools reports with its place.

A map validator, the record reader and the referee all say the same kind of thing: *this* is
wrong (or suspicious) *there*.  :class:`Finding` is that statement, and :class:`Location` the
"there": a file and a place inside it, which is one of

- a line of a text file (``stations.txt``, a Bristol ``graph.txt``): ``Location(file, line)``;
- a JSON path (``stations[3].id``, ``rounds[1].detectives[0].to``): ``Location(file, path=...)``;
- for a text-notation game record, the line and round as the player wrote them
  (``line 5 (Red, round 2)``), kept next to the JSON path it stands for: ``place=...``.

Text forms (one line each)::

    FILE: WHERE: LEVEL: message [CODE]     str(finding): what validate and check list
    FILE:LINE: LEVEL: message [CODE]       the same for a line of a text file (compiler style)
    FILE: WHERE: message                   finding.format(tagged=False): the error form, printed
                                           after "error: " like any SyToolsError (WHERE of a
                                           line of a text file: "line N")

JSON forms (the stable keys the commands print):

- ``to_dict()``: ``{"level", "code", "where", "message"}``, for findings inside a document that
  names its file once (``check --format json``: ``problems``; a record that can't be read);
- ``to_dict(with_file=True)``: ``{"level", "code", "message", "location", "file", "line",
  "path"}``, for a list that mixes files (``validate --format json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import InputError, SyToolsError


class Level(str, Enum):
    """How bad a finding is: an ``error`` makes the input unusable (or the game illegal); a
    ``warning`` is worth a look.  Compares equal to its value (``Level.ERROR == "error"``)."""

    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Location:
    """Where something is: a file (None: not read from a file) and, inside it, a line of a text
    file, a JSON path, or the place as a player wrote it in a text-notation record (``place``,
    with ``path`` the JSON path it stands for)."""

    file: str | None
    line: int | None = None
    path: str | None = None
    place: str | None = None

    @property
    def where(self) -> str:
        """The place inside the file as a message names it: the player's place, the JSON path,
        or ``line N`` ("" for the file as a whole)."""
        if self.place:
            return self.place
        if self.path:
            return self.path
        if self.line is not None:
            return f"line {self.line}"
        return ""

    def __str__(self) -> str:
        if self.file and self.line is not None and not self.place and not self.path:
            return f"{self.file}:{self.line}"
        return ": ".join(p for p in (self.file, self.where) if p)

    def at(self, path: str) -> Location:
        """A location deeper inside the same JSON document (``[3]`` or ``key``)."""
        if not self.path:
            return Location(self.file, None, path)
        sep = "" if path.startswith("[") else "."
        return Location(self.file, None, f"{self.path}{sep}{path}")


@dataclass(frozen=True)
class Finding:
    """One problem found in a map, a record or a game: its level, a stable ``code`` (docs/maps.md and
    docs/records.md list them), a one-line ``message`` quoting the bad value, and its location."""

    level: Level
    code: str
    message: str
    location: Location

    def __post_init__(self) -> None:
        if not isinstance(self.level, Level):
            object.__setattr__(self, "level", Level(self.level))

    @classmethod
    def error(cls, code: str, message: str, location: Location) -> Finding:
        return cls(Level.ERROR, code, message, location)

    @classmethod
    def warning(cls, code: str, message: str, location: Location) -> Finding:
        return cls(Level.WARNING, code, message, location)

    @classmethod
    def from_error(cls, err: SyToolsError, code: str = "unreadable", file: str | None = None) -> Finding:
        """An error raised on purpose (a file that can't be read ...) as a finding; ``file``
        stands in when the error names none."""
        return cls(Level.ERROR, code, err.detail, Location(err.file or file, path=err.where))

    @property
    def where(self) -> str:
        """The place inside the file (see :attr:`Location.where`)."""
        return self.location.where

    @property
    def file(self) -> str | None:
        return self.location.file

    def format(self, file: str | None = None, *, tagged: bool = True) -> str:
        """The one-line text form: ``FILE: WHERE: LEVEL: message [CODE]`` (``tagged``, a line of a
        text file as ``FILE:LINE``) or the error form ``FILE: WHERE: message`` (``line N`` for a
        line).  ``file`` names the file when the location has none."""
        loc = self.location
        if file is not None and not loc.file:
            loc = Location(file, loc.line, loc.path, loc.place)
        if tagged:
            return ": ".join(p for p in (str(loc), f"{self.level.value}: {self.message} [{self.code}]") if p)
        return ": ".join(p for p in (loc.file, loc.where, self.message) if p)

    def __str__(self) -> str:
        return self.format()

    def line(self, file: str | None = None) -> str:
        """``str(self)`` naming ``file`` when the location has none (the referee's ``Problem.line``)."""
        return self.format(file)

    def to_error(self, cls: type[SyToolsError] = InputError) -> SyToolsError:
        """The finding as an exception whose ``str`` is ``format(tagged=False)``."""
        return cls(self.message, self.location.file, self.where or None)

    def to_dict(self, with_file: bool = False) -> dict[str, Any]:
        """The stable JSON form (see the module's documentation): ``level``, ``code``, ``where``,
        ``message``; ``with_file``: ``level``, ``code``, ``message``, ``location`` (the one-line
        place), ``file``, ``line``, ``path``."""
        if with_file:
            loc = self.location
            return {"level": self.level.value, "code": self.code, "message": self.message, "location": str(loc),
                    "file": loc.file, "line": loc.line, "path": loc.path}
        return {"level": self.level.value, "code": self.code, "where": self.where, "message": self.message}
