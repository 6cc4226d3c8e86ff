"""The option-value parsers of :mod:`sy_tools.formats.values`: one station-list parser behind
``--around``, ``--from`` and ``--starts`` (each keeping its own reading and messages), the
detectives, ticket counts and figure sizes; and that every option that uses them says the same."""

from __future__ import annotations

import pytest

from sy_tools.errors import InputError
from sy_tools.formats import values
from sy_tools.formats.values import (
    around_stations,
    check_pixels,
    figure_size,
    from_stations,
    named_stations,
    parse_starts,
    parse_stations,
    parse_ticket_counts,
    plain_number,
    puzzle_values,
    short_quote,
)


def _error(call, *args, **kw) -> str:
    with pytest.raises(InputError) as e:
        call(*args, **kw)
    return str(e.value)


def test_plain_number_is_ascii_digits_only():
    assert plain_number(" 13 ") == 13
    assert plain_number("²") is None and plain_number("١") is None and plain_number("-1") is None
    assert plain_number("1" * 9) == int("1" * 9) and plain_number("1" * 10) is None
    assert plain_number("12345", digits=4) is None


def test_short_quote_cuts_long_values():
    assert short_quote("abc") == "'abc'"
    assert short_quote("x" * 50) == repr("x" * 37) + "..."


def test_parse_stations_reads_comma_lists():
    assert parse_stations("45,46, 58", "--around") == [45, 46, 58]
    assert parse_stations("45,,46,", "--around") == [45, 46]
    assert parse_stations("", "--x", required=False) == []


@pytest.mark.parametrize("value, message", [
    ("45,x", "--around: expected station numbers separated by commas, got '45,x'"),
    ("", "--around: expected at least one station"),
    (",", "--around: expected at least one station"),
    ("1234567890", "--around: expected station numbers separated by commas, got '1234567890'"),
    ("45," + "9" * 60, "--around: expected station numbers separated by commas, got '45,"),
])
def test_around_errors(value, message):
    assert _error(around_stations, value).startswith(message)


def test_around_drops_spaces_as_it_always_did():
    assert around_stations("4 5, 46") == [45, 46]
    assert "got '45,\\t'" in _error(around_stations, "45,\t")  # other blanks are no station


def test_from_reads_repeated_options_and_quotes_the_bad_item():
    assert from_stations(("13,46", " 58 ")) == [13, 46, 58]
    assert from_stations(()) == [] and from_stations(("",)) == []
    assert _error(from_stations, ("13,x",)) == "--from: expected station numbers, e.g. 13 or 13,46, got 'x'"
    assert _error(from_stations, ("13", "y" * 60)) == ("--from: expected station numbers, e.g. 13 or 13,46, "
                                                       f"got {'y' * 40!r}")


def test_starts_keeps_pythons_int_reading():
    assert parse_starts(None) is None and parse_starts("classic") == "classic" and parse_starts("2014") == "2014"
    assert parse_starts("166, 146") == (166, 146)
    assert parse_starts("-5") == (-5,)  # (refused later, naming the map)
    assert parse_starts("1_66") == (166,)
    assert _error(parse_starts, "12,x") == "--starts: expected classic, 2014 or stations like 166,146, got '12,x'"
    assert _error(parse_starts, "z" * 60).endswith(f"got {'z' * 60!r}")  # the whole value, uncut
    assert _error(parse_starts, "") == "--starts: expected at least one station"


@pytest.mark.parametrize("value, message", [
    ("Red=100,Red=114", "--detectives: detective 'Red' is named twice"),
    ("=100", "--detectives: expected NAME=STATION (e.g. Red=13), got '=100'"),
    ("13", "--detectives: expected NAME=STATION (e.g. Red=13), got '13'"),
    ("Red=²", "--detectives: expected NAME=STATION"),
    ("R\x01=13", "--detectives: a detective's name must be printable text"),
])
def test_named_stations_errors(value, message):
    assert _error(named_stations, value).startswith(message)


def test_named_stations_keep_turn_order():
    assert named_stations(" Red = 13 ,Blue=26,") == [("Red", 13), ("Blue", 26)]


def test_ticket_counts():
    kinds = ("taxi", "bus")
    assert parse_ticket_counts("taxi=3, bus=0", "--tickets", kinds) == {"taxi": 3, "bus": 0}
    assert _error(parse_ticket_counts, "taxi=1,taxi=2", "--tickets", kinds) == "--tickets: taxi is given twice"
    for bad in ("boat=1", "taxi=x", "taxi=10000", "taxi"):
        assert _error(parse_ticket_counts, bad, "--tickets", kinds).startswith(
            "--tickets: expected KIND=COUNT with KIND in taxi, bus and COUNT 0..9999, got ")


