
"""JSON helpers shared by the map and record readers: duplicate-key detection, lists of
objects with their places, short quotes of bad values."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

from ..engine.budget import check_time

DUPLICATE_KEYS = "\x00duplicate-keys"


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    dups = []
    for k, v in pairs:
        if k in d:
            dups.append(k)
        d[k] = v
    if dups:
        d[DUPLICATE_KEYS] = dups
    return d

#: longest integer literal decoded as a number; longer ones become :class:`HugeNumber` (Python
#: refuses to convert more than 4,300 digits, and no station or count needs more than a few)
MAX_DIGITS = 400


class HugeNumber:
    """An integer literal too long to be any count or station: kept as its digit count, so a
    reader reports "expected a station number, got a number with 5000 digits"."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number with {self.digits} digits"

    __str__ = __repr__


def _parse_int(text: str) -> int | HugeNumber:
    digits = len(text) - text.startswith("-")
    return HugeNumber(digits) if digits > MAX_DIGITS else int(text)


def loads(text: str) -> Any:
    """``json.loads`` that marks an object's repeated keys under :data:`DUPLICATE_KEYS` and
    turns integers of more than :data:`MAX_DIGITS` digits into :class:`HugeNumber`."""
    return json.loads(text, object_pairs_hook=_pairs_hook, parse_int=_parse_int)


def scan(value: Any, where: str, bad: Callable[[str, str], None]) -> None:
    """Walk a decoded document once: report (and forget) repeated keys at every depth, and
    strings holding a lone surrogate (``"\\ud800"``: JSON can spell it, UTF-8 text cannot hold
    it, so it could never be printed or written back)."""
    stack = [(value, where)]
    n = 0
    while stack:
        n += 1
        if n & 4095 == 0:
            check_time()  # (a command's --time-limit covers reading a long record)
        v, w = stack.pop()
        if isinstance(v, dict):
            for k in pop_duplicates(v):
                bad(_at(w, k), f"key {show(k)} appears more than once")
            for k, item in v.items():
                if not is_text(k):
                    bad(w, f"a key holds a lone surrogate ({_escaped(k)}), which is not valid Unicode text")
                    continue
                stack.append((item, _at(w, k)))
        elif isinstance(v, list):
            stack.extend((item, f"{w}[{i}]") for i, item in enumerate(v))
        elif isinstance(v, str) and not is_text(v):
            bad(w, f"{_escaped(v)} holds a lone surrogate, which is not valid Unicode text")


def is_text(s: str) -> bool:
    """Whether ``s`` can be written as UTF-8 (no lone surrogates)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escaped(s: str) -> str:
    return clip(json.dumps(s), 40)


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def int_text(n: int) -> str:
    """``str(n)`` for an integer of any size (``str`` refuses more than 4,300 digits, a guard
    against hostile input that does not apply to counts we computed; ``Decimal`` converts them
    without it)."""
    if n.bit_length() < 14_000:
        return str(n)
    from decimal import Decimal

    return str(Decimal(n))


def clip(s: str, limit: int) -> str:
    """``s`` cut to ``limit`` characters (with a note of how long it was)."""
    if len(s) <= limit:
        return s
    return s[: limit - 30] + f"... ({len(s)} characters)"


def pop_duplicates(obj: dict[str, Any]) -> list[str]:
    """The keys ``obj`` had more than once (and forget the mark)."""
    return obj.pop(DUPLICATE_KEYS, [])


def objects(value: Any, where: str, what: str, bad: Callable[[str, str], None]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(place, object)`` for each object in the list ``value`` at ``where``; anything else is
    reported through ``bad(place, message)`` (``what`` names an element, e.g. "a station")."""
    if not isinstance(value, list):
        bad(where, f"expected a list, got {json_type_name(value)}")
        return
    for i, item in enumerate(value):
        place = f"{where}[{i}]"
        if isinstance(item, dict):
            yield place, item
        else:
            bad(place, f"{what} must be an object, got {show(item)}")


def json_type_name(v: Any) -> str:
    """A JSON value's type in words ("an object", "a list", "null" ...) for an error message."""
    if isinstance(v, HugeNumber):
        return repr(v)
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number"
    )


def show(v: Any) -> str:
    """A short quote of a value for an error message."""
    if isinstance(v, HugeNumber):
        return repr(v)
    try:
        s = json.dumps(v) if not isinstance(v, float) or math.isfinite(v) else repr(v)
    except (TypeError, ValueError, RecursionError):
        s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."


#: The name of 0.1 (``kind`` also meant a ticket kind and a file type).
kind = json_type_name
