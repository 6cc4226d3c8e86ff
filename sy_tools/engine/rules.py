
"""Rule parameters and presets.

``classic`` is what the seed rulebooks (1983 Ravensburger: Chinese, Serbian and Japanese texts)
agree on; ``2014`` is the 2014 edition.  Any field can be overridden from a record's
``"rules": {"preset": "classic", ...}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..errors import InputError
from .tickets import DETECTIVE_TICKET_KINDS, MRX_TICKET_KINDS

#: The values of rule fields that take one of a few words.
RULE_CHOICES: dict[str, tuple[str, ...]] = {"mrx_onto_detective": ("illegal", "caught"),
                                             "blocked_detective": ("waits", "out")}


@dataclass(frozen=True)
class Rules:
    """Everything that differs between editions and house rules."""

    name: str = "classic"
    #: each detective's starting tickets
    detective_tickets: Mapping[str, int] = field(
        default_factory=lambda: {"taxi": 10, "bus": 8, "underground": 4}
    )
    #: Mr. X's starting tickets (``black`` may be overridden by ``black_per_detective``)
    mrx_tickets: Mapping[str, int] = field(
        default_factory=lambda: {"taxi": 4, "bus": 3, "underground": 3, "black": 5, "double": 2}
    )
    #: Chinese text: Mr. X gets one black ticket per detective instead of ``mrx_tickets['black']``
    black_per_detective: bool = False
    #: used detective tickets go to Mr. X (he may use them from his next move on)
    tickets_to_mrx: bool = True
    #: Mr. X shows himself after these moves (counted per travel-log entry)
    reveal_moves: tuple[int, ...] = (3, 8, 13, 18, 24)
    #: Mr. X wins when his travel log is full and the detectives' round after it is done
    log_length: int = 24
    #: double moves: at most this many per game (and no more than his double tickets) ...
    double_moves_per_game: int = 2
    #: ... and per round (a double move is two legs, so 1 means "one double move per round")
    double_moves_per_round: int = 1
    #: start deck Mr. X draws from (a key of the map's ``start_decks``)
    mrx_deck: str = "classic"
    #: start deck the detectives draw from
    detective_deck: str = "classic"
    #: Mr. X with no legal move loses (Japanese text, 2014); otherwise he passes
    trapped_loses: bool = True
    #: a detective with no legal move when its turn comes: ``waits`` (the 1983 texts: it skips
    #: the turn, and is out for good only when no ticket it holds rides a line from its station)
    #: or ``out`` (out for the rest of the game whatever stopped it); :meth:`stuck_is_out`
    blocked_detective: str = "waits"
    #: Mr. X moving onto a detective: ``illegal`` (classic) or ``caught`` (Serbian text: he may,
    #: and the detectives win at once)
    mrx_onto_detective: str = "illegal"
    #: Chinese advanced rule: Mr. X's bus/underground hop may not pass over a detective (needs
    #: the map's ``via`` data)
    cutoff_escape: bool = False
    #: Chinese advanced rule: besides the fixed reveals Mr. X may show himself on any move and
    #: take one ticket of his choice from one detective
    voluntary_reveal: bool = False

    def is_reveal(self, move: int) -> bool:
        """Whether Mr. X's ``move``-th travel-log entry (1-based) is shown."""
        return move in self.reveal_moves

    def next_reveal(self, move: int) -> int | None:
        """The first reveal move after ``move``, or None."""
        later = [m for m in self.reveal_moves if m > move]
        return min(later) if later else None

    def stuck_is_out(self, can_ride: bool) -> bool:
        """The ``blocked_detective`` rule, decided here only: whether a detective with no legal
        move when its turn comes is out for the rest of the game.  ``can_ride``: some ticket it
        holds rides a line from its station (it would have a move on an empty board, so only
        other detectives stand in its way).  Under ``out`` it is out either way; under ``waits``
        only when it cannot ride, since its station and tickets never change again; otherwise it
        skips this turn and moves again once a move opens up."""
        return self.blocked_detective == "out" or not can_ride

    def mrx_start_tickets(self, n_detectives: int) -> dict[str, int]:
        """Mr. X's tickets at the start of a game with ``n_detectives``."""
        t = dict(self.mrx_tickets)
        if self.black_per_detective:
            t["black"] = n_detectives
        return t

    def overrides(self) -> tuple[str, dict[str, Any]]:
        """``(preset name, {field: value})``: the preset these rules start from and every field
        they change (in the JSON form of ``sy-tools rules --format json``)."""
        name = self.name.rstrip("+")
        have, ref = self.to_dict(), PRESETS.get(name, PRESETS["classic"]).to_dict()
        return name, {k: v for k, v in have.items() if k != "name" and v != ref[k]}

    def to_record(self) -> str | dict[str, Any]:
        """A record's ``rules`` value: the preset's name, or ``{"preset": NAME, overrides}``."""
        name, over = self.overrides()
        return {"preset": name, **over} if over else name

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (also what ``sy-tools rules`` prints)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = dict(v) if isinstance(v, Mapping) else list(v) if isinstance(v, tuple) else v
        return out

PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "2014": Rules(
        name="2014",
        detective_tickets={"taxi": 11, "bus": 8, "underground": 4},
        mrx_deck="2014-mrx",
        detective_deck="2014-detectives",
    ),
}


