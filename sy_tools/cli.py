"""The ``sy-tools`` command line: a thin click layer over the library.

Every command parses its options, calls one library function and formats the result.  Errors
the library raises on purpose become one line on stderr: exit 2 for bad input, 1 when the
analysis says no.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .board import DETECTIVE_TICKET_KINDS, MRX_TICKET_KINDS
from .board import Ticket as _Ticket
from .errors import InputError, MapFormatError, SyToolsError
from .options import (
    SECONDS,
    all_option,
    format_option,
    input_format_option,
    map_option,
    moves_option,
    puzzle_options,
    refuse_puzzle_flags,
    round_option,
    rules_option,
    time_limit_option,
)
from .tracker import WEIGHTS as _WEIGHTS

_TICKETS = tuple(_Ticket)
#: The heatmap layers: ``sy_tools.plot.LAYERS`` (not imported here: plot loads matplotlib; a
#: test keeps the two equal).
_LAYERS = ("possible", "history", "reach", "coverage", "cordon", "winrate")
#: Ticket kinds as CLI choices (the library's values; the tickets Mr. X may show).
_TICKET_VALUES = tuple(t.value for t in _TICKETS)

#: Longest error line printed (an input may be quoted in it; the rest is cut).
MAX_ERROR_LINE = 2000


def _clip(line: str) -> str:
    return line if len(line) <= MAX_ERROR_LINE else line[: MAX_ERROR_LINE - 15] + " ... (cut)"




_NO_ARGS: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())


#: The exit code when the reader of our output went away (``sy-tools ... | head -1``): the
#: shell's 128 + SIGPIPE, quietly.
EXIT_BROKEN_PIPE = 141


def _quiet_broken_pipe() -> None:
    """Point stdout at /dev/null so that Python's final flush does not complain again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    sys.exit(EXIT_BROKEN_PIPE)


class _Group(click.Group):
    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """Like click's, but a usage error is one line on stderr (exit 2), never a usage dump; a
        closed stdout is an error line, a reader that went away a quiet exit 141."""
        if sys.stdout is None:  # started with stdout closed (>&-): nothing could be printed
            click.echo("error: standard output is closed; nothing could be printed", err=True)
            sys.exit(2)
        try:
            rv = self._main(args, prog_name, complete_var, standalone_mode, **extra)
            sys.stdout.flush()
            return rv
        except SystemExit:
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                _quiet_broken_pipe()
            raise
        except BrokenPipeError:
            _quiet_broken_pipe()

    def _main(self, args: Any, prog_name: str | None, complete_var: str | None, standalone_mode: bool,
              **extra: Any) -> Any:
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except KeyboardInterrupt:
            click.echo("error: interrupted", err=True)
            sys.exit(130)
        except _NO_ARGS as e:
            click.echo(e.ctx.get_help() if e.ctx is not None else str(e))
            sys.exit(0)
        except click.UsageError as e:
            where = e.ctx.command_path if e.ctx is not None else "sy-tools"
            click.echo(f"error: {e.format_message()} (see '{where} --help')", err=True)
            sys.exit(2)
        except click.Abort as e:
            if isinstance(e.__cause__, KeyboardInterrupt):  # Ctrl-C: the shell's convention
                click.echo("error: interrupted", err=True)
                sys.exit(130)
            click.echo("error: aborted", err=True)
            sys.exit(1)
        except click.ClickException as e:
            click.echo(f"error: {e.format_message()}", err=True)
            sys.exit(e.exit_code)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SyToolsError as e:
            click.echo(_clip(f"error: {e}"), err=True)
            ctx.exit(e.exit_code)
        except BrokenPipeError:
            _quiet_broken_pipe()  # the reader went away: end quietly
        except OSError as e:  # writing an output file ...
            where = f"{e.filename}: " if getattr(e, "filename", None) else ""
            click.echo(_clip(f"error: {where}{e.strerror or e}"), err=True)
            ctx.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "show_default": True})
@click.version_option(package_name="sy-tools")
def main() -> None:
    """Analyse and solve Scotland Yard positions.

    \b
    Examples:
      sy-tools check examples/capture.json
      sy-tools possible examples/in-progress.json
      sy-tools COMMAND --help
    """


# ---- validate -------------------------------------------------------------------------------


@main.command()
@click.argument("maps", nargs=-1, required=True)
@format_option("text", "json")
@input_format_option
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@rules_option("The rules the map is for: under cutoff_escape, bus/underground connections without via data are "
              "a warning")
