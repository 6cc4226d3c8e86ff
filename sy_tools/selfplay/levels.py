"""The computer's strength levels: ``easy``, ``normal`` and ``hard`` for each side, each a
built-in self-play policy with a budget counted in nodes, iterations and candidates (never
seconds, so a game is the same from the same seed whatever the machine's speed or load).

A light module (it imports only :mod:`~sy_tools.selfplay.budgets`, where the table's data
lives beside the budgets it is made of), so the command line can offer :data:`LEVELS` as
choices and show :func:`describe_level` in its help without importing the searches;
:func:`level_policy` imports the policies when it is called.

===========  ==========================================  ==========================================
level        Mr. X (``"mrx"``)                            the detectives (``"detectives"``)
===========  ==========================================  ==========================================
``easy``     ``greedy``: one step, no search: he keeps    ``greedy``: each detective steps towards
             the nearest detective as far as he can,      his possible set (the smallest mean
             then the largest possible set                distance), no search
``normal``   ``advise`` without the tree search: his      ``advise`` without the searches: the joint
             ranking's first move (the look-ahead still   move judged best one turn ahead (one a
             clears it: each forced-win search within     round; 9 weighed when his possible set has
             20,000 nodes)                                at most 8 stations), no forced-win search
``hard``     ``advise`` with the self-play budgets: the   ``advise`` with the self-play budgets: 27
             look-ahead proves or clears his best 4       joint moves a round (243 when his possible
             moves (20,000 nodes a search), a tree        set has at most 8 stations), two turns
             search of 300 iterations chooses among       ahead, and a forced win within 3 turns
             those not proved lost                        that ``solve`` finds within 5,000 nodes
===========  ==========================================  ==========================================

The levels were chosen by measurement (a screen of 100 games a pair on seed 20, 2026-12-04; the
ordering on fresh games: docs/benchmarks.md, "The computer's levels"): larger budgets than the
self-play ones (Mr. X: his best 8 moves, 1,000 iterations, 50,000 nodes; the detectives: 81 joint moves, a forced win within 4 turns in 50,000 nodes) were not measurably
stronger and took 2-5 times the time, so ``hard`` is the strongest play the project has, and
``normal`` is the same policy with its searches off, measured between ``easy`` and ``hard``.

Each level sets its budget into the observation's ``memo`` with ``setdefault`` before it calls the
built-in policy, so a caller that puts a key there first overrides it (the memo keys: Mr. X's
``advise_mrx_candidates``, ``advise_mrx_iterations``, ``advise_solve_nodes`` and ``time_limit``;
the detectives' ``advise_candidates``, ``advise_depth``, ``advise_solve_turns``,
``advise_solve_nodes`` and ``advise_time_limit``; see
:func:`~sy_tools.selfplay.policies.mrx_policy` and
:func:`~sy_tools.selfplay.policies.detective_policy`).  The seconds in a budget are only a
safety net far above what the nodes and iterations take (a decision that reached it would no
longer be reproducible from the seed).

The levels are also ``simulate`` policies: ``--mrx-policy level-hard``, ``--detective-policy
level-easy`` and so on (:data:`LEVEL_POLICY_PREFIX`).  How they fare against each other, and
what a decision takes at each: docs/benchmarks.md, "The computer's levels"
(``python -m benchmarks.levels``).
"""

from __future__ import annotations

from typing import Any

from .budgets import DEFAULT_LEVEL, LEVEL_POLICY_PREFIX, LEVEL_TABLE, LEVELS, SAFETY_SECONDS, Level

#: The sides a level is for.
SIDES = ("mrx", "detectives")


def level_spec(side: str, level: str) -> Level:
    """``side``'s ``level`` (:class:`ValueError` naming the choices for an unknown one)."""
    if side not in LEVEL_TABLE:
        raise ValueError(f"unknown side {side!r}: expected {' or '.join(SIDES)}")
    if level not in LEVEL_TABLE[side]:
        raise ValueError(f"unknown level {level!r}: expected {', '.join(LEVELS)}")
    return LEVEL_TABLE[side][level]


def level_budget(side: str, level: str) -> dict[str, int | float]:
    """The memo keys ``side``'s ``level`` sets (a fresh dict: the caller may change it)."""
    return dict(level_spec(side, level).budget)


def describe_level(side: str, level: str) -> str:
    """One line for help texts: ``side``'s ``level`` and what it plays."""
    return f"{level} ({level_spec(side, level).summary})"


def level_policy(side: str, level: str) -> Any:
    """``side``'s ``level`` as a self-play policy ``policy(obs, rng) -> Move`` (a
    :data:`~sy_tools.selfplay.policies.Policy`): it sets the level's budget into ``obs.memo``
    (``setdefault``: keys already there win) and plays the built-in policy of
    :data:`LEVEL_TABLE`.  The same function as ``simulate``'s ``level-LEVEL`` policy of that
    side.  A detectives' level sees only the detectives' observation, as every detective policy
    does."""
    level_spec(side, level)
    from .policies import DETECTIVE_POLICIES, MRX_POLICIES

    return (MRX_POLICIES if side == "mrx" else DETECTIVE_POLICIES)[LEVEL_POLICY_PREFIX + level]


def level_policy_names() -> tuple[str, ...]:
    """The ``simulate`` policy names of the levels: ``level-easy``, ``level-normal``, ..."""
    return tuple(LEVEL_POLICY_PREFIX + level for level in LEVELS)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_POLICY_PREFIX", "LEVEL_TABLE", "Level", "SAFETY_SECONDS", "SIDES",
           "describe_level", "level_budget", "level_policy", "level_policy_names", "level_spec"]
