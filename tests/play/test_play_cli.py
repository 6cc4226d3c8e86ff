"""``sy-tools play`` fed from a pipe, as a script plays it: a whole game from ``--new``, quit and
resumed mid-round, refusals on stderr while the game goes on, and one clear line for bad
options and files (docs/play.md)."""

from __future__ import annotations

import random

import pytest
from play_helpers import london, typed

from sy_tools.analysis.distances import distances
from sy_tools.engine.position import Position

STARTS = [("Red", 13), ("Blue", 26), ("Green", 94)]
NEW = ["--new", "--detectives", ",".join(f"{n}={s}" for n, s in STARTS), "--mrx-start", "50", "--seed", "3",
       "--secret-seed", "3"]


def scripted_game(seed: int = 5) -> list[str]:
    """A whole game as typed lines: Mr. X keeps away from the detectives, they move at random."""
    board, rules = london()
    rng = random.Random(seed)
    dist = distances(board)
    pos = Position.start(board, rules, STARTS, mrx_at=50)
    lines = []
    while not pos.is_over():
        legal = pos.legal_moves()
        if not legal:
            pos = pos.declare_trapped(pos.mrx_at)
            break
        if pos.turn == 0:
            move = max(legal, key=lambda m: (min(dist[m.to][s] for s in pos.stations), rng.random()))
        else:
            move = legal[rng.randrange(len(legal))]
        lines.append(typed(move, True, rules, pos.move))
        pos = pos.push(move)
    return lines


