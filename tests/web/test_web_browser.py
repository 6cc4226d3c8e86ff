"""The table and Mr. X's page in a real browser (Playwright driving Debian's Chromium): a whole
scripted game played by clicking, with the table and Mr. X's phone in two browser contexts:
moves, the ticket asked when two fit, a double move, the reveal banner, undo, a page reload and
a server restart mid-game, a capture; the computer on one side.  The screenshots for docs/ are
taken here (``SY_TOOLS_SCREENSHOTS=docs``)."""

from __future__ import annotations

import re

import pytest
from browser import Served, chromium, shot_path

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def page_of(browser, url, viewport, errors):
    context = browser.new_context(viewport=viewport, device_scale_factor=1,
                                  has_touch=viewport is PHONE, is_mobile=viewport is PHONE)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    expect(page.locator("#link")).to_have_text("live")
    return page


def station(page, s):
    return page.locator(f'svg.board g.station[data-station="{s}"]')


def move_detective(page, name, to, ticket=None):
    """Tap the piece, then the highlighted station (and the ticket when asked)."""
    expect(page.locator("#status")).to_contain_text(f"{name} to move")
    page.locator(f'svg.board g.piece[data-piece="{name}"]').click()
    expect(station(page, to)).to_have_class(re.compile("pickable"))
    station(page, to).click()
    if ticket is not None:
        page.locator(f'#chooser button[data-ticket="{ticket}"]').click()


def move_mrx(page, *legs):
    """Mr. X's move on his page: each leg a (station, ticket or None when only one fits)."""
    expect(page.locator("#turn")).to_contain_text("Your move")
    if len(legs) == 2:
        page.locator("#double").click()
    for to, ticket in legs:
        expect(station(page, to)).to_have_class(re.compile("pickable"))
        station(page, to).click()
        if ticket is not None:
            page.locator(f'#chooser button[data-ticket="{ticket}"]').click()


def test_a_whole_game_by_clicking(browser, tmp_path):
    errors: list[str] = []
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13,Blue=26", "--mrx-start", "50", "--think", "1",
                    "--port", "0")
    try:
        table = page_of(browser, served.table, LAPTOP, errors)
        phone = page_of(browser, served.table, PHONE, errors)
        mrx = page_of(browser, served.mrx, PHONE, errors)
        expect(mrx.locator("#at")).to_have_text("50")
        expect(table.locator("#turn")).to_contain_text("Mr. X is moving")

        move_mrx(mrx, (37, "taxi"))  # taxi or black fit: asked
        expect(table.locator("#status")).to_contain_text("Red to move")
        expect(mrx.locator("#at")).to_have_text("37")
        expect(table.locator("#turn")).to_have_text("Red to move: tap the piece, then where it goes.Move Red")
        move_detective(table, "Red", 23, "bus")
        move_detective(phone, "Blue", 27)  # (another screen of the table moves Blue)
        expect(table.locator("#history")).to_contain_text("B 23")

        move_mrx(mrx, (36, "taxi"), (35, "taxi"))  # a double move; his third move is a reveal
        expect(table.locator("#banner")).to_have_text("Mr. X shows himself at 35!")
        expect(phone.locator("#banner")).to_have_text("Mr. X shows himself at 35!")
        table.locator("#advise").click()
        expect(table.locator("#answer")).to_contain_text("Red")
        table.screenshot(path=str(shot_path(tmp_path, "serve-table.png")))
        move_detective(table, "Red", 22, "taxi")
        move_detective(table, "Blue", 40)
        expect(table.locator("#status")).to_contain_text("Mr. X to move")  # (the move shown before its undo)
        table.locator("#undo").click()
        expect(table.locator("#status")).to_contain_text("Blue to move")
        phone.locator('svg.board g.piece[data-piece="Blue"]').click()
        expect(station(phone, 28)).to_have_class(re.compile("pickable"))
        phone.screenshot(path=str(shot_path(tmp_path, "serve-table-phone.png")))
        station(phone, 28).click()

        table.reload()  # a page reloaded mid-game: the game as it stands
        expect(table.locator("#status")).to_contain_text("Mr. X to move")
        expect(table.locator("#history")).to_contain_text("T 28")

        served.stop()  # the server restarted mid-game: the pages come back by themselves
        expect(table.locator("#link")).to_have_text("reconnecting…")
        served = Served(tmp_path, "g.txt", "--port", str(served.port))
        expect(table.locator("#link")).to_have_text("live")
        expect(mrx.locator("#link")).to_have_text("live")
        expect(mrx.locator("#turn")).to_contain_text("Your move")
        mrx.screenshot(path=str(shot_path(tmp_path, "serve-mrx.png")))

        move_mrx(mrx, (65, "black"))
        expect(table.locator("#history")).to_contain_text("K")
        move_detective(table, "Red", 65)  # onto his station: caught
        expect(table.locator("#status")).to_contain_text("Red caught Mr. X at 65")
        expect(mrx.locator("#turn")).to_contain_text("caught")
        assert "Red 13: B 23, T 22, B 65" in (tmp_path / "g.txt").read_text()
        assert "X 50: T 37, 2X T 36/T 35, K 65" in (tmp_path / "g.mrx.txt").read_text()
        assert errors == []
    finally:
        served.kill()


