"""``sy-tools cordon``."""

from __future__ import annotations

from typing import Any

import click

from ..engine.tickets import DETECTIVE_TICKET_KINDS, MRX_TICKET_KINDS
from ..errors import InputError
from .app import _TICKET_VALUES, main
from .common import _warn_cutoff
from .options import (
    all_option,
    format_option,
    moves_option,
    puzzle_options,
    refuse_puzzle_flags,
    round_option,
    time_limit_option,
)


def _short(text: str) -> str:
    """``repr`` of an option value, shortened for an error line."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def _number(text: str, digits: int = 9) -> int | None:
    """A plain decimal number of at most ``digits`` digits (``isdigit`` also passes ``²``)."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def _station_list(value: str, option: str) -> list[int]:
    out = []
    for v in value.replace(" ", "").split(","):
        if not v:
            continue
        n = _number(v)
        if n is None:
            raise InputError(f"expected station numbers separated by commas, got {_short(value)}", where=option)
        out.append(n)
    if not out:
        raise InputError("expected at least one station", where=option)
    return out


def _named_stations(value: str, option: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    for part in value.split(","):
        if not part.strip():
            continue
        name, eq, st = part.strip().partition("=")
        name = name.strip()
        n = _number(st) if eq else None  # (a bare number is not a detective: 'simulate' counts them)
        if n is None or not name:
            raise InputError(f"expected NAME=STATION (e.g. Red=13), got {_short(part.strip())}", where=option)
        if not name.isprintable():
            raise InputError(f"a detective's name must be printable text, got {_short(name)}", where=option)
        if name in seen:
            raise InputError(f"detective {_short(name)} is named twice", where=option)
        seen.add(name)
        out.append((name, n))
    return out


def _ticket_counts(value: str, option: str, kinds: tuple[str, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in (p for p in value.split(",") if p.strip()):
        k, eq, n = part.strip().partition("=")
        count = _number(n, 4) if eq else None
        if k not in kinds or count is None:
            raise InputError(f"expected KIND=COUNT with KIND in {', '.join(kinds)} and COUNT 0..9999, got "
                             f"{_short(part.strip())}", where=option)
        if k in out:
            raise InputError(f"{k} is given twice", where=option)
        out[k] = count
    return out


@main.command("cordon", short_help="The smallest cordon that traps Mr. X, and the moves to it.")
@click.argument("game", required=False)
@moves_option()
@click.option("--after", type=click.Choice(_TICKET_VALUES), default=None,
              help="The ticket Mr. X shows next, when he is to move (default: any ticket he holds).")
@round_option("Plan from")
@time_limit_option(10.0, "the whole search, model building and CP-SAT solves")
@click.option("--workers", type=click.IntRange(min=1, max=64), default=None,
              help="CP-SAT worker threads (default: CP-SAT's own choice).")
@puzzle_options(rules=True)
@all_option("the possible set, the whole cordon and the open stations")
@format_option("text", "json")
def cordon_cmd(game: str | None, moves: int, after: str | None, round_: int | None, time_limit: float,
               workers: int | None, around: str | None, dets: str | None, tickets: str | None,
               mrx_tickets: str | None, move_number: int, map_spec: str, rules: Any, show_all: bool, fmt: str) -> None:
    """The smallest detective cordon that traps Mr. X, and the moves that reach it (CP-SAT).

    Give a GAME record, or --around STATIONS for a puzzle.  Exit 0 with an answer (even when
    no plan seals everything), 1 when the record is illegal or over, 2 for bad input.

    \b
    Examples:
      sy-tools cordon examples/in-progress.json --time-limit 5
      sy-tools cordon --around 83 --detectives Red=100,Blue=114,Green=82 --moves 2
    """
    from ..engine.tickets import Ticket
    from ..formats.output import dumps
    from ..solvers.cordon import cordon as run_cordon
    from ..solvers.cordon import puzzle

    if (game is None) == (around is None):
        raise InputError("give either a GAME record or --around STATIONS (not both)")
    if game is not None:
        refuse_puzzle_flags()
        from ..formats.record_io import load_record

        rec = load_record(game).at_round(round_)
        _warn_cutoff(rec.board, rec.rules)
        result = run_cordon(rec, moves, Ticket(after) if after else None, time_limit, workers)
    else:
        if after:
            raise InputError("--after needs a GAME record")
        if round_ is not None:
            raise InputError("--round needs a GAME record")
        from ..formats.map_load import load_board

        board = load_board(map_spec)
        _warn_cutoff(board, rules)
        result = puzzle(
            board,
            _station_list(around or "", "--around"),
            _named_stations(dets, "--detectives") if dets else (),
            _ticket_counts(tickets, "--tickets", DETECTIVE_TICKET_KINDS) if tickets else None,
            _ticket_counts(mrx_tickets, "--mrx-tickets", MRX_TICKET_KINDS)
            if mrx_tickets else None,
            moves, time_limit, workers, rules=rules, move_number=move_number,
        )
    if fmt == "json":
        click.echo(dumps(result.to_dict()))
        return
    click.echo(_cordon_text(result, show_all))

#: Stations listed in short text output (``--all`` lists every one).
SHORT_LIST = 8


def _few(stations: Any, show_all: bool, n: int = SHORT_LIST) -> str:
    """Station numbers: all of them with ``show_all``, else the first ``n`` and a count of the rest."""
    stations = list(stations)
    if show_all or len(stations) <= n:
        return " ".join(map(str, stations))
    return " ".join(map(str, stations[:n])) + f" ... (+{len(stations) - n}; --all lists them)"


def _cordon_text(r: Any, show_all: bool = False) -> str:
    from ..formats.output import table

    ctx = r.context
    lines = []
    when = ""
    if "when" in ctx:
        who = "Mr. X moves next" if ctx["to_move"] == "mrx" else f"{ctx['to_move']} is to move"
        when = f" ({ctx['when']}; {who})"
    after = (["his next move"] if ctx.get("to_move") == "mrx" else []) + \
        ([f"{r.moves - 1} more move{'s' if r.moves > 2 else ''}"] if r.moves > 1 else [])
    head = (f"Mr. X may be at {len(r.target)} station{'s' if len(r.target) != 1 else ''}"
            f"{' after ' + ' and '.join(after) if after else ''}{when}")
    if show_all:
        lines.append(f"{head}: " + " ".join(map(str, r.target)))
    else:
        top = sorted(r.target, key=lambda s: (-r.probabilities.get(s, 0.0), s))[:SHORT_LIST]
        more = len(r.target) - len(top)
        lines.append(f"{head}; most likely: " + ", ".join(f"{s} ({r.probabilities.get(s, 0.0):.2f})" for s in top)
                     + (f" ... (+{more}; --all lists them)" if more else ""))
    if r.cordon_size is None:
        lines.append(f"cordon size: not found within the time limit ({r.cordon_status})")
    else:
        n = r.detectives_available
        need = f"; {n} detective{'s' if n != 1 else ''} available" if n else ""
        lines.append(f"cordon size: {r.cordon_size} ({r.cordon_status}){need}")
        lines.append("one minimal cordon: " + _few(r.cordon, show_all))
    if r.plan:
        verdict = "seals every possible station" if r.feasible else "cannot seal everything"
        lines.append(f"plan for {r.moves} turn{'s' if r.moves != 1 else ''}: {verdict}")
        rows = [[p.name, p.describe(), "yes" if p.on_duty else ""] for p in r.plan]
        lines.append(table(["detective", "moves", "on duty"], rows, right=[False, False, False]))
        if r.open:
            lines.append(f"open stations ({len(r.open)}): " + _few(r.open, show_all))
        lines.append(f"sealed probability: {r.sealed_probability:.4f}")
    elif r.detectives_available:
        lines.append(f"no plan: {r.status.no_plan}")
    lines.append(f"solver: {r.status}, {r.wall_time:.2f} s")
    return "\n".join(lines)
