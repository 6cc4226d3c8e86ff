"""The batched engine against the AEC env (the reference, on the rules engine): random steps on
London under each preset and on small generated maps under each variant agree on masks, both
sides' observations, rewards, ends, outcomes and exported records (each checked legal); the
agreement check fails when one rule differs on either side; the detectives' view does not read
Mr. X's station; seeds reproduce; bad actions are refused.  (Long runs, every preset and
variant on London and on small maps: ``python -m benchmarks.bench_env --agree STEPS``.)"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from helpers import small_board

import sy_tools.engine.position as engine_position
import sy_tools.env.vector as vector_module
from sy_tools.engine.rules import PRESETS
from sy_tools.env.agree import Disagreement, agree
from sy_tools.env.vector import VectorEngine
from sy_tools.errors import InputError

CLASSIC = PRESETS["classic"]

VARIANTS = {
    "classic": CLASSIC,
    "trapped-passes": dataclasses.replace(CLASSIC, trapped_loses=False),
    "caught": dataclasses.replace(CLASSIC, mrx_onto_detective="caught"),
    "blocked-out": dataclasses.replace(CLASSIC, blocked_detective="out"),
    "short-log": dataclasses.replace(CLASSIC, tickets_to_mrx=False, log_length=8, reveal_moves=(2, 5, 8)),
    "no-doubles": dataclasses.replace(CLASSIC, double_moves_per_round=0),
    "black-per-detective": dataclasses.replace(CLASSIC, black_per_detective=True, double_moves_per_game=1),
    # more double tickets than a game can use (the engine's table was once cubic in them)
    "many-doubles": dataclasses.replace(CLASSIC, log_length=10, reveal_moves=(3, 8), double_moves_per_game=10**6,
                                        mrx_tickets={**CLASSIC.mrx_tickets, "double": 10**18 - 1}),
    "cutoff-escape": dataclasses.replace(CLASSIC, cutoff_escape=True),  # the per-game fallback
    "voluntary-reveal": dataclasses.replace(CLASSIC, voluntary_reveal=True),  # the per-game fallback
}


@pytest.mark.parametrize("preset,steps", [("classic", 160), ("2014", 100)])
def test_london_presets_agree(london, preset, steps):
    vec = VectorEngine(16, PRESETS[preset], london, detectives=5, seed=11, keep_records=True)
    counts = agree(vec, steps, np.random.default_rng(1), records=True)
    assert counts["steps"] > 1500 and counts["games"] >= 8


@pytest.mark.parametrize("name", list(VARIANTS))
def test_small_maps_agree_under_each_variant(name):
    rng = random.Random(list(VARIANTS).index(name))  # hash(name) differs between processes
    total: dict[str, int] = {}
    for k in range(2):
        board = small_board(rng)
        vec = VectorEngine(8, VARIANTS[name], board, detectives=rng.randint(1, 4), seed=k, keep_records=True)
        counts = agree(vec, 20 if name in ("cutoff-escape", "voluntary-reveal") else 35, np.random.default_rng(k),
                       records=True)
        for key, v in counts.items():
            total[key] = total.get(key, 0) + v
    assert total["games"] >= 6, total


def test_every_outcome_is_reached_on_small_maps():
    outcomes: set[str] = set()
    few = dataclasses.replace(CLASSIC, detective_tickets={"taxi": 2, "bus": 1, "underground": 1})
    for seed, rules in enumerate([CLASSIC, VARIANTS["short-log"], few]):
        vec = VectorEngine(16, rules, small_board(random.Random(seed)), detectives=3, seed=seed)
        outcomes |= set(agree(vec, 40, np.random.default_rng(seed))) - {"steps", "games"}
    assert outcomes == {"capture", "trapped", "detectives-stuck", "log-full"}, outcomes


def test_a_rule_changed_on_the_batched_side_is_caught(london, monkeypatch):
    """One rule parameter differs on one side only: the check fails."""
    vec = VectorEngine(8, dataclasses.replace(CLASSIC, reveal_moves=(3, 8, 13, 18, 23)), london, seed=2)
    vec.rules = CLASSIC  # the AEC side plays classic, the batched side kept its reveals
    vec.codec.rules = CLASSIC
    with pytest.raises(Disagreement):
        agree(vec, 200, np.random.default_rng(0))
    monkeypatch.setattr(vector_module, "double_allowed", lambda *a: False)  # the batched side: no doubles
    with pytest.raises(Disagreement, match="mrx's mask"):
        agree(VectorEngine(8, CLASSIC, london, seed=2), 5, np.random.default_rng(0))


def test_a_rule_changed_on_the_engine_side_is_caught(london, monkeypatch):
    monkeypatch.setattr(engine_position, "double_allowed", lambda *a: False)  # the engine: no doubles
    with pytest.raises(Disagreement, match="mrx's mask"):
        agree(VectorEngine(8, CLASSIC, london, seed=2), 5, np.random.default_rng(0))


def test_the_detectives_view_does_not_read_mrx_station(london):
    """Two batches that differ only in Mr. X's station (another station he may be at): every
    detective's observation, the detectives' view and the detectives' masks are the same."""
    a = VectorEngine(64, CLASSIC, london, detectives=4, seed=5)
    b = VectorEngine(64, CLASSIC, london, detectives=4, seed=5)
    rng = np.random.default_rng(3)
    compared = 0
    for _ in range(40):
        a.step(a.sample(rng))
        for name in ("det_at", "det_tk", "out", "mrx_at", "mrx_tk", "move", "round", "doubles", "turn", "outcome",
                     "possible", "last_reveal"):
            setattr(b, name, getattr(a, name).copy())
        b._recompute()
        for j in range(64):
            options = np.flatnonzero(a.possible[j])
            b.mrx_at[j] = options[rng.integers(len(options))] if len(options) else a.mrx_at[j]
        compared += int((b.mrx_at != a.mrx_at).sum())
        dets = a.turn > 0
        assert np.array_equal(a.observe(copy=True)[dets], b.observe()[dets])
        assert np.array_equal(a.detectives_view(), b.detectives_view())
        assert np.array_equal(a.masks()[1], b.masks()[1])
    assert compared > 500


