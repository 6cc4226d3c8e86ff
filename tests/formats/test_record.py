"""game.json shape checks (with places), rules presets, the text notation, fuzzing.

Hostile and extreme record input (issue #10): no traceback, the documented exit code, short
messages; long legal records stay near-linear; the fast batch path reads exactly what the
collecting parser reads; batches keep going and keep their order."""

from __future__ import annotations

import copy
import json
import random
import shutil
import string
from decimal import Decimal
from fractions import Fraction

import pytest
from helpers import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from longgames import long_game
from oracles import oracle_routes

from sy_tools.analysis import possible as tracker
from sy_tools.analysis.possible import possible
from sy_tools.engine.rules import PRESETS, preset, rules_from_json
from sy_tools.errors import InputError, RecordError
from sy_tools.formats.game_fast import fast_record
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


# ---- record_hardening ------------------------------------------------------------

ROOT = REPO
EX = ROOT / "examples"
SMALL = {"detectives": [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}],
         "mrx": {"start_candidates": [35, 45, 51]},
         "rounds": [{"mrx": [{"ticket": "taxi"}], "detectives": [{"name": "Red", "ticket": "taxi", "to": 23}]}]}


def small(**changes):
    doc = copy.deepcopy(SMALL)
    doc.update(changes)
    return doc


def one_error(cli, *args):
    r = cli(*args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in r.stderr
    return lines[0]


# ---- numbers ----------------------------------------------------------------------------------


def test_huge_integer_in_json_is_a_clear_error(cli, tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(SMALL).replace('"start": 13', '"start": 1' + "0" * 5000))
    line = one_error(cli, "possible", str(p))
    assert "detectives[0].start: expected a station number, got a number with 5001 digits" in line


def test_huge_integer_does_not_kill_a_jsonl_batch(cli, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SMALL))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(SMALL).replace('"to": 23', '"to": ' + "9" * 4400))
    r = cli("possible", "--format", "jsonl", "--weights", "uniform", str(good), str(bad), str(good))
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert r.exit_code == 1 and len(rows) == 3
    assert rows[0]["count"] == rows[2]["count"] > 0
    assert rows[1]["exit_code"] == 2 and "a number with 4400 digits" in rows[1]["error"]


@pytest.mark.parametrize("text", [
    "X: T\nRed 1" + "0" * 5000 + ": T 23\n",
    "X: T\nRed 13: T 2" + "0" * 5000 + "\n",
    "start 3" + "5" * 5000 + "\nX: T\nRed 13: T 23\n",
    "rule log_length 1" + "0" * 5000 + "\nX: T\nRed 13: T 23\n",
    "X: T\nRed ²: T 23\n",             # a superscript passes str.isdigit() and breaks int()
    "X: T ٣\nRed 13: T 23\n",           # Arabic-Indic digits match \\d and int() accepts them
    "start 35 ²\nX: T\nRed 13: T 23\n",
    "tickets Red: T ²\nX: T\nRed 13: T 23\n",
])
def test_notation_numbers_are_ascii_and_bounded(tmp_path, cli, text):
    p = tmp_path / "g.txt"
    p.write_text(text)
    with pytest.raises(RecordError) as e:
        load_record(p)
    assert len(str(e.value)) < 400 and e.value.where.startswith("line ")
    one_error(cli, "possible", str(p))


# ---- text that is not text, keys twice, odd values -------------------------------------------


@pytest.mark.parametrize("where, raw", [
    ("detectives[0].name", '"Red\\ud800"'),
    ("rounds[0].detectives[0].name", '"\\udfff"'),
])
def test_lone_surrogate_is_rejected(cli, tmp_path, where, raw):
    text = json.dumps(SMALL)
    if where.startswith("rounds"):
        text = text.replace('"name": "Red", "ticket"', f'"name": {raw}, "ticket"')
    else:
        text = text.replace('"name": "Red", "start"', f'"name": {raw}, "start"')
    p = tmp_path / "g.json"
    p.write_text(text)
    for cmd in (["possible"], ["check"], ["record", "convert"]):
        args = [*cmd, str(p)] + ([str(tmp_path / "o.txt")] if cmd[0] == "record" else [])
        line = one_error(cli, *args)
        assert f"{where}: " in line and "lone surrogate" in line


