"""Finding enrolled cards in a photo by their keypoints: the cards no outline shows.

In a trick heap or a fanned hand most cards have no outline of their own:
another card covers their edges. But what does show of them (a court card's
picture, an index corner, a few pips) still carries the keypoints of their
enrolled face. Each keypoint of the photo (SIFT, Lowe 2004, described as
RootSIFT, Arandjelovic & Zisserman 2012) is matched to the enrolled faces'
keypoints; the matches of each card that agree on one homography (RANSAC)
are geometric proof that this card lies there, and the homography maps the
whole enrolled face onto the photo: the card is located, covered parts and
all. A card from another deck, or a 2-6, has no such consistent set.

A candidate is kept only when the mapped face is a card seen from above
(convex, near-right corners, a card's proportions) with enough inliers.
A photo's pixels need not be square (``vision.stretch``: a 4:3 phone photo
saved as 640 x 640): the shape is judged up to a stretch of the picture's
width; the best-proven card (most inliers) fixes the photo's stretch (where
its corners are most square and its proportions the enrolled face's), and
every other card must be card-shaped at nearly that same stretch: one
photo has one pixel shape. That stretch is handed on with the candidates
(``Candidates.stretch``): the index-corner reader squares the photo by it.
Several cards may be proposed at one place (two cards sharing a picture or
a pip layout, a king of hearts and of diamonds, an 8 of spades and of
clubs): keypoints alone do not tell them apart, so ``vision.recognize``
lays each proposed face over the photo (``vision.face_match``) and decides.

A plain card's pips are alike (a 9 of clubs' pips match the 7's, and each
other): over the whole photo and deck Lowe's ratio leaves a plain card too
few matches. Where an outline shows a card, ``matched_in`` matches again
inside it, each keypoint only against the card's keypoints near where the
outline puts them, which a pip's look-alikes are not.

Used for still photos (``vision.recognize``), where a few hundred
milliseconds are affordable; the live tracker reads the newest card on top
of a heap from what changed (``vision.track``), which needs none of this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from . import overlap, stretch
from .deck import Deck
from .face_match import despeckled

#: Inliers a card needs: below, the keypoints do not prove it lies there.
#: Between ``MIN_INLIERS`` and ``PROVEN`` (a plain card's few pips, a card
#: far from the camera) they propose it and place it roughly, and the
#: reading (``vision.face_match``: ECC, then the correlation) must prove it;
#: an outline found on it gives the place its geometry (``vision.recognize``).
MIN_INLIERS = 8
PROVEN = 12
#: Lowe's ratio of the nearest to the second nearest enrolled descriptor
#: (when the two belong to different cards).
_RATIO = 0.8
#: Reprojection error (px) RANSAC allows, and the photo's longest side
#: keypoints are found at (larger photos are scaled down first).
_RANSAC_PX = 5.0
_WORK_SIDE = 1400
_FACE_SIDE = 352
#: SIFT's contrast threshold (low: a webcam's soft print still gives keypoints).
_CONTRAST = 0.02
#: The seed FLANN's randomised trees are drawn from (``_Index``).
_TREE_SEED = 0x5EED
#: Bumped when what the deck's index holds changes, so cached ones are remade.
INDEX_VERSION = 1


@dataclass(frozen=True)
class Hit:
    card: int
    quad: np.ndarray          # the mapped face's corners in the photo (clockwise from its top-left)
    inliers: int
    homography: np.ndarray    # enrolled face (px of ``face_size``) -> photo (px)
    face_size: tuple[int, int]


class _Index:
    """The deck's keypoints (every enrolled face), as one matcher."""

    def __init__(self, points: np.ndarray, labels: np.ndarray, descriptors: np.ndarray, size: tuple[int, int]):
        self.sift = cv2.SIFT_create(contrastThreshold=_CONTRAST)
        self.points, self.labels, self.descriptors, self.size = points, labels, descriptors, size
        self.matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 64})
        if len(labels):
            self.matcher.add([descriptors])
            # FLANN's randomised k-d trees are drawn from OpenCV's global
            # generator, which whatever ran before (a rendered photo's noise,
            # the corner model's copies) left anywhere: seeded, the trees, and
            # so every photo's approximate matches and their RANSAC, are a
            # function of the deck alone, not of what the process did first.
            cv2.setRNGSeed(_TREE_SEED)
            self.matcher.train()

    @classmethod
    def of(cls, deck: Deck) -> "_Index":
        sift = cv2.SIFT_create(contrastThreshold=_CONTRAST)
        descs, points, labels = [np.zeros((0, 128), np.float32)], [], []
        size = (0, 0)
        for card in deck.cards:
            for face in map(despeckled, deck.faces[card]):
                h, w = face.shape[:2]
                scale = _FACE_SIDE / h
                g = cv2.cvtColor(cv2.resize(face, (round(w * scale), _FACE_SIDE), interpolation=cv2.INTER_AREA),
                                 cv2.COLOR_BGR2GRAY)
                size = (g.shape[1], g.shape[0])
                kp, d = sift.detectAndCompute(g, None)
                if d is None:
                    continue
                descs.append(root_sift(d))
                points += [k.pt for k in kp]
                labels += [card] * len(kp)
        return cls(np.float32(points).reshape(-1, 2), np.array(labels, np.int32), np.vstack(descs), size)

    def arrays(self) -> dict:
        return {"points": self.points, "labels": self.labels, "descriptors": self.descriptors,
                "size": np.array(self.size, np.int32)}

    @classmethod
    def from_arrays(cls, data) -> "_Index":
        return cls(data["points"], data["labels"], data["descriptors"], tuple(int(v) for v in data["size"]))


