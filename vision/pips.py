"""Counting the pips of a number card: a card that is not in the deck must not be read.

A 52-card pack's 6 or 5 left on the table looks, to any comparison with the
32 enrolled faces, most like an 8 or a 9 of its suit: same indices' shape at
a distance, same pips, one or two fewer of them. What tells it apart is the
number of pips, which is what makes a number card what it is: a seven has
seven, and so on. So the reader counts the pips of the face it
read and refuses a count two or more away from the card's own.

Only where enrolment confirmed it: a card takes part when its enrolled
face(s) count exactly as many pips as its rank says (``expected_pips``). A
design whose number cards carry a picture, or an enrolment shot whose pips
merged, simply leaves that card out of the check; nothing is assumed about
the deck beyond what its own photos showed.

Counting: the face at 100 x 150 px, ink is what is clearly darker than the
paper (red and black alike in grey), the two index corners masked out, and
the pips are the connected blobs of about the typical blob's size (a stray
speck or a court's frame line is not a pip).
"""

from __future__ import annotations

from typing import Iterable, Optional

import cv2
import numpy as np

from referee.cards import SEVEN, TEN, rank_of

_SIZE = (100, 150)
#: The index boxes (width, height, in px of ``_SIZE``) masked in two opposite corners, and the border ignored.
_INDEX = (22, 45)
_BORDER = 5
#: A blob counts as a pip within this range of the median blob's area; smaller ones are specks.
_PIP_AREA = (0.4, 2.5)
_MIN_BLOB = 12
#: A count this far from the card's own is not that card.
TOLERANCE = 2


def expected_pips(card: int) -> Optional[int]:
    """Pips printed in the body of a number card (seven to ten: 7-10); None
    for the others. Not the ace: its one pip is often an ornament of many
    blobs (the ace of spades), counted differently from one shot to the next."""
    rank = rank_of(card)
    return 7 + (rank - SEVEN) if SEVEN <= rank <= TEN else None


def count_pips(face_bgr: np.ndarray) -> int:
    """How many pip-sized blobs of ink the body of a rectified face holds."""
    gray = cv2.cvtColor(cv2.resize(face_bgr, _SIZE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    inner = gray[2 * _BORDER:-2 * _BORDER, 2 * _BORDER:-2 * _BORDER]
    paper = float(np.percentile(inner, 75))
    ink = (gray < paper - max(40.0, 0.35 * (paper - float(np.percentile(inner, 2))))).astype(np.uint8)
    w, h = _INDEX
    ink[:h, :w] = 0
    ink[-h:, -w:] = 0
    ink[:_BORDER], ink[-_BORDER:], ink[:, :_BORDER], ink[:, -_BORDER:] = 0, 0, 0, 0
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    areas = areas[areas >= _MIN_BLOB]
    if not len(areas):
        return 0
    median = float(np.median(areas))
    return int(np.sum((areas >= _PIP_AREA[0] * median) & (areas <= _PIP_AREA[1] * median)))


def countable(faces: dict[int, Iterable[np.ndarray]]) -> dict[int, int]:
    """The cards whose every enrolled face shows as many pips as its rank
    says, with that count: the cards the check may be trusted on."""
    out = {}
    for card, shots in faces.items():
        expected = expected_pips(card)
        if expected is not None and all(count_pips(face) == expected for face in shots):
            out[card] = expected
    return out
