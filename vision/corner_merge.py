"""Putting the index-corner reads (``vision.corner_read``) beside the whole-face reads of ``recognize``.

A corner read lies on a card the whole-face reader found when it sits at
one of that card's corners: the card corner its index places (the corner
of the index box) is near a corner of the found quad, and the index lies
inside the quad (two cards lying corner to corner are two cards). Then the two must
agree: the same card is one card (nothing added); two different cards make
it unknown (two methods naming two cards is no read). A found card the
reader would not name takes the corners' read when they all name one card;
when the found card is that whole card (its outline is the card the index
places), *both* its index corners must read it, or the keypoints must have
proved that card there (two witnesses): both corners are in view, and the
whole-face reader, which looked at all of it, doubts it (a 6 of hearts of a
52-card pack, a rank the deck lacks, had one index read as an 8 of hearts;
the other came nearest an 8 too, but not clearly). The keypoints are no
second witness for a card lying alone wholly in the picture (``_alone``):
its other index is in view, yet was not read (a 6 of hearts again: its six
pips are six of the 8h's, the keypoints proposed the 8h, and its one index
was read as an 8; round 24). Unless no index shows
where its other one would be, in the picture (``CornerRead.other_shows``; round 9): a place
the keypoints map over a half-covered card spans its covered part too and
looks whole, but its other corner lies under another card, and one index is
then all there is to read, as for any heap's card. When they name several,
or another card's index was read inside it (a card's face holds no other
index; on the rendered tune heaps such outlines fill 0.68 of the card the
index places, as much as a whole card might), the found "card" is a heap's
outline (several cards taken for one) and stays unknown, and each corner
is a card of its own.

Two corner reads naming two cards on one index (their index boxes mostly
shared: one of them read wrong, or placed wrong) name nothing: the place
is listed as unknown. A found card the reader left unknown does not take a
corner's read of a card named elsewhere.

A corner on no found card is a card of its own (a trick heap's, a fan's),
unless it lies alone wholly in the picture with its other index showing
(a 6 of diamonds on a white table, which no outline found, read as an 8d
from one index: both would show on a card of the Belote deck), reported with the whole card as its index places it (``corners``, covered
parts included) and the index box it was read from (``index``). A card
already named elsewhere is not named twice: a deck holds each card once.
"""

from __future__ import annotations

from typing import Optional, Sequence

import cv2
import numpy as np

from referee.cards import card_name

from . import overlap
from .corner_read import CornerRead, corner_model
from .deck import portrait, side_sums

#: An index sits at a found card's corner when the card corner it places is
#: within this share of the found quad's short side of one of its corners
#: (two cards of a fan or a heap have corners further apart).
_AT_CORNER = 0.15
#: Two index boxes sharing more than this share of the smaller are one index.
_SAME_INDEX = 0.3
#: Two reads whose boxes share more than ``_SAME_INDEX`` are still two
#: indices when each was read from its own ink (``_side_by_side``): rank
#: glyphs and pips this many rank-to-pip units apart, their index boxes
#: within 12 degrees and 15 % in size.
_APART = 0.8
_PARALLEL = float(np.cos(np.radians(12)))
_SAME_SIZE = 0.15
#: A found card is the whole card its index places (both its index corners in
#: view) when the two overlap by this much (intersection over union). On the
#: tune halves: whole cards 0.78-0.96; a covered heap card's outline (its
#: visible part) or a heap's outline taken for one card 0.34-0.68.
_WHOLE_IN_VIEW = 0.6
#: A card lies alone when no other card covers more than this share of the
#: smaller of the two; a found place under ``_MARK`` of its area lying on it
#: is a mark printed on it (a pip's outline taken for a card), no card.
_TOUCH = 0.05
_MARK = 0.25


