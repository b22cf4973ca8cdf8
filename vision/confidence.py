"""How sure a still read is: the evidence at one place turned into a
decision and a probability of being right.

The evidence (``Evidence``): the best card's lighting-free correlation after
ECC (``vision.face_match``), its worst inked cell, the runner-up's
correlation (a different card), the margin and the distance ratio between
them, the keypoints' inliers at that place and whether the keypoints' first card is the best;
and where a rival is too close on the whole face (the aces, a 7 and an 8),
how the best and each such rival fit *where their faces differ*
(``face_match.contrast``).

``decide`` names the best card only when it is a good match (``MIN_SCORE``),
whole (no pip-sized patch of difference above ``MAX_BLOB``: a 6 of a
52-card pack on a 7's place, a card of another pack; ``MAX_BLOB_COURT`` for
a court card, which has no pip neighbour), clearly better than
the runner-up (Lowe's distance ratio at most ``MAX_RATIO``: on the whole face,
or, for rivals within ``MAX_RATIO_DIFFER`` there, where the two faces differ,
the best fitting there at least ``MIN_DIFFER_FIT``), and the probability below reaches
``P_READ``. Its confidence is that *probability that such a read is
right*: a logistic function of the evidence fitted on the tune halves
(``fit``; the coefficients below), checked on the report halves by the
reliability plots of ``vision evaluate``; for a card shown only in part,
or one the deck cannot tell from a card it lacks, at most ``CUT_CAP``
(never sure). An abstention's confidence is below 0.5.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

import numpy as np

from referee.cards import RANKS, rank_of

from .deck import Deck
from .face_match import Place, Score, contrast, neighbours

#: The read rule (chosen on the tune halves, docs/vision.md). ``MAX_BLOB``
#: (``face_match._blob``: the strongest pip-sized patch of difference against
#: the strongest patch of ink): a card the deck lacks read as its pip
#: neighbour (an 8 where only the 7 is enrolled, a 6 of a 52-card pack on a
#: 7) leaves 0.55 or more on the rendered webcam tune halves and 0.79 or more
#: on the real classic deck's; a right read under 0.5 on the webcam sets, up
#: to 0.57 on the real phone photos (a court card's picture a little off).
MIN_SCORE = 0.8
MAX_BLOB = 0.5
MAX_RATIO = 0.4
#: The patch of difference tells apart faces that differ by one pip. A court
#: card has no such neighbour (a J, Q and K differ by their whole picture:
#: the correlation and the distance ratio judge them), and its detailed
#: picture a little off in a phone photo, or a glare on it, leaves a bigger
#: patch: up to 0.8 for a J, Q or K (real classic deck, tune half: 5 court
#: cards at 0.53-0.74, all right; none of the impostors passes).
MAX_BLOB_COURT = 0.8
#: Faces that share a layout differ by a pip: the distance ratio over the
#: whole face stays high for the right card (the real classic tune half: Ah
#: against Ad at 0.45-0.55, Ad against Ac at 0.45-0.77, Td against Th at
#: 0.53), while where the two faces differ it is 0.04-0.35. A rival whose
#: whole-face ratio is up to ``MAX_RATIO_DIFFER`` is judged there; the best
#: must also fit its own face there (``MIN_DIFFER_FIT``). Its right reads on
#: the tune halves fit at 0.88-0.98 (a rendered webcam 8s at 0.853 stays
#: abstained); the impostors at 0.74-0.85: leave-one-out (an Ad photo with
#: the Ad taken out, read as the Ah against the Ac, the red pip weighing for
#: the Ah) and a Th photo whose Th was enrolled from a poor shot, its Td
#: fitting at 0.854 where the Td and the 9h differ (the ten's layout). A
#: drawn deck's court cards of one colour share their picture and differ by
#: the index and its pip: over the whole face a Ks against the Kc is at 0.80
#: to 0.87 (the drawn French tune halves, 24 photos a table), and where they
#: differ at 0.27-0.32, fitting its own face at 0.97: judged there up to 0.95
#: (at 0.8 they abstained; the real and webcam tune halves are unchanged).
MAX_RATIO_DIFFER = 0.95
MIN_DIFFER_FIT = 0.87
_COURT = {RANKS.index(r) for r in "JQK"}
#: Logistic coefficients over ``Evidence.vector`` (correlation, margin,
#: 1 - distance ratio, worst cell, patch of difference (capped at 1),
#: inliers / 60, keypoints agree), fitted by ``fit`` (L2 0.1) on 535
#: examples of the tune halves: rendered webcam light grey and beige (bidly
#: scans, 2 shots a card), every place of the real classic deck's tune half
#: (cards the deck lacks and 2-6 included: every read of those is wrong), and
#: each of those places again with its true card taken out of the candidates
#: and of the keypoints' proposals (an impostor: the deck lacks the card,
#: every read is wrong). Round 17: the impostors had kept the true card
#: among the proposals, so none had the keypoints agreeing, and agreement
#: weighed as proof (6.6); a deck that really lacks the card has its
#: keypoints propose the others, and 25 of the 317 impostors agree (a 7c's
#: photo, the 8c's face). The old weights gave those up to 0.75, these 0.51
#: (the floors stop every impostor either way; 195 of the 201 right reads
#: passing them reach 0.9, against 196).
COEFFICIENTS = (2.547, -0.231, 4.505, -1.138, -6.132, -1.601, 3.561)
INTERCEPT = -1.447
#: A card the photo shows only in part (more than 1 % of its face off the
#: photo, ``Evidence.shown`` under 1) is read from that part, and the
#: probability above, fitted on whole cards, overstates it: the tune half's
#: whole cards cut 12 ways each (40 cards, ``scripts/fit_confidence.py
#: --crops 40``), with their true card taken out (the deck lacks it), gave
#: 8 wrong reads among 443, 6 of them at 0.9 or more (up to 0.954). Refitted
#: with those crops, the share in view took no weight (-0.017) while every
#: other coefficient moved (the whole cards' calibration, which the stills
#: bench backs, with it). So such a read is named as before but never sure:
#: its confidence is at most this. So is a read of a card the deck cannot
#: have told from a card it lacks (its enrolment left one out), which would
#: be read as its nearest enrolled twin: the drawn French deck's tune halves,
#: each place again with its true card taken out (24 photos a table), gave
#: 31 such reads, all of the same rank (a Qs read as the Qc, a Ks as the Kc:
#: one picture, another index), 14 of them at 0.9 or more (up to 0.94). A
#: read whose card has a neighbour the deck lacks (``face_match.neighbours``:
#: its rank in the other suits, the next ranks in its suit) is capped (with
#: ``MAX_RATIO_DIFFER`` at 0.95 those reads are 36, none at 0.9). A whole
#: deck is not touched.
CUT_CAP = 0.89
#: A card passing the floors is named only when the probability reaches this
#: (on the tune halves: 201 places pass the floors, all right; 201 reach 0.7,
#: 195 reach 0.9).
P_READ = 0.7


@dataclass(frozen=True)
class Evidence:
    card: Optional[int]          # the best card (None: no candidate at all)
    score: float
    cell: float
    blob: float
    runner: Optional[int]
    margin: float                # best score less the runner-up's
    inliers: int                 # the keypoints' at this place, or the best's among tied leaders (0: an outline only)
    agrees: bool                 # the keypoints' first card is the best one, or one of the leaders tied there
    shown: float = 1.0           # the share of the best face the photo shows (``Score.shown``)
    #: where the faces differ (``face_match.contrast``), against the rivals
    #: too close on the whole face: (the best's worst fit there, the worst
    #: distance ratio there); None when no rival was judged there
    differ: Optional[tuple[float, float]] = None
    #: every neighbour of the best card is enrolled (it was told from each)
    twins_enrolled: bool = True

    @classmethod
    def of(cls, scores: list[Score], place: Place, image_bgr: Optional[np.ndarray] = None,
           deck: Optional[Deck] = None) -> "Evidence":
        """The evidence at ``place`` from its candidates' ``scores`` (best
        first); with the photo and deck, the close rivals are also judged
        where their faces differ from the best's."""
        if not scores:
            return cls(None, 0.0, 0.0, 9.9, None, 0.0, place.inliers, False)
        best = scores[0]
        runner = scores[1] if len(scores) > 1 else None
        tied = dict(place.tied)
        return cls(best.card, best.score, best.cell, best.blob, runner.card if runner else None,
                   best.score - (runner.score if runner else 0.0), max(place.inliers, tied.get(best.card, 0)),
                   (bool(place.cards) and place.cards[0] == best.card) or best.card in tied, best.shown,
                   _differ(scores, image_bgr, deck) if image_bgr is not None else None,
                   deck is None or told_apart(best.card, deck))

    @property
    def ratio(self) -> float:
        """Lowe's distance ratio: how far the photo is from the best face
        (1 - correlation) against how far from the runner-up's. It judges a
        lead against how alike the two faces are: two court cards of a drawn
        deck that share their picture and differ by the index are both near,
        and 0.990 against 0.974 is a clear lead; a photo at 0.88 against 0.86
        is not."""
        return _ratio(self.score, self.score - self.margin)

    @property
    def lead(self) -> float:
        """The distance ratio that judges the best's lead: the whole face's,
        or where the faces differ when the close rivals were judged there
        and the best fits its own face there."""
        if self.ratio > MAX_RATIO and self.differ is not None and self.differ[0] >= MIN_DIFFER_FIT:
            return min(self.ratio, self.differ[1])
        return self.ratio

    def vector(self) -> np.ndarray:
        return np.array([self.score, self.margin, 1.0 - min(self.lead, 1.0), self.cell, min(self.blob, 1.0),
                         min(self.inliers, 60) / 60.0, float(self.agrees)])