def preset(name: str) -> Rules:
    """A preset by name; :class:`InputError` naming the presets otherwise."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown rules preset {name!r}, expected one of {', '.join(PRESETS)}") from None


def rules_from_json(value: Any, where: str = "rules", file: str | None = None) -> Rules:
    """Rules from a record's ``rules`` value: a preset name or ``{"preset": ..., overrides}``, or
    what ``sy-tools rules --format json`` prints (every field, the preset named by ``name``)."""

    def bad(msg: str, at: str = "") -> InputError:
        return InputError(msg, file, where + at)

    if value is None:
        return PRESETS["classic"]
    if isinstance(value, str):
        if value not in PRESETS:
            hint = " (a JSON text? pass json.loads(text), the object)" if value.lstrip().startswith("{") else ""
            shown = value if len(value) <= 60 else value[:57] + "..."
            raise bad(f"unknown rules preset {shown!r}, expected one of {', '.join(PRESETS)}{hint}")
        return PRESETS[value]
    if not isinstance(value, dict):
        raise bad(f"expected a preset name or an object, got {type(value).__name__}")
    key = "preset"
    if "preset" not in value and "name" in value:  # ``sy-tools rules --format json``: the preset's name
        key = "name"
        value = {"preset": value["name"], **{k: v for k, v in value.items() if k != "name"}}
    base_name = value.get("preset", "classic")
    if not isinstance(base_name, str) or base_name not in PRESETS:
        what = " (the preset the other fields change)" if key == "name" else ""
        raise bad(f"unknown rules preset {base_name!r}{what}, expected one of {', '.join(PRESETS)}", f".{key}")
    base = PRESETS[base_name]
    names = {f.name for f in fields(Rules)} - {"name"}
    changes: dict[str, Any] = {}
    for k, v in value.items():
        if k == "preset":
            continue
        if k not in names:
            raise bad(f"unknown rule {k!r} (expected one of {', '.join(sorted(names))})", f".{k}")
        current = getattr(base, k)
        if isinstance(current, bool):
            if not isinstance(v, bool):
                raise bad(f"expected true or false, got {v!r}", f".{k}")
        elif isinstance(current, int):
            if k == "log_length" and not (_nat(v) and v >= 1):
                raise bad(f"expected a positive integer, got {v!r}", f".{k}")
            if not _nat(v):
                raise bad(f"expected a non-negative integer, got {v!r}", f".{k}")
        elif k in RULE_CHOICES:
            if v not in RULE_CHOICES[k]:
                raise bad(f"expected one of {', '.join(RULE_CHOICES[k])}, got {v!r}", f".{k}")
        elif isinstance(current, str):
            if not isinstance(v, str):
                raise bad(f"expected a string, got {v!r}", f".{k}")
        elif isinstance(current, tuple):
            if not isinstance(v, list) or not all(_nat(x) and x > 0 for x in v):
                raise bad(f"expected a list of positive move numbers, got {v!r}", f".{k}")
            v = tuple(sorted(set(v)))
        elif isinstance(current, Mapping):
            kinds = MRX_TICKET_KINDS if k == "mrx_tickets" else DETECTIVE_TICKET_KINDS
            v = ticket_counts(v, kinds, current, where + f".{k}", file)
        if v != current:  # (a field as the preset has it is no change: an unedited file is the preset)
            changes[k] = v
    return replace(base, name=base.name + ("+" if changes else ""), **changes)


#: The most tickets of one kind a player may hold: 18 digits, what the text notation reads (so a
#: record that holds more could be written out but never read back).
MAX_TICKETS = 10**18 - 1


def ticket_counts(
    value: Any, kinds: tuple[str, ...], base: Mapping[str, int], where: str, file: str | None
) -> dict[str, int]:
    """Ticket counts from JSON: an object ``{kind: n}`` over ``kinds``, each from 0 to
    :data:`MAX_TICKETS`; missing kinds keep ``base``."""
    if not isinstance(value, dict):
        raise InputError(f"expected an object of ticket counts, got {type(value).__name__}", file, where)
    out = dict(base)
    for k, n in value.items():
        if k not in kinds:
            raise InputError(f"unknown ticket {k!r} (expected {', '.join(kinds)})", file, f"{where}.{k}")
        if not _nat(n):
            raise InputError(f"expected a non-negative integer, got {n!r}", file, f"{where}.{k}")
        if n > MAX_TICKETS:
            raise InputError(f"expected at most {MAX_TICKETS} tickets (18 digits), got {n}", file, f"{where}.{k}")
        out[k] = n
    return out


def _nat(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0

#: The rule fields the counting methods and :func:`random_playout` model.  Any other field of
#: :class:`Rules` away from its default (a variant that changes where Mr. X may go, or adds moves)
#: makes them fall back to listing :attr:`Position.legal_moves` and the reference loop.
COUNTED_RULE_FIELDS = frozenset({
    "name", "detective_tickets", "mrx_tickets", "black_per_detective", "tickets_to_mrx", "reveal_moves",
    "log_length", "double_moves_per_game", "double_moves_per_round", "mrx_deck", "detective_deck",
    "trapped_loses", "blocked_detective"})

_DEFAULT_RULES = Rules()


def unmodelled_rule_fields(rules: Rules) -> list[str]:
    """The fields of ``rules`` outside :data:`COUNTED_RULE_FIELDS` that are away from their
    defaults (the simulator refuses such rules; the counting methods fall back)."""
    return [f.name for f in fields(rules)
            if f.name not in COUNTED_RULE_FIELDS and getattr(rules, f.name) != getattr(_DEFAULT_RULES, f.name)]


def counting_models(rules: Rules) -> bool:
    """Whether the counting fast paths model ``rules`` (every field outside
    :data:`COUNTED_RULE_FIELDS` at its default)."""
    return not unmodelled_rule_fields(rules)