def root_sift(d: np.ndarray) -> np.ndarray:
    """RootSIFT: L1-normalised, square-rooted descriptors (compared by L2, this is the Hellinger kernel)."""
    d = d / (np.abs(d).sum(axis=1, keepdims=True) + 1e-7)
    return np.sqrt(d).astype(np.float32)


def _index(deck: Deck) -> _Index:
    """The deck's index, made on first use (about a second for 32 faces)
    and kept with the deck (``keypoints.npz``, remade when the faces or how
    they are described change: ``Deck.kept``)."""
    return deck.kept("keypoints.npz", f"keypoints {INDEX_VERSION} {_FACE_SIDE} {_CONTRAST}",
                     _Index.of, _Index.arrays, _Index.from_arrays)


@dataclass(frozen=True)
class Candidates:
    """What the photo's keypoints prove: the cards, most inliers first, and
    the photo's stretch when a card proven by them (``PROVEN``) fits a
    card's shape closely enough to square the photo by it
    (``stretch.MISFIT``; None: no such card, square pixels are assumed)."""

    hits: list[Hit]
    stretch: Optional[float] = None
    seen: Optional["Seen"] = None


@dataclass(frozen=True)
class Seen:
    """The photo's keypoints: where (photo px), their RootSIFT descriptors,
    the scale the photo was found at (1: as it is) and the stretch it was
    made square again by (``stretch.looked_at``; 1: as it is)."""

    points: np.ndarray
    descriptors: np.ndarray
    scale: float
    #: The picture's (height, width): only a square one may have been saved stretched.
    picture: tuple[int, int]
    stretch: float = 1.0


def _seen(image_bgr: np.ndarray, index: _Index, at: float = 1.0) -> Optional[Seen]:
    """The photo's keypoints, found at most ``_WORK_SIDE`` px, its width
    divided by the stretch ``at`` (None: too few to prove a card)."""
    scale = min(1.0, _WORK_SIDE / max(image_bgr.shape[:2]))
    kp, d = index.sift.detectAndCompute(cv2.cvtColor(_squared(image_bgr, scale, at), cv2.COLOR_BGR2GRAY), None)
    if d is None or len(kp) < MIN_INLIERS:
        return None
    return Seen(np.float32([k.pt for k in kp]) * np.float32([at / scale, 1 / scale]), root_sift(d), scale,
                image_bgr.shape[:2], at)


def _squared(image_bgr: np.ndarray, scale: float, at: float) -> np.ndarray:
    """The picture SIFT is run on: scaled by ``scale`` (at most 1), its
    width divided by the stretch ``at``; as it is when neither changes it."""
    if scale == 1.0 and at == 1.0:
        return image_bgr
    return cv2.resize(image_bgr, None, fx=scale / at, fy=scale,
                      interpolation=cv2.INTER_AREA if scale / at < 1 else cv2.INTER_LINEAR)