def test_seeds_reproduce_and_slots_are_the_runs_games(london):
    runs = []
    for _ in range(2):
        vec = VectorEngine(32, CLASSIC, london, seed=9)
        rng = np.random.default_rng(4)
        trace = []
        for _ in range(50):
            st = vec.step(vec.sample(rng))
            trace.append((st.obs.copy(), st.rewards.copy(), st.game[st.ended].copy()))
        runs.append(trace)
    for (o1, r1, g1), (o2, r2, g2) in zip(*runs):
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(g1, g2)
    assert sorted(VectorEngine(4, CLASSIC, london, seed=9).games[:, 1].tolist()) == [0, 1, 2, 3]


def test_observations_are_float32_in_the_unit_box_with_the_board(london):
    vec = VectorEngine(64, CLASSIC, london, seed=1)
    rng = np.random.default_rng(0)
    space = vec.flat.space()
    for _ in range(40):
        obs = vec.step(vec.sample(rng)).obs
        assert obs.dtype == np.float32 and obs.shape == (64, vec.observation_size)
        assert all(space.contains(o) for o in obs[:4])
        assert obs.min() >= 0 and obs.max() <= 1
    adj = vec.adjacency()
    assert adj.shape == (4, 199, 199) and np.array_equal(adj, adj.transpose(0, 2, 1))
    assert int(adj[3].sum()) == 2 * sum(c.transport.value == "ferry" for c in london.connections)
    assert [f[0] for f in vec.flat.fields()][-8:] == ["to_move", "out", "detective_tickets", "mrx_tickets", "round",
                                                       "move", "next_reveal", "doubles_used"]


@pytest.mark.parametrize("bad", ["illegal", "float", "shape", "bool"])
def test_bad_actions_are_refused_and_nothing_is_played(london, bad):
    vec = VectorEngine(8, CLASSIC, london, seed=1)
    good = vec.sample(np.random.default_rng(0))
    mx, _ = vec.masks()
    actions = {"illegal": np.where(np.arange(8) == 3, int(np.flatnonzero(~mx[3])[0]), good),
               "float": good.astype(float), "shape": good[:4], "bool": good > 0}[bad]
    before = vec.observe(copy=True)
    with pytest.raises(InputError, match="game 3: action|must be 8 integers"):
        vec.step(actions)
    assert np.array_equal(before, vec.observe())
    vec.step(good)


