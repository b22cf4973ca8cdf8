"""``belote-table hall ...``: the tournament hall (NATS JetStream + PostgreSQL).

- ``hall serve --instance DIR``: starts (or, with ``--db``, connects to)
  PostgreSQL and the hall's nats-server under DIR, the ingest, and the hall's
  pages; prints the URL tables join with (``--hall URL --table-id ID`` on
  ``demo``, ``serve``, ``run``).
- ``hall export --instance DIR --table ID``: the hall's copy of a table's
  events, JSON Lines in sequence order, to compare with the table's own
  ``referee export``.
- ``hall demo --instance DIR``: a hall of simulated tables playing two rounds.

Heavy modules load in the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .arguments import port_number


def register(subparsers: argparse._SubParsersAction) -> None:
    hall = subparsers.add_parser("hall", help="a tournament hall: every table live, pairings, standings",
                                 description="Run a tournament hall (NATS JetStream + PostgreSQL).")
    sub = hall.add_subparsers(dest="hall_command", metavar="COMMAND", required=True)

    serve = sub.add_parser("serve", help="the hall's engines, ingest and pages")
    _serve_options(serve)
    serve.set_defaults(func=_serve)

    export = sub.add_parser("export", help="the hall's copy of one table's events (JSON Lines, by sequence)")
    export.add_argument("--instance", type=Path, default=Path("var/hall"), help="the hall's folder (default var/hall)")
    export.add_argument("--db", metavar="URL", help="the hall's PostgreSQL (default: the one under --instance)")
    export.add_argument("--table", required=True, help="the table id (t7)")
    export.add_argument("--game", type=int, help="only this game of the table (its number, 1 first)")
    export.add_argument("--envelope", action="store_true", help="each line with its seq, game and line number")
    export.set_defaults(func=_export)

    demo = sub.add_parser("demo", help="a hall of simulated tables playing two rounds")
    _serve_options(demo, instance="var/hall-demo")
    demo.add_argument("--tables", type=int, default=12, help="simulated tables (default 12)")
    demo.add_argument("--rounds", type=int, default=2, help="rounds to play (default 2)")
    demo.add_argument("--deals", type=int, default=2, help="deals a round (default 2)")
    demo.add_argument("--speed", type=float, default=20.0, help="how much faster than human pace (default 20)")
    demo.set_defaults(func=_demo)


def _serve_options(parser: argparse.ArgumentParser, instance: str = "var/hall") -> None:
    parser.add_argument("--instance", type=Path, default=Path(instance),
                        help=f"the hall's folder: PostgreSQL, nats-server, sign-in (default {instance})")
    parser.add_argument("--host", default="127.0.0.1", help="address of the pages (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=8080, help="port of the pages (default 8080; 0 picks one)")
    parser.add_argument("--nats-port", type=port_number, default=0, help="the hall's nats-server client port (default: free)")
    parser.add_argument("--leaf-host", default="127.0.0.1",
                        help="address the tables dial (default 127.0.0.1; the hall's LAN address in a real hall)")
    parser.add_argument("--leaf-port", type=port_number, default=7422, help="port the tables dial (default 7422)")
    parser.add_argument("--db", metavar="URL", help="an existing PostgreSQL (default: one started under --instance)")
    parser.add_argument("--event", default="open", help="the tournament's short name, in its addresses (default open)")
    parser.add_argument("--throttle", type=float, default=0.5,
                        help="seconds between two updates of the hall view (default 0.5)")


def _serve(args: argparse.Namespace) -> int:
    from web_dashboard.hall_server import HallServer, HallSettings
    from web_dashboard.startup import SetupError, say

    try:
        HallServer(HallSettings.from_args(args)).run()
    except SetupError as exc:
        say(str(exc))
        return 2
    return 0


def _demo(args: argparse.Namespace) -> int:
    from web_dashboard.hall_demo import run_demo
    from web_dashboard.startup import SetupError, say

    try:
        return run_demo(args)
    except SetupError as exc:
        say(str(exc))
        return 2


def _export(args: argparse.Namespace) -> int:
    from hall.db import HallDB
    from hall.engines import EngineError, Postgres
    from hall.wire import WireError, check_table_id

    try:
        check_table_id(args.table)
    except WireError as exc:
        print(f"--table: {exc}", file=sys.stderr)
        return 2
    started = None
    dsn = args.db
    if dsn is None:
        pg = Postgres(args.instance / "postgres")
        if not (pg.data / "PG_VERSION").exists():
            print(f"no hall under {args.instance}: give the hall's --instance (or --db URL)", file=sys.stderr)
            return 2
        dsn = pg.dsn
        try:
            db = HallDB(dsn, timeout=1)
        except Exception:                   # the hall is not running: start its database for the export
            try:
                started = pg.start()
            except EngineError as exc:
                print(str(exc), file=sys.stderr)
                return 2
            db = HallDB(dsn)
    else:
        db = HallDB(dsn)
    try:
        rows = db.events(args.table)
        if not rows:
            print(f"the hall holds no event of table {args.table!r}", file=sys.stderr)
        for seq, game, n, event in rows:
            if args.game is not None and game != args.game:
                continue
            if args.envelope:
                print(json.dumps({"seq": seq, "game": game, "n": n, "event": json.loads(event)},
                                 separators=(",", ":")))
            else:
                print(event)
    finally:
        db.close()
        if started is not None:
            started.stop()
    return 0
