"""JSON helpers shared by the map and record readers: duplicate-key detection, lists of
objects with their places, short quotes of bad values."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

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


def loads(text: str) -> Any:
    """``json.loads`` that marks an object's repeated keys under :data:`DUPLICATE_KEYS`."""
    return json.loads(text, object_pairs_hook=_pairs_hook)


def pop_duplicates(obj: dict[str, Any]) -> list[str]:
    """The keys ``obj`` had more than once (and forget the mark)."""
    return obj.pop(DUPLICATE_KEYS, [])


def objects(value: Any, where: str, what: str, bad: Callable[[str, str], None]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(place, object)`` for each object in the list ``value`` at ``where``; anything else is
    reported through ``bad(place, message)`` (``what`` names an element, e.g. "a station")."""
    if not isinstance(value, list):
        bad(where, f"expected a list, got {kind(value)}")
        return
    for i, item in enumerate(value):
        place = f"{where}[{i}]"
        if isinstance(item, dict):
            yield place, item
        else:
            bad(place, f"{what} must be an object, got {show(item)}")


def kind(v: Any) -> str:
    """A JSON value's kind in words."""
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number"
    )


def show(v: Any) -> str:
    """A short quote of a value for an error message."""
    try:
        s = json.dumps(v) if not isinstance(v, float) or math.isfinite(v) else repr(v)
    except (TypeError, ValueError):
        s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."