def keypoint_candidates(image_bgr: np.ndarray, deck: Deck) -> Candidates:
    """Every enrolled card whose matches agree on one card-shaped homography
    (at least ``MIN_INLIERS``), most inliers first: several may lie at one
    place (cards sharing a layout), which ``vision.face_match`` then tells
    apart by laying each face over the photo. A photo whose keypoints
    prove no card as it is, and that may have been saved stretched
    (``stretch.looked_at``), is looked at made square again by each
    stretch, and the one whose cards have most inliers kept. Only then: a
    court card's picture matches nearly as well stretched (a Js: 76
    inliers made 4:3 again, 78 at 16:9), so in a photo it proves, the
    stretch with most inliers is not always the photo's."""
    index = _index(deck)
    if not len(index.labels):
        return Candidates([])
    best = _found(image_bgr, index, 1.0)
    if best.hits and best.hits[0].inliers >= PROVEN:
        return best
    for at in stretch.looked_at(image_bgr)[1:]:
        found = _found(image_bgr, index, at)
        if best.seen is None or _inliers(found) > _inliers(best):
            best = found
    return best


def _found(image_bgr: np.ndarray, index: _Index, at: float) -> Candidates:
    """``keypoint_candidates`` of the photo made square again by the stretch ``at``."""
    seen = _seen(image_bgr, index, at)
    return _candidates(seen, index) if seen is not None else Candidates([])


def _inliers(found: Candidates) -> int:
    return sum(hit.inliers for hit in found.hits)


def _candidates(seen: Seen, index: _Index) -> Candidates:
    """``keypoint_candidates`` for the photo's keypoints ``seen``."""
    pts, scale = seen.points, seen.scale
    by_card: dict[int, list[tuple[int, int]]] = {}
    for pair in index.matcher.knnMatch(seen.descriptors, k=2):
        if len(pair) < 2:
            continue
        a, b = pair
        same = index.labels[a.trainIdx] == index.labels[b.trainIdx]
        if a.distance < _RATIO * b.distance or (same and a.distance < 0.9 * b.distance):
            by_card.setdefault(int(index.labels[a.trainIdx]), []).append((a.queryIdx, a.trainIdx))
    w, h = index.size
    outline = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    candidates = []
    for card, matches in by_card.items():
        if len(matches) < MIN_INLIERS:
            continue
        src = index.points[[t for _, t in matches]]
        dst = pts[[q for q, _ in matches]]
        homography, inliers = cv2.findHomography(src, dst, cv2.RANSAC, _RANSAC_PX / scale)
        if homography is None or int(inliers.sum()) < MIN_INLIERS:
            continue
        quad = cv2.perspectiveTransform(outline, homography).reshape(4, 2).astype(np.float32)
        stretches = stretch.card_stretches(quad)
        if len(stretches):
            candidates.append((Hit(card, quad, int(inliers.sum()), homography, (w, h)), stretches))
    if not candidates:
        return Candidates([], seen=seen)
    candidates.sort(key=lambda c: -c[0].inliers)
    best = candidates[0][0]
    photo, misfit = stretch.fit(best.quad, h / w, seen.picture)
    return Candidates([hit for hit, stretches in candidates if stretch.same(stretches, photo)],
                      photo if best.inliers >= PROVEN and misfit <= stretch.MISFIT else None, seen)


#: Lowe's ratio within one card's own keypoints (``own_matches``), and how
#: many cards (most matches first) have a homography fitted.
_OWN_RATIO = 0.8
_OWN_TOP = 6


