"""What several commands print besides their result: warnings and the paths written."""

from __future__ import annotations

import sys
from typing import Any

import click


def warn_cutoff(board: Any, rules: Any) -> None:
    """Say on stderr when the cut-off escape runs on a map lacking via data (never silently)."""
    from ..formats.map_check import cutoff_warning

    note = cutoff_warning(board, rules)
    if note:
        click.echo(f"warning: {note}", err=True)


def say_written(path: Any) -> None:
    """Print the path of a file written, unless it is our own standard output (``-o
    /dev/stdout``: the path would land in the data)."""
    import os

    from ..formats.files import stream_fd

    if stream_fd(path) is not None:
        return
    try:
        if os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno())):
            return
    except (OSError, ValueError, AttributeError):
        pass  # (no real stdout under a test runner)
    click.echo(str(path))


def load_game(game: str, round_: int | None) -> Any:
    """The record a command analyses (as it stood after ``--round``), refusing the puzzle flags
    beside it and warning about the cut-off escape."""
    from ..formats.record_io import load_record
    from .options import refuse_puzzle_flags

    refuse_puzzle_flags()
    rec = load_record(game).at_round(round_)
    warn_cutoff(rec.board, rec.rules)
    return rec


def load_puzzle_board(map_spec: str, rules: Any) -> Any:
    """The board of a puzzle (``--map``), warning about the cut-off escape under ``rules``."""
    from ..formats.map_load import load_board

    board = load_board(map_spec)
    warn_cutoff(board, rules)
    return board
