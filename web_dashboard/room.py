"""The tables the dashboard serves, each a table referee behind a lock.

Sensors (a serial thread, a camera thread) and the console (web requests)
all change a table; the lock makes each change whole, and after each one the
table's new state goes to the hub, which fans it out to the feeds. The table
referee itself stays pure: no thread and no clock inside it.

That purity has one consequence here: the referee decides that a card has
settled, or that a trick was picked up, only when an observation tells it
the time. A quiet table (the last card of a hand entered at the console, a
pause in the sensors' reports) would leave those decisions hanging, so while
a hand is being played the table sends its referee a clock observation
(``SensorState(source="console", state="connected", detail="clock")``) every
half second. It is stored like any other observation, so a replay after a
crash takes the same decisions.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

from referee.json_text import JSONTextError, loads
from referee.observations import ConsoleAction, SensorState
from referee.seats import SEAT_NAMES

from .state import dashboard_state

#: Seconds between clock observations while a hand is played.
TICK = 0.5
#: Keep ticking this long after the last observation (the referee's longest wait is 8 s).
TICK_FOR = 10.0


class LiveTable:
    """One table: its referee, its lock, and where its state goes."""

    def __init__(self, table_id: str, name: str, referee: Any,
                 publish: Callable[[str, dict, int], None], meta: Optional[dict] = None,
                 clock: Optional[Callable[[], float]] = None,
                 new_game: Optional[Callable[[bool], Any]] = None):
        self.id = table_id
        self.name = name
        self.referee = referee
        self.meta = dict(meta or {})
        self._publish = publish
        self._new_game = new_game
        self._lock = threading.RLock()
        self._version = 0                         # numbers each published state (see Hub.submit)
        # A resumed game goes on from the last time its referee heard (the console's actions
        # must not go back in time after a restart), so the clock starts there.
        start = time.monotonic() - max(getattr(referee, "last_t", {}).values(), default=0.0)
        #: seconds of play at this table: the ``t`` of what the console enters
        self.clock = clock or (lambda: round(time.monotonic() - start, 3))
        self._last_obs = -TICK_FOR
        self.thumbnails: dict[int, str] = {}      # observation id -> thumbnail file name
        self.sensors: list[Any] = []              # what feeds it (``referee.sensors.Sensor``), for their health
        self.console_cards: set[tuple[str, int]] = set()   # (zone, card) entered at the console
        self._index_thumbnails()

    # --- state ----------------------------------------------------------------------
    def state(self) -> dict:
        with self._lock:
            return dashboard_state(self)

    def publish(self) -> None:
        self.change(lambda referee: None)

    def record(self) -> list[dict]:
        """A copy of the game record so far (header first)."""
        with self._lock:
            return [dict(event) for event in self.referee.record]

    @property
    def game_id(self) -> str:
        """The game's name: its event store's file name (``t1-3``)."""
        store = getattr(self.referee, "store", None)
        return Path(store.path).stem if store is not None else self.id

    def thumbnail_for(self, evidence: Any) -> dict:
        """``{"thumbnail": url}`` for the first camera picture among ``evidence`` ids."""
        for ref in evidence or ():
            if isinstance(ref, int) and ref in self.thumbnails:
                return {"thumbnail": f"/api/tables/{self.id}/thumbnails/{self.thumbnails[ref]}"}
        return {}

    def _index_thumbnails(self) -> None:
        """Thumbnails of a resumed game's stored observations."""
        store = getattr(self.referee, "store", None)
        if store is None:
            return
        for oid, raw, status, _ in store.observations():
            if status != "accepted" or '"thumbnail"' not in raw:
                continue
            try:          # as hostile text: a stored row is whatever a sensor or a file sent
                name = (loads(raw).get("evidence") or {}).get("thumbnail")
            except (JSONTextError, AttributeError):
                continue
            if isinstance(name, str) and name:
                self.thumbnails[oid] = Path(name).name

    # --- changes ----------------------------------------------------------------------
    def change(self, fn: Callable[[Any], Any]) -> Any:
        """Run ``fn(referee)`` as one change, then publish the new state."""
        with self._lock:
            result = fn(self.referee)
            self._confirm_console_cards()
            state = dashboard_state(self)
            self._version += 1
            version = self._version
        self._publish(self.id, state, version)
        return result

    def ingest(self, observation: Any) -> list:
        """One observation (sensor or console), stored before anything is shown.
        Returns the referee's outputs."""
        def submit(referee: Any) -> list:
            outputs = referee.submit(observation)
            thumbnail = (getattr(observation, "evidence", None) or {}).get("thumbnail")
            if thumbnail:
                self.thumbnails[referee.n_obs] = Path(thumbnail).name
            self._last_obs = self.clock()
            return outputs
        return self.change(submit)

    def enter_card(self, observation: Any) -> list:
        """A card the referee entered at the console (a table without sensors)."""
        self.console_cards.add((observation.zone, observation.card))
        return self.ingest(observation)

    def _confirm_console_cards(self) -> None:
        """The table referee asks the console to confirm a card no RFID read;
        a card the referee typed in is already the console's word, so the
        question is answered at once, on the record, by the console."""
        for conflict in list(getattr(self.referee, "conflicts", ())):
            if conflict.status == "open" and conflict.kind == "camera-only" and conflict.seat is not None \
                    and (f"play:{SEAT_NAMES[conflict.seat]}", conflict.proposal) in self.console_cards:
                # At the time of the console's last word: what the console sends next must not be older.
                t = self.referee.last_t.get("console", self.clock())
                self.referee.submit(ConsoleAction(t=t, action="confirm", ref=conflict.id, by="console",
                                                  reason="the card was entered at the console"))

    def tick(self) -> None:
        """A clock observation, when the referee may be waiting for time to pass."""
        now = self.clock()
        with self._lock:
            waiting = self.referee.game.phase == "play" or self.referee.snapshot().get("zones")
            if not waiting or now - self._last_obs > TICK_FOR:
                return
            self.change(lambda referee: referee.submit(SensorState("console", now, "connected", "clock")))

    def next_game(self) -> None:
        """Close the finished game and start the next one at this table."""
        if self._new_game is None:
            raise ValueError("this table cannot start a new game")

        def swap(old: Any) -> None:
            if hasattr(old, "close"):
                old.close()
            self.referee = self._new_game(True)
            self.thumbnails = {}
        self.change(swap)


class Room:
    """Every table of the event, in the order they were added, and the clock
    that ticks them."""

    def __init__(self) -> None:
        self.tables: dict[str, LiveTable] = {}
        self._stop = threading.Event()
        self._ticker: Optional[threading.Thread] = None

    def add(self, table: LiveTable) -> LiveTable:
        self.tables[table.id] = table
        table.publish()
        return table

    def get(self, table_id: str) -> Optional[LiveTable]:
        """The table ``table_id``; its number alone names it too (``/overlay/1`` is table ``t1``:
        people read "Table 1" on the screen and type the 1)."""
        table = self.tables.get(table_id)
        if table is None and table_id.isascii() and table_id.isdigit():
            table = self.tables.get(f"t{int(table_id)}") if len(table_id) < 6 else None
        return table

    def __iter__(self):
        return iter(list(self.tables.values()))

    def start_clock(self) -> Callable[[], None]:
        """Tick every table from a thread; returns the function that stops it."""
        def run() -> None:
            while not self._stop.wait(TICK):
                for table in self:
                    table.tick()
        self._ticker = threading.Thread(target=run, name="table-clock", daemon=True)
        self._ticker.start()
        return self._stop.set
