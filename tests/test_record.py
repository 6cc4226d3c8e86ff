"""game.json shape checks (with places), rules presets, the text notation, fuzzing."""

from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sy_tools.engine.rules import PRESETS, preset, rules_from_json
from sy_tools.errors import InputError, RecordError
from sy_tools.formats.game_json import parse_record, record_json_text
from sy_tools.formats.notation import parse_notation, to_notation
from sy_tools.formats.record import RecordErrors
from sy_tools.formats.record_io import load_record, parse_record_json
from sy_tools.selfplay.generate import detectives_view, random_game

GOOD = {"detectives": [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}],
        "mrx": {"start_candidates": [35, 45, 51]},
        "rounds": [{"mrx": [{"ticket": "taxi"}], "detectives": [{"name": "Red", "ticket": "taxi", "to": 23}]}]}


def places(doc):
    with pytest.raises(RecordErrors) as e:
        parse_record(json.loads(json.dumps(doc)))
    return [w for w, _ in e.value.problems]


def with_(path, value):
    doc = json.loads(json.dumps(GOOD))
    obj = doc
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    return doc


@pytest.mark.parametrize("path, value, where", [
    (("rounds", 0, "detectives", 0, "to"), 200, "rounds[0].detectives[0].to"),
    (("rounds", 0, "detectives", 0, "to"), "23", "rounds[0].detectives[0].to"),
    (("rounds", 0, "detectives", 0, "ticket"), "boat", "rounds[0].detectives[0].ticket"),
    (("rounds", 0, "detectives", 0, "name"), "Pink", "rounds[0].detectives[0].name"),
    (("rounds", 0, "detectives", 0, "speed"), 3, "rounds[0].detectives[0].speed"),
    (("rounds", 0, "mrx"), {}, "rounds[0].mrx"),
    (("rounds", 0, "mrx"), [{"ticket": "taxi"}] * 3, "rounds[0].mrx"),
    (("rounds", 0, "mrx", 0, "to"), 0, "rounds[0].mrx[0].to"),
    (("detectives", 1, "name"), "Red", "detectives[1].name"),
    (("detectives", 1, "start"), 999, "detectives[1].start"),
    (("detectives", 1, "tickets"), {"black": 2}, "detectives[1].tickets.black"),
    (("mrx", "start_candidates"), [], "mrx.start_candidates"),
    (("mrx", "tickets"), {"taxi": -1}, "mrx.tickets.taxi"),
    (("rules",), "1999", "rules"),
    (("rules",), {"preset": "classic", "reveal_moves": "3"}, "rules.reveal_moves"),
    (("rules",), {"preset": "classic", "revel_moves": [3]}, "rules.revel_moves"),
    (("map",), "nope.json", "map"),
    (("colour",), "red", "colour"),
])
def test_shape_problems_have_places(path, value, where):
    assert where in places(with_(path, value))


def test_every_problem_is_collected():
    doc = with_(("rounds", 0, "detectives", 0, "to"), 200)
    doc["detectives"][1]["start"] = 0
    assert places(doc) == ["detectives[1].start", "rounds[0].detectives[0].to"]


def test_message_quotes_file_place_value(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(with_(("rounds", 0, "detectives", 0, "to"), 200)))
    with pytest.raises(RecordError) as e:
        load_record(p)
    assert str(e.value) == (f"{p}: rounds[0].detectives[0].to: station 200 is not on the map 'london' "
                            "(stations 1..199)")


def test_default_candidates_are_deck_minus_detectives():
    rec = parse_record(GOOD | {"mrx": {}})
    assert 13 not in rec.start_candidates and 26 not in rec.start_candidates
    assert len(rec.start_candidates) == 16
    rec = parse_record(GOOD | {"rules": "2014", "mrx": {}})
    assert rec.start_candidates == (35, 45, 51, 71, 78, 104, 106, 127, 132, 146, 166, 170, 172)
    rec = parse_record(GOOD | {"mrx": {"start_candidates": "any"}})
    assert len(rec.start_candidates) == 197


def test_presets():
    c, n = preset("classic"), preset("2014")
    assert dict(c.detective_tickets) == {"taxi": 10, "bus": 8, "underground": 4}
    assert dict(n.detective_tickets) == {"taxi": 11, "bus": 8, "underground": 4}
    assert dict(c.mrx_tickets) == {"taxi": 4, "bus": 3, "underground": 3, "black": 5, "double": 2}
    assert c.reveal_moves == (3, 8, 13, 18, 24) and c.log_length == 24
    assert c.mrx_start_tickets(4)["black"] == 5
    assert rules_from_json({"black_per_detective": True}).mrx_start_tickets(4)["black"] == 4
    assert rules_from_json({"preset": "2014", "log_length": 13}).log_length == 13
    with pytest.raises(InputError, match="unknown rules preset"):
        preset("1999")


def test_rules_cli(cli):
    r = cli("rules", "2014", "--format", "json")
    assert json.loads(r.output)["detective_tickets"]["taxi"] == 11
    r = cli("rules")
    assert "reveal_moves" in r.output and "3, 8, 13, 18, 24" in r.output
    assert cli("rules", "1999").exit_code == 2


