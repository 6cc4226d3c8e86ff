"""The ``sy-tools`` command line: a thin click layer over the library.

:mod:`.app` holds the group (error lines, exit codes, broken pipes) and :mod:`.options` the
shared flags; each command group has a module of its own, imported here to register it.
"""

from __future__ import annotations

from . import advise, cordon, heatmap, maps, play, possible, records, simulate, solve  # noqa: F401  (register the commands)
from .app import main

__all__ = ["main"]
