"""The referee: one test per legality rule of docs/rules.md (each fails if the rule is broken), random
legal games, and single corruptions of them."""

from __future__ import annotations

import copy
import random

from helpers import REPO

from sy_tools.analysis.referee import check
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import Ticket
from sy_tools.formats.game_json import parse_record
from sy_tools.selfplay.generate import detectives_view, random_game

CLASSIC = PRESETS["classic"]


def game(rounds, dets=None, mrx=None, rules=None):
    doc = {"detectives": dets or [{"name": "Red", "start": 13}], "mrx": mrx or {"start_candidates": [194]},
           "rounds": rounds}
    if rules is not None:
        doc["rules"] = rules
    return check(parse_record(doc))


def codes(result, level="error"):
    return [(p.code, p.where) for p in result.problems if p.level == level]


def X(*legs):
    return [{"ticket": t} if isinstance(t, str) else {"ticket": t[0], "to": t[1]} for t in legs]


def D(name, ticket, to, **kw):
    return {"name": name, "ticket": ticket, "to": to, **kw}


# ---- detectives --------------------------------------------------------------------------------


def test_legal_start():
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 14)]}])
    assert r.legal and r.problems == ()
    assert r.status.describe() == "in progress: round 1, after Mr. X's move 1; Mr. X to move"


def test_detective_needs_a_connection_of_its_tickets_transport():
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 52)]}])  # 13-52 is bus only
    assert codes(r) == [("det-connection", "rounds[0].detectives[0].to")]
    assert "only bus" in r.problems[0].message
    assert game([{"mrx": X("taxi"), "detectives": [D("Red", "bus", 52)]}]).legal


def test_detective_needs_the_ticket():
    dets = [{"name": "Red", "start": 13, "tickets": {"underground": 0}}]
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "underground", 46)]}], dets)
    assert codes(r) == [("det-ticket", "rounds[0].detectives[0].ticket")]


def test_detective_tickets_run_out():
    dets = [{"name": "Red", "start": 13, "tickets": {"underground": 1}}]
    rounds = [{"mrx": X("taxi"), "detectives": [D("Red", "underground", 46)]},
              {"mrx": X("taxi"), "detectives": [D("Red", "underground", 13)]}]
    assert codes(game(rounds, dets)) == [("det-ticket", "rounds[1].detectives[0].ticket")]


def test_detectives_have_no_black_tickets():
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "black", 14)]}])
    assert ("det-ticket", "rounds[0].detectives[0].ticket") in codes(r)


def test_detective_may_not_move_onto_another():
    dets = [{"name": "Red", "start": 13}, {"name": "Blue", "start": 14}]
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 14), D("Blue", "taxi", 15)]}], dets)
    assert codes(r) == [("det-collision", "rounds[0].detectives[0].to")]


def test_detective_may_move_where_another_just_left():
    dets = [{"name": "Red", "start": 13}, {"name": "Blue", "start": 14}]
    # Blue before Red is out of turn, but Red onto 14 once Blue has left breaks no collision rule
    r = game([{"mrx": X("taxi"), "detectives": [D("Blue", "taxi", 15), D("Red", "taxi", 14)]}], dets)
    assert codes(r) == [("det-order", "rounds[0].detectives[1]")]
    assert codes(r, "warning") == [("det-absent", "rounds[0].detectives")]
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 23), D("Blue", "taxi", 13)]}], dets)
    assert r.legal


def test_out_of_turn():
    dets = [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}]
    r = game([{"mrx": X("taxi"), "detectives": [D("Blue", "taxi", 27), D("Red", "taxi", 14)]}], dets)
    assert codes(r) == [("det-order", "rounds[0].detectives[1]")]


def test_twice_in_a_round():
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 14), D("Red", "taxi", 15)]}])
    assert codes(r) == [("det-twice", "rounds[0].detectives[1]")]


def test_absent_although_it_could_move_is_a_warning():
    dets = [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}]
    r = game([{"mrx": X("taxi"), "detectives": [D("Blue", "taxi", 27)]},
              {"mrx": X("taxi"), "detectives": []}], dets)
    assert r.legal
    assert codes(r, "warning")[0] == ("det-absent", "rounds[0].detectives")


