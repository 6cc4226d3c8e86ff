"""Nothing lost, nothing replaced: writes go through links and into devices, the pair changes
all-or-nothing, signals leave no temp files; reads never block or run away."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import default_signals
from limited_cli import ROOT, run_limited, unblock_later

from sy_tools.errors import InputError
from sy_tools.formats.files import atomic_write_bytes, read_text

EX = ROOT / "examples"


def _no_temps(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".bak"))]


# ---- links and special files --------------------------------------------------------------------


def test_record_convert_writes_through_a_symlink(cli, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    r = cli("record", "convert", str(EX / "table.txt"), str(link))
    assert r.exit_code == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("map london") or "Red" in real.read_text()
    _no_temps(tmp_path)


def test_map_convert_writes_through_a_dangling_symlink(cli, tmp_path):
    link = tmp_path / "g.txt"
    link.symlink_to(tmp_path / "target.txt")
    assert cli("map", "convert", "london", str(link)).exit_code == 0
    assert link.is_symlink() and (tmp_path / "target.txt").read_text().startswith("199 468")


def test_pair_written_through_symlinked_files(cli, tmp_path):
    out = tmp_path / "pair"
    assert cli("map", "convert", "london", str(out)).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "stations.txt").rename(elsewhere / "stations.txt")
    (out / "stations.txt").symlink_to(elsewhere / "stations.txt")
    (elsewhere / "stations.txt").write_text("stale\n")
    assert cli("map", "convert", "london", str(out)).exit_code == 0
    assert (out / "stations.txt").is_symlink()
    assert (elsewhere / "stations.txt").read_text().startswith("1 ")


def test_symlink_loop_is_an_error_not_a_replacement(cli, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.symlink_to(b)
    b.symlink_to(a)
    r = cli("map", "convert", "london", str(a))
    assert r.exit_code == 2 and "symbolic links" in r.stderr
    assert a.is_symlink() and b.is_symlink()


def _fifo_reader(path: Path, box: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(path, "rb") as fh:
            box.append(fh.read())

    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


def test_writes_into_a_named_pipe_and_keeps_it(cli, tmp_path):
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    box: list[bytes] = []
    reader = _fifo_reader(fifo, box)
    time.sleep(0.05)
    r = cli("map", "convert", "london", str(fifo))
    reader.join(10)
    assert r.exit_code == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert box and box[0].startswith(b'{\n  "name": "london"')


def test_pipe_without_reader_is_refused(cli, tmp_path):
    fifo = tmp_path / "g.txt"
    os.mkfifo(fifo)
    r = cli("map", "convert", "london", str(fifo))
    assert r.exit_code == 2 and r.stderr.strip() == f"error: {fifo}: a named pipe with no reader"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_pair_refuses_a_pipe_and_changes_nothing(cli, tmp_path):
    out = tmp_path / "pair"
    assert cli("map", "convert", "london", str(out)).exit_code == 0
    before = (out / "stations.txt").read_bytes()
    (out / "connections.txt").unlink()
    os.mkfifo(out / "connections.txt")
    r = cli("map", "convert", "london", str(out))
    assert r.exit_code == 2 and "named pipe" in r.stderr
    assert (out / "stations.txt").read_bytes() == before
    _no_temps(out)


def test_full_disk_names_the_file(monkeypatch, tmp_path):
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    target = tmp_path / "out.json"
    target.write_text("old")
    with pytest.raises(OSError) as e:
        atomic_write_bytes(target, b"new")
    assert e.value.filename == str(target) and e.value.errno == errno.ENOSPC
    assert target.read_text() == "old"
    _no_temps(tmp_path)


def test_full_disk_message_through_the_cli(cli, monkeypatch, tmp_path):
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    r = cli("map", "convert", "london", str(tmp_path / "m.json"))
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {tmp_path / 'm.json'}: No space left on device"


# ---- the pair changes all-or-nothing -----------------------------------------------------------


def _pair(cli, tmp_path: Path) -> tuple[Path, bytes, bytes]:
    out = tmp_path / "pair"
    assert cli("map", "convert", "london", str(out)).exit_code == 0
    # an older but valid version of the map: without taxi 13-14 (and so 13's label still fits)
    s = (out / "stations.txt").read_bytes()
    c = (out / "connections.txt").read_bytes().replace(b"13 14 taxi\n", b"")
    (out / "connections.txt").write_bytes(c)
    return out, s, c


def test_pair_failing_second_write_changes_neither(cli, monkeypatch, tmp_path):
    out, s_before, c_before = _pair(cli, tmp_path)
    calls = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    r = cli("map", "convert", "london", str(out))
    assert r.exit_code == 2 and "No space left on device" in r.stderr and "connections.txt" in r.stderr
    assert (out / "stations.txt").read_bytes() == s_before
    assert (out / "connections.txt").read_bytes() == c_before
    _no_temps(out)


def test_pair_failing_second_rename_restores_the_first(cli, monkeypatch, tmp_path):
    out, s_before, c_before = _pair(cli, tmp_path)
    (out / "stations.txt").write_bytes(s_before.replace(b"1 ", b"1  ", 1))  # differs from the new text
    s_before = (out / "stations.txt").read_bytes()
    calls = []
    real_replace = os.replace

    def replace(a, b):  # type: ignore[no-untyped-def]
        calls.append(b)
        if len(calls) == 2:
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(a, b)

    monkeypatch.setattr(os, "replace", replace)
    r = cli("map", "convert", "london", str(out))
    assert r.exit_code == 2 and "Input/output error" in r.stderr
    assert (out / "stations.txt").read_bytes() == s_before
    assert (out / "connections.txt").read_bytes() == c_before
    _no_temps(out)


# ---- signals during a write ---------------------------------------------------------------------

_SLOW_WRITER = r"""
import os, sys, time
from sy_tools import files
real = os.fsync
def slow(fd):
    print("writing", flush=True)
    time.sleep(30)
