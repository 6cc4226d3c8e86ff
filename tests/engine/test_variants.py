"""The rulebooks' variants on maps and analyses: the ``via`` data of the cut-off escape (read,
written, validated, converted, diffed), the filter and its route counts under the rule against
the brute-force oracle, and the rulebook's worked example (examples/variants/cutoff.json)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from helpers import REPO, small_board
from oracles import compare_with_oracle, oracle_answer

from sy_tools.analysis.mapstats import map_diff, map_info
from sy_tools.analysis.possible import possible
from sy_tools.analysis.referee import check
from sy_tools.engine.board import Board
from sy_tools.engine.rules import rules_from_json
from sy_tools.engine.tickets import Transport
from sy_tools.errors import MapError
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.map_check import check_raw, validate_map
from sy_tools.formats.map_load import load_board
from sy_tools.formats.map_write import to_json_text
from sy_tools.formats.maps import read_map
from sy_tools.formats.record_io import load_record
from sy_tools.selfplay.generate import detectives_view, random_game

ROOT = REPO


def _via_board(rng: random.Random) -> Board:
    """A small random board whose bus and underground lines mostly pass over a station or two."""
    b = small_board(rng)
    via = {}
    for c in b.connections:
        if c.transport in (Transport.BUS, Transport.UNDERGROUND) and rng.random() < 0.7:
            others = [s for s in b.stations if s not in (c.a, c.b)]
            via[(c.a, c.b, c.transport)] = rng.sample(others, rng.randint(1, 2))
    return Board.build(b.name, b.stations, b.connections, b.coords, dict(b.start_decks), via)


# ---- map data ----------------------------------------------------------------------------------


def test_london_carries_the_rulebook_examples_only():
    board = load_board("london")
    assert dict(board.via) == {
        (140, 153, Transport.UNDERGROUND): 1 << 154, (46, 74, Transport.UNDERGROUND): (1 << 45) | (1 << 58)}
    info = map_info(board)
    assert info.via == (2, 119) and info.to_dict()["via"] == {"with_via": 2, "bus_underground": 119}


def test_via_round_trips_through_json_and_diff_sees_a_change(tmp_path):
    rng = random.Random(3)
    board = _via_board(rng)
    p = tmp_path / "m.json"
    p.write_text(to_json_text(board))
    again = load_board(p)
    assert again.via == board.via and map_diff(board, again).same
    key = next(iter(board.via))
    other = Board.build(board.name, board.stations, board.connections, board.coords, dict(board.start_decks),
                        {k: [] if k == key else [s for s in board.stations if v >> s & 1] for k, v in board.via.items()})
    d = map_diff(board, other)
    assert not d.same and [(c.a, c.b, c.transport) for c, _, vb in d.via] == [key] and d.via[0][2] == ()
    assert d.to_dict()["via_changed"][0]["via_b"] == []


@pytest.mark.parametrize("via, transport, code", [
    ([999], "underground", "via-station"), ([153], "underground", "via-station"), ([154, 154], "underground", "via-station"),
    ([154], "taxi", "via-transport"), ("154", "underground", "type"),
])
def test_validate_checks_via(tmp_path, via, transport, code):
    doc = json.loads((ROOT / "data" / "london.json").read_text())
    conn = next(c for c in doc["connections"] if (c["a"], c["b"]) == (140, 153))
    conn.update(via=via, transport=transport)
    p = tmp_path / "m.json"
    p.write_text(json.dumps(doc))
    errors = [f for f in check_raw(read_map(p)) if f.level == "error"]
    assert [f.code for f in errors] == [code] and str(errors[0].location).endswith(".via" if code != "via-station"
                                                                                   else "]")
    with pytest.raises(MapError):
        load_board(p)


def test_validate_warns_when_the_rule_meets_incomplete_via_data():
    cut = rules_from_json({"preset": "classic", "cutoff_escape": True})
    assert not [f for f in validate_map("london").findings if f.code == "via-incomplete"]
    found = [f for f in validate_map("london", rules=cut).findings if f.code == "via-incomplete"]
    assert len(found) == 1 and found[0].level == "warning" and "117 of 119" in found[0].message


def test_convert_to_formats_without_via_warns(cli, tmp_path):
    r = cli("map", "convert", "london", str(tmp_path / "pair"))
    assert r.exit_code == 0 and "pair format cannot hold via data" in r.stderr


# ---- the rulebook's example ---------------------------------------------------------------------


def test_rulebook_cutoff_example():
    """With a detective on 154, Mr. X's underground 153 -> 140 is closed (examples/variants/cutoff.json)."""
    path = ROOT / "examples" / "variants" / "cutoff.json"
    rec = load_record(path)
    r = check(rec)
    assert [(p.code, p.where) for p in r.errors] == [("mrx-cutoff", "rounds[0].mrx[0].to")]
    assert [p.code for p in r.problems if p.level == "warning"] == ["via-incomplete"]
    off = dataclasses.replace(rec, rules=rules_from_json({"preset": "classic"}))
    assert check(off).legal  # without the rule the hop is fine
    # the detectives' view: from 153 the underground reaches 111, 163, 185 - not 140
    view = dataclasses.replace(rec, mrx_start=None, rounds=(rec.rounds[0]._replace(
        mrx=(rec.rounds[0].mrx[0]._replace(to=None),)),))
    p = possible(view)
    assert 140 not in p.stations and p.stations and p.warnings and "117 of 119" in p.warnings[0]
    assert 140 in possible(dataclasses.replace(view, rules=off.rules)).stations
    assert p.to_dict()["warnings"] == list(p.warnings)