def test_stuck_detective_is_skipped_and_out():
    # Red on 194 with only bus tickets: stuck; the others play on; Red may not move later
    dets = [{"name": "Red", "start": 194, "tickets": {"taxi": 0}}, {"name": "Blue", "start": 26}]
    mrx = {"start_candidates": [1]}
    r = game([{"mrx": X("taxi"), "detectives": [D("Blue", "taxi", 27)]}], dets, mrx)
    assert r.legal and r.problems == ()
    r = game([{"mrx": X("taxi"), "detectives": [D("Blue", "taxi", 27)]},
              {"mrx": X("taxi"), "detectives": [D("Red", "taxi", 192), D("Blue", "taxi", 26)]}], dets, mrx)
    assert ("det-after-stuck", "rounds[1].detectives[0]") in codes(r)


def test_a_blocked_detective_waits_or_is_out_as_blocked_detective_says():
    # Red on 7 holds bus tickets only; 7's one bus stop, 42, is Blue's: Red cannot move in round
    # 1.  Classic rules (blocked_detective: waits): it skips the turn and moves once Blue has
    # left; under blocked_detective: out it is out for good (docs/rules.md)
    from sy_tools.engine.position import Position

    dets = [{"name": "Red", "start": 7, "tickets": {"taxi": 0, "bus": 2, "underground": 0}},
            {"name": "Blue", "start": 42}]
    rounds = [{"mrx": X("taxi"), "detectives": [D("Blue", "taxi", 29)]},
              {"mrx": X("taxi"), "detectives": [D("Red", "bus", 42)]}]
    r = game(rounds, dets, {"start_candidates": [194]})
    assert r.legal and r.problems == ()
    r = game(rounds, dets, {"start_candidates": [194]}, rules={"preset": "classic", "blocked_detective": "out"})
    assert codes(r) == [("det-after-stuck", "rounds[1].detectives[0]")]
    pos = Position.start(r.position.board, CLASSIC, [("Red", 7), ("Blue", 42)], mrx_at=194,
                         detective_tickets={"Red": {"bus": 2}})
    assert pos.stuck_reason("Red") == ("Red cannot move from 7: every station it can reach is held by Blue (42); "
                                       "it waits, and moves again once a move opens up (blocked_detective: waits)")


# ---- Mr. X -------------------------------------------------------------------------------------


def test_mrx_needs_the_ticket():
    r = game([{"mrx": X("bus")}], mrx={"start_candidates": [1], "tickets": {"bus": 0}})
    assert codes(r) == [("mrx-ticket", "rounds[0].mrx[0].ticket")]


def test_used_detective_tickets_pass_to_mrx():
    rounds = [{"mrx": X("underground"), "detectives": [D("Red", "bus", 23)]}, {"mrx": X("bus")}]
    mrx = {"start_candidates": [1], "tickets": {"bus": 0}}
    assert game(rounds, mrx=mrx).legal
    r = game(rounds, mrx=mrx, rules={"preset": "classic", "tickets_to_mrx": False})
    assert codes(r) == [("mrx-ticket", "rounds[1].mrx[0].ticket")]


def test_black_tickets_per_detective_variant():
    rounds = [{"mrx": X("black")}, {"mrx": X("black")}]
    assert game(rounds, mrx={"start_candidates": [1]}).legal
    r = game(rounds, mrx={"start_candidates": [1]}, rules={"preset": "classic", "black_per_detective": True})
    assert codes(r) == [("mrx-ticket", "rounds[1].mrx[0].ticket")]  # one detective -> one black


def test_double_move_allowance():
    rounds = [{"mrx": X("taxi", "taxi")}, {"mrx": X("taxi", "taxi")}, {"mrx": X("taxi", "taxi")}]
    no_reveals = {"preset": "classic", "reveal_moves": []}
    r = game(rounds, mrx={"start_candidates": [194], "tickets": {"taxi": 9}}, rules=no_reveals)
    assert codes(r) == [("double-allowance", "rounds[2].mrx[0]")]
    r = game(rounds[:2], mrx={"start_candidates": [194], "tickets": {"taxi": 9}},
             rules={**no_reveals, "double_moves_per_game": 1})
    assert codes(r) == [("double-allowance", "rounds[1].mrx[0]")]


def test_no_double_moves_when_the_rules_say_so():
    r = game([{"mrx": X("taxi", "taxi")}], mrx={"start_candidates": [194], "tickets": {"taxi": 9}},
             rules={"preset": "classic", "double_moves_per_round": 0})
    assert codes(r) == [("double-allowance", "rounds[0].mrx[0]")]


