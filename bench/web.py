"""The dashboard under load: 200 stream clients on loopback.

Starts the real server (``belote-table serve``, gevent) on a free loopback
port, opens N Server-Sent Events streams on one table's venue feed, then
enters game events at the console API (a call, then its undo) and times each
one from the moment it is sent to its arrival at *every* client. Prints the
median, p99 and worst delivery, the server's memory before and with the
clients, and ends the server. Bounded: a fixed number of events and a
deadline on everything.

    python -m bench web            # or: make bench
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

from bench._serving import start_server, stop_server

CLIENTS = 200
EVENTS = 40
TARGET_P99_MS = 100.0


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _start(instance: Path) -> tuple[subprocess.Popen, str, str]:
    proc, base, found = start_server(instance, ["--public", "--seats", "Ana,Bo,Cy,Di"],
                                     {"password": r"password: ([^) ]+)\)"})
    return proc, base, found["password"]


class Console:
    """The referee's session: sign in, then POST actions with the CSRF token."""

    def __init__(self, base: str, password: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        page = self.opener.open(f"{base}/signin").read().decode()
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"csrf": csrf, "password": password, "next": "/console"}).encode()
        page = self.opener.open(f"{base}/signin", data=data).read().decode()
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)

    def act(self, body: dict) -> None:
        req = urllib.request.Request(f"{self.base}/api/tables/t1/console", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        self.opener.open(req, timeout=10).read()


class Listener(threading.Thread):
    """One stream client: records when each change id arrives."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.arrivals: dict[str, float] = {}
        self.connected = threading.Event()
        self.response = None

    def run(self) -> None:
        try:
            self.response = urllib.request.urlopen(self.url, timeout=60)
            self.connected.set()
            event_id = ""
            for raw in self.response:
                if raw.startswith(b"id: "):
                    event_id = raw[4:].strip().decode()
                elif raw.startswith(b"event: change"):
                    self.arrivals[event_id] = time.perf_counter()
        except (OSError, ValueError):
            self.connected.set()


def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, password = _start(Path(tmp))
        try:
            console = Console(base, password)
            console.act({"action": "start", "seat": "N"})
            rss_idle = _rss_mib(proc.pid)
            listeners = [Listener(f"{base}/stream/t1?feed=venue") for _ in range(CLIENTS)]
            for listener in listeners:
                listener.start()
            for listener in listeners:
                listener.connected.wait(30)
            connected = sum(1 for l in listeners if l.response is not None)
            time.sleep(1.0)
            rss_clients = _rss_mib(proc.pid)
            sent: list[float] = []
            for n in range(EVENTS):
                before = {id(l): set(l.arrivals) for l in listeners}
                t0 = time.perf_counter()
                console.act({"action": "call", "seat": "W", "call": "pass"} if n % 2 == 0 else {"action": "undo"})
                sent.append(t0)
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline and not all(len(l.arrivals) > len(before[id(l)]) for l in listeners
                                                               if l.response is not None):
                    time.sleep(0.002)
                time.sleep(0.05)
            delays_ms: list[float] = []
            per_event_worst: list[float] = []
            ids = sorted({i for l in listeners for i in l.arrivals}, key=lambda s: int(s.rsplit("-", 1)[1]))
            missing = 0
            for event_id, t0 in zip(ids[-EVENTS:], sent):
                arrivals = [l.arrivals.get(event_id) for l in listeners if l.response is not None]
                missing += sum(a is None for a in arrivals)
                got = [(a - t0) * 1000 for a in arrivals if a is not None]
                delays_ms += got
                per_event_worst.append(max(got) if got else float("nan"))
            delays_ms.sort()
            p99 = delays_ms[int(0.99 * (len(delays_ms) - 1))] if delays_ms else float("nan")
            print(f"clients connected           {connected}/{CLIENTS}")
            print(f"events                      {len(per_event_worst)} (deliveries {len(delays_ms)}, missing {missing})")
            print(f"event -> client  median     {statistics.median(delays_ms):7.1f} ms")
            print(f"event -> client  p99        {p99:7.1f} ms   (target < {TARGET_P99_MS:.0f} ms: "
                  f"{'met' if p99 < TARGET_P99_MS else 'NOT met'})")
            print(f"event -> last client median {statistics.median(per_event_worst):7.1f} ms")
            print(f"event -> client  worst      {delays_ms[-1]:7.1f} ms")
            print(f"server memory               {rss_idle:7.1f} MiB idle, {rss_clients:7.1f} MiB with "
                  f"{connected} streams ({(rss_clients - rss_idle) * 1024 / max(connected, 1):.0f} KiB per stream)")
        finally:
            stop_server(proc)


if __name__ == "__main__":
    run()
