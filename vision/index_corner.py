"""Finding a card's index corner (rank glyph over a small suit pip) in a photo, at any angle and size.

Why: in a trick heap or a fanned hand most cards show only a corner, and
the whole-face reader (``vision.read``) has nothing to align. What every
corner keeps is its *index*: a rank glyph with a small suit pip under it,
along the card's long side. Two points fix where an index lies, which way
the card runs and how big it is: the rank glyph's centre and the pip's
centre. This module finds such pairs of ink blobs and cuts each into a
canonical patch (``IndexFrame``: origin at the rank, the pip straight
below, one unit the distance between them), whatever the photo's
rotation and scale; ``vision.corner_read`` learns the enrolled deck's
patches and names them.

The rank glyph can be several blobs (the "1" and "0" of a 10): blobs beside
the seed, across the rank-to-pip line, are taken with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

#: Ink: a pixel this many grey levels darker (in the darkest of its three
#: channels, so red ink counts as much as black) than the mean of the block
#: around it.
_INK_BLOCK = 41
_INK_DROP = 22
#: Blobs that can be a glyph or an index pip: area (px) and bounding box.
_MIN_AREA = 12
_MAX_SIDE = 90
_MIN_FILL = 0.12
#: The canonical patches: (x0, y0, x1, y1) in units of the rank-to-pip
#: distance around the rank's centre (y towards the pip), and the size
#: (width, height) they are sampled at. ``COARSE``: the whole index, small
#: (is it an index at all, which cards is it near); ``RANK`` and ``SUIT``:
#: the glyph and the pip alone, fine (which rank, which suit). ``SUIT``
#: holds the pip and little around it: wider (0.7 units either side, from
#: 0.5 to 1.6 down), a tight fan's neighbour edge and the rank's foot made
#: every black pip as like a spade as a club (Lowe's ratio 0.55-0.96 on
#: bidly's deals 1-3; there 48 -> 59 cards named, 0 wrong).
COARSE = ((-0.8, -0.8, 0.8, 1.7), (16, 25))
RANK = ((-0.8, -0.75, 0.8, 0.45), (36, 27))
SUIT = ((-0.55, 0.55, 0.55, 1.45), (24, 19))
#: The rank glyph's core: ``RANK`` without the sides, where a fanned
#: neighbour's edge and shadow lie (they lower every rank's score alike and
#: so hide which rank is nearest). ``RANK`` still says whether it is a glyph.
RANK_CORE = ((-0.55, -0.75, 0.55, 0.45), (25, 27))


@dataclass(frozen=True)
class Blobs:
    centres: np.ndarray   # N x 2 (x, y)
    areas: np.ndarray     # N
    labels: np.ndarray    # the connected-components label image
    ids: np.ndarray       # N: each blob's label in ``labels``


@dataclass(frozen=True)
class IndexFrame:
    """Where one index might lie: its rank's centre, its pip's centre."""

    rank: np.ndarray      # (x, y)
    pip: np.ndarray       # (x, y)
    pip_id: int           # the pip's blob label (its ink gives the suit's colour)

    @property
    def unit(self) -> float:
        return float(np.linalg.norm(self.pip - self.rank))

    def to_image(self) -> np.ndarray:
        """2x3 affine map: canonical units (x across, y towards the pip, rank at 0) -> image px."""
        down = self.pip - self.rank
        across = np.array([down[1], -down[0]])      # the face's x axis when ``down`` is its y axis
        return np.array([[across[0], down[0], self.rank[0]], [across[1], down[1], self.rank[1]]], np.float64)

    def points(self, canonical: np.ndarray) -> np.ndarray:
        m = self.to_image()
        pts = np.asarray(canonical, np.float64).reshape(-1, 2)
        return pts @ m[:, :2].T + m[:, 2]


def ink(image_bgr: np.ndarray) -> np.ndarray:
    """Binary map of printing: darker than around in the darkest channel."""
    if image_bgr.ndim == 3:
        b, g, r = cv2.split(image_bgr)
        darkest = cv2.min(cv2.min(b, g), r)
    else:
        darkest = image_bgr
    return cv2.adaptiveThreshold(darkest, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, _INK_BLOCK,
                                 _INK_DROP)


def blobs(image_bgr: np.ndarray) -> Blobs:
    """The ink blobs the size of a glyph or an index pip."""
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(ink(image_bgr), connectivity=8)
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    keep = (area >= _MIN_AREA) & (np.maximum(w, h) <= _MAX_SIDE) & (np.maximum(w, h) >= 4) \
        & (area >= _MIN_FILL * w * h)
    keep[0] = False
    ids = np.flatnonzero(keep)
    return Blobs(centroids[ids].astype(np.float64), area[ids].astype(np.float64), labels, ids)


@dataclass(frozen=True)
class Gates:
    """The enrolled deck's index geometry, widened: rank-to-pip distance over
    the pip's size (sqrt of its area), and the rank's area over the pip's."""

    reach: tuple[float, float]
    area_ratio: tuple[float, float]