def test_reveal_needs_to():
    rounds = [{"mrx": X("taxi")}, {"mrx": X("taxi")}, {"mrx": X("taxi")}]
    assert codes(game(rounds)) == [("reveal-missing", "rounds[2].mrx[0].to")]


def test_reveal_counted_per_leg():
    # moves 2+3 as a double move: the second leg is move 3, a reveal
    rounds = [{"mrx": X("taxi")}, {"mrx": X("taxi", "taxi")}]
    assert codes(game(rounds)) == [("reveal-missing", "rounds[1].mrx[1].to")]
    rounds = [{"mrx": X("taxi")}, {"mrx": X("taxi", ("taxi", 192))}]
    assert game(rounds).legal


def test_mrx_hop_needs_connection_when_route_known():
    r = game([{"mrx": X(("taxi", 1))}], mrx={"start_candidates": [194], "start": 194})
    assert codes(r) == [("mrx-connection", "rounds[0].mrx[0].to")]


def test_ferry_needs_black():
    r = game([{"mrx": X(("taxi", 157))}], mrx={"start_candidates": [194], "start": 194})
    assert codes(r) == [("mrx-ferry", "rounds[0].mrx[0].to")]
    assert game([{"mrx": X(("black", 157))}], mrx={"start_candidates": [194], "start": 194}).legal


def test_mrx_may_not_move_onto_a_detective():
    r = game([{"mrx": X(("taxi", 192))}], dets=[{"name": "Red", "start": 192}],
             mrx={"start_candidates": [194], "start": 194})
    assert codes(r) == [("mrx-onto-detective", "rounds[0].mrx[0].to")]


def test_reveal_chain_contradiction_names_the_move():
    rounds = [{"mrx": X("taxi")}, {"mrx": X("taxi")}, {"mrx": X(("taxi", 1))}]
    r = game(rounds)
    assert codes(r) == [("reveal-unreachable", "rounds[2].mrx[0].to")]
    assert "move 3" in r.errors[0].message


def test_mrx_start_must_be_a_candidate():
    r = game([], mrx={"start_candidates": [194], "start": 1})
    assert codes(r) == [("mrx-start", "mrx.start")]


def test_detectives_may_not_share_a_start():
    r = game([], dets=[{"name": "Red", "start": 13}, {"name": "Blue", "start": 13}])
    assert codes(r) == [("det-start-shared", "detectives[1].start")]


# ---- the end -----------------------------------------------------------------------------------


def test_capture_and_moves_after_the_end():
    dets = [{"name": "Red", "start": 193}]
    mrx = {"start_candidates": [192], "start": 192}
    r = game([{"mrx": X(("taxi", 194)), "detectives": [D("Red", "taxi", 194, capture=True)]}], dets, mrx)
    assert r.legal
    assert r.status.describe() == "detectives won: Red caught Mr. X at 194 in round 1"
    r = game([{"mrx": X(("taxi", 194)), "detectives": [D("Red", "taxi", 194, capture=True)]},
              {"mrx": X("taxi")}], dets, mrx)
    assert codes(r) == [("after-end", "rounds[1]")]
    r = game([{"mrx": X(("taxi", 190)), "detectives": [D("Red", "taxi", 194, capture=True)]}], dets, mrx)
    assert codes(r) == [("capture-wrong", "rounds[0].detectives[0].capture")]
    # unmarked capture on a full record: a warning, still a capture
    r = game([{"mrx": X(("taxi", 194)), "detectives": [D("Red", "taxi", 194)]}], dets, mrx)
    assert r.legal and codes(r, "warning") == [("capture-unmarked", "rounds[0].detectives[0]")]
    assert r.status.reason == "capture"


def test_trapped_mrx_loses():
    # Mr. X on 194 with taxi only; detectives on 192, 193, 195: every move lands on a detective
    dets = [{"name": "A", "start": 192}, {"name": "B", "start": 193}, {"name": "C", "start": 195}]
    mrx = {"start_candidates": [194], "start": 194, "tickets": {"black": 0}}
    r = game([], dets, mrx)
    assert r.status.state == "detectives-won" and r.status.reason == "trapped" and r.status.station == 194
    r = game([{"mrx": X("taxi")}], dets, mrx)
    assert codes(r) == [("after-end", "rounds[0]")]
    # with black tickets he takes the ferry out
    r = game([], dets, {"start_candidates": [194], "start": 194})
    assert r.status.state == "in-progress"
    # the trapped rule switched off: not a loss
    r = game([], dets, mrx, rules={"preset": "classic", "trapped_loses": False})
    assert r.status.state == "in-progress"