def told_apart(card: int, deck: Deck) -> bool:
    """Whether ``deck`` holds every card ``card`` could be taken for
    (``face_match.neighbours``), so that a read of it can be sure
    (``CUT_CAP``); ``calibrate deck --partial`` names the cards it cannot."""
    return neighbours(card) <= set(deck.faces)


def _ratio(best: float, other: float) -> float:
    return max(0.0, 1.0 - best) / max(1e-3, 1.0 - other)


def _differ(scores: list[Score], image_bgr: np.ndarray, deck: Deck) -> Optional[tuple[float, float]]:
    """(the best's worst fit, the worst distance ratio) where its face
    differs from each rival too close on the whole face (ratio above
    ``MAX_RATIO``); None when there is none, or one too close to judge
    (above ``MAX_RATIO_DIFFER``), or the best is no good match."""
    best = scores[0]
    rivals = [s for s in scores[1:] if _ratio(best.score, s.score) > MAX_RATIO]
    if not rivals or best.score < MIN_SCORE or best.to_photo is None \
            or any(_ratio(best.score, s.score) > MAX_RATIO_DIFFER or s.to_photo is None for s in rivals):
        return None
    fits = [contrast(image_bgr, best, rival, deck) for rival in rivals]
    return min(mine for mine, _ in fits), max(_ratio(mine, theirs) for mine, theirs in fits)


