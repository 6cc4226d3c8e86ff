"""oracle: the advise detectives told where Mr. X is, a diagnostic (issue 24), NOT fair play.

How much of the detectives' gap is what they do not know?  ``oracle_advise`` is the built-in
``advise`` detective policy (same budget, same code) given a possible set of one station, his
true one, at every decision.  It reads that station from the simulator's own game loop (the
calling frame's position), which no real policy may do: it exists only to measure the value of
information against the fair ``advise`` detectives, with the same seeded games:

    python -m benchmarks.strength --only advise:benchmarks.oracle:oracle_advise --games 100

Anywhere but inside ``simulate``'s game loop it raises RuntimeError rather than guess.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.selfplay.policies import DETECTIVE_POLICIES

#: how many frames up the simulator's game loop may be (the policy is called through run_policy)
SEARCH_FRAMES = 8


def true_station(obs: Any) -> int:
    """Mr. X's station, read from the simulator's position in a calling frame: the position
    whose detectives stand where ``obs`` says and which knows his station."""
    frame = sys._getframe(1)
    for _ in range(SEARCH_FRAMES):
        if frame is None:
            break
        pos = frame.f_locals.get("pos")
        if isinstance(pos, Position) and pos.mrx_at is not None and pos.stations == obs.stations:
            return pos.mrx_at
        frame = frame.f_back
    raise RuntimeError("oracle: no simulator position found in the calling frames (oracle_advise is a "
                       "diagnostic for simulate only)")


def oracle_advise(obs: Any, rng: Any) -> Move:
    """The ``advise`` detectives with his possible set narrowed to his true station."""
    x = true_station(obs)
    if not obs.possible >> x & 1:
        raise RuntimeError(f"oracle: his station {x} is not in the detectives' possible set")
    return DETECTIVE_POLICIES["advise"](dataclasses.replace(obs, possible=1 << x, weights=None), rng)
