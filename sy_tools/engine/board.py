
"""The board: stations, connections, and precomputed neighbour bitsets.

A set of stations is an ``int`` bitmask (``StationMask``): bit ``s`` is set when station ``s``
is in the set.  All hot-path set algebra (moves, blocking, pruning) is done on these masks;
lists, arrays and DataFrames appear only at the edges (output and plotting).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import reduce as _reduce
from itertools import compress as _compress
from operator import getitem as _getitem
from operator import or_ as _or
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import networkx
from .stations import _BITS, Station, StationMask, mask_of, stations_of
from .tickets import Ticket, Transport


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
        return cls(lo, hi, transport if isinstance(transport, Transport) else Transport(transport))

    def __repr__(self) -> str:
        return f"Connection({self.a}-{self.b} {self.transport.value})"


def _connection_order(c: Connection) -> tuple[Station, Station, str]:
    """The order of :class:`Connection` (``a``, ``b``, transport) as a sort key (faster than
    comparing the dataclasses pairwise)."""
    return (c.a, c.b, c.transport.value)

_CHUNK = 8  # bits per lookup-table chunk

#: Precompute every station's neighbour masks only while ``stations x top id`` stays below this
#: (bytes, roughly: each mask costs up to top id / 8 bytes).  Bigger maps compute a mask when
#: asked, so memory stays linear in stations + connections.
_MASK_BUDGET = 1 << 24

#: Build the per-byte step tables only while ``stations x top id`` stays below this (a table row
#: holds up to 256 masks).
_TABLE_BUDGET = 1 << 21


class _LazyMasks(Mapping[Station, StationMask]):
    """Read-only ``station -> mask`` computed from neighbour lists when asked (large maps)."""

    __slots__ = ("_lists",)

    def __init__(self, lists: Mapping[Station, tuple[Station, ...]]) -> None:
        self._lists = lists

    def __getitem__(self, station: Station) -> StationMask:
        return mask_of(self._lists[station])

    def __iter__(self) -> Iterator[Station]:
        return iter(self._lists)

    def __len__(self) -> int:
        return len(self._lists)

    def __contains__(self, station: object) -> bool:
        return station in self._lists


class _Bits:
    """``1 << s`` for station ``s`` (``~(1 << s)`` when ``clear``), computed when asked: the
    stand-in for :attr:`Board.bits` and :attr:`Board.clears` on maps too large for tables."""

    __slots__ = ("_clear",)

    def __init__(self, clear: bool) -> None:
        self._clear = clear

    def __getitem__(self, station: Station) -> StationMask:
        return ~(1 << station) if self._clear else 1 << station


def _frozen(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True, eq=False)
class Board:
    """A Scotland Yard map.  Build it with :meth:`Board.build`; it is immutable afterwards
    (every mapping it exposes is read-only, so a board can be shared, e.g. the cached London).

    ``neighbours[ticket][s]`` is the mask of stations one hop from ``s`` with ``ticket``.
    :meth:`step` moves a whole set at once.  Memory is linear in stations + connections: on
    large or sparsely numbered maps the masks are computed when asked instead of stored.
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
    # the same masks as ``neighbours`` without the read-only wrapper (the hot path reads these)
    _nb: Mapping[Ticket, Mapping[Station, StationMask]] = field(default_factory=dict, repr=False)
    _transport_lists: Mapping[Transport, Mapping[Station, tuple[Station, ...]]] = field(
        default_factory=dict, repr=False
    )
    _n_bytes: int = field(default=1, repr=False)
    #: ``bits[s] == 1 << s`` and ``clears[s] == ~(1 << s)`` for every station ``s`` of the board
    #: (tables when its top id is small enough, so that a hot loop moving pieces makes no
    #: temporary masks; anything else, a negative number among them, is not a station to ask for)
    bits: Any = field(default=_Bits(False), repr=False)
    clears: Any = field(default=_Bits(True), repr=False)

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
        :mod:`sy_tools.formats.map_check`); connections are de-duplicated and sorted."""
        st = tuple(sorted(set(stations)))
        conns = tuple(sorted(set(connections), key=_connection_order))
        top = max(st, default=0)
        # neighbour lists per transport and per ticket: linear in stations + connections
        tl: dict[Transport, dict[Station, list[Station]]] = {t: {s: [] for s in st} for t in Transport}
        for c in conns:
            tl[c.transport][c.a].append(c.b)
            tl[c.transport][c.b].append(c.a)
        t_lists = {t: MappingProxyType({s: tuple(sorted(v)) for s, v in d.items()}) for t, d in tl.items()}
        lists: dict[Ticket, Mapping[Station, tuple[Station, ...]]] = {}
        for ticket in Ticket:
            trs = ticket.transports
            if len(trs) == 1:
                lists[ticket] = t_lists[trs[0]]
            else:
                lists[ticket] = MappingProxyType(
                    {s: tuple(sorted({d for tr in trs for d in t_lists[tr][s]})) for s in st})

        precompute = len(st) * (top + 1) <= _MASK_BUDGET
        nb: dict[Ticket, Mapping[Station, StationMask]]
        tn: dict[Transport, Mapping[Station, StationMask]]
        if precompute:
            tn = {t: {s: mask_of(v) for s, v in d.items()} for t, d in t_lists.items()}
            nb = {}
            for ticket in Ticket:
                d = {s: 0 for s in st}
                for tr in ticket.transports:
                    for s, m in tn[tr].items():
                        d[s] |= m
                nb[ticket] = d
        else:
            tn = {t: _LazyMasks(d) for t, d in t_lists.items()}
            nb = {t: _LazyMasks(d) for t, d in lists.items()}

        tables: dict[Ticket, tuple[tuple[StationMask, ...], ...]] = {}
        bits: Any = _Bits(False)
        clears: Any = _Bits(True)
        if (top + 1) * (top + 1) <= _MASK_BUDGET:  # (the tables cost about top id squared bits)
            bits = tuple(1 << s for s in range(top + 1))
            clears = tuple(~b for b in bits)
        if precompute and len(st) * (top + 1) <= _TABLE_BUDGET:
            # one row of 256 unions per byte of a mask; bytes that hold no station share a row of
            # zeros, and a bit that is no station reuses the union without it
            n_chunks = top // _CHUNK + 1
            held = {s // _CHUNK for s in st}
            zero_row = (0,) * (1 << _CHUNK)
            for ticket, masks in nb.items():
                chunks = []
                for chunk in range(n_chunks):
                    if chunk not in held:
                        chunks.append(zero_row)
                        continue
                    # doubling: after bit i the row holds the unions for every byte below 2**(i+1)
                    row = [0]
                    for s in range(chunk * _CHUNK, (chunk + 1) * _CHUNK):
                        m = masks.get(s, 0)
                        row += [r | m for r in row] if m else row
                    chunks.append(tuple(row))
                tables[ticket] = tuple(chunks)
        decks = {k: tuple(v) for k, v in (start_decks or {}).items()}
        return cls(
            name=name,
            stations=st,
            connections=conns,
            coords=_frozen(coords) if coords else None,
            start_decks=_frozen(decks),
            via=_frozen({(min(a, b), max(a, b), Transport(t)): mask_of(v) for (a, b, t), v in (via or {}).items()
                         if v}),
            all_mask=mask_of(st),
            neighbours=MappingProxyType({t: MappingProxyType(d) if isinstance(d, dict) else d
                                         for t, d in nb.items()}),
            transport_neighbours=MappingProxyType({t: MappingProxyType(d) if isinstance(d, dict) else d
                                                   for t, d in tn.items()}),
            _tables=tables,
            _lists=MappingProxyType(lists),
            _nb=nb,
            _transport_lists=MappingProxyType(t_lists),
            _n_bytes=top // _CHUNK + 1,
            bits=bits,
            clears=clears,
        )

    def __copy__(self) -> Board:
        return self  # immutable: a copy is the board itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # the read-only mappings don't pickle; rebuild from the definition instead
        coords = dict(self.coords) if self.coords else None
        via = {k: stations_of(m) for k, m in self.via.items()}
        return (Board.build, (self.name, self.stations, self.connections, coords, dict(self.start_decks), via))

    # ---- queries -------------------------------------------------------------------------

    def __contains__(self, station: object) -> bool:
        return isinstance(station, int) and station in self._transport_lists[Transport.TAXI]

    def __len__(self) -> int:
        return len(self.stations)

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {len(self.stations)} stations, {len(self.connections)} connections)"

    def step(self, mask: StationMask, ticket: Ticket) -> StationMask:
        """All stations one ``ticket`` hop from any station in ``mask``.

        Small sets (up to 8 stations, where that is faster) OR their stations' neighbour masks;
        larger ones look up one precomputed union per non-zero byte of the mask (``map``,
        ``compress`` and ``reduce`` run the loop in C).  Maps too large for those tables walk the
        mask's bytes and set the neighbours' bits (linear time)."""
        if mask.bit_count() <= 8:
            nb = self._nb[ticket]
            out = 0
            while mask:
                low = mask & -mask
                out |= nb[low.bit_length() - 1]
                mask ^= low
            return out
        table = self._tables.get(ticket)
        if table is not None:
            data = mask.to_bytes(len(table), "little")
            return _reduce(_or, map(_getitem, _compress(table, data), filter(None, data)), 0)
        return self._step_walk(mask, ticket)

    def _step_walk(self, mask: StationMask, ticket: Ticket) -> StationMask:
        lists = self._lists[ticket]
        n = self._n_bytes
        data = (mask & self.all_mask).to_bytes(n, "little")
        buf = bytearray(n)
        for i, byte in enumerate(data):
            if byte:
                for b in _BITS[byte]:
                    for d in lists[8 * i + b]:
                        buf[d >> 3] |= 1 << (d & 7)
        return int.from_bytes(buf, "little")

    def step_any(self, mask: StationMask, tickets: Iterable[Ticket]) -> StationMask:
        """Stations one hop away with any of ``tickets``."""
        out = 0
        for t in tickets:
            out |= self.step(mask, t)
        return out

    def destinations(self, station: Station, ticket: Ticket) -> tuple[Station, ...]:
        """Destinations from ``station`` with ``ticket`` (ascending)."""
        return self._lists[ticket][station]

    #: :meth:`destinations`: the old name (stations, not :class:`~sy_tools.engine.moves.Move`
    #: values), kept for one release
    moves = destinations

    def transports_between(self, a: Station, b: Station) -> frozenset[Transport]:
        """The transports joining ``a`` and ``b``."""
        return frozenset(t for t, d in self._transport_lists.items() if b in d.get(a, ()))

    def transports_at(self, station: Station) -> frozenset[Transport]:
        """The transports that stop at ``station``."""
        return frozenset(t for t, d in self._transport_lists.items() if d.get(station))

    #: :meth:`transports_at`: the old name (transports, not ticket kinds), kept for one release
    kinds = transports_at

    def degree(self, station: Station, transport: Transport) -> int:
        """How many stations ``transport`` joins ``station`` to."""
        return len(self._transport_lists[transport].get(station, ()))

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
