"""Which enrolled card lies at one place of a still photo: each candidate face
laid exactly over the photo and compared, lighting aside.

The place comes with its geometry: the homography of the enrolled face's
keypoints (``vision.keypoints``, proven by RANSAC, a pixel or two off) or a
found outline (``vision.locate``, a few pixels off, its top unknown up to a
quarter turn). The photo is rectified through it into the enrolled faces'
frame, then for each candidate card, each of its enrolled faces either way
up (cards are printed symmetrically, enrolment may have kept either end up):

1. *ECC* (Evangelidis & Psarakis 2008) lays the face over the rectified
   photo by a homography, from where the geometry put it, coarse to fine (a
   quarter and half size: an outline or a keypoint homography a few
   pixels off is pulled in at the coarse level, where the fine one alone
   stalls): what is compared is then the same point of the card, not a pip
   beside it.
2. A *lighting-free correlation*: zero-mean, normalised correlation of
   three channels taken together, the grey level normalised locally (minus
   the local mean, over the local spread: a lamp gradient, a shadow, the
   webcam's vignetting and exposure do not count, only where the ink is) and
   the two chroma channels of Lab less their local mean (so a red pip on a
   black card's place, or the reverse, weighs against it while a warm lamp
   cancels out). Plus the worst inked cell of a grid on the grey: a 6 of
   another pack matches a 7 everywhere but at the missing pip.

Candidates: the cards the keypoints found at that place, the cards that
really get confused with the best of them (same rank in the other suits,
same suit next ranks), and the few nearest by small thumbnails (anything
else). A face cut by the photo's edge (a close-up running off the frame)
is aligned and compared over its part in view only, the yardstick's way,
against every enrolled card: what is in view must tell it from the
nearest other card there (a 7 and an 8 whose differing pip is off the
photo look alike, and the margin says so). A place may come with a second
geometry (``Place.also``, an outline's beside a homography): the better fit counts. The best is read only when it is clearly better than the runner-up
(``decide``), else None: never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import cv2
import numpy as np

from referee.cards import RANKS, SUITS, make_card, rank_of, suit_of

from .deck import Deck

#: Size (width, height) of the compared faces: pips and index glyphs keep
#: their shapes at a webcam's 200-300 px card.
SIZE = (100, 150)
#: Local normalisation of the grey (sigma, px of ``SIZE``), the spread below
#: which a region is plain paper, the chroma's local mean (sigma) and the
#: chroma difference (Lab units) that weighs as one unit of normalised grey.
_SIGMA = 6.0
_FLAT = 8.0
_CHROMA_SIGMA = 15.0
_CHROMA_UNIT = 12.0
#: Salt-and-pepper noise: a pixel this far (grey levels) from its 3 x 3
#: median is a speck; a photo with this share of specks is despeckled.
_SPECKLE_STEP = 60
_SPECKLED = 5e-4
#: Chroma (Lab units) the most colourful 1 % of a face stays under when the photo has no colour.
_GREY_CHROMA = 12.0
#: The band along the edges compared by nobody (the rim, the table a quad
#: took in), and the grid whose worst inked cell is reported.
_BORDER = 0.06
_CELLS = (4, 6)
_INKED = 0.35
#: A pip's size (Gaussian sigma, px of ``SIZE``) for the patch of difference.
_BLOB_SIGMA = 4.0
#: How far (Gaussian sigma, px of ``SIZE``) where two faces differ is spread
#: (``contrast``): a pip's outline a pixel off between the two enrolment
#: photos is not where they differ, the pip's whole shape is.
_DIFFER_SIGMA = 3.0
#: ECC: iterations, the pyramid's sizes (coarse to fine: a coarse level pulls
#: in a place a few pixels off, where the fine one alone stalls or slides; a
#: third level at full size read the tune halves' aces a little better but
#: brought two drawn court cards that share their picture, Js and Jc, within
#: the distance ratio of each other), and
#: how far it may move a corner (share of the width) before its result is taken
#: for a slide onto other print.
_ECC_CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4)
_ECC_LEVELS = ((25, 38), (50, 75))
#: How many (face, way up, view) pairs are aligned, best as they lie first
#: (and the best of each card the keypoints proposed).
_ALIGNED = 8
_ECC_REACH = 0.12
#: Thumbnail shortlist: size, and how many cards it adds.
_THUMB = (20, 30)
_SHORTLIST = 4
#: A face this share of which (its interior) lies off the photo is *cut*: it
#: is compared over the part in view only, that part shrunk by this many px
#: of ``SIZE`` (the local normalisation's reach into the replicated border),
#: against every enrolled card; a grid cell counts in the worst cell when
#: this share of it is in view.
_CUT = 0.01
_CUT_ERODE = 4
_CELL_IN_VIEW = 0.5


@dataclass(frozen=True)
class Score:
    card: int
    score: float     # correlation of grey and chroma after ECC
    cell: float      # worst inked cell's grey correlation
    blob: float = 0.0  # strongest pip-sized patch of difference, against the faces' strongest patch of ink
    shown: float = 1.0  # the share of the face's interior the photo shows (a card cut by the photo's edge)
    view: int = 0       # the geometry it fits best: 0 the place's ``to_face``, k its ``also[k - 1]``
    face: int = -1      # which enrolled face (either way up) fits best (``_Faces``' index)
    #: that face's frame (px of ``SIZE``) to the photo, as ECC laid it (``contrast``)
    to_photo: Optional[np.ndarray] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Place:
    """Where a card lies and what is proposed for it: ``to_face`` maps the
    enrolled face's frame (px of ``SIZE``) to the photo; ``cards`` the
    candidates the geometry came with (keypoints), ``turns`` whether the top
    is unknown up to a quarter turn (an outline); ``also`` other geometries
    it may have (an outline's, where the keypoints matched inside it gave
    ``to_face``): each candidate is compared in each, the best fit kept;
    ``own`` (card, geometry) pairs: a card's own matches' homography
    (``keypoints.own_matches``), compared for that card only, beside the
    place's views; ``tied`` (card, inliers) pairs: the cards the keypoints
    matched inside an outline with no clear lead among them (the 7h and
    the 8h share a layout), which propose none of them but still prove
    whichever the face fits (``confidence.Evidence.of``)."""
    quad: np.ndarray
    to_face: np.ndarray
    cards: tuple[int, ...] = ()
    inliers: int = 0
    turns: bool = False
    also: tuple[np.ndarray, ...] = ()
    own: tuple[tuple[int, np.ndarray], ...] = ()
    tied: tuple[tuple[int, int], ...] = ()

    def views(self) -> list[np.ndarray]:
        """The geometries every candidate is compared in (``Score.view``
        indexes them, then ``own``'s): ``to_face``, ``also``, and an
        outline's other quarter turn (its second corner as the face's top-left)."""
        views = [self.to_face, *self.also]
        if self.turns:
            views.append(quad_to_face(np.roll(np.asarray(self.quad, np.float32).reshape(4, 2), -1, axis=0)))
        return views


class _Faces:
    """The deck's faces either way up, prepared once per deck (``deck._faces``)."""

    def __init__(self, deck: Deck):
        self.labels, self.greys, self.features, self.colour, thumbs = [], [], [], [], {1: [], 3: []}
        for card in deck.cards:
            for face in map(despeckled, deck.faces[card]):
                coloured = has_colour(cv2.resize(face, SIZE, interpolation=cv2.INTER_AREA))
                for turned in (face, cv2.rotate(face, cv2.ROTATE_180)):
                    small = cv2.resize(turned, SIZE, interpolation=cv2.INTER_AREA)
                    grey, feats = describe(small)
                    self.labels.append(card)
                    self.colour.append(coloured)
                    self.greys.append(grey)
                    self.features.append(feats)
                    for channels, rows in thumbs.items():
                        rows.append(_thumb(feats[:channels]))
        self.thumbs = {channels: np.stack(rows) for channels, rows in thumbs.items()}
        self.by_card: dict[int, list[int]] = {}
        for i, card in enumerate(self.labels):
            self.by_card.setdefault(card, []).append(i)


