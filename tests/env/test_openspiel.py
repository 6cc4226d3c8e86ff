"""The OpenSpiel game (``python_scotland_yard``): OpenSpiel's own random-simulation test with
serialization, the information the detectives get, ``resample_from_infostate`` against the
brute-force route oracle, and games exported as records the referee rules legal."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from helpers import small_board
from oracles import oracle_routes

from sy_tools.analysis.referee import check
from sy_tools.env.openspiel import GAME_NAME, load, sample_route, to_record
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.map_write import write_map


def _play(state, rng: random.Random, actions: int | None = None):
    """Random actions (chance by its odds) until the end or ``actions`` player actions."""
    n = 0
    while not state.is_terminal() and (actions is None or n < actions or state.is_chance_node()):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
    return state


#: rules under which Mr. X soon runs out of tickets and, not losing when trapped, passes
TRAPPING = ("classic:trapped_loses false:tickets_to_mrx false:log_length 6:reveal_moves [3]:"
            "mrx_tickets taxi 2 bus 0 underground 0 black 0 double 0")


@pytest.mark.parametrize("params", [
    {"detectives": 2},
    {"detectives": 2, "rules": TRAPPING},
    {"detectives": 3, "team": False, "rules": "2014"},
    {"detectives": 4, "rules": "classic:trapped_loses false:voluntary_reveal true:cutoff_escape true:"
                               "mrx_onto_detective \"caught\":blocked_detective \"out\""},
])
def test_openspiel_random_simulation_test_passes_with_serialization(params):
    game = load(**params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = _play(game.new_initial_state(), random.Random(3), 30)
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game)
    assert again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)
    assert again.information_state_string(0) == state.information_state_string(0)


def test_a_bad_parameter_is_one_clear_error():
    from sy_tools.errors import InputError

    with pytest.raises(InputError, match="detectives"):
        load(detectives=9)
    with pytest.raises(InputError, match="unknown parameter"):
        load(colour="red")


def test_observer_tensors_match_the_states_own_and_strings_agree_with_tensors():
    from open_spiel.python.observation import make_observation

    game = load(detectives=3)
    rng = random.Random(5)
    for seed in range(3):
        state = _play(game.new_initial_state(), random.Random(seed), rng.randint(5, 40))
        for player in range(game.num_players()):
            obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
            obs.set_from(state, player)
            assert list(obs.tensor) == pytest.approx(state.information_state_tensor(player))
            assert obs.string_from(state, player) == state.information_state_string(player)
            plain = make_observation(game)
            plain.set_from(state, player)
            assert list(plain.tensor) == pytest.approx(state.observation_tensor(player))


def test_detectives_information_is_the_same_whatever_mr_xs_true_route():
    """A resampled state keeps the public record and moves Mr. X: the detectives' information
    state (string and tensor) and observation are the same, Mr. X's are not."""
    game = load(detectives=2, team=False)
    state = _play(game.new_initial_state(), random.Random(11), 16)
    while state.is_terminal() or state.current_player() == 0:  # (a detective to move, the game on)
        state = _play(game.new_initial_state(), random.Random(len(state.history())), 16)
    truth = tuple(state.dealt[-1:]) + tuple(s for m in state.moves if m.piece == "Mr. X" for s in m.stations)
    other = 0
    for k in range(20):
        twin = state.resample_from_infostate(1, random.Random(k))
        route = tuple(twin.dealt[-1:]) + tuple(s for m in twin.moves if m.piece == "Mr. X" for s in m.stations)
        for p in (1, 2):
            assert twin.information_state_string(p) == state.information_state_string(p)
            assert twin.information_state_tensor(p) == state.information_state_tensor(p)
            assert twin.observation_string(p) == state.observation_string(p)
            assert twin.observation_tensor(p) == state.observation_tensor(p)
            assert twin.legal_actions(p) == state.legal_actions(p)
        if route != truth:
            other += 1
            assert twin.information_state_string(0) != state.information_state_string(0)
    assert other  # some draws put him elsewhere (else this test could not tell)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_resampled_routes_fit_the_public_record_and_follow_the_path_weights(tmp_path, seed):
    """Routes drawn by ``resample_from_infostate``'s sampler are exactly the oracle's consistent
    routes, each about equally often (chi-square at 0.1 %; fixed seeds, so not flaky)."""
    from scipy.stats import chisquare

    rng = random.Random(seed)
    path = tmp_path / "small.json"
    write_map(small_board(rng, 12), path)
    game = load(map=str(path), detectives=2, rules="classic:reveal_moves 4 9")
    for _ in range(50):
        state = _play(game.new_initial_state(), rng, rng.randint(6, 14))
        if not state.is_terminal() and state.steps:
            break
    routes = oracle_routes(parse_record(to_record(state)))
    assert routes
    allowed = set(routes)
    draws = 300 * len(allowed)
    if draws > 30_000:
        pytest.skip("too many routes for a quick test")  # (the seeds above are chosen to stay small)
    counts = Counter(tuple(sample_route(state, rng.random)) for _ in range(draws))
    assert set(counts) <= allowed
    assert set(counts) == allowed
    assert chisquare([counts[r] for r in sorted(allowed)]).pvalue > 0.001


