"""What sensors saw, in the referee's words (DESIGN: "Observation").

Sensors never decide game facts: they report that a card appeared in a zone,
left a zone, or that a zone was cleared, with where it came from and how sure
they are. The table referee (``referee/table.py``) turns these into game events.

Zones are named by text, the same in every part and in the table profile:
``play:N`` .. ``play:W`` (each seat's play zone), ``hand:N`` .. ``hand:W`` (the
hand areas, RFID), ``deal`` (the dealing area), ``pile:NS`` / ``pile:EW`` (the
trick-collection piles).

>>> CardSeen(source="camera", t=1.5, zone="play:S", card=12, confidence=0.98).zone
'play:S'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .cards import Card

SOURCES = ("camera", "rfid", "console")
SEAT_ZONES = tuple(f"{kind}:{s}" for kind in ("play", "hand") for s in "NESW")
ZONES = SEAT_ZONES + ("deal", "pile:NS", "pile:EW")


@dataclass(frozen=True)
class CardSeen:
    """A card appeared in (or is still in) a zone. ``card`` is None when the
    sensor saw a card it could not read (never a guess)."""

    source: str
    t: float                 # sensor time, seconds
    zone: Optional[str]      # None: an antenna or area mapped to no zone
    card: Optional[Card]
    confidence: float = 1.0
    uid: Optional[str] = None            # the RFID tag, where there is one
    evidence: dict[str, Any] = field(default_factory=dict)  # frame ref, thumbnail path, antenna...


@dataclass(frozen=True)
class CardGone:
    """A card left a zone (a tag no longer read, a card no longer seen)."""

    source: str
    t: float
    zone: Optional[str]
    card: Optional[Card]
    uid: Optional[str] = None
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ZoneCleared:
    """Every card left a zone (the trick was picked up)."""

    source: str
    t: float
    zone: str
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SensorState:
    """A sensor's own health: ``connected``, ``lost``, ``resync`` (its state is
    uncertain until a fresh snapshot), ``bad-frame``, ``moved`` (a camera that
    no longer matches its calibration)."""

    source: str
    t: float
    state: str
    detail: str = ""


Observation = CardSeen | CardGone | ZoneCleared | SensorState
