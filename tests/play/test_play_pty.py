"""``sy-tools play`` ended and fed the ways a terminal allows (issue 39): Ctrl-C clears a
half-typed line and on an empty one ends with the resume line (exit 130), Ctrl-D ends with it
(exit 0), a megabyte on one line and bytes that are not UTF-8 are each one refusal line and the
game goes on; what is typed while the computer thinks is not echoed onto the shared screen; and
the same long and undecodable lines through a pipe.  No timing is asserted: the timeouts are
only generous bounds."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest
from play_helpers import play_process, pty_play, screen_lines

from sy_tools.play.terminal import CLEAR as CLEAR_TEXT

CLEAR = CLEAR_TEXT.encode()

pytestmark = pytest.mark.skipif(not Path(sys.executable).with_name("sy-tools").exists(),
                                reason="the sy-tools script is not installed")

NEW = ["--new", "--detectives", "Red=13,Blue=26", "--seed", "1"]
#: a fresh prompt (the cursor moves right after it)
PROMPT = rb"%s to move \(round \d+\)>\x1b\[[0-9;]*[A-Za-z]"


def prompt(who: str) -> bytes:
    return PROMPT % who.replace(".", r"\.").encode()


def started(tmp_path: Path, *args: str) -> pexpect.spawn:
    """A new game at a terminal, Mr. X's first move played, Red to move."""
    child = pty_play(tmp_path, "g.txt", *NEW, *args)
    child.expect(prompt("Mr. X"))
    child.send(b"X T\r")
    child.expect(prompt("Red"))
    return child


