"""Finding cards lying on a table: each card as a quadrilateral in image pixels.

Why segmentation and not a trained detector: a club's table cloth, lamp and deck
are unknown in advance, and a detector trained on one set of photos fails on
the next. A card, whatever its design, is a flat rectangle of one printed sheet
that differs from the table around it and has straight borders. So we look for
regions that stand out from the table's own colour (whatever that colour is),
cut them along strong edges (where one card lies on another), and keep the
regions whose outline is a convex quadrilateral of a card's proportions.

Quads are returned as ``float32`` arrays of shape (4, 2), in pixels of the image
given, in one order: clockwise on screen, starting at a corner of a *short*
side (the card's top or bottom edge), the one of the two possible starts whose
first corner is nearest the image's top-left. ``read_card`` decides which short
side is the top (cards are printed symmetrically, so either reads).
"""

from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from . import overlap

Quad = np.ndarray

#: Long side / short side of a card (63 x 88 mm); perspective and stretched
#: photos move it, so the accepted range is wide.
CARD_ASPECT = 88.0 / 63.0
_ASPECT_RANGE = (1.0, 2.2)
#: The work size: big enough for a card to have clean borders, small enough for
#: a live frame. Quads are mapped back to the original pixels.
_WORK_SIDE = 1024
#: A card's corner stays within about 90 +- 35 degrees under a table camera's perspective.
_MAX_CORNER_COS = 0.57
#: Share of printed pixels (colour farther than _PRINT_DELTA from the face's
#: median, in Lab units) below which a shape is a solid blob, not a card face.
_MIN_PRINT = 0.03
_PRINT_DELTA = 30.0
#: How much darker (Lab lightness, 0-255) a face's margin band may be than its paper.
_MARGIN_DELTA = 30.0
#: A card-shaped quad this much smaller than one holding it means the holder
#: is the table (a card is about 0.5% of a table; a court card's picture
#: frame is more than half of its card).
_NESTED_CARD = 0.25
#: ... unless the held quad is ink, not paper: its own most common colour
#: this much darker (Lab lightness) than the holder's. A diamond pip or a
#: club passes the card-shape checks; a card holding its own pips is a card.
_INK_MARK = 40.0
#: A close-up's card regions are opened by a disc this share of the
#: picture's short side (``find_cards(close_up=True)``).
_CLOSE_UP = 0.04
#: The table's corner markers (the dictionary of ``calibration.markers``).
_MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50


