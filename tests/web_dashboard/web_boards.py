"""A dashboard as `belote-table serve` builds it, in this process: real SQLite
accounts and game stores under an instance folder, tables without sensors,
the hub on the calling thread. Building a second board on the same folder is
a restart."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from web_dashboard.accounts import Accounts
from web_dashboard.app import create_app
from web_dashboard.board import Dashboard
from web_dashboard.hub import Hub
from web_dashboard.table_runner import console_tables

PASSWORD = "correct horse"
SEATS = {"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"}


def serve_board(instance: Path, tables: int = 1, rules: str = "ffb-contree") -> Dashboard:
    """The board `serve --tables N --instance DIR` starts (or resumes), without its web server."""
    accounts = Accounts(instance / "dashboard.sqlite")
    if not accounts.has_password():
        accounts.set_password(PASSWORD)
    hub = Hub(call_soon_threadsafe=lambda fn: fn(), call_later=lambda s, fn: None,
              event_factory=threading.Event, broadcast_delay=0)
    board = Dashboard(accounts=accounts, hub=hub, instance=instance)
    console_tables(board, tables, rules, SEATS)
    return board


def signed_in(board: Dashboard):
    """A test client of the board's app, signed in with the password; returns it and its CSRF header."""
    client = create_app(board).test_client()
    page = client.get("/signin").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    response = client.post("/signin", data={"csrf": csrf, "password": PASSWORD, "next": "/console"})
    assert response.status_code == 302, response.get_data(as_text=True)
    page = client.get("/console/t1").get_data(as_text=True)
    return client, {"X-CSRF-Token": re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)}
