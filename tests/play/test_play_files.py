"""The files of a game at the table (issue 39: nothing lost, nothing replaced): a picture never
written over the record or Mr. X's log (named directly or through a link), a log that is the
record through a link refused, one session per record, a record changed behind a session never
overwritten, a move that cannot be saved taken back (exit 2), a read-only record and ``-``
refused; and in every case nothing else in the folder is written over.

The sessions run as their own processes (``python -m sy_tools play``, fed through a pipe), as a
table's script would run them."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import socket
from pathlib import Path

import pytest
from play_helpers import Running, folder_state, london, play_process

START = ["--detectives", "Red=13,Blue=26", "--mrx-start", "50", "--seed", "1"]
#: Round 1 from Mr. X's start at 50 (37 -> 36 by taxi is his next move in the tests).
MOVES = "X T 37\nRed T 23\nBlue T 27\n"


def new_game(folder: Path, record: str = "g.txt", log: str = "m.txt", moves: str = MOVES) -> None:
    """A game with Mr. X's log in ``folder``, ``moves`` played, the session ended."""
    r = play_process(folder, record, "--new", *START, "--mrx-log", log, input=(moves + "quit\n").encode())
    assert r.returncode == 0, r.stderr
    assert not (folder / (record + ".lock")).exists()


def one_error(stderr: bytes | str) -> str:
    """The one line a refusal writes (and that it is one line)."""
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    lines = text.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), text
    assert "Traceback" not in text
    return lines[0]


def refused(folder: Path, *args: str, input: bytes = b"X T 36\nquit\n") -> str:
    """``play ARGS`` in ``folder``, which must refuse to start: exit 2, one error line (returned),
    nothing on standard output, and nothing in ``folder`` written."""
    before = folder_state(folder)
    r = play_process(folder, *args, input=input)
    assert folder_state(folder) == before
    assert r.returncode == 2 and r.stdout == b"", r
    return one_error(r.stderr)


def changed(before: dict, after: dict) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


# ---- pictures ---------------------------------------------------------------------------------

#: (the record's name, the log's name, links to make: name -> target, the picture, what it is)
PICTURES = [
    ("g.txt", "m.png", {}, "m.png", "Mr. X's log"),
    ("g.svg", "m.txt", {}, "g.svg", "the record"),
    ("g.txt", "m.txt", {"p.png": "g.txt"}, "p.png", "the record"),
    ("g.txt", "m.txt", {"q.pdf": "m.txt"}, "q.pdf", "Mr. X's log"),
    ("g.txt", "m.pdf", {"d": "."}, "d/m.pdf", "Mr. X's log"),  # through a link to the folder
    ("g.txt", "m.txt", {"r.svg": "s.svg", "s.svg": "g.txt"}, "r.svg", "the record"),  # a link to a link
]


@pytest.mark.parametrize("record,log,links,picture,what", PICTURES)
def test_the_picture_command_never_writes_over_the_record_or_the_log(tmp_path, record, log, links, picture,
                                                                     what):
    new_game(tmp_path, record, log, moves="X T 37\n")
    for name, target in links.items():
        os.symlink(target, tmp_path / name)
    before = folder_state(tmp_path)
    # the last move is saved, then the picture is asked for (a later move would write the
    # files again and hide what the picture did)
    r = play_process(tmp_path, record, input=f"Red T 23\npicture {picture}\nhistory\nquit\n".encode())
    after = folder_state(tmp_path)
    assert after[record][1][0].startswith(b"map london\n") and b"Red 13: T 23" in after[record][1][0]
    assert after[log][1][0].startswith(b"map london\n") and b"X 50: T 37" in after[log][1][0]
    assert all(after[name] == ("link", target) for name, target in links.items())
    assert changed(before, after) == {record, log}  # the move, and nothing else
    assert r.returncode == 0, r.stderr
    error = one_error(r.stderr)
    assert error.startswith(f"error: {picture}: ") and f"{what}: the picture must be another file" in error
    assert b"    1  T      T 23" in r.stdout  # the session went on after the refusal


@pytest.mark.parametrize("record,log,links,picture,what", PICTURES)
def test_a_picture_option_naming_the_record_or_the_log_is_refused_before_anything_is_written(
        tmp_path, record, log, links, picture, what):
    for name, target in links.items():
        os.symlink(target, tmp_path / name)
    # a new game: refused before its record is written (a whole round: the picture is drawn after it)
    error = refused(tmp_path, record, "--new", *START, "--mrx-log", log, "--picture", picture, input=MOVES.encode())
    assert error.startswith(f"error: {picture}: ") and f"{what}: the picture must be another file" in error
    # a resumed one: refused before anything is played or drawn
    new_game(tmp_path, record, log, moves="X T 37\n")
    error = refused(tmp_path, record, "--picture", picture, input=b"Red T 23\nBlue T 27\n")
    assert error.startswith(f"error: {picture}: ") and f"{what}: the picture must be another file" in error