def test_a_scripted_game_plays_through_and_checks_as_announced(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = scripted_game()
    noisy = lines[:1] + ["history", "Red T 199", "Blue T 27"] + lines[1:]
    r = cli("play", "g.txt", "--mrx-log", "x.txt", *NEW, input="\n".join(noisy) + "\n")
    assert r.exit_code == 0, r.output
    assert "error: Red moves" in r.stderr and "[det-connection]" in r.stderr
    assert "error: it is Red's turn, not Blue's" in r.stderr
    announced = r.stdout.splitlines()[-1]
    assert announced.startswith("g.txt: legal; ") and "won" in announced
    for path in ("g.txt", "x.txt"):
        c = cli("check", path)
        assert c.exit_code == 0 and c.stdout.splitlines()[-1] == announced.replace("g.txt", path)
    assert "X 50:" not in (tmp_path / "g.txt").read_text()


def test_quit_and_resume_mid_round_gives_the_same_game(cli, tmp_path, monkeypatch):
    lines = scripted_game()
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    monkeypatch.chdir(tmp_path / "one")
    cli("play", "g.txt", "--mrx-log", "x.txt", *NEW, input="\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path / "two")
    cut = next(i for i, ln in enumerate(lines) if i > 6 and ln.startswith("Red"))
    r = cli("play", "g.txt", "--mrx-log", "x.txt", *NEW, input="\n".join(lines[:cut + 1] + ["quit", "X T 1"]))
    assert r.exit_code == 0 and "Blue to move" not in r.stdout
    r = cli("play", "g.txt", "--mrx-log", "x.txt", input="undo\nredo\n" + "\n".join(lines[cut + 1:]) + "\n")
    assert r.exit_code == 0, r.output
    for name in ("g.txt", "x.txt"):
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


def test_undo_and_redo_rewrite_the_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cli("play", "g.txt", "--new", "--detectives", "Red=13", input="X T\nRed T 4\n")
    text = (tmp_path / "g.txt").read_text()
    assert "Red 13: T 4" in text
    r = cli("play", "g.txt", input="undo\n")
    assert r.stdout.startswith("round 1") or "undone: Red: taxi to 4; Red to move" in r.stdout
    assert "Red 13: \n" in (tmp_path / "g.txt").read_text()
    r = cli("play", "g.txt", input="undo\nundo\n")
    assert "error: nothing to undo [undo]" in r.stderr and (tmp_path / "g.txt").read_text().count("X: \n") == 1


@pytest.mark.parametrize("argv, words, code", [
    (["play", "g.txt", "--new", "--detectives", "Red=13,Blue=13"], "starts on 13", 1),
    (["play", "g.txt", "--new", "--detectives", "Red=13", "--detective-count", "2"], "not both", 2),
    (["play", "g.txt", "--new", "--detectives", "Red=300"], "300", 2),
    (["play", "g.txt", "--new", "--mrx-start", "50"], "--mrx-start", 2),
    (["play", "missing.txt"], "missing.txt", 2),
    (["play", "examples/capture.json"], "hidden stations", 2),
    (["play", "examples/table.txt", "--detectives", "Red=1"], "--detectives", 2),
    (["play", "examples/table.txt", "--computer", "mrx"], "table.mrx.txt is missing", 2),
    (["play", "bad.txt"], "illegal", 1),
])
def test_bad_starts_get_one_line_and_the_right_code(cli, tmp_path, monkeypatch, argv, words, code):
    from helpers import REPO

    (tmp_path / "examples").symlink_to(REPO / "examples")
    (tmp_path / "bad.txt").write_text("X: T\nRed 13: T 199\n")
    monkeypatch.chdir(tmp_path)
    r = cli(*argv, input="")
    assert r.exit_code == code, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Traceback" not in r.output
    assert not (tmp_path / "g.txt").exists() or code == 1


def test_new_refuses_to_replace_a_record(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.txt").write_text("precious\n")
    r = cli("play", "g.txt", "--new", input="")
    assert r.exit_code == 2 and "already exists" in r.stderr
    assert (tmp_path / "g.txt").read_text() == "precious\n"


def test_the_seed_deals_the_detectives_cards_and_nothing_only_mrx_may_know(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = cli("play", "a.txt", "--new", "--detective-count", "3", "--seed", "11", "--mrx-log", "ax.txt", input="")
    b = cli("play", "b.txt", "--new", "--detective-count", "3", "--seed", "11", input="")
    assert a.stdout.splitlines()[0] == b.stdout.splitlines()[0]
    assert a.stdout.splitlines()[0].startswith("start cards dealt: Red ")  # (given, so not printed back)
    strip = [ln for ln in (tmp_path / "a.txt").read_text().splitlines() if not ln.startswith("play")]
    assert strip == [ln for ln in (tmp_path / "b.txt").read_text().splitlines() if not ln.startswith("play")]
    c = cli("play", "c.txt", "--new", "--detective-count", "3", input="")
    assert c.stdout.splitlines()[0].startswith("start cards dealt with seed ")  # drawn: printed
    starts = {}
    for i in range(12):  # the same public seed: his card comes from the secret seed alone
        cli("play", f"d{i}.txt", "--new", "--detective-count", "3", "--seed", "11", "--mrx-log", f"dx{i}.txt",
            "--secret-seed", str(i % 6), input="")
        x_line = next(ln for ln in (tmp_path / f"dx{i}.txt").read_text().splitlines() if ln.startswith("X"))
        starts.setdefault(i % 6, set()).add(int(x_line.split(":")[0].split()[1]))
        assert "seed" not in (tmp_path / f"d{i}.txt").read_text()  # the secret seed is in his log only
    assert all(len(v) == 1 for v in starts.values())
    assert len(set().union(*starts.values())) > 1


def test_record_convert_view_detectives_strips_what_only_mrx_knows(cli, tmp_path):
    out = tmp_path / "seen.txt"
    from helpers import REPO

    r = cli("record", "convert", str(REPO / "examples/capture.json"), str(out), "--view", "detectives")
    assert r.exit_code == 0
    from sy_tools.formats.record_io import load_record

    seen = load_record(out)
    assert seen.mrx_start is None
    stations = [m.to for rnd in seen.rounds for m in rnd.mrx]
    assert [i + 1 for i, s in enumerate(stations) if s is not None] == [3, 8, 13]  # only reveals name a station
    assert cli("check", str(out)).stdout.splitlines()[-1].endswith("Yellow caught Mr. X at 155 in round 14")


def test_the_computer_side_and_level_are_given_once(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for flag, a, b in (("--computer", "mrx", "detectives"), ("--level", "easy", "hard")):
        r = cli("play", "g.txt", "--new", "--detective-count", "2", flag, a, flag, b, input="")
        assert r.exit_code == 2 and "give it once" in r.stderr and len(r.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "g.txt").exists()


@pytest.mark.parametrize("rule", ["waits", "out"])
def test_a_blocked_detective_is_told_why_and_what_the_rules_say(cli, tmp_path, monkeypatch, rule):
    """Red at 2 (taxi lines to 10 and 20 only) with Blue on 10 and Green on 20 cannot move: the
    table reads why, and whether it waits (classic) or is out (blocked_detective: out)."""
    import json

    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text(json.dumps({"preset": "classic", "blocked_detective": rule}))
    r = cli("play", "g.txt", "--new", "--detectives", "Red=2,Blue=10,Green=20", "--rules", "r.json",
            input="X T\nBlue T 11\nGreen T 9\nX T\nRed T 10\n")
    said = "Red cannot move from 2: every station it can reach is held by Blue (10) or Green (20); "
    assert said + ("it waits, and moves again once a move opens up" if rule == "waits" else
                   "out for the rest of the game") in r.stdout
    assert ("Red: taxi to 10" in r.stdout) == (rule == "waits")


def test_undo_names_what_it_takes_back_as_the_table_saw_it(cli, tmp_path, monkeypatch):
    """Under rules that show him at move 1, undoing his hidden move 2 says only its ticket (it
    once numbered every move taken back from 1, so a hidden move read as a reveal)."""
    import json

    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text(json.dumps({"preset": "classic", "reveal_moves": [1, 8]}))
    r = cli("play", "g.txt", "--new", "--detectives", "Red=13", "--rules", "r.json", "--mrx-log", "m.txt",
            "--mrx-start", "50", input="X T 49\nRed T 23\nX T 66\nundo\nundo\n")
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("undone:")]
    assert lines == ["undone: Mr. X: taxi; Mr. X to move", "undone: Red: taxi to 23; Red to move"], r.stdout
