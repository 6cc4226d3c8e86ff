
"""Map summaries (`map info`) and comparisons (`map diff`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.board import Board, Connection
from ..engine.stations import stations_of
from ..engine.tickets import Transport
from ..formats.map_check import via_coverage

if TYPE_CHECKING:  # pragma: no cover
    import pandas


@dataclass(frozen=True)
class MapInfo:
    """Counts that describe a map."""

    name: str
    stations: int
    connections: dict[str, int]
    degree: dict[str, dict[str, float]]  # transport -> min/mean/max over stations it serves
    kinds: dict[str, int]  # "taxi,bus" -> number of stations
    has_coordinates: bool
    start_decks: dict[str, int]
    #: bus/underground connections with via data (the cut-off escape rule), and how many there are
    via: tuple[int, int] = (0, 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "stations": self.stations,
            "connections": self.connections,
            "degree": self.degree,
            "kinds": self.kinds,
            "has_coordinates": self.has_coordinates,
            "start_decks": self.start_decks,
            "via": {"with_via": self.via[0], "bus_underground": self.via[1]},
        }

    def to_frame(self) -> pandas.DataFrame:
        """One row per fact: section, item, value."""
        import pandas as pd

        rows: list[tuple[str, str, Any]] = [("map", "name", self.name), ("map", "stations", self.stations)]
        rows += [("connections", t, n) for t, n in self.connections.items()]
        for t, d in self.degree.items():
            rows.append(("degree", t, f"min {d['min']:g}  mean {d['mean']:.2f}  max {d['max']:g}"))
        rows += [("stations by kind", k, n) for k, n in self.kinds.items()]
        rows.append(("map", "coordinates", "yes" if self.has_coordinates else "no"))
        rows += [("start decks", k, n) for k, n in self.start_decks.items()]
        rows.append(("cut-off escape", "via data", f"{self.via[0]} of {self.via[1]} bus/underground connections"))
        return pd.DataFrame(rows, columns=["section", "item", "value"])

    def to_csv(self) -> str:
        """``map info --format csv``: the rows of :meth:`to_frame`."""
        return self.to_frame().to_csv(index=False)

    def to_text(self) -> str:
        """``map info --format text``: the rows of :meth:`to_frame` as a table."""
        from ..formats.output import table

        frame = self.to_frame()
        return table(list(frame.columns), frame.values.tolist(), right=[False, False, False])


def map_info(board: Board) -> MapInfo:
    """Station count, connections per transport, degree summary, stations per kind."""
    conns = {t.value: 0 for t in Transport}
    for c in board.connections:
        conns[c.transport.value] += 1
    conns["total"] = len(board.connections)
    degree: dict[str, dict[str, float]] = {}
    for t in Transport:
        degs = [n for n in (board.degree(s, t) for s in board.stations) if n]
        if degs:
            degree[t.value] = {"min": min(degs), "mean": round(sum(degs) / len(degs), 4), "max": max(degs)}
    kinds: dict[str, int] = {}
    for s in board.stations:
        k = ",".join(t.value for t in Transport if t in board.transports_at(s)) or "none"
        kinds[k] = kinds.get(k, 0) + 1
    kinds = dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    return MapInfo(
        name=board.name,
        stations=len(board.stations),
        connections=conns,
        degree=degree,
        kinds=kinds,
        has_coordinates=board.coords is not None,
        start_decks={k: len(v) for k, v in board.start_decks.items()},
        via=via_coverage(board),
    )


@dataclass(frozen=True)
class MapDiff:
    """What differs between two maps."""

    a: str
    b: str
    only_in_a: tuple[Connection, ...]
    only_in_b: tuple[Connection, ...]
    stations_only_in_a: tuple[int, ...]
    stations_only_in_b: tuple[int, ...]
    moved: tuple[tuple[int, tuple[float, float], tuple[float, float]], ...]  # both have coordinates
    #: connections in both maps whose via stations differ: (connection, via in a, via in b)
    via: tuple[tuple[Connection, tuple[int, ...], tuple[int, ...]], ...] = ()

    @property
    def same(self) -> bool:
        return not (self.only_in_a or self.only_in_b or self.stations_only_in_a or self.stations_only_in_b or self.moved
                    or self.via)

    def to_dict(self) -> dict[str, Any]:
        def conns(cs: tuple[Connection, ...]) -> list[dict[str, Any]]:
            return [{"a": c.a, "b": c.b, "transport": c.transport.value} for c in cs]

        return {
            "a": self.a,
            "b": self.b,
            "same": self.same,
            "connections_only_in_a": conns(self.only_in_a),
            "connections_only_in_b": conns(self.only_in_b),
            "stations_only_in_a": list(self.stations_only_in_a),
            "stations_only_in_b": list(self.stations_only_in_b),
            "moved_stations": [{"id": s, "a": list(p), "b": list(q)} for s, p, q in self.moved],
            "via_changed": [{"a": c.a, "b": c.b, "transport": c.transport.value, "via_a": list(va), "via_b": list(vb)}
                            for c, va, vb in self.via],
        }

    def lines(self) -> list[str]:
        """Human-readable lines, grouped per transport."""
        if self.same:
            return [f"{self.a} and {self.b}: same stations and connections"]
        out: list[str] = []
        for label, cs, other in (("only in", self.only_in_a, self.a), ("only in", self.only_in_b, self.b)):
            for t in Transport:
                sel = [c for c in cs if c.transport is t]
                if sel:
                    pairs = ", ".join(f"{c.a}-{c.b}" for c in sel)
                    out.append(f"{t.value:<12} {label} {other}: {pairs}")
        if self.stations_only_in_a:
            out.append(f"{'stations':<12} only in {self.a}: {', '.join(map(str, self.stations_only_in_a))}")
        if self.stations_only_in_b:
            out.append(f"{'stations':<12} only in {self.b}: {', '.join(map(str, self.stations_only_in_b))}")
        for s, p, q in self.moved:
            out.append(f"{'moved':<12} station {s}: ({p[0]:g}, {p[1]:g}) in {self.a}, ({q[0]:g}, {q[1]:g}) in {self.b}")
        for c, va, vb in self.via:
            out.append(f"{'via':<12} {c.transport.value} {c.a}-{c.b}: passes over {' '.join(map(str, va)) or 'nothing'} "
                       f"in {self.a}, {' '.join(map(str, vb)) or 'nothing'} in {self.b}")
        return out


def map_diff(a: Board, b: Board, a_name: str | None = None, b_name: str | None = None) -> MapDiff:
    """Connections and stations present in one map and not the other (coordinates are compared
    only when both maps have them)."""
    ca, cb = set(a.connections), set(b.connections)
    sa, sb = set(a.stations), set(b.stations)
    moved = []
    if a.coords and b.coords:
        for s in sorted(sa & sb):
            if a.coords[s] != b.coords[s]:
                moved.append((s, a.coords[s], b.coords[s]))
    return MapDiff(
        a=a_name or a.name,
        b=b_name or b.name,
        only_in_a=tuple(sorted(ca - cb, key=lambda c: (c.transport.value, c.a, c.b))),
        only_in_b=tuple(sorted(cb - ca, key=lambda c: (c.transport.value, c.a, c.b))),
        stations_only_in_a=tuple(sorted(sa - sb)),
        stations_only_in_b=tuple(sorted(sb - sa)),
        moved=tuple(moved),
        via=tuple(sorted(((c, _via(a, c), _via(b, c)) for c in ca & cb if _via(a, c) != _via(b, c)),
                         key=lambda x: (x[0].transport.value, x[0].a, x[0].b))),
    )


def _via(board: Board, c: Connection) -> tuple[int, ...]:
    return tuple(stations_of(board.via.get((min(c.a, c.b), max(c.a, c.b), c.transport), 0)))
