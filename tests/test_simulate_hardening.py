"""`sy-tools simulate` against hostile input: outputs never replace inputs or old results on a
failed run, user policies cannot end or corrupt the run, workers end with it, bad options are one
line."""

from __future__ import annotations

import csv
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sy_tools.errors import InputError

BOTS = '''
import os, sys
from sy_tools.selfplay.policies import random_detective, random_mrx

def sys_exit(obs, rng):
    sys.exit(3)

def os_exit(obs, rng):
    os._exit(4)

class BadRepr:
    def __repr__(self):
        raise ValueError("no repr")

def bad_repr(obs, rng):
    return BadRepr()

class BadStr(Exception):
    def __str__(self):
        raise ValueError("no str")

def bad_str(obs, rng):
    raise BadStr()

def chatty(obs, rng):
    print("HELLO FROM A POLICY")
    return random_mrx(obs, rng)

def interrupt(obs, rng):
    raise KeyboardInterrupt

def slow(obs, rng):
    x = 0
    for i in range(3 * 10**6):
        x += i
    return random_detective(obs, rng)
'''

SMALL_MAP = {"name": "tiny", "stations": [{"id": i} for i in range(1, 9)],
             "connections": [{"a": i, "b": i % 8 + 1, "transport": "taxi"} for i in range(1, 9)]}


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    p = tmp_path / "bots.py"
    p.write_text(BOTS)
    return p


def _one_line(r, code: int = 2) -> str:
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def _no_temp(folder: Path) -> None:
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


# ---- 1. --out: checked first, written to a temp file, never over an input -----------------------


@pytest.mark.parametrize("ext", ["csv", "parquet"])
@pytest.mark.parametrize("bad", [["--starts", "999"], ["--mrx-policy", "nope"], ["--map", "no-such-map.json"]])
def test_a_failed_run_leaves_the_old_out_file(cli, tmp_path, ext, bad):
    out = tmp_path / f"old.{ext}"
    out.write_bytes(b"precious")
    _one_line(cli("simulate", "-n", "3", "--jobs", "1", "--out", str(out), *bad))
    assert out.read_bytes() == b"precious"
    _no_temp(tmp_path)


def test_an_interrupted_run_leaves_the_old_out_file(cli, tmp_path, bots):
    out = tmp_path / "old.csv"
    out.write_text("precious")
    r = cli("simulate", "-n", "3", "--jobs", "1", "--out", str(out), "--mrx-policy", f"{bots}:interrupt")
    assert _one_line(r, 130) == "error: interrupted"
    assert out.read_text() == "precious"
    _no_temp(tmp_path)