def find_cards(image_bgr: np.ndarray, mask: Optional[np.ndarray] = None,
               roi: Optional[tuple[int, int, int, int]] = None,
               min_area_frac: float = 0.002, max_area_frac: float = 0.9, close_up: bool = False) -> list[Quad]:
    """Every card-shaped region of ``image_bgr``, as quads (see module doc).

    ``mask`` (same height/width as the image, non-zero where to look, e.g. the
    change mask around a card just put on a pile) or ``roi`` (x, y, w, h)
    restricts the search; a card is kept when most of it lies in the mask.
    ``min_area_frac``/``max_area_frac`` bound a card's area as a fraction of the
    image (or ``roi``): a card filling the whole frame has no table around it
    and cannot be told from the table.
    """
    if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise ValueError("find_cards needs a BGR colour image (H x W x 3)")
    h, w = image_bgr.shape[:2]
    x0, y0 = 0, 0
    if roi is not None:
        rx, ry, rw, rh = (int(v) for v in roi)
        x0, y0 = max(rx, 0), max(ry, 0)
        x1, y1 = min(rx + rw, w), min(ry + rh, h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return []
        image_bgr = image_bgr[y0:y1, x0:x1]
        if mask is not None:
            mask = mask[y0:y1, x0:x1]
    scale = _WORK_SIDE / max(image_bgr.shape[:2])
    small = cv2.resize(image_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else image_bgr
    scale = min(scale, 1.0)
    small_mask = None
    if mask is not None:
        small_mask = cv2.resize((mask > 0).astype(np.uint8) * 255, (small.shape[1], small.shape[0]),
                                interpolation=cv2.INTER_NEAREST)
    quads = _find_in_work_image(small, small_mask, min_area_frac, max_area_frac, close_up)
    gray = cv2.GaussianBlur(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), (0, 0), 1.0).astype(np.float32)
    out = []
    for q in quads:
        q = refine_quad(gray, q / scale, reach=max(3.0, 2.0 / scale)) + np.array([x0, y0], np.float32)
        q = np.clip(q, 0, [w - 1, h - 1]).astype(np.float32)      # corners stay in the picture
        out.append(order_corners(q))
    return out


def refine_quad(gray: np.ndarray, quad: np.ndarray, reach: float = 4.0, samples: int = 24) -> np.ndarray:
    """Corners to sub-pixel precision in the full-resolution image: along each
    side, the strongest brightness step across it (within ``reach`` px) is the
    card's border; a robust line through those points per side, and the
    corners where adjacent lines meet. Reading needs this: on a 1080p table
    view a card is about 60 px wide and its index a dozen pixels."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    offsets = np.linspace(-reach, reach, int(2 * reach * 2) + 1)
    lines = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = b - a
        length = np.linalg.norm(d)
        if length < 4:
            return quad.astype(np.float32)
        d /= length
        n = np.array([-d[1], d[0]])
        if np.dot(n, centre - a) > 0:
            n = -n                                           # normal pointing out of the card
        t = np.linspace(0.12, 0.88, samples)
        base = a[None, :] + (t * length)[:, None] * d[None, :]
        pts = base[:, None, :] + offsets[None, :, None] * n[None, None, :]
        prof = cv2.remap(gray, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                         cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        step = np.abs(np.diff(prof, axis=1))
        k = step.argmax(axis=1)
        strong = step[np.arange(samples), k] > max(4.0, 0.5 * float(np.median(step.max(axis=1))))
        if strong.sum() < samples // 3:
            return quad.astype(np.float32)                   # no clear border: keep the coarse quad
        edge = base + ((offsets[k] + offsets[k + 1]) / 2)[:, None] * n[None, :]
        vx, vy, x0, y0 = cv2.fitLine(edge[strong].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad.astype(np.float32)
        s = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + s[0] * d1)
    refined = np.array(corners)
    if np.abs(refined - q).max() > 2.5 * reach:              # lines from the print, not the border
        return quad.astype(np.float32)
    return refined.astype(np.float32)


def _find_in_work_image(img: np.ndarray, mask: Optional[np.ndarray],
                        min_area_frac: float, max_area_frac: float, close_up: bool = False) -> list[Quad]:
    if mask is not None and not mask.any():
        return []
    area_total = float(img.shape[0] * img.shape[1])
    min_area, max_area = min_area_frac * area_total, max_area_frac * area_total
    edges = _edge_map(img)
    # Printing, not sensor noise: a median filter removes salt-and-pepper first.
    lab = cv2.cvtColor(cv2.medianBlur(img, 5), cv2.COLOR_BGR2LAB).astype(np.float32)
    candidates: list[np.ndarray] = []
    opened: list[np.ndarray] = []

    def consider(contour: np.ndarray, into: Optional[list] = None) -> None:
        quad = _card_quad(contour, min_area, max_area, img.shape)
        if quad is None or not _has_print(quad, lab) or not _paper_margin(quad, lab):
            return
        if mask is not None and not _mostly_inside(quad, mask):
            return
        (candidates if into is None else into).append(quad)

    maps = _foreground_maps(img, mask)
    for fg, into in [(fg, None) for fg in maps] + ([(fg, opened) for fg in _opened(maps, img.shape)]
                                                    if close_up else []):
        # Cut touching/overlapping cards apart along strong edges.
        split = cv2.bitwise_and(fg, cv2.bitwise_not(edges))
        split = cv2.morphologyEx(split, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        for region in (fg, split):
            for c in cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
                consider(c, into)
    # Closed outlines at every depth: a card lying on a cloth that is itself
    # "not the room" (the cloth is then the foreground, the card inside it).
    outlines = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    if mask is not None:
        outlines = cv2.bitwise_and(outlines, mask)
    for c in cv2.findContours(outlines, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]:
        consider(c)
    if mask is not None:
        # A change mask around a card just put on a pile: where white lies on
        # white nothing changed, but the changed pixels' hull is the card.
        closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
        for c in cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            consider(cv2.convexHull(c))
    markers = _markers(img)
    candidates, opened = ([q for q in quads if not any(overlap.iou(q, m) > 0.3 or _contains(q, m) for m in markers)]
                          for quads in (candidates, opened))
    # The opened maps (a close-up) add no second quad of a card the maps
    # found as they are: opening keeps what joins a card to a dark band
    # beside it (a shadow, a keyboard), and the quad taking some of it in,
    # larger, would win (a black 7 of hearts on a white desk).
    return _deduplicate(candidates + [q for q in opened if all(overlap.iou(q, k) < 0.5 for k in candidates)], lab)


def _opened(maps: list[np.ndarray], shape: tuple[int, ...]) -> list[np.ndarray]:
    """The large regions of ``maps`` opened by a disc ``_CLOSE_UP`` of the
    picture's short side: in a close-up the card is a region hundreds of
    pixels across, and the wood grain, a shadow or another card's edge that
    joins it to the table (so its outline is no convex quadrilateral) is a
    band narrower than that disc. Small regions (a card of a wide view, a
    pip) are left to the maps as they are."""
    k = max(5, int(_CLOSE_UP * min(shape[:2])))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out = []
    for fg in maps:
        opened = _fill_holes(cv2.morphologyEx(fg, cv2.MORPH_OPEN, disc))
        contours = [c for c in cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
                    if cv2.contourArea(c) >= 4 * k * k]
        large = np.zeros_like(opened)
        cv2.drawContours(large, contours, -1, 255, cv2.FILLED)
        out.append(large)
    return out


def _markers(img: np.ndarray) -> list[np.ndarray]:
    """The table's ArUco corner markers (white-bordered squares with print, so
    card-like to the checks above): found, so they are not taken for cards,
    and so the cloth that holds them is not either."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(_MARKER_DICTIONARY)).detectMarkers(gray)
    if ids is None:
        return []
    out = []
    for c in corners:
        c = c.reshape(4, 2).astype(np.float32)
        centre = c.mean(axis=0)
        out.append(centre + 1.4 * (c - centre))  # with the white quiet zone around it
    return out


