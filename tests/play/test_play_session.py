"""A play session judges every typed move as ``check`` judges the record with that move written
in by hand, keeps the files in step with undo and redo, and never writes a hidden station into
the public record (docs/play.md)."""

from __future__ import annotations

import random

import pytest
from play_helpers import judged, london, random_wrong_move, read, typed, with_entry

from sy_tools.analysis.referee import check
from sy_tools.engine.hops import MRX
from sy_tools.errors import InputError
from sy_tools.formats.record_io import load_record
from sy_tools.play import Refused, new_game, resume_game
from sy_tools.play.session import SESSION_CODES


@pytest.mark.parametrize("seed", range(4))
def test_typed_moves_are_ruled_as_check_rules_the_hand_written_record(tmp_path, seed):
    board, rules = london()
    rng = random.Random(seed)
    game, log = tmp_path / "g.txt", tmp_path / "g.mrx.txt"
    session, _ = new_game(str(game), board, "london", rules, count=2 + seed % 3, seed=seed, log=str(log),
                          secret_seed=seed)  # (his start card too: the same game every run)
    snapshots = [(read(game), read(log))]
    accepted = refused = undone = 0
    for _ in range(500):
        if session.over:
            break
        pos = session.position
        if rng.random() < 0.08 and session.plies:
            k = rng.randint(1, 3)
            taken = session.undo(k)
            assert len(taken) == min(k, len(snapshots) - 1)
            assert (read(game), read(log)) == snapshots[len(session.plies)]
            if rng.random() < 0.5:
                session.redo(rng.randint(1, len(taken)))
                assert (read(game), read(log)) == snapshots[len(session.plies)]
            undone += 1
            continue
        wrong = rng.random() < 0.3
        legal = pos.legal_moves()
        move = random_wrong_move(pos, rng) if wrong or not legal else legal[rng.randrange(len(legal))]
        line = typed(move, True, rules, pos.move)
        piece, entry = line.split(" ", 1)
        piece = MRX if piece == "X" else piece
        written = entry + ("!" if piece != MRX and move.to == pos.mrx_at else "")
        verdict = judged(with_entry(read(log), piece, written), str(log))
        try:
            session.enter(piece, entry)
        except Refused as e:
            refused += 1
            assert verdict is None or not verdict.legal, (line, e)
            if verdict is not None and e.code == "mrx-log":  # his log rules it out: the reason is private
                assert e.private is not None and e.private.endswith(f"[{verdict.errors[0].code}]"), (line, e)
            elif verdict is not None and e.code not in SESSION_CODES and piece != MRX:
                assert e.code == verdict.errors[0].code, (line, e, verdict.errors[0])
            assert (read(game), read(log)) == snapshots[len(session.plies)], "a refused move changed a file"
            continue
        accepted += 1
        assert verdict is not None and verdict.legal, (line, verdict and verdict.errors)
        del snapshots[len(session.plies):]
        snapshots.append((read(game), read(log)))
    assert accepted > 8 and refused > 2
    full, public = load_record(log), load_record(game)
    assert not public.is_full, "the public record holds a hidden station"
    assert public.rounds == full.detectives_view().rounds
    assert check(full).legal and check(public).legal
    if session.over:
        assert check(full).status.describe() == session.position.outcome.describe()


def test_a_hidden_station_never_reaches_the_public_record(tmp_path):
    board, rules = london()
    game = tmp_path / "g.txt"
    session, _ = new_game(str(game), board, "london", rules, detectives=[("Red", 13), ("Blue", 26)], seed=1)
    with pytest.raises(Refused) as e:
        session.enter(MRX, "T 46")  # no log: his station would be public
    assert e.value.code == "secret" and "--mrx-log" in e.value.message
    session.enter(MRX, "T")
    only_taxi = min(set(board.destinations(13, _t("taxi"))) - set(board.destinations(13, _t("bus"))))
    session.enter("Red", str(only_taxi))  # the ticket inferred: only a taxi goes there
    assert read(game).splitlines()[-2:] == [f"Red 13: T {only_taxi}", "Blue 26: "]