@pytest.mark.parametrize("params", [{"detectives": 5}, {"detectives": 3, "team": False, "rules": "2014"},
                                    {"detectives": 4, "rules": "classic:trapped_loses false:voluntary_reveal true"}])
def test_games_played_in_openspiel_export_as_legal_records_with_the_same_outcome(params):
    game = load(**params)
    for seed in range(3):
        state = _play(game.new_initial_state(), random.Random(seed))
        result = check(parse_record(to_record(state)))
        assert result.legal, [p.line(None) for p in result.problems]
        assert result.status.kind == state.pos.outcome.kind
        assert result.status.winner == state.pos.outcome.winner
        assert state.returns()[0] == (1.0 if state.pos.outcome.winner == "mrx" else -1.0)


def test_game_is_registered_under_its_name():
    assert GAME_NAME in pyspiel.registered_names()


@pytest.mark.parametrize("params", [{"detectives": 4}, {"detectives": 2, "rules": TRAPPING}])
def test_mr_xs_first_action_without_listing_double_moves_is_the_engines_list(params):
    """Mr. X's first action of a move is offered without listing his double moves; it must be
    exactly the first actions of the engine's legal moves (the general path), the pass where
    he is trapped under rules that let him pass among them."""
    game = load(**params)
    checked = passes = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            if state.current_player() == 0 and not state.prefix:
                assert state.legal_actions() == sorted({tk[0] for tk, _ in state.options()})
                checked += 1
                passes += state.legal_actions() == [state.spec.pass_action]
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20
    assert passes or "trapped_loses false" not in params.get("rules", "")


@pytest.mark.parametrize("overrides", [{"reveal_moves": []}, {"reveal_moves": [3]}, {"reveal_moves": [3, 8]},
                                       {"trapped_loses": False, "mrx_tickets": {"black": 0, "double": 1}}])
def test_the_rules_parameter_of_any_rules_reads_back_as_those_rules(overrides):
    """What the bots load a game with (``rules_parameter``) gives the same rules again, lists of
    none or one number included (a one-reveal rules file once made every OpenSpiel bot forfeit)."""
    from sy_tools.engine.rules import rules_from_json
    from sy_tools.env.openspiel import parse_rules, rules_parameter

    rules = rules_from_json({"preset": "classic", "log_length": 8, **overrides})
    text = rules_parameter(rules)
    assert parse_rules(text) == rules
    assert load(detectives=2, rules=text).new_initial_state().spec.rules == rules
    assert parse_rules("classic:reveal_moves 5").reveal_moves == parse_rules("classic:reveal_moves [5]").reveal_moves


def _deal(game, *stations):
    state = game.new_initial_state()
    for st in stations:
        state.apply_action(state.spec.index[st])
    return state


def _moved(state, *moves):
    for m in moves:
        for a in state.spec.tokens(m):
            state.apply_action(a)
    return state


def _detectives_history(game, tickets):
    """A one-detective game: Red from 13 to 14 and back, by ``tickets``; Mr. X from 26 plays his
    first single action each time."""
    sp = game.new_initial_state().spec
    state = _deal(game, 13, 26)
    for k, to in zip(tickets, (14, 13)):
        while state.current_player() == 0:
            state.apply_action(min(a for a in state.legal_actions() if a < 4 * sp.n))
        state.apply_action(k * sp.n + sp.index[to])
    return state


