"""Shared pieces: a virtual table on a real pty, a bridge on it, and an event recorder."""

from __future__ import annotations

import threading
import time

import pytest

from firmware_bridge.bridge import Bridge
from firmware_bridge.session import LinkEvent, TagEvent
from firmware_bridge.avr_table import AvrTable, build
from firmware_bridge.virtual_table import VirtualTable


class Recorder:
    """Collects a bridge's events (from its thread) and lets a test wait for one."""

    def __init__(self):
        self.events: list = []
        self._cond = threading.Condition()

    def __call__(self, event) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def mark(self) -> int:
        with self._cond:
            return len(self.events)

    def wait_for(self, predicate, since: int = 0, timeout: float = 4.0):
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for event in self.events[since:]:
                    if predicate(event):
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching event within {timeout} s; got {self.events[since:]!r}")
                self._cond.wait(left)

    def link(self, state: str, since: int = 0, timeout: float = 4.0) -> LinkEvent:
        return self.wait_for(lambda e: isinstance(e, LinkEvent) and e.state == state, since, timeout)

    def tag(self, uid: str, antenna: int, present: bool, since: int = 0, timeout: float = 4.0) -> TagEvent:
        return self.wait_for(lambda e: isinstance(e, TagEvent) and e.uid == uid and e.antenna == antenna
                             and e.present == present, since, timeout)

    def of(self, kind, since: int = 0) -> list:
        with self._cond:
            return [e for e in self.events[since:] if isinstance(e, kind)]


def believed(bridge: Bridge) -> dict:
    """uid -> antenna, as the host believes the table is."""
    return {uid: antenna for antenna, held in bridge.session.antennas.items() for uid in held}


def settle(table: VirtualTable, bridge: Bridge, timeout: float = 4.0) -> None:
    """Wait until the host's belief equals the table's physical state and nothing is uncertain."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if believed(bridge) == table.snapshot() and not bridge.session.uncertain and bridge.session.up:
            return
        time.sleep(0.02)
    raise AssertionError(f"host believes {believed(bridge)} (uncertain={bridge.session.uncertain}), "
                         f"table holds {table.snapshot()}")


@pytest.fixture
def table():
    vt = VirtualTable(hb_s=0.1, snap_s=30.0)
    vt.start()
    yield vt
    vt.stop()


@pytest.fixture(scope="session")
def mega_build():
    """The firmware ELF and mega2560-sim, built once (make, incremental) into build/firmware."""
    return build()


@pytest.fixture(params=["python-model", "mega2560-sim"])
def any_table(request):
    """The same table played by the Python model, then by the real firmware on the simulated Mega."""
    if request.param == "python-model":
        board = VirtualTable(hb_s=0.1, snap_s=30.0)
    else:
        board = AvrTable(build_dir=request.getfixturevalue("mega_build"))
    board.start()
    yield board
    board.stop()


@pytest.fixture
def table_map(table):
    return table.table_map()


@pytest.fixture
def linked(table, table_map):
    """A bridge on the virtual table, connected; yields (bridge, recorder)."""
    recorder = Recorder()
    bridge = Bridge(table.path, table_map, silence_s=1.0, backoff_s=(0.05, 0.4)).start(recorder)
    recorder.link("connected")
    yield bridge, recorder
    bridge.stop()