def own_matches(image_bgr: np.ndarray, deck: Deck, seen: Optional[Seen] = None) -> list[Hit]:
    """The cards (of the ``_OWN_TOP`` with most matches) whose *own*
    matches agree on one card-shaped homography (at least
    ``MIN_INLIERS``), most inliers first: the
    yardstick's route, where each face is matched alone (exactly, Lowe's
    ratio among that face's keypoints only) and its homography fitted to
    its matches alone. Over the whole deck (``keypoint_candidates``) a
    plain card's pips lose Lowe's ratio to their twins on the suit's other
    cards and a court card shares its picture with another suit: the
    homography left is fitted to a few matches, or to another card's, and
    places the face a few pixels off. Each card's own homography is a
    geometry for that card alone (``face_match.Place.own``): who wins is
    still the correlation after ECC, against every candidate.
    ``seen``: the photo's keypoints, when ``keypoint_candidates`` found them."""
    index = _index(deck)
    seen = seen or (_seen(image_bgr, index) if len(index.labels) else None)
    if seen is None:
        return []
    fw, fh = index.size
    outline = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]).reshape(-1, 1, 2)
    matched = []
    for card in sorted(set(index.labels.tolist())):
        own = index.labels == card
        if own.sum() < 2:
            continue
        # Unit-norm RootSIFT: the nearest is the most similar, and a
        # squared distance is 2 - 2 x similarity (no sort of every row).
        similar = seen.descriptors @ index.descriptors[own].T
        rows = np.arange(len(similar))
        nearest = similar.argmax(axis=1)
        first = 2.0 - 2.0 * similar[rows, nearest]
        similar[rows, nearest] = -np.inf
        second = 2.0 - 2.0 * similar.max(axis=1)
        good = first < _OWN_RATIO ** 2 * second
        if good.sum() >= MIN_INLIERS:
            matched.append((int(good.sum()), card, index.points[own][nearest[good]], seen.points[good]))
    hits = []
    # RANSAC is the cost (most cards' matches are chance ones): the cards
    # with most matches only.
    for _, card, src, dst in sorted(matched, key=lambda m: -m[0])[:_OWN_TOP]:
        homography, inliers = cv2.findHomography(src, dst, cv2.RANSAC, _RANSAC_PX / seen.scale)
        if homography is None or int(inliers.sum()) < MIN_INLIERS:
            continue
        quad = cv2.perspectiveTransform(outline, homography).reshape(4, 2).astype(np.float32)
        if len(stretch.card_stretches(quad)):
            hits.append(Hit(card, quad, int(inliers.sum()), homography, (fw, fh)))
    return sorted(hits, key=lambda hit: -hit.inliers)


#: Re-matching inside an outline (``matched_in``): a photo keypoint is paired
#: with the card's keypoints within this share of the face's diagonal of
#: where the outline puts it, the nearest in descriptor, when its RootSIFT
#: distance is under ``_NEAR``.
_REACH = 0.06
_NEAR = 0.45


def matched_in(image_bgr: np.ndarray, quad: np.ndarray, deck: Deck, turns: bool, at: float = 1.0) -> list[Hit]:
    """The cards whose keypoints match inside an outline where they lie by
    it, most inliers first (at least ``PROVEN``), each with its homography.

    A plain card's pips are alike, within one card and across the suit's
    cards (a 9 of clubs' pips match the 7's): matched over the whole photo
    and deck, Lowe's ratio leaves too few for RANSAC. Inside an outline the
    face's place is known up to its way up (and a quarter turn, ``turns``):
    each keypoint need only be told apart from the card's keypoints near
    where the outline puts it, which a pip's neighbours are not. ``at``:
    the photo's stretch (``vision.stretch``): the crop is made square again
    by it before SIFT, as the whole photo is (``_seen``)."""
    index = _index(deck)
    if not len(index.labels):
        return []
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    x1, y1 = min(x + w, image_bgr.shape[1]), min(y + h, image_bgr.shape[0])
    x, y = max(x, 0), max(y, 0)                # a card running off the picture: what is in it
    crop = image_bgr[y:y1, x:x1]
    scale = min(1.0, _FACE_SIDE * 1.5 / max(crop.shape[1] / at, crop.shape[0]))
    kp, d = index.sift.detectAndCompute(cv2.cvtColor(_squared(crop, scale, at), cv2.COLOR_BGR2GRAY), None)
    if d is None or len(kp) < PROVEN:
        return []
    pts = np.float32([k.pt for k in kp]) / np.float32([scale / at, scale]) + np.float32([x, y])
    inside = np.array([cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(px), float(py)), False) >= 0
                       for px, py in pts])
    if inside.sum() < PROVEN:
        return []
    pts, d = pts[inside], root_sift(d[inside])
    fw, fh = index.size
    outline = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    reach = _REACH * float(np.hypot(fw, fh))
    hits = []
    for card in sorted(set(index.labels.tolist())):
        own = index.labels == card
        face_pts, face_d = index.points[own], index.descriptors[own]
        distances = np.sqrt(np.maximum(2.0 - 2.0 * d @ face_d.T, 0.0))      # unit-norm RootSIFT
        best = None
        for roll in (range(4) if turns else (0, 2)):
            to_photo = cv2.getPerspectiveTransform(outline, np.roll(quad, -roll, axis=0))
            where = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(to_photo)).reshape(-1, 2)
            # Squared distances, per axis: the (keypoints x face keypoints x 2)
            # array and its norm were half of ``recognize``'s time on the real photos.
            dx = where[:, None, 0] - face_pts[None, :, 0]
            dy = where[:, None, 1] - face_pts[None, :, 1]
            near = dx * dx + dy * dy <= reach * reach
            masked = np.where(near, distances, np.inf)
            j = masked.argmin(axis=1)
            ok = masked[np.arange(len(j)), j] < _NEAR
            if ok.sum() < PROVEN:
                continue
            homography, inliers = cv2.findHomography(face_pts[j[ok]], pts[ok], cv2.RANSAC, _RANSAC_PX)
            if homography is None or int(inliers.sum()) < PROVEN:
                continue
            if best is None or int(inliers.sum()) > best.inliers:
                mapped = cv2.perspectiveTransform(outline.reshape(-1, 1, 2), homography).reshape(4, 2)
                best = Hit(card, mapped.astype(np.float32), int(inliers.sum()), homography, (fw, fh))
        if best is not None:
            hits.append(best)
    return sorted(hits, key=lambda hit: -hit.inliers)


