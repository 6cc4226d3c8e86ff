"""Regenerate the pictures under docs/ and the example win-rate file (run from the repo
root):

    .venv/bin/python tools/make_docs_images.py
"""

from __future__ import annotations

import io

from PIL import Image

from sy_tools import plot
from sy_tools.formats.files import atomic_write_bytes, atomic_write_text
from sy_tools.formats.map_load import load_board
from sy_tools.formats.record_io import load_record

WINRATE_CSV = "docs/winrate-example.csv"


def small_png(fig, path: str) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, facecolor="white")
    img = Image.open(buf).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    atomic_write_bytes(path, out.getvalue())


def winrate_example(games: int = 2000, seed: int = 1) -> str:
    """Greedy Mr. X against greedy detectives, classic rules (``sy-tools simulate -n 2000 --seed 1
    --mrx-policy greedy --detective-policy greedy --out ...``): one row per game, the columns
    ``heatmap --layer winrate`` reads."""
    from sy_tools.selfplay.game import GameSpec
    from sy_tools.selfplay.runner import simulate

    spec = GameSpec(mrx_policy="greedy", detective_policy="greedy", seed=seed)
    frame = simulate(spec, games, jobs=1).to_frame()
    return frame[["game", "mrx_start", "winner"]].to_csv(index=False)


def main() -> None:
    rec = load_record("examples/in-progress.json")
    small_png(plot.possible_figure(rec, round=6, size=(12, 9), dpi=100), "docs/possible.png")
    small_png(plot.history_figure(rec, size=(12, 9), dpi=100), "docs/history.png")
    small_png(plot.cordon_figure(rec, moves=2, round=7, size=(12, 9), dpi=100), "docs/cordon.png")
    small_png(plot.coverage_figure(rec, size=(12, 9), dpi=100), "docs/coverage.png")
    from sy_tools.solvers.forced import solve_puzzle

    forced = solve_puzzle(load_board("london"), [154], [("Red", 185), ("Blue", 130), ("Green", 168)], move_number=3,
                    mrx_tickets={"taxi": 4, "bus": 3, "underground": 3, "black": 0, "double": 0})
    small_png(plot.solve_figure(load_board("london"), forced, size=(12, 9), dpi=100), "docs/solve.png")
    atomic_write_text(WINRATE_CSV, winrate_example())
    board = load_board("london")
    small_png(plot.winrate_figure(board, plot.load_winrates(WINRATE_CSV, board), size=(12, 9), dpi=100,
                                  source=WINRATE_CSV), "docs/winrate.png")


if __name__ == "__main__":
    main()
