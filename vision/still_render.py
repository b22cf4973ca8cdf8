"""A still photo of cards lying on a table, rendered as a given camera would take it.

``vision.render`` films a whole game through the table camera; this module
takes single photos the way a club member does when enrolling or testing:
a webcam clipped above the table, or a phone held over it. What makes such
photos hard is rendered on purpose:

- the table: a light grey, beige or white top (a white card on it differs
  by a few grey levels and a faint shadow), a dark top, a green cloth, each
  with grain and a weave;
- the card: its real face (a scan or a cut-out), rounded corners, a thin
  edge a little darker than its paper, a soft shadow, lying at any angle;
  cards may overlap (a trick heap, a fanned hand), the later on top;
- the camera: perspective (the camera tilted about any axis), lens blur,
  uneven light (a lamp's gradient), vignetting, white balance and exposure,
  glare, sensor noise in colour, JPEG.

Each card's true corners (of its upright face, TL TR BR BL) come back with
the photo, with how much of it shows and whether an index corner shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Table tops (BGR): the failure classes of real photos.
TABLES = {"light-grey": (196, 198, 200), "beige": (172, 198, 214), "white": (236, 238, 239),
          "dark": (40, 38, 36), "green": (42, 104, 34), "wood": (70, 115, 160)}
#: A card's proportions (long / short side).
CARD_ASPECT = 87.0 / 56.0
#: The index corner (fractions of the face from its top-left): what must show
#: for a card in a heap to count as readable.
INDEX_BOX = (0.0, 0.0, 0.22, 0.27)


@dataclass(frozen=True)
class Camera:
    """How a camera takes the photo; ranges are (low, high) drawn per photo."""

    size: tuple[int, int]
    blur: tuple[float, float]         # lens blur sigma, px
    noise: tuple[float, float]        # sensor noise sigma, grey levels
    jpeg: tuple[int, int]             # JPEG quality
    vignette: tuple[float, float]     # corners darker by this share
    tilt: tuple[float, float]         # camera tilt from straight down, degrees
    light: tuple[float, float] = (0.1, 0.35)      # depth of the lamp's gradient
    glare: float = 0.3                # chance of a glare spot


WEBCAM = Camera((800, 600), blur=(0.8, 1.8), noise=(2.5, 6.0), jpeg=(60, 85), vignette=(0.15, 0.45), tilt=(0, 10))
PHONE = Camera((1600, 1200), blur=(0.4, 1.1), noise=(1.5, 3.5), jpeg=(80, 95), vignette=(0.05, 0.2), tilt=(0, 30))


@dataclass(frozen=True)
class Placed:
    """A card in a rendered photo."""

    card: int
    corners: np.ndarray        # the upright face's TL, TR, BR, BL in the photo
    shown: float               # share of the card no card above covers
    index_shown: bool          # one of its two index corners is at least 85 % uncovered


@dataclass(frozen=True)
class Layout:
    """A card on the table plane (px of the photo before perspective): centre, width, angle (degrees)."""

    card: int
    x: float
    y: float
    width: float
    angle: float


def render_photo(faces: dict[int, np.ndarray], layout: list[Layout], table: str, camera: Camera,
                 tilt: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, list[Placed]]:
    """The photo (BGR, JPEG-decoded) of ``layout`` (bottom card first) on
    ``table`` through ``camera`` tilted as ``tilt`` says (``tilt_homography``),
    and where each card lies in it."""
    w, h = camera.size
    canvas = _table(table, (w, h), rng).astype(np.float32)
    covers = []                      # each card's alpha at a quarter of the size: what covers what
    placed_corners = []
    edge_dark = float(rng.uniform(0.03, 0.14))
    shadow = float(rng.uniform(0.12, 0.35))
    for item in layout:
        corners = card_corners(item, tilt)
        colour, alpha = _face_with_alpha(faces[item.card], edge_dark)
        fh, fw = colour.shape[:2]
        # Drawn in the card's box only (with room for its shadow): a full-frame warp per card is slow.
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 12, 0)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 12, [w, h])
        if x1 <= x0 or y1 <= y0:
            continue
        src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
        m = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
        size = (int(x1 - x0), int(y1 - y0))
        warped = cv2.warpPerspective(colour, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)
        a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        # A soft shadow, cast down-right, darkening what lies under the card.
        offset = np.float32([[1, 0, rng.uniform(1, 4)], [0, 1, rng.uniform(1, 4)]])
        sh = cv2.GaussianBlur(cv2.warpAffine(a, offset, size), (0, 0), float(rng.uniform(1.5, 4.0)))
        roi = canvas[y0:y1, x0:x1]
        roi *= (1 - shadow * sh * (1 - a))[..., None]
        roi[:] = roi * (1 - a[..., None]) + warped.astype(np.float32) * a[..., None]
        full = np.zeros((h, w), np.float32)
        full[y0:y1, x0:x1] = a
        covers.append(cv2.resize(full, (w // 4, h // 4), interpolation=cv2.INTER_AREA))
        placed_corners.append(corners.astype(np.float32))
    photo = _optics(canvas, camera, rng)
    placed = []
    for i, item in enumerate(layout[:len(covers)]):
        above = np.zeros_like(covers[i])
        for a in covers[i + 1:]:
            above = np.maximum(above, a)
        mine = covers[i] > 0.5
        shown = float(((above < 0.5) & mine).sum() / max(mine.sum(), 1))
        placed.append(Placed(item.card, placed_corners[i], shown, _index_shown(placed_corners[i] / 4, above)))
    return photo, placed


def card_corners(item: Layout, tilt: np.ndarray) -> np.ndarray:
    """The card's face corners (TL, TR, BR, BL) in the photo."""
    a = math.radians(item.angle)
    c, s = math.cos(a), math.sin(a)
    hw, hh = item.width / 2, item.width * CARD_ASPECT / 2
    local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    plane = (local @ np.array([[c, s], [-s, c]]) + [item.x, item.y]).astype(np.float32)
    return cv2.perspectiveTransform(plane.reshape(-1, 1, 2), tilt).reshape(4, 2).astype(np.float32)