#: Finding a card's layout anywhere in the photo (``layout_outlines``): each
#: photo keypoint is paired with its ``_LAYOUT_PAIRS`` nearest among one
#: card's keypoints (RootSIFT distance under ``_NEAR``), and an affine map
#: (a card seen from above, in pixels that may be stretched) is fitted to
#: those pairs by RANSAC, within this share of the photo's short side.
_LAYOUT_PAIRS = 3
_LAYOUT_PX = 0.02
_LAYOUT_ITERS = 4000


def layout_outlines(image_bgr: np.ndarray, deck: Deck, seen: Optional[Seen] = None) -> list[np.ndarray]:
    """Where an enrolled card's layout lies in the photo, with no outline to
    go by: a close-up card cut by the picture's edge, or joined to the
    table by a shadow, has no quadrilateral region, and its pips, alike
    across its suit, leave it too few matches over the whole deck. Each
    card's keypoints are matched alone (no ratio test: a pip's twins are
    all candidates) and the pairs one affine map explains (at least
    ``PROVEN`` photo keypoints) give the mapped face's quad, card-shaped, as
    a hypothesis of where a card lies (it may run off the picture);
    ``matched_in`` then proves it as it proves an outline. Most
    consistent first, one per place. ``seen``: the photo's keypoints, when
    ``keypoint_candidates`` found them already."""
    index = _index(deck)
    seen = seen or (_seen(image_bgr, index) if len(index.labels) else None)
    if seen is None or len(seen.points) < PROVEN:
        return []
    pts, d = seen.points, seen.descriptors
    fw, fh = index.size
    outline = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]).reshape(-1, 1, 2)
    found = []
    for card in sorted(set(index.labels.tolist())):
        own = index.labels == card
        face_pts = index.points[own]
        distances = np.sqrt(np.maximum(2.0 - 2.0 * d @ index.descriptors[own].T, 0.0))
        # The few nearest, in order, without sorting every row whole.
        nearest = np.argpartition(distances, min(_LAYOUT_PAIRS, distances.shape[1] - 1), axis=1)[:, :_LAYOUT_PAIRS]
        nearest = np.take_along_axis(nearest, np.take_along_axis(distances, nearest, axis=1).argsort(axis=1), axis=1)
        q, j = np.nonzero(np.take_along_axis(distances, nearest, axis=1) < _NEAR)
        if len(set(q.tolist())) < PROVEN:
            continue
        src, dst = face_pts[nearest[q, j]], pts[q]
        affine, inliers = cv2.estimateAffine2D(src, dst, method=cv2.RANSAC, maxIters=_LAYOUT_ITERS,
                                               ransacReprojThreshold=_LAYOUT_PX * min(image_bgr.shape[:2]))
        if affine is None:
            continue
        count = len(set(q[inliers.ravel() > 0].tolist()))
        if count < PROVEN:
            continue
        quad = cv2.transform(outline, affine).reshape(4, 2).astype(np.float32)
        if len(stretch.card_stretches(quad)):
            found.append((count, quad))
    kept: list[np.ndarray] = []
    for _, quad in sorted(found, key=lambda f: -f[0]):
        if all(overlap.share(quad, k) < 0.5 for k in kept):
            kept.append(quad)
    return kept

