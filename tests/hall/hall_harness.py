"""The real engines for the hall's fault tests, started and stopped by the
tests on loopback under a temporary folder: PostgreSQL, the hall (``belote-table
hall serve`` as a subprocess: its nats-server, ingest and pages), boards (each
its own nats-server, a leaf node of the hall's, and the real table link
publishing a real SQLite game store), and socat between the boards and the
hall to cut the link. (A module of its own, not conftest.py, like
``tests/e2e/e2e_server.py``.)

Time-outs are shortened (a dead link noticed in 2 s, redialled every 0.5 s)
through the same settings a real board reads (``BELOTE_HALL_PING`` ...).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Callable, Optional

from hall.db import HallDB
from hall.engines import NatsServer, Postgres, free_port
from hall.publisher import TableLink, board_id
from hall.wire import board_domain
from referee.simulate import simulate
from referee.store import EventStore, StoredReferee

ROOT = Path(__file__).resolve().parents[2]
#: A dead link noticed within 2 s, a board redialling every 0.5 s, a table joining within 2 s.
FAST = {"BELOTE_HALL_PING": "1", "BELOTE_HALL_PING_MAX": "2", "BELOTE_HALL_RECONNECT": "0.5",
        "BELOTE_HALL_JOIN_WAIT": "3"}


def engine_root() -> Path:
    """A folder PostgreSQL's own user can reach (pytest's tmp_path is private to root)."""
    root = Path(tempfile.mkdtemp(prefix="belote-hall-test-"))
    root.chmod(0o755)
    return root


class Proxy:
    """socat between the boards and the hall: ``cut()`` kills it with every
    connection it carries (the hall's Wi-Fi gone), ``restore()`` brings it back."""

    def __init__(self, target_port: int):
        self.port = free_port()
        self.target = target_port
        self.proc: Optional[subprocess.Popen] = None
        self.restore()

    def restore(self) -> None:
        self.proc = subprocess.Popen(["socat", f"TCP-LISTEN:{self.port},bind=127.0.0.1,reuseaddr,fork",
                                      f"TCP:127.0.0.1:{self.target}"], start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 5
        import socket
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)

    def cut(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


class HallProcess:
    """``belote-table hall serve`` as a subprocess, its banner read from stderr."""

    def __init__(self, root: Path, dsn: str, env: Optional[dict] = None, throttle: float = 0.2):
        self.root, self.dsn, self.throttle = root, dsn, throttle
        self.nats_port, self.leaf_port = free_port(), free_port()
        self.env = env or {}
        self.lines: list[str] = []
        self.proc: Optional[subprocess.Popen] = None
        self.base = self.leaf_url = ""

    def start(self, timeout: float = 90.0) -> "HallProcess":
        cmd = [sys.executable, "-m", "commands.main", "hall", "serve", "--instance", str(self.root),
               "--port", "0", "--nats-port", str(self.nats_port), "--leaf-port", str(self.leaf_port),
               "--db", self.dsn, "--throttle", str(self.throttle)]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, **FAST, "PYTHONUNBUFFERED": "1", **self.env})
        ready = threading.Event()

        def read() -> None:
            for line in self.proc.stderr:
                self.lines.append(line)
                if m := re.search(r"Hall: (http://\S+)/hall", line):
                    self.base = m.group(1)
                if m := re.search(r"--hall (\S+)", line):
                    self.leaf_url = m.group(1)
                if "Stop with Ctrl-C" in line:
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the hall did not start:\n" + "".join(self.lines))
        return self

    def url_via(self, proxy: Proxy) -> str:
        """The URL the hall printed, through the proxy."""
        return re.sub(r":\d+$", f":{proxy.port}", self.leaf_url)

    def crash(self) -> None:
        """The hall machine goes down: the serve process and its nats-server, both killed."""
        self.proc.kill()
        self.proc.wait()
        pid = int((self.root / "nats" / "nats.pid").read_text())
        os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        pid_file = self.root / "nats" / "nats.pid"
        if pid_file.exists():
            try:
                os.kill(int(pid_file.read_text()), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass

    def hall_view(self) -> dict:
        """The first message of ``/stream/hall``; ``tables`` lists every table's line."""
        with urllib.request.urlopen(self.base + "/stream/hall", timeout=10) as response:
            for raw in response:
                line = raw.decode()
                if line.startswith("data: "):
                    view = json.loads(line[6:])
                    view["tables"] = [view[f"table:{t}"] for t in view["order"]]
                    return view
        return {}


class Board:
    """A table board in this process: its own nats-server (a leaf of the hall), a
    SQLite game store written as the project's simulated table plays, and the
    real link. ``play(k)`` stores the next ``k`` events of the simulated game."""

    def __init__(self, root: Path, table_id: str, hall_url: str, seed: int = 1, hands: int = 6,
                 clock: Callable[[], float] = time.time, start: bool = True):
        self.root, self.table_id, self.hall_url, self.clock = Path(root), table_id, hall_url, clock
        self.games = self.root / "games"
        self.games.mkdir(parents=True, exist_ok=True)
        self.seed, self.hands, self.game, self.played = seed, hands, 1, 0
        self.record = simulate(hands=hands, seed=seed).record
        self.referee = StoredReferee(self.games / f"{table_id}-1.sqlite", header=self.record[0])
        self.done = 1 + len(self.referee.events)
        self.stored = self.done                               # lines stored over all games: the last seq
        self.nats: Optional[NatsServer] = None
        self.link: Optional[TableLink] = None
        if start:
            self.start()

    def start(self) -> "Board":
        me = board_id(self.root)
        self.nats = NatsServer(self.root / "nats", f"board-{me}", board_domain(me), leaf_remote=self.hall_url,
                               sync_always=True, ping_interval=1, ping_max=2, reconnect=0.5).start()
        self.link = TableLink(self.table_id, me, self.nats.url,
                              stores=lambda: sorted(self.games.glob(f"{self.table_id}-*.sqlite"),
                                                    key=lambda p: int(p.stem.rsplit("-", 1)[1])),
                              clock=self.clock, beat=0.5).start()
        self.link.wait_started()
        return self

    def play(self, k: int) -> int:
        """Store the next ``k`` events; a game that ends is followed by the next one at this
        table (a new store, as the table's runner does). Returns ``k``."""
        for _ in range(k):
            if self.done >= len(self.record):
                self._next_game()
            self.referee.load_events([self.record[self.done]])
            self.done += 1
            self.stored += 1
        self.played += k
        return k

    def _next_game(self) -> None:
        self.referee.close()
        self.game += 1
        self.record = simulate(hands=self.hands, seed=self.seed * 1000 + self.game).record
        self.referee = StoredReferee(self.games / f"{self.table_id}-{self.game}.sqlite", header=self.record[0])
        self.done = 1
        self.stored += 1                                      # the new game's header is an event too

    def own(self) -> list[dict]:
        """The table's own record: every game store's, in order (what ``referee export`` gives)."""
        out = []
        for path in sorted(self.games.glob(f"{self.table_id}-*.sqlite"), key=lambda p: int(p.stem.rsplit("-", 1)[1])):
            store = EventStore(path)
            out += store.export_record()
            store.close()
        return out

    def stop(self) -> None:
        if self.link:
            self.link.stop()
        if self.nats:
            self.nats.stop()
        self.referee.close()


def hall_copy(dsn: str, table_id: str) -> list[dict]:
    db = HallDB(dsn)
    try:
        return [json.loads(event) for _, _, _, event in db.events(table_id)]
    finally:
        db.close()


def wait_equal(dsn: str, boards: list, timeout: float = 60.0) -> float:
    """Wait until the hall's copy of every board equals the board's own store,
    event for event; returns the seconds it took."""
    start = time.monotonic()
    db = HallDB(dsn)
    try:
        expected = {b.table_id: len(b.own()) for b in boards}
        while True:
            counts = db.counts()
            pending = [b for b in boards if counts.get(b.table_id, 0) != expected[b.table_id]]
            if not pending:
                expected = {b.table_id: len(b.own()) for b in boards}       # a board still playing: again
                if all(counts.get(t, 0) == n for t, n in expected.items()):
                    break
                continue
            if time.monotonic() - start > timeout:
                raise AssertionError(f"the hall is still behind after {timeout:g} s on "
                                     f"{[(b.table_id, counts.get(b.table_id, 0), expected[b.table_id]) for b in pending][:5]}")
            time.sleep(0.1)
    finally:
        db.close()
    took = time.monotonic() - start
    for board in boards:
        assert hall_copy(dsn, board.table_id) == board.own(), f"{board.table_id}: the hall's copy differs"
    return took


def new_database(pg: Postgres, name: str) -> str:
    """A fresh database on the tests' PostgreSQL; its DSN."""
    import psycopg

    with psycopg.connect(pg.dsn.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return pg.dsn.rsplit("/", 1)[0] + "/" + name


def stop_engines_under(root: Path) -> None:
    """SIGKILL every process started with a path under ``root`` (nats-servers, table commands),
    found by their command line: what a failed test left running."""
    mine = str(root)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if mine in cmdline:
            try:
                os.kill(int(proc.name), signal.SIGKILL)
            except ProcessLookupError:
                pass
