"""Tag -> card and antenna -> zone: what the bridge needs to turn a tag read
into an observation.

The maps come from the table profile (``tags.csv`` and ``antennas.csv``, read
and checked by ``calibration.profile.TableProfile``); the bridge only looks
them up. An unknown UID stays unknown (the referee is told "a tag we do not
know", never a guessed card), and an unmapped antenna has no zone.

>>> m = TableMap(cards={"04A1B2C3D4E5F6": 20}, zones={3: "play:S"})
>>> m.card_for("04A1B2C3D4E5F6"), m.card_for("DEADBEEF"), m.zone_for(3), m.zone_for(9)
(20, None, 'play:S', None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

#: The reference board's layout: the dealing area, then each seat's play zone,
#: then each seat's hand area (DESIGN's example: antenna 3 is ``play:S``).
DEFAULT_ZONES = {0: "deal", 1: "play:N", 2: "play:E", 3: "play:S", 4: "play:W",
                 5: "hand:N", 6: "hand:E", 7: "hand:S", 8: "hand:W"}


@dataclass(frozen=True)
class TableMap:
    cards: dict = field(default_factory=dict)   # UID -> card int
    zones: dict = field(default_factory=dict)   # antenna -> zone name

    def card_for(self, uid: str) -> Optional[int]:
        return self.cards.get(uid)

    def zone_for(self, antenna: int) -> Optional[str]:
        return self.zones.get(antenna)
