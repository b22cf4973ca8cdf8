"""Every card lying face up in one still photo, found and read: what
``belote-table vision recognize`` prints for each image.

The still backbone (the classical reader the product owner measures
against, and the step past it):

1. *Where*: the enrolled faces' keypoints (``vision.keypoints``: SIFT
   matched to every enrolled face, each card's matches proven by one RANSAC
   homography that maps a card-shaped face) give places with a precise
   geometry and the cards proposed there; outlines (``vision.locate``, and
   the lone card on a table of its colour, ``vision.outline_fit``) add the
   places no keypoints proved (a card of few distinctive marks, a card from
   another pack: it must still be listed, as unknown); where a card has no
   outline either (a close-up cut by the picture's edge), its layout's
   keypoints alone place it (``keypoints.layout_outlines``), proven inside.
   A card whose own matches (``keypoints.own_matches``, each face matched
   alone) map its face onto a place brings that geometry with it.
2. *Which*: at each place every candidate face (the proposed cards, their
   real confusions, the nearest by thumbnail) is laid over the photo by ECC
   and compared by a lighting-free correlation (``vision.face_match``).
3. *Decide*: the best is named when it is a good match, whole (no pip
   missing), and beats the runner-up by a margin; its confidence is the
   probability that such a read is right (``vision.confidence``, fitted on
   the tune half). Otherwise ``card`` is None: never a guess.

Then the index corners (``vision.corner_read``: cards of heaps and fans
showing only a corner) are merged in (``vision.corner_merge``).

One dict per card: ``{"card": "Jh" | None, "confidence": 0.97, "corners":
[[x, y] * 4]}`` (corners in the image's pixels: the mapped enrolled face's
for keypoints, ``find_cards`` order for an outline).
"""

from __future__ import annotations

import dataclasses
from typing import Optional

import cv2
import numpy as np

from referee.cards import card_name

from . import corner_merge, overlap, stretch
from .confidence import Evidence, decide
from .corner_read import read_corners
from .deck import AMBIGUOUS_ASPECT, FACE_SIZE, Deck, quad_aspect
from .face_match import Place, despeckled, face_quad, face_scale, quad_to_face, score_place
from .keypoints import PROVEN, Seen, keypoint_candidates, layout_outlines, matched_in, own_matches
from .locate import find_cards
from .outline_fit import lone_card

#: A keypoint place and an outline are the same card when this share of the
#: smaller of the two overlaps; two keypoint candidates, above ``_SAME_CARD``.
_SAME_PLACE = 0.6
_SAME_CARD = 0.5
#: Keypoints matched again inside an outline propose their best card when
#: it has this many times the next card's inliers.
_CLEAR_LEAD = 1.5
#: An outline is far from a parallelogram when its opposite sides differ
#: (the sum of their vectors) by this share of its short side: on the real
#: classic tune half 195 of its 219 outlines differ by under 0.15 (a card in
#: perspective) and 5 by 0.3 or more, among them a 7d whose region took in a
#: mark on the wood at one corner (0.48, the corner 55 px off).
_SKEWED = 0.3
#: Two outlines overlapping this much (intersection over union) are one geometry.
_SAME_OUTLINE = 0.95
#: An outline this much smaller than a card's layout lying over it is a mark
#: printed on that card (a pip, a picture frame), not a card.
_MARK = 0.25


def recognize(image_bgr: np.ndarray, deck: Deck, mask: Optional[np.ndarray] = None) -> list[dict]:
    cards, proposed = [], []
    places, square_by = read_places(image_bgr, deck, mask)
    for place, evidence in places:
        card, confidence = decide(evidence)
        cards.append(_entry(card, confidence, place.quad))
        proposed.append(place.cards)
    if mask is not None:
        return cards
    return corner_merge.merge(cards, read_corners(image_bgr, deck, square_by), proposed, image_bgr.shape[:2])