def test_a_pass_is_illegal_where_a_trapped_mrx_loses():
    # classic rules: a trapped Mr. X has lost, so a pass is never his, on a full record or the
    # detectives', even where he may be trapped: on 194 (taxi and ferry only, no black ticket)
    # with detectives on 192, 193 and 195, of [1, 194] (docs/rules.md, "How a game ends")
    dets = [{"name": "A", "start": 192}, {"name": "B", "start": 193}, {"name": "C", "start": 195}]
    for mrx in ({"start_candidates": [1, 194]}, {"start_candidates": [1, 194], "start": 1}):
        r = game([{"mrx": [], "detectives": []}], dets, {**mrx, "tickets": {"black": 0}})
        assert codes(r) == [("mrx-pass", "rounds[0].mrx")]
        assert r.errors[0].message == ("Mr. X may not pass: with no legal move he is trapped and loses "
                                       "(trapped_loses: true)")


def test_a_pass_says_he_had_no_legal_move():
    # trapped_loses false: on 194 (taxi and ferry only, no black ticket) with detectives on 192,
    # 193 and 195 he has no move, on 1 he has: a pass keeps 194 of [1, 194]; of [1, 8] it keeps
    # nothing, so it is illegal (docs/rules.md, "How a game ends")
    from sy_tools.analysis.possible import possible

    dets = [{"name": "A", "start": 192}, {"name": "B", "start": 193}, {"name": "C", "start": 195}]
    rules = {"preset": "classic", "trapped_loses": False}
    doc = {"detectives": dets, "rules": rules, "rounds": [{"mrx": [], "detectives": []}],
           "mrx": {"start_candidates": [1, 194], "tickets": {"black": 0}}}
    assert check(parse_record(doc)).legal
    assert possible(parse_record(doc)).stations == (194,)
    r = game([{"mrx": [], "detectives": []}], dets, {"start_candidates": [1, 8], "tickets": {"black": 0}}, rules)
    assert codes(r) == [("mrx-pass", "rounds[0].mrx")]
    assert r.errors[0].message == "Mr. X passes in round 1, but he has a legal move at every station he may be at"


def test_log_full_mrx_wins():
    rules = {"preset": "classic", "log_length": 2, "reveal_moves": []}
    rounds = [{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 14)]},
              {"mrx": X("taxi"), "detectives": [D("Red", "taxi", 13)]}]
    r = game(rounds, rules=rules)
    assert r.status.describe() == "Mr. X won: his travel log is full (2 moves, round 2)"
    r = game(rounds + [{"mrx": X("taxi")}], rules=rules)
    assert codes(r) == [("after-end", "rounds[2]")]
    # log full but the detectives still have their round: in progress
    assert game(rounds[:1] + [{"mrx": X("taxi")}], rules=rules).status.state == "in-progress"


def test_every_detective_stuck_mrx_wins():
    dets = [{"name": "Red", "start": 13, "tickets": {"taxi": 1, "bus": 0, "underground": 0}}]
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 14)]}], dets)
    assert r.status.describe() == "Mr. X won: no detective can move any more (round 1)"


def test_in_progress_names_the_next_detective():
    dets = [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}]
    r = game([{"mrx": X("taxi"), "detectives": [D("Red", "taxi", 14)]}], dets)
    assert r.status.describe() == "in progress: round 1, after Mr. X's move 1; Blue to move"


# ---- random games ------------------------------------------------------------------------------


def _games(london, n):
    for seed in range(n):
        yield random_game(london, CLASSIC, random.Random(1000 + seed))


def test_random_full_records_are_legal(london):
    reasons = set()
    for doc in _games(london, 200):
        r = check(parse_record(doc))
        assert r.legal, [p.line(None) for p in r.problems]
        assert r.status.state != "in-progress"
        reasons.add(r.status.reason)
        view = check(parse_record(detectives_view(doc, CLASSIC)))
        assert view.legal, [p.line(None) for p in view.problems]
    assert {"capture", "detectives-stuck"} <= reasons


