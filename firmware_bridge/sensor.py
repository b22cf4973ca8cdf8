"""The table's RFID readers as a sensor (``referee.sensors``): the bridge's
tag edges and link changes become observations, and its health is what the
console shows.

The bridge keeps its own clock for the link's timing (heartbeats, backoff);
the observations it hands over carry that clock, and the table that receives
them stamps them with its own, so the camera's and the readers' reports are
compared on one scale.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable, Optional

from referee.cards import card_name
from referee.observations import Observation
from referee.sensors import SensorHealth

from .bridge import Bridge, TableCodec
from .mapping import TableMap
from .session import LinkEvent, TagEvent

#: Bridge events over which the rate shown on the console is measured.
RATE_WINDOW = 30


class RfidSensor:
    """``stop = RfidSensor("/dev/ttyACM0", table_map).start(on_observation)``."""

    name = "rfid"

    def __init__(self, url: str, table_map: Optional[TableMap] = None, silence_s: float = 3.0,
                 codec_factory: Callable = TableCodec):
        self.url = url
        self.bridge = Bridge(url, table_map, silence_s=silence_s, codec_factory=codec_factory)
        self._lock = threading.Lock()
        self._state, self._detail, self._last = "starting", f"opening {url}", None
        self._times: deque = deque(maxlen=RATE_WINDOW)   # when the last frames from the board came

    def start(self, on_observation: Callable[[Observation], None]) -> Callable[[], None]:
        def on_event(event) -> None:
            with self._lock:
                self._times.append(time.monotonic())
                if isinstance(event, LinkEvent):
                    self._state, self._detail = event.state, event.detail
                elif isinstance(event, TagEvent):
                    what = card_name(event.card) if event.card is not None else f"tag {event.uid}"
                    self._last = f"{what} {'on' if event.present else 'off'} {event.zone or f'antenna {event.antenna}'}"
            to_observation = getattr(event, "to_observation", None)   # a DeviceNote is for people only
            if to_observation is not None:
                on_observation(to_observation())

        self.bridge.start(on_event)
        return self.bridge.stop

    def health(self) -> SensorHealth:
        """Its link state, the frames per second the board sent lately (tag edges, link changes),
        and its last tag edge in words."""
        with self._lock:
            times = list(self._times)
            rate = round((len(times) - 1) / (times[-1] - times[0]), 1) if len(times) > 1 and times[-1] > times[0] \
                else None
            return SensorHealth(self.name, self._state, self._detail, rate=rate, last=self._last)
