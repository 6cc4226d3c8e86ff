"""The `simulate` example in docs/cli.md prints what the command prints today."""

from __future__ import annotations

import re

from helpers import REPO

CLI_MD = (REPO / "docs" / "cli.md").read_text()


def test_docs_simulate_output_is_current(cli):
    start = CLI_MD.index("## `sy-tools simulate`")
    block = re.compile(r"```text\n(.*?)```", re.S).search(CLI_MD, start)
    assert block
    command, *expected = block.group(1).rstrip("\n").splitlines()
    assert command == "$ sy-tools simulate -n 2000 --starts 166,146 --by start --jobs 1"
    r = cli(*command.split()[2:])
    assert r.exit_code == 0
    assert r.output.rstrip("\n").splitlines() == expected
