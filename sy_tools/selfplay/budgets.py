"""The self-play policies' budgets, counted in nodes, iterations and candidates (never seconds:
games are the same whatever the machine's speed or load), the computer's strength levels made of
them, and the range of a seed: a light module, so the CLI can show them in its help without
importing the policies."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..formats.play_header import PLAY_DEFAULT_LEVEL, PLAY_LEVELS

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

#: The detectives' planning search (:mod:`sy_tools.solvers.plan`), when a policy's memo asks for
#: it (``advise_plan_rollouts``): rollouts per candidate joint move, and how many of advise's best
#: joint moves it chooses among (budgets in rollouts, not seconds).  No level uses it yet: on the
#: games measured so far (20-60 a row) it was not shown stronger than advise without it, so
#: ``hard`` stays the measured advise (issue 45 is open).
DETECTIVE_PLAN_ROLLOUTS = 32
DETECTIVE_PLAN_CANDIDATES = 6

#: The ``mcts-1000`` Mr. X: the ``mcts`` yardstick at the budget of the literature's experiments
#: (iterations a move; :mod:`sy_tools.selfplay.opponents`)
MCTS_YARDSTICK_ITERATIONS = 1_000

#: Joint moves the advise detectives weigh per round in self-play: a fixed cap (not a time budget)
#: keeps games reproducible whatever the machine's speed or load (the search weighs nine times as
#: many where his possible set is small: :data:`sy_tools.solvers.beam.SMALL_SET_WIDTH`).
ADVISE_CANDIDATES = 27

#: The computer's strength levels, weakest first: the command line's choices and, as
#: ``level-easy`` ... (:data:`LEVEL_POLICY_PREFIX`), built-in self-play policies of both sides.
#: :mod:`sy_tools.selfplay.levels` documents them and makes their policies.
LEVELS = PLAY_LEVELS  # (the names a record's play header holds: one place)

#: The level the computer plays at unless told otherwise.
DEFAULT_LEVEL = PLAY_DEFAULT_LEVEL

#: ``simulate`` knows level ``L`` as the policy ``level-L`` (both sides).
LEVEL_POLICY_PREFIX = "level-"

#: Seconds that bound a whole decision of a searching level: a safety net only (the budgets in
#: nodes and iterations end a decision long before it on this project's machine).
SAFETY_SECONDS = 60.0


@dataclass(frozen=True)
class Level:
    """One side's level: the built-in policy it plays (a name of ``MRX_POLICIES`` or
    ``DETECTIVE_POLICIES``), the budget it sets into the observation's ``memo``, and a line that
    says what it is."""

    policy: str
    budget: Mapping[str, int | float] = field(default_factory=dict)
    summary: str = ""


#: Each side's levels, in the order of :data:`LEVELS` (the table of :mod:`sy_tools.selfplay.levels`).
#: Chosen by measurement (a screen of 100 games a pair, seed 20, 2026-12-04; the ordering:
#: docs/benchmarks.md, "The computer's levels"): larger budgets than the
#: self-play ones made neither side measurably stronger, so ``hard`` plays the self-play budgets
#: and ``normal`` is the same policy without its searches.
LEVEL_TABLE: Mapping[str, Mapping[str, Level]] = {
    "mrx": {
        "easy": Level("greedy", {}, "greedy: one step, no search"),
        "normal": Level("advise", {
            "advise_mrx_candidates": 1,
            "advise_mrx_iterations": 0,
            "advise_solve_nodes": POLICY_SOLVE_NODES,
            "time_limit": SAFETY_SECONDS,
        }, "advise without the tree search: his ranking's first move"),
        "hard": Level("advise", {
            "advise_mrx_candidates": MRX_ADVISE_CANDIDATES,
            "advise_mrx_iterations": MRX_ADVISE_ITERATIONS,
            "advise_solve_nodes": POLICY_SOLVE_NODES,
            "time_limit": SAFETY_SECONDS,
        }, f"advise: a {MRX_ADVISE_ITERATIONS:,}-iteration tree search among his best {MRX_ADVISE_CANDIDATES} moves"),
    },
    "detectives": {
        "easy": Level("greedy", {}, "greedy: one step, no search"),
        "normal": Level("advise", {
            "advise_candidates": 1,
            "advise_depth": 1,
            "advise_solve_turns": DETECTIVE_SOLVE_TURNS,
            "advise_solve_nodes": 0,
            "advise_plan_rollouts": 0,
            "advise_time_limit": SAFETY_SECONDS,
        }, "advise without the searches: one turn ahead, no forced-win search, no planning"),
        "hard": Level("advise", {
            "advise_candidates": ADVISE_CANDIDATES,
            "advise_depth": 2,
            "advise_solve_turns": DETECTIVE_SOLVE_TURNS,
            "advise_solve_nodes": DETECTIVE_SOLVE_NODES,
            "advise_plan_rollouts": 0,  # (the planner is not yet measured stronger: issue 45)
            "advise_time_limit": SAFETY_SECONDS,
        }, f"advise: {ADVISE_CANDIDATES} joint moves two turns ahead, a forced win within {DETECTIVE_SOLVE_TURNS} turns"),
    },
}

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
