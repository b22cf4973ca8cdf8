"""What every sensor offers the table: one interface for the camera, the RFID
readers and any reader to come.

A sensor is started with the function that takes its observations
(``start(on_observation)``) and returns the function that stops it; while it
runs, ``health()`` says how it is doing, for the referee's console. The table
never needs to know which kind of sensor it holds: it stamps each observation
with its own clock and hands it to the table referee.

Only the words live here (this package has no devices and no threads); the
sensors themselves are ``firmware_bridge.sensor.RfidSensor`` and
``vision.sensor.CameraSensor``.

>>> SensorHealth("camera", "connected", rate=29.8, last="Jh in play:S").as_dict()
{'name': 'camera', 'state': 'connected', 'detail': '', 'rate': 29.8, 'last': 'Jh in play:S'}
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Optional, Protocol

from .observations import Observation


@dataclass(frozen=True)
class SensorHealth:
    """A sensor's state for people: ``starting``, ``connected``, ``lost``,
    ``resync``, ``moved`` (a camera off its calibration) or ``ended`` (a
    recorded source that played to its end)."""

    name: str
    state: str
    detail: str = ""
    rate: Optional[float] = None     # what it handles per second: frames (camera), frames (RFID link)
    last: Optional[str] = None       # its last reading, in words ("Jh in play:S")

    def as_dict(self) -> dict:
        return asdict(self)


class Sensor(Protocol):
    """The interface: ``stop = sensor.start(on_observation)``; ``sensor.health()``."""

    name: str

    def start(self, on_observation: Callable[[Observation], None]) -> Callable[[], None]:
        ...

    def health(self) -> SensorHealth:
        ...
