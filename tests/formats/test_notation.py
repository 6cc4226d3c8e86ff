"""The text notation says everything game.json does: a record converted to text and back is the
same record (overrides, tickets, odd names, a relative map path, comments, Mr. X's pass), and
what it can't say is refused with exit 2 naming it.  Messages for text records name the line and
round as the player wrote them."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from helpers import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sy_tools.engine.hops import reserved_name
from sy_tools.engine.rules import rules_from_json
from sy_tools.engine.tickets import Ticket
from sy_tools.errors import RecordError
from sy_tools.formats.game_json import parse_record, record_to_json
from sy_tools.formats.notation import to_notation
from sy_tools.formats.record import RecordErrors
from sy_tools.formats.record_io import load_record

ROOT = REPO

ODD = ["X", "x", "Mr X.", "tickets", "map", "13", "Red, Jr.", "a:b", "#1", 'say "hi"', "back\\slash",
       "  padded  ", "Rød", "Inspector Lestrade", "-", "T 23", "2X"]
name_st = st.one_of(
    st.sampled_from(ODD),
    st.text(st.sampled_from('ab XY:,#"\\!-/é1'), min_size=1, max_size=8),
).filter(lambda s: s.strip() != "" and s.isprintable() and not reserved_name(s))  # ("Mr. X" is his)
counts = {"detective": ("taxi", "bus", "underground"), "mrx": ("taxi", "bus", "underground", "black", "double")}


def tickets_st(kinds):
    return st.dictionaries(st.sampled_from(kinds), st.integers(0, 30), max_size=len(kinds))


rules_st = st.one_of(
    st.none(), st.sampled_from(["classic", "2014"]),
    st.fixed_dictionaries({"preset": st.sampled_from(["classic", "2014"])}, optional={
        "log_length": st.integers(1, 40),
        "trapped_loses": st.booleans(),
        "tickets_to_mrx": st.booleans(),
        "black_per_detective": st.booleans(),
        "reveal_moves": st.lists(st.integers(1, 30), max_size=5),
        "double_moves_per_round": st.integers(0, 2),
        "mrx_tickets": tickets_st(counts["mrx"]),
        "detective_tickets": tickets_st(counts["detective"]),
        "detective_deck": st.sampled_from(["classic", "2014-detectives"]),
        "voluntary_reveal": st.booleans(),
    }),
)


@st.composite
def games(draw):
    rules = draw(rules_st)
    reveals = rules_from_json(rules).reveal_moves
    names = draw(st.lists(name_st, min_size=1, max_size=5, unique=True))
    starts = draw(st.lists(st.integers(1, 199), min_size=len(names), max_size=len(names), unique=True))
    dets = []
    for n, s in zip(names, starts):
        d = {"name": n, "start": s}
        if draw(st.booleans()):
            d["tickets"] = draw(tickets_st(counts["detective"]))
        dets.append(d)
    doc = {"detectives": dets}
    if rules is not None:
        doc["rules"] = rules
    if draw(st.booleans()):
        doc["comment"] = draw(st.text(st.sampled_from('a #"\\:,\né'), max_size=10))
    mrx = {"start_candidates": draw(st.one_of(st.just("any"), st.lists(st.integers(1, 199), min_size=1, max_size=4)))}
    if draw(st.booleans()):
        mrx["start"] = draw(st.integers(1, 199))
    if draw(st.booleans()):
        mrx["tickets"] = draw(tickets_st(counts["mrx"]))
    doc["mrx"] = mrx
    rounds, move = [], 0
    for _ in range(draw(st.integers(0, 6))):
        legs = []
        for _ in range(draw(st.sampled_from([0, 1, 1, 2]))):
            move += 1
            leg = {"ticket": draw(st.sampled_from(["taxi", "bus", "underground", "black"]))}
            if move in reveals or draw(st.booleans()):
                leg["to"] = draw(st.integers(1, 199))
            # a voluntary reveal, taking a ticket from a detective whose name the line can hold
            takers = [n for n in names if "," not in n and "/" not in n]
            if "to" in leg and takers and not any("took" in x for x in legs) and draw(st.booleans()):
                leg["shown"] = True
                leg["took"] = {"from": draw(st.sampled_from(takers)),
                               "ticket": draw(st.sampled_from(["taxi", "bus", "underground"]))}
            legs.append(leg)
        moving = [n for n in names if draw(st.booleans())]
        ds = [{"name": n, "ticket": draw(st.sampled_from(["taxi", "bus", "underground"])),
               "to": draw(st.integers(1, 199)), **({"capture": True} if draw(st.booleans()) else {})}
              for n in moving]
        rounds.append({"mrx": legs, "detectives": ds})
    doc["rounds"] = rounds
    return doc


def canon(rec):
    """The record as game.json, its map as the file it resolves to (folders may differ)."""
    doc = record_to_json(rec)
    if doc["map"] != "london":
        doc["map"] = os.path.realpath(os.path.join(os.path.dirname(rec.file), doc["map"]))
    return doc


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """games/ holds the records, "my maps/london copy.json" a map given by a relative path."""
    root = tmp_path_factory.mktemp("rt")
    (root / "games").mkdir()
    (root / "text out").mkdir()
    (root / "my maps").mkdir()
    shutil.copy(ROOT / "data" / "london.json", root / "my maps" / "london copy.json")
    return root


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(doc=games(), relative_map=st.booleans())
def test_every_record_converts_to_text_and_back(cli, tree, doc, relative_map):
    if relative_map:
        doc["map"] = "../my maps/london copy.json"
    src = tree / "games" / "g.json"
    src.write_text(json.dumps(doc))
    rec = load_record(src)
    txt = tree / "text out" / "g.txt"
    r = cli("record", "convert", str(src), str(txt))
    assert r.exit_code == 0, r.output + r.stderr
    # the player's own comments change nothing
    text = txt.read_text()
    commented = "# typed at the table\n" + "\n".join(ln + "   # note, with 'quotes' \"x\"" for ln in text.splitlines())
    txt.write_text(commented + "\n")
    again = load_record(txt)
    assert canon(again) == canon(rec)
    back = tree / "games" / "back.json"
    assert cli("record", "convert", str(txt), str(back)).exit_code == 0
    assert canon(load_record(back)) == canon(rec)


BASE = {"detectives": [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}],
        "mrx": {"start_candidates": [35, 45, 51]},
        "rounds": [{"mrx": [{"ticket": "taxi"}], "detectives": [{"name": "Red", "ticket": "taxi", "to": 23}]}]}


def test_overrides_and_tickets_survive(cli, tmp_path):
    """Today's loss: overrides and ticket counts vanished, so an illegal record came back legal."""
    doc = json.loads(json.dumps(BASE))
    doc["rules"] = {"preset": "classic", "log_length": 1, "trapped_loses": False}
    doc["detectives"][0]["tickets"] = {"taxi": 0}
    doc["mrx"]["tickets"] = {"taxi": 0}
    (tmp_path / "g.json").write_text(json.dumps(doc))
    assert cli("record", "convert", str(tmp_path / "g.json"), str(tmp_path / "g.txt")).exit_code == 0
    text = (tmp_path / "g.txt").read_text()
    assert "rule log_length 1\nrule trapped_loses false\n" in text
    assert "tickets X: T 0, B 3, U 3, K 5, 2X 2\n" in text and "tickets Red: T 0, B 8, U 4\n" in text
    rec = load_record(tmp_path / "g.txt")
    assert rec.rules.log_length == 1 and rec.rules.trapped_loses is False
    assert rec.detectives[0].tickets["taxi"] == 0 and rec.mrx_tickets["taxi"] == 0


