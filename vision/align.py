"""Laying an enrolled face exactly over a seen one, and measuring how alike they are.

Why align before comparing: a found quad misses the card's edges by a few
pixels, the camera's perspective and lens bend it a little more, and two
cards that differ in one small place (a 9 of spades and a 9 of clubs: same
index glyph, same pip layout, a club's lobes against a spade's point) are
then told apart by noise. ECC (enhanced correlation coefficient, Evangelidis
& Psarakis 2008, ``cv2.findTransformECC``) finds the homography that lays the
enrolled face over the seen one, and only then are they compared.

Why "lighting-free": a lamp, a shadow or a webcam's vignetting change the
brightness across a card far more than its printing differs between two
cards. Each image is normalised locally (``normalise``: minus the local
mean, over the local spread), so what is compared is where the ink is, not
how bright the paper happens to be; plain paper comes out near zero and
counts for nothing.

Why cells: a card from another pack (a 6 where the deck has a 7) matches the
7 almost everywhere; the one place it does not (the 7's extra pip) is a cell
whose correlation drops. ``compare`` reports the whole-face correlation and
the worst inked cell's, and the reader wants both high.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Size (width, height) at which faces are aligned and compared: a table
#: camera sees a card ~70 px wide, a webcam or phone 200-400 px; 80 x 120
#: keeps the index glyphs and pip shapes and costs little.
SIZE = (80, 120)
#: ECC runs at this size (about half the pixels: ~0.2 ms an iteration) and
#: its homography is scaled up to ``SIZE``.
_ECC_SIZE = (60, 90)
#: ECC stops when an iteration raises the correlation by less than this
#: (rarely met: the caller's cap on iterations is the usual end).
_ECC_EPS = 1e-4
#: Local normalisation: the window (Gaussian sigma in px of ``SIZE``) over
#: which mean and spread are taken, and the spread (grey levels) below which
#: a region is plain paper and stays near zero rather than amplified noise.
_SIGMA = 5.0
_FLAT = 10.0
#: The band along the edges left out of every comparison: a quad a few
#: pixels off puts table there.
_BORDER = 0.05
#: The grid of cells (columns, rows) whose worst correlation is reported.
_CELLS = (4, 6)
#: The size (Gaussian sigma, px of ``SIZE``) of a patch of difference that
#: counts as a missing or extra mark: about a pip.
_BLOB_SIGMA = 3.0
#: A cell with less ink energy than this share of the face's mean is paper
#: on both faces: its correlation says nothing and is not counted (a cell
#: inked on one face only is counted, and correlates near zero).
_INKED = 0.35


def grey(face_bgr: np.ndarray, scale: int = 1) -> np.ndarray:
    """The face at ``SIZE`` (times ``scale``) in grey, float32, lightly smoothed (sensor noise and JPEG blocks)."""
    small = cv2.resize(face_bgr, (scale * SIZE[0], scale * SIZE[1]), interpolation=cv2.INTER_AREA)
    g = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return cv2.GaussianBlur(g.astype(np.float32), (0, 0), 0.7)


def normalise(g: np.ndarray) -> np.ndarray:
    """Local contrast: (g - local mean) / local spread, with plain regions near zero."""
    mean = cv2.GaussianBlur(g, (0, 0), _SIGMA)
    var = cv2.GaussianBlur(g * g, (0, 0), _SIGMA) - mean * mean
    return (g - mean) / np.sqrt(np.maximum(var, 0.0) + _FLAT * _FLAT)


#: The index box (fractions of the face from a corner: x0, y0, x1, y1),
#: compared at twice ``SIZE``: a rank glyph and suit pip decide between two
#: court cards or two drawn number cards that share everything else.
INDEX_BOX = (0.02, 0.02, 0.26, 0.30)


def index_patches(normed_fine: np.ndarray) -> list[np.ndarray]:
    """The two index boxes (top-left, and bottom-right turned upright) of a
    normalised face at twice ``SIZE``."""
    h, w = normed_fine.shape
    x0, y0, x1, y1 = (int(round(v * s)) for v, s in zip(INDEX_BOX, (w, h, w, h)))
    turned = normed_fine[::-1, ::-1]
    return [normed_fine[y0:y1, x0:x1], turned[y0:y1, x0:x1]]


def centred_patches(normed_fine: np.ndarray) -> list[np.ndarray]:
    """The index boxes of an enrolled face (``index_patches``), zero-mean: what
    ``index_score`` compares, prepared once per deck."""
    return [p - p.mean() for p in index_patches(normed_fine)]


#: A homography found at ``SIZE`` acting on images at twice ``SIZE``.
_UP = np.diag([2.0, 2.0, 1.0]).astype(np.float32)
_DOWN = np.diag([0.5, 0.5, 1.0]).astype(np.float32)


def index_score(template_fine: list[np.ndarray], seen_fine: np.ndarray, h: np.ndarray) -> float:
    """Mean correlation of the two index boxes, the seen face (normalised,
    at twice ``SIZE``) laid over the template's (``centred_patches``) by ``h``
    (found at ``SIZE``). Only the two boxes are resampled, not the face."""
    big = (_UP @ h @ _DOWN).astype(np.float32)
    fw, fh = 2 * SIZE[0], 2 * SIZE[1]
    x0, y0, x1, y1 = (int(round(v * s)) for v, s in zip(INDEX_BOX, (fw, fh, fw, fh)))
    out = []
    for a, turned in zip(template_fine, (False, True)):
        # the box's pixel (x, y) is the aligned face's (x0 + x, y0 + y) (turned: counted from
        # the far corner), which is the seen face's big (x0 + x, y0 + y)
        if turned:
            box = np.float32([[-1, 0, fw - 1 - x0], [0, -1, fh - 1 - y0], [0, 0, 1]])
        else:
            box = np.float32([[1, 0, x0], [0, 1, y0], [0, 0, 1]])
        m = (big @ box).astype(np.float32)
        b = cv2.warpPerspective(seen_fine, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
        b = b - b.mean()
        out.append(float((a * b).sum() / (np.sqrt(float((a * a).sum()) * float((b * b).sum())) + 1e-6)))
    return float(np.mean(out))


def interior_mask() -> np.ndarray:
    w, h = SIZE
    m = np.zeros((h, w), np.float32)
    bx, by = int(round(_BORDER * w)), int(round(_BORDER * h))
    m[by:h - by, bx:w - bx] = 1.0
    return m


_INTERIOR = interior_mask()
_INTERIOR_PX = float(_INTERIOR.sum())


#: ``SIZE`` -> ``_ECC_SIZE`` and back, for homographies.
_TO_ECC = np.diag([_ECC_SIZE[0] / SIZE[0], _ECC_SIZE[1] / SIZE[1], 1.0]).astype(np.float32)
_FROM_ECC = np.linalg.inv(_TO_ECC).astype(np.float32)


def ecc_image(g: np.ndarray) -> np.ndarray:
    """A grey face (as ``grey`` gives it) at the size ECC runs at (what
    ``align`` works on: the enrolled faces' are prepared once per deck)."""
    return cv2.resize(g, _ECC_SIZE, interpolation=cv2.INTER_AREA)


def align(template: np.ndarray, seen: np.ndarray, start: np.ndarray | None = None, iterations: int = 10
          ) -> np.ndarray:
    """The homography (3x3, in px of ``SIZE``) that maps ``seen``'s pixels
    onto ``template``'s, found by ECC on both grey faces (as ``grey`` or
    ``ecc_image`` gives them); the identity when ECC does not converge (the
    faces are then compared as they are, and a wrong card stays unlike).
    ``start``: a homography to start from (another enrolled face's: the seen
    quad's error is shared by all of them, so a few ``iterations`` then
    suffice)."""
    template, seen = (g if g.shape[::-1] == _ECC_SIZE else ecc_image(g) for g in (template, seen))
    warp = np.eye(3, dtype=np.float32) if start is None else (_TO_ECC @ start @ _FROM_ECC).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, _ECC_EPS)
    try:
        _, warp = cv2.findTransformECC(template, seen, warp, cv2.MOTION_HOMOGRAPHY, criteria, None, 1)
    except cv2.error:
        return np.eye(3, dtype=np.float32) if start is None else start
    h = _FROM_ECC @ warp @ _TO_ECC
    if not _plausible(h):
        return np.eye(3, dtype=np.float32)
    return h.astype(np.float32)


