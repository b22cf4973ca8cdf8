"""Every POST route of the dashboard against random and hostile bodies (issue 12):
no answer is a 5xx, a refused request changes nothing (the game's record, the
stored observations: a 400 stores nothing, a 409 only the refused observation),
and a restart afterwards resumes the very same game and serves.

The bodies come from ``bench/_hostile.py`` (seeded: a failure names its seed
and body); ``python -m bench hostile`` sends many more.
"""

from __future__ import annotations

import os
import random
import re
import time

import pytest

from bench._hostile import (CARD_BODIES, CONSOLE_BODIES, NEXT_GAME_BODIES, TOKEN_BODIES, form_body, json_body,
                            path_segment)
from web_boards import PASSWORD, serve_board, signed_in

#: Bodies per route in `make test`: 10,010 over the 7 routes (the bench sends 10,000 to each).
PER_ROUTE = int(os.environ.get("HOSTILE_BODIES", "1430"))


def _state(board):
    return [(t.id, t.game_id, t.record(), t.referee.store.counts()["accepted"] + t.referee.store.counts()["rejected"])
            for t in board.room]


def _play_a_little(client, csrf):
    """A hand under way: dealer, auction, contract, three cards, so that undo, fix, confirm... reach far."""
    for body in ({"action": "start", "seat": "N"}, {"action": "call", "seat": "W", "call": "80h"},
                 {"action": "call", "seat": "S", "call": "pass"}, {"action": "call", "seat": "E", "call": "pass"},
                 {"action": "call", "seat": "N", "call": "pass"}):
        assert client.post("/api/tables/t1/console", json=body, headers=csrf).status_code == 200
    for seat, card in (("W", "Jh"), ("S", "7h"), ("E", "8h")):
        assert client.post("/api/tables/t1/cards", json={"seat": seat, "card": card}, headers=csrf).status_code == 200


def _check(response, before, board, what):
    status = response.status_code
    assert status < 500, f"{what}: {status} {response.get_data()[:300]!r}"
    if status >= 400:
        after = _state(board)
        for (tid, game, record, stored), (_, game2, record2, stored2) in zip(before, after):
            assert (game2, record2) == (game, record), f"{what}: refused ({status}) but table {tid} changed"
            grew = stored2 - stored
            assert grew == 0 or (status == 409 and grew == 1), f"{what}: {status} stored {grew} observations"
    body = response.get_json(silent=True)
    if status >= 400 and response.mimetype == "application/json":
        assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"], what


@pytest.fixture
def fuzzed(tmp_path):
    board = serve_board(tmp_path, tables=2)
    client, csrf = signed_in(board)
    _play_a_little(client, csrf)
    for table in board.room:        # time stands still: a refused request may not be told apart from
        now = table.clock()         # time passing (a card on the table settles as a play after 1 s)
        table.clock = lambda now=now: now
    return board, client, csrf


ROUTES = {
    "console": lambda rng: ("/api/tables/t1/console", json_body(CONSOLE_BODIES, rng)),
    "cards": lambda rng: ("/api/tables/t1/cards", json_body(CARD_BODIES, rng)),
    "tokens": lambda rng: ("/api/tables/t1/tokens", json_body(TOKEN_BODIES, rng)),
    "revoke": lambda rng: (f"/api/tables/t1/tokens/{rng.choice(['1', '2', '999', path_segment(rng)])}/revoke",
                           json_body(TOKEN_BODIES, rng)),
    "next-game": lambda rng: ("/api/tables/t2/next-game", json_body(NEXT_GAME_BODIES, rng)),
    "any table": lambda rng: (f"/api/tables/{path_segment(rng)}/{rng.choice(['console', 'cards', 'tokens'])}",
                              json_body(CONSOLE_BODIES, rng)),
}


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_hostile_bodies_to_each_api_route_get_a_sentence_never_a_5xx(fuzzed, route):
    board, client, csrf = fuzzed
    rng = random.Random(f"{route}-12")
    started = time.monotonic()
    refused = 0
    for n in range(PER_ROUTE):
        path, (mimetype, data) = ROUTES[route](rng)
        before = _state(board)
        response = client.post(path, data=data, headers={**csrf, "Content-Type": mimetype})
        _check(response, before, board, f"{route} #{n} {path[:60]} {data[:120]!r}")
        refused += response.status_code >= 400
    assert refused > PER_ROUTE // 2                 # the bodies are mostly hostile: most are refused
    print(f"{route}: {PER_ROUTE} bodies, {refused} refused, {time.monotonic() - started:.1f} s")
    record = board.room.get("t1").record()
    for table in board.room:
        table.referee.close()
    again = serve_board(board.instance, tables=2)      # the restart resumes the same game, and serves
    assert again.room.get("t1").record() == record
    client, csrf = signed_in(again)
    assert client.post("/api/tables/t1/console", json={"action": "belote", "seat": "S"}, headers=csrf).status_code < 500


def test_hostile_sign_in_and_sign_out_forms_get_a_page_never_a_5xx(fuzzed):
    board, _, _ = fuzzed
    rng = random.Random("forms-12")
    client, csrf = signed_in(board)
    token = board.accounts.issue_token("table", "t1")

    def sign_in_again():                             # with the table's token: no password hashing
        assert client.get(f"/signin?token={token}").status_code == 302
        page = client.get("/console/t1").get_data(as_text=True)
        return {"X-CSRF-Token": re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)}

    for n in range(PER_ROUTE):
        fields = form_body({"csrf": csrf["X-CSRF-Token"], "password": "wrong", "token": ""}, rng)
        path = rng.choice(["/signin", "/signout", f"/signin?next={path_segment(rng)}"])
        before = _state(board)
        response = client.post(path, data=fields)
        _check(response, before, board, f"form #{n} {path[:60]} {fields!r:.200}")
        if path == "/signout" and response.status_code == 302:
            csrf = sign_in_again()                   # signed out (the fuzz sent the right CSRF token)
        if response.status_code == 429 and n % 500 == 0:   # locked out after 5 wrong passwords: another
            client.environ_base["REMOTE_ADDR"] = f"10.0.0.{n // 500}"   # address, now and then
    assert board.accounts.check_password(PASSWORD)
