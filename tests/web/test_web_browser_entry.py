"""In a real browser (as test_web_browser.py): Mr. X's voluntary reveal on his page, and a game
without his log, where the table enters his public move and a detective's capture claim."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from browser import Served
from test_web_browser import LAPTOP, PHONE, browser, move_detective, page_of, station  # noqa: F401
from web_helpers import STARTS

from sy_tools.engine.rules import preset
from sy_tools.formats.map_load import load_board
from sy_tools.play import new_game

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect


def _game(folder, log: bool, **rules):
    """A game in ``folder`` (its record given back for ``serve`` to resume)."""
    session, _ = new_game(str(folder / "g.txt"), load_board("london"), "london",
                          dataclasses.replace(preset("classic"), **rules), detectives=STARTS, seed=1, think=1,
                          log=str(folder / "g.mrx.txt") if log else None, mrx_start=50 if log else None)
    session.lock.release()


@contextmanager
def serving(folder, log: bool, **rules) -> Iterator[tuple[Served, list[str]]]:
    """``sy-tools serve`` resuming a new game in ``folder``, and the pages' errors (none at the end)."""
    _game(folder, log, **rules)
    served = Served(folder, "g.txt", "--port", "0")
    errors: list[str] = []
    try:
        yield served, errors
        assert errors == []
    finally:
        served.stop()


def test_mrx_shows_himself_and_takes_a_ticket(browser, tmp_path):  # noqa: F811
    with serving(tmp_path, log=True, voluntary_reveal=True) as (served, errors):
        table = page_of(browser, served.table, LAPTOP, errors)
        mrx = page_of(browser, served.mrx, PHONE, errors)
        expect(mrx.locator("#show")).to_be_visible()
        mrx.locator("#show").click()
        expect(station(mrx, 37)).to_have_class(re.compile("pickable"))
        station(mrx, 37).click()
        mrx.locator('#chooser button[data-ticket="taxi"]').click()  # (taxi or black to 37)
        mrx.locator('#chooser button[data-from="Red"][data-ticket="bus"]').click()
        expect(table.locator("#banner")).to_have_text("Mr. X shows himself at 37!")
        expect(table.locator("#history")).to_contain_text("T 37 show Red B")
        expect(mrx.locator("#route")).to_contain_text("(shown)")
        expect(mrx.locator("#show")).to_be_hidden()


def test_the_table_enters_his_moves_and_a_capture_without_his_log(browser, tmp_path):  # noqa: F811
    with serving(tmp_path, log=False) as (served, errors):
        table = page_of(browser, served.table, LAPTOP, errors)
        phone = page_of(browser, served.table, PHONE, errors)
        for red, blue in ((4, 27), (3, 28)):
            expect(table.locator("#turn")).to_contain_text("Mr. X's move")
            table.locator('#turn button[data-ticket="taxi"]').click()
            move_detective(table, "Red", red)
            move_detective(phone, "Blue", blue)
        expect(table.locator("#turn")).to_contain_text("a reveal")
        table.locator('#turn button[data-ticket="taxi"]').click()
        station(table, 12).click()
        expect(phone.locator("#banner")).to_have_text("Mr. X shows himself at 12!")
        table.locator("#claim").click()
        move_detective(table, "Red", 12)
        expect(phone.locator("#status")).to_contain_text("caught Mr. X at 12")


def test_the_table_enters_his_voluntary_reveal_without_his_log(browser, tmp_path):  # noqa: F811
    with serving(tmp_path, log=False, voluntary_reveal=True) as (served, errors):
        table = page_of(browser, served.table, LAPTOP, errors)
        table.locator("#mrx-show").click()
        table.locator('#turn button[data-ticket="taxi"]').click()
        station(table, 37).click()
        table.locator('#chooser button[data-from="Blue"][data-ticket="underground"]').click()
        expect(table.locator("#banner")).to_have_text("Mr. X shows himself at 37!")
        expect(table.locator("#history")).to_contain_text("T 37 show Blue U")


def test_the_banner_shows_a_reveal_made_on_the_first_leg_of_a_double_move(browser, tmp_path):  # noqa: F811
    """Move 3 is a reveal; his double move makes it moves 3 and 4: the table still hears where
    he showed himself (the state stands at move 4), and no longer once a detective has moved."""
    session, _ = new_game(str(tmp_path / "g.txt"), load_board("london"), "london", preset("classic"),
                          detectives=STARTS, seed=1, think=1, log=str(tmp_path / "g.mrx.txt"), mrx_start=50)
    for piece, entry in (("Mr. X", "T 37"), ("Red", "T 4"), ("Blue", "T 15"), ("Mr. X", "T 36"), ("Red", "T 3"),
                         ("Blue", "T 16"), ("Mr. X", "2X T 35/T 48")):
        session.enter(piece, entry)
    session.lock.release()
    served = Served(tmp_path, "g.txt", "--port", "0")
    errors: list[str] = []
    try:
        table = page_of(browser, served.table, LAPTOP, errors)
        expect(table.locator("#banner")).to_have_text("Mr. X shows himself at 35!")
        move_detective(table, "Red", 4)
        expect(table.locator("#banner")).to_be_hidden()
        assert errors == []
    finally:
        served.stop()
