"""Option values typed on a command line: lists of stations, detectives with their stations,
ticket counts, Mr. X's start decks, figure sizes.

Each parser raises one :class:`InputError` line naming the option (``--around: expected ...``).
The station-list options keep the readings and messages they have always had (see
:func:`parse_stations`), so one parser serves ``--around``, ``--from`` and ``--starts``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple

from ..engine.tickets import DETECTIVE_TICKET_KINDS, MRX_TICKET_KINDS
from ..errors import InputError

#: Mr. X's named start decks for ``--starts`` (else a list of his start stations).
START_DECKS = ("classic", "2014")

#: What ``--around`` (and the puzzle flags) expect of a station list.
STATIONS_EXPECTED = "station numbers separated by commas"

#: What ``--starts`` expects.
STARTS_EXPECTED = "classic, 2014 or stations like 166,146"

#: Longest station number an option reads (more digits are no station).
STATION_DIGITS = 9


def short_quote(text: str, limit: int = 40) -> str:
    """``repr`` of an option value, shortened for an error line."""
    return repr(text) if len(text) <= limit else repr(text[: limit - 3]) + "..."


def plain_number(text: str, digits: int = STATION_DIGITS) -> int | None:
    """A plain decimal number of at most ``digits`` digits, else None (``isdigit`` alone would
    also pass ``²`` and other scripts' digits)."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def python_int(text: str) -> int | None:
    """The number as Python's ``int`` reads it (signs, ``_``), else None: the reading ``--starts``
    has always had (a station off the map is refused later), in ASCII digits only (``int``
    also takes fullwidth or Arabic-Indic digits, which no other reader here does)."""
    if not text.isascii():
        return None
    try:
        return int(text)
    except ValueError:
        return None


def parse_stations(value: str, option: str, *, expected: str = STATIONS_EXPECTED,
                   read: Callable[[str], int | None] = plain_number,
                   quote: Callable[[str], str] = short_quote, quote_item: bool = False,
                   required: bool = True, drop_spaces: bool = False) -> list[int]:
    """The stations in a comma-separated list (empty items skipped).

    A bad item is ``expected {expected}, got {quote(...)}``, quoting the whole value, or the
    item with ``quote_item``; a list of none is "expected at least one station" when
    ``required``.  ``read`` turns an item into a number (None: bad); ``drop_spaces`` removes
    every space first (``--around 45, 46``), as the puzzle flags always did."""
    out: list[int] = []
    for item in (value.replace(" ", "") if drop_spaces else value).split(","):
        stripped = item.strip()
        if not (item if drop_spaces else stripped):
            continue
        n = read(stripped)
        if n is None:
            raise InputError(f"expected {expected}, got {quote(stripped if quote_item else value)}", where=option)
        out.append(n)
    if required and not out:
        raise InputError("expected at least one station", where=option)
    return out


def around_stations(value: str, option: str = "--around") -> list[int]:
    """``--around 45,46,58``: Mr. X's possible stations in puzzle mode."""
    return parse_stations(value, option, drop_spaces=True)


def _first_40(text: str) -> str:
    return repr(text[:40])


def from_stations(values: tuple[str, ...] | list[str], option: str = "--from") -> list[int]:
    """A repeatable option that also takes comma lists (``--from 13,46 --from 58``); none given
    is an empty list."""
    return [n for v in values for n in parse_stations(v, option, expected="station numbers, e.g. 13 or 13,46",
                                                       quote=_first_40, quote_item=True, required=False)]


def parse_starts(value: str | None, option: str = "--starts") -> str | tuple[int, ...] | None:
    """``--starts``: a start deck name (:data:`START_DECKS`), a comma-separated list of Mr. X's
    start stations, or None (the rules' decks)."""
    if value is None or value in START_DECKS:
        return value
    return tuple(parse_stations(value, option, expected=STARTS_EXPECTED, read=python_int, quote=repr))


def named_stations(value: str, option: str = "--detectives") -> list[tuple[str, int]]:
    """``--detectives Red=13,Blue=26``: ``(name, station)`` pairs in turn order (a name given
    twice is refused)."""
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    for part in value.split(","):
        if not part.strip():
            continue
        name, eq, st = part.strip().partition("=")
        name = name.strip()
        n = plain_number(st) if eq else None  # (a bare number is not a detective: 'simulate' counts them)
        if n is None or not name:
            raise InputError(f"expected NAME=STATION (e.g. Red=13), got {short_quote(part.strip())}", where=option)
        if not name.isprintable():
            raise InputError(f"a detective's name must be printable text, got {short_quote(name)}", where=option)
        if name in seen:
            raise InputError(f"detective {short_quote(name)} is named twice", where=option)
        seen.add(name)
        out.append((name, n))
    return out


#: Most digits of a ticket count (9999 tickets).
COUNT_DIGITS = 4


def parse_ticket_counts(value: str, option: str, kinds: tuple[str, ...]) -> dict[str, int]:
    """``--tickets taxi=10,bus=8``: a count per ticket kind, each kind one of ``kinds`` and given
    once."""
    out: dict[str, int] = {}
    for part in (p for p in value.split(",") if p.strip()):
        k, eq, n = part.strip().partition("=")
        count = plain_number(n, COUNT_DIGITS) if eq else None
        if k not in kinds or count is None:
            raise InputError(f"expected KIND=COUNT with KIND in {', '.join(kinds)} and COUNT 0..9999, got "
                             f"{short_quote(part.strip())}", where=option)
        if k in out:
            raise InputError(f"{k} is given twice", where=option)
        out[k] = count
    return out


class PuzzleValues(NamedTuple):
    """A position typed in with the puzzle flags (:func:`puzzle_values`)."""

    #: ``--around``: Mr. X's possible stations (None: not given)
    around: list[int] | None
    #: ``--detectives``: (name, station) in turn order
    detectives: list[tuple[str, int]]
    #: ``--tickets``: each detective's tickets (None: the rules' starting tickets)
    tickets: dict[str, int] | None
    #: ``--mrx-tickets``: Mr. X's tickets (None: the rules' starting tickets)
    mrx_tickets: dict[str, int] | None


def puzzle_values(around: str | None, detectives: str | None, tickets: str | None,
                  mrx_tickets: str | None) -> PuzzleValues:
    """The puzzle flags ``--around``, ``--detectives``, ``--tickets``, ``--mrx-tickets`` as
    typed (None or empty: not given), read in that order."""
    return PuzzleValues(
        around_stations(around) if around is not None else None,
        named_stations(detectives) if detectives else [],
        parse_ticket_counts(tickets, "--tickets", DETECTIVE_TICKET_KINDS) if tickets else None,
        parse_ticket_counts(mrx_tickets, "--mrx-tickets", MRX_TICKET_KINDS) if mrx_tickets else None,
    )


#: The heatmap layers (``sy-tools heatmap --layer``; :mod:`sy_tools.plot` draws them).
HEATMAP_LAYERS = ("possible", "history", "reach", "coverage", "cordon", "winrate", "story")

#: Image formats a figure is written in, by file suffix.
IMAGE_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}

