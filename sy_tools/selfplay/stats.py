"""Summaries of many games: Wilson intervals, win rates, their table."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..engine.stations import Station
from .game import END_REASONS, ROW_COLUMNS, GameResult, GameSpec


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for ``wins`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # (exact at the ends: no 5.55e-17)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return (low, high)


@dataclass
class Summary:
    """Counts over games: Mr. X's wins, how games ended, rounds played (a histogram, so
    quartiles are exact at any size)."""

    games: int = 0
    mrx_wins: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)

    def add(self, g: GameResult) -> None:
        self.games += 1
        self.mrx_wins += g.mrx_won
        self.reasons[g.reason] += 1
        self.rounds[g.rounds] += 1

    @property
    def win_rate(self) -> float:
        return self.mrx_wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.mrx_wins, self.games)

    @property
    def forfeits(self) -> int:
        return self.reasons.get("forfeit", 0)

    def rounds_mean(self) -> float:
        return sum(r * c for r, c in self.rounds.items()) / self.games if self.games else 0.0

    def rounds_quantile(self, q: float) -> float:
        """The ``q`` quantile of rounds played (linear interpolation, as numpy's default)."""
        if not self.games:
            return 0.0
        pos = q * (self.games - 1)
        lo, frac = int(pos), pos - int(pos)

        def nth(k: int) -> int:
            seen = 0
            for r in sorted(self.rounds):
                seen += self.rounds[r]
                if k < seen:
                    return r
            return max(self.rounds)

        a = nth(lo)
        return a + frac * (nth(lo + 1) - a) if frac else float(a)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "games": self.games, "mrx_wins": self.mrx_wins, "mrx_win_rate": round(self.win_rate, 6),
            "interval": [round(lo, 6), round(hi, 6)],
            "reasons": {r: self.reasons.get(r, 0) for r in END_REASONS},
            "forfeits": self.forfeits,
            "rounds": {"mean": round(self.rounds_mean(), 4), "q1": self.rounds_quantile(0.25),
                       "median": self.rounds_quantile(0.5), "q3": self.rounds_quantile(0.75)},
        }


@dataclass
class SimulationResult:
    """What :func:`simulate` found: the summary, a summary per Mr. X start station, and (unless
    ``keep_rows=False``) every game's result."""

    spec: GameSpec
    summary: Summary = field(default_factory=Summary)
    by_start: dict[Station, Summary] = field(default_factory=dict)
    games: list[GameResult] | None = field(default_factory=list)

    def add(self, g: GameResult) -> None:
        self.summary.add(g)
        self.by_start.setdefault(g.mrx_start, Summary()).add(g)
        if self.games is not None:
            self.games.append(g)

    def win_rate_by_start(self) -> dict[Station, tuple[int, float, float, float]]:
        """Mr. X start station -> (games, win rate, interval low, interval high)."""
        return {s: (v.games, v.win_rate, *v.interval) for s, v in sorted(self.by_start.items())}

    def to_dict(self, by_start: bool = False) -> dict[str, Any]:
        out = {"spec": self.spec.to_dict(), **self.summary.to_dict()}
        if by_start:
            out["by_start"] = [{"start": s, **v.to_dict()} for s, v in sorted(self.by_start.items())]
        return out

    def to_frame(self) -> Any:
        """One row per game (a pandas DataFrame, columns :data:`ROW_COLUMNS`)."""
        import pandas as pd

        if self.games is None:
            raise ValueError("the games were not kept (keep_rows=False)")
        return pd.DataFrame([g.row() for g in self.games], columns=list(ROW_COLUMNS))


def summary_rows(result: SimulationResult, by_start: bool) -> tuple[list[str], list[list[Any]]]:
    """The summary as a header and rows (one row, or one per Mr. X start station)."""
    head = ["games", "mrx_wins", "win_rate", "ci_low", "ci_high", *END_REASONS, "rounds_mean", "rounds_q1",
            "rounds_median", "rounds_q3"]
    groups: list[tuple[Any, Summary]] = (sorted(result.by_start.items()) if by_start
                                         else [("all", result.summary)])
    rows = []
    for key, s in groups:
        lo, hi = s.interval
        rows.append([key, s.games, s.mrx_wins, s.win_rate, lo, hi,
                     *(s.reasons.get(r, 0) for r in END_REASONS), s.rounds_mean(),
                     s.rounds_quantile(0.25), s.rounds_quantile(0.5), s.rounds_quantile(0.75)])
    return ["start", *head], rows


def format_summary(result: SimulationResult, fmt: str, by_start: bool = False) -> str:
    """The summary as ``table``, ``csv`` or ``json``."""
    if fmt == "json":
        from ..formats.output import dumps

        return dumps(result.to_dict(by_start))
    head, rows = summary_rows(result, by_start)
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(head)
        w.writerows([[round(v, 6) if isinstance(v, float) else v for v in r] for r in rows])
        return buf.getvalue().rstrip("\n")
    from ..formats.output import table

    s = result.summary
    lo, hi = s.interval
    spec = result.spec
    lines = [f"{s.games} games, {spec.mrx_policy} Mr. X vs {spec.detective_policy} detectives "
             f"({spec.detectives}), rules {spec.rules.name}, seed {spec.seed}: "
             f"Mr. X wins {s.win_rate:.1%} (95% CI {lo:.1%}-{hi:.1%})"]
    short = ["start", "games", "mrx wins", "win rate", "95% CI", "capture", "trapped", "stuck", "log full",
             "forfeit", "rounds mean", "q1", "median", "q3"]
    trows = [[r[0], r[1], r[2], f"{r[3]:.1%}", f"{r[4]:.1%}-{r[5]:.1%}", *r[6:11], f"{r[11]:.1f}",
              *(f"{q:g}" for q in r[12:15])] for r in rows]
    right = [by_start] + [True] * (len(short) - 1)
    lines.append(table(short, trows, right))
    return "\n".join(lines)


@dataclass
class ForfeitNotes:
    """The forfeits of a run by kind, for one warning line per kind (not per game): two games
    forfeit for the same reason when their messages differ only in numbers (the move or action
    each returned, the station ...)."""

    #: per kind: the number of games, the first game's number and message
    kinds: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, game: GameResult) -> None:
        """Count ``game`` if it was forfeit."""
        if game.forfeit is None:
            return
        import re

        kind = re.sub(r"\d+", "#", game.forfeit)
        if kind in self.kinds:
            self.kinds[kind][0] += 1
        else:
            self.kinds[kind] = [1, game.game, game.forfeit]

    def lines(self) -> list[str]:
        """One line per kind: how many games, and the first one's message."""
        return [f"{n} game{'s' if n != 1 else ''} forfeit (the first, game {first}: {message})"
                for n, first, message in self.kinds.values()]
