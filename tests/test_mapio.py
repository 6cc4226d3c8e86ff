"""Readers and writers: round trips of the London map, fuzzing for tracebacks."""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sy_tools.errors import MapError, MapFormatError
from sy_tools.formats.map_check import check_raw
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