os.fsync = slow
files.atomic_write_bytes(sys.argv[1], b"x" * 1000)
"""


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, -signal.SIGTERM), (signal.SIGINT, -signal.SIGINT),
                                       (signal.SIGHUP, -signal.SIGHUP)])
def test_signal_during_write_leaves_no_temp_file(tmp_path, sig, code):
    target = tmp_path / "out.json"
    target.write_text("old")
    p = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(target)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "writing"
    p.send_signal(sig)
    p.wait(10)
    assert p.returncode == code
    assert target.read_text() == "old"
    _no_temps(tmp_path)


# ---- reads that never block or run away ---------------------------------------------------------


def test_read_text_refuses_devices_and_pipes(tmp_path):
    fifo = tmp_path / "g.json"
    os.mkfifo(fifo)
    unblock_later(fifo)
    with pytest.raises(InputError, match="is a named pipe, not a regular file"):
        read_text(fifo)  # would block for ever waiting for a writer
    with pytest.raises(InputError, match="is a character device, not a regular file"):
        read_text("/dev/zero")


def test_read_text_caps_the_size(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(64 * 1024 * 1024 + 1)  # sparse: costs no disk
    with pytest.raises(InputError, match="is larger than 64 MiB"):
        read_text(big)


@pytest.mark.parametrize("args", [
    ["check", "{}"], ["possible", "{}"], ["validate", "{}"], ["map", "info", "{}"],
    ["validate", "--input-format", "bristol", "{}"], ["record", "convert", "{}", "out.json"],
    ["cordon", "{}"],
])
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "fifo"])
def test_commands_refuse_devices_quickly(tmp_path, args, device):
    path = device
    if device == "fifo":
        path = str(tmp_path / "game.json")
        os.mkfifo(path)
    r = run_limited([a.replace("{}", path) for a in args], timeout=20, mem_mb=1200, cwd=tmp_path)
    assert r.code == 2, (r.code, r.stderr[-500:])
    assert "Traceback" not in r.stderr
    assert "not a regular file" in r.stderr or "named pipe" in r.stderr


def test_batch_goes_on_past_a_fifo(tmp_path):
    fifo = tmp_path / "stuck.json"
    os.mkfifo(fifo)
    r = run_limited(["possible", "--format", "jsonl", str(fifo), str(EX / "in-progress.json")], timeout=20)
    lines = r.stdout.splitlines()
    assert r.code == 1 and len(lines) == 2 and '"error"' in lines[0] and '"stations"' in lines[1]


def test_a_file_written_a_part_at_a_time_is_replaced_whole_or_not_at_all(tmp_path):
    """``atomic_writer`` (the story's frames go through it): the old file stays as it was until
    the block ends, and stays for good when the block fails; a link is written through."""
    from sy_tools.formats.files import atomic_writer

    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with atomic_writer(target) as f:
        f.write(b"new ")
        assert target.read_bytes() == b"old"
        f.write(b"content")
    assert target.read_bytes() == b"new content"
    with pytest.raises(RuntimeError), atomic_writer(target) as f:
        f.write(b"half")
        raise RuntimeError("drawing failed")
    assert target.read_bytes() == b"new content"
    _no_temps(tmp_path)
    link = tmp_path / "link.bin"
    link.symlink_to(target)
    with atomic_writer(link) as f:
        f.write(b"through")
    assert link.is_symlink() and target.read_bytes() == b"through"
    with pytest.raises(IsADirectoryError), atomic_writer(tmp_path) as f:
        f.write(b"x")