def _first_error(doc):
    r = check(parse_record(doc))
    errs = [p for p in r.problems if p.level == "error"]
    return errs[0] if errs else None


def test_single_corruptions_fail_at_the_right_place(london):
    rng = random.Random(5)
    done = {"ticket": 0, "station": 0, "collision": 0, "reveal": 0, "mrx": 0}
    for doc in _games(london, 200):
        moves = [(i, j, m) for i, r in enumerate(doc["rounds"]) for j, m in enumerate(r["detectives"])
                 if not m.get("capture")]
        if not moves:
            continue
        i, j, m = rng.choice(moves)
        here = _det_pos_before(doc, i, j)
        # wrong ticket: one whose transport does not join here and to
        for t in ("taxi", "bus", "underground"):
            if t != m["ticket"] and m["to"] not in london.destinations(here, Ticket(t)):
                bad = copy.deepcopy(doc)
                bad["rounds"][i]["detectives"][j]["ticket"] = t
                e = _first_error(bad)
                assert e and e.where.startswith(f"rounds[{i}].detectives[{j}]"), (e, i, j)
                done["ticket"] += 1
                break
        # wrong station: not adjacent at all
        far = next(s for s in london.stations if not london.transports_between(here, s) and s != here)
        bad = copy.deepcopy(doc)
        bad["rounds"][i]["detectives"][j]["to"] = far
        e = _first_error(bad)
        assert e and e.code == "det-connection" and e.where == f"rounds[{i}].detectives[{j}].to"
        done["station"] += 1
        # two detectives on one station
        others = _positions_before(doc, i, j)
        others.pop(m["name"])
        if others:
            bad = copy.deepcopy(doc)
            bad["rounds"][i]["detectives"][j]["to"] = next(iter(others.values()))
            r = check(parse_record(bad))
            first = [p for p in r.problems if p.level == "error"][0]
            assert first.where == f"rounds[{i}].detectives[{j}].to"
            assert ("det-collision", f"rounds[{i}].detectives[{j}].to") in codes(r)
            done["collision"] += 1
        # missing reveal
        n = 0
        for ri, rnd in enumerate(doc["rounds"]):
            for lj, _ in enumerate(rnd["mrx"]):
                n += 1
                if n == 3:
                    bad = copy.deepcopy(doc)
                    del bad["rounds"][ri]["mrx"][lj]["to"]
                    e = _first_error(bad)
                    assert e and e.code == "reveal-missing" and e.where == f"rounds[{ri}].mrx[{lj}].to"
                    done["reveal"] += 1
        # Mr. X to a station his ticket can't reach from where he was
        legs = [(ri, lj, leg) for ri, rnd in enumerate(doc["rounds"]) for lj, leg in enumerate(rnd["mrx"])]
        k = rng.randrange(len(legs))
        ri, lj, leg = legs[k]
        prev = doc["mrx"]["start"] if k == 0 else legs[k - 1][2]["to"]
        reach = london.destinations(prev, Ticket(leg["ticket"]))
        bad = copy.deepcopy(doc)
        bad["rounds"][ri]["mrx"][lj]["to"] = next(s for s in london.stations if s not in reach and s != prev)
        e = _first_error(bad)
        assert e and e.where == f"rounds[{ri}].mrx[{lj}].to" and e.code in ("mrx-connection", "mrx-ferry"), e
        done["mrx"] += 1
    assert min(done.values()) >= 20, done


def _positions_before(doc, i, j):
    pos = {d["name"]: d["start"] for d in doc["detectives"]}
    for ri, rnd in enumerate(doc["rounds"]):
        for dj, m in enumerate(rnd["detectives"]):
            if (ri, dj) == (i, j):
                return pos
            pos[m["name"]] = m["to"]
    return pos


def _det_pos_before(doc, i, j):
    return _positions_before(doc, i, j)[doc["rounds"][i]["detectives"][j]["name"]]


