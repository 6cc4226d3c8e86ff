"""A numpy-only baseline on the batched engine: detectives trained to catch a random Mr. X.

The policy is linear over six features of each legal detective action ``(ticket, to)``, read
from the flat observation alone (docs/env.md, "The flat observation"): Mr. X's probability at
``to``, within one hop of ``to`` and within two hops (the board's adjacency), and the ticket
spent (one-hot).  The detective to move plays its highest-scoring legal action.  The weights
are trained by the cross-entropy method: each generation, a population of weight vectors each
plays many games at once in one :class:`~sy_tools.env.vector.VectorEngine` (Mr. X playing
uniformly random legal moves), and the best quarter sets the next generation's mean and spread.

    python examples/env_baseline.py            # the full run: train, then 1,000 evaluation games
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from sy_tools.env.vector import VectorEngine

FEATURES = ("here", "near", "far", "taxi", "bus", "underground")


class Features:
    """The features of every legal detective action of a batch, from its observations."""

    def __init__(self, vec: VectorEngine) -> None:
        s = len(vec.stations)
        self.s = s
        adj = vec.adjacency().any(axis=0)
        two = (adj.astype(np.int64) @ adj.astype(np.int64) > 0) | adj
        np.fill_diagonal(two, False)
        self.near = _padded([np.flatnonzero(r) for r in adj], s)
        self.far = _padded([np.flatnonzero(r) for r in two], s)
        self.prob = {name: at for name, at, _ in vec.flat.fields()}["probability"]

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(rows, actions, features)``: one entry per legal action of the rows' masks."""
        rows, actions = np.nonzero(mask)
        to, ticket = actions % self.s, actions // self.s
        prob = np.concatenate([obs[:, self.prob:self.prob + self.s], np.zeros((len(obs), 1), np.float32)], axis=1)
        here = prob[rows, to]
        near = prob[rows[:, None], self.near[to]].sum(axis=1)
        far = prob[rows[:, None], self.far[to]].sum(axis=1)
        return rows, actions, np.column_stack([here, near, far, np.eye(3, dtype=np.float32)[ticket]])


def _padded(lists: list[np.ndarray], fill: int) -> np.ndarray:
    out = np.full((len(lists), max(len(x) for x in lists)), fill, dtype=np.int64)
    for i, x in enumerate(lists):
        out[i, :len(x)] = x
    return out


def choose(features: Features, weights: np.ndarray, obs: np.ndarray, mask: np.ndarray,
           rng: np.random.Generator) -> np.ndarray:
    """Per row of ``mask`` with a legal action, the highest-scoring one (``weights``: one row
    per game; ties broken at random); 0 elsewhere."""
    out = np.zeros(len(mask), dtype=np.int64)
    rows, actions, f = features(obs, mask)
    if not len(rows):
        return out
    score = (f * weights[rows]).sum(axis=1) + rng.random(len(rows)) * 1e-6
    order = np.lexsort((-score, rows))
    first = np.r_[True, rows[order][1:] != rows[order][:-1]]
    out[rows[order][first]] = actions[order][first]
    return out


def play(vec: VectorEngine, weights: np.ndarray, steps: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Play ``steps`` batched steps, the detectives by ``weights`` (one row per slot), Mr. X
    at random; return per slot the games the detectives won and the games finished."""
    features = Features(vec)
    won = np.zeros(vec.n, dtype=np.int64)
    done = np.zeros(vec.n, dtype=np.int64)
    obs = vec.observe()
    for _ in range(steps):
        _, det_mask = vec.masks()
        actions = np.where(vec.turn == 0, vec.sample(rng), choose(features, weights, obs, det_mask, rng))
        st = vec.step(actions)
        obs = st.obs
        won += st.ended & (st.rewards[:, 1] > 0)
        done += st.ended
    return won, done


def train(generations: int = 12, population: int = 24, per: int = 16, steps: int = 200, seed: int = 0,
          detectives: int = 5) -> np.ndarray:
    """Cross-entropy method: ``population`` weight vectors, ``per`` games at once each, for
    ``steps`` batched steps a generation; return the final mean weights."""
    rng = np.random.default_rng(seed)
    vec = VectorEngine(population * per, "classic", "london", detectives=detectives, seed=seed)
    mean, std = np.zeros(len(FEATURES)), np.ones(len(FEATURES))
    for _ in range(generations):
        cands = mean + std * rng.normal(size=(population, len(FEATURES)))
        won, done = play(vec, np.repeat(cands, per, axis=0), steps, rng)
        rate = won.reshape(population, per).sum(axis=1) / np.maximum(done.reshape(population, per).sum(axis=1), 1)
        elite = cands[np.argsort(-rate)[:max(2, population // 4)]]
        mean, std = elite.mean(axis=0), elite.std(axis=0) + 0.05
    return mean


def evaluate(weights: np.ndarray, games: int = 1000, slots: int = 250, seed: int = 1,
             detectives: int = 5) -> tuple[int, int]:
    """The detectives' wins in the first ``games`` games finished against a random Mr. X
    (games of the run ``seed``, ``slots`` at once); returns ``(wins, games)``."""
    rng = np.random.default_rng(seed)
    vec = VectorEngine(slots, "classic", "london", detectives=detectives, seed=seed)
    features = Features(vec)
    w = np.tile(weights, (slots, 1))
    wins = total = 0
    obs = vec.observe()
    while total < games:
        _, det_mask = vec.masks()
        actions = np.where(vec.turn == 0, vec.sample(rng), choose(features, w, obs, det_mask, rng))
        st = vec.step(actions)
        obs = st.obs
        for j in np.flatnonzero(st.ended)[: games - total]:
            wins += int(st.rewards[j, 1] > 0)
            total += 1
    return wins, total


def against(weights: np.ndarray, mrx_policy: str, games: int, seed: int = 1, detectives: int = 5) -> tuple[int, int]:
    """The trained detectives against a built-in Mr. X policy (``greedy``, ``advise`` ...) in
    the AEC env: games ``0 .. games - 1`` of the run ``seed``; returns ``(wins, games)``."""
    from sy_tools.env import ScotlandYardEnv, policy_agent
    from sy_tools.env import play as play_game

    env = ScotlandYardEnv(detectives=detectives)
    features = Features(VectorEngine(1, "classic", "london", detectives=detectives))
    rng = np.random.default_rng(seed)

    def detective(_: Any) -> int:
        agent = env.agent_selection
        obs = env.flat_observation(agent)[None, :]
        return int(choose(features, weights[None, :], obs, env.observe_mask(agent)[None, :].astype(bool), rng)[0])

    mrx = policy_agent(env, mrx_policy, "mrx")
    wins = sum(play_game(env, {"mrx": mrx, "detectives": detective}, seed=seed if g == 0 else None)["winner"]
               == "detectives" for g in range(games))
    return wins, games


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of ``k`` successes in ``n``."""
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


if __name__ == "__main__":
    t = time.process_time()
    w = train()
    print("weights", dict(zip(FEATURES, np.round(w, 3).tolist())), f"trained in {time.process_time() - t:.0f} CPU-s")
    k, n = evaluate(w)
    lo, hi = wilson(k, n)
    print(f"against random Mr. X: {k}/{n} wins ({lo:.3f}-{hi:.3f}), {time.process_time() - t:.0f} CPU-s in all")
