"""Saving a figure atomically."""

from __future__ import annotations

import io
import os
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from ..errors import InputError
from ..formats.files import atomic_write_bytes
from .style import FORMATS


def save(fig: Figure, path: str | os.PathLike[str], dpi: int | None = None) -> Path:
    """Write ``fig`` atomically; the format comes from the suffix (.png, .svg, .pdf)."""
    p = Path(path)
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise InputError(f"unknown image format {p.suffix or '(none)'!r}, expected .png, .svg or .pdf", str(path))
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi or fig.dpi, facecolor="white")
    plt.close(fig)
    atomic_write_bytes(p, buf.getvalue())
    return p
