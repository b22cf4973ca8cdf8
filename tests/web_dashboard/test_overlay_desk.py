"""The overlay desk through the real Flask app: the look (colours, logo, photos)
and the last-trick cue reach the overlay feeds at once, never delayed; bad
pictures are refused with what to send; the camera's picture of a violation is
served to the broadcast overlay only, and only while it shows that violation."""

from __future__ import annotations

import struct
import threading
import zlib

import pytest

from web_dashboard.accounts import Accounts
from web_dashboard.app import create_app
from web_dashboard.board import Dashboard
from web_dashboard.hub import Hub
from web_dashboard.room import LiveTable

from referee.table_referee import TableReferee
from test_auth import PASSWORD, console_csrf, sign_in
from web_fakes import sample_state


def png(width=4, height=4, rgb=(200, 30, 40)) -> bytes:
    """A real (tiny) PNG file."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class Later:
    """call_later that runs nothing until told: the broadcast delay never elapses by itself."""

    def __init__(self):
        self.pending = []

    def __call__(self, seconds, fn):
        self.pending.append(fn)

    def run(self):
        for fn in self.pending:
            fn()
        self.pending = []


@pytest.fixture
def board(tmp_path):
    accounts = Accounts(tmp_path / "dashboard.sqlite")
    accounts.set_password(PASSWORD)
    later = Later()
    hub = Hub(call_soon_threadsafe=lambda fn: fn(), call_later=later, event_factory=threading.Event, broadcast_delay=30)
    board = Dashboard(accounts=accounts, hub=hub, instance=tmp_path)
    board.room.add(LiveTable("t1", "T1", TableReferee(dealer=0), hub.submit))
    board.later = later
    return board


@pytest.fixture
def desk(board):
    client = create_app(board).test_client()
    sign_in(client)
    return client, {"X-CSRF-Token": console_csrf(client)}


def test_the_look_reaches_both_overlay_feeds_at_once(board, desk):
    client, headers = desk
    assert client.get("/console/t1/overlay?lang=en").status_code == 200
    answer = client.post("/api/tables/t1/look", json={"accent": "#FF8800", "panel": "#102030"}, headers=headers)
    assert answer.status_code == 200
    for feed in ("broadcast", "venue"):       # the broadcast is 30 s late, its look is not
        look = board.hub.current("t1", feed)["overlay"]["look"]
        assert look["accent"] == "#ff8800" and look["panel"] == "#102030" and look["text"] == "#eef2f5"
    logo = client.post("/api/tables/t1/look/logo", data=png(), headers=headers, content_type="image/png").get_json()
    photo = client.post("/api/tables/t1/look/W", data=png(rgb=(1, 2, 3)), headers=headers,
                        content_type="image/png").get_json()
    look = board.hub.current("t1", "venue")["overlay"]["look"]
    assert look["logo"] == logo["look"]["logo"] and look["photos"] == {"W": photo["look"]["photos"]["W"]}
    served = client.get(look["photos"]["W"])          # public, like the overlay that shows it
    assert served.status_code == 200 and served.mimetype == "image/png" and served.data == png(rgb=(1, 2, 3))
    # kept for the next start, and removed with an empty body
    assert '"W"' in (board.instance / "looks" / "t1.json").read_text()
    client.post("/api/tables/t1/look/W", data=b"", headers=headers)
    assert board.hub.current("t1", "venue")["overlay"]["look"]["photos"] == {}


def test_bad_colours_and_pictures_are_refused_with_what_to_send(board, desk):
    client, headers = desk
    bad = client.post("/api/tables/t1/look", json={"accent": "red; background: url(x)"}, headers=headers)
    assert bad.status_code == 400 and "#f2c14e" in bad.get_json()["error"]
    svg = client.post("/api/tables/t1/look/logo", data=b"<svg onload=alert(1)>", headers=headers)
    assert svg.status_code == 400 and "PNG, JPEG or WebP" in svg.get_json()["error"]
    big = client.post("/api/tables/t1/look/N", data=png() + b"\0" * 62_000, headers=headers)
    assert big.status_code == 413 and "KiB" in big.get_json()["error"]
    seat = client.post("/api/tables/t1/look/X", data=png(), headers=headers)
    assert seat.status_code == 400 and "N, E, S, W" in seat.get_json()["error"]
    assert client.get("/looks/..%2Fdashboard.sqlite").status_code == 404
    assert "overlay" not in board.hub.current("t1", "venue")          # nothing changed
    # without a session or its CSRF token, nothing is taken
    assert client.post("/api/tables/t1/look", json={"accent": "#000000"}).status_code == 403
    assert create_app(board).test_client().post("/api/tables/t1/cue", json={"show": "last_trick"}).status_code == 401


def test_the_last_trick_cue_is_not_delayed(board, desk):
    client, headers = desk
    assert client.post("/api/tables/t1/cue", json={"show": "last_trick"}, headers=headers).status_code == 200
    first = board.hub.current("t1", "broadcast")["overlay"]["cue"]["last_trick"]
    client.post("/api/tables/t1/cue", json={"show": "last_trick"}, headers=headers)
    assert board.hub.current("t1", "broadcast")["overlay"]["cue"]["last_trick"] > first
    assert client.post("/api/tables/t1/cue", json={"show": "nothing"}, headers=headers).status_code == 400


def test_the_camera_picture_of_a_violation_is_for_the_broadcast_while_it_shows_it(board):
    board.thumbnails.mkdir()
    (board.thumbnails / "f12-playW-Kc.png").write_bytes(png())
    (board.thumbnails / "f13-playN-7h.png").write_bytes(png())
    state = {"table": {"id": "t1", "seats": {}}, **sample_state([("W", "Kc", "must-trump", "W held ♥7")])}
    state["violations"][0].update(evidence=[12], thumbnail="/api/tables/t1/thumbnails/f12-playW-Kc.png")
    board.hub.submit("t1", state, 10**6)
    token = board.accounts.issue_token("overlay", "t1", "broadcast")
    venue_token = board.accounts.issue_token("overlay", "t1", "venue")
    client = create_app(board).test_client()
    assert "camera" not in board.hub.current("t1", "venue")["violations"][0]
    url = "/overlay/t1/camera/f12-playW-Kc.png"
    assert client.get(f"{url}?token={token}").status_code == 404           # the broadcast does not show it yet
    board.later.run()
    assert board.hub.current("t1", "broadcast")["violations"][0]["camera"] == "f12-playW-Kc.png"
    shown = client.get(f"{url}?token={token}")
    assert shown.status_code == 200 and shown.mimetype == "image/png"
    assert client.get(url).status_code == 403 and client.get(f"{url}?token={venue_token}").status_code == 403
    assert client.get(f"/overlay/t1/camera/f13-playN-7h.png?token={token}").status_code == 404   # not a violation's