def validate(maps: tuple[str, ...], fmt: str, input_format: str | None, strict: bool, rules: Any) -> None:
    """Check map files for every detectable defect.

    MAPS are files (json, Bristol graph.txt), folders holding stations.txt + connections.txt,
    or built-in names (london).  Exit 0: no errors; 1: errors found; 2: a file can't be read.

    \b
    Examples:
      sy-tools validate london
      sy-tools validate my-map.json --strict --format json
    """
    from .findings import Finding
    from .output import dumps
    from .validate import validate_map

    worst = 0
    out: list[dict[str, Any]] = []
    for m in maps:
        try:
            with _format_hint("--input-format"):
                report = validate_map(m, input_format, rules)
        except InputError as e:
            if fmt == "json":
                out.append(Finding.from_error(e, "unreadable", m).to_dict(with_file=True))
            else:
                click.echo(f"error: {e}", err=True)
            worst = 2
            continue
        if strict:
            report = report.strict()
        if fmt == "json":
            out.extend(f.to_dict(with_file=True) for f in report.findings)
        else:
            for f in report.findings:
                click.echo(str(f))
            n_e, n_w = len(report.errors), len(report.warnings)
            verdict = "ok" if report.ok else "INVALID"
            click.echo(f"{report.source}: {verdict}: {n_e} error(s), {n_w} warning(s)")
        if not report.ok:
            worst = max(worst, 1)
    if fmt == "json":
        click.echo(dumps(out))
    sys.exit(worst)


# ---- map ------------------------------------------------------------------------------------


class _format_hint:
    """Add the option that names a map's format to "cannot tell the format" errors."""

    def __init__(self, option: str) -> None:
        self.option = option

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, err: Any, tb: Any) -> None:
        if isinstance(err, MapFormatError):
            raise MapFormatError(f"{err.detail}; pass {self.option} json|pair|bristol", err.file,
                                 err.where) from None


@main.group("map")
def map_group() -> None:
    """Map files: info, convert, neighbours, diff.

    \b
    Examples:
      sy-tools map info london
      sy-tools map neighbours 67 --ticket bus
    """


@map_group.command("info")
@click.argument("map_spec", default="london", metavar="[MAP]")
@format_option("text", "csv", "json")
@input_format_option
def map_info_cmd(map_spec: str, fmt: str, input_format: str | None) -> None:
    """Station and connection counts, degrees, stations per kind.

    \b
    Examples:
      sy-tools map info
      sy-tools map info graph.txt --format json
    """
    from .mapio import load_board
    from .mapstats import map_info
    from .output import dumps

    with _format_hint("--input-format"):
        board = load_board(map_spec, input_format)
    info = map_info(board)
    if fmt == "json":
        click.echo(dumps(info.to_dict()))
        return
    frame = info.to_frame()
    if fmt == "csv":
        click.echo(frame.to_csv(index=False), nl=False)
    else:
        from .output import table

        click.echo(table(list(frame.columns), frame.values.tolist(), right=[False, False, False]))


@map_group.command("convert")
@click.argument("src", metavar="IN")
@click.argument("dst", metavar="OUT")
@input_format_option
@click.option("--to", "to_fmt", type=click.Choice(["json", "pair", "bristol", "graphml"]), default=None,
              help="Output format (default: from OUT: .json, .graphml, .txt = bristol, a folder = pair).")
def map_convert(src: str, dst: str, input_format: str | None, to_fmt: str | None) -> None:
    """Convert a map between formats (the input must validate).

    \b
    Examples:
      sy-tools map convert london graph.txt           # Bristol graph.txt
      sy-tools map convert london london-pair --to pair   # stations.txt + connections.txt
    """
    from .mapio import dropped_on_write, load_board, output_format, source_files, write_map

    dst = _dash(dst)
    with _format_hint("--input-format"):
        board = load_board(src, input_format)
    for p in write_map(board, dst, to_fmt, keep=source_files(src, input_format)):
        _say_written(p)
    note = dropped_on_write(board, output_format(dst, to_fmt))
    if note:
        click.echo(f"warning: {note}", err=True)


@map_group.command("neighbours")
@click.argument("station", type=int)
@click.option("--ticket", type=click.Choice(_TICKET_VALUES), default=None,
              help="Only this ticket (default: every ticket).")
@map_option()
@format_option("text", "json")
def map_neighbours(station: int, ticket: str | None, map_spec: str, fmt: str) -> None:
    """Where a piece can go from STATION, by ticket.

    \b
    Example (where can I go from 67 by bus?):
      sy-tools map neighbours 67 --ticket bus
    """
    from .board import Ticket
    from .mapio import load_board
    from .moves import neighbours
    from .output import dumps

    result = neighbours(load_board(map_spec), station, Ticket(ticket) if ticket else None)
    if fmt == "json":
        click.echo(dumps(result.to_dict()))
        return
    for t, dests in result.by_ticket.items():
        note = " (Mr. X only; the only ticket for the ferry)" if t is Ticket.BLACK else ""
        click.echo(f"{t.value}{note}: {' '.join(map(str, dests)) or '-'}")


@map_group.command("diff")
@click.argument("a")
@click.argument("b")
@format_option("text", "json")
@input_format_option
def map_diff_cmd(a: str, b: str, fmt: str, input_format: str | None) -> None:
    """Connections and stations present in one map and not the other.  Exit 1 if they differ.

    \b
    Example:
      sy-tools map diff london graph.txt
    """
    from .mapio import load_board
    from .mapstats import map_diff
    from .output import dumps

    with _format_hint("--input-format"):
        d = map_diff(load_board(a, input_format), load_board(b, input_format), a, b)
    if fmt == "json":
        click.echo(dumps(d.to_dict()))
    else:
        for line in d.lines():
            click.echo(line)
    sys.exit(0 if d.same else 1)


# ---- rules, records, check ------------------------------------------------------------------


