"""Error types.  Bad input and "the analysis says no" are kept apart (exit codes 2 and 1)."""

from __future__ import annotations


class SyToolsError(Exception):
    """Base class of every error sy-tools raises on purpose."""

    exit_code = 2


class InputError(SyToolsError):
    """The input can't be used: a file that can't be read, a value of the wrong type or out of
    range.  ``str(err)`` is one line naming the file, the place inside it and the value."""

    exit_code = 2

    def __init__(self, message: str, file: str | None = None, where: str | None = None) -> None:
        self.file = file
        self.where = where
        self.detail = message
        parts = [p for p in (file, where) if p]
        super().__init__(": ".join([*parts, message]))


class MapError(InputError):
    """A map that can't be read or doesn't validate."""


class RecordError(InputError):
    """A game record that can't be read or doesn't fit the format."""


class AnalysisError(SyToolsError):
    """The input is well-formed but the analysis finds it impossible (an illegal or
    self-contradictory record).  Exit code 1."""

    exit_code = 1

    def __init__(self, message: str, file: str | None = None, where: str | None = None) -> None:
        self.file = file
        self.where = where
        self.detail = message
        parts = [p for p in (file, where) if p]
        super().__init__(": ".join([*parts, message]))
