"""Every command's --help shows examples that work and the defaults of its options."""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from helpers import REPO

from sy_tools.cli.app import main

ROOT = REPO


def _commands(group: click.Group = main, path: tuple[str, ...] = ()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is None or cmd.hidden:
            continue
        yield (*path, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))


COMMANDS = [((), main), *_commands()]


def _help(path: tuple[str, ...]) -> str:
    r = CliRunner().invoke(main, [*path, "--help"], terminal_width=80)
    assert r.exit_code == 0, r.output
    return r.output


def _examples(text: str) -> list[str]:
    """The ``sy-tools ...`` lines of a help text's Example(s) block."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip().startswith("Example") and line.strip().endswith(":")]
    out = []
    for i in starts:
        for line in lines[i + 1:]:
            if not line.strip().startswith("sy-tools "):
                break
            out.append(line.strip())
    return out


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "sy-tools")
def test_every_command_shows_an_example(path):
    examples = _examples(_help(path))
    assert examples, f"sy-tools {' '.join(path)} --help shows no example"
    # the examples of a command use that command (a group's may show its subcommands)
    assert all(e.split()[1:1 + len(path)] == list(path) for e in examples), examples


#: the puzzle itself (instead of a GAME): nothing to default to
PUZZLE_INPUTS = ("--around", "--detectives")


def _option_rows():
    for path, cmd in COMMANDS:
        for p in cmd.params:
            if isinstance(p, click.Option) and not p.hidden and p.name not in ("help", "version"):
                yield path, p


@pytest.mark.parametrize("path,opt", list(_option_rows()),
                         ids=lambda x: " ".join(x) if isinstance(x, tuple) else x.opts[-1])
def test_every_option_shows_its_default(path, opt):
    """A value an option takes when not given is on screen: click's ``[default: ...]``, or the
    help's own words when the default depends on something else (no default = says so)."""
    ctx = click.Context(main, **main.context_settings)
    for name in path:
        ctx = click.Context(ctx.command.get_command(ctx, name), parent=ctx)  # type: ignore[attr-defined]
    record = opt.get_help_record(ctx)
    assert record is not None
    row = record[1]
    if opt.is_flag or opt.required or opt.multiple or opt.count or opt.opts[-1] in PUZZLE_INPUTS:
        return
    if opt.default is not None:
        assert "[default:" in row, f"{opt.opts[-1]}: {row!r}"
    else:
        assert "default" in row.lower(), f"{opt.opts[-1]} has no default and its help does not say what then: {row!r}"


@pytest.mark.parametrize("path", [p for p, c in COMMANDS if isinstance(c, click.Group)],
                         ids=lambda p: " ".join(p) or "sy-tools")
def test_no_command_line_is_cut_off(path):
    """``record convert``'s line was cut off in the command list (an 80-column terminal)."""
    r = CliRunner().invoke(main, [*path, "--help"], terminal_width=80)
    listing = r.output.split("Commands:", 1)[1]
    assert "..." not in listing, listing


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder like a clone's: examples/ and data/, plus what other examples write first."""
    d = tmp_path_factory.mktemp("examples")
    os.symlink(ROOT / "examples", d / "examples")
    os.symlink(ROOT / "data", d / "data")
    shutil.copy(ROOT / "data" / "london.json", d / "my-map.json")
    return d


def _run(example: str, cwd: Path):
    import glob

    words = shlex.split(example, comments=True)
    words = [w for word in words for w in (sorted(glob.glob(word, root_dir=cwd)) if "*" in word else [word])]
    out_file = None
    if ">" in words:
        i = words.index(">")
        words, out_file = words[:i], words[i + 1]
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = CliRunner().invoke(main, words[1:])
        if out_file is not None:
            Path(out_file).write_text(r.stdout)
    finally:
        os.chdir(old)
    return r


ALL_EXAMPLES = sorted({e for path, _ in COMMANDS for e in _examples(_help(path))},
                      # what others read is written first: simulate's results, convert's graph.txt
                      key=lambda e: (" simulate " not in e and " convert " not in e and " rules " not in e, e))


@pytest.mark.parametrize("example", ALL_EXAMPLES)
def test_every_help_example_runs(example, workdir):
    if "COMMAND" in example:
        return
    if example.startswith("sy-tools serve "):
        # a server runs until it is stopped (tests/web/test_serve_cli.py runs it as a process, on
        # 127.0.0.1, and stops it): here its words must be options serve has, as the help shows
        words = shlex.split(example, comments=True)
        r = CliRunner().invoke(main, [*words[1:], "--help"])
        assert r.exit_code == 0, f"{example}: {r.output}"
        return
    r = _run(example, workdir)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code in (0, 1), f"{example}: exit {r.exit_code}: {r.output}"
    assert "Traceback" not in r.output


def test_every_command_is_listed_with_its_module():
    """``sy-tools`` imports a command's module when that command runs (start-up of a batch):
    the table says which module registers each command, and no command is missing from it."""
    import importlib
    import pkgutil

    import sy_tools.cli
    from sy_tools.cli.app import COMMAND_MODULES

    for m in pkgutil.iter_modules(sy_tools.cli.__path__):
        importlib.import_module(f"sy_tools.cli.{m.name}")
    assert set(main.commands) == set(COMMAND_MODULES)
    for name, cmd in main.commands.items():
        assert cmd.callback is not None
        assert cmd.callback.__module__ == f"sy_tools.cli.{COMMAND_MODULES[name]}", name


def test_a_command_loads_only_its_own_module():
    import subprocess
    import sys

    code = ("import sys; from sy_tools.cli import main\n"
            "try:\n    main(['possible', sys.argv[1], '--format', 'jsonl'])\nexcept SystemExit:\n    pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith('sy_tools.cli.')))")
    r = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "in-progress.json")],
                       capture_output=True, text=True)
    assert "LOADED ['sy_tools.cli.app', 'sy_tools.cli.options', 'sy_tools.cli.possible']" in r.stdout, \
        r.stdout[-500:] + r.stderr


def test_the_help_does_not_import_the_search():
    """`sy-tools --help` imports every command's module, but none of the searches: the advise
    command's help reads its widths from the light ``sy_tools.solvers.beam``."""
    import subprocess
    import sys

    code = ("import sys; from sy_tools.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith('sy_tools.solvers.')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "LOADED ['sy_tools.solvers.beam']" in r.stdout, r.stdout[-500:] + r.stderr