# ---- the filter under the cut-off escape, against the oracle -------------------------------------


def _compare(rec) -> bool:
    if not compare_with_oracle(rec):
        return False
    if oracle_answer(rec)[3]:  # consistent: the moves weights keep the same stations
        assert list(possible(rec, weights="moves", history=True).stations) == oracle_answer(rec)[0]
    return True


def test_oracle_cutoff_escape_on_boards_with_via_data():
    compared = closed = 0
    for seed in range(30):
        rng = random.Random(seed)
        board = _via_board(rng)
        over = {"preset": "classic", "cutoff_escape": True, "reveal_moves": [3, 6, 9, 12]}
        rules = rules_from_json({**over, "mrx_deck": "classic", "detective_deck": "classic"})
        doc = random_game(board, rules, rng, n_detectives=rng.randint(2, 3),
                          mrx_start_candidates=board.start_decks["classic"])
        doc = detectives_view(doc, rules)
        doc.update(rules=over, map="london")
        rec = parse_record(json.loads(json.dumps(doc)))
        cands = tuple(sorted(set(doc["mrx"]["start_candidates"]) - {d["start"] for d in doc["detectives"]}))
        rec = dataclasses.replace(rec, board=board, start_candidates=cands)
        plain = dataclasses.replace(rec, rules=rules_from_json({k: v for k, v in over.items() if k != "cutoff_escape"}))
        for n in range(len(rec.rounds) + 1):
            cut = rec.truncated(n)
            compared += _compare(cut)
            a, b = oracle_answer(cut), oracle_answer(plain.truncated(n))
            closed += a is not None and b is not None and a[2] != b[2]  # the rule changed the counts
    assert compared >= 60 and closed >= 6


def test_possible_and_check_say_the_via_data_is_incomplete(cli, tmp_path):
    doc = json.loads((ROOT / "examples" / "variants" / "cutoff.json").read_text())
    del doc["mrx"]["start"]
    doc["rounds"][0]["mrx"][0] = {"ticket": "underground"}
    p = tmp_path / "g.json"
    p.write_text(json.dumps(doc))
    r = cli("possible", str(p))
    assert r.exit_code == 0 and "140" not in r.stdout.split("station")[-1]
    assert "warning:" in r.stderr and "incomplete via data: 117 of 119" in r.stderr
    assert "incomplete via data" in json.loads(cli("possible", str(p), "--format", "json").stdout)["warnings"][0]
    r = cli("check", str(p), "--format", "json")
    assert [x["code"] for x in json.loads(r.stdout)["problems"]] == ["via-incomplete"]


def test_possible_and_check_agree_on_a_step_onto_a_detective(cli):
    """The bundled example passed 'check' (Blue caught him at 194) but 'possible' called it
    inconsistent: his step onto a detective ends the game in the open."""
    game = str(REPO / "examples" / "variants" / "onto-detective-caught.json")
    assert "detectives won: Blue caught Mr. X at 194" in cli("check", game).output
    for weights in ("paths", "uniform", "moves"):
        r = cli("possible", game, "--format", "json", "--weights", weights)
        assert r.exit_code == 0, r.stderr
        d = json.loads(r.output)
        assert d["capture"] == {"station": 194, "by": "Blue", "round": 1} and d["stations"] == [194]
    r = cli("possible", game, "--format", "jsonl", "--weights", "uniform")  # the batch's fast path
    assert json.loads(r.output)["capture"]["station"] == 194


@pytest.mark.parametrize("cmd", ["cordon", "solve", "advise", "simulate"])
def test_the_cutoff_rule_on_incomplete_via_data_is_never_silent(cli, tmp_path, cmd):
    """check and possible said so; cordon, solve, advise and simulate applied it silently."""
    rules = tmp_path / "cut.json"
    rules.write_text('{"preset": "classic", "cutoff_escape": true}')
    if cmd == "simulate":
        r = cli(cmd, "-n", "2", "--jobs", "1", "--rules", str(rules))
        assert r.exit_code == 0 and "warning: cut-off escape applied with incomplete via data" in r.stderr
        assert "warning" not in cli(cmd, "-n", "2", "--jobs", "1").stderr
        return
    r = cli(cmd, "--around", "153", "--detectives", "Red=154", "--rules", str(rules), "--time-limit", "2")
    assert r.exit_code in (0, 1, 3), r.stderr
    assert "warning: cut-off escape applied with incomplete via data: 117 of 119" in r.stderr
    assert "warning" not in cli(cmd, "--around", "153", "--detectives", "Red=154", "--time-limit", "2").stderr
