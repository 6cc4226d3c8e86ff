"""``sy-tools serve`` as a process (docs/serve.md): the two lines scripts read, Mr. X's token
kept beside his log, Ctrl-C stops it with the game saved, ``serve`` and ``play`` open the same
files, one session per record."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import urllib.error
import urllib.request

from browser import SY_TOOLS, Served

from sy_tools.web.server import bind, qr_text


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_serve_prints_its_links_and_stops_saved(tmp_path):
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13,Blue=26", "--mrx-start", "50", "--port", "0")
    try:
        assert served.table.startswith("http://127.0.0.1:") and served.mrx.startswith(served.table + "x/")
        token = served.mrx.rsplit("/", 1)[1]
        assert len(token) == 32  # 192 random bits
        state = get(served.table + "api/state")
        assert state["to_move"] == "Mr. X" and (tmp_path / "g.txt.lock").exists()
        api = served.table + f"api/x/{token}/"
        post(api + "move", {"hops": [{"ticket": "taxi", "to": 37}], "tag": state["tag"]})
        assert get(api + "state")["mrx"]["at"] == 37
        out = served.stop()
        assert out.strip().splitlines()[-1] == "stopped; saved after move 1; resume with: sy-tools serve g.txt"
        assert not (tmp_path / "g.txt.lock").exists()
        kept = tmp_path / "g.mrx.txt.token"
        assert kept.read_text().strip() == token and stat.S_IMODE(kept.stat().st_mode) == 0o600
        assert "X 50: T 37" in (tmp_path / "g.mrx.txt").read_text()
        assert stat.S_IMODE((tmp_path / "g.mrx.txt").stat().st_mode) == 0o600  # (his stations, the secret seed)

        served = Served(tmp_path, "g.txt", "--port", "0")  # resumed: the same link for Mr. X
        assert served.mrx.rsplit("/", 1)[1] == token
        second = subprocess.run([SY_TOOLS, "serve", "g.txt", "--port", "0"], cwd=tmp_path, capture_output=True,
                                text=True, timeout=60)
        assert second.returncode == 2 and "the game is open in another session: sy-tools serve (process" in second.stderr
        played = subprocess.run([SY_TOOLS, "play", "g.txt"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert played.returncode == 2 and "another session: sy-tools serve (process" in played.stderr
        served.stop()
    finally:
        served.kill()


def test_play_resumes_a_game_serve_started_and_back(tmp_path):
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13", "--mrx-start", "50", "--port", "0")
    try:
        token = served.mrx.rsplit("/", 1)[1]
        post(served.table + f"api/x/{token}/move", {"hops": [{"ticket": "taxi", "to": 37}]})
        served.stop()
        r = subprocess.run([SY_TOOLS, "play", "g.txt"], cwd=tmp_path, input="Red T 23\nquit\n", capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0 and "Red: taxi to 23" in r.stdout
        served = Served(tmp_path, "g.txt", "--port", "0")
        state = get(served.table + "api/state")
        assert state["to_move"] == "Mr. X" and state["history"][0]["detectives"][0]["to"] == 23
        served.stop()
    finally:
        served.kill()


def test_bad_options_are_one_line(tmp_path):
    for args, said in ((["g.txt", "--detectives", "Red=13"], "set up a new game: give --new"),
                       (["g.txt", "--port", "70000"], "--port"),
                       (["-", "--new"], "name a file"),
                       (["g.txt", "--new", "--pace", "2"], "--computer both")):
        r = subprocess.run([SY_TOOLS, "serve", *args], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and said in r.stderr and len(r.stderr.splitlines()) == 1, (args, r.stderr)
    assert not os.path.exists(tmp_path / "g.txt")


def test_mrx_token_is_never_one_of_the_games_own_files(tmp_path):
    """His token lives beside his log (``LOG.token``): a record of that name would be written over."""
    r = subprocess.run([SY_TOOLS, "serve", "g.mrx.txt.token", "--new", "--mrx-log", "g.mrx.txt", "--port", "0"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "is the record: Mr. X's token must be another file" in r.stderr
    assert os.listdir(tmp_path) == []
    from web_helpers import london

    from sy_tools.play import new_game

    board, classic = london()  # (a game play started so, then served)
    session, _ = new_game(str(tmp_path / "g.mrx.txt.token"), board, "london", classic, detectives=[("Red", 13)],
                          log=str(tmp_path / "g.mrx.txt"), mrx_start=50)
    session.lock.release()
    before = (tmp_path / "g.mrx.txt.token").read_bytes()
    r = subprocess.run([SY_TOOLS, "serve", "g.mrx.txt.token", "--port", "0"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "Mr. X's token must be another file" in r.stderr and len(r.stderr.splitlines()) == 1
    assert (tmp_path / "g.mrx.txt.token").read_bytes() == before and not (tmp_path / "g.mrx.txt.token.lock").exists()


def test_another_host_is_answered_by_its_own_name():
    bound = bind("127.0.0.2", 0)
    try:
        assert bound.urls == [f"http://127.0.0.2:{bound.port}"] and "127.0.0.2" in bound.hosts
    finally:
        bound.sock.close()


def test_mrx_link_as_a_qr_code():
    drawn = qr_text("http://127.0.0.1:8000/x/" + "A" * 32).splitlines()
    assert len(drawn) > 10 and len({len(line) for line in drawn if line}) == 1
    assert any("█" in line or "▀" in line or "▄" in line for line in drawn)


def test_the_pages_console_example_is_what_serve_prints(tmp_path):
    """docs/serve.md's ``console`` block: the command run (on a free port), then Ctrl-C; the
    port and the token are the run's own."""
    import re
    import shlex

    from browser import REPO

    page = (REPO / "docs" / "serve.md").read_text()
    block = re.search(r"^```console\n(.*?)^```", page, re.S | re.M).group(1).splitlines()
    command = shlex.split(block[0].removeprefix("$ sy-tools serve "))
    command[command.index("--port") + 1] = "0"
    served = Served(tmp_path, *command)
    try:
        out = served.lines + served.stop().splitlines()
    finally:
        served.kill()
    want = [ln for ln in block[1:] if ln != "^C"]
    port, token = served.port, served.mrx.rsplit("/", 1)[1]
    assert out == [ln.replace(":8000/", f":{port}/").replace(want[1].rsplit("/", 1)[1], token) for ln in want]


