"""The ``sy-tools`` click group: error handling, exit codes, broken pipes."""

from __future__ import annotations

import sys
import time
from contextvars import ContextVar
from typing import Any

import click

from ..errors import SyToolsError

#: Longest error line printed (an input may be quoted in it; the rest is cut).
MAX_ERROR_LINE = 2000


def clip_error(line: str) -> str:
    """An error line cut to :data:`MAX_ERROR_LINE` characters."""
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


_STARTED: ContextVar[float | None] = ContextVar("sy_tools_command_started", default=None)


def command_started() -> float | None:
    """When the running command began (``time.monotonic()``, before its module was imported and
    its options read): a ``--time-limit`` counts from here."""
    return _STARTED.get()


#: Each command and the module that defines it: a command's module is imported when that command
#: runs (or ``--help`` lists them all), so that ``sy-tools possible`` does not load ``advise``'s
#: solvers and the rest first (start-up is a large share of a batch of small records).
COMMAND_MODULES = {
    "advise": "advise", "check": "records", "cordon": "cordon", "heatmap": "heatmap", "map": "maps",
    "moves": "records", "play": "play", "possible": "possible", "puzzle": "puzzle", "record": "records", "rules": "records",
    "replay": "serve", "serve": "serve",
    "simulate": "simulate", "solve": "solve", "validate": "maps",
}


class _Group(click.Group):
    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            import importlib

            importlib.import_module(f"{__package__}.{module}")  # (its decorators register it here)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for name in COMMAND_MODULES:
            self.get_command(ctx, name)
        return super().list_commands(ctx)

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """Like click's, but a usage error is one line on stderr (exit 2), never a usage dump; a
        closed stdout is an error line, a reader that went away a quiet exit 141."""
        if sys.stdout is None:  # started with stdout closed (>&-): nothing could be printed
            click.echo("error: standard output is closed; nothing could be printed", err=True)
            sys.exit(2)
        token = _STARTED.set(time.monotonic())
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
        finally:
            _STARTED.reset(token)

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
            click.echo(clip_error(f"error: {e}"), err=True)
            ctx.exit(e.exit_code)
        except BrokenPipeError:
            _quiet_broken_pipe()  # the reader went away: end quietly
        except OSError as e:  # writing an output file ...
            where = f"{e.filename}: " if getattr(e, "filename", None) else ""
            click.echo(clip_error(f"error: {where}{e.strerror or e}"), err=True)
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
