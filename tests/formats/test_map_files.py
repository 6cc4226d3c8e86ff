"""Readers and writers: round trips of the London map, fuzzing for tracebacks.

Bounded maps: huge and sparse ids, large maps, hostile numbers and text in every map format;
a read-only Board."""

from __future__ import annotations

import json
import pickle
import random
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from limited_cli import run_limited
from limited_cli import write_map as write_any_format

from sy_tools.engine.board import Board, Connection
from sy_tools.engine.stations import mask_of, stations_of
from sy_tools.engine.tickets import Ticket
from sy_tools.errors import MapError, MapFormatError
from sy_tools.formats.map_check import MAX_STATION_ID, check_raw, validate_map
from sy_tools.formats.map_load import load_board
from sy_tools.formats.map_write import to_json_text, write_map
from sy_tools.formats.maps import read_map


def layout(board, coords=True, decks=True):
    out = (board.stations, board.connections)
    if coords:
        out += (dict(board.coords),)
    if decks:
        out += (dict(board.start_decks),)
    return out


def test_json_round_trip(london, tmp_path):
    write_map(london, tmp_path / "l.json")
    again = load_board(tmp_path / "l.json")
    assert layout(again) == layout(london) and again.name == "london"
    assert to_json_text(again) == to_json_text(london)


def test_pair_round_trip(london, tmp_path):
    written = write_map(london, tmp_path / "pair")
    assert [p.name for p in written] == ["stations.txt", "connections.txt"]
    again = load_board(tmp_path / "pair")
    assert layout(again, decks=False) == layout(london, decks=False)
    # and back to JSON: the same board
    write_map(again, tmp_path / "back.json")
    assert layout(load_board(tmp_path / "back.json"), decks=False) == layout(london, decks=False)


def test_bristol_round_trip(london, tmp_path):
    write_map(london, tmp_path / "graph.txt")
    again = load_board(tmp_path / "graph.txt")
    assert layout(again, coords=False, decks=False) == layout(london, coords=False, decks=False)
    assert again.coords is None


def test_graphml_output(london, tmp_path):
    import networkx as nx

    write_map(london, tmp_path / "l.graphml")
    g = nx.read_graphml(tmp_path / "l.graphml", force_multigraph=True)
    assert g.number_of_nodes() == 199 and g.number_of_edges() == 468


def test_pair_needs_coordinates(london, tmp_path):
    write_map(london, tmp_path / "graph.txt")
    with pytest.raises(MapError, match="coordinates"):
        write_map(load_board(tmp_path / "graph.txt"), tmp_path / "pair")


def test_bristol_names_accepted(tmp_path):
    (tmp_path / "g.txt").write_text("2 4\n1\n2\n1 2 Taxi\n1 2 Boat\n2 1 underground\n1 2 Bus\n")
    raw = read_map(tmp_path / "g.txt")
    assert [c.transport.value for c in raw.connections] == ["taxi", "ferry", "underground", "bus"]


def test_write_is_atomic_and_leaves_no_temp(london, tmp_path):
    target = tmp_path / "l.json"
    target.write_text("old")
    write_map(london, target)
    assert [p.name for p in tmp_path.iterdir()] == ["l.json"]


def test_unknown_format_sniff(tmp_path):
    (tmp_path / "x.dat").write_text("hello world\n")
    with pytest.raises(MapFormatError, match="cannot tell the map format"):
        read_map(tmp_path / "x.dat")


# ---- fuzz: any bytes in, findings or MapError out, never a traceback ------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["id", "x", "y", "a", "b", "transport", "name", "stations", "connections", "start_decks", "classic", "zz"]),
        inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(doc=json_values)
def test_fuzz_json_reader(tmp_path, doc):
    p = tmp_path / "f.json"
    p.write_text(json.dumps(doc))
    _no_traceback(p)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(text=st.text(alphabet=string.digits + " \n\r\t-.abxyTBUFtaxibusWater#,{}", max_size=200))
def test_fuzz_text_readers(tmp_path, text):
    (tmp_path / "graph.txt").write_text(text)
    (tmp_path / "stations.txt").write_text(text)
    (tmp_path / "connections.txt").write_text(text[::-1])
    for fmt in ("bristol", "pair", "json", None):
        _no_traceback(tmp_path / ("graph.txt" if fmt != "pair" else "stations.txt"), fmt)


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(data=st.binary(max_size=100))
def test_fuzz_bytes(tmp_path, data):
    p = tmp_path / "b.json"
    p.write_bytes(data)
    _no_traceback(p)


def _no_traceback(path, fmt=None):
    try:
        raw = read_map(path, fmt)
    except MapError as e:
        assert str(e) and "\n" not in str(e)
        return
    for f in check_raw(raw):
        assert "\n" not in str(f)
    try:
        load_board(path, fmt)
    except MapError as e:
        assert "\n" not in str(e)


# ---- harden_maps ------------------------------------------------------------

FORMATS = ["json", "pair", "bristol"]
TRIANGLE = [(1, 2, "taxi"), (2, 3, "taxi"), (1, 3, "bus")]


def _codes(spec) -> list[str]:
    return [f.code for f in validate_map(spec).findings]


# ---- ids ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_id_of_2_to_the_31_is_an_error_in_bounded_memory(tmp_path, fmt):
    big = 2**31
    spec = write_any_format(tmp_path / fmt, fmt, [1, 2, big], [(1, 2, "taxi"), (2, big, "taxi")])
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
    spec = write_any_format(tmp_path / fmt, fmt, ids, conns)
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
    spec = write_any_format(tmp_path, "json", ids, [(a, b, "taxi") for a, b in zip(ids, ids[1:])] + [(1, 10**6, "taxi")])
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
    spec = write_any_format(tmp_path, "bristol", [1, 2, 5, 9], [(1, 2, "taxi"), (2, 5, "taxi"), (5, 9, "taxi")])
    (gap,) = [f for f in validate_map(spec).findings if f.code == "id-gap"]
    assert gap.message == "station ids are not 1..9: missing 3, 4, 6, 7, 8"
    spec = write_any_format(tmp_path / "b", "bristol", [1, 40], [(1, 40, "taxi")])
    (gap,) = [f for f in validate_map(spec).findings if f.code == "id-gap"]
    assert gap.message == "station ids are not 1..40: missing 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ..."


def test_large_map_memory_is_linear(tmp_path):
    """20,000 stations took 1.9 GB (quadratic); now well under half a gigabyte."""
    rng = random.Random(3)
    n = 20_000
    conns = [(i, rng.randrange(1, i), "taxi") for i in range(2, n + 1)]
    spec = write_any_format(tmp_path, "bristol", list(range(1, n + 1)), conns)
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
    spec = write_any_format(tmp_path / fmt, fmt, [], [])
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
    spec = write_any_format(tmp_path, fmt, [1, 2, 3], TRIANGLE, coords)
    r = cli("validate", str(spec))
    assert r.exit_code == 1 and "[coordinate-range]" in r.output and "out of range" in r.output


@pytest.mark.parametrize("fmt", ["pair", "bristol"])
@pytest.mark.parametrize("token", ["²", "٣", "1_0", "9" * 5000, "+-1"])
def test_odd_integer_tokens_in_text_maps(tmp_path, fmt, token, cli):
    spec = write_any_format(tmp_path, fmt, [1, 2, 3], TRIANGLE)
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
        spec = write_any_format(tmp_path / fmt, fmt, [1, 2, 3], TRIANGLE)
        assert [f for f in check_raw(read_map(spec)) if f.level == "error"] == []
