"""The club page in Chromium: every table of the event with its live score,
from the one club stream, and the archive's finished games in the standings."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import expect

from e2e_server import referee_session, start_server
from referee.demo import play_demo_game
from referee.game import Game
from referee.store import import_record


def test_club_page_follows_every_table_and_ranks_the_pairs(browser, tmp_path):
    finished = play_demo_game(seed=3, rules="ffb-contree")
    (tmp_path / "var" / "games").mkdir(parents=True)
    import_record(finished, tmp_path / "var" / "games" / "t9-1.sqlite").close()
    game = Game.from_events(finished)
    winners = " & ".join(finished[0]["seats"][s] for s in ("NS", "EW")[game.winner])
    server = start_server(["serve", "--tables", "2", "--seats", "Ana,Bo,Cy,Di"], tmp_path / "var")
    try:
        page = browser.new_page()
        page.goto(f"{server.base}/club?lang=en")
        cards = page.locator(".club-table")
        expect(cards).to_have_count(2)
        expect(cards.first).to_contain_text("N Ana · E Bo · S Cy · W Di")
        expect(page.locator("#standings tbody tr").first).to_contain_text(winners)
        # A call at table 1 shows on the club page, live.
        opener, csrf = referee_session(server)
        for body in ({"action": "start", "seat": "N"}, {"action": "call", "seat": "W", "call": "pass"},
                     {"action": "call", "seat": "S", "call": "100h"}):
            opener.open(urllib.request.Request(f"{server.base}/api/tables/t1/console", data=json.dumps(body).encode(),
                                               headers={"Content-Type": "application/json", "X-CSRF-Token": csrf}))
        expect(cards.first).to_contain_text("Auction")
        expect(cards.nth(1)).to_contain_text("Waiting")
        assert re.search(r"N–S\s*0", cards.first.inner_text())
        page.close()
    finally:
        server.stop()
