"""The overlay's look, per table: three colours, a logo and the players' photos.

Set by the producer from the console's overlay desk (``overlay_desk.py``), kept
under ``<instance>/looks/``: ``<table>.json`` and the pictures, each named
after its content's hash, so a browser or OBS may cache a picture for ever and
a new one always has a new address. The look is public (the overlay shows it
to everyone): ``/looks/<name>`` serves the pictures without a sign-in.

Pictures are PNG, JPEG or WebP only (an SVG could carry a script), recognised
by their first bytes whatever name they came with, and small: an overlay shows
a logo and a face a few hundred pixels wide, and the console's requests are
capped at 64 KiB.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

#: The first bytes of each picture format accepted, and its file suffix.
PICTURES = ((b"\x89PNG\r\n\x1a\n", "png"), (b"\xff\xd8\xff", "jpg"), (b"RIFF", "webp"))
MAX_PICTURE = 60 * 1024
SEATS = ("N", "E", "S", "W")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}\Z")
_NAME = re.compile(r"[\w-]+\.(png|jpg|webp)\Z")


class LookError(ValueError):
    """A colour or picture the overlay cannot take; the message says what to send."""


@dataclass
class Look:
    """What the overlay of one table looks like (the defaults are the dashboard's colours)."""

    accent: str = "#f2c14e"        # the score, the player to play, the winning card
    panel: str = "#0d141b"         # the boxes' background
    text: str = "#eef2f5"
    logo: Optional[str] = None     # a picture's name under looks/
    photos: dict[str, str] = field(default_factory=dict)     # seat -> picture name

    def as_dict(self) -> dict[str, Any]:
        """For the overlay feeds: the pictures as addresses."""
        return {"accent": self.accent, "panel": self.panel, "text": self.text,
                "logo": f"/looks/{self.logo}" if self.logo else None,
                "photos": {seat: f"/looks/{name}" for seat, name in self.photos.items()}}


class Looks:
    """Every table's look, in a folder (``<instance>/looks``)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def get(self, table_id: str) -> Look:
        path = self._file(table_id)
        if not path.is_file():
            return Look()
        try:
            data = json.loads(path.read_text())
            return Look(**{k: v for k, v in data.items() if k in Look.__dataclass_fields__})
        except (ValueError, TypeError):
            return Look()          # a damaged file: the default look, and the next change rewrites it

    def set_colours(self, table_id: str, colours: dict[str, Any]) -> Look:
        """Change some of the three colours (``{"accent": "#ff8800"}``)."""
        look = self.get(table_id)
        for key, value in colours.items():
            if key not in ("accent", "panel", "text"):
                raise LookError(f"unknown colour {key!r}: send accent, panel or text")
            if not isinstance(value, str) or not _COLOUR.match(value):
                raise LookError(f"{key} must be a colour like #f2c14e, not {value!r}")
            setattr(look, key, value.lower())
        return self._save(table_id, look)

    def set_picture(self, table_id: str, what: str, data: Optional[bytes]) -> Look:
        """The logo (``what="logo"``) or a seat's photo (``"N"``...), or None to remove it."""
        if what != "logo" and what not in SEATS:
            raise LookError(f"no picture {what!r}: send the logo or a seat's photo (N, E, S, W)")
        look = self.get(table_id)
        name = self._store(data) if data else None
        if what == "logo":
            look.logo = name
        elif name:
            look.photos[what] = name
        else:
            look.photos.pop(what, None)
        return self._save(table_id, look)

    def picture(self, name: str) -> Optional[Path]:
        """A stored picture's file, if ``name`` is one (never a path outside the folder)."""
        if not _NAME.match(name):
            return None
        path = self.folder / name
        return path if path.is_file() else None

    def _store(self, data: bytes) -> str:
        suffix = next((s for magic, s in PICTURES if data.startswith(magic)), None)
        if suffix is None or (suffix == "webp" and data[8:12] != b"WEBP"):
            raise LookError("send a PNG, JPEG or WebP picture")
        if len(data) > MAX_PICTURE:
            raise LookError(f"the picture is {len(data) // 1024} KiB: make it {MAX_PICTURE // 1024} KiB or less "
                            f"(a logo or a face needs no more than 400 pixels across)")
        name = f"{hashlib.sha256(data).hexdigest()[:16]}.{suffix}"
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / name).write_bytes(data)
        return name

    def _file(self, table_id: str) -> Path:
        if not re.fullmatch(r"\w+", table_id):
            raise LookError(f"no table {table_id!r}")
        return self.folder / f"{table_id}.json"

    def _save(self, table_id: str, look: Look) -> Look:
        path = self._file(table_id)
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(look), indent=1))
        tmp.replace(path)
        return look
