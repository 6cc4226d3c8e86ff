
"""Shared click options: one decorator per shared flag, so a flag means the same thing in every
command (sqlite-utils' ``output_options``).  Old spellings stay as hidden aliases."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from ..engine.budget import MAX_SECONDS
from ..engine.tickets import MRX_MOVE_TICKETS

F = TypeVar("F", bound=Callable[..., Any])

#: The text output is called ``text`` everywhere (``table`` is a hidden alias).
FORMAT_ALIASES = {"table": "text"}

#: Map file formats a reader understands.
MAP_FORMATS = ("json", "pair", "bristol")

#: The tickets a piece may show, as choices (``--after``, ``--ticket``, ``--piece-tickets``).
TICKET_CHOICES = tuple(t.value for t in MRX_MOVE_TICKETS)


class AliasChoice(click.Choice):
    """A choice that also accepts old spellings (``aliases``), not shown in ``--help``."""

    def __init__(self, choices: Sequence[str], aliases: dict[str, str] | None = None) -> None:
        super().__init__(list(choices))
        self.aliases = {k: v for k, v in (aliases or {}).items() if v in choices}

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value in self.aliases:
            return self.aliases[value]
        return super().convert(value, param, ctx)


def format_option(*choices: str, default: str = "text") -> Callable[[F], F]:
    """``--format`` with ``choices`` (``text`` first, for people; ``json`` for scripts)."""
    return click.option("--format", "fmt", type=AliasChoice(choices, FORMAT_ALIASES), default=default,
                        show_default=True, help="Output format.")



class Seconds(click.ParamType):
    """A time limit: a finite positive number of seconds (``zero=True``: or 0), at most a day
    (nan, inf and 1e309 are refused, each with one line naming the option)."""

    name = "seconds"

    def __init__(self, zero: bool = False) -> None:
        self.zero = zero

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            t = value if isinstance(value, float) else float(str(value))
        except (TypeError, ValueError, OverflowError):
            t = math.nan
        if not math.isfinite(t) or t < 0 or (t == 0 and not self.zero) or t > MAX_SECONDS:
            what = "0 or a positive number" if self.zero else "a positive number"
            self.fail(f"expected {what} of seconds up to {MAX_SECONDS:g}, got {str(value)[:40]!r}", param, ctx)
        return t

SECONDS = Seconds()

#: A pause that may be none (``--pace``).
SECONDS_OR_ZERO = Seconds(zero=True)


class AsciiInt(click.IntRange):
    """click's integer (with an optional range) in ASCII digits only: ``int()`` also reads
    fullwidth (``４``) and Arabic-Indic (``٤``) digits, which no file reader here accepts."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"expected an integer in ASCII digits (0-9), got {value!r}", param, ctx)
        return super().convert(value, param, ctx)


def time_limit_option(default: float = 10.0, what: str = "the whole command", whole: bool = False) -> Callable[[F], F]:
    """``--time-limit SECONDS``: a bound on ``what``, model building included; with ``whole``
    the command runs under it as a :func:`~sy_tools.engine.budget.time_budget` counted from the
    command's start (:func:`~sy_tools.cli.app.command_started`), so reading the files its options
    name, replaying the record and loading the solver count too (the help then says so in one
    wording for every such command, and ``what`` is not used)."""
    if whole:  # (one wording for every command it bounds whole)
        what = ("the whole command, counted from its start: reading files and the record, loading the solver "
                "(under a second, never cut short), building models and searching")
    option = click.option("--time-limit", type=SECONDS, default=default, show_default=True,
                          help=f"Seconds for {what}, everything included; then the best answer so far, or "
                               "'unknown'.")
    if not whole:
        return option

    def wrap(f: F) -> F:
        @functools.wraps(f)
        def budgeted(*args: Any, time_limit: float, **kw: Any) -> Any:
            from ..engine.budget import time_budget
            from .app import command_started

            with time_budget(time_limit, since=command_started()):
                return f(*args, time_limit=time_limit, **kw)
        return option(budgeted)  # type: ignore[return-value]
    return wrap


