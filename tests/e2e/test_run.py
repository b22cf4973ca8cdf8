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
