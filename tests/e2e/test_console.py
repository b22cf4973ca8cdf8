"""The referee's console and the overlay in headless Chromium, against the
real gevent server (``belote-table serve``: a table without sensors, the
console alone keeps the game)."""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from e2e_server import SSE, command, referee_session, request, signed_in_console, start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = start_server(["serve", "--seats", "Ana,Bo,Cy,Di", "--broadcast-delay", "2"],
                          tmp_path_factory.mktemp("console"))
    yield server
    server.stop()


def test_auction_violation_on_console_and_overlay_then_corrections(browser, server):
    context, page, errors = signed_in_console(browser, server)
    overlay_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    overlay = overlay_context.new_page()

    # A venue token made from the console opens the overlay's venue feed.
    page.click("summary:has-text('Overlay tokens')")
    page.click("#new-venue")
    url = page.locator("#new-token-url a").get_attribute("href")
    overlay.goto(url + "&layout=full")
    expect(overlay.locator("#total-NS")).to_have_text("0")

    # The auction, typed: the dealer first, then each call; a wrong one is explained.
    command(page, "start N")
    command(page, "W pass")
    page.fill("#cmd", "S hello")
    page.press("#cmd", "Enter")
    expect(page.locator("#cmd-error")).to_contain_text("is not a call")
    command(page, "S 80h")
    expect(page.locator("#auction li")).to_have_count(2)

    # N's call typed while it is E's turn: the console asks whether N spoke out of turn (it could be
    # the calls typed in the wrong order); confirmed, the console lists it, the overlay shows a banner.
    command(page, "N pass")
    question = page.locator("#conflicts li.conflict")
    expect(question).to_contain_text("N pass was entered, but it is E's turn to speak. Did N speak out of turn?")
    expect(page.locator("#violations li.violation")).to_have_count(0)
    question.locator("button", has_text="Confirm").click()
    violation = page.locator("#violations li.violation")
    expect(violation).to_have_count(1)
    expect(violation).to_contain_text("out of turn")
    expect(violation).to_contain_text("N called pass")
    expect(violation.locator(".vhand")).to_have_text("Hand 1 · ")      # each violation names its hand
    banner = overlay.locator(".banner")
    expect(banner).to_contain_text("out of turn")
    assert "called pass" not in banner.inner_text()          # the venue gets no explanation text

    for call in ("E pass", "N pass", "W pass"):
        command(page, call)
    expect(page.locator("#contract")).to_have_text("South · 80 ♥")
    expect(overlay.locator("#contract")).to_have_text("South · 80 ♥")

    # Trick 1 entered card by card, then picked up: S wins 11 points.
    for play in ("W 7s", "S As", "E 8s", "N 9s"):
        command(page, play)
    # The last card settles (the referee waits 1 s); it then stays on the table, decided, until the
    # pickup, and nobody is to play.
    expect(page.locator("#trick [data-card='9s']:not(.pending)")).to_be_visible(timeout=8000)
    expect(page.locator(".seat.to-play")).to_have_count(0)
    command(page, "pickup")
    expect(page.locator("#points")).to_contain_text("N–S 11 · E–W 0", timeout=8000)
    expect(page.locator("#conflicts li.conflict")).to_have_count(0)      # what the referee typed is not questioned
    expect(overlay.locator("#counter")).to_have_text("Tricks 1–0 · Points 11–0")

    # A card typed that was already played is refused with who played it and where, not taken silently.
    page.fill("#cmd", "S 8s")
    page.press("#cmd", "Enter")
    expect(page.locator("#cmd-error")).to_contain_text("♠8 was already played in this hand: E played it in trick 1")

    # S had really played the king of hearts, not the ace of spades: fix event #? -> Kh.
    page.click("summary:has-text('Events')")
    ace = page.locator("#log li", has_text="S As")
    ref = int(ace.get_attribute("value"))
    command(page, f"fix {ref} Kh")
    expect(page.locator("#points")).to_contain_text("N–S 4 · E–W 0")
    expect(overlay.locator("#counter")).to_have_text("Tricks 1–0 · Points 4–0")
    expect(page.locator("#trick [data-card='Kh']")).to_be_visible()

    # A penalty is recorded (it scores when the hand ends); undo, from the keyboard, takes it back.
    command(page, "penalty W must-trump")
    expect(page.locator("#log li").first).to_contain_text("penalty W")
    page.keyboard.press("Escape")
    page.keyboard.press("u")
    expect(page.locator("#log li").first).to_contain_text("correction of")
    expect(page.locator("#cmd-said")).to_contain_text("undone: #")              # says what it took back
    expect(page.locator("#cmd-said")).to_contain_text("W's penalty")
    # Any event by its number: "undo event N".
    command(page, "penalty E must-follow")
    penalty = int(page.locator("#log li", has_text="penalty E").first.get_attribute("value"))
    command(page, f"undo event {penalty}")
    expect(page.locator("#cmd-said")).to_have_text(f"undone: #{penalty} E's penalty")
    expect(page.locator("#points")).to_contain_text("N–S 4 · E–W 0")
    assert errors == []
    context.close()
    overlay_context.close()


