"""The referee's desk through the console's API and state (issue 12): the sensors panel shows
each sensor's health from the sensor itself (a real RFID bridge on the virtual table's
pseudo-terminal), a card typed that was already played is a 409 that says why, a call typed out
of the table's order is a question before anything is written, and undo says what it took back."""

from __future__ import annotations

import time

from firmware_bridge.sensor import RfidSensor
from firmware_bridge.virtual_table import VirtualTable
from web_dashboard.state import dashboard_state

from web_boards import serve_board, signed_in


def test_the_sensors_panel_shows_each_sensors_state_rate_and_last_reading(tmp_path):
    board = serve_board(tmp_path)
    table = board.room.get("t1")
    vt = VirtualTable(hb_s=0.1, snap_s=30.0)
    rfid = RfidSensor(vt.start(), vt.table_map())
    table.sensors = [rfid]
    stop = rfid.start(lambda obs: None)
    try:
        assert dashboard_state(table)["sensors"]["rfid"]["state"] in ("starting", "connected")
        for card in ("Jh", "9h", "As"):
            vt.play("S", card)
            time.sleep(0.2)                                 # a few scans: the board debounces
            vt.pickup()
            time.sleep(0.2)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            shown = dashboard_state(table)["sensors"]["rfid"]
            if shown.get("last") == "As off play:S":
                break
            time.sleep(0.05)
        assert shown["state"] == "connected" and shown["last"] == "As off play:S", shown
        assert shown["rate"] > 0                           # heartbeats and tag edges per second
    finally:
        stop()
        vt.stop()
    assert "console" not in dashboard_state(table)["sensors"]     # the table's clock is no sensor


def test_the_console_api_says_why_a_card_or_call_cannot_be_taken_and_what_undo_took_back(tmp_path):
    board = serve_board(tmp_path)
    client, csrf = signed_in(board)

    def console(**body):
        return client.post("/api/tables/t1/console", json=body, headers=csrf)

    def card(seat, name):
        return client.post("/api/tables/t1/cards", json={"seat": seat, "card": name}, headers=csrf)

    assert console(action="start", seat="N").status_code == 200
    answer = console(action="call", seat="E", call="pass").get_json()     # W speaks first
    asked = [o for o in answer["outputs"] if o["kind"] == "call-order"]
    assert answer["ok"] and asked and "Did E speak out of turn?" in asked[0]["message"]
    assert console(action="dismiss", ref=asked[0]["id"]).status_code == 200
    for seat, call in (("W", "80h"), ("S", "pass"), ("E", "pass"), ("N", "pass")):
        assert console(action="call", seat=seat, call=call).status_code == 200
    assert card("W", "Jh").status_code == 200 and card("S", "7h").status_code == 200
    refused = card("E", "Jh")
    assert refused.status_code == 409
    assert refused.get_json()["error"].startswith("♥J was already played in this hand: W played it in trick 1")
    answer = console(action="undo").get_json()
    assert [o["message"] for o in answer["outputs"] if o["kind"] == "notice"] == \
        ["undone: S's card ♥7 (typed in, not yet written)"]
    state = board.room.get("t1").state()
    assert not state["violations"] and [c["seat"] for c in state["hand"]["auction"]] == ["W", "S", "E", "N"]
    refused = console(action="undo", ref=3)
    assert refused.status_code == 409 and "undoing #3 (W's call 80h) is refused" in refused.get_json()["error"]