def test_pass_round_trips():
    doc = json.loads(json.dumps(BASE))
    doc["rounds"].append({"mrx": [], "detectives": [{"name": "Blue", "ticket": "taxi", "to": 27}]})
    rec = parse_record(doc)
    assert rec.rounds[1].mrx == () and rec.n_moves == 1
    text = to_notation(rec)
    assert "X: T, -\n" in text
    from sy_tools.formats.notation import parse_notation

    assert parse_record(parse_notation(text)).rounds == rec.rounds


@pytest.mark.parametrize("rounds, where, what", [
    ([{"mrx": [{"ticket": "taxi"}], "detectives": [{"name": "Blue", "ticket": "taxi", "to": 27},
                                                   {"name": "Red", "ticket": "taxi", "to": 23}]}],
     "rounds[0].detectives[1]", "turn order"),
    ([{"mrx": [{"ticket": "taxi"}], "detectives": [{"name": "Red", "ticket": "taxi", "to": 23},
                                                   {"name": "Red", "ticket": "taxi", "to": 13}]}],
     "rounds[0].detectives[1]", "moves twice"),
])
def test_convert_refuses_what_text_cannot_say(cli, tmp_path, rounds, where, what):
    (tmp_path / "g.json").write_text(json.dumps(BASE | {"rounds": rounds}))
    r = cli("record", "convert", str(tmp_path / "g.json"), str(tmp_path / "g.txt"))
    assert r.exit_code == 2 and not (tmp_path / "g.txt").exists()
    assert r.stderr.startswith(f"error: {tmp_path / 'g.json'}: {where}: cannot be written in the text notation")
    assert what in r.stderr
    r = cli("record", "convert", str(tmp_path / "g.json"), str(tmp_path / "h.json"))
    assert r.exit_code == 0  # JSON to JSON says it all


def test_non_text_comment_is_refused(cli, tmp_path):
    (tmp_path / "g.json").write_text(json.dumps(BASE | {"comment": ["a", "list"]}))
    r = cli("record", "convert", str(tmp_path / "g.json"), str(tmp_path / "g.txt"))
    assert r.exit_code == 2 and "comment: cannot be written" in r.stderr