def test_mrx_onto_a_detective_is_illegal_or_caught_as_the_rules_say():
    """docs/rules.md: Mr. X may not move onto a detective; the Serbian text: if he does, he is caught
    (`mrx_onto_detective: caught`, examples/variants/onto-detective-caught.json)."""
    import json

    doc = json.loads((REPO / "examples/variants/onto-detective-caught.json").read_text())
    r = check(parse_record(doc))
    assert r.legal and r.status.reason == "capture" and (r.status.by, r.status.station) == ("Blue", 194)
    doc["rules"]["mrx_onto_detective"] = "illegal"  # classic: his one move is illegal, so he is trapped
    r = check(parse_record(doc))
    assert codes(r) == [("after-end", "rounds[0]")] and r.status.reason == "trapped"
    doc["detectives"][2]["start"] = 176  # 190 free: moving onto Blue is now just illegal
    assert codes(check(parse_record(doc))) == [("mrx-onto-detective", "rounds[0].mrx[0].to")]
    doc["detectives"][2]["start"] = 190
    # a double move's first leg onto a detective ends the game there: no second leg
    doc["rules"]["mrx_onto_detective"] = "caught"
    doc["mrx"]["tickets"]["double"] = 1
    doc["rounds"][0]["mrx"] = [{"ticket": "taxi", "to": 194}, {"ticket": "taxi", "to": 192}]
    assert codes(check(parse_record(doc))) == [("mrx-onto-detective", "rounds[0].mrx[0].to")]


# ---- voluntary reveal (rules.voluntary_reveal) --------------------------------------------------


def _voluntary_doc():
    import json

    return json.loads((REPO / "examples/variants/voluntary-reveal.json").read_text())


def test_voluntary_reveal_is_legal_collapses_and_hands_the_ticket_over():
    doc = _voluntary_doc()
    r = check(parse_record(doc))
    assert r.legal, r.problems
    assert r.tickets["Red"]["bus"] == 7 and r.tickets["Mr. X"]["bus"] == 3  # 3 - 1 spent + 1 taken
    doc["rules"]["tickets_to_mrx"] = False  # the ticket leaves the game
    r = check(parse_record(doc))
    assert r.legal and r.tickets["Red"]["bus"] == 7 and r.tickets["Mr. X"]["bus"] == 2


def test_voluntary_reveal_needs_the_rule_and_a_held_ticket():
    doc = _voluntary_doc()
    doc["rules"]["voluntary_reveal"] = False
    assert codes(check(parse_record(doc))) == [("voluntary-reveal", "rounds[1].mrx[0].shown")]
    doc = _voluntary_doc()
    doc["detectives"][0]["tickets"] = {"taxi": 10, "bus": 0, "underground": 4}
    assert codes(check(parse_record(doc))) == [("reveal-ticket", "rounds[1].mrx[0].took")]


def test_voluntary_reveal_on_a_fixed_reveal_move_and_unreachable_station():
    doc = _voluntary_doc()
    doc["rules"]["reveal_moves"] = [2]
    assert codes(check(parse_record(doc))) == [("voluntary-reveal", "rounds[1].mrx[0].shown")]
    doc = _voluntary_doc()
    doc["rounds"][1]["mrx"][0]["to"] = 1  # no taxi-then-bus route from the start deck reaches 1
    got = codes(check(parse_record(doc)))
    assert ("reveal-unreachable", "rounds[1].mrx[0].to") in got


def test_voluntary_reveal_shape_errors():
    import pytest

    from sy_tools.errors import RecordError

    doc = _voluntary_doc()
    leg = doc["rounds"][1]["mrx"][0]
    for change, where in [({"took": None}, "took"), ({"shown": "yes"}, "shown"), ({"to": None}, "to"),
                          ({"took": {"from": "Nobody", "ticket": "bus"}}, "took.from"),
                          ({"took": {"from": "Red", "ticket": "black"}}, "took.ticket")]:
        bad = copy.deepcopy(doc)
        bad["rounds"][1]["mrx"][0] = {**leg, **change}
        with pytest.raises(RecordError) as e:
            parse_record(bad)
        assert e.value.where == f"rounds[1].mrx[0].{where}"
    bad = copy.deepcopy(doc)
    del bad["rounds"][1]["mrx"][0]["shown"]
    with pytest.raises(RecordError, match="add \"shown\": true"):
        parse_record(bad)


# ---- issue 22: moves after the end, reveals in a double move, a taken ticket ---------------------