def ended(child: pexpect.spawn) -> tuple[int | None, list[str]]:
    """Wait for the end: its exit status and the lines it wrote since the last expect."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, screen_lines(child.before)


def test_ctrl_c_clears_a_half_typed_line_and_the_game_goes_on(tmp_path):
    child = started(tmp_path)
    child.send(b"Red T 2")
    child.expect(b"Red T 2")  # (drawn: the keys were read)
    child.sendintr()  # (the line is wiped from the screen: nothing new to wait for)
    child.send(b"Red T 23\r")
    i = child.expect([b"error: [^\r\n]*", b"Red: taxi to 23"])
    assert i == 1, child.after  # not "Red T 2Red T 23"
    child.expect(prompt("Blue"))
    child.sendeof()
    code, _ = ended(child)
    assert code == 0
    assert "Red 13: T 23\n" in (tmp_path / "g.txt").read_text()


@pytest.mark.parametrize("key,code", [("ctrl-c", 130), ("ctrl-d", 0)])
def test_ctrl_c_or_ctrl_d_on_an_empty_line_ends_with_the_resume_line(tmp_path, key, code):
    child = started(tmp_path)
    child.send(b"Red T 23\r")
    child.expect(prompt("Blue"))
    child.sendintr() if key == "ctrl-c" else child.sendeof()
    status, lines = ended(child)
    assert status == code
    said = [ln for ln in lines if not ln.startswith("Blue to move (round 1)>")]  # (the prompt drawn once more)
    assert said == ["saved after move 2; resume with: sy-tools play g.txt"], lines
    assert not (tmp_path / "g.txt.lock").exists()
    assert "Red 13: T 23\nBlue 26: \n" in (tmp_path / "g.txt").read_text()


def test_a_megabyte_line_at_the_terminal_is_one_refusal_and_the_game_goes_on(tmp_path):
    child = started(tmp_path)
    big = b"Red T 23 " + b"x" * (1 << 20)
    seen = b""
    sent = 0
    while sent < len(big):  # (what it draws meanwhile is read too, or it would wait to write it)
        sent += child.send(big[sent:sent + (1 << 16)])
        try:
            seen += child.read_nonblocking(1 << 20, timeout=0)
        except pexpect.TIMEOUT:
            pass
    child.send(b"\r")
    child.expect(prompt("Red"), timeout=600)
    errors = [ln for ln in screen_lines(child.before) if ln.startswith("error:")]
    assert errors == [f"error: the line is {len(big):,} characters long, more than 4,096: not read [unreadable]"]
    assert b"Traceback" not in seen + child.before
    child.send(b"Red T 23\r")
    child.expect(b"Red: taxi to 23")
    child.expect(prompt("Blue"))
    child.sendeof()
    code, _ = ended(child)
    assert code == 0 and "Red 13: T 23\n" in (tmp_path / "g.txt").read_text()


@pytest.mark.parametrize("secret", [False, True])
def test_bytes_that_are_not_utf8_at_the_terminal_are_one_refusal_and_the_game_goes_on(tmp_path, secret):
    child = pty_play(tmp_path, "g.txt", *NEW, *(["--mrx-log", "m.txt", "--mrx-start", "50"] if secret else []))
    child.expect(prompt("Mr. X"))
    for line in (b"\xff\xfe", b"X T \xc3", b"\xe9\x80 history"):  # on Mr. X's turn (hidden with his log)
        child.send(line + b"\r")
        child.expect(prompt("Mr. X"))
        errors = [ln for ln in screen_lines(child.before) if ln.startswith("error:")]
        assert errors == ["error: the line is not UTF-8 text: not read [unreadable]"], child.before
    child.send(b"X T 37\r" if secret else b"X T\r")
    child.expect(prompt("Red"))
    child.send(b"Red T 2\xff3\r")  # on a detective's turn (shown)
    child.expect(prompt("Red"))
    errors = [ln for ln in screen_lines(child.before) if ln.startswith("error:")]
    assert errors == ["error: the line is not UTF-8 text: not read [unreadable]"], child.before
    child.send(b"Red T 23\r")
    child.expect(b"Red: taxi to 23")
    child.expect(prompt("Blue"))
    child.sendeof()
    code, lines = ended(child)
    assert code == 0 and not any("Traceback" in ln for ln in lines)
    assert "Red 13: T 23\n" in (tmp_path / "g.txt").read_text()


def test_what_is_typed_while_the_computer_thinks_is_not_echoed(tmp_path):
    # Mr. X at the shared screen types his next move while the computer's detectives think:
    # the terminal itself must not echo it (the prompt then shows it as [hidden])
    child = pty_play(tmp_path, "g.txt", "--new", "--computer", "detectives", "--detective-count", "3",
                     "--seed", "2", "--secret-seed", "1", "--think", "2", "--mrx-start", "50")
    child.expect(prompt("Mr. X"))
    child.send(b"X T 37\r")
    child.expect(rb"Mr\. X: taxi\r\n")
    child.send(b"X T 36")  # typed ahead, no Enter yet
    child.expect(prompt("Mr. X"), timeout=120)
    shown = child.before + child.after
    child.expect([pexpect.TIMEOUT], timeout=1)  # (the prompt drawn with the line typed ahead)
    shown += child.before
    assert b"36" not in shown and b"[hidden]" in shown, shown
    child.send(b"\r")  # the line typed ahead is played
    child.expect(rb"Mr\. X: taxi\r\n")
    child.sendintr()
    child.sendintr()
    code, _ = ended(child)
    assert code == 130
    assert "X 50: T 37, T 36" in (tmp_path / "g.mrx.txt").read_text()


@pytest.mark.parametrize("key", [b"\x03", b"\x04", b"\r"])
def test_mr_x_s_private_step_is_cleared_from_the_screen_however_he_leaves_it(tmp_path, key):
    # at the prompt that hands the keyboard back, Enter, Ctrl-C or Ctrl-D: his station must not
    # stay on the shared screen (nor in its scroll-back) either way
    child = pty_play(tmp_path, "g.txt", *NEW, "--mrx-log", "m.txt", "--mrx-start", "50")
    child.expect(prompt("Mr. X"))
    child.send(b"private\r")
    child.expect(b"press Enter>")
    child.send(b"\r")
    child.expect(rb"You are at 50\.")
    child.send(b"T 38\r")
    child.expect(b"hand back>")
    child.send(key + (b"\x04" if key == b"\r" else b""))  # (handed back: then Ctrl-D at Red's prompt)
    code, _ = ended(child)
    after = child.before
    assert code == {b"\x03": 130, b"\x04": 0, b"\r": 0}[key]
    assert CLEAR in after
    shown = after[after.rindex(CLEAR):]  # what the table sees once the screen is cleared
    lines = screen_lines(shown)
    assert not [ln for ln in lines if re.search(r"\b(50|38)\b", ln)], lines
    assert lines[-1] == "saved after move 1; resume with: sy-tools play g.txt"
    assert "X 50: T 38" in (tmp_path / "m.txt").read_text()


@pytest.mark.parametrize("key,code", [(b"q", 0), (b"\x04", 0), (b"\x03", 130)])
def test_q_ctrl_d_or_ctrl_c_stop_the_computer_playing_both_sides(tmp_path, key, code):
    child = pty_play(tmp_path, "g.txt", "--new", "--computer", "both", "--pace", "0.3", "--detective-count", "2",
                     "--seed", "3", "--think", "0.2")
    child.expect(rb"Mr\. X: \w+")
    child.send(key)
    status, lines = ended(child)
    assert status == code
    moves = sum(len(ln.split(":", 1)[1].split(",")) for ln in (tmp_path / "g.mrx.txt").read_text().splitlines()
                if ln.startswith(("X ", "Red ", "Blue ")) and ln.split(":", 1)[1].strip())
    assert lines[-1] == f"saved after move {moves}; resume with: sy-tools play g.txt"


# ---- the same through a pipe ------------------------------------------------------------------

def test_a_megabyte_line_and_bytes_not_utf8_through_a_pipe_are_one_refusal_each(tmp_path):
    lines = [b"X T", b"x" * (1 << 20), "é".encode() * 600_000, b"Red T \xff23", b"Red T 23", b"y" * 4097,
             b"\xc3", b"Blue T 27"]
    r = play_process(tmp_path, "g.txt", *NEW, input=b"\n".join(lines) + b"\n" + b"z" * (1 << 20))  # (no end)
    assert r.returncode == 0
    assert r.stderr.decode().splitlines() == [
        f"error: the line is {1 << 20:,} bytes long, more than 4,096 characters: not read [unreadable]",
        f"error: the line is {1_200_000:,} bytes long, more than 4,096 characters: not read [unreadable]",
        "error: the line is not UTF-8 text: not read [unreadable]",
        "error: the line is 4,097 characters long, more than 4,096: not read [unreadable]",
        "error: the line is not UTF-8 text: not read [unreadable]",
        f"error: the line is {1 << 20:,} bytes long, more than 4,096 characters: not read [unreadable]",
    ]
    out = r.stdout.decode()
    assert "Red: taxi to 23\nBlue: taxi to 27\n" in out and "Traceback" not in out
    assert "Red 13: T 23\nBlue 26: T 27\n" in (tmp_path / "g.txt").read_text()


def test_a_pipe_that_is_not_utf8_from_the_first_byte_is_refused_line_by_line(tmp_path):
    r = play_process(tmp_path, "g.txt", *NEW, input=b"\x80\x81\n\xfe\nX T\nquit\n")
    assert r.returncode == 0
    assert r.stderr.decode().splitlines() == ["error: the line is not UTF-8 text: not read [unreadable]"] * 2
    assert "X: T\n" in (tmp_path / "g.txt").read_text()


# ---- the pieces ------------------------------------------------------------------------------

def test_runs_of_plain_keys_are_joined_and_every_other_key_kept_in_place():
    from prompt_toolkit.key_binding import KeyPress
    from prompt_toolkit.keys import Keys

    from sy_tools.play.terminal import joined

    def k(c: str) -> KeyPress:
        return KeyPress(c, c)

    keys = [k("X"), k(" "), k("T"), KeyPress(Keys.ControlC, "\x03"), k("é"), KeyPress(Keys.Left, "\x1b[D"),
            k("1"), k("2"), k("\udcff"), k("3"), KeyPress(Keys.ControlM, "\r")]
    assert [(p.key, p.data) for p in joined(keys)] == [
        (Keys.BracketedPaste, "X T"), (Keys.ControlC, "\x03"), ("é", "é"), (Keys.Left, "\x1b[D"),
        (Keys.BracketedPaste, "12"), ("\udcff", "\udcff"), ("3", "3"), (Keys.ControlM, "\r")]
    assert joined([]) == []


def test_a_line_is_held_to_one_character_past_the_longest_and_its_true_length_kept():
    from prompt_toolkit.buffer import Buffer

    from sy_tools.play.settings import MAX_LINE
    from sy_tools.play.terminal import LineBound

    buf, bound = Buffer(), LineBound()
    buf.on_text_changed += bound.emptied
    bound.paste(buf, "Red T 23")
    assert buf.text == "Red T 23" and bound.length(buf.text) == 8
    bound.paste(buf, "x" * 10_000)
    assert len(buf.text) == MAX_LINE + 1 and bound.length(buf.text) == 10_008
    bound.paste(buf, "y" * 5)
    assert bound.length(buf.text) == 10_013
    buf.delete_before_cursor(3)  # (partly rubbed out: still too long, and said so)
    assert bound.length(buf.text) == 10_010
    buf.delete_before_cursor(len(buf.text))  # (rubbed out whole: a new line)
    bound.paste(buf, "a\r\nb\rc")
    assert buf.text == "a\nb\nc" and bound.length(buf.text) == 5
    bound.paste(buf, "x" * 5000)
    buf.reset()  # (as Ctrl-C clears the line)
    bound.emptied(buf)
    assert bound.length(buf.text) == 0