def test_a_picture_through_a_link_to_the_game_s_map_file_is_refused(tmp_path):
    # the record names its map file, read again at every resume: drawn over, the game is lost
    from sy_tools.formats.map_load import load_board
    from sy_tools.formats.map_write import write_map

    write_map(load_board("london"), tmp_path / "board.json")
    new_game_args = ["--new", *START, "--mrx-log", "m.txt", "--map", "board.json"]
    r = play_process(tmp_path, "g.txt", *new_game_args, input=b"X T 37\nquit\n")
    assert r.returncode == 0, r.stderr
    os.symlink("board.json", tmp_path / "p.png")
    before = folder_state(tmp_path)
    r = play_process(tmp_path, "g.txt", input=b"Red T 23\npicture p.png\nquit\n")
    after = folder_state(tmp_path)
    assert after["board.json"] == before["board.json"]
    assert "the picture must be another file" in one_error(r.stderr)
    assert play_process(tmp_path, "g.txt", input=b"quit\n").returncode == 0  # (the game still resumes)


# ---- Mr. X's log ------------------------------------------------------------------------------

def test_a_log_that_is_a_link_to_the_record_is_refused(tmp_path):
    # a record from before the play header (so the log is named on the command line), no moves yet
    (tmp_path / "g.txt").write_text("map london\nrules classic\nX:\nRed 13:\nBlue 26:\n")
    os.symlink("g.txt", tmp_path / "m.txt")
    error = refused(tmp_path, "g.txt", "--mrx-log", "m.txt", input=b"X T 37\nquit\n")  # (37 is not published)
    assert "m.txt: is the same file as g.txt, which is the record: Mr. X's log must be another file" in error


def test_a_log_replaced_by_a_link_to_the_record_is_refused_on_a_plain_resume(tmp_path):
    new_game(tmp_path)
    os.unlink(tmp_path / "m.txt")
    os.symlink("g.txt", tmp_path / "m.txt")
    assert "Mr. X's log must be another file" in refused(tmp_path, "g.txt")


def test_a_log_that_is_a_hard_link_of_the_record_is_refused(tmp_path):
    """A hard link has a name of its own but is the record's file: writing the log there would
    publish his whole route in the public record."""
    (tmp_path / "g.txt").write_text("map london\nrules classic\nX:\nRed 13:\nBlue 26:\n")
    os.link(tmp_path / "g.txt", tmp_path / "m.txt")
    error = refused(tmp_path, "g.txt", "--mrx-log", "m.txt", input=b"X T 37\nquit\n")
    assert "m.txt: is the same file as g.txt, which is the record: Mr. X's log must be another file" in error
    assert "37" not in (tmp_path / "g.txt").read_text()


# ---- one session per record -------------------------------------------------------------------

@pytest.mark.parametrize("second", ["g.txt", "./g.txt", "link.txt"])
def test_a_second_session_on_the_record_is_refused_naming_the_holder(tmp_path, second):
    new_game(tmp_path)
    os.symlink("g.txt", tmp_path / "link.txt")
    with Running(tmp_path, "g.txt") as first:
        first.wait_for(r"Mr\. X may be at")
        error = refused(tmp_path, second)
        assert "the game is open in another session" in error
        assert f"process {first.p.pid} on {socket.gethostname()}" in error
        code, out, err = first.finish("X T 36\nquit\n")
    assert code == 0 and err == ""
    assert "X 50: T 37, T 36" in (tmp_path / "m.txt").read_text()
    assert not (tmp_path / "g.txt.lock").exists()


def test_a_lock_left_by_a_killed_session_is_taken_over(tmp_path):
    new_game(tmp_path)
    with Running(tmp_path, "g.txt") as first:
        first.wait_for(r"Mr\. X may be at")
        first.p.send_signal(signal.SIGKILL)
        first.p.wait()
    assert json.loads((tmp_path / "g.txt.lock").read_text())["pid"] == first.p.pid  # left behind
    r = play_process(tmp_path, "g.txt", input=b"X T 36\nquit\n")
    assert r.returncode == 0 and r.stderr == b""
    assert "X 50: T 37, T 36" in (tmp_path / "m.txt").read_text()
    assert not (tmp_path / "g.txt.lock").exists()