def read_places(image_bgr: np.ndarray, deck: Deck, mask: Optional[np.ndarray] = None
                ) -> tuple[list[tuple[Place, Evidence]], float]:
    """Each place a card lies at, with the evidence for what it is (what
    ``recognize`` decides on, and what ``vision.confidence`` is fitted to),
    and the photo's stretch (``vision.stretch``: fixed by the keypoints, or
    else by the best card the keypoints matched inside an outline prove; 1
    when none does)."""
    image_bgr = despeckled(image_bgr)
    places, square_by, seen = keypoint_places(image_bgr, deck) if mask is None else ([], None, None)
    quads = find_cards(image_bgr, mask=mask, close_up=mask is None)
    lone, alike = None, []
    if mask is None:
        lone, alike, elsewhere = lone_card(image_bgr, quads)
        quads = ([lone] if lone is not None else []) + elsewhere
    # Each outline's crop is matched made square again by the photo's stretch: the one the
    # keypoints fixed, or the one they were found at; None when neither says (``_inside``).
    at = square_by or (seen.stretch if seen is not None and seen.stretch != 1.0 else None)
    for outline in quads:
        quad = np.asarray(outline, np.float32).reshape(4, 2)
        # The lone card's other outlines, and an outline's corners completed, are matched inside
        # too: the keypoints say which the card lies at.
        tries = [quad] + ([np.asarray(q, np.float32).reshape(4, 2) for q in alike] if outline is lone else []) \
            + (_completed(quad) if mask is None else [])
        on = [i for i, p in enumerate(places) if overlap.share(p.quad, quad) >= _SAME_PLACE]
        for i in on:
            # A homography of few inliers (a few pips that match) may be a
            # little off: the keypoints matched again inside an outline of
            # that card (of its size, not a pip's) give its geometry, or else
            # the outline does; the keypoints still propose their cards.
            if places[i].inliers < PROVEN and overlap.iou(places[i].quad, quad) >= _SAME_PLACE:
                places[i] = _inside_any(image_bgr, tries, deck, at, places[i].cards, places[i].inliers) \
                    or dataclasses.replace(_outline_place(quad, places[i].cards, places[i].inliers),
                                           also=(places[i].to_face,))
        if not on:
            places.append((_inside_any(image_bgr, tries, deck, at) if mask is None else None) or _outline_place(quad))
        if len(tries) > 1:
            for i in on or [len(places) - 1]:
                places[i] = _also_outlines(places[i], tries)
    if mask is None:
        # A close-up card cut by the picture's edge, or joined to the table
        # by a shadow, has no outline: where a card's layout lies by its
        # keypoints alone, proven inside as an outline is.
        for quad in layout_outlines(image_bgr, deck, seen):
            cards = [p for p in places if not _mark_on(p, quad)]
            if not any(overlap.share(p.quad, quad) >= _SAME_PLACE for p in cards):
                place = _inside(image_bgr, quad, deck, at, outline=False)
                if place is not None:
                    places = cards + [place]
    if square_by is None:
        square_by = _stretch_of(places, image_bgr.shape[:2])
    if mask is None:
        places = _with_own(places, own_matches(image_bgr, deck, seen))
    read = []
    for place in places:
        scores = score_place(image_bgr, place, deck)
        read.append((_fitted(place, scores), Evidence.of(scores, place, image_bgr, deck)))
    return read, square_by


def _completed(quad: np.ndarray) -> list[np.ndarray]:
    """The outlines an outline far from a parallelogram (``_SKEWED``) may
    stand for: each corner in turn replaced by the one completing the other
    three (one corner dragged off by something joined to the card's region;
    which one, the keypoints and the face tell); none for an outline a card
    seen in perspective gives."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    defect = float(np.linalg.norm(q[0] - q[1] + q[2] - q[3]))
    short = float(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1).min())
    if defect < _SKEWED * short:
        return []
    out = []
    for k in range(4):
        c = q.copy()
        c[k] = q[(k - 1) % 4] + q[(k + 1) % 4] - q[(k + 2) % 4]
        if cv2.isContourConvex(c.reshape(-1, 1, 2)):
            out.append(c)
    return out


def _inside_any(image_bgr: np.ndarray, outlines: list[np.ndarray], deck: Deck, at: Optional[float],
                cards: tuple[int, ...] = (), inliers: int = 0) -> Optional[Place]:
    """``_inside`` the one of ``outlines`` (the lone card's and the others
    found on it) whose keypoints prove a card with most inliers: inside a
    7h's fitted outline, whose top lay at a bench's edge above it, a 7d led
    with 12; inside the region's outline the 7h had 26, tied with the 7d."""
    found = [p for p in (_inside(image_bgr, q, deck, at, cards, inliers) for q in outlines) if p is not None]
    return max(found, key=lambda p: max([p.inliers] + [n for _, n in p.tied]), default=None)


def _also_outlines(place: Place, outlines: list[np.ndarray]) -> Place:
    """The lone card's place with the outlines found on it
    (``outline_fit.lone_card``) as geometries it may also have (but the one
    it lies at), each with its corners in the order of the place's (either
    way round when its top is unknown): the face decides which the card
    fits. A 7h close up on light wood, its fitted outline's top at a bench's
    dark edge above it, was compared at 0.18 there, and read at 0.99 in the
    region's outline, where its keypoints matched again (round 24)."""
    quad = np.asarray(place.quad, np.float32).reshape(4, 2)
    likes = (quad, np.roll(quad, -1, axis=0)) if place.turns else (quad,)
    others = [q for q in outlines if overlap.iou(q, quad) < _SAME_OUTLINE]
    return dataclasses.replace(place, also=place.also + tuple(_outline_view(q, like) for q in others
                                                              for like in likes))


