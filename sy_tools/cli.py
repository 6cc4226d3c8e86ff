"""The ``sy-tools`` command line: a thin click layer over the library.

Every command parses its options, calls one library function and formats the result.  Errors
the library raises on purpose become one line on stderr: exit 2 for bad input, 1 when the
analysis says no.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .errors import InputError, SyToolsError

FORMAT_TJ = click.Choice(["table", "json"])


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SyToolsError as e:
            click.echo(f"error: {e}", err=True)
            ctx.exit(e.exit_code)
        except OSError as e:  # writing an output file, a broken pipe ...
            where = f"{e.filename}: " if getattr(e, "filename", None) else ""
            click.echo(f"error: {where}{e.strerror or e}", err=True)
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
            report = validate_map(m, input_format)
        except InputError as e:
            if fmt == "json":
                out.append({"level": "error", "code": "unreadable", "message": e.detail,
                            "location": str(e).rsplit(": ", 1)[0], "file": m, "line": None, "path": None})
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

    info = map_info(load_board(map_spec, input_format))
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
    from .mapio import write_map
    from .validate import load_board

    board = load_board(src, from_fmt)
    for p in write_map(board, dst, to_fmt):
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
