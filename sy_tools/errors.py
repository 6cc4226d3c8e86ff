"""Error types.  Bad input and "the analysis says no" are kept apart (exit codes 2 and 1)."""

from __future__ import annotations


class SyToolsError(Exception):
    """Base class of every error sy-tools raises on purpose.  ``str(err)`` is one line:
    the file, the place inside it, and what is wrong (with the value)."""

    exit_code = 2

    def __init__(self, message: str, file: str | None = None, where: str | None = None) -> None:
        self.file = file
        self.where = where
        message = str(message)  # also an error re-raised from its own instance (gymnasium's async workers do)
        self.detail = message
        super().__init__(": ".join([p for p in (file, where) if p] + [message]))


class InputError(SyToolsError, ValueError):
    """The input can't be used: a file that can't be read, a value of the wrong type or out of
    range.  Exit code 2.  A :class:`ValueError` too, so a library caller may catch it as one."""

    exit_code = 2


class ArgumentTypeError(InputError, TypeError):
    """A library call's argument of the wrong type (a path where a record is expected, a float
    where a station is): a :class:`TypeError` too, and an :class:`InputError` (exit code 2)."""


class MapError(InputError):
    """A map that can't be read or doesn't validate."""


class RecordError(InputError):
    """A game record that can't be read or doesn't fit the format."""


class AnalysisError(SyToolsError):
    """The input is well-formed but the analysis finds it impossible (an illegal or
    self-contradictory record, a finished game).  Exit code 1."""

    exit_code = 1


class MapFormatError(MapError):
    """A map file whose format can't be told from its name or content.  The command line adds
    which option names the format (``--input-format`` or ``--from``)."""