@main.command("rules")
@click.argument("name", default="classic", metavar="[PRESET]")
@format_option("text", "json")
def rules_cmd(name: str, fmt: str) -> None:
    """Print a rules preset (classic, 2014).

    \b
    Examples:
      sy-tools rules
      sy-tools rules 2014 --format json > my-rules.json   # edit, then --rules my-rules.json
    """
    from .output import dumps, table
    from .rules import preset

    d = preset(name).to_dict()
    if fmt == "json":
        click.echo(dumps(d))
        return
    rows = []
    for k, v in d.items():
        if isinstance(v, dict):
            v = ", ".join(f"{a} {b}" for a, b in v.items())
        elif isinstance(v, list):
            v = ", ".join(map(str, v))
        rows.append((k, str(v).lower() if isinstance(v, bool) else v))
    click.echo(table(["rule", "value"], rows, right=[False, False]))


@main.group("record")
def record_group() -> None:
    """Game records: convert between game.json and the text notation.

    \b
    Example:
      sy-tools record convert examples/table.txt table.json
    """


@record_group.command("convert", short_help="Convert between game.json and the text notation, losslessly.")
@click.argument("src", metavar="IN")
@click.argument("dst", metavar="OUT")
def record_convert(src: str, dst: str) -> None:
    """Convert a record: OUT ending in .json gets game.json, anything else the text notation.

    Nothing is lost either way; what the notation can't say (e.g. detectives out of turn
    order within a round) is refused with exit 2, naming it.

    \b
    Examples:
      sy-tools record convert examples/table.txt table.json
      sy-tools record convert examples/capture.json capture.txt
    """
    from pathlib import Path

    from .files import atomic_write_text, refuse_overwrite
    from .record import load_record, record_json_text, to_notation

    dst = _dash(dst)
    refuse_overwrite([Path(dst)], [Path(src)])
    rec = load_record(src)
    refuse_overwrite([Path(dst)], _record_inputs(src, rec))
    text = record_json_text(rec, dst) if dst.lower().endswith(".json") else to_notation(rec, dst)
    atomic_write_text(dst, text)
    _say_written(dst)


def _warn_cutoff(board: Any, rules: Any) -> None:
    """Say on stderr when the cut-off escape runs on a map lacking via data (never silently)."""
    from .validate import cutoff_warning

    note = cutoff_warning(board, rules)
    if note:
        click.echo(f"warning: {note}", err=True)


def _dash(path: str) -> str:
    """OUT ``-`` is standard output, as ``/dev/stdout``."""
    return "/dev/stdout" if path == "-" else path


def _say_written(path: Any) -> None:
    """Print the path of a file written, unless it is our own standard output (``-o
    /dev/stdout``: the path would land in the data)."""
    import os

    try:
        if os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno())):
            return
    except (OSError, ValueError, AttributeError):
        pass  # (no real stdout under a test runner)
    click.echo(str(path))


def _record_inputs(game: str, rec: Any) -> list[str]:
    """The files a loaded record was read from: the record and its map (a path in the record is
    relative to the record's folder)."""
    import os

    from .mapio import source_files

    spec = rec.map_spec
    if spec != "london" and not os.path.isabs(spec):
        spec = os.path.join(os.path.dirname(game), spec)
    return [game, *map(str, source_files(spec))]


@main.command()
@click.argument("game")
@format_option("text", "json")
def check(game: str, fmt: str) -> None:
    """Replay a game record under the rules: is it legal, and who won?

    Exit 0: legal; 1: illegal or self-contradictory; 2: unreadable.

    \b
    Examples:
      sy-tools check examples/capture.json
      sy-tools check examples/broken/wrong-ticket.json --format json
    """
    from .findings import Finding
    from .output import dumps
    from .record import RecordErrors, load_record
    from .referee import check as run_check
    from .referee import unreadable_dict

    try:
        rec = load_record(game)
    except RecordErrors as e:
        if fmt == "json":
            click.echo(dumps(unreadable_dict(game, e.findings)))
        else:
            for line in e.lines():
                click.echo(_clip(f"error: {line}"), err=True)
        sys.exit(2)
    except InputError as e:  # the file itself can't be read: still one JSON document
        if fmt != "json":
            raise
        click.echo(dumps(unreadable_dict(game, [Finding.from_error(e, "unreadable")])))
        sys.exit(2)
    result = run_check(rec)
    if fmt == "json":
        click.echo(dumps({**result.to_dict(), "readable": True}))
    else:
        for p in result.problems:
            click.echo(p.line(game))
        click.echo(_tickets_text(result.tickets))
        verdict = "legal" if result.legal else f"ILLEGAL ({len(result.errors)} error(s))"
        click.echo(f"{game}: {verdict}; {result.status.describe()}")
    sys.exit(result.exit_code)


def _tickets_text(tickets: dict[str, dict[str, int]]) -> str:
    """Tickets left, a line per player."""
    from .output import table

    kinds = list(MRX_TICKET_KINDS)
    rows = [[name] + [str(t[k]) if k in t else "" for k in kinds] for name, t in tickets.items()]
    return "tickets left:\n" + table(["player"] + kinds, rows, right=[False] + [True] * len(kinds))