def _plausible(h: np.ndarray) -> bool:
    """A re-alignment moves a corner by a few pixels, not across the card
    (ECC pulled onto another card's print would)."""
    w, h_ = SIZE
    corners = np.float32([[0, 0], [w, 0], [w, h_], [0, h_]]).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(corners, h.astype(np.float64)).reshape(-1, 2)
    return bool(np.abs(moved - corners.reshape(-1, 2)).max() <= 0.15 * w)


def warp(image: np.ndarray, h: np.ndarray) -> np.ndarray:
    """``image`` (at ``SIZE``) resampled through ``h`` (seen -> template)."""
    return cv2.warpPerspective(image, h, SIZE, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def _cell_sums(m: np.ndarray) -> np.ndarray:
    """The sum of ``m`` over each cell of the ``_CELLS`` grid (rows x columns)."""
    cols, rows = _CELLS
    h, w = m.shape
    return m.reshape(rows, h // rows, cols, w // cols).sum(axis=(1, 3), dtype=np.float64)


assert SIZE[0] % _CELLS[0] == 0 and SIZE[1] % _CELLS[1] == 0, "the cells must tile the face"


def compare(template_n: np.ndarray, seen_n: np.ndarray) -> tuple[float, float, float]:
    """(correlation over the face's interior, worst correlation of an inked
    cell, strongest patch of difference against the mean ink) of two locally
    normalised faces already laid over each other."""
    a = template_n * _INTERIOR
    b = seen_n * _INTERIOR
    aa, bb, ab = _cell_sums(a * a), _cell_sums(b * b), _cell_sums(a * b)
    whole = float(ab.sum() / (np.sqrt(aa.sum() * bb.sum()) + 1e-6))
    energy = np.maximum(aa, bb)
    cells = ab / (np.sqrt(aa * bb) + 1e-6)
    inked = cells[energy >= _INKED * (energy.mean() + 1e-6)]
    d = a - b
    residual = cv2.GaussianBlur(d * d, (0, 0), _BLOB_SIGMA)
    ink = float((aa.sum() + bb.sum()) / 2 / (_INTERIOR_PX + 1e-6)) + 1e-6
    return whole, (float(inked.min()) if inked.size else whole), float(residual.max() / ink)