def _faces(deck: Deck) -> _Faces:
    if deck._face_match is None:
        deck._face_match = _Faces(deck)
    return deck._face_match


def describe(face_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the greys for ECC, the 3 x H x W lighting-free channels) of a face at ``SIZE``.

    ECC's greys (2 x H x W, ``_ecc``): the grey, and the grey less its
    broad light (its Gaussian mean at ``_SIGMA``), tried too at the fine
    level. ECC allows one gain and one offset over the face, not a
    shadow's edge across it or a lamp's fall-off, which it followed instead
    of the pips (round 19: real 7c, 8d and 8h photos under a shadow); the
    broad light is also what pulls in a place far off (a drawn Jd on a
    skewed homography was lost on the other grey alone). Divided by the
    local spread too (the correlation's grey), ECC bent impostors onto the
    photo as well: a rendered Ah, the Ah left out of the deck, passed the
    floors as the Ad (0.81)."""
    lab = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    grey = cv2.GaussianBlur(lab[..., 0], (0, 0), 0.8)
    mean = cv2.GaussianBlur(grey, (0, 0), _SIGMA)
    var = cv2.GaussianBlur(grey * grey, (0, 0), _SIGMA) - mean * mean
    light = (grey - mean) / np.sqrt(np.maximum(var, 0.0) + _FLAT * _FLAT)
    chroma = [(c - cv2.GaussianBlur(c, (0, 0), _CHROMA_SIGMA)) / _CHROMA_UNIT
              for c in (cv2.GaussianBlur(lab[..., 1], (0, 0), 1.0), cv2.GaussianBlur(lab[..., 2], (0, 0), 1.0))]
    return np.stack([grey, grey - mean]), np.stack([light, *chroma]) * _INTERIOR


_BX, _BY = round(_BORDER * SIZE[0]), round(_BORDER * SIZE[1])
#: 1 inside the face, 0 on the band along its edges.
_INTERIOR = np.pad(np.ones((SIZE[1] - 2 * _BY, SIZE[0] - 2 * _BX), np.float32), ((_BY, _BY), (_BX, _BX)))


def _thumb(features: np.ndarray) -> np.ndarray:
    t = np.concatenate([cv2.resize(c, _THUMB, interpolation=cv2.INTER_AREA).ravel() for c in features])
    t = t - t.mean()
    return (t / (np.linalg.norm(t) + 1e-6)).astype(np.float32)


def rectify(image_bgr: np.ndarray, to_face: np.ndarray) -> np.ndarray:
    """The photo inside a place, in the enrolled faces' frame at ``SIZE``
    (warped at twice the size, then averaged down: no aliasing of fine print)."""
    up = np.diag([0.5, 0.5, 1.0])
    big = cv2.warpPerspective(image_bgr, to_face @ up, (2 * SIZE[0], 2 * SIZE[1]),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, SIZE, interpolation=cv2.INTER_AREA)


def in_view_mask(shape: tuple[int, ...], to_face: np.ndarray) -> Optional[np.ndarray]:
    """Which part of the face (1 in view, 0 off the photo; at ``SIZE``, its
    interior) the photo shows, shrunk by ``_CUT_ERODE``; None when the face
    lies whole in the photo (all but ``_CUT`` of it)."""
    up = np.diag([0.5, 0.5, 1.0])
    big = cv2.warpPerspective(np.full(shape[:2], 255, np.uint8), to_face @ up, (2 * SIZE[0], 2 * SIZE[1]),
                              flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT)
    seen = cv2.resize(big, SIZE, interpolation=cv2.INTER_AREA) >= 255
    if float(seen[_INTERIOR > 0].mean()) >= 1.0 - _CUT:
        return None
    seen = cv2.erode(seen.astype(np.uint8), np.ones((2 * _CUT_ERODE + 1,) * 2, np.uint8))
    return seen.astype(np.float32) * _INTERIOR


def quad_to_face(quad: np.ndarray) -> np.ndarray:
    """The homography from the face frame (``SIZE``) to an outline's corners (in order)."""
    w, h = SIZE
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(src, np.asarray(quad, np.float32).reshape(4, 2)).astype(np.float64)


def face_quad(to_face: np.ndarray) -> np.ndarray:
    """The face's corners in the photo (``quad_to_face``'s inverse)."""
    w, h = SIZE
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(corners, np.asarray(to_face, np.float64)).reshape(4, 2).astype(np.float32)


def face_scale(face_size: tuple[int, int]) -> np.ndarray:
    """From ``SIZE`` px to a face frame of ``face_size`` px (the keypoints')."""
    return np.diag([face_size[0] / SIZE[0], face_size[1] / SIZE[1], 1.0])


def score_place(image_bgr: np.ndarray, place: Place, deck: Deck) -> list[Score]:
    """Every candidate card's best score at ``place``, best first."""
    faces = _faces(deck)
    views = place.views()
    shared = len(views)
    views += [view for _, view in place.own]
    rectified = [rectify(image_bgr, v) for v in views]
    seen = [describe(r) for r in rectified]
    in_view = [in_view_mask(image_bgr.shape, v) for v in views]
    shown = [1.0 if m is None else float(m.sum() / _INTERIOR.sum()) for m in in_view]
    # Colour is compared only where both sides have it: a black-and-white
    # photo, or a face enrolled from one, would read every red card as black.
    channels = 3 if has_colour(rectified[0]) else 1
    candidates = set(place.cards)
    for card in place.cards[:2]:
        candidates |= neighbours(card)
    if any(m is not None for m in in_view):
        # A face cut by the photo's edge: what is in view must differ from
        # every other enrolled face there (a 7 and an 8 whose differing pip
        # is off the photo look alike, and the margin says so).
        candidates |= set(faces.labels)
    for _, feats in seen[:shared]:
        sims = faces.thumbs[channels] @ _thumb(feats[:channels])
        added = 0
        for k in np.argsort(-sims):
            if faces.labels[k] not in candidates:
                candidates.add(faces.labels[k])
                added += 1
                if added == _SHORTLIST:
                    break
    # ECC is the cost: the candidates' faces are first ranked as they lie
    # (the geometry is a few pixels off at most), and only the best few aligned.
    candidates &= set(faces.by_card)
    if not all(faces.colour[k] for card in candidates for k in faces.by_card[card]):
        channels = 1
    ranked = []
    for card in candidates:
        for k in faces.by_card[card]:
            for v, (_, feats) in enumerate(seen[:shared]):
                ranked.append((_zncc(faces.features[k][:channels], feats[:channels], in_view[v]), card, k, v))
    ranked.sort(key=lambda r: -r[0])
    chosen = ranked[:_ALIGNED]
    for card in place.cards:
        chosen += [r for r in ranked if r[1] == card][:1]
    # A card's own geometry is compared for that card only, in the channels
    # chosen above (an enrolled face is a colour photo, ``vision.shot``: a
    # face without chroma is a black card's), its faces as enrolled (the
    # keypoints' frame; ``_Faces`` keeps each face, then it turned).
    chosen += [(0.0, card, k, shared + i) for i, (card, _) in enumerate(place.own)
               if card in faces.by_card for k in faces.by_card[card][::2]]
    best: dict[int, Score] = {}
    done: set = set()

    def compare(pairs: set) -> None:
        for card, k, v in pairs - done:
            grey, feats = seen[v]
            s, warp = _compare(faces.greys[k], faces.features[k][:channels], grey, feats[:channels], in_view[v])
            if card not in best or s.score > best[card].score:
                best[card] = Score(card, s.score, s.cell, s.blob, shown[v], v, k, views[v] @ warp.astype(np.float64))
        done.update(pairs)
    compare({(card, k, v) for _, card, k, v in chosen})
    # The best card's look-alikes are compared in the geometry it fits best, either way up. Left out
    # of the shortlist (a skewed place's thumbnails) or compared only elsewhere, one would lose to it
    # by default (round 17, drawn French deck on green cloth: a Kd read as the Kh at 0.82 in the Kh's
    # own geometry, the Kd not compared there; a Jd never compared at its place, the Jh best).
    top = max(best.values(), key=lambda s: s.score, default=None)
    if top is not None:
        compare({(card, k, top.view) for card in neighbours(top.card) & set(faces.by_card)
                 for k in faces.by_card[card]})
    return sorted(best.values(), key=lambda s: -s.score)


def contrast(image_bgr: np.ndarray, best: Score, rival: Score, deck: Deck) -> tuple[float, float]:
    """How the photo fits ``best``'s face and ``rival``'s *where the two faces
    differ*: (best's correlation, rival's) weighted by their squared
    difference, in ``best``'s geometry. Two faces that share a layout (the
    four aces, a 7 and an 8 of a suit, a 10 and a 9) differ by a pip's shape
    or colour, or one pip, on a face that is otherwise the same: the
    whole-face correlation hardly tells them apart (an Ah at 0.88 against the
    Ad at 0.78), while over the pip that differs the photo fits its own card
    and not the other (0.93 against 0.74). The rival's face is brought into
    the best's frame through the photo (each was laid over it by ECC), so no
    enrolled face is aligned to another card's."""
    faces = _faces(deck)
    to_best = best.to_photo
    photo = rectify(image_bgr, to_best)
    seen = describe(photo)[1]
    channels = 3 if has_colour(photo) and faces.colour[best.face] and faces.colour[rival.face] else 1
    own = faces.features[best.face][:channels]
    other = np.stack([cv2.warpPerspective(c, np.linalg.inv(rival.to_photo) @ to_best, SIZE,
                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
                      for c in faces.features[rival.face][:channels]]) * _INTERIOR
    weight = cv2.GaussianBlur(((own - other) ** 2).sum(axis=0), (0, 0), _DIFFER_SIGMA) * _INTERIOR
    in_view = in_view_mask(image_bgr.shape, to_best)
    if in_view is not None:
        weight = weight * in_view
    return _weighted_zncc(own, seen[:channels], weight), _weighted_zncc(other, seen[:channels], weight)


def _weighted_zncc(a: np.ndarray, b: np.ndarray, weight: np.ndarray) -> float:
    total = float(weight.sum()) * a.shape[0] + 1e-9
    a = a - float((a * weight).sum()) / total
    b = b - float((b * weight).sum()) / total
    return float((a * b * weight).sum() / (np.sqrt((a * a * weight).sum() * (b * b * weight).sum()) + 1e-9))


def despeckled(image_bgr: np.ndarray) -> np.ndarray:
    """The image without salt-and-pepper noise when it has some (isolated
    pixels far from their neighbours: a photo set's augmentation, a worn
    sensor): such dots are "ink" to every comparison and ruin SIFT's
    descriptors (no keypoint matched on the real WIN_ webcam photos). A clean
    photo is returned as it is."""
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    if float((cv2.absdiff(grey, cv2.medianBlur(grey, 3)) > _SPECKLE_STEP).mean()) < _SPECKLED:
        return image_bgr
    return cv2.medianBlur(image_bgr, 3)


def has_colour(face_bgr: np.ndarray) -> bool:
    """Whether a photo of a face holds colour at all (a black-and-white photo,
    a camera in grey mode: then red against black cannot be told)."""
    lab = cv2.cvtColor(cv2.medianBlur(face_bgr, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    chroma = np.linalg.norm(lab[..., 1:] - 128.0, axis=-1)
    return float(np.percentile(chroma, 99)) >= _GREY_CHROMA


def neighbours(card: int) -> set[int]:
    """The cards really confused with ``card``: its rank in the other suits, the next ranks in its suit."""
    rank, suit = rank_of(card), suit_of(card)
    out = {make_card(s, rank) for s in range(len(SUITS)) if s != suit}
    out.update(make_card(suit, r) for r in (rank - 1, rank + 1) if 0 <= r < len(RANKS))
    return out


def _compare(t_grey: np.ndarray, t_feats: np.ndarray, s_grey: np.ndarray, s_feats: np.ndarray,
             in_view: Optional[np.ndarray] = None) -> tuple[Score, np.ndarray]:
    """The face against the seen photo at the best of the alignments ``_ecc``
    reached (as it lies included): a level that slid off cannot spoil what a
    coarser one found; with that alignment. ``in_view``: a face cut by the
    photo's edge is aligned and compared over the part in view only."""
    best = None
    for warp in _ecc(t_grey, s_grey, in_view):
        aligned = np.stack([cv2.warpPerspective(c, warp, SIZE, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
                            for c in s_feats]) * _INTERIOR
        mask = None if in_view is None else \
            cv2.warpPerspective(in_view, warp, SIZE, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
        score = _zncc(t_feats, aligned, mask)
        if best is None or score > best[0]:
            best = (score, aligned, mask, warp)
    score, aligned, mask, warp = best
    return Score(-1, score, _worst_cell(t_feats[0], aligned[0], mask), _blob(t_feats, aligned, mask)), warp


def _ecc(t_grey: np.ndarray, s_grey: np.ndarray, in_view: Optional[np.ndarray] = None) -> list[np.ndarray]:
    """The alignments (homographies at ``SIZE``) ECC reaches level by level of
    ``_ECC_LEVELS``, each level starting from the last plausible one: the
    identity first. A level that fails (an ace's blank face gives ECC little
    to hold at the coarse level) is skipped, not the end. The coarse level
    runs on the grey, the finer ones on the grey and, from the same start,
    on the grey less its broad light (``describe``). ``in_view``: only the
    photo's pixels in view count (the yardstick's masked ECC)."""
    warp = np.eye(3, dtype=np.float32)
    out = [warp]
    for level, size in enumerate(_ECC_LEVELS):
        down = np.diag([size[0] / SIZE[0], size[1] / SIZE[1], 1.0]).astype(np.float32)
        mask = None if in_view is None else \
            (cv2.resize(in_view, size, interpolation=cv2.INTER_AREA) >= 0.99).astype(np.uint8)
        start = (down @ warp @ np.linalg.inv(down)).astype(np.float32)
        for grey in (0,) if level == 0 else (1, 0):
            try:
                _, small = cv2.findTransformECC(cv2.resize(t_grey[grey], size, interpolation=cv2.INTER_AREA),
                                                cv2.resize(s_grey[grey], size, interpolation=cv2.INTER_AREA),
                                                start.copy(), cv2.MOTION_HOMOGRAPHY, _ECC_CRITERIA, mask, 3)
            except cv2.error:
                continue
            moved = (np.linalg.inv(down) @ small @ down).astype(np.float32)
            if _plausible(moved):
                warp = moved
                out.append(warp)
    return out


def _blob(a: np.ndarray, b: np.ndarray, in_view: Optional[np.ndarray] = None) -> float:
    """The strongest patch of difference the size of a pip (grey and chroma
    together), against the strongest patch of ink of the two faces: a pip one
    card has and the other lacks (a 6 of another pack on a 7's place, an 8 on
    a 7's) differs there by about that pip's own ink (0.55 or more on the tune
    halves), a right read by a misfit's thin slivers (under 0.2, at most 0.5).
    Measured against the *strongest* ink patch, not the mean ink, an ace's one
    large pip on a blank face weighs as a pip, not as most of the card's ink:
    a slight misfit of it no longer looks like a missing pip."""
    weight = 1.0 if in_view is None else in_view
    diff = cv2.GaussianBlur(((a - b) ** 2).sum(axis=0) * weight, (0, 0), _BLOB_SIGMA)
    ink = cv2.GaussianBlur(((a * a + b * b) / 2).sum(axis=0) * weight, (0, 0), _BLOB_SIGMA)
    return float(diff.max() / (ink.max() + 1e-6))


def _plausible(warp: np.ndarray) -> bool:
    w, h = SIZE
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(corners, warp.astype(np.float64)).reshape(-1, 2)
    return bool(np.abs(moved - corners.reshape(-1, 2)).max() <= _ECC_REACH * w)


def _zncc(a: np.ndarray, b: np.ndarray, in_view: Optional[np.ndarray] = None) -> float:
    if in_view is not None:
        a, b = a[..., in_view > 0], b[..., in_view > 0]
        if a.size == 0:
            return 0.0
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def _worst_cell(a: np.ndarray, b: np.ndarray, in_view: Optional[np.ndarray] = None) -> float:
    """The lowest correlation of a grid cell that holds ink on either face
    (``SIZE`` divides into ``_CELLS`` exactly); ``in_view``: of the cells
    mostly in view, over their part in view."""
    cols, rows = _CELLS
    h, w = a.shape

    def per_cell(x: np.ndarray) -> np.ndarray:
        return x.reshape(rows, h // rows, cols, w // cols).sum(axis=(1, 3))
    if in_view is not None:
        a, b = a * in_view, b * in_view
    ea, eb, ab = per_cell(a * a), per_cell(b * b), per_cell(a * b)
    energy = np.maximum(ea, eb)
    inked = energy >= _INKED * (energy.mean() + 1e-6)
    if in_view is not None:
        inked &= per_cell(in_view) >= _CELL_IN_VIEW * (h // rows) * (w // cols)
    cells = ab / (np.sqrt(ea * eb) + 1e-6)
    return float(cells[inked].min()) if inked.any() else 0.0
