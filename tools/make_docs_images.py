"""Regenerate the small README pictures under docs/ (run from the repo root):

    .venv/bin/python tools/make_docs_images.py
"""

from __future__ import annotations

import io

from PIL import Image

from sy_tools import plot
from sy_tools.files import atomic_write_bytes
from sy_tools.record import load_record


def small_png(fig, path: str) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, facecolor="white")
    img = Image.open(buf).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    atomic_write_bytes(path, out.getvalue())


def main() -> None:
    rec = load_record("examples/in-progress.json")
    small_png(plot.possible_figure(rec, size=(12, 9), dpi=80), "docs/possible.png")
    small_png(plot.cordon_figure(rec.truncated(7), moves=2, size=(12, 9), dpi=80), "docs/cordon.png")


if __name__ == "__main__":
    main()
