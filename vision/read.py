"""Reading one located card against the enrolled deck, or abstaining.

What tells two cards apart, in order of strength: the two corner indices
(rank glyph above the suit pip, printed upside down in the opposite corner),
their colour (red/black, gold/silver), and the body (pip layout, court
picture). A reading compares each of the seen card's two corners with both
corners of every enrolled face (normalised cross-correlation in grey, over
small shifts and scales so a quad a few pixels off still aligns), the colour
of the printing relative to the paper (when the photo has colour), and the
whole body in both orientations, then combines them. The face is warped
from the frame given (full resolution), both quarter-turns of the quad
(a clearly oblong quad read its own way first, see ``read_card``).

Speed (a landing frame has ~15 ms): the deck's templates are turned into
matrices once, when the deck is first read; a reading is one warp, one
matrix product per corner (every template against every other position of
the index window), exact matching of the few contenders only, and one
product for the bodies: 5-7 ms per card on one core.

A glare spot or a thumb on one corner wipes out that corner's evidence for
every card alike: a corner whose best match is far below the other's is
dropped and the reading rests on the other corner, colour and body.

Never guess. The answer is ``None`` unless (1) each visible corner read
alone names the same card as the combined score (two independent reads of
the index agree; with one corner hidden, the score must reach halfway to
what the true card usually scores instead), (2) it leads the runner-up by a
quarter of the deck's usual gap between a true card and the best wrong one,
and (3) it scores above what
a wrong card usually reaches. Those numbers are chosen at enrolment, not on
test photos: each enrolled face is read again after random perspective,
blur, light, noise and glare changes (``choose_abstention``), and kept in the
deck's manifest. The confidence follows the decision: at least 0.8 for a card
read, below 0.5 for an abstention."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES

from .deck import AMBIGUOUS_ASPECT, Deck, quad_aspect, warp_face

#: The index region of a face, as fractions of (width, height): the template
#: part (inner) and the search window around it (outer). Generous enough for
#: jumbo indices; corners of a deck without indices still carry their border.
#: The template keeps off the face's very edge (where a loose enrolment quad
#: leaves a line of table), and the window lets the index move by an eighth
#: of the card's width: an enrolment quad and a reading quad that each miss
#: the card's edge by a few pixels the other way put the index 5-8 % of the
#: width apart (seen on the overhead camera, where a card is 60 px wide).
_TEMPLATE = (0.04, 0.04, 0.23, 0.29)
_SEARCH = (0.0, 0.0, 0.36, 0.40)
_CORNER_FACE = (120, 180)
#: Grey-level spread below which a corner holds no index (blank, washed out).
MIN_INDEX_CONTRAST = 12.0
_SCALES = (0.9, 1.0, 1.1)
_REFINE_TOP = 5
_COARSE_STEP = 2
_BODY_SIZE = (40, 60)
#: Size at which the ink colour is measured: a mean colour needs no detail,
#: and 60 x 90 pixels cost a fiftieth of the full face.
_INK_SIZE = (60, 90)
#: Weights of corners and body in the combined score. The indices decide; the
#: body breaks ties between cards with look-alike indices (6/9-style glyphs).
_W_CORNER, _W_BODY = 0.85, 0.15
#: Weight of the ink colour difference (red vs black, gold vs silver), used
#: only when both the seen card and the enrolled face are in colour.
_W_COLOUR = 0.3
_GREY_CHROMA = 12.0
#: Chroma difference (Lab units) counted as one full unit of colour mismatch:
#: about the distance between red and black printing. Differences below the
#: tolerance (two shots of one card under two lamps) count for nothing, and a
#: face without colour neither helps nor hurts a card.
_CHROMA_SCALE = 40.0
_CHROMA_TOLERANCE = 12.0
#: A corner whose best match is this much below the other corner's is hidden
#: (glare, a thumb, another card) and left out.
_HIDDEN_CORNER_DROP = 0.2
#: Abstention defaults, used only for a deck enrolled without trials.
_DEFAULT_ABSTAIN = {"min_margin": 0.08, "min_score": 0.45}
#: Share of the deck's usual true-vs-best-wrong gap a reading must lead by.
_GAP_SHARE = 0.25
_TRIALS_PER_FACE = 6


@dataclass(frozen=True)
class Reading:
    card: Optional[int]
    confidence: float
    details: dict


class _Features:
    """Per-deck templates, computed once from the enrolled faces."""

    def __init__(self, deck: Deck):
        self.labels: list[int] = []
        self.corners: list[list[np.ndarray]] = []   # per template: one per scale
        self.bodies: list[np.ndarray] = []
        self.body_labels: list[int] = []
        self.inks: list[Optional[float]] = []
        for card in deck.cards:
            for face in deck.faces[card]:
                small = _corner_view(face)
                for corner in (small, cv2.rotate(small, cv2.ROTATE_180)):
                    patch = _prep(_crop(corner, _TEMPLATE))
                    if patch.std() < MIN_INDEX_CONTRAST:
                        continue        # a blank corner correlates with noise: no evidence
                    self.labels.append(card)
                    self.corners.append([_rescale(patch, s) for s in _SCALES])
                self.bodies.append(_body(face))
                self.body_labels.append(card)
                self.inks.append(_ink_colour(face))
        # Every enrolled card has a score, also one whose two corners were too
        # faint to keep (a washed-out enrolment shot): it is scored on its body
        # and colour alone, and its corner score stays at -1, so it cannot win
        # the corner votes and is never read, but its neighbours are not
        # misread for it either and nothing downstream misses its label.
        self.cards = sorted(set(self.body_labels))
        self.index = {c: i for i, c in enumerate(self.cards)}
        # The same, as matrices, so a reading is a few matrix products rather
        # than one call per template: corner templates at the enrolled scale
        # (all the same size), zero-mean and unit-norm, one per row; bodies
        # one per row; inks with a mask for the faces shot in grey.
        unit = _SCALES.index(1.0)
        self.corner_shape = self.corners[0][unit].shape if self.corners else (0, 0)
        self.corner_matrix = np.stack([_unit_rows(c[unit].reshape(1, -1))[0] for c in self.corners]) \
            if self.corners else np.zeros((0, 1), np.float32)
        self.corner_rows = np.array([self.index[c] for c in self.labels], np.intp)
        self.body_matrix = np.stack([b.ravel() for b in self.bodies]).astype(np.float32)
        self.body_rows = np.array([self.index[c] for c in self.body_labels], np.intp)
        self.ink_known = np.array([k is not None for k in self.inks], bool)
        self.ink_matrix = np.array([k if k is not None else (0.0, 0.0) for k in self.inks], np.float32)


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    """Each row zero-mean and unit-norm (a flat row stays zero): the dot
    product of two such rows is their normalised cross-correlation."""
    rows = rows.astype(np.float32) - rows.mean(axis=1, keepdims=True, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, 1e-3)


def _products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` in float32 by OpenCV's single-threaded gemm: the matrices
    are small, and numpy's threaded BLAS spends more time waiting for the
    cores it shares with the rest of the table (tracking, the dashboard) than
    computing (measured: 16 ms against 5 ms per read on a busy 2-core machine)."""
    return cv2.gemm(np.ascontiguousarray(a, np.float32), np.ascontiguousarray(b, np.float32), 1.0, None, 0.0,
                    flags=cv2.GEMM_2_T)