def test_duplicate_key_inside_tickets_names_the_key():
    text = json.dumps(small(mrx={"start_candidates": [35], "tickets": {"taxi": 1}})).replace(
        '"tickets": {"taxi": 1}', '"tickets": {"taxi": 1, "taxi": 2}')
    with pytest.raises(RecordError) as e:
        parse_record_json(text)
    assert str(e.value) == "mrx.tickets.taxi: key \"taxi\" appears more than once"
    assert "\x00" not in str(e.value)
    text = json.dumps(small(rules={"preset": "classic", "mrx_tickets": {"bus": 1}})).replace(
        '{"bus": 1}', '{"bus": 1, "bus": 1}')
    with pytest.raises(RecordError, match=r"rules.mrx_tickets.bus: key \"bus\" appears more than once"):
        parse_record_json(text)


def test_log_length_zero_says_what_is_wrong():
    with pytest.raises(RecordError) as e:
        parse_record(small(rules={"preset": "classic", "log_length": 0}))
    assert e.value.where == "rules.log_length" and "at least 1 move, got 0" in str(e.value)
    assert "non-negative" not in str(e.value)


@pytest.mark.parametrize("make", [
    lambda big: json.dumps(small(**{big: 1})),                                            # unknown key
    lambda big: json.dumps(SMALL).replace('"name": "Red", "start"', f'"name": "{big}", "start"'),
    lambda big: json.dumps(small(rules=big)),                                             # unknown preset
    lambda big: json.dumps(small(map=big)),
])
def test_error_lines_are_bounded(cli, tmp_path, make):
    p = tmp_path / "g.json"
    p.write_text(make("x" * 200_000))
    assert len(one_error(cli, "check", str(p))) < 600


