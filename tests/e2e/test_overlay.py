"""The OBS overlay in headless Chromium against the real server: every layout at
1280x720, 1920x1080 and 3840x2160 fits inside the title-safe area on a
transparent page; the trick at the seats with its winner, cards sliding in and a
correction that moves nothing; the hands on the broadcast only, sorted trump
first, or "hand not read yet"; par on the broadcast and the win chance on the
venue; the desk's look and cue; the rendered preview clip.

The table resumes a real game part-way (seed 9's second hand: South's 100♣
re-countered, East has led the queen of spades) from an imported record, so its
four hands are known as an RFID deal would make them; the cards after that are
entered at the console API, as a referee would."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from e2e_server import SSE, referee_session, signed_in_console, start_server
from referee.demo import play_demo_game
from referee.store import import_record

LAYOUTS = ("full", "scorebug", "hands", "trick", "lower-third")
SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
RESUME_AT = 51            # events of seed 9's record kept: hand 2, East has led Qs; North is to play
#: README pictures go here when asked: OVERLAY_SCREENSHOTS=docs/screenshots pytest tests/e2e/test_overlay.py
SHOTS = os.environ.get("OVERLAY_SCREENSHOTS")


@pytest.fixture(scope="module")
def record():
    return play_demo_game(seed=9, rules="ffb-contree")


@pytest.fixture(scope="module")
def server(tmp_path_factory, record):
    instance = tmp_path_factory.mktemp("overlay")
    (instance / "games").mkdir()
    import_record(record[:RESUME_AT], instance / "games" / "t1-1.sqlite").close()
    server = start_server(["serve", "--tables", "2", "--public", "--broadcast-delay", "0", "--seats", "Ana,Bo,Cy,Di"],
                          instance)
    server.opener, server.csrf = referee_session(server)
    yield server
    server.stop()


def console(server, path: str, body: dict) -> dict:
    req = urllib.request.Request(f"{server.base}/api/tables/{path}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-CSRF-Token": server.csrf})
    with server.opener.open(req, timeout=10) as response:
        return json.loads(response.read())


def play(server, seat: str, card: str, table: str = "t1") -> None:
    console(server, f"{table}/cards", {"seat": seat, "card": card})


def overlay(browser, server, query: str, size=(1920, 1080)):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base}/overlay/t1?lang=en&{query}")
    return page, errors


def analysed(state: dict) -> bool:
    """The par and the win chance are there for the cards played so far."""
    trick = state.get("trick") or {}
    played = (trick.get("number", 1) - 1) * 4 + len(trick.get("cards") or [])
    return all((state.get(note) or {}).get("played") == played for note in ("par", "win_chance"))


def boxes(page) -> list[dict]:
    """Every box the overlay shows, with its place on the page."""
    return page.evaluate("""() => [...document.querySelectorAll('.box, .trick-area, .tslot, .banner')]
        .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden')
        .map((n) => { const r = n.getBoundingClientRect();
                      return {id: n.id || n.className, x: r.x, y: r.y, right: r.right, bottom: r.bottom}; })""")


def save_shot(page, name: str, size=(960, 540)) -> None:
    """A README picture, small: scaled down, over a grey checkerboard where the page is
    transparent (as an editor shows it), reduced to 256 colours."""
    if not SHOTS:
        return
    shot = Image.open(io.BytesIO(page.screenshot(omit_background=True))).convert("RGBA").resize(size, Image.LANCZOS)
    board = Image.new("RGBA", size, (58, 58, 58, 255))
    for y in range(0, size[1], 12):
        for x in range(0, size[0], 12):
            if (x // 12 + y // 12) % 2:
                board.paste((72, 72, 72, 255), (x, y, x + 12, y + 12))
    board.alpha_composite(shot)
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    board.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(Path(SHOTS) / f"{name}.png", optimize=True)


def test_the_trick_tells_its_story_and_a_correction_moves_nothing(browser, server):
    page, errors = overlay(browser, server, "feed=broadcast")
    venue, _ = overlay(browser, server, "feed=venue")
    expect(page.locator(".tslot-E [data-card='Qs']")).to_be_visible()
    expect(page.locator("#contract")).to_have_text("South · 100 ♣")
    expect(page.locator("#counter-badge")).to_have_text("Re-counter ×4")
    expect(page.locator("#hand-number")).to_have_text("Hand 2")
    expect(page.locator("#dealer")).to_have_text("Dealer: Cy")
    expect(page.locator("#target")).to_have_text("to 1000")
    expect(page.locator(".tslot-E")).to_have_class(re.compile(r"\bwinning\b"))
    expect(page.locator("#par-value")).to_contain_text("N–S")              # par from the first card on
    expect(page.locator(".tslot-E .mark")).to_have_text("?")                 # East's queen cost 15 against par

    # North does not follow: the card slides in, a lower third names the rule, with the
    # sentence on the broadcast and without it in the room; East still wins.
    play(server, "N", "7h")
    card = page.locator(".tslot-N [data-card='7h']")
    expect(card).to_be_visible()
    assert "enter" in card.get_attribute("class")
    banner = page.locator(".banner")
    expect(banner).to_contain_text("did not follow suit")
    expect(banner).to_contain_text("N held ♠9 but did not follow suit")
    expect(venue.locator(".banner")).to_contain_text("did not follow suit")
    assert "held" not in venue.locator(".banner").inner_text()
    expect(page.locator(".tslot-E")).to_have_class(re.compile(r"\bwinning\b"))
    expect(page.locator("#par-value")).not_to_be_empty()
    page.wait_for_timeout(1300)                       # the slide-ins and the counts have ended
    save_shot(page, "overlay-violation")

    # The referee fixes it (North had played the nine of spades): it changes in place.
    page.evaluate("document.querySelector('.tslot-E .ocard').dataset.kept = 'yes'")
    before = boxes(page)
    state = SSE(f"{server.base}/stream/t1?feed=venue").wait_for(lambda s: len(s["trick"]["cards"]) == 2)
    assert state["trick"]["cards"][1] == {"seat": "N", "card": "7h"}
    console(server, "t1/console", {"action": "replace", "ref": RESUME_AT + 1, "cards": ["9s"]})
    expect(page.locator(".tslot-N [data-card='9s']")).to_be_visible()
    expect(page.locator(".banner")).to_have_count(0)                 # the violation is gone with the card
    assert page.locator(".tslot-E .ocard").get_attribute("data-kept") == "yes"    # not redrawn
    page.wait_for_timeout(300)
    after = boxes(page)
    assert [b for b in before if b["id"] != "banner"] == [b for b in after if b["id"] != "banner"]

    # West overtakes with the king: the mark moves to West.
    play(server, "W", "Ks")
    expect(page.locator(".tslot-W")).to_have_class(re.compile(r"\bwinning\b"))
    expect(page.locator(".tslot-E")).not_to_have_class(re.compile(r"\bwinning\b"))
    assert errors == []


def test_every_layout_fits_inside_the_safe_area_on_a_transparent_page_at_three_sizes(browser, server):
    SSE(f"{server.base}/stream/t1?feed=broadcast").wait_for(analysed, timeout=60)
    for width, height in SIZES:
        scale = width / 1920
        for layout in LAYOUTS:
            page, errors = overlay(browser, server, f"feed=broadcast&layout={layout}&motion=off", (width, height))
            expect(page.locator("#contract")).to_have_text("South · 100 ♣")
            page.wait_for_timeout(200)
            stage = page.locator(".stage").bounding_box()
            assert (stage["x"], stage["y"]) == (0, 0)
            assert abs(stage["width"] - width) < 0.5 and abs(stage["height"] - height) < 0.5, (layout, stage)
            shown = boxes(page)
            assert shown, layout
            for box in shown:           # inside the title-safe area: 5% in from every edge
                assert box["x"] >= 96 * scale - 1 and box["right"] <= (1920 - 96) * scale + 1, (layout, width, box)
                assert box["y"] >= 54 * scale - 1 and box["bottom"] <= (1080 - 54) * scale + 1, (layout, width, box)
            panels = [b for b in shown if "tslot" not in b["id"]]
            for i, a in enumerate(panels):     # and no box covers another
                for b in panels[i + 1:]:
                    apart = a["right"] <= b["x"] + 1 or b["right"] <= a["x"] + 1 or \
                        a["bottom"] <= b["y"] + 1 or b["bottom"] <= a["y"] + 1
                    assert apart, (layout, width, a, b)
            cards_outside = page.evaluate("""() => [...document.querySelectorAll('.box .ocard')].filter((c) => {
                if (!c.getClientRects().length) return false;
                const r = c.getBoundingClientRect(), b = c.closest('.box').getBoundingClientRect();
                return r.x < b.x - 1 || r.right > b.right + 1 || r.y < b.y - 1 || r.bottom > b.bottom + 1;
            }).map((c) => c.dataset.card)""")
            assert cards_outside == [], (layout, width)
            shot = Image.open(io.BytesIO(page.screenshot(omit_background=True))).convert("RGBA")
            assert shot.size == (width, height)
            for x, y in ((2, 2), (1917, 1077), (500, 800), (960, 1070)):     # stage points nothing covers
                assert shot.getpixel((int(x * scale), int(y * scale)))[3] == 0, (layout, width, x, y)
            assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
            if width == 1280:
                save_shot(page, f"overlay-{layout}", (640, 360))
            assert errors == []
            page.context.close()


def test_hands_are_on_the_broadcast_only_sorted_trump_first_or_not_read_yet(browser, server, record):
    broadcast, _ = overlay(browser, server, "feed=broadcast&layout=hands")
    venue, _ = overlay(browser, server, "feed=venue&layout=full")
    south = broadcast.locator("#player-S .hand .ocard")
    expect(south).to_have_count(8)
    # clubs are trumps: first, by trump rank (J 9 A 10 K Q 8 7); then red, black, red, each A 10 K Q J 9 8 7
    assert [c.get_attribute("data-card") for c in south.all()] == ["Jc", "Tc", "7c", "Qh", "9h", "As", "Ts", "Td"]
    expect(venue.locator(".player .ocard")).to_have_count(0)
    shown = set(venue.evaluate("[...document.querySelectorAll('[data-card]')].map((n) => n.dataset.card)"))
    played = {p["card"] for p in SSE(f"{server.base}/stream/t1?feed=venue").wait_for(lambda s: s)["trick"]["cards"]}
    assert shown <= played
    # a table whose deal no sensor read: the broadcast says so for every seat
    console(server, "t2/console", {"action": "start", "seat": "N"})
    console(server, "t2/console", {"action": "call", "seat": "W", "call": "pass"})
    other = broadcast.context.new_page()
    other.goto(f"{server.base}/overlay/t2?feed=broadcast&layout=hands&lang=en")
    expect(other.locator(".hand .unknown")).to_have_count(4)
    expect(other.locator("#player-N .unknown")).to_have_text("hand not read yet")


def test_par_reaches_the_broadcast_and_the_win_chance_the_venue_with_no_hidden_card(browser, server):
    venue_stream = SSE(f"{server.base}/stream/t1?feed=venue")
    broadcast = SSE(f"{server.base}/stream/t1?feed=broadcast").wait_for(analysed, timeout=60)
    state = venue_stream.wait_for(lambda s: (s.get("win_chance") or {}).get("played") == broadcast["par"]["played"])
    held = {c for cards in broadcast["hands"].values() for c in cards}
    raw = "".join(venue_stream.raw)
    assert '"par"' not in raw and '"hands"' not in raw
    assert [c for c in held if f'"{c}"' in raw] == []
    assert 0 <= state["win_chance"]["chance"] <= 1 and state["win_chance"]["takers"] == "NS"
    venue, _ = overlay(browser, server, "feed=venue")
    expect(venue.locator("#chance-label")).to_have_text("N–S make 100 ♣")
    expect(venue.locator("#chance-value")).to_have_text(f"{round(state['win_chance']['chance'] * 100)}")
    assert venue.locator("#par").count() == 0
    for layout in LAYOUTS:
        html = urllib.request.urlopen(f"{server.base}/overlay/t1?feed=venue&layout={layout}").read().decode()
        assert not [c for c in held if re.search(rf"\b{c}\b", html)], layout


def test_the_desk_sets_the_look_and_cues_the_last_trick(browser, server):
    context, desk, errors = signed_in_console(browser, server)
    page, page_errors = overlay(browser, server, "feed=broadcast&preview=1")
    desk.click("nav.links a:has-text('Overlay')")
    expect(desk).to_have_url(re.compile(r"/console/t1/overlay"))
    desk.fill("input[name=accent]", "#ff5500")
    desk.click("#colours button")
    expect(page.locator(".stage")).to_have_attribute("style", re.compile(r"--accent:\s*#ff5500"))
    assert page.evaluate("getComputedStyle(document.querySelector('.bug')).borderLeftColor") == "rgb(255, 85, 0)"
    photo = Image.new("RGB", (64, 64), (30, 120, 200))
    data = io.BytesIO()
    photo.save(data, "PNG")
    desk.set_input_files(".picture[data-what=W] input[type=file]", {"name": "di.png", "mimeType": "image/png",
                                                                     "buffer": data.getvalue()})
    expect(page.locator("#player-W .avatar img")).to_be_visible()
    desk.set_input_files(".picture[data-what=logo] input[type=file]", {"name": "logo.txt", "mimeType": "text/plain",
                                                                        "buffer": b"not a picture"})
    expect(desk.locator("#desk-error")).to_contain_text("PNG, JPEG or WebP")
    expect(page.locator("#last-trick")).to_be_hidden()
    desk.click("#cue-last-trick")
    expect(page.locator("#last-trick")).to_be_visible()
    expect(page.locator("#last-trick-cards")).to_contain_text("no trick yet")
    # the preview: a looping clip of a rendered table behind, the safe areas drawn
    expect(page.locator(".safe-area .title-safe")).to_be_visible()
    page.wait_for_function("document.querySelector('.backdrop').naturalWidth > 0", timeout=60000)
    clip = Image.open(io.BytesIO(urllib.request.urlopen(f"{server.base}/overlay-preview.webp").read()))
    assert clip.n_frames > 20 and clip.is_animated
    page.wait_for_timeout(600)                      # the last trick has risen into place
    save_shot(page, "overlay-full")
    assert errors == [] and page_errors == []
    context.close()


def test_motion_is_css_and_motion_off_stops_it(browser, server):
    """Last in this module: it ends the trick. Cards slide in, the trick folds to its
    winner and the scores count, in CSS; with motion=off nothing moves."""
    moving, errors = overlay(browser, server, "feed=broadcast")
    still, _ = overlay(browser, server, "feed=broadcast&motion=off")
    for page in (moving, still):
        expect(page.locator(".tslot-W [data-card='Ks']")).to_be_visible()
    play(server, "S", "Ts")                  # the ten takes the trick: it folds towards South
    time.sleep(1.2)                          # the last card settles (the referee waits 1 s), then the pickup
    console(server, "t1/cards", {"pickup": True})
    for page in (moving, still):
        expect(page.locator(".tslot-S [data-card='Ts']")).to_be_visible()
        expect(page.locator("#trick")).to_have_class(re.compile(r"\bdone\b"))
    expect(moving.locator("#trick")).to_have_class(re.compile(r"\bfolding\b.*\bwon-S\b|\bwon-S\b.*\bfolding\b"))
    expect(still.locator("#trick")).not_to_have_class(re.compile(r"\bfolding\b"))
    style = "([sel, prop]) => getComputedStyle(document.querySelector(sel))[prop]"
    assert moving.evaluate(style, [".tslot-S .ocard", "animationName"]) == "card-in, fold"   # slides in, then folds
    assert moving.evaluate(style, [".tslot-E .ocard", "animationName"]) == "fold"
    assert moving.evaluate(style, ["#total-NS", "transitionDuration"]) == "1.2s"
    assert still.evaluate(style, [".tslot-S .ocard", "animationName"]) == "none"
    assert still.evaluate(style, ["#total-NS", "transitionDuration"]) == "0s"
    expect(still.locator(".tslot-S")).to_have_class(re.compile(r"\bwinning\b"))
    # the last trick on demand, from the browser source itself (OBS's "interact": L)
    still.keyboard.press("l")
    expect(still.locator("#last-trick")).to_be_visible()
    expect(still.locator("#last-trick-cards .played")).to_have_count(4)
    expect(still.locator("#last-trick-cards .winner [data-card='Ts']")).to_be_visible()
    expect(moving.locator(".tslot-S .ocard")).to_have_css("opacity", "0", timeout=5000)   # folded away
    assert errors == []