def merge(cards: list[dict], reads: list[CornerRead], proposed: Sequence[tuple[int, ...]] = (),
          size: Optional[tuple[int, int]] = None) -> list[dict]:
    """``cards`` (``recognize``'s entries) with the corner reads merged in (see
    module doc); ``proposed[k]``: the cards the keypoints proved at found card
    ``k``; ``size``: the picture's (height, width), which tells a card lying
    wholly in it (none is, without it)."""
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
        if e["card"] is None and len(names) == 1 and not any(o["card"] in names for o in out) \
                and not _holds_another_index(np.float32(e["corners"]), reads, rs[0].card):
            quad = np.float32(e["corners"])
            seconded = rs[0].both or (k < len(proposed) and rs[0].card in proposed[k]
                                      and not _alone(quad, [o["corners"] for j, o in enumerate(out) if j != k], size))
            if not seconded and rs[0].other_shows \
                    and overlap.iou(quad, rs[0].corners) >= _WHOLE_IN_VIEW:
                continue                   # a whole card the face reader doubts: one index is not enough
            e.update(card=names.pop(), confidence=round(float(rs[0].confidence), 3), index=_points(rs[0].index))
        elif e["card"] is None:
            own.extend(rs)
        elif names != {e["card"]}:
            e.update(card=None, confidence=0.0)
    for r in sorted(own, key=lambda r: -r.confidence):
        name = card_name(r.card)
        alone = not r.both and r.other_shows \
            and _alone(r.corners, [e["corners"] for e in out] + [o.corners for o in own if o.card != r.card], size)
        if not alone and not any(e["card"] == name for e in out):
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
            if a.card != b.card and overlap.share(a.index, b.index) > _SAME_INDEX and not _side_by_side(a, b):
                clash.update((i, j))
    kept = [r for i, r in enumerate(reads) if i not in clash]
    places: list[CornerRead] = []
    for r in sorted((reads[i] for i in clash), key=lambda r: -r.confidence):
        if all(overlap.share(r.index, p.index) <= _SAME_INDEX for p in places):
            places.append(r)
    return kept, places


def _side_by_side(a: CornerRead, b: CornerRead) -> bool:
    """Whether two reads are two indices of a fan, side by side: in a tight
    fan the index boxes (a quarter of the face's width) of neighbouring cards
    share up to 41 % (bidly's deal 3: an Ac beside a Jd, a 9c beside a Kh,
    every one of them right), yet each was read from its own ink. Two frames
    of their own (both rank glyphs and both pips ``_APART`` units apart),
    their index boxes running one way (within ``_PARALLEL``) at one size
    (``_SAME_SIZE``): a read placed wrong (an index turned or shrunk by a bad
    anchor, the clash this rule guards against) or a frame pairing one
    card's glyph with another's pip does neither. The boxes, not the frames,
    give the size: a rank's glyph centre lies higher or lower by its shape
    (an A's 15 % further from its pip than a J's)."""
    if a.frame is None or b.frame is None:
        return False
    da, db = a.index[3] - a.index[0], b.index[3] - b.index[0]
    la, lb = float(np.linalg.norm(da)), float(np.linalg.norm(db))
    if min(la, lb) <= 0 or abs(la - lb) > _SAME_SIZE * min(la, lb) or float(np.dot(da, db)) < _PARALLEL * la * lb:
        return False
    unit = min(float(np.linalg.norm(r.frame[1] - r.frame[0])) for r in (a, b))
    return float(np.linalg.norm(a.frame[0] - b.frame[0])) >= _APART * unit \
        and float(np.linalg.norm(a.frame[1] - b.frame[1])) >= _APART * unit


def _holds_another_index(quad: np.ndarray, reads: list[CornerRead], card: int) -> bool:
    """Whether another card's index was read inside ``quad``: then the found
    "card" is a heap's outline taken for one card (a card's own face holds no
    other card's index), not a whole card whose other corner would show."""
    q = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return any(r.card != card and cv2.pointPolygonTest(q, tuple(float(v) for v in r.index.mean(axis=0)), False) >= 0
               for r in reads)


def _alone(quad: np.ndarray, others: list, size: Optional[tuple[int, int]]) -> bool:
    """Whether the card at ``quad`` lies wholly inside the picture of
    ``size`` (height, width) and no other card (``others``' quads, marks
    printed on it left out) touches it: then both its index corners are in
    view."""
    if size is None:
        return False
    q = np.asarray(quad, np.float32).reshape(4, 2)
    if q.min() < 0 or q[:, 0].max() > size[1] - 1 or q[:, 1].max() > size[0] - 1:
        return False
    area = cv2.contourArea(q)
    return not any(overlap.share(q, o) > _TOUCH and cv2.contourArea(np.float32(o).reshape(4, 2)) >= _MARK * area
                   for o in others)


