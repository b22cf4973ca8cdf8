"""Checking one enrolment shot: the card's whole face, cut cleanly, or why not.

A deck is only as good as its enrolled faces: a face cut from a quad that
took in some table, missed a strip of the card, or was found on a pip, is a
template no later photo matches (or, worse, one every photo matches a
little). So a shot is refused, with what to change, unless:

- exactly one card is in view, not cut by the picture's edge, big enough;
- its outline is a card's: four near-right corners, a card's proportions
  (or, in a picture stretched to a square, at least not a strip), and every
  side lies on a real edge between card and table over most of its length
  (``edge_support``: a skewed quad that includes the table, or a side along
  the picture's border, has a side on no edge);
- its top is known: the quad's long sides, or the index points given (a
  person's clicks, a labelled photo's boxes), or, for a square-looking quad,
  the one way round it is a card in the camera's own frame (a square
  picture is most often a 4:3 or 16:9 frame saved square, which squashes a
  card along one axis: made 4:3 again, it is a card one way round only), or
  the one diagonal of corners that holds print (indices sit in two opposite
  corners);
- the picture is in colour (``colour_picture``: red and black suits are
  told apart by colour; a black-and-white shot would enrol every red card
  as black);
- the rectified face's margin is paper, no more coloured than the face's
  own brightest part (``paper_tint``: a pip or a picture found as the card
  has a coloured margin), one colour all round (``even_border``), its
  corners hold an index, and it is sharp enough.

The same check serves photos on disk and frames from a live camera
(``vision.enrol``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from . import stretch
from .deck import AMBIGUOUS_ASPECT, FACE_SIZE, quad_aspect, warp_face
from .locate import find_cards
from .outline_fit import edge_support, lone_card_outlines

#: Below this sharpness (variance of the Laplacian of the face at its own size
#: in the frame) a shot is refused as blurred: a coarse check of gross blur
#: (a 2.5-px Gaussian blur brings real shots to ~9; content moves it as much).
MIN_SHARPNESS = 10.0
#: A face narrower than this in the photo holds too few pixels for its indices.
MIN_CARD_WIDTH_PX = 40
#: A corner of a card shot from above stays within 90 +- 20 degrees (a photo
#: stretched to a square turns a tilted card's right angles by up to ~15).
MAX_CORNER_COS = 0.34
#: Each side must lie on a card-table edge over this share of its length.
MIN_EDGE_SUPPORT = 0.6
#: Grey-level spread below which a corner holds no index (blank, washed out).
MIN_INDEX_CONTRAST = 12.0
#: A colour picture has this share of pixels whose channels differ by more
#: than ``_CHANNEL_SPREAD`` grey levels (a black-and-white one, saved as
#: colour: none; colour photos of black cards on a grey table: 25 % or more).
MIN_COLOURED_SHARE = 0.01
_CHANNEL_SPREAD = 4
#: How much more coloured (Lab chroma) a face's margin may be than its own
#: paper (its brightest tenth): a card's margin is paper (within 2.2 on every
#: enrolled face of the real and rendered decks); a pip blown up to a face,
#: 7.4.
MAX_MARGIN_TINT = 5.0
#: The index box of a face (fractions of width and height, from a corner).
_INDEX_BOX = (0.04, 0.04, 0.23, 0.29)
#: One diagonal's index print must exceed the other's by this factor to tell
#: a square-looking card's top.
_DIAGONAL_RATIO = 1.3
#: Made its frame again one way round, a square-looking card's corners must
#: be this much squarer (cosines squared) than the other way to tell its
#: top (real phone photos saved square: the true way 0.001-0.022, the
#: other 0.018-0.6, at least 3 times more).
_SQUARER = 2.0


@dataclass(frozen=True)
class Refusal:
    """Why a shot cannot be used, in words for the person holding the card."""

    reason: str
    quad: Optional[np.ndarray] = None      # the outline it was judged on, when one was found


def enrolment_sample(frame_bgr: np.ndarray, index_points: Optional[np.ndarray] = None) -> np.ndarray | Refusal:
    """One shot of one card lying on the table -> its rectified face, or why not (see module doc)."""
    if frame_bgr is None or frame_bgr.ndim != 3:
        return Refusal("not a colour image")
    quads = lone_card_outlines(frame_bgr, find_cards(frame_bgr))
    gray = cv2.GaussianBlur(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY), (0, 0), 1.0).astype(np.float32)
    if not quads:
        return Refusal("no whole card found: lay one card face up on the table, all four corners in view")
    if len(quads) > 1:
        return Refusal(f"{len(quads)} cards in view: show one card at a time", quads[0])
    quad = quads[0]
    width = min(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[2] - quad[3]))
    if width < MIN_CARD_WIDTH_PX:
        return Refusal(f"the card is only {width:.0f} px wide: bring the camera closer "
                       f"(at least {MIN_CARD_WIDTH_PX} px)", quad)
    h, w = frame_bgr.shape[:2]
    if (quad[:, 0].min() < 2 or quad[:, 1].min() < 2 or quad[:, 0].max() > w - 3 or quad[:, 1].max() > h - 3):
        return Refusal("the card touches the picture's edge: show it whole, with table all round", quad)
    if worst_corner_cos(quad) > MAX_CORNER_COS:
        return Refusal("the card's outline is skewed (its corners are not square): shoot from straight above, "
                       "the card apart from anything else", quad)
    support = edge_support(gray, quad)
    if min(support) < MIN_EDGE_SUPPORT:
        return Refusal(f"one side of the card's outline is not on the card's edge ({min(support):.0%} of it is): "
                       f"move the card away from other things and the picture's edge, and shoot again", quad)
    if index_points is not None:
        quad = _top_from_indices(quad, np.asarray(index_points, np.float32).reshape(-1, 2))
    elif quad_aspect(quad) < AMBIGUOUS_ASPECT:
        top = _top_from_frame(frame_bgr, quad)
        quad = top if top is not None else _top_from_print(frame_bgr, quad)
        if quad is None:
            return Refusal("the card looks almost square (a steep angle, or a stretched picture) and its corners "
                           "do not tell its top: shoot from straight above", quads[0])
    if not colour_picture(frame_bgr):
        return Refusal("a black-and-white picture: set the camera to colour (red and black suits are told apart "
                       "by colour) and shoot again", quad)
    face = warp_face(frame_bgr, quad)
    if paper_tint(face) > MAX_MARGIN_TINT:
        return Refusal("what was found is not a card's face (its margin is coloured, not paper: a pip or a picture "
                       "was taken for the card): lay the card apart from anything else, whole, and shoot again", quad)
    if not even_border(face):
        return Refusal("the card's outline was not found cleanly (part of its edge is not card): "
                       "move it away from other things and shoot again", quad)
    if max(index_contrast(face)) < MIN_INDEX_CONTRAST:
        return Refusal("no index in the card's corners: show the card face up, whole, and not washed out by a lamp",
                       quad)
    length = max(np.linalg.norm(quad[1] - quad[2]), np.linalg.norm(quad[3] - quad[0]))
    native = (max(int(width), 8), max(int(length), 12))
    sharp = sharpness(cv2.resize(face, native, interpolation=cv2.INTER_AREA))
    if sharp < MIN_SHARPNESS:
        return Refusal(f"blurred (sharpness {sharp:.0f} < {MIN_SHARPNESS:.0f}): hold still and focus, then shoot again",
                       quad)
    return face


def worst_corner_cos(quad: np.ndarray) -> float:
    """|cos| of the quad's least square corner (0 for a right angle)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    worst = 0.0
    for i in range(4):
        a, b = q[i - 1] - q[i], q[(i + 1) % 4] - q[i]
        worst = max(worst, abs(float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))))
    return worst


