"""Playing against the computer: its Mr. X shows only what the rules show, its detectives move
from the public record alone (the same moves whatever his true stations), both play legal
games to the end, and ``--think`` bounds each move (docs/play.md)."""

from __future__ import annotations

import random
import re
import time
from dataclasses import replace

from play_helpers import london, typed

from sy_tools.analysis.referee import check
from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.formats.record import MrXMove
from sy_tools.formats.record_io import load_record
from sy_tools.play import Console, Ply, Session, new_game


def _play_out(session: Session, rng: random.Random, out: list[str]) -> None:
    """The human side plays random legal moves (typed as a player would) until the end."""
    console = Console(session, out.append, out.append)
    console.start()
    for _ in range(400):
        if console.finished:
            break
        pos = session.position
        legal = pos.legal_moves()
        if session.to_move == MRX:
            move = legal[rng.randrange(len(legal))] if legal else None
            console.handle("X -" if move is None else typed(move, True, pos.rules, pos.move))
        else:
            move = legal[rng.randrange(len(legal))]
            console.handle(typed(move, False, pos.rules, pos.move))
    assert console.finished


def test_computer_mrx_plays_a_legal_game_and_shows_only_what_the_rules_show(tmp_path):
    board, rules = london()
    game = tmp_path / "g.txt"
    session, _ = new_game(str(game), board, "london", rules, count=2, seed=4, computer="mrx", think=0.5)
    out: list[str] = []
    _play_out(session, random.Random(1), out)
    out = "\n".join(out).splitlines()
    log = load_record(tmp_path / "g.mrx.txt")
    result = check(log)
    assert result.legal and result.status.over
    assert out[-1] == f"{game}: legal; {result.status.describe()}"
    assert not load_record(game).is_full
    said = [ln for ln in out if ln.startswith("Mr. X: ") and "->" not in ln]
    stations = [m.to for rnd in log.rounds for m in rnd.mrx]
    shown = [int(s) for ln in said for s in re.findall(r"shown at (\d+)", ln)]
    assert shown == [s for i, s in enumerate(stations) if rules.is_reveal(i + 1)]
    route = next(ln for ln in out if ln.startswith(f"Mr. X: {log.mrx_start} -"))  # his route, at the end
    assert route.count("->") == len(stations)


def test_computer_detectives_play_a_legal_game_to_the_end(tmp_path):
    board, rules = london()
    session, _ = new_game(str(tmp_path / "g.json"), board, "london", rules, count=3, seed=6,
                          computer="detectives", think=0.5)
    out: list[str] = []
    _play_out(session, random.Random(2), out)
    full = load_record(tmp_path / "g.mrx.json")
    assert check(full).legal and check(full).status.describe() == session.position.outcome.describe()
    assert check(load_record(tmp_path / "g.json")).legal


def _other_route(setup, plies: list[Ply]) -> tuple[int, list[Ply]] | None:
    """Mr. X's plies rewritten to another start and other hidden stations that fit the same
    tickets, reveals and detective moves (depth-first through the engine), or None."""
    board, rules = setup.board, setup.rules
    true_start = setup.mrx_start

    def walk(pos: Position, i: int, out: list[Ply]) -> list[Ply] | None:
        if i == len(plies):
            return out
        p = plies[i]
        if p.piece != MRX:
            d = p.detective
            if d.to == pos.mrx_at:
                return None
            return walk(pos.push(Move.detective(d.name, d.ticket, d.to)), i + 1,
                        out + [p])
        options = [[]]
        for j, m in enumerate(p.mrx):
            here_list = []
            for prefix in options:
                at = prefix[-1] if prefix else pos.mrx_at
                seen = rules.is_reveal(pos.move + j + 1)
                dests = [m.to] if seen else list(board.destinations(at, m.ticket))
                here_list += [prefix + [s] for s in dests if s not in pos.stations]
            options = here_list
        for stations in options:
            move = Move(MRX, tuple(m.ticket for m in p.mrx), tuple(stations))
            if pos.problems(move):
                continue
            legs = tuple(MrXMove(m.ticket, s, "") for m, s in zip(p.mrx, stations))
            got = walk(pos.push(move), i + 1, out + [Ply(MRX, legs)])
            if got is not None and (got[0].mrx[0].to != plies[0].mrx[0].to or pos.mrx_at != true_start):
                return got
        return None

    for start in setup.start_candidates:
        if start == true_start:
            continue
        pos = Position.start(board, rules, [(d.name, d.start) for d in setup.detectives], mrx_at=start)
        got = walk(pos, 0, [])
        if got is not None:
            return start, got
    return None


def test_computer_detectives_move_the_same_whatever_his_true_stations(tmp_path):
    board, rules = london()
    game = tmp_path / "a.txt"
    session, _ = new_game(str(game), board, "london", rules, count=3, seed=9, secret_seed=5, computer="detectives",
                          think=60)
    rng = random.Random(3)
    checked = 0
    for _ in range(6):
        pos = session.position
        if session.over:
            break
        legal = pos.legal_moves.singles()
        move = legal[rng.randrange(len(legal))]
        session.enter(MRX, typed(move, True, rules, pos.move).split(" ", 1)[1])
        if session.over or pos.move + 1 in (3, 8):
            while not session.over and session.computer_to_move():
                session.computer_move()
            continue
        other = _other_route(session.setup, session.plies)
        assert other is not None, "no other route fits the public record"
        start, plies = other
        twin = Session(replace(session.setup, mrx_start=start), str(tmp_path / "b.txt"), str(tmp_path / "b.mrx.txt"),
                       "detectives", 1.0, session.seed, plies)
        assert twin.public().rounds == session.public().rounds and twin.record().rounds != session.record().rounds
        while not session.over and session.computer_to_move():
            mine, theirs = session.computer_move(), twin.computer_move()
            assert (mine.detective.ticket, mine.detective.to) == (theirs.detective.ticket, theirs.detective.to)
            checked += 1
    assert checked >= 3


def test_a_tiny_think_still_gives_a_computer_move(tmp_path):
    board, rules = london()
    for side, count in (("mrx", 5), ("detectives", 5)):
        session, _ = new_game(str(tmp_path / f"{side}.txt"), board, "london", rules, count=count, seed=1,
                              computer=side, think=0.05)
        rng = random.Random(0)
        for _ in range(12):
            if session.over:
                break
            if session.computer_to_move():
                t0 = time.monotonic()
                session.computer_move()
                # only a hang is caught here (a loaded machine may take its time); how long a
                # decision takes at each level is measured by `make bench` (benchmarks/levels.py)
                assert time.monotonic() - t0 < 60
            else:
                pos = session.position
                legal = pos.legal_moves()
                move = legal[rng.randrange(len(legal))]
                session.enter(*_split(typed(move, side == "detectives", rules, pos.move)))


def _split(line: str) -> tuple[str, str]:
    piece, entry = line.split(" ", 1)
    return (MRX if piece == "X" else piece), entry
