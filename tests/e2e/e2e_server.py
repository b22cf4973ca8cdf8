"""The real server as a subprocess on a free loopback port, and what the
end-to-end tests use to talk to it: raw streams, signed-in sessions, requests.
(A module of its own, not conftest.py: another test folder's conftest could
shadow the name.)"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Server:
    proc: subprocess.Popen
    base: str = ""
    password: str = ""
    lines: list = field(default_factory=list)
    links: dict = field(default_factory=dict)     # table id -> {"signin": url, "overlay": url}

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_server(args: list[str], instance: Path, timeout: float = 60.0, files: int | None = None) -> Server:
    """Run ``belote-table ARGS --port 0`` and wait for its banner on stderr; ``files`` limits its
    open files (soft and hard), as a host with the usual limit of 1,024 would."""
    import resource

    cmd = [sys.executable, "-m", "commands.main", *args, "--port", "0", "--instance", str(instance)]
    limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))) if files else None
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=limit)
    server = Server(proc)
    ready = threading.Event()

    def read() -> None:
        table = None
        for line in proc.stderr:
            server.lines.append(line)
            if m := re.search(r"Dashboard: (http://[^/]+)/club", line):
                server.base = m.group(1)
            if m := re.search(r"password: ([^) ]+)\)", line):
                server.password = m.group(1)
            if m := re.search(r"/table/(\w+) .*?console sign-in link (\S+)", line):
                table = m.group(1)
                server.links[table] = {"signin": m.group(2)}
            if (m := re.search(r"overlay for OBS .*: (\S+)", line)) and table:
                server.links[table]["overlay"] = m.group(1)
            if "Stop with Ctrl-C" in line:
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not ready.wait(0.1):
        if proc.poll() is not None or time.monotonic() > deadline:
            server.stop()
            raise RuntimeError("the server did not start:\n" + "".join(server.lines))
    return server


def request(url: str, data: dict | None = None, headers: dict | None = None, method: str | None = None):
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, method=method or ("POST" if body is not None else "GET"),
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        text = exc.read()
        try:
            return exc.code, json.loads(text)
        except ValueError:
            return exc.code, {"text": text.decode(errors="replace")}


class SSE:
    """A raw Server-Sent Events reader in a thread: every message as received."""

    def __init__(self, url: str, headers: dict | None = None):
        self.raw: list[str] = []
        self.messages: list[tuple[float, str, str, dict]] = []   # (arrival, id, event, data)
        self.state: dict = {}
        self._response = urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        block: list[str] = []
        try:
            for raw in self._response:
                line = raw.decode()
                self.raw.append(line)
                if line.strip():
                    block.append(line.rstrip("\n"))
                    continue
                fields = dict(b.split(": ", 1) for b in block if not b.startswith(":") and ": " in b)
                block = []
                if "data" in fields:
                    data = json.loads(fields["data"])
                    if fields.get("event") == "snapshot":
                        self.state = data
                    else:
                        self.state = {**self.state, **data.get("set", {})}
                        for key in data.get("del", []):
                            self.state.pop(key, None)
                    self.messages.append((time.monotonic(), fields.get("id", ""), fields.get("event", ""), data))
        except (OSError, ValueError, AttributeError):    # closed by the test (http.client drops its fp)
            pass

    def wait_for(self, predicate, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.messages and predicate(self.state):
                return self.state
            time.sleep(0.02)
        raise AssertionError(f"the stream never showed what was expected; last state: {json.dumps(self.state)[:600]}")

    def close(self) -> None:
        try:
            self._response.close()
        except OSError:
            pass


def referee_stream(server) -> SSE:
    """The referee feed, through the per-table sign-in link the server printed."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(server.links["t1"]["signin"]).read()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return SSE(f"{server.base}/stream/t1?feed=referee", headers={"Cookie": cookie})


def referee_session(server):
    """A signed-in client without a browser: its opener (with the cookie) and its CSRF token."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    page = opener.open(f"{server.base}/signin").read().decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    page = opener.open(f"{server.base}/signin", data=urllib.parse.urlencode(
        {"csrf": csrf, "password": server.password}).encode()).read().decode()
    return opener, re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def signed_in_console(browser, server, lang="en"):
    """A browser page on the console, signed in with the server's password; page errors collected."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base}/console?lang={lang}")
    assert "/signin" in page.url
    page.fill("#password", server.password)
    page.click("#signin")
    page.wait_for_url(re.compile(r"/console"))
    return context, page, errors


def command(page, text: str) -> None:
    """Type a console command and wait until the console has taken it."""
    from playwright.sync_api import expect

    page.fill("#cmd", text)
    page.press("#cmd", "Enter")
    expect(page.locator("#cmd")).to_have_value("")
