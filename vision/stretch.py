"""A photo's pixel shape: the one grid of stretches and the one card-shape test.

A photo's pixels need not be square: a labelled set's export resized to
640 x 640 stretches a 4:3 phone photo by 4/3 along one axis (and a 16:9
webcam frame by 16/9), so every card in it is a parallelogram of other
proportions. Where a card lies is judged up to a stretch of the picture's
width (``STRETCHES``, 0.5-2): a quad is *card-shaped* at a stretch when,
its picture's width divided by it, it is convex, its corners are within
25 degrees of square and its proportions a card's (``card_stretches``).
The best-proven card fixes the photo's stretch (``fit``: among the
stretches at which it is card-shaped, the one where its corners are most
square and its proportions nearest the enrolled face's); every other card
must be card-shaped within ``SAME`` of it (one photo, one pixel shape), and
the index-corner reader reads the photo made square again at it when the
card fits that well (``MISFIT``).

Both ``vision.keypoints`` (which cards' homographies are believed) and
``vision.corner_read`` (the stretch a photo is squared by) use this module:
one grid, one test, the stretch worked out once per photo.
"""

from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

#: The stretches of the picture's width tried (1 among them: square pixels),
#: about 2.3 % apart.
STRETCHES = np.geomspace(0.5, 2.0, 61)
#: How far (log) another card's stretch may be from the photo's: 10 %.
SAME = float(np.log(1.1))
#: How far from the enrolled face's shape (corners' cos squared plus log
#: aspect squared, summed) the best-proven card may be for its stretch to
#: be trusted to square the photo for the index-corner reader.
MISFIT = 0.05
#: The stretches a square photo may have been saved at: a 4:3 or a 16:9
#: frame, either way round, resized to a square by a labelled set's export
#: (``looked_at``).
EXPORTED = (4 / 3, 3 / 4, 16 / 9, 9 / 16)
#: A card seen from above: corners within 90 +- 25 degrees, proportions 1.2-1.9.
_MAX_CORNER_COS = 0.42
_ASPECT = (1.2, 1.9)


def looked_at(image: np.ndarray) -> tuple[float, ...]:
    """The stretches a photo's keypoints are looked for at (its width
    divided by each): square pixels, and for a square photo, which is most
    often a camera's frame saved square, also the frames of ``EXPORTED``.
    SIFT's descriptors do not survive a stretch of a third or more: a 16:9
    phone photo of a 9d saved as 640 x 640 gave 94 matches with the 9d's
    face and 12 inliers on no card's shape as it is, 18 on the card made
    16:9 again."""
    h, w = image.shape[:2]
    return (1.0,) + EXPORTED if h == w else (1.0,)


def card_shaped(quad: np.ndarray) -> bool:
    """``quad`` (4 x 2, in order round the card) is a card seen from above
    in square pixels: convex, near-right corners, a card's proportions."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return False
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides.min() < 20:
        return False
    aspect = (sides[1] + sides[3]) / (sides[0] + sides[2])
    if not (_ASPECT[0] <= aspect <= _ASPECT[1]):
        return False
    for i in range(4):
        a, b = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        if abs(float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))) > _MAX_CORNER_COS:
            return False
    return True


def card_stretches(quad: np.ndarray) -> np.ndarray:
    """The stretches (of ``STRETCHES``) at which ``quad``, clockwise from a
    corner of its top side, is a card seen from above once its picture's
    width is divided by the stretch (empty: at none)."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    return np.array([s for s in STRETCHES if card_shaped(quad / np.float32([s, 1.0]))], np.float64)


def fit(quad: np.ndarray, aspect: float, picture: tuple[int, int]) -> Optional[tuple[float, float]]:
    """(the photo's stretch as ``quad`` shows it, how far from a card it
    still is there): among the stretches at which ``quad`` (a whole
    enrolled face mapped into the photo, clockwise from its top-left) is
    card-shaped, the one where its corners are most square and its
    proportions (long / short) nearest ``aspect``. None when it is
    card-shaped at none. A 4:3 photo exported to 640 x 640 gives 4/3 (or 3/4).

    ``picture``: the photo's (height, width). One that is not square is a
    camera's frame, of square pixels, wherever the card is card-shaped in
    them: it is fitted at 1 alone. A card seen in perspective near a
    frame's edge is sheared, and fits other stretches better (an 8c at the
    corner of a rendered 1600 x 1200 French table photo fitted 1.26, and
    the index corners, read squared by it, took a 7c for the 7s). Only a
    card that is no card's shape in square pixels says such a picture was
    stretched (a 4:3 frame squeezed to 450 x 600)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    best = None
    tried = np.array([1.0]) if picture[0] != picture[1] and card_shaped(q) else card_stretches(q)
    for s in tried:
        sides = np.linalg.norm((q - np.roll(q, 1, axis=0)) / [s, 1.0], axis=1)     # side i ends at corner i
        misfit = skew(q, s) + float(np.log((sides[0] + sides[2]) / (sides[1] + sides[3]) / aspect) ** 2)
        if best is None or misfit < best[1]:
            best = (float(s), misfit)
    return best


def skew(quad: np.ndarray, at: float) -> float:
    """How far from right angles ``quad``'s corners are once its picture's
    width is divided by ``at``: the sum of their cosines squared (0 for a
    rectangle; a stretch the picture was not saved at shears a card lying
    at a slant, and turns its corners)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = (q - np.roll(q, 1, axis=0)) / [at, 1.0]          # side i ends at corner i
    lengths = np.linalg.norm(sides, axis=1)
    nxt = np.roll(sides, -1, axis=0)
    cos = (sides * nxt).sum(axis=1) / (lengths * np.roll(lengths, -1) + 1e-9)
    return float((cos ** 2).sum())


def same(stretches: np.ndarray, photo: float) -> bool:
    """Some of ``stretches`` (a card's, ``card_stretches``) is the photo's, within ``SAME``."""
    return bool(len(stretches)) and float(np.abs(np.log(stretches) - np.log(photo)).min()) <= SAME + 1e-9
