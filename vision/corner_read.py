"""Reading cards from their index corners alone: trick heaps and fanned hands.

How it learns: from each enrolled face it finds the index of the top-left
corner (``anchors``: the rank glyph's and the suit pip's centres, by the
same ink blobs ``vision.index_corner`` finds in photos) and makes synthetic
photos of the face (``_copies``: any rotation, the sizes a webcam or phone
sees, a little perspective, lens blur, a lamp's gradient, sensor noise,
JPEG, on a table of any colour, sometimes half covered by another card's
paper). On each copy it runs the photo's own index finder, and keeps the
canonical patch of every frame it finds: the frames that lie on one of the
copy's two index corners are that card's examples, the others (pips in the
middle, parts of a court picture) are examples of "no index". So the
examples are what the finder really produces, R/D/V, aces "1", named
portraits or large indices alike: whatever the enrolled deck prints.

How it reads (``read_corners``): every frame the finder proposes in the
photo is compared (correlation, one matrix product) with every example's
coarse patch: frames like no index are dropped. The rest are read in two
parts, each against its own examples: the rank glyph (the 8 ranks, every
suit's examples pooled) and the pip (the 4 suits, every rank's pooled). A
frame is read when both reach ``MIN_SCORE`` and are clearly nearer than
the next rank and suit (Lowe's distance ratio; a rank glyph with a fanned
neighbour's edge beside it, by the glyph's core alone, more clearly), the rank's worst cell
agrees (a rank the deck lacks, a 3 against an 8, differs in one cell), the
pip's colour (red or black, calibrated on the enrolled faces' examples) is
its suit's (when that colour is clear, the suit need only lead the other
suit of its colour; in a photo without colour, where every pip looks
black, the suit must be nearer by a tighter ratio: its shape alone tells
it), the rank glyph is nearer to its rank's examples than to any
"no index" mark's, and that card is enrolled. A photo whose pixels are not
square (a 4:3 photo exported to 640 x 640) is read made square again
(``read_corners``' ``stretch``, ``vision.stretch``). Frames on the same index are
merged; two frames of one card (its two corners) are one card, marked as
read by both (``CornerRead.both``: what a whole card the whole-face reader
doubts needs before its index names it, ``vision.corner_merge``, unless no
index at all shows where its other one would be: ``CornerRead.other_shows``). Otherwise:
nothing. Never a guess.

Why one module over 500 lines: learning and reading share every patch,
threshold and example array of ``CornerModel``, and a rule of the reader is
only understood beside the examples it is judged against; the finder
(``vision.index_corner``) and the merge (``vision.corner_merge``) live apart.

Cost (one OpenCV thread, the shared machine at a load of ~9): the model, once
per deck, ~6 s (learnt by ``calibrate deck`` and kept in the deck's
directory, ``corners.npz``); a
1600 x 1200 photo ~0.1 s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES, parse_card

from .deck import FACE_SIZE, Deck
from .index_corner import COARSE, RANK, RANK_CORE, SUIT, Gates, IndexFrame, blobs, frames, grey_of, patch, \
    pip_redness, vector

#: The decision (chosen on the tune half of the rendered French heaps, docs/vision.md).
MIN_SCORE = 0.8
MAX_RATIO = 0.6
#: The suit's ratio in a photo without colour (a black-and-white camera, a
#: photo saved in grey): there the pip's colour proves nothing (every pip
#: looks black, so only spades and clubs can be read) and the suit rests on
#: the pip's shape alone, which at an index's size tells a spade from a club
#: less surely. On the real classic deck's tune half a 7 of spades' pip read
#: as a club's at 0.47 in a grey photo; right reads there came at 0.23-0.49.
MAX_GREY_RATIO = 0.4
#: The rank's own distance ratio: tighter, a rank the deck lacks (the 3 or 6
#: of a 52-card pack, an English Q against a French D) comes nearest to a
#: rank it has at 0.42-0.6. A looser ratio for ranks whose worst cell is
#: clean was tried and let the English Q through as D.
MAX_RANK_RATIO = 0.4
#: A rank whose glyph is not clearly nearest as a whole (a fanned neighbour's
#: edge and shadow beside it lower every rank alike) is still read when the
#: glyph's core alone (``RANK_CORE``) names the same rank by this ratio.
#: On bidly's deals 1-3 right reads came at 0.05-0.26, a 6 of a 52-card
#: pack read as an 8 at 0.37.
MAX_CORE_RATIO = 0.25
#: A rank glyph whose worst cell fails is judged again by its core's worst
#: cell when the core names the same rank by this ratio (see ``read``).
MAX_CORE_CELL_RATIO = 0.4
#: A frame's rank glyph must be nearer to its rank's examples than to every
#: "no index" mark's by this. Judged on the rank glyph: the whole index,
#: small and blurred, is as like a mark of the face's middle (0.95-0.98) as
#: like an index, and that refused 17 of 740 right reads of the tune half.
BACKGROUND_MARGIN = 0.02
#: A pip's colour is clear (red or black beyond doubt) this far (Lab a*
#: units) from the enrolled examples' red/black split: then the suit need
#: only lead the other suit of its colour (``CornerModel._within_colour``).
#: On bidly's deals 1-3 black pips measure 1-5 and red ones 28-38 against a
#: split of 16.5.
COLOUR_CLEAR = 8.0
#: A frame whose whole index patch is less like any card's than this is not looked at closely.
COARSE_MIN = 0.75
#: The worst inked cell of the rank glyph (``_worst_cell``), and what counts as inked.
MIN_CELL = 0.3
_INKED = 0.35
#: A frame is at a card's other index when its middle is this near (in units
#: of the read's rank-to-pip distance) to where the read places that index's
#: middle (placed from one index, the other lies 8-10 units away, and a phone
#: photo's perspective puts it a unit off: a 6 of hearts of the classic tune
#: half, 1.2 units), it runs that index's way (within 30 degrees) and is
#: about its size.
_OTHER_NEAR = 1.5
_OTHER_TURN = float(np.cos(np.radians(30)))
_OTHER_SIZE = (0.7, 1.4)
#: Synthetic copies of each enrolled face, and the face's height in them (px).
COPIES = 10
_HEIGHTS = (170.0, 460.0)
#: "No index" examples kept per copy.
_NEGATIVES = 10
#: The index box in face fractions (x1, y1) from the top-left corner.
_INDEX_BOX = (0.27, 0.34)
_SUITS_RED = {"h", "d"}
#: Chroma (Lab units) under which a photo's most colourful 1 % shows it has no colour (``grey_photo``).
_GREY_PHOTO = 4.0
#: An enrolled index agrees with the deck's when its rank-to-pip line is
#: within atan(0.25) = 14 degrees of the face's vertical and its length
#: within 30 % of the deck's median (the drawn and scanned decks: 3 degrees,
#: 15 %).
_MAX_TILT = 0.25
_MAX_STRETCH = 0.3
#: Unit sensor noise, cut at random for each copy (drawing it anew is most of a copy's cost).
_NOISE = np.random.default_rng(7).standard_normal((900, 900, 3)).astype(np.float32)


@dataclass(frozen=True)
class CornerRead:
    card: Optional[int]
    confidence: float
    index: np.ndarray      # 4 x 2: the index box in the photo
    corners: np.ndarray    # 4 x 2: the whole card as its index places it (TL TR BR BL of the face)
    details: dict
    both: bool = False     # two index corners read this card (a whole card's both show)
    #: Some rank-over-pip pair lies where this card's other index would be
    #: (read or not), or that place is off the picture. False: that corner is covered.
    other_shows: bool = True
    #: The frame it was read from: its rank glyph's centre and its pip's (2 x 2, photo px).
    frame: Optional[np.ndarray] = None


def anchors(face: np.ndarray) -> Optional[tuple[np.ndarray, np.ndarray, float, float]]:
    """(rank centre, pip centre, rank area, pip area) of a face's top-left
    index, in face px; None when it has no clear rank-over-pip index."""
    h, w = face.shape[:2]
    x1, y1 = int(_INDEX_BOX[0] * w), int(_INDEX_BOX[1] * h)
    b = blobs(face)
    stats = []
    for c, a, i in zip(b.centres, b.areas, b.ids):
        ys, xs = np.nonzero(b.labels == i)
        # A blob on the face's border is a sliver of table the rectified face took in, never ink.
        if xs.max() < x1 and ys.max() < y1 and xs.min() > 0 and ys.min() > 0:
            stats.append((c, a, ys.min(), ys.max()))
    if len(stats) < 2:
        return None
    big = max(a for _, a, _, _ in stats)
    stats = [s for s in stats if s[1] >= 0.15 * big]
    pip = max(stats, key=lambda s: s[0][1])
    rank = [s for s in stats if s[3] < pip[2] + 0.3 * (pip[3] - pip[2])]
    if not rank:
        return None
    area = sum(s[1] for s in rank)
    centre = sum(s[0] * s[1] for s in rank) / area
    return centre, pip[0], float(area), float(pip[1])


def _consistent(found: dict[int, tuple]) -> dict[int, tuple]:
    """The anchors that agree with the deck's: a deck prints every index
    alike, the pip straight under the rank at one distance. An enrolled face
    whose index was found otherwise (a speck or a sliver of table taken for
    its pip) would place every card read from it turned and scaled wrong
    (its index box on a neighbour), and widen the gates for every card: it
    is left out (not read from its corners)."""
    if len(found) < 3:
        return found
    length = float(np.median([np.linalg.norm(p - r) for r, p, _, _ in found.values()]))
    return {card: (r, p, ra, pa) for card, (r, p, ra, pa) in found.items()
            if abs((p - r)[0]) <= _MAX_TILT * (p - r)[1]
            and abs(np.linalg.norm(p - r) - length) <= _MAX_STRETCH * length}


class CornerModel:
    """The enrolled deck's index examples (see module doc), made once per deck."""

    def __init__(self, deck: Deck, seed: int = 0):
        rng = np.random.default_rng(seed)
        cv2.setRNGSeed(seed)
        self.anchors: dict[int, tuple] = {}
        for card in deck.cards:
            a = anchors(deck.faces[card][0])
            if a is not None:
                self.anchors[card] = a
        self.anchors = _consistent(self.anchors)
        reach = [np.linalg.norm(p - r) / np.sqrt(pa) for r, p, _, pa in self.anchors.values()]
        ratio = [ra / pa for _, _, ra, pa in self.anchors.values()]
        self.gates = Gates((0.7 * min(reach), 1.4 * max(reach)), (0.45 * min(ratio), 2.2 * max(ratio))) \
            if reach else Gates((1.0, 0.0), (1.0, 0.0))
        coarse, fine_rank, fine_suit, labels, redness = [], [], [], [], {True: [], False: []}
        core = []
        no_index_rank = []
        for card in self.anchors:
            for face in deck.faces[card]:
                for _ in range(COPIES):
                    for (c, r, s, k), label, red in self._examples(face, card, rng):
                        if label < 0:
                            no_index_rank.append(r)
                        else:
                            coarse.append(c)
                            labels.append(label)
                            fine_rank.append(r)
                            fine_suit.append(s)
                            core.append(k)
                            if red is not None:
                                redness[CARD_NAMES[card][-1] in _SUITS_RED].append(red)
        self.rows = np.array(coarse, np.float32).reshape(-1, _dims(COARSE))
        self.labels = np.array(labels, np.int32)
        self.rank_rows = np.array(fine_rank, np.float32).reshape(-1, _dims(RANK))
        self.no_index_rank_rows = np.array(no_index_rank, np.float32).reshape(-1, _dims(RANK))
        self.suit_rows = np.array(fine_suit, np.float32).reshape(-1, _dims(SUIT))
        self.core_rows = np.array(core, np.float32).reshape(-1, _dims(RANK_CORE))
        self.ranks = np.array([CARD_NAMES[c][:-1] for c in self.labels])
        self.suits = np.array([CARD_NAMES[c][-1] for c in self.labels])
        reds, blacks = redness[True], redness[False]
        self.red_split = 0.5 * (float(np.median(reds)) + float(np.median(blacks))) if reds and blacks else None

    def _examples(self, face: np.ndarray, card: int, rng: np.random.Generator):
        image, m = _copy(face, rng)
        r, p, _, _ = self.anchors[card]
        h, w = face.shape[:2]
        truths = [(r, p), (np.array([w - 1, h - 1]) - r, np.array([w - 1, h - 1]) - p)]
        truths = [(_apply(m, a), _apply(m, b)) for a, b in truths]
        b = blobs(image)
        grey = grey_of(image)
        negatives = []
        for f in frames(b, self.gates):
            near = min(np.linalg.norm(f.rank - a) + np.linalg.norm(f.pip - q) for a, q in truths)
            # The index read backwards (its pip as the rank): an 8 over a diamond
            # turned is a diamond over an 8, nearly the same patch; not "no index".
            backwards = min(np.linalg.norm(f.rank - q) + np.linalg.norm(f.pip - a) for a, q in truths)
            unit = f.unit
            if near <= 0.3 * unit:
                yield _vectors(grey, f), card, pip_redness(image, b, f)
            elif min(near, backwards) >= 0.8 * unit:
                negatives.append(f)
        for k in rng.permutation(len(negatives))[:_NEGATIVES]:
            yield _vectors(grey, negatives[k]), -1, None

    def read(self, image_bgr: np.ndarray) -> list[CornerRead]:
        if not len(self.rows):
            return []
        b = blobs(image_bgr)
        found = frames(b, self.gates, seeds_alone=True)
        if not found:
            return []
        grey = grey_of(image_bgr)
        sims = cv2.gemm(np.stack([vector(patch(grey, f)) for f in found]), self.rows, 1.0, None, 0.0,
                        flags=cv2.GEMM_2_T)
        index_like = sims.max(axis=1)
        keep = np.flatnonzero(index_like >= COARSE_MIN)
        if not len(keep):
            return []
        fine = [_vectors(grey, found[i]) for i in keep]
        rank_sims = cv2.gemm(np.stack([v[1] for v in fine]), self.rank_rows, 1.0, None, 0.0, flags=cv2.GEMM_2_T)
        core_sims = cv2.gemm(np.stack([v[3] for v in fine]), self.core_rows, 1.0, None, 0.0, flags=cv2.GEMM_2_T)
        suit_sims = cv2.gemm(np.stack([v[2] for v in fine]), self.suit_rows, 1.0, None, 0.0, flags=cv2.GEMM_2_T)
        background = cv2.gemm(np.stack([v[1] for v in fine]), self.no_index_rank_rows, 1.0, None, 0.0,
                              flags=cv2.GEMM_2_T).max(axis=1) if len(self.no_index_rank_rows) \
            else np.full(len(fine), -1.0)
        ranks, suits = sorted(set(self.ranks)), sorted(set(self.suits))
        per_rank = np.stack([rank_sims[:, self.ranks == r].max(axis=1) for r in ranks], axis=1)
        per_core = np.stack([core_sims[:, self.ranks == r].max(axis=1) for r in ranks], axis=1)
        per_suit = np.stack([suit_sims[:, self.suits == u].max(axis=1) for u in suits], axis=1)
        max_suit_ratio = MAX_GREY_RATIO if grey_photo(image_bgr) else MAX_RATIO
        reads, taken = [], []
        for j in np.argsort(-(per_rank.max(axis=1) + per_suit.max(axis=1))):
            f = found[keep[j]]
            if any(np.linalg.norm(f.rank - t) < 0.6 * f.unit for t in taken):
                continue                   # another frame on the same index scored higher
            rank, suit, core = _top(per_rank[j], ranks), _top(per_suit[j], suits), _top(per_core[j], ranks)
            if rank[3] > MAX_RANK_RATIO and core[0] == rank[0] and core[3] <= MAX_CORE_RATIO:
                # A neighbour's edge beside the glyph: its core alone decides, clearly.
                nearest = self.core_rows[int(np.argmax(np.where(self.ranks == core[0], core_sims[j], -2)))]
                cell = _worst_cell(fine[j][3], nearest, RANK_CORE[1])
                rank = core[:3] + (min(core[3], MAX_RANK_RATIO),)
            else:
                nearest = self.rank_rows[int(np.argmax(np.where(self.ranks == rank[0], rank_sims[j], -2)))]
                cell = _worst_cell(fine[j][1], nearest, RANK[1])
                if cell < MIN_CELL and core[0] == rank[0] and core[3] <= MAX_CORE_CELL_RATIO:
                    # A neighbour's edge in a side cell (a fan's next card): the glyph's
                    # core alone, which holds every stroke, judges whether one is missing.
                    near_core = self.core_rows[int(np.argmax(np.where(self.ranks == core[0], core_sims[j], -2)))]
                    cell = max(cell, _worst_cell(fine[j][3], near_core, RANK_CORE[1]))
            suit = self._within_colour(suit, per_suit[j], suits, pip_redness(image_bgr, b, f))
            glyph = float(per_rank[j][ranks.index(rank[0])])
            reading = self._decide(image_bgr, b, f, rank, suit, cell, float(index_like[keep[j]]),
                                   glyph - float(background[j]), max_suit_ratio)
            if reading is not None:
                taken.append(f.rank)
                reads.append(replace(reading, other_shows=self._other_shows(reading.card, f, found, grey.shape)))
        return _one_per_card(reads)

    def _other_shows(self, card: int, f: IndexFrame, found: list[IndexFrame], size: tuple[int, int]) -> bool:
        """Whether any frame (read or not) lies where the card read at ``f``
        has its other index, running its way at its size: a whole card in
        view shows both indices; a heap's or a fan's card whose other corner
        lies under another card shows no index there (the marks of the card
        over it run their own way). An other index off the picture (a
        close-up cut by its edge) counts as showing: nothing says it is
        covered, and a card the deck lacks (a 6 read as an 8 from one
        index) must still meet its second witness."""
        r, p, _, _ = self.anchors[card]
        w, h = FACE_SIZE
        rank, pip = _similar(r, p, f.rank, f.pip, [np.array([w - 1, h - 1]) - r, np.array([w - 1, h - 1]) - p])
        middle, down = 0.5 * (rank + pip), (pip - rank) / max(1e-6, float(np.linalg.norm(pip - rank)))
        margin = f.unit
        if not (margin <= middle[0] <= size[1] - margin and margin <= middle[1] <= size[0] - margin):
            return True
        return any(np.linalg.norm(0.5 * (g.rank + g.pip) - middle) <= _OTHER_NEAR * f.unit
                   and float(np.dot(g.pip - g.rank, down)) >= _OTHER_TURN * g.unit
                   and _OTHER_SIZE[0] <= g.unit / f.unit <= _OTHER_SIZE[1] for g in found)

    def _within_colour(self, suit: tuple, scores: np.ndarray, suits: list[str], red: Optional[float]) -> tuple:
        """The suit's lead judged against the suit of its own colour alone,
        when the pip's colour is clear (``COLOUR_CLEAR`` from the split the
        enrolled examples calibrate) and is the best suit's: a diamond's pip
        at an index's size is as like a club's by shape (Lowe's ratio 0.66-0.83
        on bidly's deals 1-3) as like a heart's, but a red pip is no club.
        The best suit itself is never changed (a pip shaped like the other
        colour's suit is still refused by ``_decide``)."""
        if red is None or self.red_split is None or abs(red - self.red_split) < COLOUR_CLEAR:
            return suit
        is_red = red > self.red_split
        if (suit[0] in _SUITS_RED) != is_red:
            return suit
        same = [k for k, u in enumerate(suits) if (u in _SUITS_RED) == is_red]
        if len(same) < 2:
            return suit                    # a partial deck: the other suit of the colour is not known
        return _top(scores[same], [suits[k] for k in same])

    def _decide(self, image_bgr, b, f: IndexFrame, rank: tuple, suit: tuple, cell: float, index_like: float,
                glyph_lead: float, max_suit_ratio: float = MAX_RATIO) -> Optional[CornerRead]:
        """A frame's read, or None (see module doc)."""
        name = rank[0] + suit[0]
        details = {"best": name, "rank": rank[1], "rank_ratio": rank[3], "runner_up_rank": rank[2], "cell": cell,
                   "suit": suit[1], "suit_ratio": suit[3], "runner_up_suit": suit[2],
                   "index_like": round(index_like, 4), "glyph_lead": round(glyph_lead, 4)}
        card = parse_card(name)
        if card not in self.anchors:
            return None
        if min(rank[1], suit[1]) < MIN_SCORE or rank[3] > MAX_RANK_RATIO or cell < MIN_CELL \
                or suit[3] > max_suit_ratio:
            return None
        if glyph_lead < BACKGROUND_MARGIN:
            return None                    # its glyph as like a mark that is no index
        red = pip_redness(image_bgr, b, f)
        if red is not None and self.red_split is not None:
            details["pip_redness"] = round(red, 1)
            if (red > self.red_split) != (suit[0] in _SUITS_RED):
                return None                # the pip's colour is not the suit's
        lead = max(0.0, min(1.0, 1 - max(rank[3] / MAX_RANK_RATIO, suit[3] / max_suit_ratio)))
        r, p, _, _ = self.anchors[card]
        w, h = FACE_SIZE
        box_w, box_h = _INDEX_BOX[0] * w, _INDEX_BOX[1] * h
        index = _similar(r, p, f.rank, f.pip, [[0, 0], [box_w, 0], [box_w, box_h], [0, box_h]])
        corners = _similar(r, p, f.rank, f.pip, [[0, 0], [w, 0], [w, h], [0, h]])
        return CornerRead(card, round(0.8 + 0.2 * lead, 4), index, corners, details,
                          frame=np.float32([f.rank, f.pip]))


