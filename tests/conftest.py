from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from sy_tools.engine.board import Board
from sy_tools.formats.map_load import load_board

# No example has a time limit (hypothesis's default deadline is 200 ms, and a slow generator fails
# a health check): a machine busy with other work is no regression.  CI replays the same examples
# every run (a red CI means a change broke something); locally each run explores new ones.
_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("untimed", **_UNTIMED)
settings.register_profile("ci", derandomize=True, **_UNTIMED)
settings.load_profile("ci" if os.environ.get("CI") else "untimed")


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