#: The story layer writes these too: an animated GIF (a frame a round), a PDF a page a round.
STORY_FORMATS = {".gif": "gif", **IMAGE_FORMATS}


def picture_format(path: str | os.PathLike[str], story: bool = False) -> str:
    """The format a picture written to ``path`` takes, from its suffix (the story layer's when
    ``story``); an :class:`InputError` naming the formats written otherwise."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    fmt = (STORY_FORMATS if story else IMAGE_FORMATS).get(suffix)
    if fmt is not None:
        return fmt
    shown = repr(suffix or "(none)")
    if story:
        raise InputError(f"unknown story format {shown}: the story is written as .gif (an animation, a frame a round), "
                         ".pdf (a page a round), .png or .svg (its last round)", os.fspath(path))
    also = " (.gif with --layer story)" if suffix == ".gif" else ""
    raise InputError(f"unknown image format {shown}, expected .png, .svg or .pdf{also}", os.fspath(path))

#: A figure's size in inches and its dots per inch when the options do not say.
DEFAULT_FIGURE_SIZE = (16.0, 12.0)
DEFAULT_DPI = 100

#: Figure sides ``--size`` accepts, in inches.
FIGURE_SIDES = (0.5, 100.0)

#: Most pixels a figure may have (``--size`` times ``--dpi`` squared).
MAX_PIXELS = 100e6


def figure_size(value: str | None, option: str = "--size") -> tuple[float, float] | None:
    """``--size 16x12``: a figure's width and height in inches (None: not given)."""
    if value is None:
        return None
    w, _, h = value.lower().partition("x")
    try:
        if not value.isascii():  # (float() also reads fullwidth and other scripts' digits)
            raise ValueError
        size = (float(w), float(h))
    except ValueError:
        raise InputError(f"expected WIDTHxHEIGHT in inches (e.g. 16x12), got {value[:40]!r}", where=option) from None
    low, high = FIGURE_SIDES
    if not all(low <= v <= high for v in size):
        raise InputError(f"each side must be {low:g} to {high:g} inches, got {value[:40]!r}", where=option)
    return size


def check_pixels(size: tuple[float, float] | None, dpi: int | None, option: str = "--size") -> None:
    """Refuse a figure of more than :data:`MAX_PIXELS` pixels (it would take gigabytes); None is
    the default size or dpi."""
    w, h = size or DEFAULT_FIGURE_SIZE
    dpi = dpi or DEFAULT_DPI
    pixels = w * h * dpi ** 2
    if pixels > MAX_PIXELS:
        raise InputError(f"{w:g}x{h:g} inches at {dpi} dpi is {pixels / 1e6:.0f} million pixels; at most "
                         f"{MAX_PIXELS / 1e6:.0f} million (lower --size or --dpi)", where=option)
