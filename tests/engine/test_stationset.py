"""StationSet behaves as a set of stations (against Python's set), with bitmask algebra."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sy_tools.engine.stations import StationSet, mask_of, stations_of

stations = st.sets(st.integers(min_value=0, max_value=400), max_size=40)


@given(stations, stations)
def test_set_protocol_and_algebra_match_python_sets(a, b):
    sa, sb = StationSet.of(a), StationSet.of(b)
    assert list(sa) == sorted(a) and len(sa) == len(a) and bool(sa) == bool(a)
    assert all(s in sa for s in a) and 401 not in sa and -1 not in sa and "x" not in sa
    assert set(sa | sb) == a | b and set(sa & sb) == a & b and set(sa - sb) == a - b and set(sa ^ sb) == a ^ b
    assert (sa == sb) == (a == b) and (sa <= sb) == (a <= b)
    assert sa == a and StationSet(sa.mask) == sa and hash(StationSet(sa.mask)) == hash(sa)
    assert set(sa | b) == a | b  # mixes with plain sets
    assert mask_of(a) == sa.mask and stations_of(sa.mask) == sorted(a)
    assert repr(StationSet.of([3, 1])) == "StationSet([1, 3])"