@pytest.mark.parametrize("size", [5, 13, 16, 17, 26, 64, 65, 344])
def test_bitset_count_and_kth_against_plain_lists(size):
    """The bitset helpers the batched engine samples and checks actions with: the size of a set
    and its k-th member (16 bits at a time up to 64 candidates, a byte at a time beyond), and
    membership, against the members listed one by one."""
    from sy_tools.env.vector_bits import count, has, kth, pack

    rng = np.random.default_rng(size)
    flags = rng.random((300, size)) < rng.random((300, 1))
    words = pack(flags)
    members = [np.flatnonzero(f).tolist() for f in flags]
    for limit in (size, None):
        assert count(words, limit).tolist() == [len(m) for m in members]
        rows = [r for r, m in enumerate(members) if m]
        k = np.array([int(rng.integers(len(members[r]))) for r in rows])
        assert kth(words[rows], k, limit).tolist() == [members[r][j] for r, j in zip(rows, k)]
    slots = rng.integers(0, size, 300)
    assert has(words, slots).tolist() == [bool(f[s]) for f, s in zip(flags, slots)]


#: digests of 1,500 deals per case (seeds 0, 1, 2026, -7, 2^62, games 0-299), computed with
#: ``selfplay.game.deal`` / ``game_rng`` before they were made faster: every seeded result in
#: the project depends on them staying the same
DEAL_DIGESTS = [
    ("classic", None, 5, "907d2ac1fe33096a"),
    ("2014", None, 5, "0e5a3bc8b9a2a79d"),
    ("classic", "2014", 3, "4d51c72f50148b5a"),
    ("classic", (1, 13, 29, 91, 132, 197), 5, "496b55a5c839abfe"),
]


@pytest.mark.parametrize("rules,starts,d,digest", DEAL_DIGESTS)
def test_deals_are_unchanged_for_many_seeds(london, rules, starts, d, digest):
    import hashlib

    from sy_tools.selfplay.game import deal, game_rng

    h = hashlib.sha256()
    for seed in (0, 1, 2026, -7, 2**62):
        for g in range(300):
            h.update(repr(deal(london, PRESETS[rules], d, starts, game_rng(seed, g))).encode())
    assert h.hexdigest()[:16] == digest


def test_deals_are_unchanged_on_a_small_map():
    import hashlib

    from sy_tools.selfplay.game import deal, game_rng

    assert deal(small_board(random.Random(5)), CLASSIC, 2, None, game_rng(3, 7)) == (6, [12, 15], [4, 5, 6, 8, 9, 17])
    h = hashlib.sha256()
    board = small_board(random.Random(5))
    for g in range(300):
        h.update(repr(deal(board, CLASSIC, 2, None, game_rng(3, g))).encode())
    assert h.hexdigest()[:16] == "c02952de67832c41"


def test_two_deals_are_as_hard_coded(london):
    from sy_tools.selfplay.game import deal, game_rng

    assert deal(london, CLASSIC, 5, None, game_rng(1, 0)) == (
        174, [117, 29, 91, 34, 112], [13, 26, 50, 53, 94, 103, 132, 138, 141, 155, 174, 197, 198])
    assert deal(london, PRESETS["2014"], 5, None, game_rng(2026, 41)) == (
        166, [141, 94, 112, 174, 29], [35, 45, 51, 71, 78, 104, 106, 127, 132, 146, 166, 170, 172])


@pytest.mark.parametrize("rules,starts", [("classic", None), ("2014", None), ("classic", (1, 13, 29, 91, 132, 197))])
def test_the_dealer_deals_as_deal(london, rules, starts):
    from sy_tools.selfplay.game import Dealer, deal, game_rng

    dealer = Dealer(london, PRESETS[rules], 5, starts)
    games = range(40, 440)
    want = [deal(london, PRESETS[rules], 5, starts, game_rng(-3, g)) for g in games]
    assert [dealer.deal(game_rng(-3, g)) for g in games] == want
    assert dealer.draw_games(-3, games) == [(m, d) for m, d, _ in want]