def test_french_console_uses_french_words_and_indices(browser, server):
    context, page, errors = signed_in_console(browser, server, lang="fr")
    expect(page.locator("h1")).to_have_text("Console de l'arbitre")
    expect(page.locator("#bid-pad button[data-bid='capot']")).to_have_text("Capot")
    expect(page.locator("#seat-pad button[data-seat='W']")).to_have_text("O")     # O for Ouest (issue 12)
    expect(page.locator("#trick [data-card='Kh']")).to_have_text("R♥")
    assert errors == []
    context.close()


def test_french_pages_word_a_violation_from_its_rule_and_params(browser):
    # The referee's own violations (as the feeds carry them) through the pages' feed.js, in French.
    from pathlib import Path

    from referee.auction import Auction
    from referee.cards import parse_card, parse_mask
    from referee.play import HandPlay
    from referee.rules import profile
    from referee.seats import EAST, NORTH, SOUTH, WEST
    from referee.trump_tables import parse_trump
    from web_dashboard.i18n import STRINGS

    hands = ("As Ks 9h 8h 7d 8d 9d Td", "Ts 7h 7c 8c 9c Tc Jc Qc",
             "Qs Js Jh Qh Kh Ah Jd Qd", "7s 8s 9s Th Kd Ad Kc Ac")

    def first_violation(leader, plays):
        hand = HandPlay(parse_trump("h"), leader, profile("ffb-contree"), [parse_mask(h) for h in hands])
        return next(v for v in (hand.play(parse_card(c)) for c in plays.split()) if v).as_dict()

    follow, trump = first_violation(NORTH, "As Kd"), first_violation(EAST, "7c 7d")
    context = browser.new_context()
    feed_js = (Path(__file__).parents[2] / "web_dashboard" / "static" / "feed.js").read_text()

    def words(lang, v):
        page = context.new_page()                   # a fresh window: feed.js declares its globals once
        page.add_script_tag(content=f"window.I18N = {json.dumps(STRINGS[lang])}; window.LANG = {json.dumps(lang)};")
        page.add_script_tag(content=feed_js)
        return page.evaluate("v => violationText(v)", v)

    auction = Auction(profile("ffb-contree"), NORTH)
    auction.apply(WEST, "90h")                                       # W speaks first, then S
    low, early = auction.apply(SOUTH, "80s")[0].as_dict(), auction.apply(EAST, "pass")[0].as_dict()
    assert words("fr", follow) == "O avait 7♠ mais n'a pas fourni : pique demandé"
    assert words("fr", low) == "S a annoncé 80 ♠ : ce n'est pas plus que la dernière enchère, 90 ♥"
    assert words("fr", early) == "E a annoncé Passe hors de son tour : c'est à S de parler"
    assert words("fr", trump) == "N avait 8♥ mais n'a pas coupé : son partenaire n'était pas maître"
    played_early = {"rule": "out-of-turn", "seat": "E", "card": "Jh", "trick": 2, "params": {"turn": "S"}}
    assert words("fr", played_early) == ("E a joué V♥ hors de son tour : c'est à S de jouer (la carte revient "
                                         "dans la main)")
    # Issue 12: the French pages write O for Ouest, also in the seat whose turn it was.
    assert words("fr", {**played_early, "params": {"turn": "W"}}).endswith("c'est à O de jouer (la carte revient "
                                                                           "dans la main)")
    classic = Auction(profile("classic"), NORTH, turned=parse_card("7h"))
    for seat in (WEST, SOUTH, EAST, NORTH):
        classic.apply(seat, "pass")
    turned_again = classic.apply(WEST, "takeh")[0].as_dict()         # one rule, several reasons
    assert words("fr", turned_again) == ("O a annoncé Prend ♥ : au second tour, nommez une autre couleur que la "
                                         "retournée, cœur")
    nothing = Auction(profile("ffb-contree"), NORTH).apply(WEST, "counter")[0].as_dict()
    assert words("fr", nothing) == "O a annoncé Contre : il n'y a pas encore d'enchère à contrer"
    misdeal = {"rule": "misdeal", "seat": "N", "message": "misdeal by N: ...", "params": {"reason": "redeal"}}
    assert words("fr", misdeal) == "maldonne de N : l'arbitre a demandé une nouvelle donne ; le même donneur redonne"
    belote = {"rule": "belote-not-held", "seat": "E", "card": "Qs", "params": {"reason": "pair", "say": "belote"}}
    assert words("fr", belote) == "E a dit belote avec D♠ : la belote, c'est le roi et la dame d'atout"
    assert words("en", follow) == follow["message"]                     # English: the referee's sentence
    venue = {k: follow[k] for k in ("rule", "seat", "card", "trick")}  # the venue has no params
    assert words("fr", venue) == ""
    assert words("fr", {**follow, "rule": "bid-too-low"}) == follow["message"]   # no template: English
    context.close()


