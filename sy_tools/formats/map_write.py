"""Writing maps in every format."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..engine.board import Board
from ..engine.stations import stations_of
from ..engine.tickets import Transport
from ..errors import MapError
from .files import atomic_write_bytes, atomic_write_many, refuse_overwrite
from .raw_map import OUTPUT_FORMATS, PAIR_FILES


def _fmt_num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def to_json_text(board: Board) -> str:
    """The canonical JSON text of ``board`` (one station / connection per line)."""
    lines = ["{", f'  "name": {json.dumps(board.name)},', '  "stations": [']
    st = []
    for s in board.stations:
        if board.coords and s in board.coords:
            x, y = board.coords[s]
            st.append(f'    {{"id": {s}, "x": {_fmt_num(x)}, "y": {_fmt_num(y)}}}')
        else:
            st.append(f'    {{"id": {s}}}')
    lines.append(",\n".join(st))
    lines.append("  ],")
    lines.append('  "connections": [')
    def via(c: Any) -> str:
        v = board.via.get((min(c.a, c.b), max(c.a, c.b), c.transport))
        return f', "via": {json.dumps(stations_of(v))}' if v else ""

    lines.append(
        ",\n".join(
            f'    {{"a": {c.a}, "b": {c.b}, "transport": "{c.transport.value}"{via(c)}}}' for c in board.connections
        )
    )
    if board.start_decks:
        lines.append("  ],")
        lines.append('  "start_decks": {')
        lines.append(
            ",\n".join(f"    {json.dumps(k)}: {json.dumps(list(v))}" for k, v in board.start_decks.items())
        )
        lines.append("  }")
    else:
        lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"

_PAIR_NAMES = {Transport.TAXI: "taxi", Transport.BUS: "bus", Transport.UNDERGROUND: "underground", Transport.FERRY: "water"}


_BRISTOL_NAMES = {Transport.TAXI: "Taxi", Transport.BUS: "Bus", Transport.UNDERGROUND: "Underground", Transport.FERRY: "Ferry"}

_ORDER = (Transport.TAXI, Transport.BUS, Transport.UNDERGROUND)


def to_pair_texts(board: Board) -> tuple[str, str]:
    """``(stations.txt, connections.txt)`` texts.  Needs coordinates for every station."""
    if not board.coords or any(s not in board.coords for s in board.stations):
        raise MapError("the pair format needs x/y coordinates for every station", board.name)
    st = []
    for s in board.stations:
        x, y = board.coords[s]
        kinds = ",".join(t.value for t in _ORDER if t in board.transports_at(s)) or "taxi"
        st.append(f"{s} {_fmt_num(x)} {_fmt_num(y)} {kinds}")
    order = {t: i for i, t in enumerate((Transport.FERRY, Transport.UNDERGROUND, Transport.BUS, Transport.TAXI))}
    conns = sorted(board.connections, key=lambda c: (order[c.transport], c.a, c.b))
    cn = [f"{c.a} {c.b} {_PAIR_NAMES[c.transport]}" for c in conns]
    return "\n".join(st) + "\n", "\n".join(cn) + "\n"


def to_bristol_text(board: Board) -> str:
    """The Bristol ``graph.txt`` text (coordinates and start decks are not carried)."""
    out = [f"{len(board.stations)} {len(board.connections)}"]
    out += [str(s) for s in board.stations]
    out += [f"{c.a} {c.b} {_BRISTOL_NAMES[c.transport]}" for c in board.connections]
    return "\n".join(out) + "\n"


def to_graphml_text(board: Board) -> str:
    """GraphML of :meth:`Board.to_networkx`."""
    import networkx as nx

    return "\n".join(nx.generate_graphml(board.to_networkx())) + "\n"


def output_format(out: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The format to write ``out`` in: ``fmt`` if given, else from the name (a name without a
    suffix, or a folder, is the pair format)."""
    if fmt:
        if fmt not in OUTPUT_FORMATS:
            raise MapError(f"unknown output format {fmt!r}, expected one of {', '.join(OUTPUT_FORMATS)}")
        return fmt
    p = Path(out)
    suffix = p.suffix.lower()
    if not suffix and p.exists() and not p.is_dir():
        raise MapError("cannot tell the output format of a file without a suffix (standard output, a device, a "
                       "pipe); pass --to json, bristol or graphml", str(out))
    if p.is_dir() or not suffix:
        return "pair"
    if suffix == ".json":
        return "json"
    if suffix == ".graphml":
        return "graphml"
    if suffix == ".txt":
        if p.name in PAIR_FILES:
            return "pair"
        return "bristol"
    raise MapError(f"cannot tell the output format from the suffix {suffix!r}; pass --to", str(out))


def source_files(spec: str | os.PathLike[str], fmt: str | None = None) -> list[Path]:
    """The files a map spec reads (none for a built-in name)."""
    p = Path(spec)
    if not p.exists():
        return []
    if p.is_dir() or (fmt or "") == "pair" or p.name in PAIR_FILES:
        folder = p if p.is_dir() else p.parent
        return [folder / f for f in PAIR_FILES]
    return [p]


def dropped_on_write(board: Board, fmt: str) -> str | None:
    """What writing ``board`` in ``fmt`` leaves out that matters to an analysis (None: nothing):
    only the JSON format holds the ``via`` data of the cut-off escape rule."""
    if fmt == "json" or not board.via:
        return None
    return (f"the {fmt} format cannot hold via data: the {len(board.via)} connection(s) with it lose it "
            "(the cut-off escape rule needs it; convert to .json to keep it)")


def write_map(board: Board, out: str | os.PathLike[str], fmt: str | None = None,
              keep: list[Path] | None = None) -> list[Path]:
    """Write ``board`` to ``out`` (atomically), never over a file in ``keep`` (the inputs).
    Returns the files written."""
    fmt = output_format(out, fmt)
    p = Path(out)
    if fmt == "pair":
        folder = p if (p.is_dir() or not p.suffix) else p.parent
        targets = [folder / f for f in PAIR_FILES]
        refuse_overwrite(targets, keep or [])
        s_text, c_text = to_pair_texts(board)
        folder.mkdir(parents=True, exist_ok=True)
        # both files change or neither does (see sy_tools.formats.files)
        atomic_write_many([(targets[0], s_text.encode("utf-8")), (targets[1], c_text.encode("utf-8"))])
        return targets
    refuse_overwrite([p], keep or [])
    text = {"json": to_json_text, "bristol": to_bristol_text, "graphml": to_graphml_text}[fmt](board)
    atomic_write_bytes(p, text.encode("utf-8"))
    return [p]