def test_puzzle_values_reads_the_flags_in_order():
    p = puzzle_values("45,46", "Red=13", "taxi=2", "double=1")
    assert p == ([45, 46], [("Red", 13)], {"taxi": 2}, {"double": 1})
    assert puzzle_values(None, None, None, None) == (None, [], None, None)
    assert _error(puzzle_values, "x", "=1", None, None).startswith("--around:")  # --around first
    assert _error(puzzle_values, "1", "Red=1", None, "taxi=x").startswith("--mrx-tickets:")


def test_figure_size_and_pixels():
    assert figure_size(None) is None and figure_size("16X12") == (16.0, 12.0)
    assert _error(figure_size, "big") == "--size: expected WIDTHxHEIGHT in inches (e.g. 16x12), got 'big'"
    assert _error(figure_size, "1000x2") == "--size: each side must be 0.5 to 100 inches, got '1000x2'"
    check_pixels(None, None)
    assert _error(check_pixels, None, 1000).startswith("--size: 16x12 inches at 1000 dpi is 192 million pixels")
    assert _error(check_pixels, (100.0, 100.0), 600) == (
        "--size: 100x100 inches at 600 dpi is 3600 million pixels; at most 100 million (lower --size or --dpi)")


def test_plot_uses_the_option_constants():
    from sy_tools.plot import style

    assert style.LAYERS is values.HEATMAP_LAYERS and style.DEFAULT_SIZE == values.DEFAULT_FIGURE_SIZE
    assert style.FORMATS is values.IMAGE_FORMATS and style.DEFAULT_DPI == values.DEFAULT_DPI


# the same parsers, through every option that uses them (one message per mistake, exit 2)

@pytest.mark.parametrize("args, message", [
    (["cordon", "--around", "45,x", "--detectives", "Red=100"],
     "error: --around: expected station numbers separated by commas, got '45,x'"),
    (["solve", "--around", "45,x", "--detectives", "Red=100"],
     "error: --around: expected station numbers separated by commas, got '45,x'"),
    (["advise", "--around", "45,x", "--detectives", "Red=100"],
     "error: --around: expected station numbers separated by commas, got '45,x'"),
    (["cordon", "--around", "", "--detectives", "Red=100"], "error: --around: expected at least one station"),
    (["heatmap", "--layer", "reach", "--from", "13,x"],
     "error: --from: expected station numbers, e.g. 13 or 13,46, got 'x'"),
    (["simulate", "-n", "1", "--starts", "12,x"],
     "error: --starts: expected classic, 2014 or stations like 166,146, got '12,x'"),
    (["simulate", "-n", "1", "--starts", ","], "error: --starts: expected at least one station"),
    (["cordon", "--around", "45", "--detectives", "Red=1,Red=2"], "error: --detectives: detective 'Red' is named twice"),
    (["solve", "--around", "45", "--detectives", "Red=1,Red=2"], "error: --detectives: detective 'Red' is named twice"),
    (["advise", "--around", "45", "--detectives", "Red=1,Red=2"], "error: --detectives: detective 'Red' is named twice"),
    (["solve", "--around", "45", "--detectives", "Red=1", "--tickets", "taxi=x"],
     "error: --tickets: expected KIND=COUNT with KIND in taxi, bus, underground and COUNT 0..9999, got 'taxi=x'"),
    (["advise", "--around", "45", "--detectives", "Red=1", "--mrx-tickets", "boat=1"],
     "error: --mrx-tickets: expected KIND=COUNT with KIND in taxi, bus, underground, black, double and COUNT "
     "0..9999, got 'boat=1'"),
    (["heatmap", "--layer", "reach", "--from", "13", "--piece-tickets", "bus=x"],
     "error: --piece-tickets: expected KIND=COUNT with KIND in taxi, bus, underground, black and COUNT 0..9999, got "
     "'bus=x'"),
    (["heatmap", "--size", "big"], "error: --size: expected WIDTHxHEIGHT in inches (e.g. 16x12), got 'big'"),
])
def test_every_option_reports_through_the_one_parser(cli, tmp_path, args, message):
    if args[0] == "heatmap":
        args = [*args, "-o", str(tmp_path / "x.png")]
    r = cli(*args)
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == message
