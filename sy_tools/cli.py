"""The ``sy-tools`` command line: a thin click layer over the library.

Every command parses its options, calls one library function and formats the result.  Errors
the library raises on purpose become one line on stderr: exit 2 for bad input, 1 when the
analysis says no.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .errors import InputError, MapFormatError, SyToolsError

FORMAT_TJ = click.Choice(["table", "json"])

#: Longest error line printed (an input may be quoted in it; the rest is cut).
MAX_ERROR_LINE = 2000


def _clip(line: str) -> str:
    return line if len(line) <= MAX_ERROR_LINE else line[: MAX_ERROR_LINE - 15] + " ... (cut)"


class _Seconds(click.ParamType):
    """A time limit: a finite positive number of seconds, at most a day (nan, inf and 1e309
    are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        from .cordon import check_time_limit

        try:
            return check_time_limit(value if isinstance(value, float) else float(str(value)))
        except (ValueError, InputError):
            self.fail(f"expected a positive number of seconds up to 86400, got {str(value)[:40]!r}", param, ctx)


SECONDS = _Seconds()


_NO_ARGS: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _Group(click.Group):
    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """Like click's, but a usage error is one line on stderr (exit 2), never a usage dump."""
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
        except OSError as e:  # writing an output file, a broken pipe ...
            where = f"{e.filename}: " if getattr(e, "filename", None) else ""
            click.echo(_clip(f"error: {where}{e.strerror or e}"), err=True)
            ctx.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sy-tools")
def main() -> None:
    """Analyse and solve Scotland Yard positions."""


# ---- validate -------------------------------------------------------------------------------


@main.command()
@click.argument("maps", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--input-format", type=click.Choice(["json", "pair", "bristol"]), default=None,
              help="Map file format (default: from the name, then the content).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def validate(maps: tuple[str, ...], fmt: str, input_format: str | None, strict: bool) -> None:
    """Check map files for every detectable defect.

    MAPS are files (json, Bristol graph.txt), folders holding stations.txt + connections.txt,
    or built-in names (london).  Exit 0: no errors; 1: errors found; 2: a file can't be read.
    """
    from .output import dumps
    from .validate import validate_map

    worst = 0
    out: list[dict[str, Any]] = []
    for m in maps:
        try:
            with _format_hint("--input-format"):
                report = validate_map(m, input_format)
        except InputError as e:
            if fmt == "json":
                out.append({"level": "error", "code": "unreadable", "message": e.detail,
                            "location": e.file or m, "file": e.file or m, "line": None, "path": None})
            else:
                click.echo(f"error: {e}", err=True)
            worst = 2
            continue
        if strict:
            report = report.strict()
        if fmt == "json":
            out.extend(f.to_dict() for f in report.findings)
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
    """Map files: info, convert, diff."""


@map_group.command("info")
@click.argument("map_spec", default="london", metavar="[MAP]")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table")
@click.option("--input-format", type=click.Choice(["json", "pair", "bristol"]), default=None)
def map_info_cmd(map_spec: str, fmt: str, input_format: str | None) -> None:
    """Station and connection counts, degrees, stations per kind."""
    from .mapstats import map_info
    from .output import dumps
    from .validate import load_board

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
@click.option("--from", "from_fmt", type=click.Choice(["json", "pair", "bristol"]), default=None,
              help="Input format (default: detected).")
@click.option("--to", "to_fmt", type=click.Choice(["json", "pair", "bristol", "graphml"]), default=None,
              help="Output format (default: from OUT: .json, .graphml, .txt = bristol, a folder = pair).")
def map_convert(src: str, dst: str, from_fmt: str | None, to_fmt: str | None) -> None:
    """Convert a map between formats (the input must validate)."""
    from .mapio import source_files, write_map
    from .validate import load_board

    with _format_hint("--from"):
        board = load_board(src, from_fmt)
    for p in write_map(board, dst, to_fmt, keep=source_files(src, from_fmt)):
        click.echo(str(p))


@map_group.command("diff")
@click.argument("a")
@click.argument("b")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def map_diff_cmd(a: str, b: str, fmt: str) -> None:
    """Connections and stations present in one map and not the other.  Exit 1 if they differ."""
    from .mapstats import map_diff
    from .output import dumps
    from .validate import load_board

    d = map_diff(load_board(a), load_board(b), a, b)
    if fmt == "json":
        click.echo(dumps(d.to_dict()))
    else:
        for line in d.lines():
            click.echo(line)
    sys.exit(0 if d.same else 1)


# ---- rules, records, check ------------------------------------------------------------------


@main.command("rules")
@click.argument("name", default="classic", metavar="[PRESET]")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
def rules_cmd(name: str, fmt: str) -> None:
    """Print a rules preset (classic, 2014)."""
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
    """Game records: convert between game.json and the text notation."""


@record_group.command("convert")
@click.argument("src", metavar="IN")
@click.argument("dst", metavar="OUT")
def record_convert(src: str, dst: str) -> None:
    """Convert a record: OUT ending in .json gets game.json, anything else the text notation."""
    from pathlib import Path

    from .files import atomic_write_text, refuse_overwrite
    from .record import load_record, record_json_text, to_notation

    refuse_overwrite([Path(dst)], [Path(src)])
    rec = load_record(src)
    refuse_overwrite([Path(dst)], _record_inputs(src, rec))
    text = record_json_text(rec) if dst.lower().endswith(".json") else to_notation(rec)
    atomic_write_text(dst, text)
    click.echo(dst)


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
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def check(game: str, fmt: str) -> None:
    """Replay a game record under the rules: is it legal, and who won?

    Exit 0: legal; 1: illegal or self-contradictory; 2: unreadable.
    """
    from .output import dumps
    from .record import RecordErrors, load_record
    from .referee import check as run_check

    try:
        rec = load_record(game)
    except RecordErrors as e:
        if fmt == "json":
            click.echo(dumps({"file": game, "legal": False, "readable": False,
                              "problems": [{"level": "error", "code": "schema", "where": w, "message": m}
                                           for w, m in e.problems], "status": None}))
        else:
            for line in e.lines():
                click.echo(_clip(f"error: {line}"), err=True)
        sys.exit(2)
    except InputError as e:  # the file itself can't be read: still one JSON document
        if fmt != "json":
            raise
        click.echo(dumps({"file": game, "legal": False, "readable": False,
                          "problems": [{"level": "error", "code": "unreadable", "where": e.where or "",
                                        "message": e.detail}], "status": None}))
        sys.exit(2)
    result = run_check(rec)
    if fmt == "json":
        click.echo(dumps({**result.to_dict(), "readable": True}))
    else:
        for p in result.problems:
            click.echo(p.line(game))
        verdict = "legal" if result.legal else f"ILLEGAL ({len(result.errors)} error(s))"
        click.echo(f"{game}: {verdict}; {result.status.describe()}")
    sys.exit(0 if result.legal else 1)


# ---- possible -------------------------------------------------------------------------------


@main.command(short_help="Where Mr. X can be now (and was), with probabilities.")
@click.argument("games", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv", "jsonl"]), default="table",
              help="table (default), json (one object), csv (station table), jsonl (one line per record).")
@click.option("--history", is_flag=True, help="Also where Mr. X could have been after every move.")
@click.option("--weights", type=click.Choice(["paths", "uniform", "moves"]), default="paths",
              help="paths: every consistent route equally likely; uniform: every station; "
                   "moves: Mr. X picks uniformly among his ticket's destinations.")
@click.option("--top", type=click.IntRange(min=1), default=None, help="Show only the N most likely stations.")
@click.option("--round", "round_", type=click.IntRange(min=0), default=None,
              help="Analyse the record as it stood after round N.")
def possible(games: tuple[str, ...], fmt: str, history: bool, weights: str, top: int | None,
             round_: int | None) -> None:
    """Where Mr. X can be now, with probabilities, from game records (detectives' view).

    Exit 1 if a record contradicts itself (the move that emptied the set is named), 2 if it
    can't be read.  With several records, each is reported and the rest go on.
    """
    from .output import dumps
    from .record import load_record
    from .tracker import possible as run_possible

    failed = 0
    for game in games:
        try:
            result = run_possible(load_record(game).at_round(round_), weights=weights, history=history)
        except SyToolsError as e:
            failed = max(failed, e.exit_code) if len(games) == 1 else 1
            if fmt == "jsonl":
                click.echo(dumps_line({"file": game, "error": str(e), "exit_code": e.exit_code}))
            else:
                click.echo(f"error: {e}", err=True)
            continue
        if fmt == "jsonl":
            click.echo(dumps_line(result.to_dict()))
        elif fmt == "json":
            click.echo(dumps(result.to_dict()))
        elif fmt == "csv":
            click.echo(_possible_csv(result, top), nl=False)
        else:
            if len(games) > 1:
                click.echo(f"== {game}")
            click.echo(_possible_table(result, top))
    sys.exit(failed)


def dumps_line(obj: Any) -> str:
    import json

    return json.dumps(obj, separators=(",", ":"))


def _possible_csv(result: Any, top: int | None) -> str:
    rows = result.ranked()[:top]
    lines = ["station,probability" + (",routes" if result.route_counts else "")]
    for s, p in rows:
        extra = f",{result.route_counts[s]}" if result.route_counts else ""
        lines.append(f"{s},{p:.6f}{extra}")
    return "\n".join(lines) + "\n"


def _possible_table(result: Any, top: int | None) -> str:
    from .output import table

    if result.capture is not None:
        c = result.capture
        return f"Mr. X was caught at {c.station} by {c.by} in round {c.round}: the game is over."
    head = f"round {result.round}, after Mr. X's move {result.move}" if result.move else "before Mr. X's first move"
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
        frame = result.history_frame()
        lines += ["", "history (where he could have been after each move, given the whole record):"]
        lines.append(table(list(frame.columns), frame.values.tolist(), right=[True, True, False, False]))
    return "\n".join(lines)


def _big(n: int) -> str:
    s = str(n)
    return s if len(s) <= 12 else f"{n:.3e}"


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
    for i, part in enumerate(value.split(",")):
        if not part.strip():
            continue
        name, eq, st = part.strip().partition("=")
        name = name.strip()
        if not eq:
            name, st = f"D{i + 1}", name
        n = _number(st)
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
@click.option("--moves", "-k", type=click.IntRange(min=1, max=6), default=1, show_default=True,
              help="Detective turns to reach the seal.")
@click.option("--after", type=click.Choice(["taxi", "bus", "underground", "black"]), default=None,
              help="The ticket Mr. X shows next (when he is to move).")
@click.option("--time-limit", type=SECONDS, default=10.0, show_default=True,
              help="Seconds for the whole search (model building and CP-SAT solves).")
@click.option("--workers", type=click.IntRange(min=1, max=64), default=None, help="CP-SAT worker threads.")
@click.option("--around", default=None, help="Puzzle mode: Mr. X's possible stations, e.g. 45,46,58.")
@click.option("--detectives", "dets", default=None, help="Puzzle mode: Red=13,Blue=26,...")
@click.option("--tickets", default=None, help="Puzzle mode: each detective's tickets, e.g. taxi=10,bus=8,underground=4.")
@click.option("--mrx-tickets", default=None,
              help="Puzzle mode: Mr. X's tickets, e.g. taxi=4,bus=3,underground=3,black=0 (exits use held kinds).")
@click.option("--map", "map_spec", default="london", show_default=True, help="Puzzle mode: the map.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def cordon_cmd(game: str | None, moves: int, after: str | None, time_limit: float, workers: int | None,
               around: str | None, dets: str | None, tickets: str | None, mrx_tickets: str | None,
               map_spec: str, fmt: str) -> None:
    """The smallest detective cordon that traps Mr. X, and the moves that reach it (CP-SAT).

    Give a GAME record, or --around STATIONS for a puzzle.  Exit 0 with an answer (even when
    no plan seals everything), 1 when the record is illegal or over, 2 for bad input.
    """
    from .board import Ticket
    from .cordon import cordon as run_cordon
    from .cordon import puzzle
    from .output import dumps

    if (game is None) == (around is None):
        raise InputError("give either a GAME record or --around STATIONS (not both)")
    if game is not None:
        if dets or tickets or mrx_tickets:
            raise InputError("--detectives, --tickets and --mrx-tickets are for puzzle mode (--around)")
        from .record import load_record

        result = run_cordon(load_record(game), moves, Ticket(after) if after else None, time_limit, workers)
    else:
        if after:
            raise InputError("--after needs a GAME record")
        from .validate import load_board

        result = puzzle(
            load_board(map_spec),
            _station_list(around or "", "--around"),
            _named_stations(dets, "--detectives") if dets else (),
            _ticket_counts(tickets, "--tickets", ("taxi", "bus", "underground")) if tickets else None,
            _ticket_counts(mrx_tickets, "--mrx-tickets", ("taxi", "bus", "underground", "black", "double"))
            if mrx_tickets else None,
            moves, time_limit, workers,
        )
    if fmt == "json":
        click.echo(dumps(result.to_dict()))
        return
    click.echo(_cordon_text(result))


def _cordon_text(r: Any) -> str:
    from .output import table

    ctx = r.context
    lines = []
    when = ""
    if "round" in ctx:
        who = "Mr. X moves next" if ctx["to_move"] == "mrx" else f"{ctx['to_move']} is to move"
        when = f" (round {ctx['round']}, {who})"
    lines.append(f"Mr. X may be at {len(r.target)} station{'s' if len(r.target) != 1 else ''}"
                 f"{' after ' + str(r.moves - 1) + ' more move(s)' if r.moves > 1 else ''}{when}: "
                 + " ".join(map(str, r.target)))
    if r.cordon_size is None:
        lines.append(f"cordon size: not found within the time limit ({r.cordon_status})")
    else:
        need = f"; {r.detectives_available} detectives available" if r.detectives_available else ""
        lines.append(f"cordon size: {r.cordon_size} ({r.cordon_status}){need}")
        lines.append("one minimal cordon: " + " ".join(map(str, r.cordon)))
    if r.plan:
        verdict = "seals every possible station" if r.feasible else "cannot seal everything"
        lines.append(f"plan for {r.moves} turn{'s' if r.moves != 1 else ''}: {verdict}")
        rows = [[p.name, p.describe(), "yes" if p.on_duty else ""] for p in r.plan]
        lines.append(table(["detective", "moves", "on duty"], rows, right=[False, False, False]))
        if r.open:
            lines.append(f"open stations ({len(r.open)}): " + " ".join(map(str, r.open)))
        lines.append(f"sealed probability: {r.sealed_probability:.4f}")
    elif r.detectives_available:
        lines.append(f"no plan found within the time limit ({r.status})")
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
        raise InputError(f"expected WIDTHxHEIGHT in inches (e.g. 16x12), got {value!r}", where="--size") from None
    if not all(0.5 <= v <= 100 for v in size):
        raise InputError(f"each side must be 0.5 to 100 inches, got {value!r}", where="--size")
    return size


@main.command(short_help="Heatmaps over the board: possible, history, reach, coverage, cordon.")
@click.argument("game", required=False)
@click.option("--layer", type=click.Choice(["possible", "history", "reach", "coverage", "cordon"]),
              default="possible", show_default=True)
@click.option("-o", "--output", "out", default=None, help="Output file (.png, .svg, .pdf). Default: LAYER.png")
@click.option("--round", "round_", type=click.IntRange(min=0), default=None,
              help="Draw the state as it was after round N.")
@click.option("--weights", type=click.Choice(["paths", "uniform", "moves"]), default="paths")
@click.option("--from", "from_", type=int, default=None, help="reach: the starting station.")
@click.option("--tickets", default=None, help="reach: ticket limits, e.g. taxi=10,bus=8,underground=4 (black=N for Mr. X).")
@click.option("--moves", "-k", type=click.IntRange(min=1, max=6), default=1, help="cordon: detective turns.")
@click.option("--time-limit", type=SECONDS, default=10.0, help="cordon: seconds for the whole search.")
@click.option("--map", "map_spec", default="london", show_default=True, help="reach without a GAME: the map.")
@click.option("--dpi", type=click.IntRange(min=20, max=600), default=None, help="Dots per inch (default 100).")
@click.option("--size", default=None, help="Figure size in inches, WIDTHxHEIGHT (default 16x12).")
def heatmap(game: str | None, layer: str, out: str | None, round_: int | None, weights: str, from_: int | None,
            tickets: str | None, moves: int, time_limit: float, map_spec: str, dpi: int | None,
            size: str | None) -> None:
    """Draw the board coloured by an analysis and write an image; prints its path.

    Layers: possible (default), history, reach --from STATION, coverage, cordon.
    """
    fig_size = _size(size)
    out = out or f"{layer}.png"
    from pathlib import Path

    if Path(out).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InputError(f"unknown image format {Path(out).suffix or '(none)'!r}, expected .png, .svg or .pdf",
                         out)
    from .files import refuse_overwrite
    from .mapio import source_files

    # never draw over an input (a record may be named game.svg)
    refuse_overwrite([out], ([game] if game else []) + [str(p) for p in source_files(map_spec)])
    if layer == "reach":
        if from_ is None:
            raise InputError("the reach layer needs --from STATION")
        limits = _ticket_counts(tickets, "--tickets", ("taxi", "bus", "underground", "black")) if tickets else None
        from .plot import reach_figure, save
        from .validate import load_board

        board = load_board(map_spec)
        if game is not None:
            from .record import load_record

            rec = load_record(game)
            refuse_overwrite([out], _record_inputs(game, rec))
            board = rec.board
        fig = reach_figure(board, from_, limits, black=bool(limits and limits.get("black")), size=fig_size, dpi=dpi)
    else:
        if game is None:
            raise InputError(f"the {layer} layer needs a GAME record")
        if from_ is not None or tickets is not None:
            raise InputError("--from and --tickets belong to the reach layer")
        from . import plot
        from .record import load_record

        rec = load_record(game)
        refuse_overwrite([out], _record_inputs(game, rec))
        if layer == "possible":
            fig = plot.possible_figure(rec, weights, round_, fig_size, dpi)
        elif layer == "history":
            fig = plot.history_figure(rec, weights, round_, fig_size, dpi)
        elif layer == "coverage":
            fig = plot.coverage_figure(rec, round_, fig_size, dpi)
        else:
            fig = plot.cordon_figure(rec, moves, round_, time_limit, fig_size, dpi)
        save = plot.save
    click.echo(str(save(fig, out, dpi)))