def frames(b: Blobs, gates: Gates, seeds_alone: bool = False) -> list[IndexFrame]:
    """Every rank-over-pip pair the gates allow, the rank grouped with the
    blobs beside it (a 10's two digits); duplicates merged.

    ``seeds_alone``: where a rank was grouped, also its first blob alone. In
    a fanned hand the next card's index lies beside this one's rank, at a
    10's digit's distance: grouped with it, the rank's centre moves off the
    glyph and every patch with it (bidly's fans: 118 -> 124 of 224 read
    with it, the French and classic tune halves unchanged). The reader asks
    for them; the examples are learnt from grouped frames only (learnt
    from both, bidly gained 1 more and the French green tune heaps lost 1)."""
    n = len(b.areas)
    if n < 2:
        return []
    size = np.sqrt(b.areas)
    diff = b.centres[None, :, :] - b.centres[:, None, :]          # [pip, seed] -> seed - pip
    dist = np.linalg.norm(diff, axis=2)
    reach = dist / size[:, None]
    ok = (reach >= gates.reach[0]) & (reach <= gates.reach[1])
    np.fill_diagonal(ok, False)
    out, seen = [], set()
    for p, s in zip(*np.nonzero(ok)):
        pip = b.centres[p]
        d = dist[p, s]
        down = (pip - b.centres[s]) / d
        across = np.array([-down[1], down[0]])
        rel = b.centres - b.centres[s]
        along, side = rel @ down, rel @ across
        group = (np.abs(along) <= 0.3 * d) & (np.abs(side) <= 0.75 * d) & (b.areas >= 0.2 * b.areas[s])
        group[p] = False
        group[s] = True
        area = b.areas[group].sum()
        ratio = area / b.areas[p]
        if not gates.area_ratio[0] <= ratio <= gates.area_ratio[1]:
            continue
        rank = (b.centres[group] * b.areas[group, None]).sum(axis=0) / area
        candidates = [(rank, tuple(sorted(int(i) for i in b.ids[group])))]
        if seeds_alone and group.sum() > 1 and \
                gates.area_ratio[0] <= b.areas[s] / b.areas[p] <= gates.area_ratio[1]:
            candidates.append((b.centres[s].copy(), (int(b.ids[s]),)))
        for centre, members in candidates:
            key = (int(b.ids[p]), members)
            if key not in seen and np.linalg.norm(pip - centre) >= 3:
                seen.add(key)
                out.append(IndexFrame(centre, pip.copy(), int(b.ids[p])))
    return out


def patch(grey: np.ndarray, frame: IndexFrame, where: tuple = COARSE) -> np.ndarray:
    """One canonical patch of a frame (``COARSE``, ``RANK`` or ``SUIT``)."""
    (x0, y0, x1, y1), (w, h) = where
    # patch px -> canonical units -> image px
    to_units = np.array([[(x1 - x0) / w, 0, x0 + 0.5 * (x1 - x0) / w],
                         [0, (y1 - y0) / h, y0 + 0.5 * (y1 - y0) / h], [0, 0, 1]])
    m = np.vstack([frame.to_image(), [0, 0, 1]]) @ to_units
    return cv2.warpAffine(grey, m[:2].astype(np.float32), (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def vector(p: np.ndarray) -> np.ndarray:
    """A patch as a zero-mean unit row, lightly smoothed (a pixel's shift costs little)."""
    v = cv2.GaussianBlur(p.astype(np.float32), (0, 0), 0.8).ravel()
    v = v - v.mean()
    return v / (np.linalg.norm(v) + 1e-6)


def grey_of(image_bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY) if image_bgr.ndim == 3 else image_bgr


def pip_redness(image_bgr: np.ndarray, b: Blobs, frame: IndexFrame) -> Optional[float]:
    """The pip's ink chroma towards red (Lab a*, minus the paper's around
    it): black pips near 0, red ones 25-60. None for a grey photo."""
    if image_bgr.ndim != 3:
        return None
    r = max(3, int(round(0.7 * frame.unit)))
    x, y = (int(round(v)) for v in frame.pip)
    hgt, wid = b.labels.shape
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(wid, x + r + 1), min(hgt, y + r + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    lab = cv2.cvtColor(image_bgr[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    mine = b.labels[y0:y1, x0:x1] == frame.pip_id
    paper = b.labels[y0:y1, x0:x1] == 0
    if mine.sum() < 4 or paper.sum() < 4:
        return None
    return float(np.median(lab[..., 1][mine]) - np.median(lab[..., 1][paper]))