def _index_shown(corners: np.ndarray, above: np.ndarray) -> bool:
    """One of the card's two index boxes is at least 85 % uncovered."""
    h, w = above.shape
    x0, y0, x1, y1 = INDEX_BOX
    for quad in (corners, np.roll(corners, 2, axis=0)):       # the top-left index, and the bottom-right turned
        tl, tr, _, bl = quad
        u, v = tr - tl, bl - tl
        box = np.float32([tl + x0 * u + y0 * v, tl + x1 * u + y0 * v, tl + x1 * u + y1 * v, tl + x0 * u + y1 * v])
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
        inside = mask > 0
        if inside.sum() and ((above[inside] < 0.5).mean() >= 0.85):
            return True
    return False


def _face_with_alpha(face: np.ndarray, edge_dark: float) -> tuple[np.ndarray, np.ndarray]:
    """The face with its rounded corners cut (alpha) and a thin edge a little
    darker than its paper, as a real card's edge shows."""
    fh, fw = face.shape[:2]
    r = max(2, int(round(0.06 * fw)))
    alpha = np.zeros((fh, fw), np.uint8)
    cv2.rectangle(alpha, (r, 0), (fw - 1 - r, fh - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (fw - 1, fh - 1 - r), 255, -1)
    for cx, cy in ((r, r), (fw - 1 - r, r), (r, fh - 1 - r), (fw - 1 - r, fh - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    edge = cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=max(1, fw // 150))
    rim = (alpha.astype(np.float32) - edge.astype(np.float32)) / 255.0
    colour = face.astype(np.float32) * (1 - edge_dark * rim[..., None])
    return np.clip(colour, 0, 255).astype(np.uint8), alpha.astype(np.float32) / 255.0


def tilt_homography(size: tuple[int, int], tilt_deg: float, axis_deg: float, fov_deg: float = 60.0) -> np.ndarray:
    """The table plane (px, as seen straight down) -> the photo, for a pinhole
    camera tilted by ``tilt_deg`` about an axis in the plane at ``axis_deg``;
    the photo's centre stays put."""
    w, h = size
    f = 0.5 * w / math.tan(math.radians(fov_deg) / 2)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    a, t = math.radians(axis_deg), math.radians(tilt_deg)
    r, _ = cv2.Rodrigues(np.array([math.cos(a), math.sin(a), 0.0]) * t)
    centred = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1.0]])
    hom = k @ np.column_stack([r[:, 0], r[:, 1], [0, 0, f]]) @ centred
    return hom / hom[2, 2]


def _table(name: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """The table top: its colour (a little off from photo to photo), grain and a fine weave."""
    w, h = size
    base = np.array(TABLES[name], np.float32) + rng.normal(0, 5, 3)
    top = np.empty((h, w, 3), np.float32)
    top[:] = base
    grain = cv2.resize(rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    fine = np.empty((h, w), np.float32)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))          # OpenCV's noise is fast; seeded, it repeats
    cv2.randn(fine, 0, 1)
    if name == "wood":
        fine = cv2.resize(rng.normal(0, 1, (h, 6)).astype(np.float32), (w, h))
    top += (grain * rng.uniform(2, 6) + fine * rng.uniform(1, 4))[..., None]
    return top


def _optics(canvas: np.ndarray, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    """What the camera does to the scene: light, vignetting, white balance, exposure, glare, blur, noise, JPEG."""
    h, w = canvas.shape[:2]
    # Smooth maps (light, vignetting, glare) are drawn at an eighth of the size and enlarged.
    sw, sh = w // 8, h // 8
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32) * 8
    ang = rng.uniform(0, 2 * math.pi)
    grad = (x / w - 0.5) * math.cos(ang) + (y / h - 0.5) * math.sin(ang)
    lx, ly = rng.uniform(0, w), rng.uniform(0, h)
    lamp = np.exp(-((x - lx) ** 2 + (y - ly) ** 2) / (2 * (0.5 * w) ** 2))
    gain = 1.0 + rng.uniform(*camera.light) * (grad + 0.6 * lamp - 0.3)
    r2 = ((x - w / 2) / (w / 2)) ** 2 + ((y - h / 2) / (h / 2)) ** 2
    gain *= 1.0 - rng.uniform(*camera.vignette) * np.clip(r2 / 2, 0, 1)
    glare = np.zeros_like(gain)
    if rng.random() < camera.glare:
        gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        r = rng.uniform(0.04, 0.12) * w
        glare = rng.uniform(30, 110) * np.exp(-(((x - gx) / 1.5) ** 2 + (y - gy) ** 2) / (2 * r * r))
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    glare = cv2.resize(glare.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    balance = rng.normal(1.0, 0.03, 3).astype(np.float32)          # white balance
    img = canvas * (gain[..., None] * balance[None, None, :]) + glare[..., None]
    # Auto exposure: the brightest paper near white, not blown out.
    img *= rng.uniform(225, 250) / max(float(np.percentile(img[::4, ::4], 99.5)), 1.0)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(*camera.blur)))
    sigma = rng.uniform(*camera.noise)
    grain = np.empty((h, w), np.float32)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))
    cv2.randn(grain, 0, sigma)
    colour = np.empty((h, w, 3), np.float32)
    cv2.randn(colour, (0, 0, 0), (sigma / 2,) * 3)
    img += grain[..., None] + colour
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*camera.jpeg))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
