"""A real table's sensors, for ``belote-table run --profile DIR``: the RFID
readers on the table's serial port and, when one is given, the camera through
the vision pipeline, all built from the table profile and all speaking the one
sensor interface (``referee.sensors``).

Every observation is stamped with the table's clock when it arrives (the
bridge and the camera keep their own clocks for their own timing), so the
referee compares the sensors' times on one scale.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable, Optional

from .startup import SetupError, say


def table_sensors(profile_dir: Path, serial_url: Optional[str], camera: Optional[str],
                  thumbnails: Path) -> list[Any]:
    """The table's sensors from its profile, every file checked before anything starts."""
    from calibration.profile import ProfileError, TableProfile
    from firmware_bridge.mapping import TableMap
    from firmware_bridge.sensor import RfidSensor

    try:
        profile = TableProfile.existing(profile_dir)
    except ProfileError as exc:
        raise SetupError(str(exc)) from None
    try:
        rfid = RfidSensor(serial_url or "/dev/ttyACM0", TableMap(cards=profile.tags(), zones=profile.antennas()))
    except ProfileError as exc:
        raise SetupError(f"{exc}: fix the file or enrol the tags again with `belote-table calibrate tags`") from None
    say(f"RFID: reading the table on {rfid.url} (reconnects by itself if the cable is pulled)")
    if camera is None:
        say("camera: none given (--camera INDEX|URL): refereeing from the RFID and the console")
        return [rfid]
    from vision.deck import Deck, DeckError
    from vision.pipeline import Pipeline
    from vision.sensor import CameraSensor

    try:
        pipeline = Pipeline.from_profile(profile, Deck.load(profile.deck_dir()), thumbnails=thumbnails)
    except (ProfileError, DeckError) as exc:
        raise SetupError(f"camera: {exc}") from None
    say(f"camera: {camera} through the vision pipeline")
    return [rfid, CameraSensor(pipeline, camera)]


def start_sensors(table: Any, sensors: list[Any]) -> list[Callable[[], None]]:
    """Start each sensor into ``table`` (a ``LiveTable``); returns what stops them."""
    def arrive(observation: Any) -> None:
        table.ingest(dataclasses.replace(observation, t=table.clock()))

    table.sensors = list(sensors)
    return [sensor.start(arrive) for sensor in sensors]
