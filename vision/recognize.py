"""Every card lying face up in one image, found and read: what ``belote-table
vision recognize`` prints for each image.

Two ways of finding a card, merged:

- its outline (``vision.locate``), read by ``vision.read`` (alignment and
  correlation against the enrolled faces);
- its keypoints (``vision.keypoints``): the enrolled face's keypoints found
  in the photo and proved by one homography, which also finds cards whose
  outline is covered (trick heaps, fans) or lost on a table of their colour.

A card both find is read when they agree; when they disagree it is reported
unknown (two methods naming two cards is no read). A card only one finds is
reported as that one reads it. Then the index corners (``vision.corner_read``:
cards of heaps and fans showing only a corner) are merged in
(``vision.corner_merge``).

One dict per card: ``{"card": "Jh" | None, "confidence": 0.97, "corners":
[[x, y] * 4]}`` (corners in the image's pixels; ``find_cards`` order for an
outline, the mapped enrolled face's for keypoints). ``card`` is None when
the reader abstains: never a guess.
"""

from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from referee.cards import card_name

from . import corner_merge
from .corner_read import read_corners
from .deck import Deck
from .keypoints import MIN_INLIERS, Hit, find_by_keypoints
from .locate import find_cards
from .outline_fit import lone_card_outlines
from .read import decide, read_card, verify, views_of

#: A keypoint hit and an outline are the same card when this share of the
#: smaller of the two overlaps.
_SAME_PLACE = 0.6


def recognize(image_bgr: np.ndarray, deck: Deck, mask: Optional[np.ndarray] = None) -> list[dict]:
    hits = [h for h in find_by_keypoints(image_bgr, deck) if _confirmed(image_bgr, h, deck)] if mask is None else []
    quads = find_cards(image_bgr, mask=mask)
    if mask is None:
        quads = lone_card_outlines(image_bgr, quads)
    claimed = set()
    cards = []
    for quad in quads:
        card, confidence, _ = read_card(image_bgr, quad, deck)
        here = [i for i, hit in enumerate(hits) if _overlap(hit.quad, quad) >= _SAME_PLACE]
        claimed.update(here)
        named = {hits[i].card for i in here}
        if card is None and len(named) == 1:
            hit = hits[here[0]]
            card, confidence = hit.card, hit.confidence
        elif card is not None and named and named != {card}:
            card, confidence = None, 0.0
        cards.append(_entry(card, confidence, quad))
    for i, hit in enumerate(hits):
        if i not in claimed:
            cards.append(_entry(hit.card, hit.confidence, hit.quad))
    return corner_merge.merge(cards, read_corners(image_bgr, deck)) if mask is None else cards


def _confirmed(image_bgr: np.ndarray, hit: Hit, deck: Deck) -> bool:
    """A keypoint hit stands when the aligned reader, reading the face it
    maps, names the same card, or (a card partly covered, where the reader
    must abstain) ranks it first and the keypoints are twice the minimum.
    Keypoints alone confuse cards that share a layout (an 8 of spades and
    of diamonds: the same pips' places)."""
    reading = decide(verify(views_of(image_bgr, hit.quad), deck))
    if reading.card is not None:
        return reading.card == hit.card
    return reading.details["best"] == card_name(hit.card) and hit.inliers >= 2 * MIN_INLIERS


def _entry(card: Optional[int], confidence: float, quad: np.ndarray) -> dict:
    return {"card": None if card is None else card_name(card), "confidence": round(float(confidence), 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(quad).reshape(4, 2)]}


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return inter / max(min(cv2.contourArea(np.asarray(a, np.float32)), cv2.contourArea(np.asarray(b, np.float32))),
                       1e-6)
