"""Putting the index-corner reads (``vision.corner_read``) beside the whole-face reads of ``recognize``.

A corner read lies on a card the whole-face reader found when it sits at
one of that card's corners: the card corner its index places (the corner
of the index box) is near a corner of the found quad, and the index lies
inside the quad (two cards lying corner to corner are two cards). Then the two must
agree: the same card is one card (nothing added); two different cards make
it unknown (two methods naming two cards is no read). A found card the
reader would not name takes the corners' read when they all name one card;
when they name several, the found "card" is a heap's outline (several cards
taken for one) and stays unknown, and each corner is a card of its own.

Two corner reads naming two cards on one index (their index boxes mostly
shared: one of them read wrong, or placed wrong) name nothing: the place
is listed as unknown. A found card the reader left unknown does not take a
corner's read of a card named elsewhere.

A corner on no found card is a card of its own (a trick heap's, a fan's),
reported with the whole card as its index places it (``corners``, covered
parts included) and the index box it was read from (``index``). A card
already named elsewhere is not named twice: a deck holds each card once.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import card_name

from . import overlap
from .corner_read import CornerRead

#: An index sits at a found card's corner when the card corner it places is
#: within this share of the found quad's short side of one of its corners
#: (two cards of a fan or a heap have corners further apart).
_AT_CORNER = 0.15
#: Two index boxes sharing more than this share of the smaller are one index.
_SAME_INDEX = 0.3


def merge(cards: list[dict], reads: list[CornerRead]) -> list[dict]:
    """``cards`` (``recognize``'s entries) with the corner reads merged in (see module doc)."""
    out = [dict(c) for c in cards]
    reads, clashes = _one_name_per_index(reads)
    on: dict[int, list[CornerRead]] = {}
    own: list[CornerRead] = []
    for r in sorted(reads, key=lambda r: -r.confidence):
        here = [k for k, e in enumerate(out[:len(cards)]) if _at_corner(np.float32(e["corners"]), r)]
        for k in here:
            on.setdefault(k, []).append(r)
        if not here:
            own.append(r)
    for k, rs in on.items():
        e, names = out[k], {card_name(r.card) for r in rs}
        if e["card"] is None and len(names) == 1 and not any(o["card"] in names for o in out):
            e.update(card=names.pop(), confidence=round(float(rs[0].confidence), 3), index=_points(rs[0].index))
        elif e["card"] is None:
            own.extend(rs)
        elif names != {e["card"]}:
            e.update(card=None, confidence=0.0)
    for r in sorted(own, key=lambda r: -r.confidence):
        name = card_name(r.card)
        if not any(e["card"] == name for e in out):
            out.append({"card": name, "confidence": round(float(r.confidence), 3), "corners": _points(r.corners),
                        "index": _points(r.index)})
    for r in clashes:
        out.append({"card": None, "confidence": 0.0, "corners": _points(r.corners), "index": _points(r.index)})
    return out


def _one_name_per_index(reads: list[CornerRead]) -> tuple[list[CornerRead], list[CornerRead]]:
    """(the reads no other read contradicts, one read standing for each place
    two contradict): two reads naming two cards whose index boxes share more
    than ``_SAME_INDEX`` of the smaller are two names for one index (one of
    them placed wrong, or read wrong), and neither is taken."""
    clash = set()
    for i, a in enumerate(reads):
        for j in range(i + 1, len(reads)):
            b = reads[j]
            if a.card != b.card and overlap.share(a.index, b.index) > _SAME_INDEX:
                clash.update((i, j))
    kept = [r for i, r in enumerate(reads) if i not in clash]
    places: list[CornerRead] = []
    for r in sorted((reads[i] for i in clash), key=lambda r: -r.confidence):
        if all(overlap.share(r.index, p.index) <= _SAME_INDEX for p in places):
            places.append(r)
    return kept, places


def _at_corner(quad: np.ndarray, r: CornerRead) -> bool:
    q = np.asarray(quad, np.float32).reshape(4, 2)
    short = float(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1).min())
    centre = tuple(float(v) for v in r.index.mean(axis=0))
    # Its index on the card too: two cards lying corner to corner are not one.
    return float(np.linalg.norm(q - r.corners[0], axis=1).min()) <= _AT_CORNER * short \
        and cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0


def _points(quad: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(quad).reshape(4, 2)]
