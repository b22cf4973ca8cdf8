"""A real table's sensors, started for ``belote-table run --profile DIR``: the
RFID bridge on the table's serial port and the camera through the vision
pipeline, both feeding the table's referee.

Every observation is stamped with the table's clock when it arrives (the
bridge and the camera keep their own clocks for their own timing), so the
referee compares the two sensors' times on one scale.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any, Callable, Optional

from .launch import SetupError, say


def load_profile(profile_dir: Path) -> Any:
    """The table profile's tag and antenna mapping, checked before anything starts."""
    from firmware_bridge.mapping import ProfileError as TagsError, load_map

    if not profile_dir.is_dir():
        raise SetupError(f"{profile_dir} is not a table profile: make one with `belote-table calibrate ...`")
    try:
        return load_map(profile_dir)
    except TagsError as exc:
        raise SetupError(f"{exc}: fix the file or enrol the tags again with `belote-table calibrate tags`") from None


def start_sensors(table: Any, table_map: Any, profile_dir: Path, serial_url: Optional[str],
                  camera: Optional[str], thumbnails: Path) -> list[Callable[[], None]]:
    from calibration.profile import ProfileError, TableProfile
    from firmware_bridge.bridge import Bridge

    stoppers: list[Callable[[], None]] = []

    def from_bridge(event: Any) -> None:
        to_observation = getattr(event, "to_observation", None)
        if to_observation is not None:
            table.ingest(dataclasses.replace(to_observation(), t=table.clock()))

    port = serial_url or "/dev/ttyACM0"
    bridge = Bridge(port, table_map).start(from_bridge)
    stoppers.append(bridge.stop)
    say(f"RFID: reading the table on {port} (reconnects by itself if the cable is pulled)")

    if camera is None:
        say("camera: none given (--camera INDEX|URL): refereeing from the RFID and the console")
        return stoppers
    profile = TableProfile(profile_dir)
    try:
        from vision.deck import Deck, DeckError
        thumbnails.mkdir(parents=True, exist_ok=True)
        pipeline = profile.pipeline(Deck.load(profile.deck_dir()), thumbnails=thumbnails)
    except (ProfileError, DeckError) as exc:
        raise SetupError(f"camera: {exc}") from None
    stop = threading.Event()
    thread = threading.Thread(target=_watch, args=(table, pipeline, camera, stop), name="camera", daemon=True)
    thread.start()
    stoppers.append(stop.set)
    say(f"camera: {camera} through the vision pipeline")
    return stoppers


def _watch(table: Any, pipeline: Any, camera: str, stop: threading.Event) -> None:
    """Read frames until stopped; a camera that stops answering is reopened."""
    import cv2

    from referee.observations import SensorState

    source: Any = int(camera) if camera.isdigit() else camera
    while not stop.is_set():
        capture = cv2.VideoCapture(source)
        if not capture.isOpened():
            table.ingest(SensorState("camera", table.clock(), "lost", f"cannot open camera {camera}"))
            stop.wait(2.0)
            continue
        table.ingest(SensorState("camera", table.clock(), "connected", f"camera {camera}"))
        while not stop.is_set():
            ok, frame = capture.read()
            if not ok:
                table.ingest(SensorState("camera", table.clock(), "lost", "no frame: reopening the camera"))
                break
            for observation in pipeline.process(table.clock(), frame):
                table.ingest(observation)
        capture.release()
