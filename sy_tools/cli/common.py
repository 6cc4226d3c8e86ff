"""Helpers shared by several commands."""

from __future__ import annotations

import sys
from typing import Any

import click


def _warn_cutoff(board: Any, rules: Any) -> None:
    """Say on stderr when the cut-off escape runs on a map lacking via data (never silently)."""
    from ..formats.map_check import cutoff_warning

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

    from ..formats.map_write import source_files

    spec = rec.map_spec
    if spec != "london" and not os.path.isabs(spec):
        spec = os.path.join(os.path.dirname(game), spec)
    return [game, *map(str, source_files(spec))]
