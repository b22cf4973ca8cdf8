"""Putting the index-corner reads (``vision.corner_read``) beside the whole-face reads of ``recognize``.

A corner lies on a card the whole-face reader found when the index's centre
is inside that card's quad and the card its index places there covers most
of it. Then the two must agree: the same card is one card (nothing added);
a face the reader would not name takes the corner's read; two different
cards make it unknown (two methods naming two cards is no read). A corner
on no found card is a card of its own (a trick heap's, a fan's), reported
with the whole card as its index places it (``corners``) and the index box
it was read from (``index``); such a card, covered parts included, is not
checked against the next corners (in a fan it spans its neighbours'
indices). A card already named elsewhere is not named twice: a deck holds
each card once.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import card_name

from .corner_read import CornerRead

#: A corner's card and a found quad are the same card when this share of the smaller overlaps.
_SAME_CARD = 0.6


def merge(cards: list[dict], reads: list[CornerRead]) -> list[dict]:
    """``cards`` (``recognize``'s entries) with the corner reads merged in (see module doc)."""
    out = [dict(c) for c in cards]
    found = list(out)                  # a corner's own card (its covered parts included) is no found card
    for r in sorted(reads, key=lambda r: -r.confidence):
        name = card_name(r.card)
        centre = tuple(float(v) for v in r.index.mean(axis=0))
        here = [e for e in found if cv2.pointPolygonTest(np.float32(e["corners"]).reshape(-1, 1, 2), centre, False) >= 0
                and _overlap(np.float32(e["corners"]), r.corners) >= _SAME_CARD]
        if here:
            for e in here:
                if e["card"] is None and not e.get("conflict"):
                    e.update(card=name, confidence=r.confidence, index=_points(r.index))
                elif e["card"] != name:
                    e.update(card=None, confidence=0.0, conflict=True)
        elif not any(e["card"] == name for e in out):
            out.append({"card": name, "confidence": round(float(r.confidence), 3), "corners": _points(r.corners),
                        "index": _points(r.index)})
    for e in out:
        e.pop("conflict", None)
    return out


def _points(quad: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(quad).reshape(4, 2)]


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, np.float32).reshape(4, 2), np.asarray(b, np.float32).reshape(4, 2)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return inter / max(min(cv2.contourArea(a), cv2.contourArea(b)), 1e-6)
