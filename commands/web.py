"""``belote-table demo``, ``run`` and ``serve``: start tables and their dashboard.

- ``demo``: a simulated table through the real pipeline (virtual firmware over
  a pseudo-terminal into the bridge, rendered camera video into the vision
  pipeline), playing a seeded game with a few planted violations and faults,
  at human pace (``--speed`` to hurry it).
- ``run --profile DIR``: a real table from its calibrated profile.
- ``serve``: tables without sensors: the console alone keeps the scoresheet,
  the way most clubs start.

Nothing heavy is imported here: Flask, gevent and the sensors load in the
handlers, so ``belote-table referee ...`` stays quick.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from .arguments import port_number
from .output import say


def _web_options(parser: argparse.ArgumentParser, instance: str) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=8000,
                        help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--instance", type=Path, default=Path(instance),
                        help=f"folder for the dashboard's SQLite files and game stores (default {instance})")
    parser.add_argument("--broadcast-delay", type=float, default=30.0, metavar="SECONDS",
                        help="how late the broadcast feed (with the hands) runs (default 30)")
    parser.add_argument("--public", action="store_true",
                        help="open the venue and broadcast feeds without an overlay token")
    parser.add_argument("--hall", metavar="URL", help="also forward every event to a tournament hall: the URL "
                                                      "`belote-table hall serve` printed (nats-leaf://...)")
    parser.add_argument("--table-id", metavar="ID", help="this table's id in the hall (with --hall), e.g. t7")


def register(subparsers: argparse._SubParsersAction) -> None:
    demo = subparsers.add_parser("demo", help="a whole simulated table with its dashboard",
                                 description="Run a simulated table through the real pipeline and serve the "
                                             "dashboard until stopped.")
    _web_options(demo, "var/demo")
    demo.add_argument("--seed", type=int, default=1, help="which seeded game to play (default 1)")
    demo.add_argument("--rules", default="ffb-contree", help="rules profile (default ffb-contree)")
    demo.add_argument("--speed", type=float, default=1.0,
                      help="how much faster than human pace to play (default 1; 10 is brisk)")
    demo.add_argument("--no-camera", action="store_true",
                      help="leave the camera out (RFID and console only); it is left out anyway above --speed 4")
    demo.set_defaults(func=_demo, public=True)

    run = subparsers.add_parser("run", help="run a real table from its calibrated profile")
    _web_options(run, "var")
    run.add_argument("--profile", type=Path, required=True, help="the table profile folder (from `calibrate`)")
    run.add_argument("--serial", help="the table's serial port, any pyserial URL (default /dev/ttyACM0)")
    run.add_argument("--camera", help="camera index or video URL (default: none, RFID and console only)")
    run.add_argument("--rules", default="ffb-contree", help="rules profile (default ffb-contree)")
    run.add_argument("--seats", default="", help="players' names N,E,S,W (e.g. Ana,Bo,Cy,Di)")
    run.set_defaults(func=_run)

    serve = subparsers.add_parser("serve", help="tables without sensors: the console keeps the scoresheet")
    _web_options(serve, "var")
    serve.add_argument("--tables", type=int, default=1, help="how many tables (default 1)")
    serve.add_argument("--rules", default="ffb-contree", help="rules profile (default ffb-contree)")
    serve.add_argument("--seats", default="", help="players' names N,E,S,W for table 1 (e.g. Ana,Bo,Cy,Di)")
    serve.set_defaults(func=_serve)


def _settings(args: argparse.Namespace, demo: bool = False):
    from web_dashboard.launch import Settings

    return Settings(host=args.host, port=args.port, instance=args.instance,
                    broadcast_delay=args.broadcast_delay, public=args.public, demo_password=demo)


def _seats(text: str) -> dict:
    from web_dashboard.startup import SetupError

    names = [n.strip() for n in text.split(",")] if text else []
    if names and len(names) != 4:
        raise SetupError("--seats takes four names, N,E,S,W: e.g. --seats Ana,Bo,Cy,Di")
    return dict(zip("NESW", names))


def _start(args: argparse.Namespace, prepare: Callable[[], Callable], demo: bool = False) -> int:
    """Check the options (``prepare`` returns what adds the tables), then serve
    until stopped; a start-up problem is said on stderr and exits 2."""
    from web_dashboard.launch import launch
    from web_dashboard.startup import SetupError

    try:
        if args.hall and not args.table_id:
            raise SetupError("--hall needs --table-id ID: the table's name in the hall (t1, t2, ...)")
        add_tables = prepare()
        return launch(_settings(args, demo), add_tables)
    except SetupError as exc:
        say(str(exc))
        return 2


def _demo(args: argparse.Namespace) -> int:
    def prepare() -> Callable:
        from web_dashboard.demo_table import simulate_demo
        from web_dashboard.table_runner import demo_tables

        sim = simulate_demo(args.seed, args.rules, args.speed)
        return lambda board: demo_tables(board, args, sim)
    return _start(args, prepare, demo=True)


def _run(args: argparse.Namespace) -> int:
    def prepare() -> Callable:
        from web_dashboard.table_runner import real_table

        seats = _seats(args.seats)
        return lambda board: real_table(board, args, seats)
    return _start(args, prepare)


def _serve(args: argparse.Namespace) -> int:
    def prepare() -> Callable:
        from web_dashboard.table_runner import console_tables

        seats = _seats(args.seats)
        return lambda board: console_tables(board, args.tables, args.rules, seats, args)
    return _start(args, prepare)
