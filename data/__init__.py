"""Map data bundled with sy-tools (installed as the package ``sy_tools.data``).

The repository keeps it in ``data/`` at the top level; ``pyproject.toml`` maps that folder to
this package so ``london`` resolves from an installed copy too.
"""
