"""The raw map model (stations, connections, decks as read, before checks) and map-format constants."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.tickets import Transport
from ..findings import Finding, Location

FORMATS = ("json", "pair", "bristol")

#: the two files of the ``pair`` format, in one folder
PAIR_FILES = ("stations.txt", "connections.txt")

OUTPUT_FORMATS = ("json", "pair", "bristol", "graphml")

BUILTIN_MAPS = ("london",)

#: Coordinates must lie within +-COORD_LIMIT (drawing units); larger ones are errors.
COORD_LIMIT = 1e9

#: Transport names as they occur in users' files (lower-cased).
TRANSPORT_NAMES: dict[str, Transport] = {
    "taxi": Transport.TAXI,
    "bus": Transport.BUS,
    "underground": Transport.UNDERGROUND,
    "tube": Transport.UNDERGROUND,
    "ferry": Transport.FERRY,
    "water": Transport.FERRY,
    "boat": Transport.FERRY,
}


@dataclass
class RawStation:
    id: int
    x: float | None
    y: float | None
    kinds: frozenset[str] | None  # labels given by the file, if any
    loc: Location


@dataclass
class RawConnection:
    a: int
    b: int
    transport: Transport | None  # None: unknown name (already reported)
    name: str  # the name as written
    loc: Location
    #: stations the line passes over on the board (the cut-off escape rule; JSON maps only)
    via: tuple[int, ...] = ()


@dataclass
class RawMap:
    """A map file as read, before validation."""

    name: str
    source: str
    format: str
    stations: list[RawStation] = field(default_factory=list)
    connections: list[RawConnection] = field(default_factory=list)
    start_decks: dict[str, list[tuple[int, Location]]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    header: tuple[int, int, Location] | None = None  # bristol: declared counts

    def error(self, code: str, message: str, loc: Location) -> None:
        self.findings.append(Finding.error(code, message, loc))

    def warning(self, code: str, message: str, loc: Location) -> None:
        self.findings.append(Finding.warning(code, message, loc))