def test_a_lock_held_from_another_machine_is_not_taken_over(tmp_path):
    new_game(tmp_path)  # (a shared folder: the other machine's flock is not seen here)
    info = {"program": "sy-tools play", "pid": 4242, "host": "another-machine", "since": "2026-01-01 20:00:00"}
    (tmp_path / "g.txt.lock").write_text(json.dumps(info) + "\n")
    error = refused(tmp_path, "g.txt")
    assert "open in another session: sy-tools play (process 4242 on another-machine, since 2026-01-01 20:00:00)" \
        in error and "if that session is gone, delete g.txt.lock" in error


def test_a_lock_that_is_a_link_or_a_stranger_s_file_is_not_written_through(tmp_path):
    new_game(tmp_path)
    (tmp_path / "notes.txt").write_text("precious\n")
    os.symlink("notes.txt", tmp_path / "g.txt.lock")
    assert "the record's lock g.txt.lock is a symbolic link, not a lock of a play session" in refused(tmp_path, "g.txt")
    os.unlink(tmp_path / "g.txt.lock")
    os.link(tmp_path / "notes.txt", tmp_path / "g.txt.lock")  # a hard link: the same file by another name
    assert "g.txt.lock is a file with other names" in refused(tmp_path, "g.txt")
    os.unlink(tmp_path / "g.txt.lock")
    (tmp_path / "g.txt.lock").write_text("my own notes\n")
    assert "g.txt.lock holds something else" in refused(tmp_path, "g.txt")


# ---- a record changed behind the session ------------------------------------------------------

@pytest.mark.parametrize("edited", ["g.txt", "m.txt"])
def test_a_file_changed_behind_the_session_is_not_overwritten_and_the_session_stops(tmp_path, edited):
    new_game(tmp_path, moves="X T 37\n")
    with Running(tmp_path, "g.txt") as session:
        session.send("Red T 23\n")
        session.wait_for(r"Red: taxi to 23")
        with open(tmp_path / edited, "a") as f:  # another program (or a hand) edits it
            f.write("# edited by hand\n")
        before = folder_state(tmp_path)
        assert before.pop("g.txt.lock")[0] == "file"
        code, out, err = session.finish("Blue T 27\nundo\nquit\n")
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2 and all(f"{edited} changed on disk behind this session" in ln and ln.endswith("[changed]")
                                   for ln in lines), err
    assert out.splitlines()[-1].startswith(f"stopped: {edited} changed on disk")
    assert "Blue: taxi to 27" not in out
    assert folder_state(tmp_path) == before  # the edit is kept, the lock given back
    assert "# edited by hand" in (tmp_path / edited).read_text()


# ---- a move that cannot be saved --------------------------------------------------------------

#: Long names make the files longer than the lock's few lines (the size limit below must let
#: the lock be written and stop the record or the log from growing).
LONG = ["Inspector" + "R" * 60, "Inspector" + "B" * 60]


def test_a_move_that_cannot_be_saved_is_taken_back_and_the_exit_code_is_2(tmp_path):
    r = play_process(tmp_path, "g.txt", "--new", "--detectives", f"{LONG[0]}=13,{LONG[1]}=26", "--mrx-start", "50",
                     "--mrx-log", "m.txt", input=b"X T 37\nquit\n")
    assert r.returncode == 0, r.stderr
    limit = max(os.path.getsize(tmp_path / "g.txt"), os.path.getsize(tmp_path / "m.txt")) + 2
    assert limit > 120 + len(socket.gethostname())  # room for the lock's line
    before = folder_state(tmp_path)

    def small_files() -> None:  # writes past `limit` bytes fail with EFBIG (root ignores file modes)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    r = play_process(tmp_path, "g.txt", input=b"T 23\nhistory\ntickets\nquit\n", preexec_fn=small_files)
    assert r.returncode == 2
    error = one_error(r.stderr)
    assert error.startswith("error: could not save ") and "File too large" in error
    assert "the move was taken back, the files hold the game as before [unsaved]" in error
    out = r.stdout.decode()
    assert f"{LONG[0]}: taxi" not in out  # taken back: not announced,
    history = out[out.index("round  Mr. X"):out.index("tickets left:")]
    assert [ln.split() for ln in history.splitlines()[2:]] == [["1", "T"]]  # not in the history,
    tickets = out[out.index("tickets left:"):].splitlines()
    assert next(ln for ln in tickets if ln.startswith(LONG[0])).split()[1:] == ["10", "8", "4"]  # nor spent
    assert tickets[-1] == "saved after move 1; resume with: sy-tools play g.txt"
    assert folder_state(tmp_path) == before