@main.command("moves", short_help="The legal moves of the piece to move.")
@click.argument("game")
@click.option("--at", type=click.IntRange(min=0), default=None,
              help="Mr. X's station, when he is to move (default: from a full record).")
@round_option("Moves in")
@all_option("every double move too")
@format_option("text", "json")
def moves_cmd(game: str, at: int | None, round_: int | None, show_all: bool, fmt: str) -> None:
    """The legal moves of the piece to move at the end of GAME (a detective, or Mr. X: his
    station from a full record or --at).

    \b
    Examples:
      sy-tools moves examples/in-progress.json --at 4
      sy-tools moves examples/in-progress.json --at 4 --format json
    """
    from .moves import legal_moves
    from .output import dumps
    from .record import load_record

    result = legal_moves(load_record(game).at_round(round_), at)
    if fmt == "json":
        click.echo(dumps(result.to_dict()))
        return
    click.echo(_moves_text(result, show_all))


def _moves_text(r: Any, show_all: bool) -> str:
    from .board import Ticket

    n = len(r.moves)
    lines = [f"{r.piece} at {r.origin} ({r.when}): {n} legal move{'s' if n != 1 else ''}"]
    if any(m.is_pass for m in r.moves):
        lines.append("  pass (no legal move; these rules let Mr. X pass)")
    for t in Ticket:
        dests = [m.to for m in r.singles if m.tickets[0] is t]
        if dests:
            lines.append(f"  {t.value}: " + " ".join(map(str, dests)))
    doubles = r.doubles
    if doubles:
        if show_all:
            lines.append(f"  double moves ({len(doubles)}):")
            lines += [f"    2X {m.tickets[0].value} {m.stations[0]} / {m.tickets[1].value} {m.stations[1]}"
                      for m in doubles]
        else:
            ends = len({m.to for m in doubles})
            lines.append(f"  double moves: {len(doubles)}, ending on {ends} stations (--all lists them)")
    if r.reveals:
        lines.append(f"  with a voluntary reveal: {len(r.reveals)} (any move above, shown, taking one detective's "
                     "ticket; JSON lists them)")
    return "\n".join(lines)


# ---- possible -------------------------------------------------------------------------------


@main.command(short_help="Where Mr. X can be now (and was), with probabilities.")
@click.argument("games", nargs=-1, required=True)
@format_option("text", "json", "csv", "jsonl")
@click.option("--history", is_flag=True, help="Also where Mr. X could have been after every move.")
@click.option("--weights", type=click.Choice(list(_WEIGHTS)), default="paths", show_default=True,
              help="paths: every consistent route equally likely; uniform: every station; "
                   "moves: Mr. X picks uniformly among his ticket's destinations.")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Show only the N most likely stations (default: all).")
@round_option("Analyse")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes for a large batch; the output keeps the order of GAMES (default: every core "
                   "once there are 50 records per core, else 1).")
def possible(games: tuple[str, ...], fmt: str, history: bool, weights: str, top: int | None,
             round_: int | None, jobs: int | None) -> None:
    """Where Mr. X can be now, with probabilities, from game records (detectives' view).

    Exit 1 if a record contradicts itself (the move that emptied the set is named), 2 if it
    can't be read.  With several records, each is reported and the rest go on.

    \b
    Examples:
      sy-tools possible examples/in-progress.json --top 5
      sy-tools possible examples/in-progress.json --round 3 --history
      sy-tools possible examples/*.json --format jsonl --jobs 2
    """
    from .batch import AUTO_JOBS, Failure, possible_many

    failed = 0
    out = sys.stdout
    listing = fmt == "json" and len(games) > 1
    if listing:
        click.echo("[")
    first = True
    render = _jsonl_of if fmt == "jsonl" else None
    for game, result in possible_many(games, weights, history, round_, jobs or AUTO_JOBS, render):
        if isinstance(result, Failure):
            failed = max(failed, result.exit_code) if len(games) == 1 else 1
            if fmt == "jsonl":
                out.write(dumps_line(result.to_dict()) + "\n")
            elif listing:
                click.echo(("" if first else ",\n") + _indent(dumps_json(result.to_dict())), nl=False)
                click.echo(f"error: {result.message}", err=True)
            else:
                click.echo(f"error: {result.message}", err=True)
        elif fmt == "jsonl":
            out.write(result)  # rendered by _jsonl_of (click.echo per line costs a batch 10%)
        elif fmt == "json":
            text = dumps_json(result.to_dict())
            click.echo(("" if first else ",\n") + _indent(text) if listing else text, nl=not listing)
        elif fmt == "csv":
            click.echo(_possible_csv(result, top), nl=False)
        else:
            if len(games) > 1:
                click.echo(f"== {game}")
            click.echo(_possible_table(result, top))
        if fmt in ("csv", "text") and not isinstance(result, (Failure, str)) and result.warnings:
            # (the JSON forms carry them as a field)
            click.echo("\n".join(f"warning: {game}: {w}" for w in result.warnings), err=True)
        first = False
    if listing:
        click.echo("\n]")
    out.flush()
    sys.exit(failed)


def _jsonl_of(result: Any) -> str:
    return dumps_line(result.to_dict()) + "\n"