def test_refusals_over_http(server):
    # No session: refused, and nothing changed.
    status, body = request(f"{server.base}/api/tables/t1/console", {"action": "undo"})
    assert status == 401 and "sign in" in body["error"]
    # A session with a wrong CSRF token: refused.
    opener, _ = referee_session(server)
    req = urllib.request.Request(f"{server.base}/api/tables/t1/console", data=b'{"action":"undo"}',
                                 headers={"Content-Type": "application/json", "X-CSRF-Token": "not-it"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(req)
    assert refused.value.code == 403
    # An overlay token reads its feed but cannot post, with or without the token in the URL.
    token = re.search(r"token=([\w-]+)", server.links["t1"]["overlay"]).group(1)
    stream = SSE(f"{server.base}/stream/t1?feed=broadcast&token={token}")
    stream.wait_for(lambda state: state.get("feed") == "broadcast")
    stream.close()
    status, _ = request(f"{server.base}/api/tables/t1/console?token={token}", {"action": "undo"})
    assert status == 401
    status, _ = request(f"{server.base}/api/tables/t1/tokens?token={token}", {"feed": "venue"})
    assert status == 401
    status, _ = request(f"{server.base}/stream/t1?feed=referee&token={token}")
    assert status == 401


def test_a_stream_resumes_after_a_reconnect_with_only_what_it_missed(server):
    opener, csrf = referee_session(server)

    def post(path, body):
        req = urllib.request.Request(f"{server.base}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
        return json.loads(opener.open(req).read())

    status, _ = request(f"{server.base}/stream/t1?feed=venue")
    assert status == 403                                    # not public: the venue feed needs its token
    url = f"{server.base}/stream/t1?feed=venue&token={post('/api/tables/t1/tokens', {'feed': 'venue'})['token']}"
    stream = SSE(url)
    stream.wait_for(lambda s: "hand" in s)
    last_id = stream.messages[-1][1]
    stream.close()
    # While the screen is away, S leads trick 2 (the card settles, then it is public).
    before = len(post("/api/tables/t1/cards", {"seat": "S", "card": "7h"})["outputs"])
    time.sleep(2.5)
    resumed = SSE(url, headers={"Last-Event-ID": last_id})
    state = resumed.wait_for(lambda s: any(p["card"] == "7h" for p in (s.get("trick") or {}).get("cards", [])))
    events = [event for _, _, event, _ in resumed.messages]
    assert before == 0 and "snapshot" not in events
    assert "hand" not in state and "score" not in state      # only what changed, not the whole view again
    epoch, _, n = last_id.rpartition("-")
    assert all(i.startswith(epoch + "-") and int(i.rpartition("-")[2]) > int(n) for _, i, _, _ in resumed.messages)
    stale = SSE(url, headers={"Last-Event-ID": "0000-1"})      # another server's id: a fresh snapshot
    stale.wait_for(lambda s: "hand" in s)
    assert stale.messages[0][2] == "snapshot"
    resumed.close()
    stale.close()
