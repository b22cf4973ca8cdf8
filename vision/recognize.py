"""Every card lying face up in one image, found and read: what ``belote-table
vision recognize`` prints for each image.

One dict per card found: ``{"card": "Jh" | None, "confidence": 0.97,
"corners": [[x, y] * 4]}`` (corners in the image's pixels, in ``find_cards``
order). ``card`` is None when the reader abstains: never a guess.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from referee.cards import card_name

from .deck import Deck
from .locate import find_cards
from .read import read_card


def recognize(image_bgr: np.ndarray, deck: Deck, mask: Optional[np.ndarray] = None) -> list[dict]:
    cards = []
    for quad in find_cards(image_bgr, mask=mask):
        card, confidence, _ = read_card(image_bgr, quad, deck)
        cards.append({"card": None if card is None else card_name(card),
                      "confidence": round(float(confidence), 3),
                      "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in quad]})
    return cards
