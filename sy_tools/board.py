"""The board: stations, connections, and precomputed neighbour bitsets.

A set of stations is an ``int`` bitmask (``StationMask``): bit ``s`` is set when station ``s``
is in the set.  All hot-path set algebra (moves, blocking, pruning) is done on these masks;
lists, arrays and DataFrames appear only at the edges (output and plotting).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import reduce as _reduce
from operator import getitem as _getitem
from operator import or_ as _or
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import networkx

Station = int
StationMask = int


class Transport(str, enum.Enum):
    """A kind of connection on the board."""

    TAXI = "taxi"
    BUS = "bus"
    UNDERGROUND = "underground"
    FERRY = "ferry"

    def __str__(self) -> str:
        return self.value


class Ticket(str, enum.Enum):
    """A ticket that moves a piece one hop.  ``BLACK`` rides any transport, the ferry included."""

    TAXI = "taxi"
    BUS = "bus"
    UNDERGROUND = "underground"
    BLACK = "black"

    def __str__(self) -> str:
        return self.value

    @property
    def transports(self) -> tuple[Transport, ...]:
        """The transports this ticket may ride."""
        if self is Ticket.BLACK:
            return tuple(Transport)
        return (Transport(self.value),)


#: Tickets a detective can hold (never black, never the ferry).
DETECTIVE_TICKETS: tuple[Ticket, ...] = (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND)


class StationSet(AbstractSet[Station]):
    """A set of stations over a bitmask (python-chess's ``SquareSet``): the set protocol and
    set algebra on an ``int``.  ``StationSet(mask)``, ``StationSet.of([13, 26])``; ``.mask`` is the
    int the hot paths use."""

    __slots__ = ("mask",)

    def __init__(self, mask: StationMask = 0) -> None:
        self.mask = int(mask)

    @classmethod
    def of(cls, stations: Iterable[Station]) -> StationSet:
        m = 0
        for s in stations:
            m |= 1 << s
        return cls(m)

    def __iter__(self) -> Iterator[Station]:
        """Stations in ascending order."""
        mask = self.mask
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, station: object) -> bool:
        return isinstance(station, int) and station >= 0 and bool(self.mask >> station & 1)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StationSet):
            return self.mask == other.mask
        return AbstractSet.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: AbstractSet[Any]) -> StationSet:  # type: ignore[override]
        return StationSet(self.mask | _mask(other))

    def __and__(self, other: AbstractSet[Any]) -> StationSet:
        return StationSet(self.mask & _mask(other))

    def __sub__(self, other: AbstractSet[Any]) -> StationSet:
        return StationSet(self.mask & ~_mask(other))

    def __xor__(self, other: AbstractSet[Any]) -> StationSet:  # type: ignore[override]
        return StationSet(self.mask ^ _mask(other))

    def __repr__(self) -> str:
        return f"StationSet({list(self)})"


def _mask(other: AbstractSet[Any]) -> StationMask:
    return other.mask if isinstance(other, StationSet) else StationSet.of(other).mask


def mask_of(stations: Iterable[Station]) -> StationMask:
    """The bitmask holding ``stations``."""
    return StationSet.of(stations).mask


def stations_of(mask: StationMask) -> list[Station]:
    """The stations in ``mask``, ascending."""
    return list(StationSet(mask))


@dataclass(frozen=True, order=True)
class Connection:
    """An undirected connection ``a``-``b`` (stored with ``a < b``) by one transport."""

    a: Station
    b: Station
    transport: Transport

    @classmethod
    def of(cls, a: Station, b: Station, transport: Transport | str) -> Connection:
        """A connection with its ends put in order."""
        lo, hi = (a, b) if a <= b else (b, a)
        return cls(lo, hi, Transport(transport))

    def __repr__(self) -> str:
        return f"Connection({self.a}-{self.b} {self.transport.value})"


_CHUNK = 8  # bits per lookup-table chunk


@dataclass(frozen=True, eq=False)
class Board:
    """A Scotland Yard map.  Build it with :meth:`Board.build`; it is immutable afterwards.

    ``neighbours[ticket][s]`` is the mask of stations one hop from ``s`` with ``ticket``.
    :meth:`step` moves a whole set at once.
    """

    name: str
    stations: tuple[Station, ...]
    connections: tuple[Connection, ...]
    coords: Mapping[Station, tuple[float, float]] | None = None
    start_decks: Mapping[str, tuple[Station, ...]] = field(default_factory=dict)
    #: stations a bus/underground line passes over between its stops, per connection
    #: ``(a, b, transport)`` with ``a < b`` (the cut-off escape rule needs them; optional data)
    via: Mapping[tuple[Station, Station, Transport], StationMask] = field(default_factory=dict)
    # derived, filled in by build()
    all_mask: StationMask = 0
    neighbours: Mapping[Ticket, Mapping[Station, StationMask]] = field(default_factory=dict)
    transport_neighbours: Mapping[Transport, Mapping[Station, StationMask]] = field(
        default_factory=dict
    )
    _tables: Mapping[Ticket, tuple[tuple[StationMask, ...], ...]] = field(
        default_factory=dict, repr=False
    )
    _lists: Mapping[Ticket, Mapping[Station, tuple[Station, ...]]] = field(
        default_factory=dict, repr=False
    )

    @classmethod
    def build(
        cls,
        name: str,
        stations: Iterable[Station],
        connections: Iterable[Connection],
        coords: Mapping[Station, tuple[float, float]] | None = None,
        start_decks: Mapping[str, Iterable[Station]] | None = None,
        via: Mapping[tuple[Station, Station, Transport | str], Iterable[Station]] | None = None,
    ) -> Board:
        """Build a board and its neighbour tables.  The input is assumed valid (see
        :mod:`sy_tools.validate`); connections are de-duplicated and sorted."""
        st = tuple(sorted(set(stations)))
        conns = tuple(sorted(set(connections)))
        tn: dict[Transport, dict[Station, StationMask]] = {t: {s: 0 for s in st} for t in Transport}
        for c in conns:
            tn[c.transport][c.a] |= 1 << c.b
            tn[c.transport][c.b] |= 1 << c.a
        nb: dict[Ticket, dict[Station, StationMask]] = {}
        for ticket in Ticket:
            d = {s: 0 for s in st}
            for tr in ticket.transports:
                for s, m in tn[tr].items():
                    d[s] |= m
            nb[ticket] = d
        top = max(st, default=0)
        n_chunks = top // _CHUNK + 1
        tables: dict[Ticket, tuple[tuple[StationMask, ...], ...]] = {}
        for ticket, d in nb.items():
            chunks = []
            for chunk in range(n_chunks):
                row = [0] * (1 << _CHUNK)
                for byte in range(1, 1 << _CHUNK):
                    low = byte & -byte
                    s = chunk * _CHUNK + low.bit_length() - 1
                    row[byte] = row[byte ^ low] | d.get(s, 0)
                chunks.append(tuple(row))
            tables[ticket] = tuple(chunks)
        lists = {t: {s: tuple(stations_of(m)) for s, m in d.items()} for t, d in nb.items()}
        decks = {k: tuple(v) for k, v in (start_decks or {}).items()}
        return cls(
            name=name,
            stations=st,
            connections=conns,
            coords=dict(coords) if coords else None,
            start_decks=decks,
            via={(min(a, b), max(a, b), Transport(t)): mask_of(v) for (a, b, t), v in (via or {}).items() if v},
            all_mask=mask_of(st),
            neighbours=nb,
            transport_neighbours=tn,
            _tables=tables,
            _lists=lists,
        )

    # ---- queries -------------------------------------------------------------------------

    def __contains__(self, station: object) -> bool:
        return isinstance(station, int) and station in self.neighbours[Ticket.TAXI]

    def __len__(self) -> int:
        return len(self.stations)

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {len(self.stations)} stations, {len(self.connections)} connections)"

    def step(self, mask: StationMask, ticket: Ticket) -> StationMask:
        """All stations one ``ticket`` hop from any station in ``mask``.

        Small sets OR their stations' neighbour masks; larger ones look up one precomputed
        union per byte of the mask (``map``/``reduce`` run the loop in C)."""
        if mask.bit_count() <= 4:
            nb = self.neighbours[ticket]
            out = 0
            while mask:
                low = mask & -mask
                out |= nb[low.bit_length() - 1]
                mask ^= low
            return out
        table = self._tables[ticket]
        return _reduce(_or, map(_getitem, table, mask.to_bytes(len(table), "little")), 0)

    def step_any(self, mask: StationMask, tickets: Iterable[Ticket]) -> StationMask:
        """Stations one hop away with any of ``tickets``."""
        out = 0
        for t in tickets:
            out |= self.step(mask, t)
        return out

    def moves(self, station: Station, ticket: Ticket) -> tuple[Station, ...]:
        """Destinations from ``station`` with ``ticket`` (ascending)."""
        return self._lists[ticket][station]

    def transports_between(self, a: Station, b: Station) -> frozenset[Transport]:
        """The transports joining ``a`` and ``b``."""
        return frozenset(
            t for t, d in self.transport_neighbours.items() if d.get(a, 0) >> b & 1
        )

    def kinds(self, station: Station) -> frozenset[Transport]:
        """The transports that stop at ``station``."""
        return frozenset(t for t, d in self.transport_neighbours.items() if d.get(station, 0))

    def to_networkx(self) -> networkx.MultiGraph:
        """A ``networkx.MultiGraph``: one edge per connection with a ``transport`` attribute
        (the transport's name), and ``x``/``y`` node attributes when the map has coordinates."""
        import networkx as nx

        g = nx.MultiGraph(name=self.name)
        for s in self.stations:
            if self.coords and s in self.coords:
                x, y = self.coords[s]
                g.add_node(s, x=x, y=y)
            else:
                g.add_node(s)
        for c in self.connections:
            g.add_edge(c.a, c.b, key=c.transport.value, transport=c.transport.value)
        return g