def _at_corner(quad: np.ndarray, r: CornerRead) -> bool:
    q = np.asarray(quad, np.float32).reshape(4, 2)
    short = float(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1).min())
    centre = tuple(float(v) for v in r.index.mean(axis=0))
    # Its index on the card too: two cards lying corner to corner are not one.
    return float(np.linalg.norm(q - r.corners[0], axis=1).min()) <= _AT_CORNER * short \
        and cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0


def _points(quad: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(quad).reshape(4, 2)]


#: The landed card's face is cut from the frame this tall (px; inside the
#: heights the corner model learnt from), with this share of margin around
#: it so an index at the very edge is whole.
_LANDED_HEIGHT = 300
_LANDED_MARGIN = 0.08
#: The share of the face's width and height, from a corner, that holds its index.
_LANDED_WINDOW = 0.45


def read_landed(frame_bgr: np.ndarray, quad: np.ndarray, deck) -> tuple[Optional[int], float]:
    """The live tracker's second opinion on the card that just landed
    (``vision.pipeline``): its index corners, read on its own face only.

    The tracker knows where the new card lies (``quad``, the part of the
    table that changed); it lies on top, so both its index corners show.
    Only that quad, with a small margin, is cut out and rectified to a face
    ``_LANDED_HEIGHT`` px tall (a card of the table camera's 1080p frame,
    ~120 px, is enlarged to where its glyphs are the size the corner model
    learnt), so the cost is that of one small image, not of the frame; and
    only an index at one of the quad's corners counts, never a card of the
    heap under it peeking into the margin. Returns (card, confidence) when
    both corners name one card (it is asked when the whole-face reader
    doubts the card, and then one index is not enough, as in ``merge``),
    else (None, 0.0)."""
    q = portrait(quad)
    across, along = side_sums(q)
    h = float(_LANDED_HEIGHT)
    w = h * across / max(along, 1e-6)
    pad = _LANDED_MARGIN * h
    face = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
    m = cv2.getPerspectiveTransform(q, face)
    size = (int(round(w + 2 * pad)), int(round(h + 2 * pad)))
    crop = cv2.warpPerspective(frame_bgr, m, size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    # Only where an index can be, the face's top-left and bottom-right corners
    # (either way up), is looked at: the rest is painted over with the paper's
    # colour (a court card's picture holds many glyph-like marks, each a frame to read).
    only = np.empty_like(crop)
    only[:] = _median_colour(crop)
    wx, wy = int(round(pad + _LANDED_WINDOW * w)), int(round(pad + _LANDED_WINDOW * h))
    only[:wy, :wx] = crop[:wy, :wx]
    only[-wy:, -wx:] = crop[-wy:, -wx:]
    reads = [r for r in corner_model(deck).read(only) if _at_corner(face, r)]
    names = {r.card for r in reads}
    if len(names) != 1 or not reads[0].both:
        return None, 0.0
    return reads[0].card, round(float(max(r.confidence for r in reads)), 3)


def _median_colour(image: np.ndarray) -> np.ndarray:
    """Each channel's median of a colour picture (uint8), exactly as
    ``np.median(image.reshape(-1, 3), axis=0)`` gives it (the mean of the two
    middle values when the count is even), counted from the channel's
    histogram: ~0.1 ms for the landed card's face against ~0.9 ms for the
    sort, in the frame that reads the card (``bench vision``)."""
    n = image.shape[0] * image.shape[1]
    out = []
    for ch in range(image.shape[2]):
        below = np.cumsum(cv2.calcHist([image], [ch], None, [256], [0, 256]).ravel())
        # the value at sorted place k is the first whose cumulative count exceeds k
        out.append(0.5 * float(np.searchsorted(below, (n - 1) // 2 + 1) + np.searchsorted(below, n // 2 + 1)))
    return np.array(out)
