"""Sessions and tokens end when they are ended (issue 12): signing out ends the
session on the server, so a copy of its cookie opens nothing afterwards, and a
revoked overlay token closes the streams it had opened."""

from __future__ import annotations

import itertools

from web_dashboard.app import create_app

from web_boards import serve_board, signed_in


def _cookie(client) -> str:
    return client.get_cookie("session").value


def test_a_cookie_copied_before_sign_out_opens_nothing_after_it(tmp_path):
    board = serve_board(tmp_path)
    client, csrf = signed_in(board)
    thief = create_app(board).test_client()
    thief.set_cookie("session", _cookie(client))
    assert thief.get("/console").status_code == 200           # the copy works while the session lives
    assert client.post("/signout", data={"csrf": csrf["X-CSRF-Token"]}).status_code == 302
    assert thief.get("/console").status_code == 302            # ... and not after: to the sign-in form
    response = thief.post("/api/tables/t1/console", json={"action": "start", "seat": "N"}, headers=csrf)
    assert response.status_code == 401 and board.room.get("t1").referee.n_obs == 0
    assert thief.get("/stream/t1?feed=referee").status_code == 401


def _open_stream(client, url):
    response = client.get(url, buffered=False)
    assert response.status_code == 200
    body = iter(response.response)
    head = next(body) + next(body)                              # retry + the snapshot
    assert b"event: snapshot" in head
    return body


def test_revoking_an_overlay_token_closes_the_streams_it_opened(tmp_path):
    board = serve_board(tmp_path)
    client, csrf = signed_in(board)
    made = client.post("/api/tables/t1/tokens", json={"feed": "venue", "label": "OBS"}, headers=csrf).get_json()
    kept = client.post("/api/tables/t1/tokens", json={"feed": "venue"}, headers=csrf).get_json()
    screen = create_app(board).test_client()
    revoked_stream = _open_stream(screen, f"/stream/t1?feed=venue&token={made['token']}")
    kept_stream = _open_stream(screen, f"/stream/t1?feed=venue&token={kept['token']}")
    token_id = next(t["id"] for t in client.get("/api/tables/t1/tokens").get_json()["tokens"]
                    if t["label"] == "OBS")
    assert client.post(f"/api/tables/t1/tokens/{token_id}/revoke", headers=csrf).status_code == 200
    assert list(itertools.islice(revoked_stream, 5)) == []      # ended: nothing more, at once
    client.post("/api/tables/t1/console", json={"action": "start", "seat": "N"}, headers=csrf)
    client.post("/api/tables/t1/console", json={"action": "call", "seat": "W", "call": "80h"}, headers=csrf)
    assert b"80h" in next(kept_stream) + next(kept_stream)     # the other token's stream goes on
    assert screen.get(f"/stream/t1?feed=venue&token={made['token']}").status_code == 403


def test_signing_out_closes_the_referee_streams_of_that_session(tmp_path):
    board = serve_board(tmp_path)
    client, csrf = signed_in(board)
    stream = _open_stream(client, "/stream/t1?feed=referee")
    client.post("/signout", data={"csrf": csrf["X-CSRF-Token"]})
    assert list(itertools.islice(stream, 5)) == []