def index_contrast(face: np.ndarray) -> list[float]:
    """Grey-level spread of the two index boxes (top-left and bottom-right) of a face."""
    g = cv2.cvtColor(cv2.resize(face, (120, 180), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    return [float(_box(view).std()) for view in (g, cv2.rotate(g, cv2.ROTATE_180))]


def _box(gray: np.ndarray) -> np.ndarray:
    h, w = gray.shape
    x0, y0, x1, y1 = _INDEX_BOX
    return cv2.GaussianBlur(gray[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)], (3, 3), 0).astype(np.float32)


def _top_from_frame(frame_bgr: np.ndarray, quad: np.ndarray) -> Optional[np.ndarray]:
    """For a square-looking quad in a square picture: the quarter turn of
    ``quad`` whose top is a short side in the frame the picture was saved
    from. Made each ``stretch.EXPORTED`` frame again, the card is a card
    one way round or, lying at a slant, both: made 4:3 again with its top
    one way and 16:9 the other. The true frame leaves its corners square,
    the wrong one shears them (a Qd saved from 3:4: cosines squared 0.004
    made 3:4 again, 0.19 made 16:9 turned), so the way whose corners are
    squarer by ``_SQUARER`` wins. None when neither way, or both alike (a
    card square to the picture's edges: ``_top_from_print`` decides).
    """
    frames = stretch.looked_at(frame_bgr)[1:]          # the exported frames; none for a photo not square
    ways = []
    for way in (quad, np.roll(quad, -1, axis=0)):
        skews = [stretch.skew(way, s) for s in frames if stretch.card_shaped(way / np.float32([s, 1.0]))]
        if skews:
            ways.append((min(skews), way))
    ways.sort(key=lambda w: w[0])
    if len(ways) == 1 or (len(ways) == 2 and ways[1][0] >= _SQUARER * ways[0][0]):
        return ways[0][1]
    return None


def _top_from_print(frame_bgr: np.ndarray, quad: np.ndarray) -> Optional[np.ndarray]:
    """For a square-looking quad: the quarter turn whose top-left and
    bottom-right corners hold the print (indices sit on one diagonal), or
    None when both diagonals look alike (a deck indexed in four corners)."""
    g = cv2.cvtColor(cv2.resize(warp_face(frame_bgr, quad), (120, 120), interpolation=cv2.INTER_AREA),
                     cv2.COLOR_BGR2GRAY)
    corners = [_box(np.rot90(g, k)).std() for k in range(4)]      # TL, then each corner turned to top-left
    main, other = corners[0] + corners[2], corners[1] + corners[3]
    if main >= _DIAGONAL_RATIO * other:
        return quad
    if other >= _DIAGONAL_RATIO * main:
        return np.roll(quad, -1, axis=0)
    return None


def _top_from_indices(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The quarter turn of ``quad`` that puts the given index points nearest
    the face's top-left and bottom-right corners, where indices are printed."""
    w, h = FACE_SIZE
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)

    def distance(q: np.ndarray) -> float:
        m = cv2.getPerspectiveTransform(q, dst)
        p = cv2.perspectiveTransform(points.reshape(-1, 1, 2), m).reshape(-1, 2)
        return float(sum(min(np.hypot(*pt), np.hypot(*(pt - [w, h]))) for pt in p))
    return min((quad, np.roll(quad, -1, axis=0)), key=distance)


def even_border(face_bgr: np.ndarray, band: float = 0.04, tolerance: float = 80.0) -> bool:
    """Whether the four edges of a rectified face are the same stuff: a card's
    margin (white, or black on a black deck) all round. A quad that cut into
    the card or took in some table shows a different colour on one side
    (well-found cards spread up to ~57 Lab units, misfound ones over 120)."""
    lab = cv2.cvtColor(cv2.medianBlur(face_bgr, 5), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    bh, bw = max(2, int(band * h)), max(2, int(band * w))
    strips = [lab[:bh, bw:-bw], lab[-bh:, bw:-bw], lab[bh:-bh, :bw], lab[bh:-bh, -bw:]]
    colours = np.array([np.median(s.reshape(-1, 3), axis=0) for s in strips])
    spread = max(np.linalg.norm(a - b) for a in colours for b in colours)
    return bool(spread <= tolerance)


def colour_picture(frame_bgr: np.ndarray) -> bool:
    """Whether a picture holds colour at all: a black-and-white one (a camera in
    grey mode, a scan saved as colour) has the same value in every channel."""
    f = frame_bgr.astype(np.int16)
    spread = np.maximum(np.abs(f[..., 0] - f[..., 1]), np.abs(f[..., 1] - f[..., 2]))
    return float((spread > _CHANNEL_SPREAD).mean()) >= MIN_COLOURED_SHARE


def paper_tint(face_bgr: np.ndarray, band: float = 0.04) -> float:
    """How much more coloured (median Lab chroma) the face's margin is than
    its paper, the brightest tenth of the face: about 0 for a card (its margin
    is paper, whatever the light's colour), large when the "face" is a pip or
    a picture found as a card (a red margin round pale highlights)."""
    lab = cv2.cvtColor(cv2.medianBlur(face_bgr, 5), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    bh, bw = max(2, int(band * h)), max(2, int(band * w))
    margin = np.concatenate([s.reshape(-1, 3) for s in
                             (lab[:bh, bw:-bw], lab[-bh:, bw:-bw], lab[bh:-bh, :bw], lab[bh:-bh, -bw:])])
    pixels = lab.reshape(-1, 3)
    paper = pixels[pixels[:, 0] >= np.percentile(pixels[:, 0], 90)]

    def chroma(px: np.ndarray) -> float:
        return float(np.median(np.hypot(px[:, 1] - 128.0, px[:, 2] - 128.0)))
    return chroma(margin) - chroma(paper)


def sharpness(face_bgr: np.ndarray) -> float:
    """Variance of the Laplacian over the face: low means blurred."""
    gray = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2GRAY)
    gray = cv2.medianBlur(gray, 3)  # sensor salt-and-pepper is not sharpness
    return float(cv2.Laplacian(gray, cv2.CV_64F).var())
