"""Starting a hall: its engines, its ingest, its pages (``belote-table hall serve``).

Order matters for a hall that restarts in the middle of a tournament:
PostgreSQL first (the ingest's and the desk's ground), then the hall's
nats-server (its file store still holds what the tables sent while the hall
was down, and its sources resume by themselves), then the ingest, which takes
up its durable consumer where the last acked message left it, then the pages.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .startup import SetupError, say


@dataclass
class HallSettings:
    instance: Path = Path("var/hall")
    host: str = "127.0.0.1"
    port: int = 8080
    nats_port: int = 0
    leaf_host: str = "127.0.0.1"
    leaf_port: int = 7422
    db: Optional[str] = None
    event: str = "open"
    throttle: float = 0.5

    @classmethod
    def from_args(cls, args) -> "HallSettings":
        return cls(args.instance, args.host, args.port, args.nats_port, args.leaf_host, args.leaf_port, args.db,
                   args.event, args.throttle)


class HallServer:
    def __init__(self, settings: HallSettings):
        self.settings = settings
        self.stoppers: list[Callable[[], None]] = []

    def start_engines(self) -> tuple[str, "object"]:
        """PostgreSQL (unless ``--db``) and the hall's nats-server; returns the DSN and the server."""
        from hall.engines import EngineError, NatsServer, Postgres
        from hall.wire import HALL_DOMAIN

        s = self.settings
        s.instance.mkdir(parents=True, exist_ok=True)
        try:
            if s.db:
                dsn = s.db
            else:
                pg = Postgres(s.instance / "postgres").start()
                self.stoppers.insert(0, pg.stop)
                dsn = pg.dsn
                say(f"hall: PostgreSQL on {pg.host}:{pg.port} (data in {pg.data})")
            nats = NatsServer(s.instance / "nats", name="hall", domain=HALL_DOMAIN, port=s.nats_port,
                              leaf_port=s.leaf_port, leaf_host=s.leaf_host,
                              **_hall_timing()).start()
        except EngineError as exc:
            raise SetupError(str(exc)) from None
        self.stoppers.insert(0, nats.stop)
        say(f"hall: nats-server {nats.url}, JetStream under {s.instance / 'nats'}")
        return dsn, nats

    def run(self, then: Optional[Callable[..., list]] = None) -> None:
        """Serve until stopped. ``then(live, dsn, leaf_url)`` runs once the pages are up
        and returns more stoppers (the hall demo starts its tables there)."""
        from hall.ingest import Ingest

        from .accounts import Accounts
        from .board import Dashboard
        from .hall_app import create_hall_app
        from .hall_live import HallLive
        from .launch import Settings, first_run_password
        from .server import gevent_hub, serve

        s = self.settings
        try:
            dsn, nats = self.start_engines()
            hub = gevent_hub(broadcast_delay=0)
            live = HallLive(dsn, hub, s.event, throttle=s.throttle).start()
            self.stoppers.insert(0, live.stop)
            live.web_desk.create("hall", name=s.event)
            ingest = Ingest(nats.url, dsn, on_events=live.touched, say=say,
                            assignment=lambda table: live.tournament.assignment(table) if live.tournament else None)
            ingest.start()
            self.stoppers.insert(0, ingest.stop)
            if not ingest.ready.wait(120):
                raise SetupError(f"the hall's ingest did not start: {ingest.error!r}")
            accounts = Accounts(s.instance / "hall-web.sqlite")
            board = Dashboard(accounts=accounts, hub=hub, instance=s.instance, public=True)
            app = create_hall_app(board, live)
            leaf_host = s.leaf_host if s.leaf_host not in ("0.0.0.0", "::") else socket.gethostname()

            def ready(port: int) -> None:
                password = first_run_password(accounts, Settings(instance=s.instance))
                base = f"http://{s.host}:{port}"
                say(f"Hall: {base}/hall")
                say(f"Standings: {base}/standings/{s.event}   Results: {base}/results/{s.event}")
                say(f"Desk: {base}/desk  (user: referee, password: "
                    f"{password if password else 'the one chosen at first run'})")
                say(f"Tables join with: --hall {nats.leaf_url(leaf_host)} --table-id tN")
                if then is not None:
                    self.stoppers[:0] = then(live, dsn, nats.leaf_url(leaf_host))
                say("Stop with Ctrl-C.")

            serve(app, s.host, s.port, on_ready=ready)
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()

    def stop(self) -> None:
        for stop in self.stoppers:
            stop()
        self.stoppers = []


def _hall_timing() -> dict:
    from .hall_table import link_timing

    timing = link_timing()
    return {"ping_interval": timing["ping_interval"], "ping_max": timing["ping_max"]}