def test_the_computer_plays_the_detectives(browser, tmp_path):
    errors: list[str] = []
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13,Blue=26", "--mrx-start", "50", "--computer",
                    "detectives", "--level", "easy", "--think", "1", "--port", "0")
    try:
        table = page_of(browser, served.table, LAPTOP, errors)
        mrx = page_of(browser, served.mrx, PHONE, errors)
        move_mrx(mrx, (38, "taxi"))
        expect(table.locator("#status")).to_contain_text("Round 2 · Mr. X to move")
        expect(mrx.locator("#turn")).to_contain_text("Your move")
        assert len(table.locator("#history tbody tr").all()) == 1
        assert errors == []
    finally:
        served.kill()


def _apart(a, b) -> bool:
    """Whether two boxes (Playwright's bounding boxes) do not overlap."""
    return (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"]
            or b["y"] + b["height"] <= a["y"])


#: The pieces whose middle is on the board but another element (not the board) takes a tap there.
COVERED = """() => {
  const board = document.querySelector("svg.board").getBoundingClientRect();
  return [...document.querySelectorAll("svg.board g.piece")].filter((g) => {
    const r = g.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
    if (x < board.left || x > board.right || y < board.top || y > board.bottom) return false;
    const hit = document.elementFromPoint(x, y);
    return !hit || !hit.closest("svg.board");
  }).map((g) => g.getAttribute("data-piece"));
}"""


#: A station whose middle the board shows.
IN_VIEW = """() => {
  const board = document.querySelector("svg.board").getBoundingClientRect();
  const inside = [...document.querySelectorAll("svg.board g.station")].find((g) => {
    const r = g.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
    return x > board.left + 20 && x < board.right - 20 && y > board.top + 20 && y < board.bottom - 20;
  });
  return Number(inside.getAttribute("data-station"));
}"""


def test_the_zoom_buttons_and_the_messages_leave_the_board_free(browser, tmp_path):
    errors: list[str] = []
    served = Served(tmp_path, "g.txt", "--new", "--detective-count", "5", "--seed", "3", "--port", "0")
    try:
        for viewport in (PHONE, LAPTOP):
            page = page_of(browser, served.table, viewport, errors)
            board = page.locator("svg.board").bounding_box()
            assert _apart(page.locator(".zoom").bounding_box(), board)
            station(page, page.evaluate(IN_VIEW)).click()  # (Mr. X is to move: a message says so)
            expect(page.locator("#toast")).to_contain_text("Mr. X is to move")
            assert _apart(page.locator("#toast").bounding_box(), board)
            for _ in range(4):  # closer in, every piece the board shows can still be tapped
                page.locator(".zoom button").first.click()
                assert page.evaluate(COVERED) == []
            page.context.close()
        assert errors == []
    finally:
        served.kill()


def test_solve_draws_a_forced_win_on_the_board(browser, tmp_path):
    from web_helpers import FORCED_ARROWS, forced_win

    forced_win(tmp_path).lock.release()  # (a game where the detectives can force a capture, resumed)
    errors: list[str] = []
    served = Served(tmp_path, "g.txt", "--port", "0")
    try:
        table = page_of(browser, served.table, LAPTOP, errors)
        expect(table.locator("#status")).to_contain_text("Red to move")
        table.locator("#solve").click()
        expect(table.locator("#answer")).to_contain_text("forced win in 2 turns (proved): Red taxi to 127, Blue taxi "
                                                         "to 118, Green bus to 142")
        expect(table.locator("svg.board line.arrow")).to_have_count(len(FORCED_ARROWS))
        table.screenshot(path=str(shot_path(tmp_path, "serve-solve.png")))
        assert errors == []
    finally:
        served.kill()


def test_the_replay_file_opens_from_disk_and_steps(browser, tmp_path):
    import subprocess

    from browser import REPO, SY_TOOLS

    out = tmp_path / "capture.html"
    r = subprocess.run([SY_TOOLS, "replay", str(REPO / "examples" / "capture.json"), "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    errors: list[str] = []
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url))
    page.goto(out.as_uri())
    expect(page.locator("#status")).to_contain_text("caught Mr. X at 155")
    page.locator("#first").click()
    expect(page.locator("#said")).to_have_text("The start.")
    page.locator("#next").click()
    expect(page.locator("#said")).to_contain_text("1. Mr. X:")
    expect(page.locator("#truth")).to_contain_text("Mr. X was really at")
    page.locator("#slider").fill("12")
    expect(page.locator("#said")).to_contain_text("12. ")
    page.locator("#play").click()
    expect(page.locator("#said")).to_contain_text("13. ")
    page.locator("#play").click()
    page.locator("#slider").fill("30")
    page.screenshot(path=str(shot_path(tmp_path, "replay.png")))
    assert [u for u in asked if not u.startswith("file:")] == [] and errors == []
    context.close()