# ---- text notation ----------------------------------------------------------------------------


NOTATION = """\
# a game at the table
map london
rules classic
start 35 45 51
X: T, B, 2X U 46/K, T
Red 13: T 23, T 37, -, B 15!
Blue 26: T 27
"""


def test_notation_parses():
    doc = parse_notation(NOTATION)
    assert doc["mrx"] == {"start_candidates": [35, 45, 51]}
    assert doc["rounds"][2]["mrx"] == [{"ticket": "underground", "to": 46}, {"ticket": "black"}]
    assert doc["rounds"][3]["detectives"] == [{"name": "Red", "ticket": "bus", "to": 15, "capture": True}]
    assert doc["rounds"][0]["detectives"][1] == {"name": "Blue", "ticket": "taxi", "to": 27}
    assert doc["rounds"][2]["detectives"] == []


@pytest.mark.parametrize("text, where", [
    ("X: T\nRed 13: Q 23\n", "line 2 (Red, round 1)"),
    ("X: T, 2X T\nRed 13: T 23\n", "line 1 (X, round 2)"),
    ("X: T\nRed: T 23\n", "line 2"),
    ("X: T\nRed 13: T\n", "line 2 (Red, round 1)"),
    ("X: T\nRed 13: T 23, T 37\n", "line 2 (Red)"),
    ("flavour strange\nX: T\nRed 13: T 23\n", "line 1"),
])
def test_notation_errors_name_the_line(text, where):
    with pytest.raises(RecordError) as e:
        parse_notation(text, "g.txt")
    assert e.value.where == where and str(e.value).startswith(f"g.txt: {where}: ")


def test_notation_round_trip_random_games(london):
    for seed in range(40):
        doc = random_game(london, PRESETS["classic"], random.Random(seed))
        for d in (doc, detectives_view(doc, PRESETS["classic"])):
            rec = parse_record(d)
            again = parse_record(parse_notation(to_notation(rec)))
            assert _moves(again) == _moves(rec)
            assert again.mrx_start == rec.mrx_start and again.detectives == rec.detectives
            back = parse_record_json(record_json_text(rec))
            assert _moves(back) == _moves(rec) and back.start_candidates == rec.start_candidates


def _moves(rec):
    return [([(m.ticket, m.to) for m in r.mrx], [(m.name, m.ticket, m.to, m.capture) for m in r.detectives])
            for r in rec.rounds]


def test_record_convert_cli(cli, tmp_path):
    src = tmp_path / "g.txt"
    src.write_text(NOTATION)
    out = tmp_path / "g.json"
    r = cli("record", "convert", str(src), str(out))
    assert r.exit_code == 0
    assert _moves(load_record(out)) == _moves(load_record(src))
    back = tmp_path / "again.txt"
    assert cli("record", "convert", str(out), str(back)).exit_code == 0
    assert _moves(load_record(back)) == _moves(load_record(src))
    assert src.read_text() == NOTATION  # input untouched


# ---- fuzz ---------------------------------------------------------------------------------------

values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 250) | st.text(max_size=6)
    | st.sampled_from(["taxi", "bus", "underground", "black", "Red", "any", "classic", "london"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["map", "rules", "detectives", "mrx", "rounds", "name", "start", "tickets", "ticket",
                         "to", "capture", "start_candidates", "preset", "reveal_moves", "taxi", "zz"]),
        inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(doc=values)
def test_fuzz_record_reader(doc):
    _no_traceback(lambda: parse_record(doc))


@settings(max_examples=200, deadline=None)
@given(doc=st.fixed_dictionaries({
    "detectives": st.just([{"name": "Red", "start": 13}]),
    "rounds": st.lists(st.fixed_dictionaries({
        "mrx": st.lists(st.fixed_dictionaries({"ticket": st.sampled_from(["taxi", "bus", "black", "x"]),
                                               "to": st.integers(0, 200)}), min_size=1, max_size=2),
        "detectives": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["Red", "Blue"]),
                                                      "ticket": st.sampled_from(["taxi", "bus", "black"]),
                                                      "to": st.integers(1, 199)}), max_size=2),
    }), max_size=6),
}))
def test_fuzz_records_through_referee_and_tracker(doc):
    """Nearly-valid records: parse, check and track without a traceback."""
    from sy_tools.analysis.possible import possible
    from sy_tools.analysis.referee import check
    from sy_tools.errors import SyToolsError

    try:
        rec = parse_record(doc)
    except RecordError as e:
        assert "\n" not in str(e)
        return
    check(rec)
    try:
        possible(rec, history=True)
    except SyToolsError as e:
        assert "\n" not in str(e)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet=string.ascii_letters[:30] + string.digits + " :,/!-#@\n2X", max_size=120))
def test_fuzz_notation(text):
    def run():
        return parse_record(parse_notation(text, "g.txt"), "g.txt")

    _no_traceback(run)


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=80))
def test_fuzz_bytes(tmp_path_factory, data):
    p = tmp_path_factory.mktemp("f") / "g.json"
    p.write_bytes(data)
    _no_traceback(lambda: load_record(p))


def _no_traceback(fn):
    try:
        fn()
    except RecordError as e:
        assert str(e) and "\n" not in str(e)
