"""The ``sy-tools`` command line: a thin click layer over the library.

:mod:`.app` holds the group (error lines, exit codes, broken pipes) and :mod:`.options` the
shared flags; each command group has a module of its own, imported when one of its commands
runs (:data:`.app.COMMAND_MODULES`), which registers them.
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