# ---- places as the player wrote them ---------------------------------------------------------

TABLE = """\
# round 2: Red takes the underground where there is none
map london
start 35 45 51
X: T, B
Red 13: T 23, U 37
Blue 26: T 27
"""


def test_places_name_line_and_round(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(TABLE)
    rec = load_record(p)
    assert rec.place("rounds[1].detectives[0].to") == "line 5 (Red, round 2)"
    assert rec.place("rounds[0].detectives[1]") == "line 6 (Blue, round 1)"
    assert rec.place("rounds[1].mrx[0].ticket") == "line 4 (X, round 2)"
    assert rec.place("rounds[1]") == "line 4 (round 2)"
    assert rec.place("mrx.start_candidates[1]") == "line 3"
    assert rec.place("detectives[1].start") == "line 6 (Blue)"
    assert rec.place("nowhere.known") == "nowhere.known"
    assert load_record(ROOT / "examples" / "capture.json").place("rounds[1].detectives[0]") == "rounds[1].detectives[0]"


@pytest.mark.parametrize("text, where, message", [
    ("X: T, B\nRed 13: T 23, T 200\n", "line 2 (Red, round 2)", "station 200 is not on the map"),
    ("start 35 45 999\nX: T\nRed 13: T 23\n", "line 1", "station 999"),
    ("X: T, T\nRed 13: T 23\nRed 26: T 24\n", "line 3 (Red)", "used twice"),
    ("rules classic\nrule log_length 0\nX: T\nRed 13: T 23\n", "line 2", "at least 1 move"),
    ("tickets Red: T 1, B 1, Z 1\nX: T\nRed 13: T 23\n", "line 1", "ticket count 'Z 1'"),
])
def test_record_errors_name_the_players_line(tmp_path, text, where, message):
    p = tmp_path / "g.txt"
    p.write_text(text)
    with pytest.raises(RecordError) as e:
        load_record(p)
    assert e.value.where == where and message in str(e.value)


@pytest.mark.parametrize("head", ["MrX: T", "Mr. X: T", "mrx: T", "Mr X 45: T", "MRX 45: T"])
def test_mrx_spelled_out_hints_at_x(head):
    from sy_tools.formats.notation import parse_notation

    with pytest.raises(RecordError, match="Mr. X's line is written 'X: ...'"):
        parse_notation(f"{head}\nRed 13: T 23\n")


def test_quoted_detective_called_mrx_is_a_detective():
    from sy_tools.formats.notation import parse_notation

    doc = parse_notation('X: T\n"MrX" 13: T 23\n"X" 26: T 27\n')
    assert [d["name"] for d in doc["detectives"]] == ["MrX", "X"]


def test_errors_from_check_of_a_text_record_read_as_the_player_wrote_them(cli, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("X: T\nRed 13: T 23, T 37\n")
    r = cli("check", str(p))
    assert r.exit_code == 2
    assert r.stderr == f"error: {p}: line 2 (Red): Red has 2 moves but Mr. X's line has only 1 rounds\n"
    with pytest.raises(RecordErrors):
        parse_record({"detectives": [{"name": "Red", "start": 13}], "rounds": [{"mrx": {}}]})


def test_voluntary_reveal_in_the_notation(tmp_path):
    """'B 105 show Red B': he showed himself at 105 and took Red's bus ticket (both legs of a
    double move may carry it, a quoted name too)."""
    head = 'map london\nrule voluntary_reveal true\nRed 13: T 23, T 13\n"Blue Jr" 26: T 27\n'
    f = tmp_path / "g.txt"
    f.write_text(head + 'X: T, 2X T/B 105 show "Blue Jr" underground\n')
    rec = load_record(f)
    legs = rec.rounds[1].mrx
    assert [(m.to, m.shown, m.took) for m in legs] == [(None, False, None), (105, True, ("Blue Jr", Ticket.UNDERGROUND))]
    assert 'B 105 show "Blue Jr" U' in to_notation(rec)
    for bad, msg in [("X: T, B 105 show Red K", "show NAME T"), ("X: T, B 105 show Red", "show NAME T"),
                     ("X: T, B show Red T", "needs the station"), ("X: T, B 105 show Green T", "unknown detective")]:
        f.write_text(head + bad + "\n")
        with pytest.raises(RecordError, match=msg):
            load_record(f)


def test_voluntary_reveal_from_a_name_with_a_comma_is_refused():
    doc = {"detectives": [{"name": "Red, Jr.", "start": 13}], "mrx": {"start_candidates": [194]},
           "rounds": [{"mrx": [{"ticket": "taxi", "to": 193, "shown": True,
                                "took": {"from": "Red, Jr.", "ticket": "bus"}}]}]}
    with pytest.raises(RecordErrors, match="separate entries"):
        to_notation(parse_record(doc))
