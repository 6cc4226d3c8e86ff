"""Shared click options: one decorator per shared flag, so a flag means the same thing in every
command (sqlite-utils' ``output_options``).  Old spellings stay as hidden aliases."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: The text output is called ``text`` everywhere (``table`` is a hidden alias).
FORMAT_ALIASES = {"table": "text"}

#: Map file formats a reader understands.
MAP_FORMATS = ("json", "pair", "bristol")


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


#: The longest time limit accepted (a day).
MAX_SECONDS = 86_400.0


class Seconds(click.ParamType):
    """A time limit: a finite positive number of seconds, at most a day (nan, inf and 1e309
    are refused, each with one line naming the option)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            t = value if isinstance(value, float) else float(str(value))
        except (TypeError, ValueError, OverflowError):
            t = math.nan
        if not math.isfinite(t) or t <= 0 or t > MAX_SECONDS:
            self.fail(f"expected a positive number of seconds up to {MAX_SECONDS:g}, got {str(value)[:40]!r}",
                      param, ctx)
        return t


SECONDS = Seconds()


def time_limit_option(default: float = 10.0, what: str = "the whole command") -> Callable[[F], F]:
    """``--time-limit SECONDS``: a bound on ``what``, model building included."""
    return click.option("--time-limit", type=SECONDS, default=default, show_default=True,
                        help=f"Seconds for {what} (everything included); then the best answer so far, or "
                             "'unknown'.")


def moves_option(default: int = 1, high: int = 6) -> Callable[[F], F]:
    """``--moves/-k``: how many detective turns a plan spans."""
    return click.option("--moves", "-k", type=click.IntRange(min=1, max=high), default=default, show_default=True,
                        help="Detective turns the plan spans.")


def round_option(what: str = "Analyse") -> Callable[[F], F]:
    """``--round N``: the record as it stood after round N (0 = before Mr. X's first move)."""
    return click.option("--round", "round_", type=click.IntRange(min=0), default=None,
                        help=f"{what} the record as it stood after round N (0: before Mr. X's first move).")


def all_option(what: str = "every station") -> Callable[[F], F]:
    """``--all``: long lists in text output (JSON always has everything)."""
    return click.option("--all", "show_all", is_flag=True, help=f"List {what} (text output is short by default).")


class BadInput(click.ClickException):
    """An option value the library refuses: the library's one-line message, exit 2 (raised while
    click parses, before the command's own error handling)."""

    exit_code = 2


class RulesSpec(click.ParamType):
    """``--rules``: a preset name or a rules JSON file, as :class:`~sy_tools.rules.Rules`.  A bad
    value is one line like any input error (``error: --rules: unknown rules preset ...``)."""

    name = "preset|file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from .errors import SyToolsError
        from .rules import Rules, resolve_rules

        if value is None or isinstance(value, Rules):
            return value
        try:
            return resolve_rules(str(value))
        except SyToolsError as e:
            raise BadInput(str(e)) from None


def rules_option(default: str | None = "classic", help: str = "A rules preset (classic, 2014) or a rules JSON "
                 "file.") -> Callable[[F], F]:
    """``--rules PRESET|FILE`` (the command gets :class:`~sy_tools.rules.Rules`, or None when
    ``default`` is None and the option is not given)."""
    return click.option("--rules", type=RulesSpec(), default=default, show_default=default is not None, help=help)


def input_format_option(f: F) -> F:
    """``--input-format`` for map files (``--from`` is a hidden alias)."""

    @functools.wraps(f)
    def merged(*args: Any, input_format: str | None = None, from_alias: str | None = None, **kw: Any) -> Any:
        return f(*args, input_format=input_format or from_alias, **kw)

    merged = click.option("--from", "from_alias", type=click.Choice(MAP_FORMATS), default=None, hidden=True)(merged)
    merged = click.option("--input-format", type=click.Choice(MAP_FORMATS), default=None,
                          help="Map file format (default: from the name, then the content).")(merged)
    return merged  # type: ignore[return-value]
