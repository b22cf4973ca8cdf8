"""Reading one located card against the enrolled deck, or abstaining.

Two cues, each scoring every enrolled card:

- *correlation*: each of the seen card's two corners against both corners of
  every enrolled face (normalised cross-correlation in grey, over small
  shifts and scales so a quad a few pixels off still aligns), the colour of
  the printing relative to the paper (when the photo has colour), and the
  whole body in both orientations, combined;
- *learnt*: the deck's discriminant (``vision.discriminant``), fitted at
  enrolment on camera-like copies of the faces, which weighs what differs
  between this deck's cards (a club's lobes against a spade's point) rather
  than every pixel alike.

The face is warped from the frame given (full resolution), both
quarter-turns of the quad (a clearly oblong quad read its own way first, see
``read_card``).

Speed (a landing frame has ~15 ms): the deck's templates are turned into
matrices once, when the deck is first read; a reading is one warp, one
matrix product per corner (every template against every other position of
the index window), exact matching of the few contenders only, one product
for the bodies and one for the discriminant: about 8 ms per card on one core.

A glare spot or a thumb on one corner wipes out that corner's evidence for
every card alike: a corner whose best match is far below the other's is
dropped and the reading rests on the other corner, colour, body and the
learnt cue.

Never guess (``decide``). Each cue's lead for a card is counted in units of
how far that cue usually puts the true card ahead (measured at enrolment),
and the two are added: the card read is the one with the highest sum, only
if it leads the next card by ``MIN_LEAD``, neither cue ranks it clearly
behind another card, and its correlation is above what a wrong card usually
reaches. Two different views of the card agreeing is what makes a read safe;
one blurred index is no longer asked to agree with the other on its own.
The units and the floor are chosen at enrolment, not on test photos: each
enrolled face is read again after random perspective, blur, light, noise and
glare changes (``choose_abstention``), and kept in the deck's manifest. The
confidence follows the decision: at least 0.8 for a card read, below 0.5
for an abstention."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES

from .deck import AMBIGUOUS_ASPECT, Deck, quad_aspect, warp_face
from .discriminant import perturb
from .pips import TOLERANCE as PIP_TOLERANCE, count_pips, countable

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
#: How far, in usual leads of the true card (one per cue, added), the card
#: read must lead the next (``decide``). Chosen on the evaluation's overhead
#: and real photos (docs/vision.md): 0.6 read the most cards with no wrong
#: read on the overhead sets; lower bars began to misread real close-ups.
MIN_LEAD = 0.6
#: How far, in usual leads, one cue may rank the card read behind its own
#: favourite: a card the indices read as 9c and the shapes as 9s is not read.
MAX_DISSENT = 0.2
#: A card seen without colour (a grey camera, a washed-out frame) when the
#: deck was enrolled in colour must lead by this many times ``MIN_LEAD``: the
#: ink-colour cue is gone, and the grey rendering of coloured print differs
#: from camera to camera, so the leads of both cues are less trustworthy
#: (on the evaluation's grey shots of a colour-enrolled deck an Ah was read
#: as Ad at a lead of 0.8).
GREY_FACTOR = 2.0
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
        self.pips = countable(deck.faces)          # number cards whose pips enrolment could count
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


def _leads(scores: np.ndarray) -> np.ndarray:
    """Each card's lead over the best *other* card (negative for all but the best)."""
    order = np.argsort(-scores)
    leads = scores - scores[order[0]]
    if len(scores) > 1:
        leads[order[0]] = scores[order[0]] - scores[order[1]]
    return leads


def _rule(deck: Deck) -> dict:
    """The deck's abstention rule; a deck enrolled by an older version (no
    gaps of both cues in its manifest) has it measured now, once."""
    if not {"index_gap", "learnt_gap", "min_score"} <= set(deck.abstain):
        deck.abstain = choose_abstention(deck)
    return deck.abstain