def dumps_line(obj: Any) -> str:
    """One compact JSON line (msgspec's C encoder when installed: a batch prints thousands)."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover
        import json

        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return msgspec.json.encode(obj).decode()


def dumps_json(obj: Any) -> str:
    """Indented JSON, as :func:`sy_tools.output.dumps` writes it, but fast for long histories."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover
        from .output import dumps

        return dumps(obj)
    return msgspec.json.format(msgspec.json.encode(obj), indent=2).decode()


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.split("\n"))


def _possible_csv(result: Any, top: int | None) -> str:
    rows = result.ranked()[:top]
    lines = ["station,probability" + (",routes" if result.route_counts else "")]
    for s, p in rows:
        extra = f",{_exact(result.route_counts[s])}" if result.route_counts else ""
        lines.append(f"{s},{p:.6f}{extra}")
    return "\n".join(lines) + "\n"


def _possible_table(result: Any, top: int | None) -> str:
    from .output import table

    if result.capture is not None:
        c = result.capture
        return f"Mr. X was caught at {c.station} by {c.by} in round {c.round}: the game is over."
    from .position import when_text

    head = when_text(result.round, result.move)
    if result.next_reveal is not None:
        k = result.moves_to_reveal
        head += f"; next reveal at move {result.next_reveal} ({k} move{'s' if k != 1 else ''} away)"
    else:
        head += "; no reveal left"
    if result.last_reveal:
        head += f"; last seen at {result.last_reveal[1]} (move {result.last_reveal[0]})"
    n = len(result.stations)
    dets = ", ".join(f"{name} {s}" for name, s in result.detectives.items())
    lines = [head, f"{n} possible station{'s' if n != 1 else ''} (weights: {result.weights}); detectives: {dets}", ""]
    ranked = result.ranked()
    shown = ranked[:top] if top else ranked
    headers = ["station", "probability"]
    rows: list[list[Any]] = [[s, f"{p:.4f}"] for s, p in shown]
    if result.route_counts is not None:
        headers.append("routes")
        for r, (s, _) in zip(rows, shown):
            r.append(_big(result.route_counts[s]))
    lines.append(table(headers, rows, right=[True] * len(headers)))
    if top and len(ranked) > top:
        lines.append(f"... and {len(ranked) - top} more")
    if result.history is not None:
        rows = []
        for i, h in enumerate(result.history, 1):
            probs = result.history_probabilities[i - 1] if result.history_probabilities else {}
            best = max(probs.items(), key=lambda kv: (kv[1], -kv[0])) if probs else None
            rows.append([i, len(h), "" if best is None else f"{best[0]} ({best[1]:.2f})", " ".join(map(str, h))])
        lines += ["", "history (where he could have been after each move, given the whole record):"]
        lines.append(table(["move", "count", "most_likely", "stations"], rows, right=[True, True, False, False]))
    return "\n".join(lines)


def _big(n: int) -> str:
    """A route count for a table cell: exact up to 12 digits, else rounded to d.ddde+N (of any
    size: a float would overflow past 1e308)."""
    if n < 10**12:
        return str(n)
    from decimal import Decimal

    return format(Decimal(n), ".3e")


def _exact(n: int) -> str:
    from .jsonutil import int_text

    return int_text(n)


# ---- cordon ---------------------------------------------------------------------------------


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
    from .board import Ticket
    from .cordon import cordon as run_cordon
    from .cordon import puzzle
    from .output import dumps

    if (game is None) == (around is None):
        raise InputError("give either a GAME record or --around STATIONS (not both)")
    if game is not None:
        refuse_puzzle_flags()
        from .record import load_record

        rec = load_record(game).at_round(round_)
        _warn_cutoff(rec.board, rec.rules)
        result = run_cordon(rec, moves, Ticket(after) if after else None, time_limit, workers)
    else:
        if after:
            raise InputError("--after needs a GAME record")
        if round_ is not None:
            raise InputError("--round needs a GAME record")
        from .mapio import load_board

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
    from .output import table

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


# ---- heatmap --------------------------------------------------------------------------------


def _size(value: str | None) -> tuple[float, float] | None:
    if value is None:
        return None
    w, x, h = value.lower().partition("x")
    try:
        size = (float(w), float(h))
    except ValueError:
        raise InputError(f"expected WIDTHxHEIGHT in inches (e.g. 16x12), got {value[:40]!r}", where="--size") from None
    if not all(0.5 <= v <= 100 for v in size):
        raise InputError(f"each side must be 0.5 to 100 inches, got {value[:40]!r}", where="--size")
    return size


@main.command(short_help="Heatmaps over the board: possible, history, reach, coverage, cordon, winrate.")
@click.argument("game", required=False)
@click.option("--layer", type=click.Choice(list(_LAYERS)), default="possible", show_default=True,
              help="What to draw (see the list above).")
@click.option("-o", "--output", "out", default=None, help="Output file (.png, .svg, .pdf). Default: LAYER.png")
@round_option("Draw")
@click.option("--weights", type=click.Choice(list(_WEIGHTS)), default="paths", show_default=True,
              help="possible, history: how likely each consistent route is (as in 'possible').")
