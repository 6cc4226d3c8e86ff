
"""Plain-text tables and JSON output shared by the commands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[bool] | None = None) -> str:
    """An aligned text table.  Numbers are right-aligned unless ``right`` says otherwise."""
    cells = [[str(h) for h in headers]] + [[_cell(v) for v in r] for r in rows]
    if right is None:
        right = [bool(rows) and all(isinstance(r[i], (int, float)) for r in rows) for i in range(len(headers))]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        parts = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right)]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4f}"
    return str(v)


def dumps(obj: Any) -> str:
    """Stable JSON: keys in the order the result defines them, two-space indent."""
    return json.dumps(obj, indent=2, ensure_ascii=False)


def json_line(obj: Any) -> str:
    """One compact JSON line (msgspec's C encoder when installed: a batch prints thousands)."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return msgspec.json.encode(obj).decode()


def json_text(obj: Any) -> str:
    """Indented JSON, as :func:`dumps` writes it, but fast for long histories."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover
        return dumps(obj)
    return msgspec.json.format(msgspec.json.encode(obj), indent=2).decode()


def indented(text: str, prefix: str = "  ") -> str:
    """Every line of ``text`` indented by ``prefix`` (an element of a JSON list printed by hand)."""
    return "\n".join(prefix + line for line in text.split("\n"))
