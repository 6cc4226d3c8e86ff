
"""Map validation: every defect that can be found without the physical board, with locations.

:func:`validate_map` collects findings (it never stops at the first).  The strict loader the
analysis commands use, :func:`~sy_tools.formats.map_load.load_board` (refusing a map with errors), lives in
:mod:`sy_tools.formats.map_load`.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from ..engine.board import Board
from ..engine.rules import Rules
from ..engine.tickets import Transport
from ..findings import Finding, Level, Location
from .maps import read_map
from .raw_map import COORD_LIMIT, RawConnection, RawMap

#: The largest station id a map may use.  Sets of stations are bitmasks indexed by id, so the id
#: bounds the memory every set costs (10^6 ids: 125 kB per set).
MAX_STATION_ID = 1_000_000

#: Every check's code, its level and what it means (documented in docs/maps.md).
CHECKS: dict[str, tuple[str, str]] = {
    "parse-error": ("error", "the file (or a line of it) can't be parsed"),
    "type": ("error", "a value has the wrong type"),
    "missing-key": ("error", "a required key is missing"),
    "unknown-key": ("error", "a key the format doesn't have (typos must not pass silently)"),
    "duplicate-key": ("error", "a JSON key given twice in one object"),
    "header-count": ("error", "the Bristol header's counts disagree with the file"),
    "station-id": ("error", f"a station id that is not a positive integer up to {MAX_STATION_ID:,}"),
    "empty-map": ("error", "a map without stations"),
    "duplicate-station": ("error", "a station id defined twice"),
    "id-gap": ("warning", "station ids are not 1..N (another numbering?)"),
    "undefined-station": ("error", "a connection names a station that is not defined"),
    "self-loop": ("error", "a connection from a station to itself"),
    "duplicate-connection": ("error", "the same pair and transport listed twice (either order)"),
    "unknown-transport": ("error", "a transport name that is not taxi, bus, underground or ferry"),
    "isolated-station": ("error", "a station with no connection at all"),
    "no-taxi": ("warning", "a station without taxi (every classic station has taxi)"),
    "disconnected-transport": ("warning", "a transport's network falls into separate parts"),
    "ferry-shared": ("warning", "a ferry pair also joined by another transport: a non-black ticket gets through"),
    "label-mismatch": ("error", "a station's kind labels disagree with its connections"),
    "same-coordinates": ("warning", "two stations drawn at the same point"),
    "coordinate-range": ("error", f"a coordinate beyond ±{COORD_LIMIT:g}"),
    "partial-coordinates": ("error", "coordinates given for some stations but not others"),
    "deck-station": ("error", "a start deck names a station that is not on the map"),
    "deck-duplicate": ("warning", "a start deck names a station twice"),
}


@dataclass(frozen=True)
class ValidationReport:
    """The findings for one map file."""

    source: str
    findings: tuple[Finding, ...]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.level == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.level == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_text(self) -> str:
        """``validate --format text``: a line per finding, then the verdict."""
        verdict = "ok" if self.ok else "INVALID"
        lines = [str(f) for f in self.findings]
        lines.append(f"{self.source}: {verdict}: {len(self.errors)} error(s), {len(self.warnings)} warning(s)")
        return "\n".join(lines)

    def strict(self) -> ValidationReport:
        """The same report with warnings raised to errors (``--strict``)."""
        return ValidationReport(
            self.source, tuple(replace(f, level=Level.ERROR) for f in self.findings)
        )


def check_raw(raw: RawMap) -> list[Finding]:
    """All findings for a map as read: the reader's own, then every semantic check (stations,
    connections, ferries, stations' links, networks, labels, coordinates, start decks)."""
    out = list(raw.findings)
    defined = _check_stations(raw, out)
    links = _check_connections(raw, defined, out)
    out += _check_ferries(links)
    out += _check_station_links(defined, links)
    out += _check_networks(raw.source, links)
    out += _check_labels(raw, defined, links)
    out += _check_coordinates(raw, defined)
    out += _check_decks(raw, defined)
    return out