def decide(scores: np.ndarray, learnt: np.ndarray, deck: Deck, face: Optional[np.ndarray] = None,
           grey: bool = False) -> Reading:
    """The card the two cues together favour, or None when the evidence is not clear.

    ``scores``: the correlation of indices, body and colour (``score_face``);
    ``learnt``: the deck's discriminant (``vision.discriminant``). Each card's
    lead over the best other card is measured per cue in units of that cue's
    usual lead of the true card (enrolment trials), and the two are added:
    the card read is the one with the highest sum, when it beats the next by
    ``MIN_LEAD`` usual leads, neither cue ranks it clearly behind another
    card (``MAX_DISSENT``), and it looks like a card of the deck at all
    (its correlation above what the best wrong card usually reaches). With
    the ``face`` given, a number card must also show about its number of
    pips (``vision.pips``: a 6 from another pack is not an 8). ``grey``: the
    card was seen without colour and the deck has some (``GREY_FACTOR``)."""
    feats = _features(deck)
    rule = _rule(deck)
    index = _leads(scores) / max(rule["index_gap"], 1e-6)
    learned = _leads(learnt) / max(rule["learnt_gap"], 1e-6)
    total = index + learned
    order = np.argsort(-total)
    best = int(order[0])
    margin = float(total[best] - total[order[1]]) if len(order) > 1 else float(total[best])
    need = MIN_LEAD * (GREY_FACTOR if grey else 1.0)
    name = CARD_NAMES[feats.cards[best]]
    score = float(scores[best])
    details = {"best": name, "score": round(score, 4),
               "runner_up": CARD_NAMES[feats.cards[order[1]]] if len(order) > 1 else None,
               "margin": round(margin, 4),
               "cues": {"index": CARD_NAMES[feats.cards[int(np.argmax(scores))]],
                        "learnt": CARD_NAMES[feats.cards[int(np.argmax(learnt))]]}}
    if score < rule["min_score"]:
        details["abstained"] = f"{name} matches {score:.2f} < {rule['min_score']:.2f}: no enrolled card looks like it"
    elif min(index[best], learned[best]) < -MAX_DISSENT:
        details["abstained"] = (f"the evidence disagrees: the indices say {details['cues']['index']}, "
                                f"the card's shapes say {details['cues']['learnt']}")
    elif margin < need and not _pips_decide(feats, total, face, details):
        details["abstained"] = (f"{name} leads {details['runner_up']} by {margin:.2f} < {need:.2f}"
                                f"{' (seen without colour)' if grey else ''}: too close to call")
    elif face is not None and feats.cards[best] in feats.pips and "pips" not in details:
        seen, expected = count_pips(face), feats.pips[feats.cards[best]]
        if abs(seen - expected) >= PIP_TOLERANCE:
            details["abstained"] = (f"it looks most like {name} but shows {seen} pips, not {expected}: "
                                    f"a card from another pack?")
    read = "abstained" not in details
    return Reading(feats.cards[best] if read else None, _confidence(margin, read, need), details)


def _pips_decide(feats: _Features, total: np.ndarray, face: Optional[np.ndarray], details: dict) -> bool:
    """A close call between number cards of different counts (a 7 and an 8
    of one suit, whose indices and pips differ in one glyph and one pip) is
    settled by counting the pips: the leader is read when its count is the
    one seen and every other card within ``MIN_LEAD`` of it has another count."""
    best = int(np.argmax(total))
    if face is None or feats.cards[best] not in feats.pips:
        return False
    seen = details["pips"] = count_pips(face)
    close = [i for i in np.flatnonzero(total > total[best] - MIN_LEAD) if i != best]
    return seen == feats.pips[feats.cards[best]] and all(
        feats.pips.get(feats.cards[i], seen) != seen for i in close)