@click.option("--from", "from_", multiple=True,
              help="reach: starting station(s), e.g. --from 13,46 (with GAME: instead of Mr. X's possible set).")
@click.option("--piece-tickets", "tickets", default=None,
              help="reach without GAME: the moving piece's ticket limits, e.g. taxi=10,bus=8,underground=4 "
                   "(black=N rides everything; default: no limit).")
@click.option("--tickets", "tickets_alias", default=None, hidden=True)
@click.option("--panels", is_flag=True, help="history: one small board per move instead of the route.")
@moves_option()
@time_limit_option(10.0, "the cordon layer's whole search")
@map_option("reach without GAME, winrate: the map")
@click.option("--dpi", type=click.IntRange(min=20, max=600), default=None, help="Dots per inch (default 100).")
@click.option("--size", default=None, help="Figure size in inches, WIDTHxHEIGHT (default 16x12).")
def heatmap(game: str | None, layer: str, out: str | None, round_: int | None, weights: str, from_: tuple[str, ...],
            tickets: str | None, tickets_alias: str | None, panels: bool, moves: int, time_limit: float, map_spec: str, dpi: int | None,
            size: str | None) -> None:
    """Draw the board coloured by an analysis and write an image; prints its path.

    \b
    Layers: possible (default), history [--panels], reach --from STATION[,STATION...],
    coverage, cordon [--moves k], winrate RESULTS.csv.
    \b
    Examples:
      sy-tools heatmap examples/in-progress.json -o possible.png
      sy-tools heatmap examples/in-progress.json --layer history -o route.png
      sy-tools heatmap examples/in-progress.json --layer reach      # Mr. X until his next reveal
      sy-tools heatmap --layer reach --from 13 --piece-tickets taxi=10,bus=8,underground=4
      sy-tools heatmap --layer winrate results.csv                  # from sy-tools simulate
    """
    from pathlib import Path

    from .files import refuse_overwrite

    if tickets is not None and tickets_alias is not None:
        raise InputError("give --piece-tickets once (--tickets is its old name)")
    tickets = tickets if tickets is not None else tickets_alias
    fig_size = _size(size)
    w, h = fig_size or (16.0, 12.0)
    if w * h * (dpi or 100) ** 2 > 100e6:
        raise InputError(f"{w:g}x{h:g} inches at {dpi or 100} dpi is {w * h * (dpi or 100) ** 2 / 1e6:.0f} million "
                         "pixels; at most 100 million (lower --size or --dpi)", where="--size")
    out = out or f"{layer}.png"
    if Path(out).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InputError(f"unknown image format {Path(out).suffix or '(none)'!r}, expected .png, .svg or .pdf",
                         out)
    from .mapio import source_files

    # never draw over an input (a record may be named game.svg; the map and a results file too)
    refuse_overwrite([out], ([game] if game else []) + [str(p) for p in source_files(map_spec)])
    starts = _stations_option(from_, "--from")
    if starts and layer != "reach":
        raise InputError("--from belongs to the reach layer")
    if tickets is not None and not (layer == "reach" and game is None):
        raise InputError("--piece-tickets belongs to the reach layer without a GAME (with a GAME Mr. X's tickets come "
                         "from the record)")
    if panels and layer != "history":
        raise InputError("--panels belongs to the history layer")
    if round_ is not None and (layer == "winrate" or game is None):
        raise InputError("--round belongs to the layers drawn from a GAME record")
    from . import plot

    if layer == "winrate":
        if game is None:
            raise InputError("the winrate layer needs a RESULTS file (.csv or .json with mrx_start, winner)")
        from .mapio import load_board

        board = load_board(map_spec)
        fig = plot.winrate_figure(board, plot.load_winrates(game, board), fig_size, dpi, source=game)
    elif layer == "reach" and game is None:
        if not starts:
            raise InputError("the reach layer needs --from STATION (or a GAME: Mr. X's reach)")
        limits = _ticket_counts(tickets, "--piece-tickets", _TICKET_VALUES) if tickets else None
        from .mapio import load_board

        board = load_board(map_spec)
        fig = plot.reach_figure(board, starts, limits, black=bool(limits and limits.get("black")), size=fig_size,
                                dpi=dpi)
    else:
        if game is None:
            raise InputError(f"the {layer} layer needs a GAME record")
        from .record import load_record

        rec = load_record(game)
        refuse_overwrite([out], _record_inputs(game, rec))
        if layer == "possible":
            fig = plot.possible_figure(rec, weights, round_, fig_size, dpi)
        elif layer == "history":
            fig = plot.history_figure(rec, weights, round_, fig_size, dpi, panels=panels)
        elif layer == "reach":
            fig = plot.mrx_reach_figure(rec, round_, starts or None, fig_size, dpi)
        elif layer == "coverage":
            fig = plot.coverage_figure(rec, round_, fig_size, dpi)
        else:
            fig = plot.cordon_figure(rec, moves, round_, time_limit, fig_size, dpi)
    _say_written(plot.save(fig, out, dpi))