@dataclass
class _Links:
    """A map's usable connections (both ends defined, no duplicates): who is joined to whom per
    transport, which transports join each pair, and where each ferry pair was listed."""

    adj: dict[Transport, dict[int, set[int]]] = field(
        default_factory=lambda: {t: defaultdict(set) for t in Transport})
    by_pair: dict[tuple[int, int], set[Transport]] = field(default_factory=lambda: defaultdict(set))
    ferries: dict[tuple[int, int], Location] = field(default_factory=dict)


def _check_stations(raw: RawMap, out: list[Finding]) -> dict[int, Location]:
    """Station ids (positive, not too large, each once; gaps are a warning).  Returns the
    stations defined, each with where it first was."""
    defined: dict[int, Location] = {}
    for st in raw.stations:
        if st.id <= 0:
            out.append(Finding.error("station-id", f"station id must be a positive integer, got {st.id}", st.loc))
        elif st.id > MAX_STATION_ID:
            out.append(Finding.error("station-id", f"station id {st.id} is too large (ids go up to "
                                     f"{MAX_STATION_ID:,})", st.loc))
        elif st.id in defined:
            out.append(Finding.error("duplicate-station", f"station {st.id} is defined twice (first at "
                                     f"{defined[st.id]})", st.loc))
        else:
            defined[st.id] = st.loc
    if defined:
        ids = sorted(defined)
        n_missing = ids[-1] - len(ids)  # ids are unique and positive
        if n_missing:
            shown = ", ".join(map(str, _first_gaps(ids, 10))) + (" ..." if n_missing > 10 else "")
            out.append(Finding.warning("id-gap", f"station ids are not 1..{ids[-1]}: missing {shown}",
                                       Location(raw.source)))
    elif not raw.stations and not any(f.level == "error" for f in raw.findings):
        out.append(Finding.error("empty-map", "the map has no stations", Location(raw.source)))
    return defined


def _check_connections(raw: RawMap, defined: Mapping[int, Location], out: list[Finding]) -> _Links:
    """Each connection: both ends defined, not a loop, not listed twice (in either order), its
    via stations.  Returns the connections that pass."""
    links = _Links()
    seen: dict[tuple[int, int, Transport], Location] = {}
    for c in raw.connections:
        bad = False
        for end in (c.a, c.b):
            if end not in defined:
                out.append(Finding.error("undefined-station", f"connection {c.a}-{c.b} names station {end}, which is "
                                         "not defined", c.loc))
                bad = True
        if c.a == c.b:
            out.append(Finding.error("self-loop", f"connection from station {c.a} to itself", c.loc))
            bad = True
        if c.transport is None or bad:
            continue
        key = (min(c.a, c.b), max(c.a, c.b), c.transport)
        if key in seen:
            out.append(Finding.error("duplicate-connection", f"{c.transport.value} {key[0]}-{key[1]} is listed twice "
                                     f"(first at {seen[key]})", c.loc))
            continue
        seen[key] = c.loc
        out += _check_via(c, defined)
        links.by_pair[key[:2]].add(c.transport)
        if c.transport is Transport.FERRY:
            links.ferries[key[:2]] = c.loc
        links.adj[c.transport][c.a].add(c.b)
        links.adj[c.transport][c.b].add(c.a)
    return links


def _check_ferries(links: _Links) -> Iterator[Finding]:
    """A ferry pair that another transport also joins lets a non-black ticket across."""
    for pair, loc in sorted(links.ferries.items()):
        others = sorted(t.value for t in links.by_pair[pair] if t is not Transport.FERRY)
        if others:
            yield Finding.warning("ferry-shared", f"ferry pair {pair[0]}-{pair[1]} is also joined by "
                                  f"{', '.join(others)}: a non-black ticket can cross there (check against the board)",
                                  loc)


