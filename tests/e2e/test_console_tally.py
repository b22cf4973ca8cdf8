"""A table without sensors keeps its scoresheet from the console alone: the
referee enters the auction, then, at the end of the hand, the card points and
belote counted at the table (``tally``), in headless Chromium against the real
server (``belote-table serve``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from e2e_server import command, signed_in_console, start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = start_server(["serve", "--seats", "Ana,Bo,Cy,Di"], tmp_path_factory.mktemp("tally"))
    yield server
    server.stop()


def auction(page, dealer: str, calls: list[str]) -> None:
    command(page, f"start {dealer}")
    for call in calls:
        command(page, call)


def test_tally_hands_from_the_keyboard_and_the_form(browser, server):
    context, page, errors = signed_in_console(browser, server, "en")
    form = page.locator("#tally-form")
    expect(form).to_be_hidden()                                   # no contract yet: nothing to tally

    # Hand 1, typed: W takes 100 in spades; the table counts NS 62 with the belote, EW 100.
    auction(page, "E", ["N 80d", "W 100s", "S pass", "E pass", "N pass"])
    expect(form).to_be_visible()
    expect(page.locator("#tally-total")).to_have_text("162")
    page.fill("#cmd", "tally NS 172")                             # more than the hand has: refused, says why
    page.press("#cmd", "Enter")
    expect(page.locator("#cmd-error")).to_contain_text("at most 162 card points")
    page.fill("#cmd", "tally NS 62 belote NS belote NS")          # the engine refuses it, nothing is lost
    page.press("#cmd", "Enter")
    expect(page.locator("#cmd-error")).to_contain_text("NS cannot have 2 belotes")
    expect(page.locator("#score tbody tr")).to_have_count(0)
    command(page, "tally NS 62 belote NS")
    row = page.locator("#score tbody tr").nth(0)
    expect(row.locator("td").nth(2)).to_have_text("80")          # 62 rounded to 60 + belote 20
    expect(row.locator("td").nth(3)).to_have_text("200")         # 100 + the bid
    expect(page.locator("#total-EW")).to_have_text("200")
    expect(form).to_be_hidden()                                   # the hand is over

    # Hand 2, on the form (tablet): N deals, W bids 90 in hearts, EW count 120; the other side is computed.
    auction(page, "N", ["W 90h", "S pass", "E pass", "N pass"])
    expect(form).to_be_visible()
    page.select_option("#tally-team", "EW")
    page.fill("#tally-points", "120")
    expect(page.locator("#tally-other")).to_have_text("42")
    page.click("#tally-send")
    row = page.locator("#score tbody tr").nth(1)
    expect(row.locator("td").nth(3)).to_have_text("210")         # 120 + the bid 90
    expect(row.locator("td").nth(2)).to_have_text("40")
    expect(page.locator("#total-NS")).to_have_text("120")
    expect(page.locator("#total-EW")).to_have_text("410")
    expect(page.locator("#log")).to_contain_text("tally NS 42 EW 120")
    assert errors == []
    context.close()


def test_the_end_of_hand_form_speaks_french(browser, server):
    context, page, errors = signed_in_console(browser, server, "fr")
    expect(page.locator("#tally-form h2")).to_have_text("Fin de la donne")
    expect(page.locator("#tally-send")).to_have_text("Marquer la donne")
    assert errors == []
    context.close()
