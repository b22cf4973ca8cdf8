"""Tag -> card and antenna -> zone, from the table profile directory.

``tags.csv`` (header ``uid,card``) is the deck's enrolment, written by
``belote-table calibrate tags``; ``antennas.csv`` (header ``antenna,zone``)
says which zone each antenna lies under. An unknown UID stays unknown (the
referee is told "a tag we do not know", never a guessed card), and two cards
enrolled with one UID is refused: the deck would be ambiguous.

>>> m = TableMap(cards={"04A1B2C3D4E5F6": 20}, zones={3: "play:S"})
>>> m.card_for("04A1B2C3D4E5F6"), m.card_for("DEADBEEF"), m.zone_for(3), m.zone_for(9)
(20, None, 'play:S', None)
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from referee.cards import CardError, card_name, parse_card
from referee.observations import ZONES

TAGS_FILE = "tags.csv"
ANTENNAS_FILE = "antennas.csv"

#: The reference board's layout: the dealing area, then each seat's play zone,
#: then each seat's hand area (DESIGN's example: antenna 3 is ``play:S``).
DEFAULT_ZONES = {0: "deal", 1: "play:N", 2: "play:E", 3: "play:S", 4: "play:W",
                 5: "hand:N", 6: "hand:E", 7: "hand:S", 8: "hand:W"}

_UID = re.compile(r"(?:[0-9A-F]{2}){4,10}\Z")


class ProfileError(ValueError):
    """A tags.csv or antennas.csv that cannot be trusted; the message names the line."""


@dataclass(frozen=True)
class TableMap:
    cards: dict = field(default_factory=dict)   # UID -> card int
    zones: dict = field(default_factory=dict)   # antenna -> zone name

    def card_for(self, uid: str) -> Optional[int]:
        return self.cards.get(uid)

    def zone_for(self, antenna: int) -> Optional[str]:
        return self.zones.get(antenna)


def normalize_uid(text: str) -> str:
    """``04:a1:b2:c3`` or ``04 A1 B2 C3`` -> ``04A1B2C3``; raises ValueError if not 4-10 bytes of hex."""
    uid = re.sub(r"[\s:\-]", "", text).upper()
    if _UID.match(uid) is None:
        raise ValueError(f"{text!r} is not a tag UID (4 to 10 bytes of hex, e.g. 04A1B2C3D4E5F6)")
    return uid


def _rows(path: Path, header: tuple) -> list:
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read it ({exc.strerror})") from exc
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


def load_tags(path: Path) -> dict:
    """UID -> card; refuses a UID enrolled for two different cards."""
    cards: dict = {}
    for number, raw_uid, raw_card in _rows(path, ("uid", "card")):
        try:
            uid, card = normalize_uid(raw_uid), parse_card(raw_card)
        except (ValueError, CardError) as exc:
            raise ProfileError(f"{path}:{number}: {exc}") from exc
        if uid in cards and cards[uid] != card:
            raise ProfileError(
                f"{path}:{number}: tag {uid} is enrolled as both {card_name(cards[uid])} and "
                f"{card_name(card)}; re-run 'belote-table calibrate tags' for this deck")
        cards[uid] = card
    return cards


def load_antennas(path: Path) -> dict:
    zones: dict = {}
    for number, raw_ant, zone in _rows(path, ("antenna", "zone")):
        if not raw_ant.isdigit():
            raise ProfileError(f"{path}:{number}: antenna {raw_ant!r} is not a number")
        if zone not in ZONES:
            raise ProfileError(f"{path}:{number}: zone {zone!r} is not one of {' '.join(ZONES)}")
        antenna = int(raw_ant)
        if antenna in zones:
            raise ProfileError(f"{path}:{number}: antenna {antenna} is listed twice")
        zones[antenna] = zone
    return zones


def load_map(profile: Optional[Path]) -> TableMap:
    """The profile's maps; a missing file means "nothing enrolled" (cards and zones reported as null)."""
    if profile is None:
        return TableMap()
    profile = Path(profile)
    if not profile.is_dir():
        raise ProfileError(f"{profile}: no such profile directory")
    tags, antennas = profile / TAGS_FILE, profile / ANTENNAS_FILE
    return TableMap(cards=load_tags(tags) if tags.exists() else {},
                    zones=load_antennas(antennas) if antennas.exists() else {})


def _write_atomic(path: Path, lines: list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def write_tags(path: Path, cards: dict) -> None:
    """Write ``uid,card`` rows in card order, atomically (a crash leaves the old file)."""
    rows = sorted(cards.items(), key=lambda item: (item[1], item[0]))
    _write_atomic(Path(path), ["uid,card"] + [f"{uid},{card_name(card)}" for uid, card in rows])


def write_antennas(path: Path, zones: dict) -> None:
    _write_atomic(Path(path), ["antenna,zone"] + [f"{a},{z}" for a, z in sorted(zones.items())])
