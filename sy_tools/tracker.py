"""Where can Mr. X be?  The possible-set filter, its history and probabilities.

Semantics (the detectives' point of view; ``to`` on hidden moves is never evidence):

* start: the record's start candidates (deck minus detective starts by default);
* a Mr. X move with ticket ``t`` from set ``S``: every station joined to ``S`` by ``t``'s transports
  (black: all four, the only way onto the ferry), minus the stations detectives occupy then;
  each leg of a double move is a move, blocked by the same detective positions;
* a reveal move, or a voluntary reveal (``"shown": true``): ``S`` becomes the shown station
  (inconsistent if it isn't in ``S``);
* a detective move onto a station removes it (no capture was announced); a move marked
  ``"capture": true`` ends the game with Mr. X there;
* an empty set means the record contradicts the map or the rules (:class:`InconsistentRecord`).

Everything on the hot path is bitset algebra on :class:`~sy_tools.board.Board` masks; the route
counts of the ``paths`` weights are exact Python integers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from .board import Board, Station, StationMask, Ticket, mask_of, stations_of
from .errors import AnalysisError, RecordError
from .jsonutil import int_text
from .movement import mrx_sources, mrx_targets
from .record import MrXMove, Record
from .rules import Rules

Weight = int | float  # exact route counts, or rescaled floats (see EXACT_BITS)
Share = Callable[[Board, Station, "Step"], float]
WEIGHTS: tuple[str, ...] = ("paths", "uniform", "moves")


class InconsistentRecord(AnalysisError):
    """No route of Mr. X fits the record.  ``move``/``round``/``leg`` say where it broke."""

    def __init__(self, message: str, file: str | None, where: str, move: int, round: int, leg: int | None) -> None:
        self.move = move
        self.round = round
        self.leg = leg
        super().__init__(message, file, where)


@dataclass(frozen=True)
class Capture:
    """The move that caught Mr. X."""

    station: Station
    by: str
    round: int
    where: str


class Step(NamedTuple):
    """One Mr. X move as the filter saw it (a NamedTuple: made once per move, so cheap)."""

    move: int
    round: int
    leg: int
    ticket: Ticket
    occupied: StationMask  # detectives' stations when he moved
    revealed: Station | None
    where: str


@dataclass
class Trace:
    """The forward pass over a record: the start set, each move, and the set Mr. X may hold
    after it (pruned by everything that happened before his next move)."""

    start: StationMask
    steps: list[Step] = field(default_factory=list)
    sets: list[StationMask] = field(default_factory=list)
    positions: dict[str, Station] = field(default_factory=dict)  # detectives now
    capture: Capture | None = None
    round: int = 0
    last_reveal: tuple[int, Station] | None = None

    @property
    def current(self) -> StationMask:
        return self.sets[-1] if self.sets else self.start


def trace(record: Record) -> Trace:
    """Run the possible-set filter over ``record`` (raises :class:`InconsistentRecord`)."""
    board = record.board
    reveals = frozenset(record.rules.reveal_moves)
    pos = {d.name: d.start for d in record.detectives}
    occupied = mask_of(pos.values())
    start = mask_of(record.start_candidates) & ~occupied
    tr = Trace(start=start, positions=pos)
    if not start:
        raise InconsistentRecord("no start candidate is free of detectives", record.file, "mrx.start_candidates",
                                 0, 0, None)
    S = start
    n = 0
    for r_i, rnd in enumerate(record.rounds, 1):
        tr.round = r_i
        for leg, m in enumerate(rnd.mrx, 1):
            n += 1
            if _onto_detective(record, m, occupied):  # (rules: caught) he steps onto one, in the open
                reach = mrx_targets(board, S, m.ticket, occupied, record.rules, onto_detectives=True)
                assert m.to is not None
                if not reach >> m.to & 1:
                    raise _inconsistent(record, m.where, n, r_i, leg, m.ticket,
                                        f"Mr. X steps onto {m.to}, which no route fitting the record reaches")
                tr.steps.append(Step(n, r_i, leg, m.ticket, occupied, m.to, m.where))
                tr.sets.append(1 << m.to)
                tr.last_reveal = (n, m.to)
                by = next(name for name, at in pos.items() if at == m.to)
                tr.capture = Capture(m.to, by, r_i, m.where)
                return tr
            S = mrx_targets(board, S, m.ticket, occupied, record.rules)
            shown = None
            if n in reveals or m.took is not None:  # a fixed or a voluntary reveal
                if m.to is None:
                    raise RecordError(f"move {n} is a reveal move: 'to' (the station Mr. X showed) is required",
                                      record.file, f"{m.where}.to")
                shown = m.to
                if not S >> shown & 1:
                    raise _inconsistent(record, m.where, n, r_i, leg, m.ticket,
                                        f"Mr. X shows himself at {shown}, which no route fitting the record reaches")
                S = 1 << shown
                tr.last_reveal = (n, shown)
            if not S:
                raise _inconsistent(record, m.where, n, r_i, leg, m.ticket,
                                    "no station is left where Mr. X can be")
            tr.steps.append(Step(n, r_i, leg, m.ticket, occupied, shown, m.where))
            tr.sets.append(S)
        for dm in rnd.detectives:
            old = pos[dm.name]
            pos[dm.name] = dm.to
            occupied = (occupied & ~(1 << old)) | (1 << dm.to)
            if dm.capture:
                if not S >> dm.to & 1:
                    raise _inconsistent(record, dm.where, n, r_i, None, dm.ticket,
                                        f"{dm.name} is said to catch Mr. X at {dm.to}, where he cannot be")
                tr.sets[-1] = 1 << dm.to
                tr.capture = Capture(dm.to, dm.name, r_i, dm.where)
                return tr
            S &= ~(1 << dm.to)
            if not S:
                raise _inconsistent(record, dm.where, n, r_i, None, dm.ticket,
                                    f"{dm.name} moved to {dm.to} without catching Mr. X, and he can be nowhere else")
            tr.sets[-1] = S
    tr.round = len(record.rounds)
    return tr


def _onto_detective(record: Record, m: MrXMove, occupied: StationMask) -> bool:
    """Whether Mr. X's move ``m`` steps onto a detective, which ends the game under
    ``mrx_onto_detective: caught`` (the move is then made in the open: its station is known)."""
    return m.to is not None and bool(occupied >> m.to & 1) and record.rules.mrx_onto_detective == "caught"


def _inconsistent(record: Record, where: str, move: int, round: int, leg: int | None, ticket: Ticket,
                  why: str) -> InconsistentRecord:
    if leg is None:
        at = f"round {round}, detectives' move ({ticket.value})"
    else:
        double = len(record.rounds[round - 1].mrx) == 2
        part = f" (leg {leg} of a double move)" if double else ""
        at = f"round {round}, Mr. X's move {move}{part}, {ticket.value} ticket"
    return InconsistentRecord(f"the record is inconsistent at {at}: {why}", record.file, where, move, round, leg)


class _Final(NamedTuple):
    mask: StationMask
    moves: int
    round: int
    positions: dict[str, Station]
    last_reveal: tuple[int, Station] | None
    capture: Capture | None


def _final(record: Record) -> _Final:
    """Just where Mr. X can be at the end, and what the result reports with it: the hot path of
    a batch (``--weights uniform`` without history), same semantics as :func:`trace`, which it
    falls back to, to name the move, when the record is inconsistent."""
    board = record.board
    stations = {d.start for d in record.detectives}
    stations.update([dm.to for rnd in record.rounds for dm in rnd.detectives])
    if not board.neighbours[Ticket.TAXI].keys() >= stations:  # (a record built by hand may name any number)
        return _final_of_trace(trace(record))
    return final_of(board, record.rules, record.detectives, record.start_candidates, record.rounds,
                    lambda: trace(record))


def _final_of_trace(tr: Trace) -> _Final:
    return _Final(tr.current, len(tr.steps), tr.capture.round if tr.capture else tr.round, dict(tr.positions),
                  tr.last_reveal, tr.capture)


def final_of(board: Board, rules: Rules, detectives: Iterable[Any], start_candidates: Iterable[Station],
             rounds: Iterable[Any], slow: Callable[[], Trace]) -> _Final:
    """:func:`_final` of a record given by its parts.  ``detectives`` may be :class:`Detective` s
    or anything with their ``name`` and ``start``; ``rounds`` :class:`Round` s or anything with
    their attributes (``mrx``: moves with ``ticket``, ``to``, ``took``;
    ``detectives``: moves with ``name``, ``to``, ``capture``; a missing list false), so that a
    batch can filter its decoded records without building them.  ``slow()`` is called wherever
    the filter needs the move-by-move trace (an inconsistent record, which it raises; a capture
    by Mr. X's own move, which it returns)."""
    reveals = rules.reveal_moves
    caught = rules.mrx_onto_detective == "caught"
    bits, clears = board.bits, board.clears
    pos = {d.name: d.start for d in detectives}
    occupied = mask_of(pos.values())
    S = mask_of(start_candidates) & ~occupied
    if not S:
        slow()  # raises, naming the move
    n = 0
    last_reveal: tuple[int, Station] | None = None
    r_i = 0
    for r_i, rnd in enumerate(rounds, 1):
        for m in rnd.mrx:
            n += 1
            if caught and m.to is not None and occupied >> m.to & 1:  # (_onto_detective, inlined: hot path)
                return _final_of_trace(slow())
            S = mrx_targets(board, S, m.ticket, occupied, rules)
            if n in reveals or m.took is not None:
                if m.to is None:
                    slow()  # raises: a reveal needs its station
                    break
                S &= 1 << m.to
                last_reveal = (n, m.to)
            if not S:
                slow()  # raises, naming the move
        dms = rnd.detectives
        if dms:
            moved = 0  # (the round's stations, cleared from S at once: fewer temporary masks)
            for j, dm in enumerate(dms):
                to = dm.to
                name = dm.name
                occupied = (occupied & clears[pos[name]]) | bits[to]
                pos[name] = to
                if dm.capture:
                    S &= ~moved & bits[to]
                    if not S:
                        slow()
                    where = getattr(dm, "where", None) or f"rounds[{r_i - 1}].detectives[{j}]"  # (a struct has no place)
                    return _Final(S, n, r_i, pos, last_reveal, Capture(to, name, r_i, where))
                moved |= bits[to]
            S &= ~moved
        if not S:
            slow()
    return _Final(S, n, r_i, pos, last_reveal, None)


def possible_mask(record: Record) -> StationMask:
    """Just the current possible set, as a mask (raises like :func:`trace`)."""
    return _final(record).mask


# ---- weights ----------------------------------------------------------------------------------


#: ``paths`` history probabilities are exact (route counts as Python integers) while the record
#: has fewer than 2**EXACT_BITS consistent routes (any classic game: 24 moves from 199 stations
#: stay below 2**190); past that, they are floats renormalised after every move, so a record of
#: thousands of moves costs time linear in its length instead of growing with the counts' digits.
EXACT_BITS = 1024


def _legal_count(board: Board, s: Station, ticket: Ticket, occupied: StationMask, rules: Rules | None = None) -> int:
    if _cutoff(board, rules):
        return mrx_targets(board, 1 << s, ticket, occupied, rules).bit_count()
    return (board.neighbours[ticket][s] & ~occupied).bit_count()


def _move_share(board: Board, s: Station, st: Step, rules: Rules | None = None) -> float:
    """``moves`` weights: Mr. X picks uniformly among his ticket's legal destinations."""
    k = _legal_count(board, s, st.ticket, st.occupied, rules)
    return 1.0 / k if k else 0.0  # no legal destination: nothing to share


def _cutoff(board: Board, rules: Rules | None) -> bool:
    """Whether connections may close under Mr. X (the cut-off escape rule on a map with via data)."""
    return rules is not None and rules.cutoff_escape and bool(board.via)


def _dests(board: Board, s: Station, st: Step, rules: Rules | None) -> list[Station] | tuple[Station, ...]:
    """Where Mr. X's move ``st`` may take him from ``s`` (detectives' stations aside, which the
    live sets exclude): the ticket's connections, minus those closed under the cut-off escape."""
    if _cutoff(board, rules):
        return stations_of(mrx_targets(board, 1 << s, st.ticket, st.occupied, rules))
    return board._lists[st.ticket][s]


def _forward(board: Board, tr: Trace, start: Weight, share: Share | None,
             keep: list[StationMask], rules: Rules | None = None) -> list[dict[Station, Weight]]:
    """Weight of consistent route prefixes ending at each station of ``keep[i]`` after move i.

    ``keep`` is the smoothed history: a prefix through a station outside it can never become a
    whole consistent route, so dropping it changes no count that matters and saves the work.
    Integer weights stay exact; float weights are divided by their sum after every move (only
    ratios within one move matter), so they neither overflow nor underflow on long records."""
    f: dict[Station, Weight] = {s: start for s in stations_of(tr.start)}
    out = []
    exact = isinstance(start, int)
    cut = _cutoff(board, rules)
    for st, live in zip(tr.steps, keep):
        lists = board._lists[st.ticket]
        g: dict[Station, Weight] = {}
        for s, c in f.items():
            if share is not None:
                c = c * share(board, s, st)
            for d in (_dests(board, s, st, rules) if cut else lists[s]):
                if live >> d & 1:
                    g[d] = g.get(d, 0) + c
        if not exact:
            g = _rescale(g)
        out.append(g)
        f = g
    return out


def _backward(board: Board, tr: Trace, sets: list[StationMask], share: Share | None,
              exact: bool = True, rules: Rules | None = None) -> list[dict[Station, Weight]]:
    """Weight of consistent route continuations from each station after each move (floats
    rescaled after every move unless ``exact``)."""
    n = len(tr.steps)
    b: list[dict[Station, Weight]] = [dict() for _ in range(n)]
    if not n:
        return b
    one: Weight = 1 if exact else 1.0
    b[-1] = {s: one for s in stations_of(tr.sets[-1])}
    cut = _cutoff(board, rules)
    for i in range(n - 2, -1, -1):
        st = tr.steps[i + 1]
        lists = board._lists[st.ticket]
        nxt = b[i + 1]
        cur: dict[Station, Weight] = {}
        for s in stations_of(sets[i]):
            c = sum(nxt.get(d, 0) for d in (_dests(board, s, st, rules) if cut else lists[s]))
            if c:
                cur[s] = c if share is None else c * share(board, s, st)
        b[i] = cur if exact else _rescale(cur)
    return b


def _rescale(weights: dict[Station, Weight]) -> dict[Station, Weight]:
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()} if total else weights