def _check_station_links(defined: Mapping[int, Location], links: _Links) -> Iterator[Finding]:
    """Every station has a connection, and (as on every classic board) a taxi one."""
    for sid, loc in defined.items():
        kinds = {t for t in Transport if links.adj[t].get(sid)}
        if not kinds:
            yield Finding.error("isolated-station", f"station {sid} has no connection at all", loc)
        elif Transport.TAXI not in kinds:
            yield Finding.warning("no-taxi", f"station {sid} has no taxi connection", loc)


def _check_networks(source: str, links: _Links) -> Iterator[Finding]:
    """Each transport's network is in one piece."""
    for t in Transport:
        if not links.adj[t]:
            continue
        parts = _components(links.adj[t])
        if len(parts) > 1:
            sizes = sorted((len(p) for p in parts), reverse=True)
            small = min(parts, key=lambda p: (len(p), min(p)))
            yield Finding.warning(
                "disconnected-transport",
                f"the {t.value} network falls into {len(parts)} parts (sizes {', '.join(map(str, sizes))}); "
                f"smallest holds {', '.join(map(str, sorted(small)[:10]))}",
                Location(source),
            )


def _check_labels(raw: RawMap, defined: Mapping[int, Location], links: _Links) -> Iterator[Finding]:
    """Kind labels (the pair format's ``taxi,bus``) agree with the taxi/bus/underground connections."""
    for st in raw.stations:
        if st.kinds is None or st.id not in defined or defined[st.id] is not st.loc:
            continue
        have = {t.value for t in (Transport.TAXI, Transport.BUS, Transport.UNDERGROUND) if links.adj[t].get(st.id)}
        labels = set(st.kinds) - {Transport.FERRY.value}
        if labels != have:
            extra = sorted(labels - have)
            lacking = sorted(have - labels)
            what = []
            if extra:
                what.append(f"labelled {', '.join(extra)} but has no such connection")
            if lacking:
                what.append(f"has {', '.join(lacking)} connections but no such label")
            yield Finding.error("label-mismatch", f"station {st.id} " + "; ".join(what), st.loc)


def _check_coordinates(raw: RawMap, defined: Mapping[int, Location]) -> Iterator[Finding]:
    """Coordinates for all stations or none, within range, no two stations at one point."""
    with_xy = [st for st in raw.stations if st.x is not None and st.y is not None and st.id in defined]
    without = [st for st in raw.stations if (st.x is None or st.y is None) and st.id in defined]
    if with_xy and without:
        shown = ", ".join(str(s.id) for s in without[:10]) + (" ..." if len(without) > 10 else "")
        yield Finding.error("partial-coordinates",
                            f"{len(with_xy)} stations have coordinates and {len(without)} do not ({shown})",
                            without[0].loc)
    for st in with_xy:
        for axis, v in (("x", st.x), ("y", st.y)):
            if v is not None and not abs(v) <= COORD_LIMIT:
                yield Finding.error("coordinate-range", f"{axis} = {v:g} is out of range (coordinates must lie "
                                    f"within ±{COORD_LIMIT:g})", st.loc)
    at: dict[tuple[float | None, float | None], int] = {}
    for st in with_xy:
        point = (st.x, st.y)
        if point in at and at[point] != st.id:
            yield Finding.warning("same-coordinates", f"stations {at[point]} and {st.id} are both at "
                                  f"({st.x:g}, {st.y:g})", st.loc)
        else:
            at[point] = st.id


def _check_decks(raw: RawMap, defined: Mapping[int, Location]) -> Iterator[Finding]:
    """Start decks name stations on the map, each once."""
    for dname, cards in raw.start_decks.items():
        seen_cards: set[int] = set()
        for sid, loc in cards:
            if sid not in defined:
                yield Finding.error("deck-station", f"start deck {dname!r} names station {sid}, which is not on the "
                                    "map", loc)
            elif sid in seen_cards:
                yield Finding.warning("deck-duplicate", f"start deck {dname!r} names station {sid} twice", loc)
            seen_cards.add(sid)