def test_replay_writes_one_file_that_needs_nothing_else(tmp_path):
    from browser import REPO

    out = tmp_path / "game.html"
    r = subprocess.run([SY_TOOLS, "replay", str(REPO / "examples" / "capture.json"), "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout == f"written: {out} (74 turns, with Mr. X's true route)\n"
    html = out.read_text()
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "") and " src=" not in html
    assert "<script>" in html and "import " not in html.split("<script>", 1)[1]
    game = tmp_path / "g.txt"
    game.write_text((REPO / "examples" / "table.txt").read_text())
    r = subprocess.run([SY_TOOLS, "replay", str(game), "-o", str(game)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "the replay must be another file" in r.stderr
    assert game.read_text() == (REPO / "examples" / "table.txt").read_text()


def test_replay_of_a_served_game_shows_his_route_from_his_log(tmp_path):
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13", "--mrx-start", "50", "--port", "0")
    try:
        post(served.table + f"api/x/{served.mrx.rsplit('/', 1)[1]}/move", {"hops": [{"ticket": "taxi", "to": 37}]})
        served.stop()
    finally:
        served.kill()
    r = subprocess.run([SY_TOOLS, "replay", "g.txt", "-o", "g.html"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)
    assert r.stdout == "written: g.html (1 turn, with Mr. X's true route)\n", r.stderr
    assert '"at":37' in (tmp_path / "g.html").read_text()


def test_the_computers_mr_x_has_no_link_to_print(tmp_path):
    """With the computer as Mr. X nobody at the table is him: no private link, no QR code, one
    line saying his secrets stay hidden; his endpoints refuse under the token kept on disk."""
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13", "--computer", "mrx", "--level", "easy",
                    "--port", "0", "--qr")
    try:
        assert served.mrx is None and "/x/" not in "\n".join(served.lines)
        assert served.lines == [f"table: {served.table}",
                                "the computer plays Mr. X: his station and route stay hidden until the game ends "
                                "(no private link)",
                                "Ctrl-C stops the server (the game is saved after every move)"]
        token = (tmp_path / "g.mrx.txt.token").read_text().strip()
        for url in (f"x/{token}", f"api/x/{token}/state"):
            try:
                get(served.table + url)
                raise AssertionError(f"{url} answered")
            except urllib.error.HTTPError as e:
                assert e.code == 403 and json.loads(e.read())["error"] == "private"
        served.stop()
    finally:
        served.kill()


def test_ctrl_c_with_pages_open_is_quiet(tmp_path):
    """Two pages listening (the table's and Mr. X's event streams): Ctrl-C ends their streams and
    stops with the game saved, exit 0, nothing on standard error."""
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13", "--mrx-start", "50", "--port", "0")
    try:
        streams = [urllib.request.urlopen(served.table + path, timeout=30)
                   for path in ("api/events", f"api/x/{served.mrx.rsplit('/', 1)[1]}/events")]
        for s in streams:
            assert s.readline().startswith(b"retry:")  # (connected, and told the state)
        served.proc.send_signal(signal.SIGINT)
        out, err = served.proc.communicate(timeout=60)
        assert served.proc.returncode == 0 and err == "", err
        assert out.strip().splitlines()[-1] == "stopped; saved after move 0; resume with: sy-tools serve g.txt"
        for s in streams:
            s.read()  # (each stream was ended by the server)
            s.close()
    finally:
        served.kill()
