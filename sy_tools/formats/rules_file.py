"""Reading rules: a preset's name or a rules JSON file."""

from __future__ import annotations

from ..engine.rules import PRESETS, Rules, rules_from_json
from ..errors import InputError

#: The most bytes a rules file may hold: every field of a preset fits in about 1 kB, so anything
#: near this is not a rules file (and would cost a command's time limit, and memory, to parse).
MAX_RULES_BYTES = 1 << 20


def load_rules(spec: str, option: str = "--rules") -> Rules:
    """Rules named on a command line: a preset name, or a JSON file holding a preset name or
    ``{"preset": ..., overrides}`` (what ``sy-tools rules PRESET --format json`` prints, edited).
    Bad input is an :class:`InputError` naming the file and the JSON place."""
    import os

    from . import jsonutil
    from .files import read_text

    if spec in PRESETS:
        return PRESETS[spec]
    if not os.path.exists(spec):
        hint = " (a JSON text? write it to a file, or pass json.loads(text) to rules_from_json)" \
            if spec.lstrip().startswith("{") else ""
        raise InputError(f"unknown rules preset {spec[:60]!r} and no such file (presets: {', '.join(PRESETS)}){hint}",
                         where=option)
    text = read_text(spec, limit=MAX_RULES_BYTES)
    try:
        raw = jsonutil.loads(text)
    except (ValueError, RecursionError) as e:
        raise InputError(f"invalid JSON: {str(e)[:200]}", spec) from None
    problems: list[tuple[str, str]] = []
    jsonutil.scan(raw, "rules", lambda where, msg: problems.append((where, msg)))
    if problems:
        raise InputError(problems[0][1], spec, problems[0][0])
    return rules_from_json(raw, "rules", spec)