def test_notation_error_lines_are_bounded(cli, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("X: T\nRed 13: " + "Q" * 200_000 + "\n" + "z" * 200_000 + "\n")
    assert len(one_error(cli, "possible", str(p))) < 600


def test_missing_reveal_is_bad_input_named_where_the_player_wrote_it(cli, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("X: T, T, T\nRed 13: T 23\n")
    line = one_error(cli, "possible", str(p))
    assert line == f"error: {p}: line 1 (X, round 3): move 3 is a reveal move: 'to' (the station Mr. X showed) is required"


def test_inconsistency_in_a_text_record_names_the_line(cli, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("start 35\nX: T, T, T 1\nRed 13: T 23\n")
    r = cli("possible", str(p))  # refused as check says it (issue 22), at the line the player wrote
    assert r.exit_code == 1 and r.stderr.startswith(f"error: {p}: line 2 (X, round 3): the record is illegal: ")
    r = cli("possible", str(p), "--ignore-illegal")  # the possible-set filter's own words
    assert r.exit_code == 1 and r.stderr.startswith(f"error: {p}: line 2 (X, round 3): the record is inconsistent")


# ---- output -----------------------------------------------------------------------------------


def test_possible_json_of_several_records_is_one_document(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    r = cli("possible", "--format", "json", str(EX / "in-progress.json"), str(bad), str(EX / "capture.json"))
    doc = json.loads(r.stdout)
    assert isinstance(doc, list) and len(doc) == 3 and r.exit_code == 1
    assert doc[0]["count"] == 19 and doc[1]["exit_code"] == 2 and doc[2]["capture"]["station"] == 155
    single = json.loads(cli("possible", "--format", "json", str(EX / "in-progress.json")).output)
    assert single == doc[0]


def test_long_record_route_counts_beyond_floats(cli, tmp_path, london):
    """Route counts past 1e308 (and past 4,300 digits in JSON) print instead of overflowing."""
    doc = long_game(london, 700, seed=3)
    p = tmp_path / "long.json"
    p.write_text(json.dumps(doc))
    result = possible(load_record(p))
    assert max(result.route_counts.values()) > 10**308
    r = cli("possible", str(p), "--top", "3")
    assert r.exit_code == 0 and "e+" in r.output
    huge = tracker.Possible(stations=(1,), probabilities={1: 1.0}, weights="paths", move=9000, round=9000,
                            next_reveal=None, detectives={}, route_counts={1: 7**9000})
    assert huge.to_dict()["route_counts"] == {"1": str(Decimal(7**9000))}  # str() refuses > 4,300 digits


# ---- long records stay near-linear ------------------------------------------------------------


def test_long_records_stay_near_linear(london, monkeypatch):
    """Exact Fractions made ``--weights moves`` on 1,000 rounds take 23 s: their digits grew with
    every move.  Weights of bounded size (floats rescaled per move; integers only while their
    total fits in COUNT_BITS bits) keep the work proportional to the record's length: the sizes
    are checked here, not the time (which a busy machine stretches)."""
    from sy_tools.analysis.weights import COUNT_BITS

    kept: list[object] = []

    def spying(real):
        def spy(*args, **kw):
            out = real(*args, **kw)
            kept.extend(w for step in out for w in step.values())
            return out
        return spy

    for name in ("_forward", "_backward"):
        monkeypatch.setattr(tracker, name, spying(getattr(tracker, name)))
    rec = parse_record(long_game(london, 1000, seed=5))
    p = possible(rec, "moves", history=True)
    q = possible(rec, "paths", history=True)
    assert len(kept) > 1000
    big = [w for w in kept if not (type(w) is float or type(w) is int and w.bit_length() <= COUNT_BITS + 64)]
    assert not big, f"{len(big)} weights of unbounded size, e.g. {type(big[0]).__name__}"
    assert abs(sum(p.probabilities.values()) - 1) < 1e-9 and abs(sum(q.history_probabilities[-1].values()) - 1) < 1e-9
    assert all(abs(sum(h.values()) - 1) < 1e-9 for h in p.history_probabilities)


def _route_weights(rec, weights):
    """Brute force: each consistent route's weight under ``weights`` (exact Fractions)."""
    from sy_tools.engine.tickets import Ticket

    routes = oracle_routes(rec, 5_000)
    if routes is None:
        return None
    occ = []
    pos = {d.name: d.start for d in rec.detectives}
    for rnd in rec.rounds:
        for m in rnd.mrx:
            occ.append((m.ticket, set(pos.values())))
        for dm in rnd.detectives:
            pos[dm.name] = dm.to
    out = []
    for r in routes:
        w = Fraction(1)
        if weights == "moves":
            for i, (t, o) in enumerate(occ):
                k = len([d for d in rec.board.moves(r[i], Ticket(t)) if d not in o])
                w *= Fraction(1, k)
        out.append((r, w))
    return out


@pytest.mark.parametrize("weights", ["moves", "paths"])
def test_float_weights_match_exact_oracle(london, weights, monkeypatch):
    """The rescaled floats agree with exact arithmetic over every consistent route (paths: the
    float fallback for huge counts is forced on by EXACT_BITS = 0)."""
    from sy_tools.engine.rules import PRESETS
    from sy_tools.selfplay.generate import detectives_view, random_game

    if weights == "paths":
        monkeypatch.setattr(tracker, "EXACT_BITS", 0)
    checked = 0
    for seed in range(24):
        doc = detectives_view(random_game(london, PRESETS["classic"], random.Random(seed)), PRESETS["classic"])
        rec = parse_record(doc)
        rec = rec.truncated(min(len(rec.rounds), 5))
        rw = _route_weights(rec, weights)
        if not rw:
            continue
        got = possible(rec, weights, history=True)
        total = sum(w for _, w in rw)
        final: dict[int, Fraction] = {}
        for r, w in rw:
            final[r[-1]] = final.get(r[-1], 0) + w
        for s, w in final.items():
            assert got.probabilities[s] == pytest.approx(float(w / total), rel=1e-9)
        for i, hp in enumerate(got.history_probabilities):
            through: dict[int, Fraction] = {}
            for r, w in rw:
                through[r[i + 1]] = through.get(r[i + 1], 0) + w
            assert hp == pytest.approx({s: float(w / total) for s, w in through.items()}, rel=1e-9)
        checked += 1
    assert checked >= 8


# ---- the fast path reads what the collecting parser reads -------------------------------------


def test_fast_path_equals_the_collecting_parser(london):
    from sy_tools.engine.rules import PRESETS
    from sy_tools.selfplay.generate import detectives_view, random_game

    for seed in range(40):
        doc = random_game(london, PRESETS["classic"], random.Random(seed))
        for d in (doc, detectives_view(doc, PRESETS["classic"])):
            text = json.dumps(d)
            fast = fast_record(text, "g.json")
            assert fast is not None and fast == parse_record_json(text, "g.json")


@pytest.mark.parametrize("text", [
    json.dumps(SMALL).replace('"rounds"', '"rounds": [], "rounds"'),            # a key twice
    json.dumps(SMALL).replace('"to": 23}', '"to": 23, "to": 24}'),
    json.dumps(SMALL).replace('"name": "Red", "ticket"', '"name": "Red", "name": "Blue", "ticket"'),
    json.dumps(small(mrx={"start_candidates": [35], "start": 35})).replace('"start": 35', '"start": 35, "start": 36'),
])
def test_fast_path_never_hides_a_repeated_key(text):
    assert fast_record(text) is None
    with pytest.raises(RecordError, match="appears more than once"):
        parse_record_json(text, fast=True)


mutations = st.sampled_from([
    ("detectives", 0, "name"), ("detectives", 0, "start"), ("rounds", 0, "mrx", 0, "ticket"),
    ("rounds", 0, "mrx", 0, "to"), ("rounds", 0, "detectives", 0, "to"), ("rounds", 0, "detectives", 0, "name"),
    ("rounds", 0, "detectives", 0, "capture"), ("mrx", "start_candidates"), ("mrx", "tickets"), ("rules",),
    ("version",), ("map",), ("comment",), ("detectives", 0, "tickets"), ("mrx", "start"),
])
values = st.one_of(st.none(), st.booleans(), st.integers(-2, 210), st.text(max_size=4), st.just("any"),
                   st.sampled_from(["taxi", "black", "Red", "Blue", "classic", "2014", "london", "a:b"]),
                   st.lists(st.integers(0, 200), max_size=3), st.dictionaries(st.sampled_from(["taxi", "x"]),
                                                                              st.integers(-1, 3), max_size=2))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=mutations, value=values)
def test_fast_path_accepts_only_what_the_parser_accepts(path, value):
    doc = copy.deepcopy(SMALL)
    obj = doc
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    text = json.dumps(doc)
    fast = fast_record(text)
    try:
        slow = parse_record_json(text)
    except RecordError:
        assert fast is None
        return
    assert fast is None or fast == slow


# ---- batches ----------------------------------------------------------------------------------


def test_jobs_keep_the_order_and_the_answers(cli, tmp_path):
    names = ["in-progress.json", "capture.json", "broken/not-on-map.json", "broken/contradiction.json",
             "mrx-wins.json", "table.txt"]
    files = []
    for i in range(120):
        src = EX / names[i % len(names)]
        dst = tmp_path / f"{i:03d}-{src.name}"
        shutil.copy(src, dst)
        files.append(str(dst))
    one = cli("possible", "--format", "jsonl", "--weights", "uniform", "--jobs", "1", *files)
    two = cli("possible", "--format", "jsonl", "--weights", "uniform", "--jobs", "2", *files)
    auto = cli("possible", "--format", "jsonl", "--weights", "uniform", *files)  # every core: 120 records
    assert one.exit_code == two.exit_code == auto.exit_code == 1
    assert one.stdout == two.stdout == auto.stdout and len(one.stdout.splitlines()) == 120
    rows = [json.loads(line) for line in two.stdout.splitlines()]
    assert [r["file"] for r in rows] == files
    assert "error" in rows[2] and "rounds[3].detectives[1].to" in rows[2]["error"]


def test_notation_round_trip_keeps_a_pass(cli, tmp_path):
    doc = small()
    doc["rounds"].append({"mrx": [], "detectives": [{"name": "Blue", "ticket": "taxi", "to": 27}]})
    p = tmp_path / "g.json"
    p.write_text(json.dumps(doc))
    assert cli("record", "convert", str(p), str(tmp_path / "g.txt")).exit_code == 0
    assert "X: T, -\n" in (tmp_path / "g.txt").read_text()
    assert parse_record(parse_notation((tmp_path / "g.txt").read_text())).rounds[1].mrx == ()
