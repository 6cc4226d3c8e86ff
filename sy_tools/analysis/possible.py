"""The possible-set result and :func:`possible`, the entry point."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ..engine.args import instance_arg
from ..engine.board import Board
from ..engine.budget import check_time
from ..engine.hops import mrx_sources
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, stations_of
from ..formats.jsonutil import int_text
from ..formats.record import RECORD_HINT, Record
from .tracker import WEIGHTS, Capture, FinalState, Share, Trace, final_state, trace
from .weights import COUNT_BITS, EXACT_BITS, _backward, _forward, _move_share, _normalise, _rescale, is_exact


@dataclass(frozen=True)
class Possible:
    """Where Mr. X can be, from the detectives' point of view.

    ``probabilities`` sum to 1 over ``stations``; ``route_counts`` (``paths`` weights only) are the
    exact numbers of consistent routes ending at each station (None when the routes number more
    than 2**COUNT_BITS, which only a record far longer than a game reaches).  ``history[i]`` is the set of
    stations where he could have been right after move ``i + 1`` given the *whole* record.
    """

    stations: tuple[Station, ...]
    probabilities: dict[Station, float]
    weights: str
    move: int
    round: int
    next_reveal: int | None
    detectives: dict[str, Station]
    last_reveal: tuple[int, Station] | None = None
    capture: Capture | None = None
    route_counts: dict[Station, int] | None = None
    history: tuple[tuple[Station, ...], ...] | None = None
    history_probabilities: tuple[dict[Station, float], ...] | None = None
    file: str | None = None
    #: what the reader must know about the analysis (the cut-off escape applied with incomplete via data)
    warnings: tuple[str, ...] = ()

    @property
    def moves_to_reveal(self) -> int | None:
        """Mr. X moves until his next reveal (1 = the next move is a reveal move)."""
        return None if self.next_reveal is None else self.next_reveal - self.move

    def ranked(self) -> list[tuple[Station, float]]:
        """Stations with their probabilities, most likely first (ties by station number)."""
        return sorted(self.probabilities.items(), key=lambda kv: (-kv[1], kv[0]))

    def to_dict(self) -> dict[str, object]:
        """The stable JSON form (docs/cli.md, "possible")."""
        out: dict[str, object] = {
            "file": self.file,
            "round": self.round,
            "move": self.move,
            "weights": self.weights,
            "count": len(self.stations),
            "stations": list(self.stations),
            "probabilities": {str(s): p for s, p in sorted(self.probabilities.items())},
            "next_reveal": self.next_reveal,
            "moves_to_reveal": self.moves_to_reveal,
            "last_reveal": None if self.last_reveal is None else
            {"move": self.last_reveal[0], "station": self.last_reveal[1]},
            "detectives": dict(self.detectives),
            "capture": None if self.capture is None else
            {"station": self.capture.station, "by": self.capture.by, "round": self.capture.round},
        }
        if self.route_counts is not None:
            out["route_counts"] = {str(s): int_text(c) for s, c in sorted(self.route_counts.items())}
        if self.history is not None:
            out["history"] = [list(h) for h in self.history]
        if self.history_probabilities is not None:
            out["history_probabilities"] = [{str(s): p for s, p in h.items()} for h in self.history_probabilities]
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def to_csv(self, top: int | None = None) -> str:
        """``station,probability[,routes]`` rows, most likely first (the ``top`` most likely
        only, when given): ``possible --format csv``."""
        rows = self.ranked()[:top]
        counts = self.route_counts
        lines = ["station,probability" + (",routes" if counts else "")]
        for s, p in rows:
            extra = f",{int_text(counts[s])}" if counts else ""
            lines.append(f"{s},{p:.6f}{extra}")
        return "\n".join(lines) + "\n"

    def moment_text(self) -> str:
        """The moment, the next reveal and the last one: the first line of :meth:`to_text` (and
        of ``play``'s block after a round)."""
        from ..engine.moves import when_text
        from ..formats.report_text import plural

        head = when_text(self.round, self.move)
        if self.next_reveal is not None:
            head += f"; next reveal at move {self.next_reveal} ({plural(self.moves_to_reveal or 0, 'move')} away)"
        else:
            head += "; no reveal left"
        if self.last_reveal:
            head += f"; last seen at {self.last_reveal[1]} (move {self.last_reveal[0]})"
        return head

    def to_text(self, top: int | None = None) -> str:
        """The result as a player reads it (``possible --format text``): the moment and the
        next reveal, a table of the stations (the ``top`` most likely only, when given) and the
        history, if any; or the capture that ended the game."""
        from ..formats.output import table
        from ..formats.report_text import count_cell

        if self.capture is not None:
            c = self.capture
            over = f"Mr. X was caught at {c.station} by {c.by} in round {c.round}: the game is over."
            return over + "\n" + self._history_text() if self.history is not None else over
        head = self.moment_text()
        n = len(self.stations)
        dets = ", ".join(f"{name} {s}" for name, s in self.detectives.items())
        lines = [head, f"{n} possible station{'s' if n != 1 else ''} (weights: {self.weights}); detectives: {dets}",
                 ""]
        ranked = self.ranked()
        shown = ranked[:top] if top else ranked
        headers = ["station", "probability"]
        rows: list[list[object]] = [[s, f"{p:.4f}"] for s, p in shown]
        if self.route_counts is not None:
            headers.append("routes")
            for r, (s, _) in zip(rows, shown):
                r.append(count_cell(self.route_counts[s]))
        lines.append(table(headers, rows, right=[True] * len(headers)))
        if top and len(ranked) > top:
            lines.append(f"... and {len(ranked) - top} more")
        if self.history is not None:
            lines.append(self._history_text())
        return "\n".join(lines)

    def _history_text(self) -> str:
        """The history table, after a blank line and its heading."""
        from ..formats.output import table

        return "\n".join(["", "history (where he could have been after each move, given the whole record):",
                          table(["move", "count", "most_likely", "stations"], self._history_rows(),
                                right=[True, True, False, False])])

    def _history_rows(self) -> list[list[object]]:
        """A row per move of the history: its count, most likely station, every station."""
        rows: list[list[object]] = []
        for i, h in enumerate(self.history or (), 1):
            probs = self.history_probabilities[i - 1] if self.history_probabilities else {}
            best = max(probs.items(), key=lambda kv: (kv[1], -kv[0])) if probs else None
            rows.append([i, len(h), "" if best is None else f"{best[0]} ({best[1]:.2f})", " ".join(map(str, h))])
        return rows

    def at_move(self, n: int) -> dict[Station, float]:
        """Where he could have been right after his move ``n`` (1-based, as every table counts),
        given the whole record: station -> probability.  Needs ``history=True``."""
        if self.history is None:
            raise ValueError("no history: call possible(record, history=True)")
        if not 1 <= n <= len(self.history):
            raise IndexError(f"move {n} is out of range: the record has moves 1..{len(self.history)}")
        probs = self.history_probabilities[n - 1] if self.history_probabilities else {}
        return {s: probs.get(s, 0.0) for s in self.history[n - 1]}

    def to_frame(self):  # -> pandas.DataFrame
        """Where he can be now: one row per station (``station``, ``probability`` and, with
        ``paths`` weights, ``routes``), most likely first."""
        import pandas as pd

        rows = [{"station": s, "probability": p, **({"routes": self.route_counts[s]} if self.route_counts else {})}
                for s, p in self.ranked()]
        return pd.DataFrame(rows, columns=["station", "probability"] + (["routes"] if self.route_counts else []))

    def history_frame(self):  # -> pandas.DataFrame
        """The history as a tidy pandas DataFrame: one row per move and station (``move``
        1-based, ``station``, ``probability``), numeric columns."""
        import pandas as pd

        rows = [(n, s, p) for n in range(1, len(self.history or ()) + 1) for s, p in self.at_move(n).items()]
        return pd.DataFrame(rows, columns=["move", "station", "probability"])


def smooth(board: Board, tr: Trace, rules: Rules | None = None) -> list[StationMask]:
    """Forward-backward: after each move, the stations that lie on some route consistent with
    the whole record (``rules``: for the cut-off escape's closed connections)."""
    sets = list(tr.sets)
    for i in range(len(sets) - 2, -1, -1):
        if i & 255 == 0:
            check_time()
        sets[i] &= mrx_sources(board, sets[i + 1], tr.steps[i + 1].ticket, tr.steps[i + 1].occupied, rules)
    return sets


def uniform_possible(fin: FinalState, board: Board, rules: Rules, file: str | None) -> Possible:
    """The :class:`Possible` of ``possible(record, "uniform")`` from the record's :func:`final_state`."""
    stations = tuple(stations_of(fin.mask))
    return Possible(
        stations=stations,
        probabilities={s: 1 / len(stations) for s in stations},
        weights="uniform",
        move=fin.moves,
        round=fin.round,
        next_reveal=None if fin.capture else rules.next_reveal(fin.moves),
        detectives=fin.positions,
        last_reveal=fin.last_reveal,
        capture=fin.capture,
        file=file,
        warnings=_warnings(board, rules),
    )


def possible(record: Record, weights: str = "paths", history: bool = False) -> Possible:
    """Where Mr. X can be now (and, with ``history``, where he could have been after each move),
    with probabilities under ``weights``:

    * ``paths`` (default): every route consistent with the record is equally likely;
    * ``uniform``: every possible station is equally likely;
    * ``moves``: Mr. X picks uniformly among the destinations his shown ticket allows.

    Raises :class:`InconsistentRecord` (exit 1) if no route fits the record.
    """
    instance_arg(record, Record, "record", RECORD_HINT)
    if weights not in WEIGHTS:
        raise ValueError(f"unknown weights {weights!r}, expected one of {', '.join(WEIGHTS)}")
    board = record.board
    if weights == "uniform" and not history:  # the batch hot path: no per-move bookkeeping
        return uniform_possible(final_state(record), record.board, record.rules, record.file)
    tr = trace(record)
    current = tr.current
    stations = tuple(stations_of(current))
    counts = None
    hist = hist_p = None
    smoothed = smooth(board, tr, record.rules) if history or weights != "uniform" else None
    if weights == "uniform":
        probs = {s: 1 / len(stations) for s in stations}
        if smoothed is not None:
            hist_p = tuple({s: 1 / m.bit_count() for s in stations_of(m)} for m in smoothed)
    elif not tr.steps:
        if weights == "paths":
            counts = {s: 1 for s in stations}
        probs = {s: 1 / len(stations) for s in stations}
        hist_p = () if history else None
    else:
        assert smoothed is not None
        rules = record.rules
        if weights == "paths":  # each next station once; exact integer counts while they fit
            # (every move's weights, for the history, exact up to EXACT_BITS; the last move's
            # alone, for the counts, up to COUNT_BITS: memory stays flat either way)
            fwd = _forward(board, tr, 1, None, smoothed, rules, history, EXACT_BITS if history else COUNT_BITS)
            exact = is_exact(fwd[-1])
            last = fwd[-1] if exact or not history else _forward(board, tr, 1, None, smoothed, rules, False,
                                                                   COUNT_BITS)[-1]
            if is_exact(last):
                counts = {s: int(last[s]) for s in stations}
            share: Share | None = None
        else:
            share, exact = partial(_move_share, rules=rules), False
            fwd = _forward(board, tr, 1.0, share, smoothed, rules, history)
            last = fwd[-1]
        probs = _normalise({s: last[s] for s in stations})
        if history:
            if not exact:  # (the moves before the switch to floats: their shares, as floats too)
                fwd = [_rescale(g) if is_exact(g) else g for g in fwd]
            bwd = _backward(board, tr, smoothed, share, exact, rules)
            hist_p = tuple(
                _normalise({s: fwd[i].get(s, 0) * bwd[i][s] for s in stations_of(smoothed[i]) if s in bwd[i]})
                for i in range(len(smoothed))
            )
    if history and smoothed is not None:
        hist = tuple(tuple(stations_of(m)) for m in smoothed)
    n = len(tr.steps)
    return Possible(
        stations=stations,
        probabilities=probs,
        weights=weights,
        move=n,
        round=tr.round if tr.capture is None else tr.capture.round,
        next_reveal=None if tr.capture else record.rules.next_reveal(n),
        detectives=dict(tr.positions),
        last_reveal=tr.last_reveal,
        capture=tr.capture,
        route_counts=counts,
        history=hist,
        history_probabilities=hist_p,
        file=record.file,
        warnings=_warnings(board, record.rules),
    )


def _warnings(board: Board, rules: Rules) -> tuple[str, ...]:
    if not rules.cutoff_escape:
        return ()  # (without loading the validator: a batch asks this of every record)
    from ..formats.map_check import cutoff_warning

    w = cutoff_warning(board, rules)
    return () if w is None else (w,)