def probability(evidence: Evidence) -> float:
    z = INTERCEPT + float(np.dot(COEFFICIENTS, evidence.vector()))
    return 1.0 / (1.0 + np.exp(-z))


def readable(evidence: Evidence) -> bool:
    if evidence.card is None:
        return False
    blob = MAX_BLOB_COURT if rank_of(evidence.card) in _COURT else MAX_BLOB
    return evidence.score >= MIN_SCORE and evidence.blob <= blob and evidence.lead <= MAX_RATIO


def decide(evidence: Evidence) -> tuple[Optional[int], float]:
    """(the card or None, confidence): see module doc."""
    p = probability(evidence)
    if readable(evidence) and p >= P_READ:
        sure = evidence.shown >= 1.0 and evidence.twins_enrolled
        return evidence.card, round(float(p if sure else min(p, CUT_CAP)), 4)
    return None, round(float(min(p, 0.49)), 4)


def fit(evidence: Iterable[Evidence], right: Iterable[bool], l2: float = 1.0, steps: int = 50
        ) -> tuple[tuple[float, ...], float]:
    """Logistic regression (Newton's method, an L2 penalty on the weights) of
    "the best card is the truth" on the evidence of the tune halves' places:
    the coefficients and intercept to paste above."""
    x = np.array([e.vector() for e in evidence], np.float64)
    y = np.array(list(right), np.float64)
    x = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(x.shape[1])
    penalty = np.diag([l2] * (x.shape[1] - 1) + [0.0])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (p - y) + penalty @ w
        hess = x.T @ (x * (p * (1 - p))[:, None]) + penalty + 1e-9 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return tuple(round(float(v), 3) for v in w[:-1]), round(float(w[-1]), 3)
