"""The possible-set filter against the brute-force oracle, and hand-made cases for each point
of the semantics."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from helpers import REPO, small_board
from oracles import compare_with_oracle, oracle_answer

from sy_tools.analysis.possible import possible
from sy_tools.analysis.tracker import InconsistentRecord
from sy_tools.engine.rules import PRESETS, rules_from_json
from sy_tools.errors import RecordError
from sy_tools.formats.game_json import parse_record
from sy_tools.selfplay.generate import detectives_view, random_game


def _truncations(rec, rng, k=3):
    out = []
    for _ in range(k):
        n = rng.randint(0, len(rec.rounds))
        cut = rec.truncated(n, rng.randint(0, 5) if n else None)
        out.append(cut)
    return out


def test_oracle_london_random_games():
    """Hundreds of random legal London records, truncated at random points."""
    board_rules = PRESETS["classic"]
    from sy_tools.formats.map_load import load_board

    board = load_board("london")
    rng = random.Random(1)
    compared = 0
    for seed in range(120):
        doc = random_game(board, board_rules, random.Random(seed))
        view = parse_record(detectives_view(doc, board_rules))
        full = parse_record(doc)
        for cut in _truncations(view, rng):
            compared += compare_with_oracle(cut)
        # Mr. X's true route is always inside every history set
        cut_n = rng.randint(1, len(full.rounds))
        vcut = view.truncated(cut_n)
        p = possible(vcut, history=True)
        truth = [m.to for r in full.rounds[:cut_n] for m in r.mrx]
        assert all(t in h for t, h in zip(truth, p.history))
    assert compared >= 250


@pytest.mark.parametrize("weights", ["paths", "uniform", "moves"])
def test_oracle_small_boards_long_games(weights):
    """Random small maps with frequent reveals: whole games stay enumerable."""
    compared = 0
    for seed in range(60):
        rng = random.Random(seed)
        board = small_board(rng)
        rules = rules_from_json({"preset": "classic", "reveal_moves": list(range(3, 25, 3)),
                                 "mrx_deck": "classic", "detective_deck": "classic"})
        doc = random_game(board, rules, rng, n_detectives=rng.randint(1, 3),
                          mrx_start_candidates=board.start_decks["classic"])
        doc["rules"] = {"preset": "classic", "reveal_moves": list(range(3, 25, 3))}
        rec = _with_board(detectives_view(doc, rules), board)
        for cut in _truncations(rec, rng, 2) + [rec]:
            compared += compare_with_oracle(cut, weights)
    assert compared >= 100


def _with_board(doc, board):
    import dataclasses

    b_doc = dict(doc, map="london")
    rec = parse_record(json.loads(json.dumps(b_doc)))
    cands = tuple(sorted(set(doc["mrx"]["start_candidates"]) - {d["start"] for d in doc["detectives"]}))
    return dataclasses.replace(rec, board=board, start_candidates=cands)


def test_moves_model_probabilities_small_case():
    """The behavioural model: uniform among legal destinations of the shown ticket."""
    from sy_tools.engine.board import Board, Connection

    # 1 - 2, 1 - 3, 3 - 4 (taxi); Mr. X at 1, then taxi, taxi
    b = Board.build("t", [1, 2, 3, 4, 5], [Connection.of(1, 2, "taxi"), Connection.of(1, 3, "taxi"),
                                            Connection.of(3, 4, "taxi"), Connection.of(4, 5, "taxi")],
                    None, {"classic": [1]})
    import dataclasses

    rec = parse_record({"detectives": [{"name": "R", "start": 5}], "mrx": {"start_candidates": [1]},
                        "rounds": [{"mrx": [{"ticket": "taxi"}], "detectives": []},
                                   {"mrx": [{"ticket": "taxi"}], "detectives": []}]})
    rec = dataclasses.replace(rec, board=b, start_candidates=(1,))
    # paths: routes 1-2-1, 1-3-1, 1-3-4 -> {1: 2/3, 4: 1/3}
    assert possible(rec).probabilities == {1: 2 / 3, 4: 1 / 3}
    # moves: P(2)=P(3)=1/2; from 2 -> 1 surely; from 3 -> 1 or 4 half each -> {1: 3/4, 4: 1/4}
    assert possible(rec, "moves").probabilities == {1: 0.75, 4: 0.25}
    assert possible(rec, "uniform").probabilities == {1: 0.5, 4: 0.5}


# ---- hand-made cases, one per semantic point ---------------------------------------------------


def london_moves(s, ticket):
    from sy_tools.engine.tickets import Ticket
    from sy_tools.formats.map_load import load_board

    return load_board("london").moves(s, Ticket(ticket))


def rec_of(rounds, detectives=None, candidates=None, rules=None):
    doc = {"detectives": detectives or [{"name": "Red", "start": 13}],
           "mrx": {"start_candidates": candidates or [194]}, "rounds": rounds}
    if rules:
        doc["rules"] = rules
    return parse_record(doc)


def x(*tickets_and_to):
    return [{"ticket": t} if isinstance(t, str) else {"ticket": t[0], "to": t[1]} for t in tickets_and_to]


def test_start_is_candidates_minus_detectives():
    r = parse_record({"detectives": [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}], "rounds": []})
    p = possible(r)
    assert 13 not in p.stations and 26 not in p.stations
    assert len(p.stations) == 16 and p.move == 0


def test_black_ticket_takes_the_ferry():
    p = possible(rec_of([{"mrx": x("black")}]))
    assert 157 in p.stations  # ferry 194-157
    p = possible(rec_of([{"mrx": x("taxi")}]))
    assert 157 not in p.stations and set(p.stations) == {192, 193, 195}


def test_only_black_rides_the_ferry_bus_does_not():
    # 157 has bus; from 194 (taxi only) a bus ticket goes nowhere: inconsistent
    with pytest.raises(InconsistentRecord, match="round 1, Mr. X's move 1"):
        possible(rec_of([{"mrx": x("bus")}]))


def test_double_move_first_leg_is_reveal():
    rules = {"preset": "classic", "reveal_moves": [1]}
    p = possible(rec_of([{"mrx": x(("taxi", 192), "taxi")}], rules=rules), history=True)
    assert p.history[0] == (192,)
    assert set(p.stations) == {190, 191, 194}  # taxi from 192 only
    assert set(p.stations) == set(london_moves(192, "taxi"))


def test_blocking_by_detectives_at_move_time():
    # Red stands on 192 while Mr. X (at 194) moves, then leaves: 192 is still impossible
    rounds = [{"mrx": x("taxi"), "detectives": [{"name": "Red", "ticket": "taxi", "to": 190}]}]
    p = possible(rec_of(rounds, detectives=[{"name": "Red", "start": 192}]))
    assert set(p.stations) == {193, 195}


def test_double_move_legs_blocked_by_same_positions():
    rounds = [{"mrx": x("taxi", "taxi")}]
    p = possible(rec_of(rounds, detectives=[{"name": "Red", "start": 194}], candidates=[192]))
    assert 194 not in p.stations  # 192 -> 190/107 -> ... never onto Red on 194


def test_pruning_after_detective_moves():
    rounds = [{"mrx": x("taxi"), "detectives": [{"name": "Red", "ticket": "taxi", "to": 193}]}]
    p = possible(rec_of(rounds, detectives=[{"name": "Red", "start": 181}]))
    assert set(p.stations) == {192, 195}


def test_inconsistent_reveal_names_the_move():
    rules = {"preset": "classic", "reveal_moves": [2]}
    with pytest.raises(InconsistentRecord) as e:
        possible(rec_of([{"mrx": x("taxi")}, {"mrx": x(("taxi", 1))}], rules=rules))
    assert e.value.move == 2 and e.value.round == 2
    assert "round 2, Mr. X's move 2, taxi ticket" in str(e.value)
    assert "rounds[1].mrx[0]" in str(e.value)


def test_inconsistent_by_detectives_names_the_move():
    rounds = [{"mrx": x("taxi"), "detectives": [{"name": "Red", "ticket": "taxi", "to": 193},
                                                {"name": "Blue", "ticket": "taxi", "to": 192},
                                                {"name": "Green", "ticket": "taxi", "to": 195}]}]
    dets = [{"name": "Red", "start": 181}, {"name": "Blue", "start": 190}, {"name": "Green", "start": 197}]
    with pytest.raises(InconsistentRecord) as e:
        possible(rec_of(rounds, detectives=dets))
    assert "rounds[0].detectives[2]" in str(e.value) and "Green" in str(e.value)


def test_capture_ends_the_game():
    rounds = [{"mrx": x("taxi"), "detectives": [{"name": "Red", "ticket": "taxi", "to": 193, "capture": True}]}]
    p = possible(rec_of(rounds, detectives=[{"name": "Red", "start": 181}]))
    assert p.capture is not None and p.capture.by == "Red" and p.stations == (193,)
    assert p.next_reveal is None


def test_missing_reveal_is_input_error():
    with pytest.raises(RecordError, match=r"rounds\[2\].mrx\[0\].to"):
        possible(rec_of([{"mrx": x("taxi")}, {"mrx": x("taxi")}, {"mrx": x("taxi")}]))


def test_hidden_to_is_never_evidence():
    a = possible(rec_of([{"mrx": x("taxi")}]))
    b = possible(rec_of([{"mrx": x(("taxi", 192))}]))
    assert a.stations == b.stations and a.probabilities == b.probabilities


def test_two_transports_one_route():
    # 1-46 by bus and underground: with black, one route, not two
    p = possible(rec_of([{"mrx": x("black")}], candidates=[1], detectives=[{"name": "Red", "start": 13}]))
    assert p.route_counts[46] == 1


def test_counts_are_exact_big_integers():
    """24 black moves from anywhere: route counts far beyond 64 bits, still exact."""
    rounds = [{"mrx": x("black")} for _ in range(24)]
    doc = {"detectives": [{"name": "Red", "start": 13}], "mrx": {"start_candidates": "any"}, "rounds": rounds,
           "rules": {"preset": "classic", "mrx_tickets": {"black": 99}, "reveal_moves": []}}
    p = possible(parse_record(doc))
    assert sum(p.route_counts.values()) > 2**64
    assert abs(sum(p.probabilities.values()) - 1) < 1e-12
    total = sum(p.route_counts.values())
    assert all(p.probabilities[s] == float(Fraction(c, total)) for s, c in p.route_counts.items())


def test_no_capture_on_the_way():
    """A bus/underground hop passes over stations without stopping there: with a detective on
    154, Mr. X may still take the underground 153 -> 140 (the cut-off rule is a variant)."""
    rounds = [{"mrx": x("underground")}]
    p = possible(rec_of(rounds, detectives=[{"name": "Red", "start": 154}], candidates=[153]))
    assert 140 in p.stations


def test_moving_back_is_allowed():
    rules = {"preset": "classic", "reveal_moves": [2]}
    p = possible(rec_of([{"mrx": x("taxi")}, {"mrx": x(("taxi", 194))}], rules=rules))
    assert p.stations == (194,)


def test_oracle_on_corrupted_records():
    """Generated records with one corruption (a shown ticket swapped, a reveal moved, a detective
    sent onto Mr. X's route): the filter and the oracle agree, inconsistent ones included."""
    rules3 = rules_from_json({"preset": "classic", "reveal_moves": list(range(3, 25, 3))})
    inconsistent = consistent = 0
    for seed in range(80):
        rng = random.Random(500 + seed)
        board = small_board(rng)
        doc = random_game(board, rules3, rng, n_detectives=rng.randint(1, 3),
                          mrx_start_candidates=board.start_decks["classic"])
        doc["rules"] = {"preset": "classic", "reveal_moves": list(range(3, 25, 3))}
        view = detectives_view(doc, rules3)
        legs = [(i, j) for i, r in enumerate(view["rounds"]) for j in range(len(r["mrx"]))]
        if not legs:
            continue
        i, j = rng.choice(legs)
        leg = view["rounds"][i]["mrx"][j]
        kind = rng.randrange(3)
        if kind == 0:
            leg["ticket"] = rng.choice([t for t in ("taxi", "bus", "underground", "black") if t != leg["ticket"]])
        elif kind == 1 and "to" in leg:
            leg["to"] = rng.choice(board.stations)
        else:
            view["rounds"][i]["detectives"] = [dict(m, capture=False) for m in view["rounds"][i]["detectives"]]
        for m in view["rounds"][i]["detectives"]:
            m.pop("capture", None)
        del view["rounds"][i + 1:]
        rec = _with_board(view, board)
        ans = oracle_answer(rec)
        if ans is None:
            continue
        assert compare_with_oracle(rec)
        if ans[3]:
            consistent += 1
        else:
            inconsistent += 1
    assert inconsistent >= 10 and consistent >= 10, (inconsistent, consistent)


def _with_voluntary_reveals(doc, rules, rng):
    """The detectives' view of a full game in which Mr. X showed himself now and then (on moves
    that are not reveal moves), taking one of the first detective's tickets each time."""
    view = detectives_view(doc, rules)
    n = 0
    for full, seen in zip(doc["rounds"], view["rounds"]):
        for j, m in enumerate(full["mrx"]):
            n += 1
            if not rules.is_reveal(n) and rng.random() < 0.3:
                seen["mrx"][j] = {**m, "shown": True, "took": {"from": doc["detectives"][0]["name"], "ticket": "taxi"}}
                break
    return view


def test_oracle_small_boards_voluntary_reveals():
    """A voluntary reveal pins Mr. X like a fixed one: the filter, its history and the route
    counts against the oracle, on records where he showed himself at random moves."""
    compared = shown = 0
    for seed in range(40):
        rng = random.Random(seed)
        board = small_board(rng)
        rules = rules_from_json({"preset": "classic", "reveal_moves": [5, 10], "mrx_deck": "classic",
                                 "detective_deck": "classic"})
        doc = random_game(board, rules, rng, n_detectives=rng.randint(1, 3),
                          mrx_start_candidates=board.start_decks["classic"])
        doc["rules"] = {"preset": "classic", "reveal_moves": [5, 10], "voluntary_reveal": True}
        view = _with_voluntary_reveals(doc, rules, rng)
        rec = _with_board(view, board)
        shown += sum(m.shown for r in rec.rounds for m in r.mrx)
        for cut in _truncations(rec, rng, 2) + [rec]:
            compared += compare_with_oracle(cut)
            compare_with_oracle(cut, "uniform")
    assert compared >= 60 and shown >= 25


def test_voluntary_reveal_collapses_the_set():

    from sy_tools.formats.record_io import load_record

    rec = load_record(REPO / "examples/variants/voluntary-reveal.json")
    p = possible(rec, history=True)
    assert p.stations == (105,) and p.last_reveal == (2, 105) and p.history[1] == (105,)
    assert possible(rec, weights="uniform").stations == (105,)
    assert p.history[0] == (72, 107, 108)  # the only taxi stops with a bus on to 105
    assert len(possible(rec.truncated(1)).stations) > 1  # before he showed himself


@pytest.mark.parametrize("start, to", [(13, -1), (-1, 14), (13, 204), (204, 14)])
def test_hand_built_record_off_the_board_filters_as_the_trace_does(london, start, to):
    """A Record built in code is not checked against the map: the filter's bit tables must not
    answer for a number that is no station (a negative one would wrap round to station 199)."""
    from sy_tools.analysis.tracker import final_state, trace
    from sy_tools.engine.tickets import Ticket
    from sy_tools.formats.record import Detective, DetectiveMove, MrXMove, Record, Round

    for capture in (False, True):
        rec = Record(board=london, rules=PRESETS["classic"], detectives=(Detective("Red", start, {}),),
                     start_candidates=(198, 1), rounds=(Round((MrXMove(Ticket.TAXI, None, "m"),),
                     (DetectiveMove("Red", Ticket.TAXI, to, "d", capture),), "r"),), mrx_tickets={})
        assert _outcome(lambda r: final_state(r).mask, rec) == _outcome(lambda r: trace(r).current, rec)


def _outcome(f, rec):
    try:
        return f(rec)
    except Exception as e:  # noqa: BLE001 - the comparison is the point
        return type(e)


def test_bit_tables_stay_small_on_a_far_off_id():
    """Nine stations and one id of 30,000: the bit tables (quadratic in the top id) are not built
    (they were, since stations x top id was small: 200,000 took 5 GB)."""
    from sy_tools.engine.board import Board, Connection

    ids = list(range(1, 10)) + [30_000]
    board = Board.build("far", ids, [Connection.of(a, b, "taxi") for a, b in zip(ids, ids[1:])])
    assert not isinstance(board.bits, tuple)
    assert board.bits[30_000] == 1 << 30_000 and board.clears[7] == ~(1 << 7)


def test_a_pass_before_his_first_move_then_a_detective_move():
    """(rules: a trapped Mr. X passes) a pass in round 1 and then a detective's move raised
    IndexError in the filter: the detective's station leaves the start set instead."""
    from sy_tools.analysis.tracker import trace
    from sy_tools.engine.stations import stations_of
    from sy_tools.formats.game_json import parse_record

    rec = parse_record({"map": "london", "rules": {"preset": "classic", "trapped_loses": False},
                        "detectives": [{"name": "Red", "start": 13}],
                        "mrx": {"start_candidates": [23, 46, 67],  # (no ticket: a pass where he may be)
                                "tickets": {"taxi": 0, "bus": 0, "underground": 0, "black": 0, "double": 0}},
                        "rounds": [{"mrx": [], "detectives": [{"name": "Red", "ticket": "taxi", "to": 23}]}]})
    assert stations_of(trace(rec).current) == [46, 67]
