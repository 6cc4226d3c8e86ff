"""Mr. X's look-ahead: which of his moves lose by force, and how much room each leaves him.

* :func:`doomed_moves` is sound: a move is doomed only when the forced-win search
  (:func:`sy_tools.solvers.forced.solve`) proves that the detectives, knowing no more than they
  will know after it (his possible set as they see it, his tickets), catch him within ``turns``
  turns whatever he does.  A move the search could not settle in time is not doomed.
* :func:`escape_room` is a heuristic: the stations he could move on to next from where a move
  leaves him that no detective can reach within two of its moves (one before his next move, one
  after), tickets aside.

:func:`sy_tools.solvers.advise.advise_mrx` ranks every doomed move below every other one.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace

from ..engine.moves import Move
from ..engine.observations import mrx_move_seen
from ..engine.position import Position
from ..engine.stations import StationMask
from ..engine.tickets import MRX_MOVE_TICKETS
from ..formats.report_text import plural
from .advice import MrXOption
from .forced import solve

#: Detective turns the doomed-move check looks ahead.
DOOM_TURNS = 2

#: Safe ways on beyond this many count the same (more room is no safer once he has a choice).
ROOM_CAP = 2

#: Hops a detective needs to reach a station before it counts as a safe way on for Mr. X.
SAFE_HOPS = 3


def seen_after(pos: Position, S: StationMask, move: Move) -> tuple[StationMask, bool]:
    """The detectives' possible set after Mr. X plays ``move`` from ``pos`` (``S``: their set
    before it), and whether he is shown by it."""
    legs = list(mrx_move_seen(pos, S, move))
    if not legs:  # a pass: nothing shown, the set as it was
        return S, False
    _leg, _t, after, seen = legs[-1]
    return after, seen is not None


def doomed_moves(position: Position, S: StationMask, moves: Iterable[Move], deadline: float,
                 turns: int = DOOM_TURNS, cache: dict[tuple[object, ...], int | None] | None = None,
                 max_nodes: int | None = None) -> dict[Move, int]:
    """The moves of ``moves`` after which the detectives can force a capture within ``turns``
    turns (the number of turns, proved), searched until ``deadline`` (``time.monotonic()``) and
    within ``max_nodes`` nodes a search (a budget that does not depend on the machine's speed).
    Moves that leave the detectives the same belief and his tickets the same share one search
    (``cache`` keeps them across calls)."""
    found: dict[Move, int] = {}
    cache = {} if cache is None else cache
    for m in moves:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        after = position.push(m)
        if after.ended is not None or after.turn == 0:
            continue
        S1, _ = seen_after(position, S, m)
        S1 &= ~after.occupied
        if not S1:
            continue
        key = (S1, after.mrx_tickets, after.doubles, after.move, after.round)
        if key not in cache:
            result = solve(after, S1, turns, time_limit=left, max_nodes=max_nodes)
            cache[key] = result.turns if result.forced else None
        k = cache[key]
        if k is not None:
            found[m] = k
    return found


def escape_room(after: Position, dist: list[list[int]]) -> int:
    """How many stations Mr. X, standing where ``after`` puts him, could move on to next (by
    the tickets he holds) with no detective within :data:`SAFE_HOPS` hops of it."""
    at = after.mrx_at
    if at is None:
        return 0
    exits = 0
    for t in after.mrx_tickets.held(MRX_MOVE_TICKETS):
        exits |= after.board.step(1 << at, t)
    exits &= ~after.occupied
    active = [s for n, s in zip(after.names, after.stations) if n not in after.out]
    room = 0
    while exits:
        low = exits & -exits
        e = low.bit_length() - 1
        exits ^= low
        if all(dist[s][e] >= SAFE_HOPS for s in active):
            room += 1
    return room


def look_ahead(position: Position, S: StationMask, options: list[MrXOption], dist: list[list[int]],
               deadline: float, need: int = 1, max_nodes: int | None = None) -> list[MrXOption]:
    """``options`` (Mr. X's moves judged one turn ahead) judged further: each gets a key that
    ranks, among moves equally safe next turn, more room to run first (:func:`escape_room`), and
    a proved loss (:func:`doomed_moves`) below every other move.  The forced-win search runs on
    the moves in that order until ``need`` moves that are not proved losses are found (and every
    move tied with the last of them): the best ``need`` are then sound; moves further down keep
    ``loses_within`` None (not searched).  ``max_nodes``: each search's node budget."""
    judged = []
    for o in options:
        if len(o.key) <= 1:  # a win or a loss on the spot, or a pass: settled
            judged.append(o)
            continue
        room = escape_room(position.push(o.move), dist)
        risk, trap, *rest = o.key[1:]
        key = (o.key[0], 1.0, risk, trap, float(min(room, ROOM_CAP)), *rest)
        judged.append(replace(o, key=key, escape_room=room,
                              reason=o.reason + f"; {plural(room, 'safe way')} on from there"))
    judged.sort(key=lambda o: o.key, reverse=True)
    sound: list[MrXOption] = []
    cache: dict[tuple[object, ...], int | None] = {}
    out = []
    for o in judged:
        if len(o.key) <= 1 or (len(sound) >= need and o.key != sound[-1].key) or time.monotonic() > deadline:
            out.append(o)
            continue
        k = doomed_moves(position, S, [o.move], deadline, cache=cache, max_nodes=max_nodes).get(o.move)
        if k is None:
            sound.append(o)
            out.append(o)
            continue
        out.append(replace(o, key=(o.key[0], 0.0, *o.key[2:]), loses_within=k,
                           reason=o.reason + f"; then the detectives can force a capture within "
                                             f"{plural(k, 'turn')} (solve)"))
    return out
