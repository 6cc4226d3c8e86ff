"""The batch's cheap legality test, run in the same walk over the moves as the possible-set filter.

``possible`` refuses an illegal record with ``check``'s finding; over a batch of thousands of
records the full referee would cost more than the analysis, so the batch's fast path asks
:func:`vouched_final_state`, which replays the record's parts on the board's bit tables, vouches
only for what it can prove legal, and filters Mr. X's possible stations as it goes.  It lives
apart from the referee so that a batch does not load the engine's classes (start-up is a large
share of a ``sy-tools possible`` run over small records).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..engine.board import Board
from ..engine.budget import check_time
from ..engine.hops import mrx_targets
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, mask_of
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, Ticket
from .tracker import Capture, FinalState


def vouched_final_state(board: Board, rules: Rules, detectives: Sequence[Any], detective_tickets: Sequence[Any],
                        mrx_tickets: Mapping[str, int], mrx_start: Station | None,
                        start_candidates: Sequence[Station], rounds: Sequence[Any],
                        slow: Callable[[], Any]) -> FinalState | None:
    """The possible-set filter's :class:`FinalState` of a plain record given by its parts (as
    :func:`~sy_tools.analysis.tracker.final_state_of_parts` takes them, with the detectives'
    tickets, None for the rules', and Mr. X's), when ``check`` surely finds no error in it;
    None when it can't vouch for that.  None means "not vouched for", never "illegal": the
    caller then asks ``check``, which decides and names the place.  One walk over the moves
    judges and filters (the batch's hot path); ``slow`` as for the filter, called where it needs
    the move-by-move trace.

    It vouches only for the common shapes, under rules without the variants: no pass, no
    voluntary reveal; a detectives' record with stations on the reveal moves alone, or a full
    one (Mr. X's start and every station, each hop on the board's bit tables, never onto a
    detective); the detectives moving in turn order, once a round (one it skips passes, and is
    out for good if it could not move and the rules say so, :meth:`Rules.stuck_is_out`: never
    to move again); every ticket held (Mr. X's counting the detectives' used ones from his
    next move); double moves within the allowance; every detective hop on the bit tables, onto a
    free station; nothing after the end (a capture is the record's last move, onto Mr. X where
    his station is known; no round after the log filled or every detective was stuck).  What a detectives' record leaves open,
    whether a route fits (reveals, captures, the start candidates), is the possible-set filter's,
    which runs with it and falls back to the general path; Mr. X moving with a held ticket where
    a route fits is also why he was not trapped before."""
    if rules.voluntary_reveal or rules.cutoff_escape or rules.mrx_onto_detective != "illegal":
        return None
    names = {d.name: i for i, d in enumerate(detectives)}
    stations = [d.start for d in detectives]
    n_det = len(stations)
    if len(names) != n_det or len(set(stations)) != n_det:
        return None
    tables, mrx_tables, default = _tables(board, rules)
    tks = [dict(default) if t is None else {k: t.get(v, 0) for k, v in _DETECTIVE_KINDS} for t in detective_tickets]
    held = {k: mrx_tickets.get(v, 0) for k, v in _MRX_KINDS}  # his own, less what he spent (below 0: given ones)
    given = [dict(t) for t in tks] if rules.tickets_to_mrx else None  # (what the detectives spend reaches him)
    order = [d.name for d in detectives]
    doubles_left = min(mrx_tickets.get("double", 0), rules.double_moves_per_game)
    if rules.double_moves_per_round < 1:
        doubles_left = 0
    reveals, log_length = rules.reveal_moves, rules.log_length
    bits, clears = board.bits, board.clears
    occupied = mask_of(stations)
    here = mrx_start  # Mr. X's station when the record holds it
    if here is not None and (here not in start_candidates or occupied >> here & 1):
        return None
    S = mask_of(start_candidates) & ~occupied
    if not S:
        slow()  # raises, naming the move
    out: set[int] = set()  # the detectives out of the game (stuck)
    n = 0
    last = len(rounds)
    last_reveal: tuple[int, Station] | None = None
    r_i = 0
    for r_i, rnd in enumerate(rounds, 1):
        if r_i & 255 == 0:
            check_time()
        if n >= log_length:
            return None  # a round after the log filled
        xs = rnd.mrx
        if len(xs) == 2:
            if doubles_left <= 0:
                return None
            doubles_left -= 1
        elif len(xs) != 1:
            return None
        for m in xs:
            n += 1
            t, to = m.ticket, m.to
            c = held.get(t, 0)
            if c <= 0 and (given is None or t not in default
                           or c + sum([g[t] - k[t] for g, k in zip(given, tks)]) <= 0) or m.took is not None:
                return None
            if here is None:
                if isinstance(to, int) is not (n in reveals):
                    return None  # a detectives' record shows him on the reveal moves alone
            elif not isinstance(to, int) or not mrx_tables[t].get(here, 0) >> to & 1 or occupied >> to & 1:
                return None
            else:
                here = to
            held[t] = c - 1
            S = mrx_targets(board, S, t, occupied, rules)
            if n in reveals:
                S &= 1 << to
                last_reveal = (n, to)
            if not S:
                slow()  # raises, naming the move
        if n > log_length:
            return None
        dms = rnd.detectives
        if not dms:
            if r_i > 1 and not any(k not in out and _can_move(tks[k], stations[k], stations, tables)
                                   for k in range(n_det)):
                return None  # every detective was stuck: the game ended before this round
            if r_i < last:
                _pass(out, range(n_det), tks, stations, tables, rules)
            continue
        moved = 0  # (the round's stations, cleared from S at once)
        if len(dms) == n_det and not out:  # everyone moves, in turn order (the commonest round)
            for j, dm in enumerate(dms):
                t, at, to = dm.ticket, stations[j], dm.to
                counts = tks[j]
                c = counts.get(t, 0)
                if dm.name != order[j] or c <= 0 or not tables[t].get(at, 0) >> to & 1 or occupied >> to & 1:
                    return None  # (out of turn order, a round full or not: the move-by-move test says no too)
                counts[t] = c - 1
                stations[j] = to
                occupied = (occupied & clears[at]) | bits[to]
                if dm.capture is True or to == here:  # the end: the record's last move, onto him where known
                    return _captured(S, moved, to, dm, j, r_i, here, r_i == last and j == n_det - 1, n,
                                     detectives, stations, last_reveal, slow)
                moved |= bits[to]
            S &= ~moved
            if not S:
                slow()
            continue
        nxt = 0
        for j, dm in enumerate(dms):
            i = names.get(dm.name, -1)
            if i < nxt:
                return None
            if i > nxt:  # the ones skipped pass, and may be out for good if they could not move
                _pass(out, range(nxt, i), tks, stations, tables, rules)
            if out and i in out:
                return None
            nxt = i + 1
            t, at, to = dm.ticket, stations[i], dm.to
            counts = tks[i]
            c = counts.get(t, 0)  # (0 for black: detectives have none)
            if c <= 0 or not tables[t].get(at, 0) >> to & 1 or occupied >> to & 1:
                return None
            counts[t] = c - 1
            stations[i] = to
            occupied = (occupied & clears[at]) | bits[to]
            if dm.capture is True or to == here:  # the end: the record's last move, onto him where known
                return _captured(S, moved, to, dm, j, r_i, here, r_i == last and dm is dms[-1], n, detectives,
                                 stations, last_reveal, slow)
            moved |= bits[to]
        S &= ~moved
        if nxt < n_det and r_i < last:  # the rest pass at the round's end
            _pass(out, range(nxt, n_det), tks, stations, tables, rules)
        if not S:
            slow()
    return FinalState(S, n, r_i, {d.name: s for d, s in zip(detectives, stations)}, last_reveal, None)


def _captured(S: StationMask, moved: StationMask, to: Station, dm: Any, j: int, r_i: int, here: Station | None,
              at_end: bool, n: int, detectives: Sequence[Any], stations: list[Station],
              last_reveal: tuple[int, Station] | None, slow: Callable[[], Any]) -> FinalState | None:
    """:func:`vouched_final_state`'s end on a capture: None unless it is the record's last move,
    marked, onto Mr. X where his station is known."""
    if not (at_end and dm.capture is True and (here is None or to == here)):
        return None
    S &= ~moved & (1 << to)
    if not S:
        slow()
    where = getattr(dm, "where", None) or f"rounds[{r_i - 1}].detectives[{j}]"
    return FinalState(S, n, r_i, {d.name: s for d, s in zip(detectives, stations)}, last_reveal,
                      Capture(to, dm.name, r_i, where))


#: the ticket kinds with their names in a record (read once: an enum's ``value`` costs a call)
_DETECTIVE_KINDS = tuple((k, k.value) for k in DETECTIVE_TICKETS)
_MRX_KINDS = tuple((k, k.value) for k in MRX_MOVE_TICKETS)


_TABLES: dict[tuple[int, int], tuple[Any, ...]] = {}


def _tables(board: Board, rules: Rules) -> tuple[Any, ...]:
    """The board's neighbour tables per ticket, the detectives' and Mr. X's (as its hot paths read
    them), and the rules' detective tickets by kind: made once per board and rules (a batch asks
    for every record)."""
    key = (id(board), id(rules))
    got = _TABLES.get(key)
    if got is None or got[0] is not board or got[1] is not rules:
        nb = board._nb
        got = (board, rules, {k: nb[k] for k in DETECTIVE_TICKETS}, {k: nb[k] for k in MRX_MOVE_TICKETS},
               {k: rules.detective_tickets.get(v, 0) for k, v in _DETECTIVE_KINDS})
        if len(_TABLES) > 8:
            _TABLES.clear()
        _TABLES[key] = got
    return got[2:]


def _pass(out: set[int], skipped: Iterable[int], tks: list[dict[Ticket, int]], stations: list[Station],
          tables: Mapping[Ticket, Mapping[Station, StationMask]], rules: Rules) -> None:
    """The detectives ``skipped`` pass: the ones not out yet that could not move are out for good
    where the rules say so (:meth:`Rules.stuck_is_out`: told whether a ticket it holds rides a
    line from its station)."""
    for k in skipped:
        if k not in out and not _can_move(tks[k], stations[k], stations, tables):
            at = stations[k]
            if rules.stuck_is_out(any(c > 0 and tables[t].get(at, 0) for t, c in tks[k].items())):
                out.add(k)


def _can_move(tickets: dict[Ticket, int], at: Station, stations: list[Station],
              tables: Mapping[Ticket, Mapping[Station, StationMask]]) -> bool:
    """Whether a detective at ``at`` holding ``tickets`` has a hop to a station no detective holds."""
    occupied = mask_of(stations)
    return any(c > 0 and tables[t].get(at, 0) & ~occupied for t, c in tickets.items())