def _takes(game, order):
    """Under voluntary reveals: Mr. X shows himself after each of two single moves and takes
    Red's tickets in ``order``; Red moves by taxi between."""
    state = _play(game.new_initial_state(), random.Random(3), 0)
    for want in order:
        tokens = min(tk for tk, m in state.options() if not m.is_double and m.took == ("Red", want) and m.shown == 0)
        for a in tokens:
            state.apply_action(a)
        state.apply_action(min(a for a in state.legal_actions() if a < state.spec.n))
    return state


def _information_pairs():
    """(what, state, other state, player): two information states of ``player`` that differ."""
    from sy_tools.engine.moves import Move
    from sy_tools.engine.tickets import Ticket
    from sy_tools.selfplay.openspiel_game import ScotlandYardState

    short = "classic:log_length 8:reveal_moves 3 8"
    game = load(detectives=1, rules=short)
    yield "a detective's tickets", _detectives_history(game, (0, 1)), _detectives_history(game, (1, 0)), 1
    yield "a detective's card, dealt", _deal(game, 13), _deal(game, 14), 1
    black = Ticket.BLACK
    yield "Mr. X's start", _moved(_deal(game, 91, 13), Move("Mr. X", (black,), (46,))), \
        _moved(_deal(game, 91, 34), Move("Mr. X", (black,), (46,))), 0
    decks = load(detectives=1, rules=short + ':detective_deck "2014-mrx":mrx_deck "2014-mrx"')
    red = Move("Red", (Ticket.TAXI,), (116,))
    x = Move("Mr. X", (Ticket.TAXI,), (min(decks.new_initial_state().spec.board.destinations(13, Ticket.TAXI)),))
    yield "a detective's start", _moved(_deal(decks, 104, 13), x, red), _moved(_deal(decks, 127, 13), x, red), 1
    reveal = load(detectives=1, rules="classic:voluntary_reveal true")
    yield "the order of the tickets he took", _takes(reveal, (Ticket.TAXI, Ticket.BUS)), \
        _takes(reveal, (Ticket.BUS, Ticket.TAXI)), 0
    state = _play(load(detectives=2, rules="classic:voluntary_reveal true").new_initial_state(), random.Random(1), 0)
    doubles = [tk for tk, m in state.options() if m.is_double]
    a = doubles[0]
    b = next(tk for tk in doubles if tk[:2] == a[:2] and tk[2] != a[2])
    yield "his half-chosen double move's second leg", _moved_actions(state.clone(), a[:3]), \
        _moved_actions(state.clone(), b[:3]), 0
    game = load(detectives=2)
    pos = _play(game.new_initial_state(), random.Random(2), 3).pos
    yield "the set a mid-game state starts from", ScotlandYardState.at(game, pos, 1 << pos.mrx_at), \
        ScotlandYardState.at(game, pos, (1 << pos.mrx_at) | (1 << 1)), 1


def _moved_actions(state, actions):
    for a in actions:
        state.apply_action(a)
    return state


def test_the_perfect_recall_tensor_tells_apart_what_the_information_state_string_does():
    """Information states that differ (in the string) differ in the tensor: each of the ways
    the tensor once lost something (which ticket a detective used, his start, Mr. X's start,
    the order of the tickets he took, his half-chosen move, a mid-game state's start), and any
    two states met in random games under several rule sets."""
    for what, a, b, p in _information_pairs():
        assert a.information_state_string(p) != b.information_state_string(p), what
        assert a.information_state_tensor(p) != b.information_state_tensor(p), what
    for params in ({"detectives": 2, "rules": "classic:log_length 8:reveal_moves 3 8"},
                   {"detectives": 2, "team": False, "rules": "classic:voluntary_reveal true:log_length 8"},
                   {"detectives": 1, "rules": TRAPPING}):
        game = load(**params)
        seen: dict[tuple[int, bytes], str] = {}
        for seed in range(12):
            rng, state = random.Random(seed), game.new_initial_state()
            while True:
                for p in range(game.num_players()):
                    key = (p, bytes(memoryview(np.asarray(state.information_state_tensor(p), np.float32))))
                    assert seen.setdefault(key, state.information_state_string(p)) == state.information_state_string(p)
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))


