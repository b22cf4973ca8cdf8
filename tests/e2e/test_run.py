"""``belote-table run --profile DIR`` on a table whose microcontroller is the
virtual table's firmware over a real pseudo-terminal: the server opens the
port from the profile's mapping, the link's health and the tags reach the
referee's console, and a pulled cable is reported and recovered."""

from __future__ import annotations

import pytest

from e2e_server import referee_stream, start_server
from calibration.profile import TableProfile
from firmware_bridge.virtual_table import VirtualTable


@pytest.fixture
def table(tmp_path):
    vt = VirtualTable(seed=3)
    profile, rfid = TableProfile(tmp_path / "profile"), vt.table_map()
    profile.save_tags(rfid.cards)
    profile.save_antennas(rfid.zones)
    port = vt.start()
    server = start_server(["run", "--profile", str(tmp_path / "profile"), "--serial", port,
                           "--seats", "Ana,Bo,Cy,Di"], tmp_path / "var")
    yield vt, server
    server.stop()
    vt.stop()


def test_the_table_link_reaches_the_console_and_survives_a_pulled_cable(table):
    vt, server = table
    referee = referee_stream(server)
    referee.wait_for(lambda s: s.get("sensors", {}).get("rfid", {}).get("state") == "connected", timeout=30)
    assert referee.state["table"]["seats"] == {"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"}
    vt.unplug()
    referee.wait_for(lambda s: s["sensors"]["rfid"]["state"] == "lost", timeout=30)
    vt.replug()
    referee.wait_for(lambda s: s["sensors"]["rfid"]["state"] == "connected", timeout=30)
    referee.close()


def test_run_with_a_video_file_as_the_camera_referees_its_cards(tmp_path):
    """The real ``run`` path with a recorded clip as its camera (played at its own pace, newest
    frame only, as a webcam would be): the table calibrated and the deck enrolled from the
    profile, the camera's health on the console, and the cards it films played in the game."""
    import json

    from commands.main import main
    from referee.cards import parse_card
    from referee.store import ingest_file
    from vision.deck import Deck
    from vision.faces import builtin_faces

    clip, profile = tmp_path / "clip", TableProfile(tmp_path / "profile")
    assert main(["vision", "render", "--out", str(clip), "--size", "1280x720", "--fps", "15",
                 "--tricks", "1", "--seed", "2"]) == 0
    assert main(["calibrate", "table", "--source", str(clip), "--profile", str(profile.dir)]) == 0
    Deck(faces={c: [f] for c, f in builtin_faces().items()}).save(profile.deck_dir())
    filmed = [parse_card(x["card"]) for x in json.loads((clip / "truth.json").read_text()) if x["kind"] == "card"]
    vt = VirtualTable(seed=3)
    rfid = vt.table_map()
    profile.save_tags(rfid.cards)
    profile.save_antennas(rfid.zones)

    # The auction was entered before the camera started (the game resumes from its store):
    # W deals, so S leads the trick the clip films (S, E, N, W).
    calls = [("start", "W", None), ("call", "S", "80h"), ("call", "E", "pass"), ("call", "N", "pass"),
             ("call", "W", "pass")]
    observations = tmp_path / "auction.jsonl"
    observations.write_text("".join(json.dumps({"kind": "console", "t": n / 10, "action": action, "seat": seat,
                                                **({"call": call} if call else {})}) + "\n"
                                    for n, (action, seat, call) in enumerate(calls)))
    (tmp_path / "var" / "games").mkdir(parents=True)
    ingest_file(observations, tmp_path / "var" / "games" / "t1-1.sqlite").close()

    port = vt.start()
    server = start_server(["run", "--profile", str(profile.dir), "--serial", port, "--camera", str(clip)],
                          tmp_path / "var")
    try:
        referee = referee_stream(server)
        referee.wait_for(lambda s: s.get("sensors", {}).get("camera", {}).get("state") == "connected", timeout=30)

        def refereed(state: dict) -> set:
            """The cards the referee has taken as played, or asks the console about."""
            return {parse_card(c["card"]) for c in state["trick"]["cards"]} | \
                {parse_card(line["card"]) for line in state["log"] if line.get("card")} | \
                {parse_card(c["proposal"]) for c in state["conflicts"] if c.get("proposal")}
        # S's card is taken as played, or (a card the camera could not read) asked about at the console.
        state = referee.wait_for(lambda s: filmed[0] in refereed(s) or
                                 any(c.get("seat") == "S" for c in s["conflicts"]), timeout=60)
        assert refereed(state) <= set(filmed), "the camera reported a card the clip does not show"
        referee.close()
    finally:
        server.stop()
        vt.stop()


