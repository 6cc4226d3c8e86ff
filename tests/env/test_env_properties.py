"""The environment against the engine, over a few hundred random games: every action mask is
exactly the engine's legal moves, the detectives' observations do not depend on where Mr. X
really is, the detectives' possible set is the tracker's, and every finished game exports as a
record the referee rules legal with the same outcome."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
from helpers import small_board

from sy_tools.analysis.possible import smooth
from sy_tools.analysis.referee import check
from sy_tools.analysis.tracker import trace
from sy_tools.engine.hops import MRX, mrx_sources
from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.stations import stations_of
from sy_tools.env import ScotlandYardEnv

CLASSIC = PRESETS["classic"]


def _variant(rng: random.Random, small: bool) -> Any:
    """Classic rules, or one of the variants the engine plays (on a small map, the voluntary
    reveal too: it multiplies Mr. X's moves)."""
    return rng.choice([
        *([dataclasses.replace(CLASSIC, voluntary_reveal=True)] if small else []),
        CLASSIC, CLASSIC, CLASSIC,
        dataclasses.replace(CLASSIC, trapped_loses=False),
        dataclasses.replace(CLASSIC, mrx_onto_detective="caught"),
        dataclasses.replace(CLASSIC, tickets_to_mrx=False, log_length=8, reveal_moves=(2, 5, 8)),
        dataclasses.replace(CLASSIC, cutoff_escape=True),
        dataclasses.replace(CLASSIC, double_moves_per_round=0),
    ])


def _random_game(env: ScotlandYardEnv, rng: random.Random, seed: int) -> None:
    """Play one game with uniformly random legal actions beside a position the test keeps
    itself: at every step the agent to act is the engine's piece to move, and its mask,
    decoded, is exactly that position's legal moves (counted by popcounts, listed apart)."""
    env.reset(seed=seed)
    mrx, dets, _ = env.start
    shadow = Position.start(env.board, env.rules, list(zip(env.names, dets)), mrx_at=mrx)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        piece = env.piece(agent)
        assert piece == shadow.to_move
        actions = np.flatnonzero(obs["action_mask"])
        decoded = {env.codec.decode(piece, a) for a in actions}
        assert len(decoded) == len(actions) == len(shadow.legal_moves)
        assert decoded == set(shadow.legal_moves())
        other = rng.choice(env.agents)  # nobody else may act now
        assert other == agent or not env.observe(other)["action_mask"].any()
        action = int(actions[int(rng.random() * len(actions))])
        env.step(action)
        shadow = shadow.push(env.codec.decode(piece, action))
    if shadow.turn == 0 and shadow.ended is None and not shadow.legal_moves:
        shadow = shadow.declare_trapped(shadow.mrx_at)  # (simulate's rule)
    assert env.position.outcome == shadow.outcome


def _check_export(env: ScotlandYardEnv, outcome: str) -> None:
    verdict = check(env.record())
    assert verdict.legal, [p.message for p in verdict.problems]
    assert verdict.status.kind.value == outcome


def test_masks_are_the_engines_legal_moves_and_games_export_legal(london):
    """200 games, four per set-up: 140 on random small maps (traps, stuck detectives, the
    ferry), 60 on London."""
    rng = random.Random(2026)
    outcomes: set[str] = set()
    for i in range(200):
        if i % 4 == 0 and i < 140:
            board = small_board(rng)
            env = ScotlandYardEnv(rules=_variant(rng, True), map=board, detectives=rng.randint(1, 4))
        elif i % 4 == 0:
            env = ScotlandYardEnv(rules=_variant(rng, False), map=london, detectives=rng.randint(2, 5))
        _random_game(env, rng, seed=i)
        outcomes.add(env.outcome)
        assert not env.agents
        _check_export(env, env.outcome)
        tr = trace(env.record())  # (a pass keeps the stations where he had no move, in both)
        if tr.capture is None:
            assert tr.current == env.public_state().possible  # the tracker's possible set
    assert outcomes == {"capture", "trapped", "detectives-stuck", "log-full"}, outcomes


def _route(env: ScotlandYardEnv, rng: random.Random) -> list[int]:
    """Another route of Mr. X that fits everything the detectives saw of the game ``env``
    played: his start, then his station after each travel-log entry (drawn backwards from the
    smoothed possible sets, so every station lies on some consistent route)."""
    rec = env.record()
    tr = trace(rec)
    sets = smooth(env.board, tr, env.rules)
    route = [rng.choice(stations_of(sets[-1]))]
    for i in range(len(sets) - 1, -1, -1):
        step = tr.steps[i]
        before = tr.start if i == 0 else sets[i - 1]
        route.append(rng.choice(stations_of(before & mrx_sources(env.board, 1 << route[-1], step.ticket,
                                                                 step.occupied, env.rules))))
    return route[::-1]


def test_detectives_see_the_same_whatever_mrx_station(london):
    """Two games with the same public record and Mr. X on other stations: every detective's
    observation (the probabilities included), infos and the turn are the same at every step."""
    rng = random.Random(7)
    differed = 0
    for i in range(24):
        probs = "paths" if i < 2 else None
        a = ScotlandYardEnv(map=london, detectives=rng.randint(2, 5), probabilities=probs)
        b = ScotlandYardEnv(map=london, detectives=len(a.names), probabilities=probs)
        _random_game(a, rng, seed=100 + i)
        moves = list(a.moves)
        mrx, dets, candidates = a.start
        route = _route(a, rng)
        trapped = a.outcome == "trapped"
        for env, stations in ((a, None), (b, route)):
            opts = {"mrx_start": stations[0] if stations else mrx, "detective_starts": dets,
                    "start_candidates": candidates}
            env.reset(options=opts)
        leg = 1
        for k, m in enumerate(moves):
            for name in {rng.choice(a.possible_agents[1:]), a.agent_selection} - {"mrx"}:
                oa, ob = a.observe(name), b.observe(name)
                assert oa.keys() == ob.keys()
                for key in oa["observation"]:
                    assert np.array_equal(oa["observation"][key], ob["observation"][key]), (i, k, name, key)
                assert np.array_equal(oa["action_mask"], ob["action_mask"])
                if probs:  # a probability on every possible station, and nowhere else
                    assert np.array_equal(oa["observation"]["probabilities"] > 0, oa["observation"]["possible"] == 1)
            assert a.agent_selection == b.agent_selection and a.infos == b.infos
            if m.piece == MRX:
                other = Move(MRX, m.tickets, tuple(route[leg:leg + len(m.tickets)]), m.shown, m.took)
                differed += other != m
                leg += len(m.tickets)
                a.step(a.codec.encode(m))
                b.step(b.codec.encode(other))
            else:
                a.step(a.codec.encode(m))
                b.step(b.codec.encode(m))
        if not trapped:
            assert a.infos == b.infos and a.rewards == b.rewards
    assert differed > 40  # the routes really differ
