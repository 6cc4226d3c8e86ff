"""A library call's arguments checked at the boundary, as the command line checks its options:
one clear :class:`~sy_tools.errors.ArgumentTypeError` (a :class:`TypeError`) or
:class:`~sy_tools.errors.InputError` (a :class:`ValueError`) naming the argument and its value.

:func:`integer` is the one reading of "an integer" everywhere (a station, a count, a number of
moves): an ``int`` or anything :func:`operator.index` takes (numpy's integers), never a bool, a
float or a string."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import ArgumentTypeError, InputError


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters; never raises (a caller's or a
    plug-in's value may be anything)."""
    try:
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError
    except Exception:  # a hostile __repr__
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def integer(value: Any) -> int | None:
    """``value`` as a plain ``int`` when it is an integer (an ``int``, or anything
    :func:`operator.index` takes, e.g. numpy's ``int64``; not a bool), else None.  Never raises:
    an ``__index__`` that fails (whatever it raises) makes it not an integer."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        n = operator.index(value)
    except Exception:
        return None
    return int(n)


def instance_arg(value: Any, kind: type, name: str, hint: str = "") -> None:
    """:class:`ArgumentTypeError` naming ``name`` unless ``value`` is a ``kind`` (``hint``: how to
    get one, e.g. "load it with sy_tools.load_record(path)")."""
    if not isinstance(value, kind):
        raise ArgumentTypeError(f"{name} must be a {kind.__name__}{f' ({hint})' if hint else ''}, got {shown(value)}")


def int_arg(value: Any, name: str, minimum: int | None = None) -> int:
    """``value`` as a plain ``int`` (:func:`integer`), at least ``minimum`` when given;
    :class:`ArgumentTypeError` or :class:`InputError` naming ``name`` otherwise."""
    n = integer(value)
    if n is None:
        raise ArgumentTypeError(f"{name} must be an integer, got {shown(value)}")
    if minimum is not None and n < minimum:
        raise InputError(f"{name} must be at least {minimum}, got {n}")
    return n


def station_args(values: Iterable[Any], name: str) -> list[int]:
    """Stations given as integers (numpy's too), each a plain non-negative ``int``; whether they
    are on the map is the caller's to say."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ArgumentTypeError(f"{name} must be a list of stations, got {shown(values)}")
    return [int_arg(v, f"{name}: a station", 0) for v in values]


def count_args(counts: Mapping[str, Any] | None, name: str, kinds: Iterable[str]) -> dict[str, int] | None:
    """A table of ticket counts (kind -> count) with every kind one of ``kinds`` and every count
    a non-negative integer (numpy's too), as plain ``int`` s; None stays None."""
    if counts is None:
        return None
    if not isinstance(counts, Mapping):
        raise ArgumentTypeError(f"{name} must be a mapping of ticket kind to count, got {shown(counts)}")
    allowed = tuple(kinds)
    out: dict[str, int] = {}
    for kind, n in counts.items():
        if kind not in allowed:
            raise InputError(f"{name}: unknown ticket kind {shown(kind)} (expected {', '.join(allowed)})")
        out[kind] = int_arg(n, f"{name}[{kind!r}]", 0)
    return out
