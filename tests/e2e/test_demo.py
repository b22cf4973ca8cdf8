"""``belote-table demo`` end to end: the virtual table's firmware over a real
pseudo-terminal, the bridge, the table referee, the store and the server.
Read raw, the venue stream and the pages never carry a card still held; the
broadcast feed carries the hands, ``--broadcast-delay`` seconds late."""

from __future__ import annotations

import re
import time
import urllib.request

import pytest

from playwright.sync_api import expect

from e2e_server import SSE, referee_stream, signed_in_console, start_server

DELAY = 3.0


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    server = start_server(["demo", "--speed", "8", "--broadcast-delay", str(DELAY)],
                          tmp_path_factory.mktemp("demo"))
    yield server
    server.stop()


def progress(state: dict) -> tuple:
    hand = state.get("hand") or {}
    trick = state.get("trick") or {}
    return (hand.get("number"), len(hand.get("auction") or []), trick.get("number"), len(trick.get("cards") or []))


def test_no_hidden_card_reaches_the_venue_stream_or_the_pages(demo):
    venue = SSE(f"{demo.base}/stream/t1?feed=venue")
    referee = referee_stream(demo)
    # Mid-way through the first hand: the deal is known, some cards are played.
    state = referee.wait_for(lambda s: s.get("status") == "play" and (s.get("trick") or {}).get("number", 0) >= 3
                             and (s.get("hand") or {}).get("number") == 1, timeout=90)
    hidden = {card for cards in state["hands"].values() for card in cards}
    assert len(hidden) >= 8
    raw_venue = "".join(venue.raw)          # everything the venue stream sent so far, as sent
    assert '"hands"' not in raw_venue and '"par"' not in raw_venue       # par follows from the hands
    leaked = sorted(card for card in hidden if f'"{card}"' in raw_venue)
    assert leaked == [], f"the venue stream carried cards still held: {leaked}"
    assert venue.state["trick"] or venue.state["last_trick"]      # the played cards do reach the room
    venue.wait_for(lambda s: (s.get("win_chance") or {}).get("takers"), timeout=30)   # from the public view
    layouts = ("full", "scorebug", "hands", "trick", "lower-third")
    for page in ("/table/t1", "/club", *(f"/overlay/t1?feed=venue&layout={layout}" for layout in layouts)):
        html = urllib.request.urlopen(demo.base + page).read().decode()
        assert not [c for c in hidden if re.search(rf"\b{c}\b", html)], page
    venue.close()
    referee.close()


def test_broadcast_runs_late_by_its_delay_and_carries_the_hands(demo):
    referee = referee_stream(demo)
    broadcast = SSE(f"{demo.base}/stream/t1?feed=broadcast")
    time.sleep(DELAY + 6)
    broadcast.wait_for(lambda s: "hands" in s and s.get("delay") == DELAY)
    first_seen: dict[tuple, float] = {}
    states: dict[str, list] = {"referee": [], "broadcast": []}
    for name, stream in (("referee", referee), ("broadcast", broadcast)):
        state: dict = {}
        for arrival, _, event, data in stream.messages:
            state = data if event == "snapshot" else {**state, **data.get("set", {})}
            states[name].append((arrival, progress(state)))
    seen_live = {}
    for arrival, step in states["referee"]:
        seen_live.setdefault(step, arrival)
    lags = []
    for arrival, step in states["broadcast"]:
        if step in seen_live and arrival > seen_live[step] and step not in first_seen:
            first_seen[step] = arrival
            lags.append(arrival - seen_live[step])
    lags = lags[1:]                          # the first may come from the snapshot taken on connect
    assert len(lags) >= 5, lags
    assert min(lags) >= DELAY - 0.25, lags
    assert max(lags) <= DELAY + 1.5, lags
    referee.close()
    broadcast.close()


def test_a_planted_revoke_reaches_the_console_and_the_room_without_its_explanation(demo):
    referee = referee_stream(demo)
    venue = SSE(f"{demo.base}/stream/t1?feed=venue")
    state = referee.wait_for(lambda s: any(v["rule"] == "must-follow" for v in s.get("violations", [])), timeout=120)
    revoke = next(v for v in state["violations"] if v["rule"] == "must-follow")
    assert "did not follow suit" in revoke["message"] and revoke["evidence"]
    public = venue.wait_for(lambda s: any(v["id"] == revoke["id"] for v in s.get("violations", [])))
    shown = next(v for v in public["violations"] if v["id"] == revoke["id"])
    assert shown == {k: revoke[k] for k in ("id", "rule", "seat", "card", "trick", "hand")}
    referee.close()
    venue.close()


def test_the_camera_films_the_game_and_agrees_with_the_rfid(tmp_path):
    server = start_server(["demo", "--speed", "3"], tmp_path / "var")
    referee = referee_stream(server)
    try:
        referee.wait_for(lambda s: sum(e["type"] == "play" for e in s.get("log", [])) >= 6, timeout=120)
        thumbnails = sorted((tmp_path / "var" / "thumbnails").glob("*.png"))
        read = [re.match(r"f\d+-play([NESW])-(\w+)\.png", p.name).groups() for p in thumbnails]
        assert len(read) >= 6                               # every card put down is filmed and reported
        known = {(seat, card) for seat, card in read if card != "unread"}
        assert len(known) >= 3
        # Each card the camera read is the card the referee recorded for that seat (the RFID agrees).
        state = referee.wait_for(lambda s: known <= {(e["seat"], e["card"]) for e in s["log"] if e["type"] == "play"})
        assert state["conflicts"] == [] and state["violations"] == []   # seed 1's first hand is clean
    finally:
        referee.close()
        server.stop()


def test_the_console_shows_each_sensor_with_its_state_rate_and_last_reading(browser, demo):
    # issue 12: the sensors panel showed a state word only; the RFID bridge (over the virtual
    # table's pseudo-terminal) now says how many frames a second it gets and its last tag edge.
    context, page, errors = signed_in_console(browser, demo)
    rfid = page.locator("#sensors li[data-sensor='rfid']")
    expect(rfid.locator(".state")).to_have_text("connected", timeout=30000)
    expect(rfid.locator(".rate")).to_contain_text("per s", timeout=30000)
    expect(rfid.locator(".last")).to_have_text(re.compile(r"last: [2-9TJQKA][shdc] (on|off) (hand|play|deal)"),
                                               timeout=30000)
    assert page.locator("#sensors li[data-sensor='console']").count() == 0      # the clock is no sensor
    assert errors == []
    context.close()