def test_out_through_a_symlink_replaces_the_file_it_names(cli, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    r = cli("simulate", "-n", "3", "--jobs", "1", "--out", str(link))
    assert r.exit_code == 0
    assert link.is_symlink() and len(list(csv.DictReader(real.open()))) == 3
    _no_temp(tmp_path)


def test_out_never_replaces_an_input(cli, tmp_path, bots):
    m = tmp_path / "tiny.json"
    m.write_text(json.dumps(SMALL_MAP))
    rules = tmp_path / "rules.csv"
    rules.write_text(json.dumps({"preset": "classic", "double_moves_per_round": 0}))
    for args, victim in [(["--map", str(m), "--detective-count", "2"], m), (["--rules", str(rules)], rules),
                         (["--mrx-policy", f"{bots}:chatty"], bots)]:
        before = victim.read_bytes()
        out = victim if victim.suffix == ".csv" else tmp_path / "alias.csv"
        if out != victim:
            out.unlink(missing_ok=True)
            out.symlink_to(victim)
        r = cli("simulate", "-n", "2", "--jobs", "1", "--out", str(out), *args)
        assert "refusing to overwrite an input" in _one_line(r)
        assert victim.read_bytes() == before


def test_empty_out_is_an_error(cli):
    assert _one_line(cli("simulate", "-n", "2", "--out", "")) == (
        "error: --out: expected a file name ending in .csv or .parquet, got ''")


# ---- 2. --records never writes over an input --------------------------------------------------


def test_records_never_replace_an_input(cli, tmp_path):
    rec = tmp_path / "recs"
    rec.mkdir()
    rules = rec / "game-0000001.json"
    rules.write_text(json.dumps({"preset": "classic"}))
    r = cli("simulate", "-n", "3", "--jobs", "1", "--rules", str(rules), "--records", str(rec))
    assert "refusing to overwrite an input" in _one_line(r)
    assert json.loads(rules.read_text()) == {"preset": "classic"}
    assert sorted(p.name for p in rec.iterdir()) == ["game-0000001.json"]
    # a record the run does not write may share the folder
    r = cli("simulate", "-n", "1", "--jobs", "1", "--rules", str(rules), "--records", str(rec))
    assert r.exit_code == 0


# ---- 3. a policy that exits ---------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sys_exit_in_a_policy_is_a_forfeit(cli, bots, jobs):
    r = cli("simulate", "-n", "3", "--jobs", jobs, "--mrx-policy", f"{bots}:sys_exit", "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["forfeits"] == 3


def test_sys_exit_at_import_is_one_line(cli, tmp_path):
    p = tmp_path / "quits.py"
    p.write_text("import sys\nsys.exit(5)\n")
    assert _one_line(cli("simulate", "-n", "2", "--mrx-policy", f"{p}:f")) == (
        f"error: --mrx-policy: {p}:f: cannot import '{p}': SystemExit: 5")


def test_a_dead_worker_is_one_line_not_a_hang(cli, bots):
    t = time.monotonic()
    r = cli("simulate", "-n", "4", "--jobs", "2", "--mrx-policy", f"{bots}:os_exit")
    assert "a worker process died while playing games" in _one_line(r)
    assert time.monotonic() - t < 20


# ---- 4. records name their map so that check replays them ----------------------------------------


def test_records_with_a_map_file_elsewhere_replay(cli, tmp_path, monkeypatch):
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "tiny.json").write_text(json.dumps(SMALL_MAP))
    monkeypatch.chdir(tmp_path)
    r = cli("simulate", "-n", "3", "--jobs", "1", "--map", "maps/tiny.json", "--detective-count", "2",
            "--records", "out/recs")
    assert r.exit_code == 0, r.stderr
    for rec in sorted((tmp_path / "out" / "recs").iterdir()):
        assert json.loads(rec.read_text())["map"] == "../../maps/tiny.json"
        c = cli("check", str(rec))
        assert c.exit_code == 0, c.stderr


# ---- 5, 8, 12, 13: options refused at once --------------------------------------------------------


@pytest.mark.parametrize("value", ["1e6", "inf", "nan", "0"])
def test_cordon_time_limit_is_a_time_limit(cli, value):
    line = _one_line(cli("simulate", "-n", "2", "--detective-policy", "cordon", "--cordon-time-limit", value))
    assert "--cordon-time-limit" in line and "expected a positive number of seconds" in line


def test_seed_must_fit_64_bits(cli, tmp_path):
    out = tmp_path / "r.parquet"
    line = _one_line(cli("simulate", "-n", "2", "--seed", str(2**64), "--out", str(out)))
    assert line.startswith("error: --seed: expected a seed from -9223372036854775808 to 9223372036854775807")
    assert not out.exists()
    r = cli("simulate", "-n", "2", "--jobs", "1", "--seed", str(2**63 - 1), "--out", str(out))
    assert r.exit_code == 0


def test_jobs_is_bounded(cli, monkeypatch):
    assert "--jobs" in _one_line(cli("simulate", "-n", "2", "--jobs", "100000"))
    import concurrent.futures

    from sy_tools.selfplay import game as sim
    from sy_tools.selfplay import runner

    seen = []
    real = concurrent.futures.ProcessPoolExecutor

    def spy(n, **kw):
        seen.append(n)
        return real(n, **kw)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", spy)
    assert len(list(runner.iter_games(sim.GameSpec(), 3, jobs=1000))) == 3
    assert seen == [3]


def test_unknown_deck_is_refused(cli, tmp_path):
    rules = tmp_path / "r.json"
    rules.write_text(json.dumps({"preset": "classic", "mrx_deck": "nope"}))
    assert _one_line(cli("simulate", "-n", "2", "--rules", str(rules))) == (
        "error: --rules: the rules' mrx_deck 'nope' is not a start deck of the map 'london' (its decks: "
        "2014-detectives, 2014-mrx, classic)")
    m = tmp_path / "tiny.json"  # a map without decks deals from every station, as before
    m.write_text(json.dumps(SMALL_MAP))
    r = cli("simulate", "-n", "2", "--jobs", "1", "--map", str(m), "--detective-count", "2", "--rules", str(rules))
    assert r.exit_code == 0, r.stderr


# ---- 9, 10: what a policy returns or prints --------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_broken_repr_and_str_are_forfeits(cli, tmp_path, bots, jobs):
    out = tmp_path / "r.csv"
    for name, text in [("bad_repr", "<BadRepr object whose repr() failed>"),
                       ("bad_str", "raised BadStr: <BadStr object whose str() failed>")]:
        r = cli("simulate", "-n", "2", "--jobs", jobs, "--mrx-policy", f"{bots}:{name}", "--out", str(out))
        assert r.exit_code == 0, r.stderr
        rows = list(csv.DictReader(out.open()))
        assert all(text in row["forfeit"] for row in rows), rows


def test_a_policy_cannot_print_into_the_json(cli, bots):
    r = cli("simulate", "-n", "2", "--jobs", "1", "--mrx-policy", f"{bots}:chatty", "--format", "json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["games"] == 2
    # workers write to the real stdout: a real process
    p = subprocess.run([sys.executable, "-m", "sy_tools", "simulate", "-n", "4", "--jobs", "2", "--mrx-policy",
                        f"{bots}:chatty", "--format", "json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["games"] == 4
    assert "HELLO FROM A POLICY" in p.stderr


# ---- 6. a scheduler that is not dask -------------------------------------------------------------


@pytest.mark.parametrize("reply", [b"", b"HTTP/1.0 400 Bad request\r\n\r\n", b"\xff" * 64],
                         ids=["silent", "http", "garbage"])
def test_a_non_dask_scheduler_is_one_error_in_bounded_time(reply):
    pytest.importorskip("distributed")
    from sy_tools.selfplay.runner import _connect

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    srv.settimeout(0.2)
    stop = threading.Event()
    conns = []

    def serve() -> None:
        while not stop.is_set():
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            if reply:
                c.sendall(reply)
            conns.append(c)

    th = threading.Thread(target=serve, daemon=True)
    th.start()
    t = time.monotonic()
    try:
        with pytest.raises(InputError, match="cannot reach the dask scheduler at tcp://127.0.0.1:"):
            _connect(f"tcp://127.0.0.1:{srv.getsockname()[1]}", deadline=2.0)
        assert time.monotonic() - t < 8
    finally:
        stop.set()
        th.join(2)
        for c in conns:
            c.close()
        srv.close()


# ---- 7, 11: signals end the workers with the run ---------------------------------------------------


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir() or not hasattr(os, "killpg"), reason="needs /proc and POSIX signals")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_workers_and_keeps_the_old_file(tmp_path, bots, sig):
    out = tmp_path / "old.csv"
    out.write_text("precious")
    cmd = [sys.executable, "-m", "sy_tools", "simulate", "-n", "40", "--jobs", "2", "--detective-policy",
           f"{bots}:slow", "--out", str(out)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 15
        kids: list[int] = []
        while time.monotonic() < deadline and len(kids) < 2:
            time.sleep(0.1)
            kids = _children(p.pid)
        assert len(kids) >= 2, "the workers never started"
        time.sleep(0.3)
        s = getattr(signal, sig)
        if sig == "SIGINT":
            os.killpg(p.pid, s)  # Ctrl-C reaches the whole process group
        else:
            p.send_signal(s)
        _, err = p.communicate(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(k) for k in kids):
            time.sleep(0.05)
        assert not any(_alive(k) for k in kids), "a worker outlived the run"
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    if sig == "SIGINT":
        assert p.returncode == 130
        assert err.decode().strip() == "error: interrupted"
    else:
        assert p.returncode == -s
    assert out.read_text() == "precious"
    _no_temp(tmp_path)


# ---- 14: messages name the option, the file and what is wrong ------------------------------------


def test_messages_name_option_and_file(cli, tmp_path):
    assert _one_line(cli("simulate", "-n", "2", "--records", "")) == "error: --records: expected a folder name, got ''"
    dangling = tmp_path / "dangl"
    dangling.symlink_to(tmp_path / "gone")
    assert _one_line(cli("simulate", "-n", "2", "--records", str(dangling))) == (
        f"error: {dangling}: --records: is a symbolic link to '{tmp_path / 'gone'}', which does not exist; "
        "give a folder")
    fifo = tmp_path / "pf.parquet"
    os.mkfifo(fifo)
    assert _one_line(cli("simulate", "-n", "2", "--out", str(fifo))) == (
        f"error: {fifo}: --out: is a named pipe: parquet needs a regular file (write .csv to a pipe or device)")
    assert _one_line(cli("simulate", "-n", "2", "--mrx-policy", "/dev/zero:f")) == (
        "error: --mrx-policy: /dev/zero:f: '/dev/zero' is a character device, not a regular file; give a .py file")


def test_out_to_a_pipe_with_no_reader(cli, tmp_path):
    fifo = tmp_path / "p.csv"
    os.mkfifo(fifo)
    assert _one_line(cli("simulate", "-n", "2", "--jobs", "1", "--out", str(fifo))) == (
        f"error: {fifo}: --out: a named pipe with no reader")


# ---- heatmap reads parquet results -------------------------------------------------------------


def test_heatmap_winrate_reads_parquet(cli, tmp_path, london):
    pytest.importorskip("pyarrow")
    from sy_tools.plot.winrate import load_winrates

    pq = tmp_path / "r.parquet"
    assert cli("simulate", "-n", "20", "--jobs", "1", "--out", str(pq)).exit_code == 0
    cs = tmp_path / "r.csv"
    assert cli("simulate", "-n", "20", "--jobs", "1", "--out", str(cs)).exit_code == 0
    assert load_winrates(pq, london) == load_winrates(cs, london)