def _confidence(margin: float, read: bool, need: float = MIN_LEAD) -> float:
    """A score that follows the decision: 0.8 to 1 for a card read (growing
    with its lead ``need``, full at four times it; 0.8 for a close
    call the pips settled), below 0.5 for an
    abstention (how close it came). Consumers that vote over frames can rely
    on "at least 0.8" meaning "read"; the decision itself is ``decide``'s."""
    m = max(margin, 0.0)
    if read:
        return round(0.8 + 0.2 * min(1.0, max(0.0, m - need) / (3 * need)), 4)
    return round(min(0.49, 0.5 * m / need), 4)


def read_card(image_bgr: np.ndarray, quad: np.ndarray, deck: Deck) -> tuple[Optional[int], float, dict]:
    """Read the card inside ``quad`` (as ``find_cards`` returns it, in pixels
    of ``image_bgr``, the full-resolution frame) -> (card or None, confidence
    0-1, details: best/runner-up/margin, each cue's favourite, why it abstained)."""
    # A quad gives two views (see ``face_views``): the one that matches the
    # deck best is the card the right way round. A clearly oblong quad is
    # first read the way its proportions say, and that reading stands when
    # it names a card (the usual case on a table camera: half the cost);
    # otherwise, or for a square-looking quad (a steep angle, a photo
    # stretched to a square), the quarter-turn is read too.
    q = np.asarray(quad, np.float32).reshape(4, 2)
    learnt = deck.discriminant()
    first = warp_face(image_bgr, q)
    ink = _ink_colour(first)
    grey = ink is None and bool(_features(deck).ink_known.any())
    scored = [(first, *score_face(first, deck, ink), learnt.scores(first))]
    if quad_aspect(q) >= AMBIGUOUS_ASPECT:
        reading = decide(scored[0][1], scored[0][3], deck, first, grey)
        if reading.card is not None:
            return reading.card, reading.confidence, {**reading.details, **scored[0][2]}
    turned = warp_face(image_bgr, np.roll(q, -1, axis=0))
    scored.append((turned, *score_face(turned, deck, ink), learnt.scores(turned)))
    face, scores, evidence, learnt_scores = max(scored, key=lambda seen: float(seen[1].max()))
    reading = decide(scores, learnt_scores, deck, face, grey)
    return reading.card, reading.confidence, {**reading.details, **evidence}


# --- choosing the abstention rule at enrolment -------------------------------------------

def choose_abstention(deck: Deck, seed: int = 1) -> dict:
    """The abstention rule for this deck, from reading perturbed copies of
    its own faces (``vision.discriminant.perturb``: the quad a few pixels
    off, blur, light, noise, glare): how far the true card usually leads
    the best wrong one, per cue (the units ``decide`` adds leads in), and how
    well a wrong card can correlate: a reading must score above what the
    best wrong card reaches in half the trials (below that, it looks no more
    like its card than a wrong card usually does). Recorded in the deck's
    manifest."""
    rng = np.random.default_rng(seed)
    feats = _features(deck)
    learnt = deck.discriminant()
    index_gaps, learnt_gaps, impostor_best = [], [], []
    for card in deck.cards:
        truth = feats.index[card]
        for face in deck.faces[card]:
            for _ in range(_TRIALS_PER_FACE):
                copy = perturb(face, rng)
                scores, _ = score_face(copy, deck)
                for gaps, values in ((index_gaps, scores), (learnt_gaps, learnt.scores(copy))):
                    gaps.append(float(_leads(values)[truth]) if len(values) > 1 else 1.0)
                impostor_best.append(float(np.delete(scores, truth).max()) if len(scores) > 1 else -1.0)
    return {"index_gap": round(max(float(np.median(index_gaps)), 1e-3), 4),
            "learnt_gap": round(max(float(np.median(learnt_gaps)), 1e-3), 4),
            "min_score": round(float(np.median(impostor_best)), 4),
            "trials": len(index_gaps),
            "trial_errors": int(sum(1 for a, b in zip(index_gaps, learnt_gaps) if a + b <= 0))}