def test_a_reveal_needs_its_station_and_a_logged_move_its_station(tmp_path):
    board, rules = london()
    game, log = tmp_path / "g.txt", tmp_path / "x.txt"
    session, _ = new_game(str(game), board, "london", rules, detectives=[("Red", 13)], mrx_start=50,
                          log=str(log), seed=1)
    with pytest.raises(Refused) as e:
        session.enter(MRX, "T")
    assert e.value.code == "secret" and "X T 46" in e.value.message
    session.enter(MRX, "T 37")
    session.enter("Red", "T 23")
    session.enter(MRX, "T 50")
    session.enter("Red", "T 13")
    with pytest.raises(Refused) as e:
        session.enter(MRX, "T")  # move 3 is a reveal
    assert e.value.code == "reveal-missing"
    assert "X: T, T\n" in read(game) and "X 50: T 37, T 50\n" in read(log)


def test_an_ambiguous_or_impossible_inferred_ticket_is_refused_with_the_choices(tmp_path):
    board, rules = london()
    session, _ = new_game(str(tmp_path / "g.txt"), board, "london", rules, detectives=[("Red", 13)], seed=1)
    session.enter(MRX, "T")
    both = sorted(s for s in board.destinations(13, _t("taxi")) if s in board.destinations(13, _t("bus")))
    if both:
        with pytest.raises(Refused) as e:
            session.enter("Red", str(both[0]))
        assert e.value.code == "ambiguous"
    with pytest.raises(Refused) as e:
        session.enter("Red", "199")
    assert e.value.code == "det-connection"


def _t(name):
    from sy_tools.engine.tickets import Ticket

    return Ticket(name)


def test_turn_order_and_the_end_of_the_game_are_kept(tmp_path):
    board, rules = london()
    session, _ = new_game(str(tmp_path / "g.txt"), board, "london", rules,
                          detectives=[("Red", 13), ("Blue", 26)], seed=1)
    for piece, entry, code in [("Red", "T 23", "turn"), (MRX, "", "unreadable")]:
        with pytest.raises(Refused) as e:
            session.enter(piece, entry or "Q")
        assert e.value.code == code
    session.enter(MRX, "T")
    with pytest.raises(Refused) as e:
        session.enter("Blue", "T 27")
    assert e.value.code == "turn" and "turn order" in e.value.message


def test_resuming_needs_a_log_that_matches_and_refuses_a_full_record_as_the_public_one(tmp_path):
    board, rules = london()
    game, log = tmp_path / "g.txt", tmp_path / "g.mrx.txt"
    session, _ = new_game(str(game), board, "london", rules, detectives=[("Red", 13)], mrx_start=50,
                          log=str(log), seed=1)
    session.enter(MRX, "T 37")
    with pytest.raises(InputError, match="open in another session"):
        resume_game(str(game))
    session.lock.release()

    def resumed(**kw):
        s = resume_game(str(game), **kw)
        s.lock.release()
        return s

    again = resumed()  # the log is found from the record's play header
    assert again.plies == session.plies and again.position.mrx_at == 37
    assert resumed(log=str(log)).position.mrx_at == 37
    with pytest.raises(InputError, match="started with --mrx-log"):
        resumed(log=str(tmp_path / "other.txt"))
    log.write_text(read(log).replace("T 37", "T 38"))
    assert resumed().position.mrx_at == 38  # the same public record
    log.write_text(read(log).replace("X 50: T 38", "X 50: B 38"))
    with pytest.raises(InputError, match=r"does not match the record .* from move 1 on \(the record: X T; the log: X B"):
        resumed()
    with pytest.raises(InputError, match="hidden stations"):
        resumed_full = resume_game(str(tmp_path / "g.mrx.txt"))
        resumed_full.lock.release()
