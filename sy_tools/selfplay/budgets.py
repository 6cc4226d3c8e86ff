"""The self-play policies' budgets, counted in nodes, iterations and candidates (never seconds:
games are the same whatever the machine's speed or load), and the range of a seed: a light
module, so the CLI can show them in its help without importing the policies."""

from __future__ import annotations

#: Nodes each forced-win search of the advise Mr. X's look-ahead may visit in self-play (a budget
#: in nodes, not seconds: games stay reproducible whatever the machine's speed)
POLICY_SOLVE_NODES = 20_000

#: The advise detectives' forced-win search in self-play: a win within this many turns, found
#: within this many nodes a round (measured, seed 7: three turns at 5,000 nodes hold advise Mr. X
#: to 55.5% of 200 games where two turns at 20,000 let him win 64.5%; 10,000 to 200,000 nodes or
#: four turns played the same first 30 games, slower)
DETECTIVE_SOLVE_TURNS = 3
DETECTIVE_SOLVE_NODES = 5_000

#: Moves of the advise Mr. X's ranking the look-ahead proves or clears in self-play; the tree
#: search chooses among those not proved lost
MRX_ADVISE_CANDIDATES = 4

#: The advise Mr. X's tree-search iterations a move in self-play (a budget in iterations, not
#: seconds; 0: his top-ranked move, no search)
MRX_ADVISE_ITERATIONS = 300

#: Joint moves the advise detectives weigh per round in self-play: a fixed cap (not a time budget)
#: keeps games reproducible whatever the machine's speed or load (the search weighs nine times as
#: many where his possible set is small: :data:`sy_tools.solvers.beam.SMALL_SET_WIDTH`).
ADVISE_CANDIDATES = 27

#: A seed is a 64-bit signed integer (results keep it so, parquet included).
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1


def check_seed(seed: int, signed: bool = True) -> int:
    """``seed``, or InputError (at ``--seed``) when it is not a 64-bit integer (``signed``
    False: from 0, for seeds that ``random.Random`` takes as they are, where ``-n`` would draw as
    ``n`` does)."""
    from ..errors import InputError

    low = SEED_MIN if signed else 0
    if not low <= seed <= SEED_MAX:
        what = "a 64-bit integer" if signed else "not negative, 64 bits"
        raise InputError(f"expected a seed from {low} to {SEED_MAX} ({what}), got {str(seed)[:40]}", where="--seed")
    return seed
