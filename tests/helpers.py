"""Test helpers: the repository's root, small random boards and random legal games (the
oracles they are checked against live in oracles.py)."""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from benchmarks.small_maps import small_board  # noqa: F401  (the tests' small random boards)
from sy_tools.engine.board import Board
from sy_tools.engine.observations import mrx_move_seen
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.formats.record import Record

#: The repository's root (the tests live one or two folders below it).
REPO = Path(__file__).resolve().parent.parent


def default_signals() -> None:
    """A child process's ``preexec_fn``: SIGINT, SIGTERM and SIGHUP back to their defaults, so a
    test that signals the child means the same whatever the test run inherited (a run started
    under ``nohup`` passes SIGHUP on ignored, and a program keeps an ignored signal ignored)."""
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far, all its threads (Linux's /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # (the name, in parentheses, may hold spaces)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_cpu(proc: Any, seconds: float, timeout: float = 120.0) -> None:
    """Wait until the child ``proc`` (a :class:`subprocess.Popen`) has used ``seconds`` of CPU time
    (so it has got as far as that much work takes, however busy the machine), or has ended, or
    ``timeout`` seconds have passed (then the caller's checks say what went wrong).  Without
    /proc: sleeps ``seconds``."""
    import time

    if not os.path.isdir(f"/proc/{proc.pid}"):
        time.sleep(seconds)
        return
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        try:
            if cpu_seconds(proc.pid) >= seconds:
                return
        except (OSError, ValueError, IndexError):
            return
        time.sleep(0.05)


def plan_problems(rec_doc: dict[str, Any], plan: Any, k: int) -> list[str]:
    """A k-turn cordon ``plan`` appended to the detectives' record ``rec_doc`` (its last round
    holds Mr. X's move only; his later moves hidden, black), replayed by the referee: the
    lines of its detective problems (none for a legal plan)."""
    from sy_tools.analysis.referee import check
    from sy_tools.formats.game_json import parse_record

    rounds = list(rec_doc["rounds"])
    for j in range(k):
        moves = [{"name": p.name, "ticket": p.tickets[j], "to": p.path[j + 1]} for p in plan
                 if p.tickets[j] is not None]
        if j == 0:
            rounds[-1] = {"mrx": rounds[-1]["mrx"], "detectives": moves}
        else:
            rounds.append({"mrx": [{"ticket": "black"}], "detectives": moves})
    r = check(parse_record(dict(rec_doc, rounds=rounds)))
    return [p.line(None) for p in r.problems if p.code.startswith("det-")]


def reveal_cuts(board: Board, rules: Any, seeds: Iterable[int], n_detectives: Callable[[random.Random], int],
                black: int) -> Iterator[tuple[int, dict[str, Any], Record, Any]]:
    """``(seed, record doc, record, referee status)`` per seed: a random game cut right after Mr.
    X's first single-leg reveal (move 3 or 8), as the detectives saw it, with an empty detectives'
    round to fill; a seed whose cut is illegal, over, or leaves Mr. X fewer than ``black`` black
    tickets gives nothing."""
    from sy_tools.analysis.referee import check
    from sy_tools.formats.game_json import parse_record
    from sy_tools.selfplay.generate import detectives_view, random_game

    for seed in seeds:
        rng = random.Random(seed)
        doc = random_game(board, rules, rng, n_detectives=n_detectives(rng))
        n = 0
        for cut, rnd in enumerate(doc["rounds"]):
            n += len(rnd["mrx"])
            if n not in (3, 8) or len(rnd["mrx"]) != 1:
                continue
            rec_doc = detectives_view(dict(doc, rounds=doc["rounds"][:cut] + [{"mrx": rnd["mrx"], "detectives": []}]),
                                      rules)
            rec = parse_record(rec_doc)
            st = check(rec)
            if st.legal and not st.status.over and st.position.mrx_tickets.black >= black:
                yield seed, rec_doc, rec, st
            break


def walk_positions(london: Board, seed: int) -> Iterator[tuple[Any, int]]:
    """Random positions of a random game (varied rules), each with the detectives' possible set
    as simulate keeps it: yields (position, possible) before every move until the game ends."""
    rng = random.Random(seed)
    rules = dataclasses.replace(PRESETS["classic"], trapped_loses=rng.random() < 0.7, tickets_to_mrx=rng.random() < 0.8,
                                double_moves_per_game=rng.choice([0, 2, 2]), log_length=rng.choice([10, 24]))
    st = rng.sample(london.stations, 6)
    pos = Position.start(london, rules, list(zip(("Red", "Blue", "Green", "Yellow", "Black"), st[:5])), mrx_at=st[5])
    possible = (1 << st[5]) | (1 << rng.choice([s for s in london.stations if s not in st]))
    while not pos.is_over():
        if pos.turn == 0 and not pos.legal_moves:
            return
        yield pos, possible
        move = rng.choice(pos.legal_moves())
        if pos.turn == 0:
            for _, _, after, _ in mrx_move_seen(pos, possible, move):
                possible = after
        pos = pos.push(move)
        if move.piece != "Mr. X" and move.to is not None:
            possible &= ~(1 << move.to)
