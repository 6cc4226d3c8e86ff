"""The batched engine against the AEC env, step by step: :func:`agree` plays random legal
actions in a :class:`~sy_tools.env.vector.VectorEngine` and, beside it, in one
:class:`~sy_tools.env.aec.ScotlandYardEnv` per game (the reference, on the rules engine), and
checks that at every step they agree on the masks, the observations of both sides, the rewards,
the ends and their outcomes, and (``records=True``) the exported records, each ruled legal by
``check`` with the same outcome."""

from __future__ import annotations

from typing import Any

import numpy as np

from .aec import MRX_AGENT, ScotlandYardEnv
from .vector import OUTCOMES, VectorEngine


class Disagreement(AssertionError):
    """The batched engine and the AEC env differ (the message says where)."""


def agree(vec: VectorEngine, steps: int, rng: np.random.Generator, records: bool = False) -> dict[str, int]:
    """Play ``steps`` batched steps of ``vec`` (every game at once, uniformly random legal
    actions from ``rng``) and the same games in AEC envs; raise :class:`Disagreement` at the
    first difference.  ``vec`` must keep records when ``records``.  Returns counts: ``steps``
    (single actions compared), ``games`` (games finished) and one per outcome."""
    envs = [ScotlandYardEnv(vec.rules, vec.board, vec.d, starts=vec.starts) for _ in range(vec.n)]
    for j, e in enumerate(envs):
        e.map_spec = vec.map_spec
        e.reset(seed=int(vec.games[j, 0]), options={"game": int(vec.games[j, 1])})
    counts: dict[str, int] = {"steps": 0, "games": 0}

    def fail(j: int, what: str) -> None:
        raise Disagreement(f"game {tuple(vec.games[j])} in slot {j}, {envs[j].moves and len(envs[j].moves)} moves "
                           f"in: {what}")

    for it in range(steps):
        mx, md = vec.masks()
        obs = vec.observe()
        seen = vec.detectives_view()
        for j, e in enumerate(envs):
            if any(e.terminations.values()):
                continue
            agent = e.agent_selection
            mask = e.observe(agent)["action_mask"].astype(bool)
            if not np.array_equal(mask, mx[j] if agent == MRX_AGENT else md[j]):
                fail(j, f"{agent}'s mask")
            if (vec.turn[j] == 0) != (agent == MRX_AGENT) or (agent != MRX_AGENT and e.piece(agent)
                                                                != vec.names[vec.turn[j] - 1]):
                fail(j, f"the agent to act ({agent})")
            if not np.array_equal(e.flat_observation(agent), obs[j]):
                fail(j, f"{agent}'s observation")
            if not np.array_equal(e.flat_observation("det_0"), seen[j]):
                fail(j, "the detectives' view")
        actions = vec.sample(rng)
        st = vec.step(actions)
        for j, e in enumerate(envs):
            if not any(e.terminations.values()):
                e.step(int(actions[j]))
                counts["steps"] += 1
            done = any(e.terminations.values())
            if bool(st.ended[j]) != done:
                fail(j, f"the end (batched: {OUTCOMES[st.outcome[j]]}, AEC: {e.outcome}) at step {it}")
            if not done:
                continue
            if OUTCOMES[st.outcome[j]] != e.outcome:
                fail(j, f"the outcome (batched: {OUTCOMES[st.outcome[j]]}, AEC: {e.outcome})")
            if st.rewards[j, 0] != e.rewards[MRX_AGENT] or st.rewards[j, 1] != e.rewards["det_0"]:
                fail(j, f"the rewards ({st.rewards[j].tolist()} against {e.rewards})")
            if records:
                _same_record(vec.ended_records[j], e, fail, j)
            counts["games"] += 1
            counts[e.outcome] = counts.get(e.outcome, 0) + 1
            e.reset(seed=int(vec.games[j, 0]), options={"game": int(vec.games[j, 1])})
    return counts


def _same_record(doc: dict[str, Any], e: ScotlandYardEnv, fail: Any, j: int) -> None:
    from ..analysis.referee import check

    if doc != e.record_json():
        fail(j, "the exported record")
    verdict = check(e.record())
    if not verdict.legal or verdict.status.kind.value != e.outcome:
        fail(j, f"the export's check ({verdict.status.kind.value}, legal {verdict.legal})")
