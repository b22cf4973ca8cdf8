"""The tables the dashboard serves, each a table referee behind a lock.

Sensors (a serial thread, a camera thread) and the console (web requests)
all change a table; the lock makes each change whole, and after each one the
table's new state goes to the hub, which fans it out to the feeds. The table
referee itself stays pure: no thread and no clock inside it.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Optional

from .state import dashboard_state


class LiveTable:
    """One table: its referee, its lock, and where its state goes."""

    def __init__(self, table_id: str, name: str, referee: Any,
                 publish: Callable[[str, dict], None], meta: Optional[dict] = None,
                 clock: Optional[Callable[[], float]] = None):
        self.id = table_id
        self.name = name
        self.referee = referee
        self.meta = dict(meta or {})
        self._publish = publish
        self._lock = threading.RLock()
        start = time.monotonic()
        #: seconds since the table started: the ``t`` of what the console enters
        self.clock = clock or (lambda: round(time.monotonic() - start, 3))

    def state(self) -> dict:
        with self._lock:
            return dashboard_state(self.id, self.name, self.referee, self.meta)

    def change(self, fn: Callable[[Any], Any]) -> Any:
        """Run ``fn(referee)`` as one change, then publish the new state."""
        with self._lock:
            result = fn(self.referee)
            state = dashboard_state(self.id, self.name, self.referee, self.meta)
        self._publish(self.id, state)
        return result

    def ingest(self, observation: Any) -> Any:
        return self.change(lambda referee: referee.ingest(observation))

    def publish(self) -> None:
        self._publish(self.id, self.state())


class Room:
    """Every table of the event, in the order they were added."""

    def __init__(self) -> None:
        self.tables: dict[str, LiveTable] = {}

    def add(self, table: LiveTable) -> LiveTable:
        self.tables[table.id] = table
        table.publish()
        return table

    def get(self, table_id: str) -> Optional[LiveTable]:
        return self.tables.get(table_id)

    def __iter__(self):
        return iter(self.tables.values())
