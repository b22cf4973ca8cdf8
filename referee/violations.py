"""Violations: an illegal play or call, with the rule broken and a sentence a
player understands ("W held ♥7 but did not trump: partner was not winning the
trick").

Rule names are stable identifiers that records, tests and the dashboard use:
play: ``must-follow``, ``must-trump``, ``must-overtrump``, ``must-undertrump``,
``must-beat`` (trump led, or all-trump), ``belote-king-first``, ``not-held``
(a card the player did not hold), ``already-played``;
auction: ``bid-too-low``, ``bid-not-higher``, ``bid-step``, ``bid-over-max``,
``contract-not-allowed``, ``counter-own-side``, ``counter-nothing``,
``recounter-not-countered``, ``bid-after-counter``, ``bid-after-capot``,
``out-of-turn``, ``auction-over``;
table (``referee/table_referee.py``): ``misdeal``, ``wrong-pickup``.

``message`` is English; ``params`` holds what the sentence says (``held``
card, ``led`` suit, the winning card ``win``...; cards as DESIGN names, suits
as ``s h d c``) so a display can word it in another language. ``held`` names a
card still in a hand: hidden information, never for the room.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .cards import Card, card_name
from .seats import SEAT_NAMES, Seat


@dataclass(frozen=True)
class Violation:
    rule: str
    seat: Seat
    message: str
    card: Optional[Card] = None
    trick: Optional[int] = None          # 1-8, for plays
    call: Optional[str] = None           # for auction violations
    evidence: tuple[Any, ...] = field(default=())   # observation ids, frame refs
    params: tuple[tuple[str, Any], ...] = ()          # (name, JSON value) pairs of the sentence
    to_confirm: tuple[int, ...] = ()     # the record's play events, each read once by one sensor,
                                         # that it rests on: until they are confirmed, not a violation

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of DESIGN's ``check --json``."""
        out: dict[str, Any] = {"seat": SEAT_NAMES[self.seat], "rule": self.rule, "message": self.message}
        if self.trick is not None:
            out["trick"] = self.trick
        if self.card is not None:
            out["card"] = card_name(self.card)
        if self.call is not None:
            out["call"] = self.call
        if self.evidence:
            out["evidence"] = list(self.evidence)
        if self.params:
            out["params"] = dict(self.params)
        if self.to_confirm:
            out["to_confirm"] = list(self.to_confirm)
        return out