def test_a_mid_game_states_detectives_tensors_do_not_depend_on_mr_xs_route():
    """A state made in a game's middle (as the policies make them): the log's slots count from
    the game's first move, so the detectives' tensors mark only his true reveals (they once
    marked a hidden move), the same for every route that fits the record."""
    from sy_tools.selfplay.openspiel_game import ScotlandYardState

    game = load(detectives=2)
    base = _play(game.new_initial_state(), random.Random(2), 3)
    while base.current_player() != 0:
        base = _play(base, random.Random(0), 1)
    state = _play(ScotlandYardState.at(game, base.pos, base.possible), random.Random(5), 12)
    assert state.pos.move >= 3 and not state.is_terminal()
    for k in range(20):
        twin = state.resample_from_infostate(1, random.Random(k))
        assert twin.information_state_string(1) == state.information_state_string(1)
        assert twin.information_state_tensor(1) == state.information_state_tensor(1)
        assert twin.observation_tensor(1) == state.observation_tensor(1)


def test_public_and_private_observations_hold_only_their_part():
    """OpenSpiel's factored observations: the public one is the same for every player and for
    any true route of Mr. X; the private one holds only Mr. X's station (nothing for a detective)."""
    from open_spiel.python.observation import make_observation

    game = load(detectives=2)
    state = _play(game.new_initial_state(), random.Random(4), 12)
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    for recall in (False, True):
        public = make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=recall, private_info=pyspiel.PrivateInfoType.NONE))
        views = set()
        for k in range(8):
            twin = state.resample_from_infostate(1, random.Random(k))
            for p in (0, 1):
                public.set_from(twin, p)
                views.add((public.string_from(twin, p), public.tensor.tobytes()))
        assert len(views) == 1
        assert f"Mr. X at {state.pos.mrx_at}" not in next(iter(views))[0]
        assert f"X@{state.dealt[-1]}" not in next(iter(views))[0]
    private.set_from(state, 1)
    assert private.string_from(state, 1) == "p1 | " and private.tensor.sum() == 1  # (the player piece alone)
    private.set_from(state, 0)
    assert private.string_from(state, 0) == f"p0 | Mr. X at {state.pos.mrx_at}"
    assert private.dict["mrx_station"][state.spec.index[state.pos.mrx_at]] == 1


def detectives_turns(game, rng: random.Random):
    """Each state of a random game of ``game`` where the detectives (player 1) are to move."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        if state.current_player() == 1:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))


def test_resampling_all_along_a_game_keeps_the_detectives_information():
    """A resample at every detectives' turn of a game (the route table made afresh as the
    record grows) keeps their information state and puts Mr. X where the record allows."""
    rng = random.Random(21)
    checked = 0
    for state in detectives_turns(load(detectives=3), rng):
        twin = state.resample_from_infostate(1, rng)
        assert twin.information_state_string(1) == state.information_state_string(1)
        assert twin.legal_actions() == state.legal_actions()
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("seed", [2, 3])
def test_the_detectives_path_weights_from_their_observations_are_the_games(seed):
    """The record the detectives' simulate policy makes up from its observations, call by
    call, gives the same path weights as the game's own public record (:func:`route_weights`)
    at every detectives' turn."""
    from sy_tools.engine.observations import DetectiveObservation
    from sy_tools.env.openspiel import route_weights
    from sy_tools.selfplay.openspiel_bots import path_weights

    memo: dict = {}
    checked = 0
    for state in detectives_turns(load(detectives=4), random.Random(seed)):
        legs = [(t, s) for m in state.moves if m.piece == "Mr. X" for t, s in zip(m.tickets, m.stations)]
        reveals = {n: s for n, (_, s) in enumerate(legs, 1) if state.spec.rules.is_reveal(n)}
        obs = DetectiveObservation.of(state.pos, state.possible, tuple(t for t, _ in legs), reveals, memo=memo)
        want = route_weights(state)[1][-1]
        assert path_weights(obs) == {s: want[s] for s in sorted(want)}
        checked += 1
    assert checked > 10
