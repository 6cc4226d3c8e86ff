"""Saving a figure atomically."""

from __future__ import annotations

import io
import os
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from ..formats.files import atomic_write_bytes
from ..formats.values import picture_format


def save(fig: Figure, path: str | os.PathLike[str], dpi: int | None = None) -> Path:
    """Write ``fig`` atomically; the format comes from the suffix (.png, .svg, .pdf)."""
    p = Path(path)
    fmt = picture_format(p)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi or fig.dpi, facecolor="white")
    plt.close(fig)
    atomic_write_bytes(p, buf.getvalue())
    return p
