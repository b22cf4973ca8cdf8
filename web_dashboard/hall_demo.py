"""``belote-table hall demo`` (``make hall-demo``): a whole hall on one machine.

PostgreSQL and the hall's nats-server under ``--instance``, the hall's pages
on ``--port``, and ``--tables`` simulated tables, each a real
``belote-table demo --hall`` process (the project's simulated table through
the real pipeline, without camera) with its own nats-server leaf node. Two
teams a table are registered; the demo's organiser starts round 1 (pairings
at random), closes it when every match is over, starts round 2 (Swiss, no
rematch) and so on.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Callable

from .hall_server import HallServer, HallSettings
from .startup import SetupError, say

FIRST = ["Ana", "Bo", "Cy", "Di", "Eli", "Fa", "Gus", "Hana", "Ivo", "Jo", "Kim", "Lou", "Mo", "Nell", "Oda",
         "Pip", "Quin", "Rosa", "Sam", "Tess", "Ugo", "Vera", "Wim", "Xia", "Yann", "Zoe"]
LAST = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
        "Simon", "Laurent"]


def run_demo(args: Any) -> int:
    if args.tables < 1 or args.rounds < 1:
        raise SetupError("--tables and --rounds must be at least 1")
    marker = args.instance / ".hall-demo"
    if marker.exists():                      # a demo hall of an earlier run: start afresh
        shutil.rmtree(args.instance)
    elif args.instance.exists() and any(args.instance.iterdir()):
        raise SetupError(f"{args.instance} holds something that is not a demo hall: give another --instance")
    args.instance.mkdir(parents=True, exist_ok=True)
    marker.write_text("made by belote-table hall demo; removed at its next start\n")
    settings = HallSettings.from_args(args)
    server = HallServer(settings)

    def then(live: Any, dsn: str, leaf_url: str) -> list[Callable[[], None]]:
        from hall.db import HallDB
        from hall.desk import Desk
        from hall.matches import Format

        desk = Desk(HallDB(dsn), settings.event, scores=live.scores)
        t, version = desk.load()
        if not t.registry.teams:
            t.format = Format("deals", deals=args.deals)
            desk.db.save_tournament(settings.event, t.to_dict(), version, "hall demo", "format", None,
                                    t.format.to_dict())
            for i in range(args.tables * 2):
                a, b = FIRST[(2 * i) % len(FIRST)], FIRST[(2 * i + 1) % len(FIRST)]
                desk.act("add-team", {"team": f"T{i + 1:02d}", "player1": f"{a} {LAST[i % len(LAST)]}",
                                      "player2": f"{b} {LAST[(i + 5) % len(LAST)]}",
                                      "licence1": f"0{4120000 + i}" if i % 3 else None}, "hall demo")
        procs = [_start_table(args, leaf_url, f"t{n}") for n in range(1, args.tables + 1)]
        stop = threading.Event()
        threading.Thread(target=_organiser, args=(desk, live, args, stop), name="hall-demo-organiser",
                         daemon=True).start()
        say(f"hall demo: {args.tables} simulated tables (speed {args.speed:g}), {args.rounds} rounds "
            f"of {args.deals} deals")

        def stop_tables() -> None:
            stop.set()
            for proc in procs:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGINT)
            for proc in procs:
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        return [stop_tables]

    server.run(then)
    return 0


def _start_table(args: Any, leaf_url: str, table_id: str) -> subprocess.Popen:
    instance = args.instance / "tables" / table_id
    instance.mkdir(parents=True, exist_ok=True)
    log = open(instance / "table.log", "ab")
    proc = subprocess.Popen([sys.executable, "-m", "commands.main", "demo", "--no-camera", "--speed",
                             str(args.speed), "--port", "0", "--instance", str(instance), "--hall", leaf_url,
                             "--table-id", table_id], stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    log.close()
    return proc


def _organiser(desk: Any, live: Any, args: Any, stop: threading.Event) -> None:
    """The demo's organiser at the desk: each round started once the tables have joined, closed
    once every match is final."""
    from hall.tournament import DeskError

    while not stop.wait(1.0):
        t, _ = desk.load()
        joined = {table for table, _, _ in desk.db.boards()}
        if len(joined) < args.tables:
            continue
        current = t.current
        if current is None or current["status"] == "closed":
            if len(t.rounds) >= args.rounds:
                say(f"hall demo: {args.rounds} rounds played; the standings are final")
                return
            for table in sorted(joined, key=lambda x: int(x[1:])):
                desk.add_table(table, "hall demo")
            try:
                round_ = desk.act("start-round", {"shuffle_seed": len(t.rounds) + 1}, "hall demo").current
            except DeskError as exc:
                say(f"hall demo: {exc}")
                return
            say(f"hall demo: round {round_['number']} starts: " + ", ".join(
                f"{m['table']} {m['NS']}-{m['EW']}" for m in round_["tables"]))
            continue
        scores = live.scores(t)
        if all(scores.get((current["number"], m["table"])) and scores[(current["number"], m["table"])].final
               for m in current["tables"]):
            desk.act("close-round", {}, "hall demo")
            say(f"hall demo: round {current['number']} closed")
