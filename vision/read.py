"""Reading one located card against the enrolled deck, or abstaining.

A read has three steps (``read_views``):

1. *Shortlist*: the seen face, and the enrolled faces either way up, as
   small grey thumbnails (small enough that a quad a few pixels off hardly
   moves them), with their index corners weighing as much as the rest: one matrix product scores every enrolled face, and the
   few best cards go on.
2. *Verify*: each shortlisted face is laid exactly over the seen one by ECC
   (``vision.align.align``) and compared at 80 x 120: the correlation of the
   whole face, the worst inked cell's (a 6 from another pack lacks a pip
   of the 7), and the colour of the ink relative to the paper (red against
   black, when the photo has colour).
3. *Decide* (``decide``): the best card is read only when it is unlike every
   other card of the deck by a clear margin (Lowe's distance ratio), looks like its own enrolled
   face everywhere (whole and worst cell above floors), and, where both
   have colour, its ink is the enrolled face's colour. Otherwise it is
   ``None``: never a guess.

A quad gives two portrait views (its first side as the card's top, or a
quarter turn); a clearly oblong quad is read its own way only, a
square-looking one (a steep angle, a photo stretched to a square) both ways.
The half turn is covered by comparing with each enrolled face both ways up.

The confidence (``confidence``) grows with the margin and falls with the
worst patch of difference; how right each confidence is, is measured on
real photos by ``vision evaluate`` (a reliability plot), not assumed.

Cost: a warp, one small matrix product, five ECC alignments at 60 x 90 (the
first 10 iterations from the seen quad, the others 3 from the first one's
result: an iteration is ~0.2 ms and ECC rarely meets its tolerance, so the
caps are the cost) and five comparisons: ~9 ms of CPU per card on one core
of the shared machine (``python -m bench vision``), half of it ECC.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES

from . import align
from .deck import AMBIGUOUS_ASPECT, Deck, quad_aspect, warp_face

#: The rule (chosen on the tuning half of the real photos, docs/vision.md):
#: the best card's whole-face correlation after alignment must reach
#: ``MIN_SCORE`` (below, no enrolled card looks like it: another deck, a
#: joker), its strongest patch of difference stay under ``MAX_BLOB`` times
#: the faces' mean ink (a 6 against a 7, a 5 against a 9: a pip missing),
#: its worst inked cell above ``MIN_CELL``, its ink colour within
#: ``MAX_COLOUR``, and it must be clearly nearer than the next card
#: (``distance_ratio`` at most ``MAX_RATIO``).
MIN_SCORE = 0.7
MAX_BLOB = 2.5
MIN_CELL = 0.3
MAX_COLOUR = 0.25
MAX_RATIO = 0.5
#: The distance ratio at which a read's confidence is full.
SURE_RATIO = 0.15
#: ECC iterations for the first shortlisted face (from the seen quad as it
#: is; each costs ~0.2 ms and ECC rarely meets its tolerance, so the cap is
#: the cost: past 10 the scores move by < 0.001, docs/vision.md) ...
_FIRST_ITERATIONS = 10
#: ... and for the shortlisted faces after the first: they start from the
#: first one's homography (the seen quad's error is common to all).
_REFINE_ITERATIONS = 3
#: Cards verified after the shortlist.
SHORTLIST = 5
#: Thumbnail (width, height) the shortlist compares, and the index corner's
#: (taken from the face at twice the size), which weighs as much: cards
#: that share a picture (drawn court cards) differ only there.
_THUMB = (20, 30)
_INDEX_THUMB = (12, 16)
#: Ink colour: chroma difference (Lab units) that counts as one unit of
#: mismatch (about red against black), the difference ignored (two lamps),
#: and the weight of the mismatch in the score. Also the chroma below which
#: a photo has no colour at all.
_CHROMA_SCALE = 40.0
_CHROMA_TOLERANCE = 12.0
_W_COLOUR = 0.3
_GREY_CHROMA = 12.0
#: Share of the index corners (compared at twice the size) in the score:
#: what tells apart cards that share everything but their index.
_W_INDEX = 0.4


@dataclass(frozen=True)
class Reading:
    card: Optional[int]
    confidence: float
    details: dict


class _Templates:
    """The deck's faces either way up, prepared once per deck: grey and
    normalised at ``align.SIZE``, at ECC's size, their index boxes, the shortlist
    thumbnails as unit rows, ink colour."""

    def __init__(self, deck: Deck):
        self.cards = deck.cards
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.labels, self.eccs, self.normed, self.inks, self.indices, rows = [], [], [], [], [], []
        for card in self.cards:
            for face in deck.faces[card]:
                ink = ink_colour(face)
                for turned in (face, cv2.rotate(face, cv2.ROTATE_180)):
                    g = align.grey(turned)
                    n = align.normalise(g)
                    self.labels.append(card)
                    self.eccs.append(align.ecc_image(g))
                    self.normed.append(n)
                    self.inks.append(ink)
                    fine = align.grey(turned, 2)
                    self.indices.append(align.centred_patches(align.normalise(fine)))
                    rows.append(_thumb(g, align.index_patches(fine)))
        self.thumbs = np.stack(rows)
        self.rows = np.array([self.index[c] for c in self.labels], np.intp)


def prepare(deck: Deck) -> None:
    """Compute what reading needs from the deck's faces now (~0.5 s for 32
    cards on one core) rather than during the first card's read, which
    would then be late (the live loop calls this before its first frame)."""
    _templates(deck)


def _templates(deck: Deck) -> _Templates:
    if deck._features is None:
        deck._features = _Templates(deck)
    return deck._features


def _thumb(grey: np.ndarray, indices: list[np.ndarray]) -> np.ndarray:
    """The shortlist's vector: the whole face and its two index corners, in
    grey and so small that a quad a few pixels off hardly moves them, each
    zero-mean and of norm 1/sqrt(2) (whole) and 1/2 (each corner), so the dot
    product of two is a correlation weighing face and indices alike."""
    def small(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        return cv2.GaussianBlur(cv2.resize(image, size, interpolation=cv2.INTER_AREA), (0, 0), 1.0).ravel()
    parts = [(small(grey, _THUMB), np.sqrt(0.5))] + [(small(p, _INDEX_THUMB), 0.5) for p in indices]
    out = []
    for t, weight in parts:
        t = t - t.mean()
        out.append(weight * t / (np.linalg.norm(t) + 1e-6))
    return np.concatenate(out).astype(np.float32)


def ink_colour(face: np.ndarray) -> Optional[np.ndarray]:
    """The colour of the printing relative to the paper, as a Lab chroma
    vector (a*, b*): red indices far from black ones, gold far from silver.
    Relative to the paper, so a warm lamp shifts both and cancels out. None
    for a grey photo, where colour says nothing."""
    small = cv2.resize(face, (60, 90), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.medianBlur(small, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    pixels = lab.reshape(-1, 3)
    paper = np.median(pixels, axis=0)
    d = pixels - paper
    ink = np.einsum("ij,ij->i", d, d) > 30 * 30
    if ink.sum() < 0.01 * len(pixels):
        return None
    c = pixels[:, 1:] - 128
    chroma = np.sqrt(np.einsum("ij,ij->i", c, c))
    if np.percentile(chroma, 99) < _GREY_CHROMA:
        return None
    return pixels[ink, 1:].mean(axis=0) - paper[1:]


def _colour_penalty(seen: Optional[np.ndarray], enrolled: Optional[np.ndarray]) -> float:
    if seen is None or enrolled is None:
        return 0.0
    return _W_COLOUR * max(0.0, float(np.linalg.norm(seen - enrolled)) - _CHROMA_TOLERANCE) / _CHROMA_SCALE


@dataclass(frozen=True)
class _Match:
    card: int
    score: float        # whole-face correlation after alignment, less the colour penalty
    cell: float         # worst inked cell's correlation
    colour: float       # the colour penalty alone
    blob: float         # the strongest patch of difference, against the faces' mean ink
    whole: float = 0.0  # the two parts of the score: whole face, index corners
    index: float = 0.0


def verify(views: list[np.ndarray], deck: Deck, exclude: Optional[int] = None) -> list[_Match]:
    """The shortlisted cards for these views of one card, best first (see
    module doc). ``exclude``: a card to leave out, as if the deck lacked it
    (what enrolment measures its impostors with)."""
    t = _templates(deck)
    greys = [align.grey(v) for v in views]
    eccs = [align.ecc_image(g) for g in greys]
    normed = [align.normalise(g) for g in greys]
    fine_greys = [align.grey(v, 2) for v in views]
    fine = [align.normalise(f) for f in fine_greys]
    ink = ink_colour(views[0])
    thumbs = np.stack([_thumb(g, align.index_patches(f)) for g, f in zip(greys, fine_greys)])
    sims = cv2.gemm(thumbs, t.thumbs, 1.0, None, 0.0, flags=cv2.GEMM_2_T)     # views x templates
    best_view = sims.argmax(axis=0)
    per_template = sims.max(axis=0)
    if exclude is not None:
        per_template = np.where(np.array(t.labels) == exclude, -2.0, per_template)
    order = np.argsort(-per_template)
    picked, seen_cards = [], set()
    for k in order:
        card = t.labels[k]
        if card not in seen_cards and per_template[k] > -2.0:
            seen_cards.add(card)
            picked.append(k)
            if len(picked) == SHORTLIST:
                break
    matches = []
    found: dict[int, np.ndarray] = {}         # the first full alignment per view starts the others
    for k in picked:
        v = int(best_view[k])
        h = align.align(t.eccs[k], eccs[v], found.get(v),
                        _FIRST_ITERATIONS if v not in found else _REFINE_ITERATIONS)
        found.setdefault(v, h)
        whole, cell, blob = align.compare(t.normed[k], align.warp(normed[v], h))
        index = align.index_score(t.indices[k], fine[v], h)
        penalty = _colour_penalty(ink, t.inks[k])
        score = (1 - _W_INDEX) * whole + _W_INDEX * index - penalty
        matches.append(_Match(t.labels[k], score, cell, penalty, blob, whole, index))
    return sorted(matches, key=lambda m: -m.score)


def decide(matches: list[_Match]) -> Reading:
    """The best match is read when the floors and the margin hold (see module doc)."""
    best = matches[0]
    runner = matches[1] if len(matches) > 1 else None
    margin = best.score - (runner.score if runner else 0.0)
    ratio = distance_ratio(best.score, runner.score if runner else -1.0)
    name = CARD_NAMES[best.card]
    details = {"best": name, "score": round(best.score, 4), "whole": round(best.whole, 4),
               "index": round(best.index, 4), "cell": round(best.cell, 4), "blob": round(best.blob, 3),
               "runner_up": CARD_NAMES[runner.card] if runner else None, "margin": round(margin, 4),
               "ratio": round(ratio, 4)}
    if best.score < MIN_SCORE:
        details["abstained"] = f"{name} matches {best.score:.2f} < {MIN_SCORE:.2f}: no enrolled card looks like it"
    elif best.blob > MAX_BLOB or best.cell < MIN_CELL:
        details["abstained"] = (f"{name} matches overall but one part of the card does not (a missing or extra "
                                f"mark {best.blob:.1f} > {MAX_BLOB:.1f}, or a cell at {best.cell:.2f}): "
                                f"a card from another pack?")
    elif best.colour > MAX_COLOUR:
        details["abstained"] = f"{name}'s ink is another colour: a card from another pack?"
    elif ratio > MAX_RATIO:
        details["abstained"] = (f"{name} is not clearly nearer than {details['runner_up']} (distance ratio "
                                f"{ratio:.2f} > {MAX_RATIO:.2f}): too close to call")
    read = "abstained" not in details
    return Reading(best.card if read else None, confidence(ratio, best.blob, read), details)


def distance_ratio(best: float, runner: float) -> float:
    """How far the seen card is from the best card's face, against how far
    from the next one (1 - correlation each): Lowe's ratio test. It judges a
    lead against how alike the two faces are: two drawn court cards that
    differ only by their index are both near, and 0.997 against 0.985 is a
    clear lead; a photo at 0.90 against 0.88 is not."""
    return max(0.0, 1.0 - best) / max(1e-3, 1.0 - runner)


def confidence(ratio: float, blob: float, read: bool) -> float:
    """0.8 to 1 for a card read, growing as its distance ratio falls (full
    at ``SURE_RATIO``) and shrinking with its strongest patch of difference;
    below 0.5 for an abstention. Consumers voting over frames rely on "at
    least 0.8" meaning "read". How often a read at each confidence is right
    is measured on real photos (``vision evaluate``'s reliability plot)."""
    lead = max(0.0, min(1.0, (MAX_RATIO - ratio) / (MAX_RATIO - SURE_RATIO)))
    clean = max(0.0, min(1.0, 1.0 - blob / MAX_BLOB))
    if read:
        return round(0.8 + 0.2 * lead * clean, 4)
    return round(0.49 * max(0.0, min(1.0, 1.0 - ratio)), 4)


def views_of(image_bgr: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The portrait faces a quad can be read as (see module doc)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    size = (2 * align.SIZE[0], 2 * align.SIZE[1])
    first = warp_face(image_bgr, q, size)
    if quad_aspect(q) >= AMBIGUOUS_ASPECT:
        return [first]
    return [first, warp_face(image_bgr, np.roll(q, -1, axis=0), size)]


def read_card(image_bgr: np.ndarray, quad: np.ndarray, deck: Deck) -> tuple[Optional[int], float, dict]:
    """Read the card inside ``quad`` (as ``find_cards`` returns it, in pixels
    of ``image_bgr``, the full-resolution frame) -> (card or None, confidence
    0-1, details: best, runner-up, margin, why it abstained)."""
    reading = decide(verify(views_of(image_bgr, quad), deck))
    return reading.card, reading.confidence, reading.details