def _per_card_max(values: np.ndarray, rows: np.ndarray, n: int) -> np.ndarray:
    out = np.full(n, -1.0, np.float32)
    np.maximum.at(out, rows, values.astype(np.float32))
    return out


def _features(deck: Deck) -> _Features:
    if deck._features is None:
        deck._features = _Features(deck)
    return deck._features


def _corner_view(face: np.ndarray) -> np.ndarray:
    """The face at the size where indices are matched: enough pixels for a
    glyph (an index is then about 20 x 40 px), few enough to be fast."""
    return cv2.resize(face, _CORNER_FACE, interpolation=cv2.INTER_AREA)


def _crop(face: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    h, w = face.shape[:2]
    x0, y0, x1, y1 = box
    return face[int(y0 * h):int(round(y1 * h)), int(x0 * w):int(round(x1 * w))]


def _prep(patch: np.ndarray) -> np.ndarray:
    """Grey patch, lightly smoothed: matching should see glyphs, not noise,
    and not the colour of the lamp (colour is judged apart, see ``_ink_colour``)."""
    gray = cv2.cvtColor(cv2.medianBlur(patch, 3), cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(gray, (3, 3), 0).astype(np.float32)


def _ink_colour(face: np.ndarray) -> Optional[np.ndarray]:
    """The colour of the printing relative to the paper, as a Lab chroma
    vector (a*, b*): red indices far from black ones, gold far from silver.
    Relative to the paper, so a warm lamp shifts both and cancels out. None
    for a grey photo, where colour says nothing."""
    small = cv2.resize(face, _INK_SIZE, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.medianBlur(small, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    pixels = lab.reshape(-1, 3)
    paper = np.median(pixels, axis=0)
    ink = np.linalg.norm(pixels - paper, axis=1) > 30
    if ink.sum() < 0.01 * len(pixels):
        return None
    chroma = np.linalg.norm(pixels[:, 1:] - 128, axis=1)
    if np.percentile(chroma, 99) < _GREY_CHROMA:
        return None
    return pixels[ink, 1:].mean(axis=0) - paper[1:]


def _rescale(patch: np.ndarray, s: float) -> np.ndarray:
    if s == 1.0:
        return patch
    return cv2.resize(patch, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)


def _body(face: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(cv2.medianBlur(face, 3), cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, _BODY_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    small -= small.mean()
    return small / (np.linalg.norm(small) + 1e-6)


def corner_contrast(face: np.ndarray) -> list[float]:
    """Grey-level spread of the two index regions of a face (see ``MIN_INDEX_CONTRAST``)."""
    small = _corner_view(face)
    return [float(_prep(_crop(view, _TEMPLATE)).std()) for view in (small, cv2.rotate(small, cv2.ROTATE_180))]


def _corner_scores(feats: _Features, search: np.ndarray) -> np.ndarray:
    """Best NCC per card for one seen corner (its search window): every
    template at its enrolled scale on every other pixel of the window (one
    matrix product; glyphs seen at this size are soft, so a one-pixel miss
    costs little), then, for the few cards still in the running, every
    pixel and the other scales (a quad off by a few percent changes the
    index size)."""
    scores = np.full(len(feats.cards), -1.0, np.float32)

    def match(t: int, scale_index: int) -> None:
        tpl = feats.corners[t][scale_index]
        if tpl.shape[0] <= search.shape[0] and tpl.shape[1] <= search.shape[1]:
            i = feats.index[feats.labels[t]]
            scores[i] = max(scores[i], float(cv2.matchTemplate(search, tpl, cv2.TM_CCOEFF_NORMED).max()))

    th, tw = feats.corner_shape
    if len(feats.labels) and th <= search.shape[0] and tw <= search.shape[1]:
        # Every template against every window of the search region at once.
        windows = np.lib.stride_tricks.sliding_window_view(search, (th, tw))[::_COARSE_STEP, ::_COARSE_STEP]
        windows = windows.reshape(-1, th * tw)
        best = _products(_unit_rows(windows), feats.corner_matrix).max(axis=0)
        scores = _per_card_max(best, feats.corner_rows, len(feats.cards))
    contenders = set(np.argsort(-scores)[:_REFINE_TOP].tolist())
    for t, label in enumerate(feats.labels):
        if feats.index[label] in contenders:
            for k in range(len(_SCALES)):
                match(t, k)
    return scores


def score_face(face: np.ndarray, deck: Deck, ink: object = "measure") -> tuple[np.ndarray, dict]:
    """Combined score per enrolled card (aligned with ``deck.cards``) for a
    rectified face, and the evidence behind it. ``ink``: the face's ink
    colour when already measured (it does not depend on the quarter-turn)."""
    feats = _features(deck)
    corners = []
    small = _corner_view(face)
    for view in (small, cv2.rotate(small, cv2.ROTATE_180)):
        corners.append(_corner_scores(feats, _prep(_crop(view, _SEARCH))))
    body_seen = _body(face)
    body_seen_r = body_seen[::-1, ::-1]
    both = _products(feats.body_matrix, np.stack([body_seen.ravel(), body_seen_r.ravel()]))
    body = _per_card_max(both.max(axis=1), feats.body_rows, len(feats.cards))
    if isinstance(ink, str):
        ink = _ink_colour(face)
    colour = np.zeros(len(feats.cards), np.float32)
    if ink is not None and feats.ink_known.any():
        known = feats.ink_known
        mismatch = np.maximum(0.0, np.linalg.norm(feats.ink_matrix[known] - ink, axis=1) - _CHROMA_TOLERANCE)
        values = _per_card_max(-mismatch / _CHROMA_SCALE, feats.body_rows[known], len(feats.cards))
        colour = np.where(values > -1.0, values, 0.0).astype(np.float32)
    tops = [float(c.max()) for c in corners]
    used = [j for j in (0, 1) if tops[j] >= max(tops) - _HIDDEN_CORNER_DROP]
    corner = np.mean([corners[j] for j in used], axis=0)
    combined = _W_CORNER * corner + _W_BODY * body + _W_COLOUR * colour
    # Each visible corner's own favourite: two independent reads of the index.
    # (The body is too coarse to veto: pip layouts of 7 and 8 differ by a pip.)
    votes = [int(np.argmax(corners[j])) for j in used]
    details = {"corners_used": len(used), "corner_best": [round(t, 3) for t in tops],
               "votes": [CARD_NAMES[feats.cards[v]] for v in votes],
               "ink": None if ink is None else [round(float(v), 1) for v in ink]}
    return combined, details


def decide(scores: np.ndarray, deck: Deck, votes: Optional[list[str]] = None) -> Reading:
    """The card with the best score, or None when its lead is not clear or
    when each visible corner read alone does not name it:
    independent evidence that disagrees is how a misread shows."""
    feats = _features(deck)
    abstain = deck.abstain or _DEFAULT_ABSTAIN
    order = np.argsort(-scores)
    best, second = float(scores[order[0]]), float(scores[order[1]]) if len(order) > 1 else -1.0
    margin = best - second
    details = {"best": CARD_NAMES[feats.cards[order[0]]], "score": round(best, 4),
               "runner_up": CARD_NAMES[feats.cards[order[1]]] if len(order) > 1 else None,
               "margin": round(margin, 4)}
    if best < abstain["min_score"]:
        details["abstained"] = f"best match {best:.2f} below {abstain['min_score']:.2f}: no enrolled card looks like it"
    elif votes and any(v != details["best"] for v in votes):
        details["abstained"] = f"the evidence disagrees: the corners read {' '.join(votes)}"
    elif margin < abstain["min_margin"]:
        details["abstained"] = (f"{details['best']} leads {details['runner_up']} by {margin:.3f} "
                                f"< {abstain['min_margin']:.3f}: too close to call")
    elif votes is not None and len(votes) == 1 and best < _one_corner_score(abstain):
        details["abstained"] = (f"one corner hidden and {details['best']} scores {best:.2f} "
                                f"< {_one_corner_score(abstain):.2f}: one blurred corner is not enough")
    read = "abstained" not in details
    return Reading(feats.cards[order[0]] if read else None, _confidence(margin, abstain, read), details)


def _one_corner_score(abstain: dict) -> float:
    """With one corner hidden there is no second read of the index to agree
    with the first, so the card must look like itself, not just better than
    the rest: its score must reach halfway from what the best wrong card
    usually scores to what the true card usually scores (both measured at
    enrolment)."""
    floor = abstain["min_score"]
    return floor + 0.5 * max(0.0, abstain.get("true_score_median", floor) - floor)


def _confidence(margin: float, abstain: dict, read: bool) -> float:
    """A score that follows the decision: 0.8 to 1 for a card read (growing
    with its lead, full at four times the required margin), below 0.5 for an
    abstention (how close it came). Consumers that vote over frames can rely
    on "at least 0.8" meaning "read"; the decision itself is the abstention
    rule chosen on enrolment trials, not this number."""
    need = abstain["min_margin"]
    m = max(margin, 0.0)
    if read:
        return round(0.8 + 0.2 * min(1.0, (m - need) / (3 * need)), 4)
    return round(min(0.49, 0.5 * m / need), 4)


def read_card(image_bgr: np.ndarray, quad: np.ndarray, deck: Deck) -> tuple[Optional[int], float, dict]:
    """Read the card inside ``quad`` (as ``find_cards`` returns it, in pixels
    of ``image_bgr``, the full-resolution frame) -> (card or None, confidence
    0-1, details: best/runner-up/margin, why it abstained)."""
    # A quad gives two views (see ``face_views``): the one that matches the
    # deck best is the card the right way round. A clearly oblong quad is
    # first read the way its proportions say, and that reading stands when
    # it names a card (the usual case on a table camera: half the cost);
    # otherwise, or for a square-looking quad (a steep angle, a photo
    # stretched to a square), the quarter-turn is read too.
    q = np.asarray(quad, np.float32).reshape(4, 2)
    first = warp_face(image_bgr, q)
    ink = _ink_colour(first)
    scored = [score_face(first, deck, ink)]
    if quad_aspect(q) >= AMBIGUOUS_ASPECT:
        reading = decide(scored[0][0], deck, scored[0][1]["votes"])
        if reading.card is not None:
            return reading.card, reading.confidence, {**reading.details, **scored[0][1]}
    scored.append(score_face(warp_face(image_bgr, np.roll(q, -1, axis=0)), deck, ink))
    scores, evidence = max(scored, key=lambda pair: float(pair[0].max()))
    reading = decide(scores, deck, evidence["votes"])
    return reading.card, reading.confidence, {**reading.details, **evidence}


# --- choosing the abstention rule at enrolment -------------------------------------------

def perturb(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A plausible other shot of the same face: the quad a few pixels off,
    softer focus, other light, sensor noise, sometimes glare on a corner."""
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    dst = (src + rng.uniform(-0.03, 0.03, (4, 2)) * [w, h]).astype(np.float32)
    out = cv2.warpPerspective(face, cv2.getPerspectiveTransform(src, dst), (w, h),
                              borderMode=cv2.BORDER_REPLICATE)
    sigma = rng.uniform(0.0, 1.5)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    gain = rng.uniform(0.7, 1.2, 3) * rng.uniform(0.8, 1.1)
    out = out.astype(np.float32) * gain + rng.normal(0, 4, out.shape)
    if rng.random() < 0.3:
        cx, cy = (w * 0.12, h * 0.15) if rng.random() < 0.5 else (w * 0.88, h * 0.85)
        yy, xx = np.mgrid[0:h, 0:w]
        glare = np.exp(-(((xx - cx) / (0.12 * w)) ** 2 + ((yy - cy) / (0.1 * h)) ** 2))
        out += 200 * glare[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def choose_abstention(deck: Deck, seed: int = 0) -> dict:
    """The abstention rule for this deck, from reading perturbed copies of its
    own faces: how far the true card usually leads the best wrong one (the
    deck's own "gap"), and how well a wrong card can match. A reading must lead
    by a quarter of the usual gap, and score above what the best wrong card
    reaches in half the trials (below that, it looks no more like its card
    than a wrong card usually does).
    Recorded in the deck's manifest."""
    rng = np.random.default_rng(seed)
    feats = _features(deck)
    gaps, impostor_best, true_scores = [], [], []
    for card in deck.cards:
        for face in deck.faces[card]:
            for _ in range(_TRIALS_PER_FACE):
                scores, _ = score_face(perturb(face, rng), deck)
                truth = feats.index[card]
                wrong = float(np.delete(scores, truth).max()) if len(scores) > 1 else -1.0
                true_scores.append(float(scores[truth]))
                impostor_best.append(wrong)
                gaps.append(float(scores[truth]) - wrong)
    if not gaps:
        return dict(_DEFAULT_ABSTAIN)
    return {"min_margin": round(_GAP_SHARE * float(np.median(gaps)), 4),
            "min_score": round(float(np.median(impostor_best)), 4),
            "trials": len(gaps),
            "true_score_median": round(float(np.median(true_scores)), 4),
            "trial_errors": int(sum(1 for g in gaps if g <= 0))}