def _stations_option(values: tuple[str, ...], option: str) -> list[int]:
    """Station numbers from a repeatable option that also takes comma lists (``--from 13,46``)."""
    out: list[int] = []
    for v in values:
        for part in v.split(","):
            part = part.strip()
            if not part:
                continue
            if not (part.isascii() and part.isdigit()) or len(part) > 9:
                raise InputError(f"expected station numbers, e.g. 13 or 13,46, got {part[:40]!r}", where=option)
            out.append(int(part))
    return out


# ---- simulate -------------------------------------------------------------------------------


@main.command(short_help="Self-play: many seeded games between two policies.")
@click.option("-n", "--games", "n_games", type=click.IntRange(min=0), required=True, help="How many games.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Game i draws from (seed, i) alone (a 64-bit integer).")
@rules_option()
@map_option()
@click.option("--detective-count", "n_detectives", type=click.IntRange(min=1, max=5), default=5, show_default=True,
              help="How many detectives play (the first N of the start deck's colours).")
@click.option("--detectives", "n_detectives_alias", type=click.IntRange(min=1, max=5), hidden=True)
@click.option("--mrx-policy", default="random", show_default=True,
              help="random, greedy, advise, module:function or file.py:function.")
@click.option("--detective-policy", default="random", show_default=True,
              help="random, greedy, cordon, advise, module:function or file.py:function.")
@click.option("--starts", default=None, help="Start decks: classic, 2014, or Mr. X's stations, e.g. 166 "
              "(default: the rules' decks).")
@click.option("--by", "by", type=click.Choice(["start"]), default=None,
              help="A row per Mr. X start station (default: one summary).")
@format_option("text", "csv", "json")
@click.option("--out", "out", default=None,
              help="Also write one row per game: FILE.csv or FILE.parquet, replaced only when the run "
                   "completes (default: none).")
@click.option("--records", "records", default=None,
              help="Also write every game's game.json into this folder (default: none).")
@click.option("--jobs", "-j", type=click.IntRange(min=1, max=64), default=None,
              help="Worker processes, 1-64, never more than the games need (default: all cores).")
@click.option("--scheduler", default=None,
              help="Run on a dask.distributed cluster: tcp://HOST:PORT (default: local worker processes).")
@click.option("--cordon-time-limit", type=SECONDS, default=2.0, show_default=True,
              help="Seconds per cordon plan (cordon detectives).")
def simulate(n_games: int, seed: int, rules: Any, map_spec: str, n_detectives: int, n_detectives_alias: int | None,
             mrx_policy: str,
             detective_policy: str, starts: str | None, by: str | None, fmt: str, out: str | None,
             records: str | None, jobs: int | None, scheduler: str | None, cordon_time_limit: float) -> None:
    """Play N seeded games between two policies and summarise who won (Mr. X's win rate with a
    95% Wilson interval, how games ended, rounds played).

    \b
    Examples:
      sy-tools simulate -n 200 --mrx-policy greedy --detective-policy greedy
      sy-tools simulate -n 200 --starts 166 --seed 7 --out results.csv
    """
    import time

    from . import simulate as sim
    from .files import _cleanup_on_signals

    n_detectives = n_detectives_alias or n_detectives  # --detectives: the old name
    spec = sim.GameSpec(map=map_spec, rules=rules, detectives=n_detectives,
                        mrx_policy=mrx_policy, detective_policy=detective_policy, starts=sim.parse_starts(starts),
                        seed=seed, cordon_time_limit=cordon_time_limit, records=records is not None)
    # everything is checked before anything is written
    sim.check_spec(spec)
    from .mapio import load_board

    _warn_cutoff(load_board(map_spec), rules)
    inputs = sim.input_files(spec, click.get_current_context().meta.get("sy_tools.rules_file"))
    writer = sim.RowWriter(out, inputs=inputs) if out is not None else None
    record_map = None
    if records is not None:
        sim.records_dir(records, inputs, n_games)
        record_map = sim.record_map(map_spec, records)
    tty = sys.stderr.isatty()
    shown_at = [0.0]
    played = [0]

    def on_game(g: Any) -> None:
        if writer is not None:
            writer.write(g)
        if records is not None:
            sim.write_record(records, g, record_map)
        played[0] += 1
        done = played[0]
        if tty and (time.monotonic() - shown_at[0] > 0.2 or done == n_games):
            shown_at[0] = time.monotonic()
            bar = "#" * (30 * done // max(1, n_games))
            click.echo(f"\r[{bar:<30}] {done}/{n_games} games", err=True, nl=done == n_games)

    with _cleanup_on_signals():  # SIGTERM/SIGHUP: end the workers, drop the temporary file, then go
        try:
            if writer is not None:
                writer.open()
            result = sim.simulate(spec, n_games, jobs, scheduler, keep_rows=False, on_game=on_game)
            if writer is not None:
                writer.close()
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
    click.echo(sim.format_summary(result, fmt, by == "start"))


# ---- solve ----------------------------------------------------------------------------------


@main.command("solve", short_help="Can the detectives force a win within N turns? (proved)")
@click.argument("game", required=False)
@moves_option(2, 6, "Detective turns to win within.", alias="--turns")
@time_limit_option(30.0, "the whole search")
@round_option("Solve")
@puzzle_options(rules=True)
@format_option("text", "json")
def solve_cmd(game: str | None, moves: int, time_limit: float, round_: int | None, around: str | None, dets: str | None,
              tickets: str | None, mrx_tickets: str | None, move_number: int, map_spec: str, rules: Any,
              fmt: str) -> None:
    """The shortest forced win within k detective turns (--moves), as a strategy tree to follow.

    Give a GAME record, or --around STATIONS with --detectives for a puzzle.  Exit 0: a forced
    win; 1: no forced win within N (proved), or the record is illegal or over; 3: unknown (the
    time limit stopped the search); 2: bad input.  Ctrl-C stops it (exit 130).

    \b
    Examples:
      sy-tools solve examples/in-progress.json --moves 2
      sy-tools solve --around 154 --detectives Red=185,Blue=130,Green=168 --move-number 3
    """
    from .output import dumps
    from .solve import describe, puzzle, solve_record

    if (game is None) == (around is None):
        raise InputError("give either a GAME record or --around STATIONS (not both)")
    if game is not None:
        refuse_puzzle_flags()
        from .record import load_record

        rec = load_record(game).at_round(round_)
        _warn_cutoff(rec.board, rec.rules)
        result = solve_record(rec, moves, time_limit)
    else:
        from .mapio import load_board

        if round_ is not None:
            raise InputError("--round needs a GAME record")
        if not dets:
            raise InputError("puzzle mode needs --detectives, e.g. Red=13,Blue=26")
        board = load_board(map_spec)
        _warn_cutoff(board, rules)
        result = puzzle(
            board,
            _station_list(around or "", "--around"),
            _named_stations(dets, "--detectives"),
            _ticket_counts(tickets, "--tickets", DETECTIVE_TICKET_KINDS) if tickets else None,
            _ticket_counts(mrx_tickets, "--mrx-tickets", MRX_TICKET_KINDS)
            if mrx_tickets else None,
            move_number, rules, moves, time_limit,
        )
    click.echo(dumps(result.to_dict()) if fmt == "json" else describe(result))
    sys.exit(0 if result.forced else 1 if result.forced is False else 3)


# ---- advise ---------------------------------------------------------------------------------


@main.command("advise", short_help="What each side should do now, and why.")
@click.argument("game", required=False)
@click.option("--side", type=click.Choice(["detectives", "mrx"]), default=None,
              help="The side to advise (default: the side to move; puzzle mode: mrx with --at alone).")
@click.option("--depth", type=click.IntRange(min=1, max=4), default=2, show_default=True,
              help="Detective turns to look ahead.")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True, help="Mr. X: how many moves to show.")