def _foreground_maps(img: np.ndarray, mask: Optional[np.ndarray]) -> list[np.ndarray]:
    """Binary maps of "not table": colour distance from the table's dominant
    colour (estimated from the searched area itself), thresholded by Otsu, plus
    a locally adaptive brightness map for uneven light."""
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    region = np.full(img.shape[:2], 255, np.uint8) if mask is None else (mask > 0).astype(np.uint8) * 255
    fg = _not_surface(lab, region)
    maps = [fg]
    # A cloth or mat that is itself "not the room" (the room filled most of the
    # frame): the cards are what differs from the cloth, inside it.
    cloth = cv2.erode(_fill_holes(fg), np.ones((9, 9), np.uint8))
    if cv2.countNonZero(cloth) > 0.3 * cv2.countNonZero(region):
        maps += [cv2.bitwise_and(_not_surface(lab, cloth, by_colour), cloth) for by_colour in (False, True)]
    # Local contrast: works where one lamp lights half the table. Only
    # "brighter than around": "darker" would pick every pip of a white card.
    gray = lab[..., 0].astype(np.uint8)
    block = max(31, (min(img.shape[:2]) // 4) | 1)
    maps.append(cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                      block, -12))
    # Closed outlines: a white card on a white table differs only by its border.
    faint = cv2.Canny(lab[..., 0].astype(np.uint8), 8, 24)
    maps.append(cv2.dilate(faint, np.ones((3, 3), np.uint8)))
    out = []
    for fg in maps:
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        fg = _fill_holes(fg)
        if mask is not None:
            fg = cv2.bitwise_and(fg, mask)
        out.append(fg)
    return out


def _not_surface(lab: np.ndarray, region: np.ndarray, by_colour: bool = False) -> np.ndarray:
    """Pixels whose colour differs from the dominant colour of ``region`` (the
    surface the cards lie on), split by Otsu over that region. ``by_colour``:
    by hue and saturation alone, split just above the surface's own spread
    (its median distance plus six median deviations): a white card on a
    beige cloth differs by ~15 units of chroma, less than the lamp changes
    the cloth's lightness, and with black markers on the cloth Otsu puts the
    card with the cloth."""
    table = _dominant_colour(lab[::3, ::3][region[::3, ::3] > 0])
    # Lightness matters less than colour: shadows and lamps change it across the table.
    diff = lab - table
    dist = np.sqrt((0.0 if by_colour else 0.5) * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2)
    dist8 = np.clip(dist * (255.0 / max(np.percentile(dist[::3, ::3][region[::3, ::3] > 0], 99.5), 1.0)),
                    0, 255).astype(np.uint8)
    t, _ = cv2.threshold(dist8[region > 0].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if by_colour:
        surface = dist8[(region > 0) & (dist8 <= t)]
        if surface.size:
            centre = float(np.median(surface))
            t = min(t, centre + 6.0 * max(float(np.median(np.abs(surface - centre))), 1.0))
    return ((dist8 > t) & (region > 0)).astype(np.uint8) * 255


def _dominant_colour(pixels: np.ndarray) -> np.ndarray:
    """The most common colour (a coarse 3-D histogram's peak, refined by the
    median of its bin): the table, as long as cards cover less than it."""
    q = (pixels // 16).astype(np.int32)
    keys = q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2]
    peak = np.bincount(keys).argmax()
    return np.median(pixels[keys == peak], axis=0)


def _edge_map(img: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    v = float(np.median(gray))
    edges = cv2.Canny(gray, max(10, 0.4 * v), max(30, 1.0 * v))
    return cv2.dilate(edges, np.ones((3, 3), np.uint8))


def _fill_holes(binary: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(binary)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    return filled


def _card_quad(contour: np.ndarray, min_area: float, max_area: float,
               shape: tuple[int, ...]) -> Optional[np.ndarray]:
    area = cv2.contourArea(contour)
    if area < min_area or area > max_area:
        return None
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < 0.9:
        return None
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            break
    if quad is None:
        # Rounded corners or a clipped corner: the best-fitting rectangle.
        rect = cv2.minAreaRect(hull)
        quad = cv2.boxPoints(rect).astype(np.float32)
    quad_area = cv2.contourArea(quad)
    if quad_area <= 0 or not (0.85 < hull_area / quad_area < 1.2):
        return None
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if short > long_:
        short, long_ = long_, short
    if short <= 0 or not (_ASPECT_RANGE[0] <= long_ / short <= _ASPECT_RANGE[1]):
        return None
    # Corners of a card seen from above stay near square; a diamond pip's do not.
    for i in range(4):
        a, b = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
        if abs(cos) > _MAX_CORNER_COS:
            return None
    # A card cut by the image border is not a whole card: its outline is the frame.
    h, w = shape[:2]
    touching = np.sum((quad[:, 0] < 2) | (quad[:, 0] > w - 3) | (quad[:, 1] < 2) | (quad[:, 1] > h - 3))
    if touching >= 2:
        return None
    return quad


def _has_print(quad: np.ndarray, lab: np.ndarray) -> bool:
    """A card face has printing (indices, pips) on its paper; a solid shape (a
    pip of a card that fills the frame, a plain card back, a phone) has none.
    Printing = pixels far in colour from the face's own median colour."""
    pixels = _pixels(quad, lab, 0.9)
    if len(pixels) == 0:
        return False
    pixels = pixels[:: len(pixels) // 5000 + 1]          # a sample is enough for a share
    dist = np.linalg.norm(pixels - np.median(pixels, axis=0), axis=1)
    return float((dist > _PRINT_DELTA).mean()) >= _MIN_PRINT


def _paper_margin(quad: np.ndarray, lab: np.ndarray) -> bool:
    """A card face has a plain margin all round, of its own paper. An index
    glyph's outline (the ring of a "0") or a pip's has ink along its edge
    and paper inside, so the band just inside its sides is much darker than
    the most common colour of what it holds. (The other way round, a margin
    lighter than the middle, is a court card whose picture fills it.)"""
    centre = quad.mean(axis=0)
    outer = (centre + 0.94 * (quad - centre)).astype(np.int32)
    inner = (centre + 0.86 * (quad - centre)).astype(np.int32)
    x, y, w, h = cv2.boundingRect(outer)
    x, y = max(x, 0), max(y, 0)
    band = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(band, outer - [x, y], 255)
    cv2.fillConvexPoly(band, inner - [x, y], 0)
    core = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(core, (centre + 0.8 * (quad - centre)).astype(np.int32) - [x, y], 255)
    patch = lab[y:y + h, x:x + w]
    band, core = band[:patch.shape[0], :patch.shape[1]], core[:patch.shape[0], :patch.shape[1]]
    if not band.any() or not core.any():
        return False
    margin = np.median(patch[band > 0], axis=0)
    paper = _dominant_colour(patch[core > 0])
    return float(paper[0] - margin[0]) <= _MARGIN_DELTA


def _mostly_inside(quad: np.ndarray, mask: np.ndarray) -> bool:
    poly = np.zeros_like(mask)
    cv2.fillConvexPoly(poly, quad.astype(np.int32), 255)
    inside = cv2.countNonZero(cv2.bitwise_and(poly, mask))
    return inside >= 0.6 * max(cv2.countNonZero(poly), 1)


def _deduplicate(quads: list[np.ndarray], lab: np.ndarray) -> list[np.ndarray]:
    """One quad per card. Among overlapping candidates keep the largest (the
    whole card rather than a part of it, e.g. a court card's picture frame),
    except that a quad holding a much smaller card-shaped quad of paper is
    the table or a mat with cards on it, not a card (a card holding its own
    pips, ink, is a card: a king of diamonds' index pips were taken for cards
    on it, and the king dropped as their table)."""
    quads = sorted(quads, key=lambda q: -cv2.contourArea(q))
    areas = [cv2.contourArea(q) for q in quads]
    inside = [_pixels(q, lab, 0.8) for q in quads]
    paper = [float(_dominant_colour(p)[0]) if len(p) else 0.0 for p in inside]
    holders = {i for i, q in enumerate(quads)
               if any(areas[j] < _NESTED_CARD * areas[i] and _card_like(quads[j]) and _contains(q, quads[j])
                      and paper[j] >= paper[i] - _INK_MARK for j in range(i + 1, len(quads)))}
    kept: list[np.ndarray] = []
    for i, q in enumerate(quads):
        if i not in holders and all(overlap.iou(q, k) < 0.5 and not _contains(k, q) for k in kept):
            kept.append(q)
    return kept


def _pixels(quad: np.ndarray, lab: np.ndarray, shrink: float) -> np.ndarray:
    """The Lab pixels of ``quad`` shrunk by ``shrink`` about its centre."""
    centre = quad.mean(axis=0)
    inner = (centre + shrink * (quad - centre)).astype(np.int32)
    x, y, w, h = cv2.boundingRect(inner)
    x, y = max(x, 0), max(y, 0)
    poly = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(poly, inner - [x, y], 255)
    patch = lab[y:y + h, x:x + w]
    return patch[poly[:patch.shape[0], :patch.shape[1]] > 0]


def _card_like(quad: np.ndarray) -> bool:
    """Proportions of a card seen from above (not a square pip, not a strip)."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return 1.15 <= max(a, b) / max(min(a, b), 1e-6) <= 2.0


def _contains(outer: np.ndarray, inner: np.ndarray) -> bool:
    inter, _ = cv2.intersectConvexConvex(outer.astype(np.float32), inner.astype(np.float32))
    return inter >= 0.8 * cv2.contourArea(inner)


def order_corners(quad: np.ndarray) -> Quad:
    """Clockwise on screen, from a corner of a short side: the one of the two
    such corners nearest the image's top-left (see module doc)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    centre = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0])
    q = q[np.argsort(angles)]  # clockwise on screen (y grows downwards)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        q = np.roll(q, -1, axis=0)  # make q[0]->q[1] a short side
    alt = np.roll(q, -2, axis=0)
    if alt[0].sum() < q[0].sum():
        q = alt
    return q.astype(np.float32)