def test_a_detectives_move_after_a_capture_is_after_end_and_not_applied():
    """A capture, then one more detective's move in the same round: refused where it was written
    (classic rules, and under `mrx_onto_detective: caught`); its ticket is not spent."""
    import json

    doc = json.loads((REPO / "examples/capture.json").read_text())
    doc["rounds"][-1]["detectives"].append(D("Black", "bus", 41))
    r = check(parse_record(doc))
    assert codes(r) == [("after-end", "rounds[13].detectives[1]")] and r.exit_code == 1
    assert "Black's move to 41 in round 14 comes after the game ended" in r.errors[0].message
    assert r.status.reason == "capture" and r.tickets["Black"]["bus"] == 5  # as before the extra move
    doc = json.loads((REPO / "examples/variants/onto-detective-caught.json").read_text())
    doc["rounds"][0]["detectives"] = [D("Red", "taxi", 178)]
    r = check(parse_record(doc))
    assert codes(r) == [("after-end", "rounds[0].detectives[0]")] and r.status.by == "Blue"


def _double_reveal_doc(first, second, mrx_tickets=None):
    """The voluntary-reveal example with round 2 a double move (moves 2 and 3, no fixed reveal):
    bus to 105 (leg 1), then ``second``."""
    doc = _voluntary_doc()
    doc["rules"]["reveal_moves"] = [8, 13, 18, 24]
    doc["rounds"][1]["mrx"] = [{"ticket": "bus", "to": 105, **first}, second]
    if mrx_tickets is not None:
        doc["mrx"] = {"tickets": mrx_tickets}
    return doc


SHOW_RED_BUS = {"shown": True, "took": {"from": "Red", "ticket": "bus"}}


def test_two_voluntary_reveals_in_one_double_move_are_illegal_not_unreadable():
    """docs/rules.md: at most one voluntary reveal a move, and a double move is one move."""
    doc = _double_reveal_doc(SHOW_RED_BUS, {"ticket": "taxi", "to": 106, "shown": True,
                                            "took": {"from": "Blue", "ticket": "taxi"}})
    r = check(parse_record(doc))
    assert codes(r) == [("voluntary-reveal", "rounds[1].mrx[1].shown")] and r.exit_code == 1
    assert r.errors[0].message == ("move 3: Mr. X shows himself voluntarily at most once a move, and a double move "
                                   "is one move (he showed himself after move 2 already)")
    # one reveal on either leg is legal
    assert check(parse_record(_double_reveal_doc(SHOW_RED_BUS, {"ticket": "taxi", "to": 106}))).legal
    assert check(parse_record(_double_reveal_doc({}, {"ticket": "taxi", "to": 106, **SHOW_RED_BUS}))).legal


def test_a_ticket_taken_in_a_double_move_is_his_from_his_next_move():
    """Leg 1 shows him and takes Red's bus; leg 2 rides a bus he did not hold before: illegal, and
    the engine's verdict, its move list and the referee say the same; after the move the bus is his."""
    from sy_tools.engine.moves import Move
    from sy_tools.engine.position import Position

    tickets = {"taxi": 4, "bus": 1, "underground": 3, "black": 5, "double": 2}
    doc = _double_reveal_doc(SHOW_RED_BUS, {"ticket": "bus", "to": 107}, tickets)
    r = check(parse_record(doc))
    assert codes(r) == [("mrx-ticket", "rounds[1].mrx[1].ticket")]
    assert r.errors[0].message == ("move 3: Mr. X has no bus ticket left (the bus ticket he took from Red in this "
                                   "double move is his from his next move)")
    record = parse_record(_double_reveal_doc(SHOW_RED_BUS, {"ticket": "taxi", "to": 106}, tickets))
    assert check(record).legal and check(record).tickets["Mr. X"]["bus"] == 1  # his from the next move
    pos = Position.start(record.board, record.rules, [("Red", 13), ("Blue", 26), ("Green", 94)], mrx_at=72,
                         mrx_tickets=tickets)
    wrong = Move.mrx(("bus", 105), ("bus", 107)).revealing(0, "Red", "bus")
    assert [p.code for p in pos.problems(wrong)] == ["mrx-ticket"]
    assert wrong not in pos.legal_moves and wrong not in list(pos.legal_moves)
    right = Move.mrx(("bus", 105), ("taxi", 106)).revealing(0, "Red", "bus")
    assert right in list(pos.legal_moves) and pos.push(right).mrx_tickets.bus == 1