def test_a_computer_move_that_cannot_be_saved_is_taken_back_and_the_session_goes_on(tmp_path):
    r = play_process(tmp_path, "g.txt", "--new", "--computer", "mrx", "--detectives", f"{LONG[0]}=13,{LONG[1]}=26",
                     "--secret-seed", "1", "--think", "0.2", input=b"T 23\nquit\n")
    assert r.returncode == 0, r.stderr
    # room for the detective's move (5 bytes more), not for the computer's reply after it
    limit = max(os.path.getsize(tmp_path / "g.txt"), os.path.getsize(tmp_path / "g.mrx.txt")) + 5
    before_reply = (tmp_path / "g.txt").read_text()

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    r = play_process(tmp_path, "g.txt", input=b"T 27\nquit\n", preexec_fn=small_files, timeout=30)
    assert r.returncode == 2
    errors = r.stderr.decode().splitlines()
    assert errors and all("could not save" in e and "[unsaved]" in e for e in errors) and len(errors) <= 2, errors
    assert r.stdout.decode().splitlines()[-1].startswith("saved after move 3; resume with:")
    assert (tmp_path / "g.txt").read_text() == before_reply.replace(f"{LONG[1]} 26: \n", f"{LONG[1]} 26: T 27\n")


def test_a_move_that_cannot_be_saved_through_the_library(tmp_path, monkeypatch):
    from sy_tools.play import Console
    from sy_tools.play import new_game as start
    from sy_tools.play import session as session_module
    from sy_tools.play.session import Refused

    board, rules = london()
    session, _ = start(str(tmp_path / "g.txt"), board, "london", rules, detectives=[("Red", 13), ("Blue", 26)],
                       mrx_start=50, log=str(tmp_path / "m.txt"), seed=1)
    try:
        out: list[str] = []
        err: list[str] = []
        console = Console(session, out.append, err.append)
        console.handle("X T 37")
        before = folder_state(tmp_path)
        real = session_module.atomic_write_many
        calls = []

        def failing(files):
            calls.append([str(p) for p, _ in files])
            raise OSError(errno.EIO, "Input/output error", str(tmp_path / "m.txt"))

        monkeypatch.setattr(session_module, "atomic_write_many", failing)
        plies = list(session.plies)
        with pytest.raises(Refused) as e:
            session.enter("Red", "T 23")
        assert e.value.code == "unsaved" and "the move was taken back" in e.value.message
        assert session.plies == plies and session.position.stations[0] == 13 and session.save_failed
        del out[:]
        console.handle("Red T 23")  # at the table: one line says so, and nothing is announced
        assert err == [f"error: could not save {tmp_path / 'm.txt'}: Input/output error; the move was taken back, "
                       "the files hold the game as before [unsaved]"] and out == []
        assert len(calls) == 2 and folder_state(tmp_path) == before
        monkeypatch.setattr(session_module, "atomic_write_many", real)
        session.enter("Red", "T 23")  # the next move saves: the game goes on
        assert "Red 13: T 23" in (tmp_path / "g.txt").read_text()
        assert console.exit_code(0) == 2  # but something could not be saved
    finally:
        if getattr(session, "lock", None) is not None:
            session.lock.release()


# ---- files play refuses -----------------------------------------------------------------------

@pytest.mark.parametrize("which", ["g.txt", "m.txt"])
def test_a_read_only_record_or_log_is_refused_on_resume(tmp_path, which):
    new_game(tmp_path)
    os.chmod(tmp_path / which, 0o444)
    assert refused(tmp_path, "g.txt").startswith(f"error: {which}: is read-only")


@pytest.mark.parametrize("game", ["-", "/dev/stdout", "/dev/stdin", "/dev/fd/1"])
@pytest.mark.parametrize("new", [True, False])
def test_standard_input_or_output_as_the_game_is_refused(tmp_path, game, new):
    args = [game, "--new", "--detectives", "Red=13,Blue=26"] if new else [game]
    error = refused(tmp_path, *args, input=b"X T\nRed T 23\nquit\n")
    assert "play keeps the game in a file it saves after every move" in error and folder_state(tmp_path) == {}


def test_mrx_log_is_made_readable_by_its_owner_only(tmp_path):
    """His log holds his stations and the secret seed: made 0600 (the record as any file); a log
    that already exists keeps the mode it was given."""
    umask = os.umask(0o022)
    try:
        new_game(tmp_path)
        assert (tmp_path / "m.txt").stat().st_mode & 0o777 == 0o600
        assert (tmp_path / "g.txt").stat().st_mode & 0o777 == 0o644
        (tmp_path / "m.txt").chmod(0o640)
        r = play_process(tmp_path, "g.txt", input=b"X T 36\nquit\n")
        assert r.returncode == 0, r.stderr
        assert "T 36" in (tmp_path / "m.txt").read_text()
        assert (tmp_path / "m.txt").stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(umask)