def seed_option(what: str, default: int | None = 0, signed: bool = False) -> Callable[[F], F]:
    """``--seed N`` (a 64-bit integer, not negative unless ``signed``: ``random.Random`` draws
    the same for ``-n`` as for ``n``; simulate mixes the seed into a hash, so it takes either):
    what the command's randomness draws from, ``what`` said in the help (``default`` None: a
    random seed, which the command prints)."""
    def check(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
        from ..selfplay.budgets import check_seed

        return None if value is None else check_seed(value, signed)

    return click.option("--seed", type=int, default=default, show_default=default is not None, callback=check,
                        help=what)


def moves_option(default: int = 1, high: int = 6, what: str = "Detective turns the plan spans.",
                 alias: str | None = None) -> Callable[[F], F]:
    """``--moves/-k``: how many detective turns a plan (or a forced win) spans; ``alias`` is an
    old spelling kept hidden (``--turns`` in ``solve``)."""
    option = click.option("--moves", "-k", type=click.IntRange(min=1, max=high), default=default, show_default=True,
                          help=what)
    if alias is None:
        return option

    def wrap(f: F) -> F:
        @functools.wraps(f)
        def merged(*args: Any, moves: int, moves_alias: int | None = None, **kw: Any) -> Any:
            return f(*args, moves=moves_alias or moves, **kw)

        hidden = click.option(alias, "-n", "moves_alias", type=click.IntRange(min=1, max=high), default=None,
                              hidden=True)
        return option(hidden(merged))  # type: ignore[return-value]

    return wrap


def round_option(what: str = "Analyse", more: str = "") -> Callable[[F], F]:
    """``--round N``: the record as it stood after round N (0 = before Mr. X's first move);
    ``more``: what else the command makes of it (a sentence that follows)."""
    return click.option("--round", "round_", type=AsciiInt(min=0), default=None,
                        help=f"{what} the record as it stood after round N (0: before Mr. X's first move; default: "
                             f"the whole record).{' ' + more if more else ''}")


def ignore_illegal_option(f: F) -> F:
    """``--ignore-illegal``: analyse a record ``check`` rules illegal instead of refusing it (exit 1
    with ``check``'s first finding), for experts who know what the moves as written mean."""
    return click.option("--ignore-illegal", is_flag=True,
                        help="Analyse the record even if 'sy-tools check' rules it illegal (by default such a "
                             "record is refused, exit 1, naming the first problem); the moves are taken as "
                             "written.")(f)


def all_option(what: str = "every station") -> Callable[[F], F]:
    """``--all``: long lists in text output (JSON always has everything)."""
    return click.option("--all", "show_all", is_flag=True, help=f"List {what} (text output is short by default).")


def input_format_option(f: F) -> F:
    """``--input-format`` for map files (``--from`` is a hidden alias)."""

    @functools.wraps(f)
    def merged(*args: Any, input_format: str | None = None, from_alias: str | None = None, **kw: Any) -> Any:
        return f(*args, input_format=input_format or from_alias, **kw)

    merged = click.option("--from", "from_alias", type=click.Choice(MAP_FORMATS), default=None, hidden=True)(merged)
    merged = click.option("--input-format", type=click.Choice(MAP_FORMATS), default=None,
                          help="Map file format (default: from the name, then the content).")(merged)
    return merged  # type: ignore[return-value]


def _map(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    import os

    from ..errors import InputError
    from ..formats.raw_map import BUILTIN_MAPS

    if value is not None and value not in BUILTIN_MAPS and not os.path.exists(value):
        raise InputError(f"unknown map {value[:60]!r} and no such file or folder (built-in maps: "
                         f"{', '.join(BUILTIN_MAPS)})", where="--map")
    return value


def map_option(what: str = "The map") -> Callable[[F], F]:
    """``--map``: a built-in name or a map file (``london`` by default); a value that is
    neither is refused naming the flag."""
    return click.option("--map", "map_spec", default="london", show_default=True, callback=_map,
                        help=f"{what} (a built-in name or a map file).")


def _rules(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    from ..engine.rules import PRESETS
    from ..formats.rules_file import load_rules

    if value is not None and value not in PRESETS:
        ctx.meta["sy_tools.rules_file"] = value  # an input file: outputs must not replace it
    return None if value is None else load_rules(value, "--rules")


def rules_option(what: str = "The rules") -> Callable[[F], F]:
    """``--rules PRESET|FILE``: a preset name or a rules JSON file; the command gets a
    :class:`sy_tools.engine.rules.Rules`."""
    return click.option("--rules", "rules", default="classic", show_default=True, callback=_rules,
                        help=f"{what} (a preset: classic, 2014; or a JSON file as 'sy-tools rules "
                             "--format json' prints it).")

#: The puzzle flags (a position typed in rather than read from a record).
PUZZLE_FLAGS = ("--around", "--detectives", "--tickets", "--mrx-tickets", "--move-number")


def puzzle_options(move_number: bool = True, rules: bool = False) -> Callable[[F], F]:
    """The puzzle flags shared by ``cordon``, ``solve`` and ``advise``: ``--around``,
    ``--detectives``, ``--tickets``, ``--mrx-tickets`` (and ``--move-number``, ``--rules``),
    plus ``--map``."""

    def wrap(f: F) -> F:
        opts = [
            click.option("--around", default=None,
                         help="Puzzle mode (instead of GAME): Mr. X's possible stations, e.g. 45,46,58."),
            click.option("--detectives", "dets", default=None,
                         help="Puzzle mode: the detectives in turn order, e.g. Red=13,Blue=26."),
            click.option("--tickets", default=None,
                         help="Puzzle mode: each detective's tickets, e.g. taxi=10,bus=8,underground=4 "
                              "(default: the rules' starting tickets)."),
            click.option("--mrx-tickets", default=None,
                         help="Puzzle mode: Mr. X's tickets, e.g. taxi=4,bus=3,underground=3,black=5,double=2 "
                              "(default: the rules' starting tickets)."),
        ]
        if move_number:
            opts.append(click.option("--move-number", type=AsciiInt(min=0), default=0, show_default=True,
                                     help="Puzzle mode: moves Mr. X has made (his next is move M+1; places the "
                                          "reveals)."))
        opts.append(map_option("Puzzle mode: the map"))
        if rules:
            opts.append(rules_option("Puzzle mode: the rules"))
        for o in reversed(opts):
            f = o(f)
        return f

    return wrap

#: The parameters :func:`puzzle_options` adds (their values come from a record otherwise).
PUZZLE_PARAMS = ("dets", "tickets", "mrx_tickets", "move_number", "map_spec", "rules")


def refuse_puzzle_flags() -> None:
    """With a GAME record, the puzzle flags the user typed are an error naming them (a record
    names its own map, rules and tickets)."""
    from click.core import ParameterSource

    from ..errors import InputError

    ctx = click.get_current_context()
    given = [p.opts[0] for p in ctx.command.params
             if p.name in PUZZLE_PARAMS and ctx.get_parameter_source(p.name) not in (None, ParameterSource.DEFAULT)]
    if given:
        raise InputError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for puzzle mode (--around); a "
                         "record names its own map, rules and tickets")
