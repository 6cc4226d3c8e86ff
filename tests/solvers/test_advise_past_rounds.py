"""The detectives' advice for a past round (issue 39): ``advise RECORD --round N --side
detectives`` advises as the record stood before the detectives' moves of round N, for every
round of a finished game (the bundled capture game and generated games): the same advice as for
the record cut there by hand, the same from the whole record as from the detectives' view of it
(his station is never used), the record's own moves of that round said beside it, and its move
lines accepted, verbatim, by a play session resumed at that point."""

from __future__ import annotations

import copy
import json
import random

import pytest
from helpers import REPO

from sy_tools.formats.game_json import parse_record
from sy_tools.formats.map_load import load_board
from sy_tools.selfplay.budgets import ADVISE_CANDIDATES
from sy_tools.selfplay.generate import detectives_view, random_game
from sy_tools.solvers.advise import advise_record

CAPTURE = REPO / "examples" / "capture.json"
LETTER = {"taxi": "T", "bus": "B", "underground": "U"}


def cut_by_hand(doc: dict, n: int) -> dict:
    """The game.json document as it stood before the detectives' moves of round ``n``."""
    out = copy.deepcopy(doc)
    out["rounds"] = out["rounds"][:n]
    out["rounds"][-1]["detectives"] = []
    return out


def typed_by_hand(d: dict) -> str:
    return f"{d['name']} {LETTER[d['ticket']]} {d['to']}" + ("!" if d.get("capture") else "")


def stood(doc: dict, n: int) -> dict[str, int]:
    """Where each detective stood before its move of round ``n``, read off the record."""
    at = {d["name"]: d["start"] for d in doc["detectives"]}
    for rnd in doc["rounds"][:n - 1]:
        for d in rnd["detectives"]:
            at[d["name"]] = d["to"]
    return at


def advice_of(doc: dict, **kw):
    """The detectives' advice on ``doc``, weighing the joint moves ``sy-tools advise`` weighs."""
    return advise_record(parse_record(copy.deepcopy(doc), "g.json"), time_limit=60, candidates=ADVISE_CANDIDATES, **kw)


def same(a, b) -> bool:
    return [m.to_dict() for m in a.moves] == [m.to_dict() for m in b.moves] and a.summary == b.summary


def check_round(doc: dict, n: int) -> None:
    past = advice_of(doc, side="detectives", round_=n)
    assert same(past, advice_of(cut_by_hand(doc, n)))
    public = detectives_view(copy.deepcopy(doc), parse_record(copy.deepcopy(doc)).rules)
    assert public != doc and same(past, advice_of(public, side="detectives", round_=n))  # (his stations unused)
    assert past.context["round"] == n and past.context["played"] == [typed_by_hand(d) for d in doc["rounds"][n - 1]["detectives"]]
    at = stood(doc, n)
    assert all(m.origin == at[m.name] for m in past.moves)
    movers = {d["name"] for d in doc["rounds"][n - 1]["detectives"]}
    assert movers <= {m.name for m in past.moves if m.move is not None} | set(past.out), (n, movers)


def test_every_round_of_the_capture_game():
    doc = json.loads(CAPTURE.read_text())
    for n in range(1, len(doc["rounds"]) + 1):
        check_round(doc, n)


@pytest.mark.parametrize("seed", range(3))
def test_rounds_of_generated_finished_games(seed):
    board = load_board("london")
    rules = parse_record(json.loads(CAPTURE.read_text())).rules
    rng = random.Random(seed)
    doc = random_game(board, rules, rng, n_detectives=rng.randint(2, 5))
    while len(doc["rounds"]) < 4:  # (a game long enough to have a past)
        doc = random_game(board, rules, rng, n_detectives=rng.randint(2, 5))
    rounds = len(doc["rounds"])
    for n in range(1, rounds + 1):
        if not doc["rounds"][n - 1]["detectives"] and n == rounds:
            continue  # (the game ended at Mr. X's move: no detectives' round to advise)
        check_round(doc, n)


def test_the_command_line_on_a_finished_game(cli):
    doc = json.loads(CAPTURE.read_text())
    for n in (1, 7, 14):
        r = cli("advise", str(CAPTURE), "--round", str(n), "--side", "detectives", "--format", "json")
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        assert d["side"] == "detectives" and d["round"] == n and d["to_move"] != "mrx"
        assert d["played"] == [typed_by_hand(x) for x in doc["rounds"][n - 1]["detectives"]]
    text = cli("advise", str(CAPTURE), "--round", "14", "--side", "detectives").output
    assert text.splitlines()[0] == "round 14, after Mr. X's move 16; the detectives to move"
    assert "the record has them play: Yellow T 155!" in text
    for bad in ("0", "15"):
        r = cli("advise", str(CAPTURE), "--round", bad, "--side", "detectives")
        assert r.exit_code == 2 and r.output.count("\n") == 1 and "rounds 1..14" in r.output, r.output
    r = cli("advise", str(CAPTURE), "--side", "detectives")  # the game is over: the line says how to ask
    assert r.exit_code == 1 and r.output.count("\n") == 1 and "--round N --side detectives" in r.output, r.output
    r = cli("advise", str(REPO / "examples" / "in-progress.json"), "--side", "detectives")  # Mr. X to move
    assert r.exit_code == 2 and "--round N --side detectives" in r.output and "rounds 1..10" in r.output, r.output
    r = cli("advise", str(CAPTURE), "--round", "3", "--side", "mrx")  # (his advice after round 3, his station known)
    assert r.exit_code == 0 and "X " in r.output and "you hold" in r.output, r.output


def test_a_past_rounds_move_lines_are_played_by_a_session_resumed_there(tmp_path):
    """The past round's advice is what the table could have typed then: a session resumed on
    the record cut there accepts every move line verbatim and plays the advised move."""
    from sy_tools.engine.moves import Move
    from sy_tools.formats.record_io import record_text
    from sy_tools.play import Console, resume_game

    doc = json.loads(CAPTURE.read_text())
    full = parse_record(copy.deepcopy(doc))
    for n in (2, 9, 13):
        adv = advise_record(full, side="detectives", round_=n, time_limit=60, candidates=ADVISE_CANDIDATES)
        path = tmp_path / f"r{n}.txt"
        cut = parse_record(cut_by_hand(doc, n), str(path)).detectives_view()
        path.write_text(record_text(cut, str(path)))
        session = resume_game(str(path))
        out: list[str] = []
        err: list[str] = []
        console = Console(session, out.append, err.append)
        for line in adv.describe().splitlines():
            if "  # " not in line:
                continue
            name = line.split()[0]
            want = next(a.move for a in adv.moves if a.name == name)
            before = session.position
            console.handle(line)
            assert not err, (n, line, err)
            assert isinstance(want, Move)
            after = session.position
            assert after.stations == before.push(want).stations and after.tickets == before.push(want).tickets
