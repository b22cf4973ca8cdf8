"""The table profile: one directory that holds everything calibrated for one table.

```
PROFILE/
  table.json       table size, corner-marker layout, and the camera's view (homography)
  camera.json      camera intrinsics (optional: only for lenses that bend straight lines)
  zones.json       zones in table millimetres
  zones.png        the zones drawn over the camera view (to check by eye)
  deck/            the enrolled deck (written and read by vision.deck)
  tags.csv         RFID tag -> card, header ``uid,card`` (calibrate tags)
  antennas.csv     RFID antenna -> zone, header ``antenna,zone``
```

:class:`TableProfile` is the one owner of this layout: every other part asks it
for a file's content (or its path) and never spells a file name itself, and
every problem with a profile is one :class:`ProfileError`.

Plain JSON and CSV, so a referee can read, diff and back it up. Each file is
written whole to a temporary name and renamed, so a crash never leaves half a
profile. A missing file is reported with the command that makes it. In
``tags.csv`` an unknown UID stays unknown (the referee is told "a tag we do
not know", never a guessed card), and two cards enrolled with one UID are
refused: the deck would be ambiguous.
"""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

from referee.cards import CardError, card_name, parse_card
from referee.observations import ZONES

from .camera import CameraModel
from .table_plane import TableLayout, TableView
from .zones import Zones, default_zones, load_zones, save_zones

TABLE_FILE, CAMERA_FILE, ZONES_FILE, PREVIEW_FILE = "table.json", "camera.json", "zones.json", "zones.png"
DECK_DIR, TAGS_FILE, ANTENNAS_FILE = "deck", "tags.csv", "antennas.csv"


_UID = re.compile(r"(?:[0-9A-F]{2}){4,10}\Z")


class ProfileError(ValueError):
    """A profile file is missing, unreadable or cannot be trusted; the message
    names the file (and line) and the command that fixes it."""


def normalize_uid(text: str) -> str:
    """``04:a1:b2:c3`` or ``04 A1 B2 C3`` -> ``04A1B2C3``; raises ValueError if not 4-10 bytes of hex.

    >>> normalize_uid("04-a1-b2-c3-d4-e5-f6")
    '04A1B2C3D4E5F6'
    """
    uid = re.sub(r"[\s:\-]", "", text).upper()
    if _UID.match(uid) is None:
        raise ValueError(f"{text!r} is not a tag UID (4 to 10 bytes of hex, e.g. 04A1B2C3D4E5F6)")
    return uid


class TableProfile:
    """Read and write the files of one profile directory."""

    def __init__(self, directory: str | os.PathLike):
        self.dir = Path(directory)

    @classmethod
    def existing(cls, directory: str | os.PathLike) -> "TableProfile":
        """A profile that must already exist (for a table about to run)."""
        profile = cls(directory)
        if not profile.dir.is_dir():
            raise ProfileError(f"{profile.dir} is not a table profile (no such directory): make one with "
                               f"`belote-table calibrate ...`")
        return profile

    def path(self, name: str) -> Path:
        return self.dir / name

    def deck_dir(self) -> Path:
        return self.dir / DECK_DIR

    def tags_csv(self) -> Path:
        return self.dir / TAGS_FILE

    def antennas_csv(self) -> Path:
        return self.dir / ANTENNAS_FILE

    def zones_json(self) -> Path:
        return self.dir / ZONES_FILE

    def preview_png(self) -> Path:
        """The zones drawn over the camera view, to check by eye."""
        return self.dir / PREVIEW_FILE

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

    # -- tags.csv and antennas.csv: the RFID side ----------------------------------------
    def tags(self) -> dict[str, int]:
        """UID -> card; empty when no tag is enrolled yet. A UID enrolled for two cards is refused."""
        cards: dict[str, int] = {}
        for number, raw_uid, raw_card in self._csv_rows(TAGS_FILE, ("uid", "card")):
            where = f"{self.tags_csv()}:{number}"
            try:
                uid, card = normalize_uid(raw_uid), parse_card(raw_card)
            except (ValueError, CardError) as exc:
                raise ProfileError(f"{where}: {exc}") from exc
            if uid in cards and cards[uid] != card:
                raise ProfileError(f"{where}: tag {uid} is enrolled as both {card_name(cards[uid])} and "
                                   f"{card_name(card)}; re-run 'belote-table calibrate tags' for this deck")
            cards[uid] = card
        return cards

    def antennas(self) -> dict[int, str]:
        """Antenna -> zone; empty when the file is absent (zones are then reported as unknown)."""
        zones: dict[int, str] = {}
        for number, raw_antenna, zone in self._csv_rows(ANTENNAS_FILE, ("antenna", "zone")):
            where = f"{self.antennas_csv()}:{number}"
            if not raw_antenna.isdigit():
                raise ProfileError(f"{where}: antenna {raw_antenna!r} is not a number")
            if zone not in ZONES:
                raise ProfileError(f"{where}: zone {zone!r} is not one of {' '.join(ZONES)}")
            if int(raw_antenna) in zones:
                raise ProfileError(f"{where}: antenna {int(raw_antenna)} is listed twice")
            zones[int(raw_antenna)] = zone
        return zones

    def save_tags(self, cards: dict[str, int]) -> None:
        """Write ``uid,card`` rows in card order (the wizard calls it after every card)."""
        rows = sorted(cards.items(), key=lambda item: (item[1], item[0]))
        self._write_text(TAGS_FILE, "\n".join(["uid,card"] + [f"{uid},{card_name(card)}" for uid, card in rows])
                         + "\n")

    def save_antennas(self, zones: dict[int, str]) -> None:
        self._write_text(ANTENNAS_FILE, "\n".join(["antenna,zone"] + [f"{a},{z}" for a, z in sorted(zones.items())])
                         + "\n")

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

    def _csv_rows(self, name: str, header: tuple[str, str]) -> list[tuple[int, str, str]]:
        """(line number, first, second) of each non-empty row; [] when the file is absent."""
        path = self.path(name)
        if not path.exists():
            return []
        try:
            with path.open(newline="", encoding="utf-8") as handle:
                rows = list(csv.reader(handle))
        except (OSError, UnicodeDecodeError) as exc:
            raise ProfileError(f"{path}: cannot read it ({exc})") from exc
        if not rows or tuple(c.strip() for c in rows[0]) != header:
            raise ProfileError(f"{path}:1: the header must be {','.join(header)}")
        out = []
        for number, row in enumerate(rows[1:], start=2):
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) != 2:
                raise ProfileError(f"{path}:{number}: expected 2 columns ({','.join(header)}), got {len(row)}")
            out.append((number, row[0].strip(), row[1].strip()))
        return out

    def _write_text(self, name: str, text: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.path(name + ".tmp")
        tmp.write_text(text)
        os.replace(tmp, self.path(name))