#: Whether the stations given lie whole inside the board and the window (the phone's screen).
ALL_IN_VIEW = """(stations) => {
  const board = document.querySelector("svg.board").getBoundingClientRect();
  return stations.filter((s) => {
    const r = document.querySelector(`svg.board g.station[data-station="${s}"]`).getBoundingClientRect();
    return r.left < Math.max(board.left, 0) || r.top < Math.max(board.top, 0)
      || r.right > Math.min(board.right, window.innerWidth) || r.bottom > Math.min(board.bottom, window.innerHeight);
  });
}"""


def test_on_a_phone_the_piece_to_move_and_its_stations_stay_in_view(browser, tmp_path):
    """Moves made elsewhere take the pieces across the board: at each detective's turn the phone
    shows the piece to move and every station it can reach (the zoom kept, or out just enough)."""
    import json
    import urllib.request

    def call(path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(served.table + path, data, {"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    errors: list[str] = []
    served = Served(tmp_path, "g.txt", "--new", "--detectives", "Red=13,Blue=26", "--mrx-start", "50",
                    "--port", "0")
    try:
        phone = page_of(browser, served.table, PHONE, errors)
        at = {s: (x, y) for s, x, y in call("api/board")["stations"]}
        token = served.mrx.rsplit("/", 1)[1]
        for _ in range(8):
            state = call("api/state")
            if state["to_move"] == "Mr. X":
                single = call(f"api/x/{token}/state")["mrx_moves"]["single"][0]
                call(f"api/x/{token}/move", {"hops": [{"ticket": single["tickets"][0], "to": single["to"]}],
                                             "tag": state["tag"]})
                continue
            d = next(d for d in state["detectives"] if d["name"] == state["to_move"])
            expect(phone.locator("#status")).to_contain_text(f"{d['name']} to move")
            around = [d["at"], *(m["to"] for m in state["moves"])]
            assert phone.evaluate(ALL_IN_VIEW, around) == [], (d, around)
            far = max(state["moves"], key=lambda m: sum((a - b) ** 2 for a, b in zip(at[m["to"]], at[d["at"]])))
            call("api/move", {"piece": d["name"], "to": far["to"], "ticket": far["tickets"][0], "tag": state["tag"]})
        assert errors == []
    finally:
        served.kill()


#: The station numbers (other than a piece's own) that a piece's name tag covers.
TAGS_COVER = """() => {
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const numbers = [...document.querySelectorAll("svg.board g.station")].map((g) =>
    [g.getAttribute("data-station"), g.querySelector(".station-number").getBoundingClientRect()]);
  return [...document.querySelectorAll("svg.board g.piece")].flatMap((p) => {
    const tag = p.querySelector(".piece-tag").getBoundingClientRect();
    return numbers.filter(([s, r]) => s !== p.getAttribute("data-station") && hit(tag, r))
      .map(([s]) => `${p.getAttribute("data-piece")} covers ${s}`);
  });
}"""


def test_name_tags_leave_the_numbers_readable_and_a_game_over_has_nothing_to_analyse(browser, tmp_path):
    from web_helpers import start

    # (a tag above 26, 103, 138 or 141 would cover 15, 85, 124 or 133)
    session = start(tmp_path, detectives=[("Red", 13), ("Blue", 26), ("Green", 103), ("Yellow", 138), ("Black", 141)],
                    mrx_start=34)
    session.enter("Mr. X", "B 46")
    errors: list[str] = []
    session.lock.release()
    served = Served(tmp_path, "g.txt", "--port", "0")
    try:
        table = page_of(browser, served.table, LAPTOP, errors)
        expect(table.locator("#status")).to_contain_text("Red to move")
        for _ in range(3):  # (close enough for the tags to be read)
            table.locator(".zoom button").first.click()
        assert table.evaluate(TAGS_COVER) == []
        expect(table.locator("#advise")).to_be_enabled()
        table.locator(".zoom button").nth(2).click()  # (the whole board again)
        move_detective(table, "Red", 46)  # onto Mr. X: the game is over
        expect(table.locator("#status")).to_contain_text("caught Mr. X at 46")
        for kind in ("advise", "cordon", "solve"):
            expect(table.locator(f"#{kind}")).to_be_disabled()
        assert table.evaluate(TAGS_COVER) == [] and errors == []
    finally:
        served.kill()
