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