def _normalise(weights: dict[Station, Weight]) -> dict[Station, float]:
    """Shares as floats (exact weights: each the float nearest to weight / total)."""
    total = sum(weights.values())
    if not total:
        return {}
    return {s: float(w / total) for s, w in sorted(weights.items())}  # int / int is correctly rounded


# ---- the result ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Possible:
    """Where Mr. X can be, from the detectives' point of view.

    ``probabilities`` sum to 1 over ``stations``; ``route_counts`` (``paths`` weights only) are the
    exact numbers of consistent routes ending at each station.  ``history[i]`` is the set of
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
        """The stable JSON form (see README, "possible --format json")."""
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
        sets[i] &= mrx_sources(board, sets[i + 1], tr.steps[i + 1].ticket, tr.steps[i + 1].occupied, rules)
    return sets


def uniform_possible(fin: _Final, board: Board, rules: Rules, file: str | None) -> Possible:
    """The :class:`Possible` of ``possible(record, "uniform")`` from the record's :func:`_final`."""
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
    if weights not in WEIGHTS:
        raise ValueError(f"unknown weights {weights!r}, expected one of {', '.join(WEIGHTS)}")
    board = record.board
    if weights == "uniform" and not history:  # the batch hot path: no per-move bookkeeping
        return uniform_possible(_final(record), record.board, record.rules, record.file)
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
        if weights == "paths":  # each next station once; exact integer counts
            fwd = _forward(board, tr, 1, None, smoothed, rules)
            counts = {s: int(fwd[-1][s]) for s in stations}
            exact = sum(counts.values()).bit_length() <= EXACT_BITS
            share: Share | None = None
        else:
            share, exact = partial(_move_share, rules=rules), False
            fwd = _forward(board, tr, 1.0, share, smoothed, rules)
        probs = _normalise({s: fwd[-1][s] for s in stations})
        if history:
            if not exact and weights == "paths":
                fwd = _forward(board, tr, 1.0, None, smoothed, rules)
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
    from .validate import cutoff_warning

    w = cutoff_warning(board, rules)
    return () if w is None else (w,)
