"""The engines the hall's tests share: one PostgreSQL for the session (each
test gets a database of its own), and a temporary root PostgreSQL's user can
reach; every process is stopped at the end."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hall_harness import HallProcess, Proxy, engine_root, new_database, stop_engines_under  # noqa: E402

from hall.engines import Postgres  # noqa: E402


@pytest.fixture(scope="session")
def engines_root():
    root = engine_root()
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg(engines_root):
    server = Postgres(engines_root / "postgres").start()
    yield server
    server.stop()


@pytest.fixture
def workdir(engines_root, request):
    """The test's folder; every nats-server started under it is stopped at the end,
    whatever happened (a failed test leaves no engine running)."""
    path = engines_root / request.node.name[:60]
    path.mkdir()
    yield path
    stop_engines_under(path)


@pytest.fixture
def hall(pg, workdir, request):
    """A hall on a fresh database, its boards dialling it through socat (``hall.proxy``)."""
    dsn = new_database(pg, "h_" + str(abs(hash(request.node.nodeid)) % 10**8))
    server = HallProcess(workdir / "hall", dsn).start()
    server.proxy = Proxy(server.leaf_port)
    yield server
    server.proxy.cut()
    server.stop()