def _with_own(places: list[Place], hits: list) -> list[Place]:
    """Each place with the cards whose own matches map their face onto it
    (``keypoints.own_matches``; the same card, ``_SAME_PLACE`` of each
    other's area), each in its own geometry (``Place.own``)."""
    out = []
    for place in places:
        own = tuple((hit.card, hit.homography @ face_scale(hit.face_size)) for hit in hits
                    if overlap.iou(place.quad, hit.quad) >= _SAME_PLACE)
        out.append(dataclasses.replace(place, own=own) if own else place)
    return out


def _fitted(place: Place, scores: list) -> Place:
    """The place in the geometry its best card fits (``Place.also``: an
    outline's edges may place a small card better than a few pips'
    homography; ``Place.own``: the card's own matches'), so the corners
    reported are the ones the read rests on."""
    views = place.views() + [view for _, view in place.own]
    if not scores or scores[0].view == 0 or (place.turns and scores[0].view == len(place.also) + 1):
        return place
    to_face = views[scores[0].view]
    return dataclasses.replace(place, quad=face_quad(to_face), to_face=to_face, also=(), own=())


def _mark_on(place: Place, quad: np.ndarray) -> bool:
    """Whether ``place`` is a mark printed on the card at ``quad``, no card:
    an outline alone (no keypoints) lying on it and under ``_MARK`` of its
    size (a diamond pip or a court card's picture frame taken for a card; a
    card's region joined to the table by a shadow is no outline, and these
    were all that stood for it, hiding its layout)."""
    return place.inliers == 0 and overlap.share(place.quad, quad) >= _SAME_PLACE \
        and cv2.contourArea(np.float32(place.quad)) < _MARK * cv2.contourArea(np.float32(quad))


def _stretch_of(places: list[Place], picture: tuple[int, int]) -> float:
    """The photo's stretch as its best-proven place shows it, when the
    photo's keypoints fixed none (a plain card proven only inside its
    outline, ``matched_in``); 1 (square pixels) without one that fits."""
    proven = [p for p in places if p.inliers >= PROVEN]
    if not proven:
        return 1.0
    found = stretch.fit(max(proven, key=lambda p: p.inliers).quad, FACE_SIZE[1] / FACE_SIZE[0], picture)
    return found[0] if found is not None and found[1] <= stretch.MISFIT else 1.0


def _outline_place(quad: np.ndarray, cards: tuple[int, ...] = (), inliers: int = 0,
                   tied: tuple[tuple[int, int], ...] = (), like: Optional[np.ndarray] = None) -> Place:
    """An outline's place: its edges give the geometry, its top unknown up
    to a quarter turn when it is near square, or its corners in the order
    of ``like`` (the keypoints' mapped face)."""
    to_face = quad_to_face(quad) if like is None else _outline_view(quad, like)
    return Place(quad, to_face, cards, inliers, turns=quad_aspect(quad) < AMBIGUOUS_ASPECT, tied=tied)


