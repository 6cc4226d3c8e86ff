"""The session's public answers the pages and the console share: whether an undo takes anything
back (judged by the undo itself), and Mr. X's advice (his, on his turn, from his log)."""

from __future__ import annotations

import random

import pytest
from play_helpers import typed

from sy_tools.engine.hops import MRX
from sy_tools.engine.rules import preset
from sy_tools.formats.map_load import load_board
from sy_tools.play import new_game
from sy_tools.play.session import Refused


def _game(folder, **kw):
    start = {"mrx_start": 50} if kw.get("log") else {}
    session, _ = new_game(str(folder / "g.txt"), load_board("london"), "london", preset("classic"),
                          detectives=[("Red", 13), ("Blue", 26)], secret_seed=5, seed=1, think=1, **start, **kw)
    return session


@pytest.mark.parametrize("computer", [None, "mrx", "detectives", "both"])
def test_can_undo_says_what_undo_does(tmp_path, computer):
    session = _game(tmp_path, log=str(tmp_path / "g.mrx.txt"), computer=computer, level="easy")
    rng = random.Random(3)
    try:
        for _ in range(7):
            mine = [p for p in session.plies if computer == "both" or computer is None
                    or (p.piece == MRX) != (computer == "mrx")]  # (the people's turns; all under 'both')
            can = session.can_undo()
            assert can == bool(mine)
            taken = session.undo(1)
            assert bool(taken) == can and (not taken or computer == "both" or set(taken) & set(mine))
            if taken:
                session.redo(1)
            if session.computer_to_move():
                session.computer_move()
            else:
                pos = session.position
                m = rng.choice([m for m in pos.legal_moves if len(m.tickets) == 1 and m.shown is None])
                piece, entry = typed(m, True, pos.rules, pos.move).split(" ", 1)
                session.enter(MRX if piece == "X" else piece, entry)
    finally:
        session.lock.release()


def test_mrx_advice_is_his_on_his_turn(tmp_path):
    session = _game(tmp_path, log=str(tmp_path / "g.mrx.txt"))
    try:
        advice = session.mrx_advice()
        assert advice.moves and advice.moves[0].move in session.position.legal_moves
        session.enter(MRX, "T 37")
        with pytest.raises(Refused) as e:
            session.mrx_advice()
        assert e.value.code == "turn" and "Red" in e.value.message
    finally:
        session.lock.release()
    (tmp_path / "nolog").mkdir()
    bare = _game(tmp_path / "nolog")
    try:
        with pytest.raises(Refused) as e:
            bare.mrx_advice()
        assert e.value.code == "unreadable"
    finally:
        bare.lock.release()
