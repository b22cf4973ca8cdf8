"""A table restarted on the same instance folder takes up its game where it was
(issue 12): the console's time goes on from there, a hostile request left
nothing behind to trip the restart, and a failure inside the referee was
rolled back whole."""

from __future__ import annotations

from referee.observations import ConsoleAction
from referee.store import EventStore

from web_boards import serve_board, signed_in

CALL = "/api/tables/t1/console"


def test_a_restarted_game_accepts_the_console(tmp_path):
    board = serve_board(tmp_path)
    client, csrf = signed_in(board)
    assert client.post(CALL, json={"action": "start", "seat": "N"}, headers=csrf).status_code == 200
    table = board.room.get("t1")
    table.ingest(ConsoleAction(t=500.0, action="call", seat=3, call="pass"))   # the table ran 500 s
    table.referee.close()
    board = serve_board(tmp_path)                                # the restart: its clock must not go back
    client, csrf = signed_in(board)
    response = client.post(CALL, json={"action": "call", "seat": "N", "call": "80h"}, headers=csrf)
    assert response.status_code == 200, response.get_json()
    assert board.room.get("t1").clock() >= 500.0
    assert [e["call"] for e in board.room.get("t1").referee.events if e["type"] == "call"] == ["pass", "80h"]


def test_a_five_thousand_digit_bid_is_refused_whole_and_the_instance_restarts(tmp_path):
    board = serve_board(tmp_path)
    client, csrf = signed_in(board)
    client.post(CALL, json={"action": "start", "seat": "N"}, headers=csrf)
    response = client.post(CALL, json={"action": "call", "seat": "W", "call": "9" * 5000 + "h"}, headers=csrf)
    assert response.status_code == 400 and "at most 16" in response.get_json()["error"]
    response = client.post(CALL, json={"action": "call", "seat": "W", "call": "80h"}, headers=csrf)
    assert response.status_code == 200                           # the next ordinary action commits nothing else
    board.room.get("t1").referee.close()
    rows = list(EventStore(tmp_path / "games" / "t1-1.sqlite").observations())
    assert len(rows) == 2 and all(len(raw) < 200 for _, raw, _, _ in rows)
    board = serve_board(tmp_path)
    assert [e.get("call") for e in board.room.get("t1").referee.events if e["type"] == "call"] == ["80h"]


def test_a_failure_inside_the_referee_changes_nothing_and_says_why(tmp_path, monkeypatch):
    from referee.desk import Desk

    board = serve_board(tmp_path)
    client, csrf = signed_in(board)
    client.post(CALL, json={"action": "start", "seat": "N"}, headers=csrf)
    client.post(CALL, json={"action": "call", "seat": "W", "call": "80h"}, headers=csrf)
    before = board.room.get("t1").record()
    act = Desk.act

    def failing(self, a, oid):
        if a.action == "call" and a.call == "90h":
            raise ZeroDivisionError("a bug")
        return act(self, a, oid)
    monkeypatch.setattr(Desk, "act", failing)
    response = client.post(CALL, json={"action": "call", "seat": "S", "call": "90h"}, headers=csrf)
    assert response.status_code == 409 and "set aside" in response.get_json()["error"]
    assert board.room.get("t1").record() == before
    assert client.post(CALL, json={"action": "call", "seat": "S", "call": "pass"}, headers=csrf).status_code == 200
    board.room.get("t1").referee.close()
    monkeypatch.undo()
    board = serve_board(tmp_path)
    assert board.room.get("t1").record() == before + [{"type": "call", "seat": "S", "call": "pass", "obs": 4}]
