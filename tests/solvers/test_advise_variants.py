"""advise under the rule variants (cut-off escape, onto a detective is caught, voluntary
reveal): the brute-force checks of test_advise.py with the engine's moves under each, and
advise-vs-advise self-play through simulate replayed legal by check."""

from __future__ import annotations

import dataclasses
import random

import pytest
from test_advise import _capture_positions, _mrx_positions, can_capture, joint_moves, win_claims, wins_next_turn

from sy_tools.engine.board import Board
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.stations import mask_of, stations_of
from sy_tools.engine.tickets import Tickets, Transport
from sy_tools.solvers.advise import advise_mrx
from sy_tools.solvers.belief import advise_detectives

VARIANTS = {"cutoff": {"cutoff_escape": True}, "caught": {"mrx_onto_detective": "caught"},
            "reveal": {"voluntary_reveal": True}}


def _rules(variant: str):
    return dataclasses.replace(PRESETS["classic"], name="classic+", **VARIANTS[variant])


def _board(london: Board, variant: str) -> Board:
    """London; for the cut-off escape with made-up via data on most bus and underground lines."""
    if variant != "cutoff":
        return london
    rng = random.Random(4)
    via = {k: stations_of(m) for k, m in london.via.items()}
    for c in london.connections:
        if c.transport in (Transport.BUS, Transport.UNDERGROUND) and rng.random() < 0.6:
            via[(c.a, c.b, c.transport)] = rng.sample([s for s in london.stations if s not in (c.a, c.b)], 2)
    return Board.build(london.name, london.stations, london.connections, london.coords, dict(london.start_decks),
                       via)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_advise_plays_a_capture_he_cannot_avoid_under_each_variant(london, variant):
    found = 0
    for pos, S in _capture_positions(_board(london, variant), 15, seed=3, rules=_rules(variant)):
        sure = [moves for moves, end in joint_moves(pos) if not S & ~end.occupied]
        adv = advise_detectives(pos, S, depth=2, time_limit=30)
        landed = mask_of(a.move.to for a in adv.moves if a.move is not None)
        if sure:
            found += 1
            assert not S & ~landed
            assert adv.catch == pytest.approx(1.0)
    assert found >= 3


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_win_within_two_turns_is_a_real_one_under_each_variant(london, variant):
    """A depth-2 claim (catch 1) survives the brute force over everything he may do under the
    variant: closed hops, steps onto detectives, reveals taking any detective's ticket."""
    claims, later = win_claims(_board(london, variant), _rules(variant), 150, (8, 2))
    assert claims >= 8 and later >= 2, (claims, later)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_mrx_top_move_avoids_capture_whenever_one_does_under_each_variant(london, variant):
    """Every move judged (reveals taking each ticket, steps onto detectives) agrees with the
    brute force on whether the detectives can catch him next turn; his top move is safe when
    some move is."""
    checked = 0
    for pos in _mrx_positions(_board(london, variant), 12 if variant == "reveal" else 25, seed=11, rules=_rules(variant)):
        legal = pos.legal_moves()
        safe = {m for m in legal if not can_capture(pos.push(m))}
        adv = advise_mrx(pos, [pos.mrx_at], top=100_000)
        assert len(adv.moves) == len(legal)
        for o in adv.moves:
            assert o.safe == (o.move in safe), (pos, o.move)
        if safe:
            assert adv.moves[0].move in safe
            checked += 1
    assert checked >= 5