def grey_photo(image_bgr: np.ndarray) -> bool:
    """Whether the photo holds no colour at all (a black-and-white camera, a
    photo saved in grey): its most colourful 1 % under ``_GREY_PHOTO`` Lab
    units of chroma. Judged on the whole photo, not on a face
    (``face_match.has_colour``, 12 units): a colour photo of black cards on
    a dark table holds little chroma, but not none (5 units and more on the
    rendered dark table; the real set's grey photos 0-3)."""
    if image_bgr.ndim != 3:
        return True
    small = cv2.resize(image_bgr, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.medianBlur(small, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    return float(np.percentile(np.linalg.norm(lab[..., 1:] - 128.0, axis=-1), 99)) < _GREY_PHOTO


def _worst_cell(seen: np.ndarray, example: np.ndarray, size: tuple[int, int]) -> float:
    """The lowest correlation of the inked cells of a 3 x 3 grid over two rank
    glyphs: a glyph of another rank that shares most strokes (a 3 against an
    8, a 6 against a 9) lacks some in one cell."""
    w, h = size
    a, b = seen.reshape(h, w), example.reshape(h, w)
    cells, energy = [], []
    for r in range(3):
        for c in range(3):
            ca = a[r * h // 3:(r + 1) * h // 3, c * w // 3:(c + 1) * w // 3]
            cb = b[r * h // 3:(r + 1) * h // 3, c * w // 3:(c + 1) * w // 3]
            ca, cb = ca - ca.mean(), cb - cb.mean()
            ea, eb = float((ca * ca).sum()), float((cb * cb).sum())
            energy.append(max(ea, eb))
            cells.append(float((ca * cb).sum()) / (np.sqrt(ea * eb) + 1e-9))
    mean = float(np.mean(energy))
    return round(min(c for c, e in zip(cells, energy) if e >= _INKED * mean), 4)


def _top(scores: np.ndarray, names: list[str]) -> tuple[str, float, Optional[str], float]:
    """(best name, its score, the runner-up's name, Lowe's distance ratio
    between them). With no runner-up (a partial deck whose model learnt one
    rank, or one suit) the ratio is 1: nothing shows the best is clearly
    nearer than anything, and every index of another card would be it."""
    order = np.argsort(-scores)
    best = float(scores[order[0]])
    if len(order) < 2:
        return names[order[0]], round(best, 4), None, 1.0
    runner = float(scores[order[1]])
    ratio = max(0.0, 1 - best) / max(1e-3, 1 - runner)
    return names[order[0]], round(best, 4), names[order[1]], round(ratio, 4)


def corner_model(deck: Deck) -> CornerModel:
    """The deck's model, made on first use (seconds) and kept with the deck
    (``corners.npz``, remade when the faces or this module's
    ``MODEL_VERSION`` change: ``Deck.kept``)."""
    return deck.kept("corners.npz", f"{MODEL_VERSION} {COPIES}", CornerModel, _arrays, _from_arrays)


#: Bumped when what the model learns changes, so cached models are remade.
MODEL_VERSION = 9
_STATE = ("rows", "labels", "rank_rows", "suit_rows", "ranks", "suits", "no_index_rank_rows", "core_rows")


def _arrays(model: CornerModel) -> dict:
    anchors = {str(c): np.concatenate([a[0], a[1], [a[2], a[3]]]) for c, a in model.anchors.items()}
    return dict(gates=np.array([*model.gates.reach, *model.gates.area_ratio]),
                red_split=np.array(np.nan if model.red_split is None else model.red_split),
                anchor_cards=np.array(list(model.anchors), np.int32),
                anchors=np.array(list(anchors.values())).reshape(-1, 6),
                **{name: getattr(model, name) for name in _STATE})


def _from_arrays(data) -> CornerModel:
    model = CornerModel.__new__(CornerModel)
    for name in _STATE:
        setattr(model, name, data[name])
    g = data["gates"]
    model.gates = Gates((float(g[0]), float(g[1])), (float(g[2]), float(g[3])))
    split = float(data["red_split"])
    model.red_split = None if np.isnan(split) else split
    model.anchors = {int(c): (a[:2], a[2:4], float(a[4]), float(a[5]))
                     for c, a in zip(data["anchor_cards"], data["anchors"])}
    return model


def read_corners(image_bgr: np.ndarray, deck: Deck, stretch: float = 1.0) -> list[CornerRead]:
    """Every card read from an index corner in the photo (see module doc).

    ``stretch``: the photo's pixel shape, its picture's width divided by
    this is square (``vision.stretch``: the keypoints fix it). The index finder and the patches
    assume square pixels (a glyph squeezed by 3/4 across is another glyph,
    the pip's distance off by the angle): a stretched photo is read made
    square again, never losing a pixel (the other axis is enlarged), and
    what is read is put back in its pixels."""
    square, back = square_pixels(image_bgr, stretch)
    reads = corner_model(deck).read(square)
    if square is image_bgr:
        return reads
    return [replace(r, index=(r.index * back).astype(np.float32), corners=(r.corners * back).astype(np.float32),
                    frame=None if r.frame is None else (r.frame * back).astype(np.float32)) for r in reads]


def square_pixels(image_bgr: np.ndarray, stretch: float) -> tuple[np.ndarray, np.ndarray]:
    """(the photo with square pixels, the (x, y) factors that take its points
    back to the photo's): the axis the stretch shortened is enlarged, so no
    pixel is lost; the photo itself when it is square within ``_SQUARE``."""
    if abs(np.log(stretch)) < _SQUARE:
        return image_bgr, np.float32([1.0, 1.0])
    h, w = image_bgr.shape[:2]
    scale = (1.0, stretch) if stretch > 1 else (1.0 / stretch, 1.0)
    square = cv2.resize(image_bgr, (int(round(w * scale[0])), int(round(h * scale[1]))),
                        interpolation=cv2.INTER_CUBIC)
    return square, np.float32([w / square.shape[1], h / square.shape[0]])


#: How far from square a photo must be to be read made square (log, ~3 %).
_SQUARE = 0.06


def _one_per_card(reads: list[CornerRead]) -> list[CornerRead]:
    """A deck holds each card once: two corners read as one card are that card
    (the best read kept, marked ``both``)."""
    best: dict[int, CornerRead] = {}
    count: dict[int, int] = {}
    for r in reads:
        count[r.card] = count.get(r.card, 0) + 1
        if r.card not in best or r.confidence > best[r.card].confidence:
            best[r.card] = r
    return [replace(r, both=count[c] > 1) for c, r in best.items()]


def _dims(where: tuple) -> int:
    return where[1][0] * where[1][1]


def _vectors(grey: np.ndarray, f: IndexFrame) -> tuple[np.ndarray, ...]:
    return tuple(vector(patch(grey, f, where)) for where in (COARSE, RANK, SUIT, RANK_CORE))


def _apply(m: np.ndarray, pt) -> np.ndarray:
    return m[:, :2] @ np.asarray(pt, np.float64) + m[:, 2]


def _similar(r, p, rank, pip, pts) -> np.ndarray:
    """Face points mapped by the similarity that takes (r, p) onto (rank, pip)."""
    zf = complex(*(p - r))
    zi = complex(*(pip - rank))
    a = zi / zf if abs(zf) > 1e-6 else 1
    out = []
    for x, y in pts:
        z = a * (complex(x, y) - complex(*r)) + complex(*rank)
        out.append((z.real, z.imag))
    return np.array(out, np.float32)


def _copy(face: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A synthetic photo of ``face`` and the 2x3 map face px -> its px."""
    h, w = face.shape[:2]
    height = rng.uniform(*_HEIGHTS)
    s = height / h
    angle = rng.uniform(0, 2 * np.pi)
    shear = rng.normal(0, 0.05, size=(2, 2))
    lin = s * (np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]) @ (np.eye(2) + shear))
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ lin.T
    margin = 0.15 * height
    offset = -corners.min(axis=0) + margin
    size = (corners.max(axis=0) - corners.min(axis=0) + 2 * margin).astype(int)
    m = np.hstack([lin, offset[:, None]])
    table = tuple(float(v) for v in rng.uniform(20, 220, size=3))
    image = cv2.warpAffine(face, m, tuple(size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
                           borderValue=table)
    if rng.random() < 0.4:                         # another card's paper over part of this one
        cx, cy = rng.uniform(0, size[0]), rng.uniform(0, size[1])
        other = rng.uniform(0.4, 0.9) * height
        box = cv2.boxPoints(((cx, cy), (other, other * 1.5), rng.uniform(0, 180))).astype(np.int32)
        cv2.fillConvexPoly(image, box, tuple(float(v) for v in rng.uniform(200, 250, size=3)))
    direction = rng.uniform(0, 2 * np.pi)
    xx = np.arange(size[0], dtype=np.float32)[None, :] * np.cos(direction)
    yy = np.arange(size[1], dtype=np.float32)[:, None] * np.sin(direction)
    light = (1 + rng.uniform(0, 0.35) * ((xx + yy) / max(size) - 0.5)) * rng.uniform(0.6, 1.15)
    image = np.clip(image * light[..., None] * rng.uniform(0.85, 1.15, size=3).astype(np.float32), 0, 255)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.6))
    y0, x0 = (int(rng.integers(0, n - s + 1)) for n, s in zip(_NOISE.shape[:2], image.shape[:2]))
    image = image + float(rng.uniform(1, 5)) * _NOISE[y0:y0 + image.shape[0], x0:x0 + image.shape[1]]
    image = np.clip(image, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), m
