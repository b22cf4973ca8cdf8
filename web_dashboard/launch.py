"""Starting a dashboard: the instance folder, the referee's sign-in, the web
server, and what to tell the person who started it (on stderr).

``demo``, ``run`` and ``serve`` all go through :func:`launch`; they differ
only in the tables they add and the sensors they start (``table_runner``).
"""

from __future__ import annotations

import getpass
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .accounts import Accounts
from .analyst import Analyst
from .app import create_app
from .board import Dashboard
from .overlay_desk import publish_looks
from .scoresheets import finished_games
from .server import gevent_hub, serve
from .startup import say

@dataclass
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    instance: Path = Path("var")
    broadcast_delay: float = 30.0
    public: bool = False
    demo_password: bool = False       # a fresh password printed each start (the demo)


def first_run_password(accounts: Accounts, settings: Settings) -> Optional[str]:
    """The password to print, if one was just made. At a terminal the referee
    chooses it on first run; elsewhere (a service) one is made and printed once."""
    if settings.demo_password:
        password = secrets.token_urlsafe(9)
        accounts.set_password(password)
        return password
    if accounts.has_password():
        return None
    if sys.stdin.isatty():
        while True:
            password = getpass.getpass("Choose the referee's console password (8+ characters): ")
            if getpass.getpass("Type it again: ") != password:
                say("The two passwords differ; try again.")
                continue
            try:
                accounts.set_password(password)
                return None
            except ValueError as exc:
                say(str(exc))
    password = secrets.token_urlsafe(9)
    accounts.set_password(password)
    return password


def _feed_token(accounts: Accounts, settings: Settings, table_id: str, feed: str) -> str:
    """``&token=...`` opening ``feed`` of the table, for the links printed at start
    (the table screen and the overlays); nothing when the feeds are public."""
    if settings.public:
        return ""
    return "&token=" + accounts.issue_token("overlay", table_id, feed, label="printed at start")


def launch(settings: Settings, add_tables: Callable[..., list]) -> int:
    """Build the dashboard, add its tables (``add_tables(board)`` returns the
    started sensor handles to stop at the end), print where to go, serve."""
    accounts = Accounts(settings.instance / "dashboard.sqlite")
    board = Dashboard(accounts=accounts, hub=gevent_hub(broadcast_delay=settings.broadcast_delay),
                      instance=settings.instance, public=settings.public)
    board.games.mkdir(parents=True, exist_ok=True)
    app = create_app(board)
    stop_analysis = Analyst(board.room, board.hub).start()      # before the tables: it hears their first state
    stoppers = add_tables(board) + [board.room.start_clock(), stop_analysis]
    publish_looks(board)
    board.hub.finished = [g for g in finished_games(board.games, {t.game_id for t in board.room}) if not g.get("error")]

    def ready(port: int) -> None:
        # Only now, with the tables up and the port taken: a password made by a
        # start that then failed would never have been shown to anyone.
        password = first_run_password(accounts, settings)
        base = f"http://{settings.host}:{port}"
        say(f"Dashboard: {base}/club")
        say(f"Console:   {base}/console  (user: referee, password: "
            f"{password if password else 'the one chosen at first run'})")
        for table in board.room:
            token = accounts.issue_token("table", table.id, label="printed at start")
            venue = _feed_token(accounts, settings, table.id, "venue")
            say(f"  {table.name}: {base}/table/{table.id}{venue.replace('&', '?', 1)}  ·  "
                f"console sign-in link {base}/signin?token={token}")
            say(f"  venue overlay (live, no hands): {base}/overlay/{table.id}?feed=venue{venue}")
            say(f"  overlay for OBS ({settings.broadcast_delay:g} s delay): {base}/overlay/{table.id}"
                f"?feed=broadcast{_feed_token(accounts, settings, table.id, 'broadcast')}")
        say("Stop with Ctrl-C.")

    try:
        serve(app, settings.host, settings.port, on_ready=ready)
    except KeyboardInterrupt:
        pass
    finally:
        for stop in stoppers:
            stop()
    return 0
