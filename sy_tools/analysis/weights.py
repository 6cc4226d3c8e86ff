"""Path weights for the possible-set tracker."""

from __future__ import annotations

from ..engine.board import Board
from ..engine.budget import check_time
from ..engine.hops import mrx_targets
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, stations_of
from ..engine.tickets import Ticket
from .tracker import Share, Step, Trace, Weight

#: ``paths`` probabilities are exact (route counts as Python integers) while the record has
#: fewer than 2**EXACT_BITS consistent routes (any classic game: 24 moves from 199 stations stay
#: below 2**190); from the move where the count passes that, they are floats renormalised after
#: every move, so a record of thousands of moves costs time and memory linear in its length
#: instead of growing with the counts' digits.
EXACT_BITS = 1024

#: ``paths`` route counts (the last move's alone, so memory stays flat) are exact while the record
#: has fewer than 2**COUNT_BITS consistent routes (about 2,000 moves on the London map); past
#: that, :func:`~sy_tools.analysis.possible.possible` gives no ``route_counts``, only probabilities.
COUNT_BITS = 4096


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
             keep: list[StationMask], rules: Rules | None = None, every: bool = True,
             exact_bits: int = EXACT_BITS) -> list[dict[Station, Weight]]:
    """Weight of consistent route prefixes ending at each station of ``keep[i]`` after move i
    (with ``every`` False, just the last move's: memory stays flat however long the record).

    ``keep`` is the smoothed history: a prefix through a station outside it can never become a
    whole consistent route, so dropping it changes no count that matters and saves the work.
    Integer weights stay exact while their total fits in ``exact_bits`` bits; past that they
    become floats (each its share of the total) for the rest of the record.  Float weights are
    divided by their sum after every move (only ratios within one move matter), so they neither
    overflow nor underflow on long records, and the cost stays linear in the record's length."""
    f: dict[Station, Weight] = {s: start for s in stations_of(tr.start)}
    out: list[dict[Station, Weight]] = []
    exact = isinstance(start, int)
    cut = _cutoff(board, rules)
    for i, (st, live) in enumerate(zip(tr.steps, keep)):
        if i & 255 == 0:
            check_time()
        lists = board._lists[st.ticket]
        g: dict[Station, Weight] = {}
        for s, c in f.items():
            if share is not None:
                c = c * share(board, s, st)
            for d in (_dests(board, s, st, rules) if cut else lists[s]):
                if live >> d & 1:
                    g[d] = g.get(d, 0) + c
        if exact and int(sum(g.values())).bit_length() > exact_bits:
            exact = False  # too many routes to count exactly: shares from here on
        if not exact:
            g = _rescale(g)
        if every or not out:
            out.append(g)
        else:
            out[0] = g
        f = g
    return out


def is_exact(weights: dict[Station, Weight]) -> bool:
    """Whether ``weights`` (a :func:`_forward` result's) are exact route counts, not shares."""
    return all(isinstance(w, int) for w in weights.values())


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
        if i & 255 == 0:
            check_time()
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
    return {s: w / total for s, w in weights.items()} if total else weights  # (int / int: correctly rounded)


def _normalise(weights: dict[Station, Weight]) -> dict[Station, float]:
    """Shares as floats (exact weights: each the float nearest to weight / total)."""
    total = sum(weights.values())
    if not total:
        return {}
    return {s: float(w / total) for s, w in sorted(weights.items())}  # int / int is correctly rounded
