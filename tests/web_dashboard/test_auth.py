"""Who may do what, through the real Flask app and a real SQLite file: a
change needs a session and its CSRF token; an overlay token reads its own
feed of its own table and can never post; revoked tokens stop working."""

from __future__ import annotations

import re
import threading

import pytest

from web_dashboard.accounts import Accounts
from web_dashboard.app import create_app
from web_dashboard.board import Dashboard
from web_dashboard.hub import Hub
from web_dashboard.room import LiveTable

from referee.table_referee import TableReferee

PASSWORD = "correct horse"


@pytest.fixture
def board(tmp_path):
    accounts = Accounts(tmp_path / "dashboard.sqlite")
    accounts.set_password(PASSWORD)
    hub = Hub(call_soon_threadsafe=lambda fn: fn(), call_later=lambda s, fn: None,
              event_factory=threading.Event, broadcast_delay=30)
    board = Dashboard(accounts=accounts, hub=hub, instance=tmp_path)
    for table_id in ("t1", "t2"):
        board.room.add(LiveTable(table_id, table_id.upper(), TableReferee(dealer=0), hub.submit))
    return board


@pytest.fixture
def client(board):
    return create_app(board).test_client()


def sign_in(client, password=PASSWORD, token=""):
    page = client.get("/signin").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    return client.post("/signin", data={"csrf": csrf, "password": password, "token": token, "next": "/console"})


def console_csrf(client, table="t1"):
    page = client.get(f"/console/{table}").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def test_console_needs_a_sign_in_and_a_wrong_password_is_refused(client):
    assert client.get("/console").status_code == 302
    response = sign_in(client, password="wrong password")
    assert response.status_code == 401 and "Mot de passe ou jeton incorrect" in response.get_data(as_text=True)
    assert client.get("/console").status_code == 302
    assert sign_in(client).status_code == 302
    assert client.get("/console").status_code == 200


def test_sign_in_form_without_its_csrf_token_is_refused(client):
    client.get("/signin")
    assert client.post("/signin", data={"password": PASSWORD}).status_code == 403


def test_actions_need_session_and_csrf(client, board):
    body = {"action": "call", "seat": "W", "call": "pass"}
    assert client.post("/api/tables/t1/console", json=body).status_code == 401
    sign_in(client)
    assert client.post("/api/tables/t1/console", json=body).status_code == 403
    assert client.post("/api/tables/t1/console", json=body, headers={"X-CSRF-Token": "forged"}).status_code == 403
    response = client.post("/api/tables/t1/console", json=body, headers={"X-CSRF-Token": console_csrf(client)})
    assert response.status_code == 200, response.get_json()
    assert board.room.get("t1").referee.events[-1] == {"type": "call", "seat": "W", "call": "pass", "obs": 1}
    assert board.hub.current("t1", "venue")["hand"]["auction"] == [{"seat": "W", "call": "pass"}]


def test_bad_action_says_what_to_fix_and_loses_nothing(client, board):
    sign_in(client)
    csrf = {"X-CSRF-Token": console_csrf(client)}
    response = client.post("/api/tables/t1/console", json={"action": "jump"}, headers=csrf)
    assert response.status_code == 400 and "use one of" in response.get_json()["error"]
    response = client.post("/api/tables/t1/console", json={"action": "undo"}, headers=csrf)
    assert response.status_code == 409 and "no game event to undo" in response.get_json()["error"]
    response = client.post("/api/tables/t1/cards", json={"seat": "S", "card": "2h"}, headers=csrf)
    assert response.status_code == 400 and "not a Belote card" in response.get_json()["error"]
    assert client.post("/api/tables/t9/console", json={"action": "undo"}, headers=csrf).status_code == 404


def test_table_token_signs_in_to_its_table_only(client, board):
    token = board.accounts.issue_token("table", "t2")
    assert client.get(f"/signin?token={token}").status_code == 302
    assert client.get("/console/t2").status_code == 200
    assert client.get("/console/t1").status_code == 403
    csrf = console_csrf(client, "t2")
    assert client.post("/api/tables/t1/console", json={"action": "undo"}, headers={"X-CSRF-Token": csrf}).status_code == 403


def test_overlay_token_reads_its_feed_only_and_cannot_post(client, board):
    token = board.accounts.issue_token("overlay", "t1", "broadcast")
    assert client.get(f"/overlay/t1?feed=broadcast&token={token}").status_code == 200
    assert client.get(f"/overlay/t1?feed=venue&token={token}").status_code == 403
    assert client.get(f"/overlay/t2?feed=broadcast&token={token}").status_code == 403
    assert client.get(f"/stream/t1?feed=referee&token={token}").status_code == 401
    assert client.get("/overlay/t1?feed=broadcast").status_code == 403
    response = client.post(f"/api/tables/t1/console?token={token}", json={"action": "undo"})
    assert response.status_code == 401
    assert board.room.get("t1").referee.n_obs == 0


def test_a_table_named_by_its_number_is_sent_to_its_own_address(client, board):
    """Issue 12: ``/overlay/1`` was a 404 (the id is ``t1``); people read "Table 1" and type the 1."""
    token = board.accounts.issue_token("overlay", "t2", "broadcast")
    moved = client.get(f"/overlay/2?feed=broadcast&layout=scorebug&token={token}")
    assert moved.status_code == 302
    assert moved.headers["Location"].startswith("/overlay/t2?") and "layout=scorebug" in moved.headers["Location"]
    assert client.get(moved.headers["Location"]).status_code == 200
    assert client.get("/overlay/3?feed=broadcast").status_code == 404


def test_revoked_overlay_token_stops_working(client, board):
    sign_in(client)
    csrf = {"X-CSRF-Token": console_csrf(client)}
    made = client.post("/api/tables/t1/tokens", json={"feed": "venue"}, headers=csrf).get_json()
    screen = client.application.test_client()      # the room's screen: no session, only the token
    assert screen.get(f"/table/t1?token={made['token']}").status_code == 200
    (listed,) = client.get("/api/tables/t1/tokens").get_json()["tokens"]
    assert client.post(f"/api/tables/t1/tokens/{listed['id']}/revoke", headers=csrf).status_code == 200
    assert screen.get(f"/table/t1?token={made['token']}").status_code == 403
    assert board.accounts.find_token(made["token"]) is None


def test_overlay_parameters_are_checked(client, board):
    board.public = True
    assert client.get("/overlay/t1?feed=venue&layout=scorebug&scale=0.5").status_code == 200
    assert client.get("/overlay/t1?feed=referee").status_code == 400
    assert client.get("/overlay/t1?scale=huge").status_code == 400
    assert client.get("/overlay/t1?layout=sideways").status_code == 400
    assert client.get("/overlay/nope").status_code == 404


def test_repeated_wrong_passwords_make_the_address_wait(client):
    for _ in range(5):
        assert sign_in(client, password="guess").status_code == 401
    response = sign_in(client)                       # even the right one, for a minute
    assert response.status_code == 429 and "wait a minute" in response.get_data(as_text=True)
    assert client.get("/console").status_code == 302
