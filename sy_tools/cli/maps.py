"""``sy-tools validate`` and ``sy-tools map``."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import InputError, MapFormatError
from .app import main
from .common import say_written
from .options import (
    TICKET_CHOICES,
    AsciiInt,
    format_option,
    input_format_option,
    map_option,
    rules_option,
)


@main.command("validate")
@click.argument("maps", nargs=-1, required=True)
@format_option("text", "json")
@input_format_option
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@rules_option("The rules the map is for: under cutoff_escape, bus/underground connections without via data are "
              "a warning")
def validate_cmd(maps: tuple[str, ...], fmt: str, input_format: str | None, strict: bool, rules: Any) -> None:
    """Check map files for every detectable defect.

    MAPS are files (json, Bristol graph.txt), folders holding stations.txt + connections.txt,
    or built-in names (london).  Exit 0: no errors; 1: errors found; 2: a file can't be read.

    \b
    Examples:
      sy-tools validate london
      sy-tools validate my-map.json --strict --format json
    """
    from ..findings import Finding
    from ..formats.map_check import validate_map
    from ..formats.output import dumps

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
            click.echo(report.to_text())
        if not report.ok:
            worst = max(worst, 1)
    if fmt == "json":
        click.echo(dumps(out))
    sys.exit(worst)


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
    from ..analysis.mapstats import map_info
    from ..formats.map_load import load_board
    from ..formats.output import dumps

    with _format_hint("--input-format"):
        board = load_board(map_spec, input_format)
    info = map_info(board)
    if fmt == "csv":
        click.echo(info.to_csv(), nl=False)
    else:
        click.echo(dumps(info.to_dict()) if fmt == "json" else info.to_text())


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
    from ..formats.files import output_path
    from ..formats.map_load import load_board
    from ..formats.map_write import dropped_on_write, output_format, source_files, write_map

    dst = output_path(dst)
    with _format_hint("--input-format"):
        board = load_board(src, input_format)
    for p in write_map(board, dst, to_fmt, keep=source_files(src, input_format)):
        say_written(p)
    note = dropped_on_write(board, output_format(dst, to_fmt))
    if note:
        click.echo(f"warning: {note}", err=True)


@map_group.command("neighbours")
@click.argument("first", metavar="[MAP]")
@click.argument("second", metavar="STATION", required=False)
@click.option("--ticket", type=click.Choice(TICKET_CHOICES), default=None,
              help="Only this ticket (default: every ticket).")
@map_option("The map, when MAP is not given")
@input_format_option
@format_option("text", "json")
def map_neighbours(first: str, second: str | None, ticket: str | None, map_spec: str, input_format: str | None,
                   fmt: str) -> None:
    """Where a piece can go from STATION, by ticket.  MAP as in the other map commands (a
    built-in name or a map file; london by default; --map says it too).

    \b
    Examples (where can I go from 67 by bus?):
      sy-tools map neighbours 67 --ticket bus
      sy-tools map neighbours london 74
    """
    from click.core import ParameterSource

    from ..analysis.legal import neighbours
    from ..engine.tickets import Ticket
    from ..formats.map_load import load_board
    from ..formats.output import dumps

    ctx = click.get_current_context()
    if second is not None:  # MAP STATION
        if ctx.get_parameter_source("map_spec") is not ParameterSource.DEFAULT:
            raise InputError(f"the map is given twice ({first!r} and --map {map_spec!r}); give it once")
        map_spec, station_text = first, second
    elif not first.strip().isdigit():
        raise InputError(f"expected [MAP] STATION (e.g. 'london 74', or '74' with --map), got only {first[:60]!r}")
    else:
        station_text = first
    station = AsciiInt(min=0).convert(station_text, ctx.command.params[1], ctx)
    with _format_hint("--input-format"):
        board = load_board(map_spec, input_format)
    result = neighbours(board, station, Ticket(ticket) if ticket else None)
    click.echo(dumps(result.to_dict()) if fmt == "json" else result.to_text())


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
    from ..analysis.mapstats import map_diff
    from ..formats.map_load import load_board
    from ..formats.output import dumps

    with _format_hint("--input-format"):
        d = map_diff(load_board(a, input_format), load_board(b, input_format), a, b)
    if fmt == "json":
        click.echo(dumps(d.to_dict()))
    else:
        for line in d.lines():
            click.echo(line)
    sys.exit(0 if d.same else 1)
