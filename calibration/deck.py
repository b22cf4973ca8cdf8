"""Deck enrolment as a calibration step: from a folder of photos, or card by
card from a live camera.

The recognition core (``vision.deck``) turns one shot into a rectified face
or a refusal; this module runs the session around it: which card to show
next, progress, and the deck written into the table profile when every card
has been seen.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from referee.cards import CARD_NAMES, card_name
from vision.deck import Deck, DeckError, Refusal, enrol_deck, enrolment_sample


def enrol_from_directory(images: str | Path, out: str | Path, partial: bool = False,
                         progress: Callable[[str], None] = lambda m: print(m, file=sys.stderr, flush=True)) -> int:
    """``calibrate deck``: exit 0 when written, 2 when the photos cannot make a deck."""
    try:
        deck, problems = enrol_deck(images, out, progress=progress, require_all=not partial)
    except DeckError as exc:
        progress(f"error: {exc}")
        return 2
    for problem in problems:
        progress(f"warning: {problem}")
    missing = deck.missing()
    tail = f"; never read (no photo): {', '.join(CARD_NAMES[c] for c in missing)}" if missing else ""
    progress(f"deck written to {out}: {len(deck.cards)} cards{tail}")
    return 0


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
        from vision.read import choose_abstention

        if not self.done:
            missing = ", ".join(card_name(c) for c in self.order if c not in self.faces)
            raise DeckError(f"not finished: still to show {missing}")
        deck = Deck(faces=self.faces)
        deck.abstain = choose_abstention(deck)
        deck.save(out)
        return deck