def _check_via(c: RawConnection, defined: Mapping[int, Location]) -> list[Finding]:
    """A connection's ``via`` stations (the cut-off escape rule): on the map, not its ends,
    each once, and only on bus and underground lines (the rule closes those hops)."""
    if not c.via:
        return []
    out = []
    loc = c.loc.at("via")
    if c.transport not in (Transport.BUS, Transport.UNDERGROUND):
        out.append(Finding.error("via-transport", f"{c.transport.value if c.transport else c.name} {c.a}-{c.b} has "
                                 "via data; only bus and underground lines pass over stations (the cut-off escape "
                                 "rule)", loc))
    for j, v in enumerate(c.via):
        if v not in defined:
            msg = f"{c.a}-{c.b} passes over station {v}, which is not defined"
        elif v in (c.a, c.b):
            msg = f"{c.a}-{c.b} lists its own end {v} among the stations it passes over"
        elif v in c.via[:j]:
            msg = f"{c.a}-{c.b} lists station {v} twice among the stations it passes over"
        else:
            continue
        out.append(Finding.error("via-station", msg, loc.at(f"[{j}]")))
    return out


def via_coverage(board: Board) -> tuple[int, int]:
    """``(with via data, all)`` bus and underground connections of ``board``: the cut-off
    escape rule knows a hop passes over a detective only where the map says so."""
    lines = [c for c in board.connections if c.transport in (Transport.BUS, Transport.UNDERGROUND)]
    have = sum(1 for c in lines if (min(c.a, c.b), max(c.a, c.b), c.transport) in board.via)
    return have, len(lines)


def cutoff_warning(board: Board, rules: Rules) -> str | None:
    """The warning an analysis under ``rules.cutoff_escape`` gives when ``board`` lacks via data
    for some bus or underground connections (None: the rule is off, or the data is complete)."""
    if not rules.cutoff_escape:
        return None
    have, n = via_coverage(board)
    if have == n:
        return None
    return (f"cut-off escape applied with incomplete via data: {n - have} of {n} bus/underground connections "
            f"of map {board.name!r} have none, so a detective on the way never closes them")


def _first_gaps(ids: list[int], n: int) -> list[int]:
    """The first ``n`` numbers missing from the sorted positive ``ids`` (without a set of every
    number up to the largest id)."""
    out: list[int] = []
    prev = 0
    for i in ids:
        if i > prev + 1:
            out.extend(range(prev + 1, min(i, prev + 1 + n - len(out))))
            if len(out) >= n:
                break
        prev = i
    return out


def _components(adj: dict[int, set[int]]) -> list[set[int]]:
    left = set(adj)
    parts = []
    while left:
        start = left.pop()
        part = {start}
        todo = [start]
        while todo:
            for nb in adj[todo.pop()]:
                if nb not in part:
                    part.add(nb)
                    todo.append(nb)
        left -= part
        parts.append(part)
    return parts


def validate_map(spec: str | os.PathLike[str], fmt: str | None = None,
                 rules: Rules | None = None) -> ValidationReport:
    """Read and check a map file (or built-in name).  Raises :class:`MapError` only when the
    file can't be read at all.  ``rules``: the rules the map will be played under; with
    ``cutoff_escape`` a map lacking via data for some bus/underground connections gets a
    ``via-incomplete`` warning with the count."""
    raw = read_map(spec, fmt)
    findings = check_raw(raw)
    if rules is not None and rules.cutoff_escape:
        lines = [c for c in raw.connections if c.transport in (Transport.BUS, Transport.UNDERGROUND)]
        lacking = sum(1 for c in lines if not c.via)
        if lacking:
            findings.append(Finding.warning("via-incomplete",
                                    f"the cut-off escape rule is asked for, but {lacking} of {len(lines)} bus/underground "
                                    "connections have no via data (a detective on the way never closes them)",
                                    Location(raw.source)))
    return ValidationReport(raw.source, tuple(findings))
