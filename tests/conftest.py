from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import settings

from sy_tools.engine.board import Board
from sy_tools.formats.map_load import load_board

# CI replays the same examples every run (a red CI means a change broke something); locally each
# run explores new ones.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def london() -> Board:
    return load_board("london")


@pytest.fixture
def cli():
    """Run the real CLI: ``cli("validate", "london")`` -> click Result (stdout/stderr apart)."""
    from sy_tools.cli.app import main

    runner = CliRunner()

    def run(*args: str, input: str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return run
