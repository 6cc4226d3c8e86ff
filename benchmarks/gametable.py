"""gametable: long strength tables played game by game into a CSV file, resumable and split
between processes; one place for what :mod:`benchmarks.openspiel_strength` and
:mod:`benchmarks.opponents` both need.

A table is a list of cells, each ``(label, Mr. X's policy, the detectives' policy)``; game ``i``
of every cell is game ``i`` of ``simulate --seed SEED`` (the same deal whatever the cell, the
process or the order), so the games are played one at a time, game ``i`` of every cell before
game ``i + 1`` of any, each row appended to the file as it ends: a run cut short leaves every cell
with about as many games, and a run started again on the same file plays only what is missing.
``shard = (K, N)`` plays only the games ``i`` with ``i % N == K``: N processes with their own
files split a run between cores; :func:`summary` merges the files by game.
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from collections.abc import Iterable, Sequence

#: the CSV columns, one row a game
COLUMNS = ("budget", "mrx_policy", "detective_policy", "game", "winner", "reason", "rounds", "seconds")

#: a cell of a table: (label, Mr. X's policy, the detectives' policy)
Cell = tuple[str, str, str]


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` as ``(K, N)`` with ``0 <= K < N`` (:class:`ValueError` otherwise)."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard {text}: expected K/N, e.g. 0/2") from None
    if not 0 <= k < n:
        raise ValueError(f"--shard {text}: expected K/N with 0 <= K < N")
    return k, n


def done_games(out: str) -> set[tuple[str, str, int]]:
    """``(Mr. X's policy, the detectives' policy, game)`` of every row ``out`` holds."""
    if not os.path.exists(out):
        return set()
    with open(out, newline="") as f:
        return {(r["mrx_policy"], r["detective_policy"], int(r["game"])) for r in csv.DictReader(f)}


def run(cells: Sequence[Cell], games: int, seed: int, out: str, shard: tuple[int, int] = (0, 1)) -> Iterable[str]:
    """Play what ``out`` lacks of ``games`` games a cell (those of ``shard``), appending a row a
    game; yield a line after each game."""
    from sy_tools.selfplay.game import GameSpec, play_game

    cells = unique(cells)
    done = done_games(out)
    new = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(COLUMNS)
        for i in range(shard[0], games, shard[1]):
            for label, mrx, det in cells:
                if (mrx, det, i) in done:
                    continue
                t = time.process_time()
                g = play_game(GameSpec(mrx_policy=mrx, detective_policy=det, seed=seed), i)
                w.writerow((label, mrx, det, i, g.winner, g.reason, g.rounds, round(time.process_time() - t, 1)))
                f.flush()
                yield f"game {i}: {mrx} v {det}: {g.winner} ({g.reason}, {g.rounds} rounds)"


def unique(cells: Sequence[Cell]) -> list[Cell]:
    """``cells`` less any whose matchup (Mr. X, detectives) came before: a matchup is played and
    counted once."""
    seen: set[tuple[str, str]] = set()
    out = []
    for c in cells:
        if (c[1], c[2]) not in seen:
            seen.add((c[1], c[2]))
            out.append(c)
    return out


def rows(outs: Sequence[str]) -> dict[tuple[str, str, str], list[dict[str, str]]]:
    """The rows of ``outs`` by cell ``(label, Mr. X, detectives)``, each game once."""
    by: dict[tuple[str, str, str], dict[str, dict[str, str]]] = {}
    for out in outs:
        with open(out, newline="") as f:
            for r in csv.DictReader(f):
                by.setdefault((r["budget"], r["mrx_policy"], r["detective_policy"]), {})[r["game"]] = r
    return {k: list(v.values()) for k, v in by.items()}


def summary(outs: Sequence[str], order: Sequence[Cell] | None = None, label: str = "budget") -> str:
    """A Markdown table of ``outs``: per cell the games, Mr. X's wins, his win rate with its
    Wilson 95% interval and the CPU seconds a game; cells in ``order`` (by Mr. X and the
    detectives), then any others sorted."""
    from sy_tools.selfplay.stats import wilson

    by = rows(outs)
    keys = [k for c in unique(order or ()) for k in by if (k[1], k[2]) == (c[1], c[2])]
    keys += sorted((k for k in by if k not in keys), key=lambda k: (int(k[0]) if k[0].isdigit() else 0, k))
    lines = [f"| {label} | Mr. X | detectives | games | Mr. X wins | Mr. X win rate | Wilson 95% | CPU s/game |",
             "| ---: | --- | --- | ---: | ---: | ---: | --- | ---: |"]
    for key in keys:
        rs = by[key]
        n = len(rs)
        wins = sum(r["winner"] == "mrx" for r in rs)
        lo, hi = wilson(wins, n)
        cpu = sum(float(r["seconds"]) for r in rs) / n
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {n} | {wins} | {wins / n:.1%} | {lo:.1%}-{hi:.1%} | {cpu:.0f} |")
    return "\n".join(lines)


def add_arguments(ap: argparse.ArgumentParser, out_help: str = "the CSV file (several with --summary)") -> None:
    """``--out`` (repeatable), ``--shard K/N`` and ``--summary``, as every table takes them."""
    ap.add_argument("--out", action="append", metavar="CSV", help=out_help)
    ap.add_argument("--shard", default="0/1", help="K/N: play only the games i with i %% N == K")
    ap.add_argument("--summary", action="store_true", help="print the table of the --out files")


def main(ap: argparse.ArgumentParser, a: argparse.Namespace, cells: Sequence[Cell], label: str = "budget",
         progress: bool = False) -> None:
    """Play ``a.games`` games a cell into ``a.out`` (unless ``a.summary``), then print the table
    of the ``a.out`` files; a line a game when ``progress``."""
    try:
        shard = parse_shard(a.shard)
    except ValueError as e:
        ap.error(str(e))
    missing = [f for f in a.out if a.summary and not os.path.exists(f)]
    if missing:
        ap.error(f"--out {missing[0]}: no such file")
    if not a.summary:
        if len(a.out) != 1:
            ap.error("one --out file when playing (several only with --summary)")
        for line in run(cells, a.games, a.seed, a.out[0], shard):
            if progress:
                print(line, flush=True)
    print(summary(a.out, cells, label))
