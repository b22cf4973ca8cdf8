"""The table profile: one directory that holds everything calibrated for one table.

```
PROFILE/
  table.json       table size, corner-marker layout, and the camera's view (homography)
  camera.json      camera intrinsics (optional: only for lenses that bend straight lines)
  zones.json       zones in table millimetres
  zones.png        the zones drawn over the camera view (to check by eye)
  deck/            the enrolled deck (vision.deck)
  tags.csv         RFID tag -> card (firmware_bridge)
  antennas.csv     RFID antenna -> zone (firmware_bridge)
```

Plain JSON and CSV, so a referee can read, diff and back it up. Each file is
written whole to a temporary name and renamed, so a crash never leaves half a
profile. A missing file is reported with the command that makes it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .camera import CameraModel
from .table import TableLayout, TableView
from .zones import Zones, default_zones, load_zones, save_zones

TABLE_FILE, CAMERA_FILE, ZONES_FILE, PREVIEW_FILE = "table.json", "camera.json", "zones.json", "zones.png"
DECK_DIR, TAGS_FILE, ANTENNAS_FILE = "deck", "tags.csv", "antennas.csv"


class ProfileError(ValueError):
    """A profile file is missing or unreadable; the message names the command that fixes it."""


class TableProfile:
    """Read and write the files of one profile directory."""

    def __init__(self, directory: str | os.PathLike):
        self.dir = Path(directory)

    def path(self, name: str) -> Path:
        return self.dir / name

    def deck_dir(self) -> Path:
        return self.dir / DECK_DIR

    def tags_csv(self) -> Path:
        return self.dir / TAGS_FILE

    def antennas_csv(self) -> Path:
        return self.dir / ANTENNAS_FILE

    # -- table.json: layout + view --------------------------------------------------------
    def layout(self) -> TableLayout:
        data = self._read_json(TABLE_FILE, required=False)
        return TableLayout.from_json(data.get("layout", {})) if data else TableLayout()

    def view(self) -> TableView:
        data = self._read_json(TABLE_FILE, required=True)
        if "view" not in data:
            raise ProfileError(f"{self.path(TABLE_FILE)} has no camera view yet: "
                               f"run `belote-table calibrate table --profile {self.dir} --source CAMERA`")
        return TableView.from_json(data["view"])

    def save_table(self, layout: TableLayout, view: TableView | None = None) -> None:
        data = {"version": 1, "layout": layout.to_json()}
        if view is not None:
            data["view"] = view.to_json()
        self._write_text(TABLE_FILE, json.dumps(data, indent=1) + "\n")

    # -- camera.json ----------------------------------------------------------------------
    def camera(self) -> CameraModel | None:
        data = self._read_json(CAMERA_FILE, required=False)
        return CameraModel.from_json(data) if data else None

    def save_camera(self, camera: CameraModel) -> None:
        self._write_text(CAMERA_FILE, json.dumps(camera.to_json(), indent=1) + "\n")

    # -- zones.json -----------------------------------------------------------------------
    def zones(self) -> Zones:
        path = self.path(ZONES_FILE)
        if not path.exists():
            return default_zones(self.layout())
        try:
            return load_zones(path)
        except ValueError as exc:
            raise ProfileError(str(exc)) from exc

    def save_zones(self, zones: Zones) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.path(ZONES_FILE + ".tmp")
        save_zones(tmp, zones)
        os.replace(tmp, self.path(ZONES_FILE))

    # -- the running pipeline -------------------------------------------------------------
    def pipeline(self, deck, **options):
        """A ``vision.pipeline.Pipeline`` for this table (the composition root's one call)."""
        from vision.pipeline import Pipeline

        from .table import recheck
        view = self.view()
        camera = self.camera()
        return Pipeline(deck, view.image_to_table, self.zones(), camera=camera,
                        recheck=lambda frame: recheck(frame, view), frame_size=view.image_size, **options)

    # -- helpers --------------------------------------------------------------------------
    def _read_json(self, name: str, required: bool) -> dict:
        path = self.path(name)
        if not path.exists():
            if required:
                raise ProfileError(f"{path} is missing: calibrate the table first with "
                                   f"`belote-table calibrate table --profile {self.dir} --source CAMERA`")
            return {}
        try:
            return json.loads(path.read_text())
        except ValueError as exc:
            raise ProfileError(f"{path} is not valid JSON ({exc}): fix it or run the calibration again") from exc

    def _write_text(self, name: str, text: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.path(name + ".tmp")
        tmp.write_text(text)
        os.replace(tmp, self.path(name))