def _inside(image_bgr: np.ndarray, quad: np.ndarray, deck: Deck, at: Optional[float], cards: tuple[int, ...] = (),
            inliers: int = 0, outline: bool = True) -> Optional[Place]:
    """The place of an outline as the keypoints matched again inside it
    prove it (``keypoints.matched_in``: a plain card's pips, which the whole
    photo's matching leaves unproven), with the cards proven there and
    ``cards`` (the whole photo's keypoints', ``inliers`` theirs); None when
    none is. When the best does not lead, the leaders are ``tied``
    (proposing none), and the place's geometries are the outline's own and
    the two best cards' homographies (a plain card's many pips place it as
    well as edges do, and an edge may be taken at a line of the table); not
    an ``outline`` (a layout's quad, ``keypoints.layout_outlines``), the
    homographies alone.

    ``at``: the photo's stretch, which the crop is made square again by
    before SIFT (its descriptors do not survive a stretch of a third,
    ``stretch.looked_at``); None when nothing fixed it: the crop is matched
    at each stretch the outline is card-shaped at (``_stretches_of``) and
    the one whose best card has most inliers kept. A 7c in a 4:3 photo
    saved square gave the 8c's face 82 inliers and its own 47 as it is:
    the 8c led, was proposed, and the keypoints disagreeing with the read
    (0.96 against the 8c's 0.87) left it at p 0.55, abstained; made 4:3
    again, 107 and 76, no lead (round 21)."""
    # The face the keypoints map must be the outline's card (a few pips that
    # match on a plane of their own map a face of no card's shape).
    found = [[hit for hit in matched_in(image_bgr, quad, deck, turns=True, at=s)
              if len(stretch.card_stretches(hit.quad)) and overlap.iou(hit.quad, quad) >= _SAME_PLACE]
             for s in ((at,) if at is not None else _stretches_of(image_bgr, quad))]
    hits = max(found, key=lambda h: h[0].inliers if h else 0)
    if not hits:
        return None
    best = hits[0]
    # Guided, the cards sharing a layout match nearly as well (the aces of
    # the four suits, a 7 of clubs' pips on an 8's place). The best is used
    # only when it leads them clearly: proposed, it is a witness an index
    # read may lean on (``corner_merge``: an Ac was named As that way), and
    # without a lead the outline's edges place the card more precisely than
    # a shared layout's homography (a drawn Js: 0.99 on its outline, unsure
    # on that).
    # Both leaders' geometries are compared (beside the outline's, when there is one), the face fitting
    # better kept: a 7d whose 7s and 7d had 17 inliers each was placed by the 7s's homography alone and
    # fitted at 0.79; an 8d on light wood whose outline took a line of the grain above it for its top
    # fitted its own face there at 0.52, its leaders' homographies had 35 and 30 inliers (round 24).
    # Tied, the leaders still prove whichever of them the face fits: a 7h whose 8h had 33 inliers
    # inside its outline and its own 7h 30 was read 0.95 against the 8h with no keypoints behind it
    # (p 0.52, abstained; round 23: tied, 0.93; both with round 22's deck). The keypoints' top orders the outline's corners: a
    # card squashed across by a photo saved square looks lying on its side.
    if len(hits) > 1 and best.inliers < _CLEAR_LEAD * hits[1].inliers:
        tied = tuple((h.card, h.inliers) for h in hits if _CLEAR_LEAD * h.inliers > best.inliers)
        leaders = tuple(h.homography @ face_scale(h.face_size) for h in hits[:2])
        if outline:
            return dataclasses.replace(_outline_place(quad, cards, inliers, tied, like=best.quad), also=leaders)
        return Place(best.quad, leaders[0], also=leaders[1:], tied=tied)
    proposed = tuple(dict.fromkeys([best.card] + list(cards)))
    # On a small card the homography of a plain card's few pips may lie
    # further off than the outline's edges (a 120 x 70 px 7h: 17 px off one
    # corner): both geometries are compared, the one the face fits kept.
    also = (_outline_view(quad, best.quad),) if outline else ()
    return Place(best.quad, best.homography @ face_scale(best.face_size), proposed, best.inliers, also=also)


def _stretches_of(image_bgr: np.ndarray, quad: np.ndarray) -> tuple[float, ...]:
    """The stretches an outline's crop is matched at when the photo's is
    unknown: square pixels, and those of ``stretch.looked_at`` (a square
    photo's exported frames) at which the outline, either side its top, is
    card-shaped."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    shapes = np.concatenate([stretch.card_stretches(quad), stretch.card_stretches(np.roll(quad, 1, axis=0))])
    return tuple(s for s in stretch.looked_at(image_bgr) if s == 1.0 or stretch.same(shapes, s))


def _outline_view(quad: np.ndarray, like: np.ndarray) -> np.ndarray:
    """An outline's geometry (``quad_to_face``) with its corners in the order
    of ``like``, the keypoints' mapped face (its top-left first): the
    outline's own order does not tell the card's top."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    like = np.asarray(like, np.float32).reshape(4, 2)
    orders = [np.roll(q, -r, axis=0) for q in (quad, quad[::-1]) for r in range(4)]
    return quad_to_face(min(orders, key=lambda q: float(np.linalg.norm(q - like, axis=1).sum())))


def keypoint_places(image_bgr: np.ndarray, deck: Deck) -> tuple[list[Place], Optional[float], Optional[Seen]]:
    """The keypoint candidates grouped by place, the one with most inliers
    giving the place its geometry; the photo's stretch they fix, and the
    photo's keypoints."""
    places: list[Place] = []
    found = keypoint_candidates(image_bgr, deck)
    for hit in found.hits:
        for i, place in enumerate(places):
            if overlap.share(place.quad, hit.quad) > _SAME_CARD:
                if hit.card not in place.cards:
                    places[i] = Place(place.quad, place.to_face, place.cards + (hit.card,), place.inliers)
                break
        else:
            places.append(Place(hit.quad, hit.homography @ face_scale(hit.face_size), (hit.card,), hit.inliers))
    return places, found.stretch, found.seen


def _entry(card: Optional[int], confidence: float, quad: np.ndarray) -> dict:
    return {"card": None if card is None else card_name(card), "confidence": round(float(confidence), 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(quad).reshape(4, 2)]}