def test_a_reveal_that_takes_the_catching_ticket_is_his_best_move():
    """On a taxi line 1-2-3-4-5 Mr. X at 3 (taxis only) is next to a detective wherever he goes:
    Red at 1 and Blue at 5 hold one taxi each.  Showing himself at 2 and taking Red's taxi (or
    at 4, Blue's) is the only safe move; advise ranks it first, hidden moves after."""
    from sy_tools.engine.board import Connection
    from sy_tools.engine.position import Position

    board = Board.build("line", range(1, 6), [Connection.of(a, a + 1, "taxi") for a in range(1, 5)])
    rules = dataclasses.replace(_rules("reveal"), reveal_moves=())
    pos = Position(board, rules, ("Red", "Blue"), (1, 5), (Tickets(taxi=1), Tickets(taxi=1)), frozenset(),
                   Tickets(taxi=2), 3, 4, 4, 0, 0)
    safe = {m for m in pos.legal_moves() if not can_capture(pos.push(m))}
    assert safe and all(m.took is not None for m in safe)
    adv = advise_mrx(pos, [3], top=100)
    assert adv.moves[0].move in safe and adv.moves[0].safe
    assert "take Red's taxi" in adv.moves[0].reason or "take Blue's taxi" in adv.moves[0].reason
    assert not any(o.safe for o in adv.moves if o.move.took is None)
    plain = advise_mrx(dataclasses.replace(pos, rules=dataclasses.replace(rules, voluntary_reveal=False)), [3])
    assert not plain.moves[0].safe


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_advise_vs_advise_games_replay_legal_under_each_variant(variant):
    """simulate's built-in advise policies on both sides under the variant: every game replays
    legal through check with the same outcome."""
    import json

    from sy_tools.analysis.referee import check
    from sy_tools.formats.game_json import parse_record
    from sy_tools.selfplay.game import GameSpec
    from sy_tools.selfplay.runner import simulate

    spec = GameSpec(mrx_policy="advise", detective_policy="advise", seed=3, rules=_rules(variant), records=True,
                    detectives=3)
    for g in simulate(spec, 1, jobs=1).games:
        assert g.reason != "forfeit"
        r = check(parse_record(json.loads(json.dumps(g.record))))
        assert r.legal, [p.line(None) for p in r.problems][:3]
        assert r.status.kind.value == g.reason


def test_the_detectives_count_a_reveal_that_takes_a_catching_ticket():
    """Taxi line 1-7, Mr. X at 4 (two taxis), Red at 1 and Blue at 7 with two taxis each.
    Classic: Red to 2 and Blue to 6 catch him next turn wherever he goes (a claimed win, and a
    real one).  Under the voluntary reveal he shows himself at 3 taking Red's last taxi (or at
    5, Blue's) and is safe: advise must not claim that win, and the brute force agrees."""
    from sy_tools.engine.board import Connection
    from sy_tools.engine.position import Position

    board = Board.build("line", range(1, 8), [Connection.of(a, a + 1, "taxi") for a in range(1, 7)])
    for rules, claim in ((dataclasses.replace(PRESETS["classic"], reveal_moves=()), True),
                         (dataclasses.replace(_rules("reveal"), reveal_moves=()), False)):
        pos = Position(board, rules, ("Red", "Blue"), (1, 7), (Tickets(taxi=2),) * 2, frozenset(), Tickets(taxi=2),
                       None, 4, 4, 0, 1)
        adv = advise_detectives(pos, [4], depth=2, time_limit=30)
        end = pos
        for a in adv.moves:
            end = end.push(a.move)
        assert (adv.catch == 1.0) is claim
        assert wins_next_turn(end, 1 << 4) is claim
        if not claim:  # the classic winning move does not win here
            end = pos.push(_det(pos, "Red", 2))
            end = end.push(_det(end, "Blue", 6))
            assert not wins_next_turn(end, 1 << 4)


def _det(pos, name, to):
    return next(m for m in pos.legal_moves() if m.piece == name and m.to == to)


def test_the_detectives_trap_him_by_closing_his_line():
    """Under the cut-off escape a detective on a via station closes the line: Mr. X at 11 holds
    only buses and his one line 11-12 passes over 5; Red steps 4 -> 5 and he is trapped."""
    from sy_tools.engine.board import Connection
    from sy_tools.engine.position import Position

    conns = [Connection.of(a, a + 1, "taxi") for a in range(1, 7)] + [Connection.of(11, 12, "bus")]
    board = Board.build("shuttle", [1, 2, 3, 4, 5, 6, 7, 11, 12], conns, via={(11, 12, "bus"): [5]})
    for rules, win in ((PRESETS["classic"], False), (_rules("cutoff"), True)):
        pos = Position(board, rules, ("Red",), (4,), (Tickets(taxi=3),), frozenset(), Tickets(bus=2), None, 4, 4, 0, 1)
        adv = advise_detectives(pos, [11], depth=2, time_limit=30)
        assert (adv.catch == 1.0) is win
        if win:
            assert adv.moves[0].move.to == 5
            assert "traps him now" in adv.summary
