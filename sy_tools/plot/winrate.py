"""Win rates by Mr. X's start, from simulation results."""

from __future__ import annotations

import io
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import matplotlib.colors as mcolors
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ..engine.board import Board
from ..engine.stations import Station
from ..errors import InputError
from .board import BoardAxes, _note, transport_handles
from .frame import _colorbar, _frame
from .layout import layout
from .style import EMPTY_EDGE, EMPTY_FILL, WINRATE_CMAP


@dataclass(frozen=True)
class WinRates:
    """Mr. X's wins and games per start station."""

    wins: dict[Station, int]
    games: dict[Station, int]

    def rate(self, s: Station) -> float:
        return self.wins.get(s, 0) / self.games[s]

    def to_dict(self) -> dict[str, Any]:
        return {str(s): {"games": g, "mrx_wins": self.wins.get(s, 0)} for s, g in sorted(self.games.items())}

WINNERS = ("mrx", "detectives")


def load_winrates(path: str | os.PathLike[str], board: Board) -> WinRates:
    """Read simulation results: a CSV with (at least) the columns ``mrx_start`` and ``winner``
    (``mrx`` or ``detectives``), a JSON list of objects with those keys, or the ``.parquet``
    that ``simulate --out`` writes (its columns ``mrx_start``, an integer, and ``mrx_won``, a
    boolean).  Every bad row is an
    :class:`InputError` naming the file, the row and the column."""
    import csv

    from ..formats.files import read_text

    p = Path(path)
    if p.suffix.lower() == ".parquet":  # what simulate --out writes
        from ..selfplay.results import win_rates_from_file

        got = win_rates_from_file(str(p))
        for s in got:
            if s not in board:
                raise InputError(f"mrx_start {s} is not a station of the map {board.name!r}", str(path))
        if not got:
            raise InputError("no games in the file", str(path))
        return WinRates({s: round(r * n) for s, (n, r, _, _) in got.items()}, {s: v[0] for s, v in got.items()})
    text = read_text(p)
    rows: list[tuple[str, Any, Any]] = []
    if p.suffix.lower() == ".json" or text.lstrip().startswith("["):
        from ..formats import jsonutil

        try:
            data = jsonutil.loads(text)
        except (ValueError, RecursionError) as e:
            raise InputError(f"not valid JSON: {str(e)[:200]}", str(path)) from None
        problems: list[tuple[str, str]] = []
        jsonutil.scan(data, "", lambda where, msg: problems.append((where, msg)))
        if problems:  # a repeated key, a lone surrogate: which value would count?
            raise InputError(problems[0][1], str(path), problems[0][0] or None)
        if not isinstance(data, list):
            raise InputError("expected a JSON list of {\"mrx_start\", \"winner\"} objects", str(path))
        for i, row in enumerate(data):
            if not isinstance(row, dict):
                raise InputError("expected an object", str(path), f"[{i}]")
            for key in ("mrx_start", "winner"):
                if key not in row:
                    raise InputError(f"missing key {key!r}", str(path), f"[{i}]")
            rows.append((f"[{i}]", row["mrx_start"], row["winner"]))
    else:
        reader = csv.DictReader(io.StringIO(text))
        try:
            fields = reader.fieldnames or []
            for key in ("mrx_start", "winner"):
                if key not in fields:
                    raise InputError(f"missing column {key!r} (columns: {', '.join(fields) or 'none'})", str(path),
                                     "line 1")
                if fields.count(key) > 1:
                    raise InputError(f"column {key!r} appears {fields.count(key)} times", str(path), "line 1")
            for row in reader:
                if row["mrx_start"] is None or row["winner"] is None:
                    raise InputError(f"expected {len(fields)} cells, got fewer", str(path), f"line {reader.line_num}")
                rows.append((f"line {reader.line_num}", row["mrx_start"], row["winner"]))
        except csv.Error as e:  # e.g. a cell larger than the csv module's field limit (128 KiB)
            raise InputError(f"not a results CSV: {str(e)[:100]}", str(path), f"line {reader.line_num + 1}") from None
    wins: dict[Station, int] = {}
    games: dict[Station, int] = {}
    for where, start, winner in rows:
        if isinstance(start, str) and start.strip().isascii() and start.strip().isdigit() and len(start) < 12:
            start = int(start)
        if not isinstance(start, int) or isinstance(start, bool) or start not in board:
            raise InputError(f"mrx_start {str(start)[:40]!r} is not a station of the map {board.name!r}", str(path),
                             where)
        if winner not in WINNERS:
            raise InputError(f"winner {str(winner)[:40]!r} must be 'mrx' or 'detectives'", str(path), where)
        games[start] = games.get(start, 0) + 1
        wins[start] = wins.get(start, 0) + (winner == "mrx")
    if not games:
        raise InputError("no games in the file", str(path))
    return WinRates(wins, games)


def winrate_figure(board: Board, rates: WinRates, size: tuple[float, float] | None = None, dpi: int | None = None,
                   source: str = "results") -> Figure:
    """Each start station coloured by Mr. X's win rate from there; beside it his rate and the
    games that started there, placed where no two labels overlap (just the rate where the full
    label finds no room, nothing where neither does)."""
    coords, why = layout(board)
    total = sum(rates.games.values())
    won = sum(rates.wins.values())
    title = (f"Mr. X's win rate by start station  {Path(source).name}: {total} games, Mr. X won {won} "
             f"({won / total:.0%}); beside a station: his win rate there and games from that start")
    handles: list[Any] = transport_handles() + [Patch(facecolor=EMPTY_FILL, edgecolor=EMPTY_EDGE,
                                                      label="no game started here")]
    frame = _frame(size, dpi, _note(title, why), handles, True)
    ba = BoardAxes(frame.fig, frame.main, board, coords)
    cmap = matplotlib.colormaps[WINRATE_CMAP]
    # the scale spans the rates seen (rounded up to a tenth), so 8% and 16% look different
    top = max((rates.rate(s) for s in rates.games), default=1.0)
    norm = mcolors.Normalize(vmin=0.0, vmax=min(1.0, max(0.1, math.ceil(top * 10) / 10)))
    fills = {s: cmap(norm(rates.rate(s))) for s in rates.games}
    ba.stations(fills, {s: ("#222222", 1.2) for s in fills})
    if ba.labels:  # beside its station where it covers nothing, the busiest starts first
        fs = max(ba.number_size, 5.0)
        for s, g in sorted(rates.games.items(), key=lambda kv: (-kv[1], kv[0])):
            if not ba.label(coords[s], f"{rates.rate(s):.0%} of {g}", "#222222", fontsize=fs,
                            distance=ba.diameter * 0.55, clear=True):
                ba.label(coords[s], f"{rates.rate(s):.0%}", "#222222", fontsize=fs, distance=ba.diameter * 0.55,
                         clear=True)
    _colorbar(frame, cmap, norm, "Mr. X's win rate from that start")
    return frame.fig
