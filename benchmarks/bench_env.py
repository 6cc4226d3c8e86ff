"""`env`: steps per second of the AEC env (random legal actions, observations built), of the
batched engine at N = 1, 64, 1024, 4096 (random legal actions, the flat observations of every
game built each step), of Gymnasium's CartPole, and resets per second; one line at the end:
``env: aec S1 steps/s, vector S2 steps/s (N=...), ratio R``.

``python -m benchmarks.bench_env --agree STEPS`` instead plays ``STEPS`` random single actions
per preset (London, 5 detectives) in the batched engine and the AEC env side by side and checks
they agree (:func:`sy_tools.env.agree.agree`, records included)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import numpy as np

#: the batch sizes measured
SIZES = (1, 64, 1024, 4096)


def aec_steps(seconds: float = 3.0) -> float:
    """Random legal steps per second of the AEC env (classic, London, 5 detectives)."""
    from sy_tools.env import ScotlandYardEnv

    env = ScotlandYardEnv(detectives=5)
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    n, t = 0, time.process_time()
    while time.process_time() - t < seconds:
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            n += 1
        env.reset()
    return n / (time.process_time() - t)


def aec_resets(count: int = 300) -> float:
    from sy_tools.env import ScotlandYardEnv

    env = ScotlandYardEnv(detectives=5)
    env.reset(seed=1)
    t = time.process_time()
    for _ in range(count):
        env.reset()
        env.observe("mrx")
    return count / (time.process_time() - t)


def vector_steps(n: int, seconds: float = 3.0) -> float:
    """Random legal steps per second of the batched engine with ``n`` games (each step: the
    legal actions, one drawn per game, the step with auto-reset, every game's observation)."""
    from sy_tools.env.vector import VectorEngine

    vec = VectorEngine(n, "classic", "london", detectives=5, seed=1)
    rng = np.random.default_rng(0)
    k, t = 0, time.process_time()
    while time.process_time() - t < seconds or k < 3:
        vec.step(vec.sample(rng))
        k += 1
    return n * k / (time.process_time() - t)


def vector_resets(n: int = 1024) -> float:
    from sy_tools.env.vector import VectorEngine

    vec = VectorEngine(n, "classic", "london", detectives=5, seed=1)
    t = time.process_time()
    vec.reset(2)
    return n / (time.process_time() - t)


def cartpole_steps(seconds: float = 2.0) -> float:
    import gymnasium

    env = gymnasium.make("CartPole-v1")
    env.reset(seed=0)
    n, t = 0, time.process_time()
    while time.process_time() - t < seconds:
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        n += 1
        if term or trunc:
            env.reset()
    return n / (time.process_time() - t)


def run() -> Iterator[str]:
    import os

    yield (f"env: random legal steps, London, classic, 5 detectives, one process, per CPU-second "
           f"(OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')})")
    aec = aec_steps()
    yield f"  AEC env (ScotlandYardEnv): {aec:,.0f} steps/s"
    best, best_n = 0.0, 0
    for n in SIZES:
        v = vector_steps(n)
        yield f"  batched engine (VectorEngine), N={n}: {v:,.0f} steps/s ({v / aec:.1f}x the AEC env)"
        if v > best:
            best, best_n = v, n
    yield f"  gymnasium CartPole-v1: {cartpole_steps():,.0f} steps/s"
    yield f"  resets: AEC env {aec_resets():,.0f}/s, batched engine {vector_resets():,.0f} games dealt/s (N=1024)"
    yield f"env: aec {aec:.0f} steps/s, vector {best:.0f} steps/s (N={best_n}), ratio {best / aec:.1f}"


def agree_run(steps: int) -> Iterator[str]:
    from sy_tools.engine.rules import PRESETS
    from sy_tools.env.agree import agree
    from sy_tools.env.vector import VectorEngine

    for name in PRESETS:
        t = time.process_time()
        vec = VectorEngine(64, name, "london", detectives=5, seed=2026, keep_records=True)
        rng = np.random.default_rng(2026)
        total = agree(vec, -(-steps // vec.n), rng, records=True)
        yield f"agree {name}: {total} in {time.process_time() - t:.0f} s"


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--agree":
        for line in agree_run(int(sys.argv[2])):
            print(line, flush=True)
    else:
        for line in run():
            print(line, flush=True)
