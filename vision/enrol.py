"""Deck enrolment card by card from a live camera: which card to show next,
progress, and the deck written into the table profile when every card has
been seen.

The recognition core (``vision.deck``) turns one shot into a rectified face
or a refusal (``enrol_deck`` does a whole folder of photos at once); this
module runs the session around it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from referee.cards import card_name

from .deck import Deck, DeckError, Refusal, enrolment_sample


@dataclass
class Verdict:
    """What a live enrolment says about one frame."""

    accepted: bool
    card: Optional[int]          # the card it was (or would have been) enrolled as
    message: str                 # for the person at the table
    remaining: int


@dataclass
class LiveEnrolment:
    """Show each of the 32 cards to the camera, one at a time, in deck order.

    ``offer(frame)`` checks a frame for the card asked for (``expected``):
    accepted, or refused with a reason (blurred, no card, several cards).
    When ``done``, ``finish(out)`` writes the deck like the folder variant.
    """

    order: list[int] = field(default_factory=lambda: list(range(32)))
    faces: dict[int, list[np.ndarray]] = field(default_factory=dict)

    @property
    def expected(self) -> Optional[int]:
        return next((c for c in self.order if c not in self.faces), None)

    @property
    def done(self) -> bool:
        return self.expected is None

    def offer(self, frame_bgr: np.ndarray) -> Verdict:
        card = self.expected
        remaining = sum(1 for c in self.order if c not in self.faces)
        if card is None:
            return Verdict(False, None, "every card is enrolled", 0)
        result = enrolment_sample(frame_bgr)
        if isinstance(result, Refusal):
            return Verdict(False, card, f"{card_name(card)}: {result.reason}", remaining)
        self.faces[card] = [result]
        nxt = self.expected
        follow = f"; now show {card_name(nxt)}" if nxt is not None else "; all cards seen"
        return Verdict(True, card, f"{card_name(card)} enrolled ({len(self.order) - remaining + 1}/{len(self.order)}){follow}", remaining - 1)

    def finish(self, out: str | Path) -> Deck:
        from .read import choose_abstention

        if not self.done:
            missing = ", ".join(card_name(c) for c in self.order if c not in self.faces)
            raise DeckError(f"not finished: still to show {missing}")
        deck = Deck(faces=self.faces)
        deck.abstain = choose_abstention(deck)
        deck.save(out)
        return deck