def test_a_deal_read_in_part_keeps_the_hands_on_the_console_and_the_broadcast_overlay(tmp_path, browser):
    """Issue 12 (hand 6 of a `make demo` game): the cable pulled while the cards are dealt, some
    tags never read; the deal goes into the record without hands, and the console and the
    broadcast overlay showed no hand at all. Now each seat shows the cards read, and the rest as
    cards nobody read, through the real `run` path: the virtual table's frames over a pty."""
    import json
    import time
    import urllib.request

    from playwright.sync_api import expect

    from e2e_server import referee_session

    vt = VirtualTable(seed=3)
    profile, rfid = TableProfile(tmp_path / "profile"), vt.table_map()
    profile.save_tags(rfid.cards)
    profile.save_antennas(rfid.zones)
    server = start_server(["run", "--profile", str(tmp_path / "profile"), "--serial", vt.start(),
                           "--seats", "Ana,Bo,Cy,Di", "--broadcast-delay", "0"], tmp_path / "var")
    try:
        opener, csrf = referee_session(server)

        def console(body):
            req = urllib.request.Request(f"{server.base}/api/tables/t1/console", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
            return json.loads(opener.open(req, timeout=10).read())

        referee = referee_stream(server)
        referee.wait_for(lambda s: s.get("sensors", {}).get("rfid", {}).get("state") == "connected", timeout=30)
        console({"action": "start", "seat": "N"})
        deck = [f"{r}{s}" for s in "shdc" for r in "789TJQKA"]
        missed = {"7s", "8h", "9d", "Tc", "Js", "Qh"}            # never read: two seats short, no hands known
        hands = {seat: [] for seat in "NESW"}
        cards = iter(deck)
        for packet in (3, 2, 3):                                # W S E N: from the dealer's right
            for seat in "WSEN":
                for _ in range(packet):
                    card = next(cards)
                    hands[seat].append(card)
                    if card not in missed:
                        vt.put(card, f"hand:{seat}")
                time.sleep(0.15)
            time.sleep(1.6)                                     # the next round: another packet
        console({"action": "call", "seat": "W", "call": "80h"})
        state = referee.wait_for(lambda s: s.get("status") == "auction" and s.get("hands"), timeout=20)
        assert {s: sorted(c) for s, c in state["hands"].items()} == \
            {s: sorted(c for c in hands[s] if c not in missed) for s in "NESW"}
        assert state["unseen"] == {s: len(set(hands[s]) & missed) for s in "NESW"}
        assert state["hand_sizes"] == {s: 8 for s in "NESW"}
        referee.close()
        context = browser.new_context(viewport={"width": 1920, "height": 1080})
        page = context.new_page()
        page.goto(server.links["t1"]["overlay"] + "&layout=hands&lang=en")
        for seat in "NESW":
            box = page.locator(f"#player-{seat} .hand")
            expect(box.locator(".ocard")).to_have_count(8 - state["unseen"][seat])
            if state["unseen"][seat]:
                expect(box.locator(".unread")).to_have_text(f"+{state['unseen'][seat]} not read")
        context.close()
    finally:
        server.stop()
        vt.stop()
