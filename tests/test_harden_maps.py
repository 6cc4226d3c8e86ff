"""Bounded maps: huge and sparse ids, large maps, hostile numbers and text in every map format;
a read-only Board."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from harden_tools import run_limited, write_map

from sy_tools.engine.board import Board, Connection
from sy_tools.engine.stations import mask_of, stations_of
from sy_tools.engine.tickets import Ticket
from sy_tools.errors import MapError
from sy_tools.formats.map_check import MAX_STATION_ID, check_raw, validate_map
from sy_tools.formats.map_load import load_board
from sy_tools.formats.maps import read_map

FORMATS = ["json", "pair", "bristol"]
TRIANGLE = [(1, 2, "taxi"), (2, 3, "taxi"), (1, 3, "bus")]


def _codes(spec) -> list[str]:
    return [f.code for f in validate_map(spec).findings]


# ---- ids ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_id_of_2_to_the_31_is_an_error_in_bounded_memory(tmp_path, fmt):
    big = 2**31
    spec = write_map(tmp_path / fmt, fmt, [1, 2, big], [(1, 2, "taxi"), (2, big, "taxi")])
    r = run_limited(["validate", str(spec)], timeout=20, mem_mb=600)
    assert r.code == 1, (r.code, r.stderr[-300:])
    assert f"station id {big} is too large (ids go up to {MAX_STATION_ID:,})" in r.stdout
    assert "[id-gap]" not in r.stdout  # the gap warning is about ids that can be used


@pytest.mark.parametrize("fmt", FORMATS)
def test_sparse_ids_cost_little(tmp_path, fmt):
    """A 6-station map with one id of 10^6: loads, answers, and stays small (18 s and 1.1 GB
    before the tables were built only for bytes that hold stations)."""
    ids = [1, 2, 3, 4, 5, 10**6]
    conns = [(a, b, "taxi") for a, b in zip(ids, ids[1:])] + [(1, 10**6, "bus")]
    spec = write_map(tmp_path / fmt, fmt, ids, conns)
    r = run_limited(["map", "info", str(spec), "--format", "json"], timeout=20, mem_mb=700)
    assert r.code == 0, (r.code, r.stderr[-300:])
    assert json.loads(r.stdout)["stations"] == 6
    board = load_board(spec)
    assert board.step(mask_of([5]), Ticket.TAXI) == mask_of([4, 10**6])
    assert stations_of(board.step(mask_of(ids), Ticket.BLACK)) == ids
    assert "id-gap" in _codes(spec)


def test_sparse_ids_possible_agrees_with_the_trace(tmp_path):
    """The batch's filter on a map too sparse for its bit tables (it computes them when asked)
    says what the move-by-move trace says."""
    from sy_tools.analysis.batch import possible_many
    from sy_tools.analysis.possible import possible
    from sy_tools.formats.record_io import load_record

    ids = [1, 2, 3, 4, 5, 10**6]
    spec = write_map(tmp_path, "json", ids, [(a, b, "taxi") for a, b in zip(ids, ids[1:])] + [(1, 10**6, "taxi")])
    game = tmp_path / "g.json"
    game.write_text(json.dumps({"map": spec.name, "detectives": [{"name": "Red", "start": 4}],
                                "mrx": {"start_candidates": [2, 10**6]},
                                "rounds": [{"mrx": [{"ticket": "taxi"}],
                                            "detectives": [{"name": "Red", "ticket": "taxi", "to": 5}]}]}))
    assert not isinstance(load_board(spec).bits, tuple)
    ((_, fast),) = possible_many([str(game)], "uniform")
    slow = possible(load_record(game), "paths")
    assert fast.stations == slow.stations == (1, 3)  # from 2: 1 or 3; from 10**6: 1 or 5 (Red's)
    assert fast.detectives == {"Red": 5}


def test_id_gap_lists_the_first_missing(tmp_path):
    spec = write_map(tmp_path, "bristol", [1, 2, 5, 9], [(1, 2, "taxi"), (2, 5, "taxi"), (5, 9, "taxi")])
    (gap,) = [f for f in validate_map(spec).findings if f.code == "id-gap"]
    assert gap.message == "station ids are not 1..9: missing 3, 4, 6, 7, 8"
    spec = write_map(tmp_path / "b", "bristol", [1, 40], [(1, 40, "taxi")])
    (gap,) = [f for f in validate_map(spec).findings if f.code == "id-gap"]
    assert gap.message == "station ids are not 1..40: missing 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ..."


def test_large_map_memory_is_linear(tmp_path):
    """20,000 stations took 1.9 GB (quadratic); now well under half a gigabyte."""
    rng = random.Random(3)
    n = 20_000
    conns = [(i, rng.randrange(1, i), "taxi") for i in range(2, n + 1)]
    spec = write_map(tmp_path, "bristol", list(range(1, n + 1)), conns)
    r = run_limited(["map", "info", str(spec), "--format", "json"], timeout=60, mem_mb=700)
    assert r.code == 0, (r.code, r.stderr[-300:])
    assert json.loads(r.stdout)["connections"]["taxi"] == n - 1


def test_large_board_steps_agree_with_neighbour_lists():
    rng = random.Random(5)
    n = 6000  # past the precomputation budget: masks are computed when asked
    stations = list(range(1, n + 1))
    conns = {Connection.of(i, rng.randrange(1, i), rng.choice(["taxi", "bus"])) for i in range(2, n + 1)}
    conns |= {Connection.of(rng.randrange(1, n), n, "ferry")}
    board = Board.build("big", stations, conns)
    small = Board.build("small", stations[:150], {c for c in conns if c.b <= 150})
    for b in (board, small):
        for _ in range(20):
            sub = rng.sample(b.stations, rng.choice([1, 3, 30, 400 if len(b) > 400 else 100]))
            for t in Ticket:
                expect = set()
                for s in sub:
                    expect.update(b.moves(s, t))
                assert set(stations_of(b.step(mask_of(sub), t))) == expect
                assert b.neighbours[t][sub[0]] == mask_of(b.moves(sub[0], t))
        for s in (1, 77, b.stations[-1]):  # tables on the small map, computed on the large one
            assert b.bits[s] == 1 << s and b.clears[s] == ~(1 << s)
    assert isinstance(small.bits, tuple) and not isinstance(board.bits, tuple)


# ---- a read-only board --------------------------------------------------------------------------


def test_board_is_read_only(london):
    with pytest.raises(TypeError):
        london.neighbours[Ticket.TAXI][1] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        london.neighbours[Ticket.TAXI] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        london.transport_neighbours[next(iter(london.transport_neighbours))][1] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        london.coords[1] = (0.0, 0.0)  # type: ignore[index]
    with pytest.raises(TypeError):
        london.start_decks["classic"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        london._lists[Ticket.TAXI][1] = ()  # type: ignore[index]
    assert load_board("london").moves(1, Ticket.TAXI) == (8, 9)


def test_board_pickles(london):
    again = pickle.loads(pickle.dumps(london))
    assert again.stations == london.stations and again.connections == london.connections
    assert dict(again.coords) == dict(london.coords) and again.step(mask_of([1, 2, 3, 4, 5]), Ticket.BUS) == \
        london.step(mask_of([1, 2, 3, 4, 5]), Ticket.BUS)


# ---- empty maps, hostile numbers and text -------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_map_is_an_error(tmp_path, fmt, cli):
    spec = write_map(tmp_path / fmt, fmt, [], [])
    assert "empty-map" in _codes(spec)
    with pytest.raises(MapError, match="the map has no stations"):
        load_board(spec)
    rec = tmp_path / "g.json"
    rec.write_text(json.dumps({"map": str(spec), "detectives": [{"name": "Red", "start": 1}], "rounds": []}))
    r = cli("check", str(rec))
    assert r.exit_code == 2 and "the map has no stations" in r.stderr


@pytest.mark.parametrize("fmt", ["json", "pair"])
@pytest.mark.parametrize("value", ["1e308", "-1e300", "1" + "0" * 400, "1e10"])
def test_coordinates_must_be_sane(tmp_path, fmt, value, cli):
    coords = {1: ("0", "0"), 2: (value, "5"), 3: ("9", "9")}
    spec = write_map(tmp_path, fmt, [1, 2, 3], TRIANGLE, coords)
    r = cli("validate", str(spec))
    assert r.exit_code == 1 and "[coordinate-range]" in r.output and "out of range" in r.output


@pytest.mark.parametrize("fmt", ["pair", "bristol"])
@pytest.mark.parametrize("token", ["²", "٣", "1_0", "9" * 5000, "+-1"])
def test_odd_integer_tokens_in_text_maps(tmp_path, fmt, token, cli):
    spec = write_map(tmp_path, fmt, [1, 2, 3], TRIANGLE)
    f = spec / "connections.txt" if fmt == "pair" else spec
    f.write_text(f.read_text().replace("2 3 ", f"2 {token} ", 1))
    r = cli("validate", str(spec))
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output and max(map(len, r.output.splitlines())) < 300


@pytest.mark.parametrize("header", ["⁵ ⁶", "٣ ٣", "3 " + "9" * 5000])
def test_bristol_header_with_odd_digits(tmp_path, header, cli):
    p = tmp_path / "graph.txt"
    p.write_text(f"{header}\n1\n2\n3\n1 2 Taxi\n2 3 Taxi\n1 3 Bus\n")
    r = cli("validate", "--input-format", "bristol", str(p))
    assert r.exit_code == 1 and "expected a header 'STATIONS EDGES'" in r.output


def test_huge_integer_literal_in_json_map(tmp_path, cli):
    p = tmp_path / "m.json"
    p.write_text('{"stations": [{"id": ' + "1" * 5000 + '}], "connections": []}')
    r = cli("validate", str(p))
    assert r.exit_code == 1 and "stations[0].id" in r.output and "[station-id]" in r.output  # placed, no crash


def test_lone_surrogate_names_are_errors(tmp_path, cli):
    p = tmp_path / "m.json"
    p.write_text('{"name": "\\ud800", "stations": [{"id": 1}, {"id": 2}], '
                 '"connections": [{"a": 1, "b": 2, "transport": "taxi"}], "start_decks": {"\\udfff": [1]}}')
    r = cli("validate", "--format", "json", str(p))
    codes = [f["code"] for f in json.loads(r.output)]
    assert r.exit_code == 1 and codes.count("type") == 2
    r = cli("map", "info", str(p))
    assert r.exit_code == 2 and "lone surrogate" in r.stderr


def test_long_lines_are_not_echoed_whole(tmp_path, cli):
    p = tmp_path / "graph.txt"
    p.write_text("2 1\n1\n2\n1 2 " + "T" * 1_000_000 + "\n")
    r = cli("validate", str(p))
    assert r.exit_code == 1 and max(map(len, r.output.splitlines())) < 300
    r = cli("map", "info", str(p))
    assert r.exit_code == 2 and len(r.stderr) < 500


def test_findings_of_a_clean_triangle_are_none(tmp_path):
    for fmt in FORMATS:
        spec = write_map(tmp_path / fmt, fmt, [1, 2, 3], TRIANGLE)
        assert [f for f in check_raw(read_map(spec)) if f.level == "error"] == []
