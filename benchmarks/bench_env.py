"""`env`: steps per second of the AEC env (random legal actions, observations built), of the
batched engine at N = 1, 64, 1024, 4096 (random legal actions, the flat observations of every
game built each step), of Gymnasium's CartPole, and resets per second; one line at the end:
``env: aec S1 steps/s, vector S2 steps/s (N=...), ratio R``.

``python -m benchmarks.bench_env --agree STEPS`` instead plays ``STEPS`` random single actions
per case in the batched engine and the AEC env side by side and checks they agree
(:func:`sy_tools.env.agree.agree`: masks, both sides' observations, rewards, ends, outcomes and
exported records, each ruled legal by ``check``).  The cases (:func:`agree_cases`) are every
preset and every variant the library's rules name (each yes/no rule field flipped, each other
choice of :data:`~sy_tools.engine.rules.RULE_CHOICES`), each on London (5 detectives) and on
generated small maps (a new map of 10-20 stations with 1-4 detectives every
:data:`SMALL_MAP_STEPS` steps); one summary line per case, with its CPU-seconds per 10^6 steps.
``--only CASE,...`` runs some (``2014@london``, ``cutoff_escape@small``); ``--out FILE`` appends
the lines to FILE and skips the cases FILE already has with at least ``STEPS`` steps (resume);
``--part K`` plays other games of each case (labelled ``CASE#K``), so a long run can be made in
parts that add up; the exit status is 1 when a case disagrees."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

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


#: the maps of the agreement cases
AGREE_MAPS = ("london", "small")

#: on small maps, the steps played on one map before the next is drawn
SMALL_MAP_STEPS = 64 * 160


def agree_cases() -> dict[str, Any]:
    """The rules of every agreement case's name: each preset by its name, then each variant of
    classic the library's rules name (``cutoff_escape``, ``tickets_to_mrx=false``,
    ``blocked_detective=out`` ...): every yes/no field of :class:`Rules` flipped and every other
    choice of :data:`RULE_CHOICES`, read from the library, not listed here."""
    from dataclasses import fields, replace

    from sy_tools.engine.rules import PRESETS, RULE_CHOICES, Rules

    classic = PRESETS["classic"]
    cases: dict[str, Any] = dict(PRESETS)
    for f in fields(Rules):
        value = getattr(classic, f.name)
        if isinstance(value, bool):
            cases[f.name if not value else f"{f.name}=false"] = replace(classic, **{f.name: not value})
        for choice in RULE_CHOICES.get(f.name, ()):
            if choice != value:
                cases[f"{f.name}={choice}"] = replace(classic, **{f.name: choice})
    return cases


def _with_decks(board: Any, rules: Any) -> Any:
    """``board`` with its one start deck also under the names the rules deal from."""
    from sy_tools.engine.board import Board

    deck = next(iter(board.start_decks.values()))
    decks = {rules.mrx_deck: deck, rules.detective_deck: deck}
    return Board.build(board.name, board.stations, board.connections, dict(board.coords or {}), decks)


def agree_case(rules: Any, where: str, steps: int, seed: int) -> dict[str, int]:
    """Play about ``steps`` random single actions of ``rules`` on ``where`` (``london`` or
    ``small``) in the batched engine and the AEC env, records checked; return the counts
    (:func:`~sy_tools.env.agree.agree`'s, summed).  Raises ``Disagreement`` at the first
    difference."""
    import random

    from sy_tools.env.agree import agree
    from sy_tools.env.vector import VectorEngine

    from .small_maps import small_board

    total: dict[str, int] = {}
    rng = np.random.default_rng(seed)
    maps = random.Random(seed)
    while total.get("steps", 0) < steps:
        left = steps - total.get("steps", 0)
        if where == "london":
            vec = VectorEngine(64, rules, "london", detectives=5, seed=seed, keep_records=True)
            counts = agree(vec, -(-left // vec.n), rng, records=True)
        else:
            board = _with_decks(small_board(maps), rules)
            vec = VectorEngine(64, rules, board, detectives=maps.randint(1, 4), seed=maps.randrange(10**6),
                               keep_records=True)
            counts = agree(vec, -(-min(left, SMALL_MAP_STEPS) // vec.n), rng, records=True)
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    return total


def _done(path: str | None) -> dict[str, int]:
    """The cases a previous run's ``--out`` file already has, with their steps."""
    import os
    import re

    if path is None or not os.path.exists(path):
        return {}
    done: dict[str, int] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"agree (\S+): ([\d,]+) steps", line)
            if m:
                done[m.group(1)] = max(done.get(m.group(1), 0), int(m.group(2).replace(",", "")))
    return done


def agree_run(steps: int, only: list[str] | None = None, out: str | None = None, part: int = 0) -> Iterator[str]:
    """One line per case (``NAME@MAP``): the steps and games compared, the outcomes, the
    CPU-seconds and CPU-seconds per 10^6 steps, or where the two sides first disagree.
    ``part`` K > 0 plays other games (other seeds) under the label ``NAME@MAP#K``, so runs in
    parts add up."""
    import zlib

    from sy_tools.env.agree import Disagreement

    cases = agree_cases()
    names = [f"{name}@{where}" for name in cases for where in AGREE_MAPS]
    if only:
        unknown = [c for c in only if c not in names]
        if unknown:
            raise SystemExit(f"unknown case {', '.join(unknown)}: expected some of {', '.join(names)}")
        names = [c for c in names if c in only]
    done = _done(out)
    for case in names:
        label = case if part == 0 else f"{case}#{part}"
        if done.get(label, 0) >= steps:
            continue
        name, where = case.split("@")
        t = time.process_time()
        try:
            counts = agree_case(cases[name], where, steps, zlib.crc32(case.encode()) % 10**6 + part * 10**6)
        except Disagreement as e:
            line = f"agree {label}: DISAGREES after {time.process_time() - t:.0f} CPU-s: {e}"
        else:
            cpu = time.process_time() - t
            ends = ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items()) if k not in ("steps", "games"))
            line = (f"agree {label}: {counts['steps']:,} steps, {counts['games']:,} games ({ends}), records checked; "
                    f"{cpu:.0f} CPU-s ({cpu / counts['steps'] * 1e6:.0f} CPU-s per 10^6 steps)")
        if out is not None:
            with open(out, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        yield line


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_env", description=__doc__.split("\n\n")[0])
    parser.add_argument("--agree", type=int, metavar="STEPS", help="check agreement for STEPS steps per case")
    parser.add_argument("--only", help="comma-separated cases (NAME@MAP) to run")
    parser.add_argument("--out", help="append the lines to this file and skip the cases it has")
    parser.add_argument("--part", type=int, default=0, metavar="K",
                        help="play part K of each case (other seeds; the parts' steps add up)")
    args = parser.parse_args(argv)
    if args.agree is None:
        for line in run():
            print(line, flush=True)
        return 0
    bad = False
    for line in agree_run(args.agree, args.only.split(",") if args.only else None, args.out, args.part):
        print(line, flush=True)
        bad |= "DISAGREES" in line
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