@time_limit_option(10.0, "the whole search")
@click.option("--at", type=click.IntRange(min=0), default=None,
              help="Mr. X's station, needed for his advice (default: from a full record).")
@round_option("Advise on")
@puzzle_options(rules=True)
@format_option("text", "json")
def advise_cmd(game: str | None, side: str | None, depth: int, top: int, time_limit: float, at: int | None,
               round_: int | None,
               around: str | None, dets: str | None, tickets: str | None, mrx_tickets: str | None,
               move_number: int, map_spec: str, rules: Any, fmt: str) -> None:
    """What each side should do now, and why: a move for each detective still to move (chosen
    jointly, looking --depth turns ahead against every ticket Mr. X may show), or Mr. X's best
    moves.  Give a GAME record, or puzzle flags (--around and/or --at, --detectives).

    \b
    Examples:
      sy-tools advise examples/in-progress.json --at 4 --top 3
      sy-tools advise examples/in-progress.json --at 4 --format json
      sy-tools advise --around 83,101 --detectives Red=100,Blue=114,Green=82
    """
    from .advise import advise_puzzle, advise_record, solve_hook
    from .output import dumps

    puzzle_flags = around is not None or dets is not None
    if game is not None and puzzle_flags:
        raise InputError("give either a GAME record or puzzle flags (--around/--detectives), not both")
    if game is None:
        if not puzzle_flags:
            raise InputError("give a GAME record, or --around STATIONS (or --at) with --detectives")
        if dets is None:
            raise InputError("puzzle mode needs --detectives, e.g. Red=13,Blue=26", where="--detectives")
        if round_ is not None:
            raise InputError("--round needs a GAME record")
        from .mapio import load_board

        board = load_board(map_spec)
        _warn_cutoff(board, rules)
        result = advise_puzzle(
            board,
            _station_list(around, "--around") if around is not None else None,
            at, _named_stations(dets, "--detectives"), side,
            _ticket_counts(tickets, "--tickets", DETECTIVE_TICKET_KINDS) if tickets else None,
            _ticket_counts(mrx_tickets, "--mrx-tickets", MRX_TICKET_KINDS)
            if mrx_tickets else None,
            move_number, depth, top, time_limit, solve_hook(depth), rules,
        )
    else:
        refuse_puzzle_flags()
        from .record import load_record

        rec = load_record(game).at_round(round_)
        _warn_cutoff(rec.board, rec.rules)
        result = advise_record(rec, side, at, depth, top, time_limit, solve_hook(depth))
    if fmt == "json":
        click.echo(dumps(result.to_dict()))
        return
    click.echo(result.describe())
