"""A lone card's outline found from its print and its faint edges: enrolment on a light table.

A white card on a light grey, beige or white table differs from it by a few
grey levels along its edge and a faint shadow: region-based finding
(``vision.locate``) loses it, or cuts a quad a few pixels off that takes in
some table. But two things about such a card are never faint:

- its *print* (indices, pips, pictures) is high-contrast, lies inside the
  card, and in a card's own frame spans nearly the whole face: the two index
  corners reach within a few percent of the card's sides;
- its *edges* are four long straight lines: faint per pixel, but summed
  along hundreds of pixels they stand far above the table's grain.

So (``fit_lone_card``): the card's orientation is the dominant direction of
the picture's gradients (modulo 90 degrees: a card's edges and the rows of
its print all run along its sides); in a frame turned by it, the print's box
is found, and each side of the card is the strongest step across lines
parallel to it just outside that box, summed along the side (in four
segments, so a side tilted by the camera's perspective is followed). The
four lines meet at the corners.
"""

from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from . import stretch
from .deck import quad_aspect
from .locate import order_corners

#: Print: darker than its surroundings by this many grey levels (or this far in colour).
_INK_DIP = 35.0
_INK_CHROMA = 30.0
#: How far beyond the print's box a side is looked for (share of the box's size),
#: and how far inside it (the print's box may reach the card's shadow).
_OUTWARD = 0.30
_INWARD = 0.03
#: A side's step must stand this many times above the median step of its search band.
_MIN_CONTRAST = 3.0
#: A table this close to the paper's lightness (grey levels) is white on
#: white: the card's edge is looked for as the thin dark line of its rim's
#: shadow (``_RIM`` px wide at most) before any step. (Rendered webcam
#: shots: white tables -15 to +17, light grey and beige +16 to +49.)
_SAME_LIGHT = 12.0
_RIM = 3
#: The faintest step (grey levels, the picture blurred by 1 px) that counts
#: as a card's edge in ``edge_support``: the side of a white card on a white
#: table turned to the lamp casts no shadow and steps by 3-4 levels.
_FAINTEST_EDGE = 2.5
#: A card's proportions as a photo shows them (perspective included).
_ASPECT = (1.3, 1.8)
_WORK_SIDE = 1024
#: Print this near the picture's edge (share of its longer side) belongs to
#: something the picture cuts: the lone whole card's print has its margin
#: and the table between it and the edge.
_CUT_BAND = 0.02
#: An outline found on the lone card stands for it only when it is at least
#: this share of the fitted card's area (the card a few pixels off, not a pip),
#: and is kept as a geometry the card may have at ``_ALIKE_SIZE`` (a fit
#: whose side lies at a line of the table beyond the card is that much larger:
#: a 10d close up on light wood, its fitted top at a bench's edge, 0.70).
_SAME_SIZE = 0.7
_ALIKE_SIZE = 0.5


def fit_lone_card(image_bgr: np.ndarray) -> Optional[np.ndarray]:
    """The outline (4 x 2 float32, clockwise) of the one card in ``image_bgr``, or None."""
    h0, w0 = image_bgr.shape[:2]
    scale = min(1.0, _WORK_SIDE / max(h0, w0))
    img = cv2.resize(image_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image_bgr
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), 1.0), cv2.COLOR_BGR2LAB).astype(np.float32)
    ink = _print_mask(lab)
    if ink is None:
        return None
    angle = _dominant_angle(lab[..., 0])
    quad = None
    for _ in range(2):                  # again in the frame of the sides found: a better angle
        quad = _fit(lab, ink, angle)
        if quad is None:
            return None
        d = np.concatenate([quad[1] - quad[0], quad[2] - quad[3], quad[2] - quad[1], quad[3] - quad[0]])
        d = d.reshape(4, 2)
        angles = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 90.0
        angle = float(np.degrees(np.angle(np.exp(4j * np.radians(angles)).mean())) / 4.0) % 90.0
    return _checked((quad / scale).astype(np.float32), (w0, h0), stretch.looked_at(image_bgr))


def _fit(lab: np.ndarray, ink: np.ndarray, angle: float) -> Optional[np.ndarray]:
    """The card's quad (work pixels) with its sides looked for in a frame turned by ``angle``."""
    h, w = ink.shape
    centre = (w / 2, h / 2)
    turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
    # The turned picture must hold the whole card: enlarge the canvas.
    side = int(np.ceil(np.hypot(w, h)))
    turn[:, 2] += [(side - w) / 2, (side - h) / 2]
    turned_l = cv2.warpAffine(lab[..., 0], turn, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    turned_ink = cv2.warpAffine(ink, turn, (side, side), flags=cv2.INTER_NEAREST)
    ys, xs = np.nonzero(turned_ink)
    if len(xs) < 30:
        return None
    x0, x1 = np.percentile(xs, [0.5, 99.5])
    y0, y1 = np.percentile(ys, [0.5, 99.5])
    bw, bh = x1 - x0, y1 - y0
    if bw < 20 or bh < 20:
        return None
    # Beyond the picture the turned canvas mirrors it: a side near the picture's
    # edge would have its mirror image taken for the card's edge.
    inside = cv2.erode(cv2.warpAffine(np.ones((h, w), np.uint8), turn, (side, side), flags=cv2.INTER_NEAREST),
                       np.ones((5, 5), np.uint8)).astype(np.float32)
    gx = cv2.Sobel(turned_l, cv2.CV_32F, 1, 0, ksize=3) * inside
    gy = cv2.Sobel(turned_l, cv2.CV_32F, 0, 1, ksize=3) * inside
    # Which way the edge steps: paper brighter than the table (grey, beige), or darker (some white tables).
    inner = turned_l[int(y0):int(y1), int(x0):int(x1)][turned_ink[int(y0):int(y1), int(x0):int(x1)] == 0]
    mx, my = int(_OUTWARD * bw * 1.2), int(_OUTWARD * bh * 1.2)
    ring = turned_l[max(int(y0) - my, 0):int(y1) + my, max(int(x0) - mx, 0):int(x1) + mx]
    paper = float(np.median(inner)) if inner.size else 0.0
    brighter = 1.0 if paper >= float(np.percentile(ring, 25)) else -1.0
    rims = tuple(r * inside for r in _rims(turned_l)) \
        if abs(paper - _table_light(turned_l, (x0, y0, x1, y1))) < _SAME_LIGHT else None
    lines = []
    # Each side as (offset along its normal) = a + b * (position along it), found in segments.
    for axis, grad, lo, hi, span in ((0, gx, x0, x1, (y0, y1)), (1, gy, y0, y1, (x0, x1))):
        size = hi - lo
        for outward in (-1, 1):
            edge = lo if outward < 0 else hi
            near, far = edge - outward * _INWARD * size, edge + outward * _OUTWARD * size
            # The step towards the paper first (> 0 where brightness steps its way); on a
            # white table a side may step the other way (the card's darker rim), or both.
            line = None
            if rims is not None:
                # White on white: the first thin dark line beyond the print, the rim's shadow.
                line = _side(rims[axis], axis, min(near, far), max(near, far), span, side, outward, edge, rim=True)
            for step in (-outward * brighter * grad, outward * brighter * grad, np.abs(grad)):
                if line is not None:
                    break
                line = _side(step, axis, min(near, far), max(near, far), span, side, outward, edge)
            if line is None:
                return None
            lines.append((axis, line))
    corners = _corners(lines)
    if corners is None:
        return None
    return cv2.transform(corners.reshape(-1, 1, 2), cv2.invertAffineTransform(turn)).reshape(4, 2)


def _table_light(light: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """The table's lightness just beyond the card: the median of a band
    between a fifth and a third of the print's box (``box``: x0, y0, x1, y1)
    outside it, where the card's edge no longer is."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    h, w = light.shape
    band = np.zeros(light.shape, np.uint8)
    for grow, value in ((1.6 * _OUTWARD, 1), (0.2 / 0.3 * _OUTWARD, 0)):
        a = (max(int(x0 - grow * bw), 0), max(int(y0 - grow * bh), 0))
        b = (min(int(x1 + grow * bw), w - 1), min(int(y1 + grow * bh), h - 1))
        cv2.rectangle(band, a, b, value, cv2.FILLED)
    return float(np.median(light[band > 0])) if band.any() else 0.0


def _rims(light: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Across x and across y, how much darker each pixel is than the two
    pixels ``_RIM`` away on either side: a thin dark line (the shadow of a
    card's rim on a table as light as its paper) stands out, a step does not."""
    r = _RIM
    across_x = np.zeros_like(light)
    across_x[:, r:-r] = 0.5 * (light[:, :-2 * r] + light[:, 2 * r:]) - light[:, r:-r]
    across_y = np.zeros_like(light)
    across_y[r:-r] = 0.5 * (light[:-2 * r] + light[2 * r:]) - light[r:-r]
    return across_x, across_y


def _print_mask(lab: np.ndarray) -> Optional[np.ndarray]:
    """Pixels of print: darker than their surroundings, or far in colour
    from them; long thin runs (a shadow along an edge) left out."""
    light = lab[..., 0]
    around = cv2.dilate(light, np.ones((9, 9), np.uint8))
    dark = (around - light) > _INK_DIP
    chroma = lab[..., 1:] - cv2.blur(lab[..., 1:], (31, 31))
    coloured = np.hypot(chroma[..., 0], chroma[..., 1]) > _INK_CHROMA
    mask = ((dark | coloured).astype(np.uint8)) * 255
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = np.zeros(n, bool)
    diag = float(np.hypot(*mask.shape))
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        long_ = max(bw, bh)
        thin = long_ > 0.08 * diag and area < 0.15 * long_ * long_ and min(bw, bh) < 0.25 * long_
        keep[i] = area >= 4 and not thin
    mask = (keep[labels]).astype(np.uint8) * 255
    if cv2.countNonZero(mask) < 30:
        return None
    # Two cards' worth of print, far apart: not a lone card.
    reach = max(5, int(0.12 * diag)) | 1
    groups = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    n, labels, _, _ = cv2.connectedComponentsWithStats(groups, connectivity=8)
    # Print at the picture's edge is of something the picture cuts (a sliver of
    # another card there), never of the whole card looked for: left out.
    band = max(2, int(_CUT_BAND * max(mask.shape)))
    rim = np.ones(mask.shape, bool)
    rim[band:-band, band:-band] = False
    cut = np.unique(labels[rim & (mask > 0)])
    mask[np.isin(labels, cut)] = 0
    if cv2.countNonZero(mask) < 30:
        return None
    weights = np.sort(np.bincount(labels[mask > 0], minlength=n)[1:])
    if len(weights) > 1 and weights[-2] >= 0.25 * weights[-1]:
        return None
    return mask


def _dominant_angle(light: np.ndarray) -> float:
    """The direction (degrees, modulo 90) most gradients run along: a card's sides."""
    smooth = cv2.GaussianBlur(light, (0, 0), 1.0)
    gx = cv2.Scharr(smooth, cv2.CV_32F, 1, 0)
    gy = cv2.Scharr(smooth, cv2.CV_32F, 0, 1)
    mag = np.hypot(gx, gy)
    strong = mag > 3.0 * float(np.median(mag)) + 1e-3
    theta = (np.degrees(np.arctan2(gy[strong], gx[strong])) % 90.0)
    # Count, not magnitude: the faint edges' many pixels against the print's few strong ones.
    hist = np.bincount(np.round(theta * 2).astype(int) % 180, minlength=180).astype(np.float32)
    hist = cv2.GaussianBlur(np.tile(hist, 3).reshape(1, -1), (0, 0), 2.0).ravel()[180:360]
    return float(hist.argmax()) / 2.0


def _side(grad: np.ndarray, axis: int, lo: float, hi: float, span: tuple[float, float], size: int,
          outward: int, edge: float, rim: bool = False) -> Optional[tuple[float, float]]:
    """The card's edge between offsets ``lo`` and ``hi`` (x for axis 0, y for
    axis 1; ``outward`` -1 when the table lies towards ``lo``), followed in
    four segments of ``span``: (a, b) of offset = a + b * position.
    ``edge``: the print's box; beyond it, the card's edge is the strongest
    step, or for a ``rim`` (white on white) the first thin dark line, and a
    rim is clear against the strongest line beyond the box (the print's own
    outer line, a court card's frame, darkens ten times more than a white
    card's rim on a white table). With no peak beyond the box, the
    outermost one."""
    lo, hi = max(int(np.floor(lo)), 1), min(int(np.ceil(hi)), size - 2)
    if hi - lo < 3:
        return None
    s0, s1 = span
    pad = 0.08 * (s1 - s0)
    cuts = np.linspace(s0 + pad, s1 - pad, 5)
    pos, off, weight = [], [], []
    for a, b in zip(cuts[:-1], cuts[1:]):
        a, b = int(a), int(b)
        band = grad[a:b, lo:hi] if axis == 0 else grad[lo:hi, a:b].T
        if band.size == 0:
            continue
        profile = np.maximum(np.median(band, axis=0), 0.0)
        floor = float(np.median(np.abs(np.median(band, axis=0)))) + 1e-3
        cut = int(round(edge)) - lo
        beyond = profile[:max(cut, 1)] if outward < 0 else profile[min(max(cut, 0), len(profile) - 1):]
        top = float((beyond if rim else profile).max())
        if top < _MIN_CONTRAST * floor or top < 2.0:
            continue
        peaks = [i for i in range(1, len(profile) - 1) if profile[i] >= profile[i - 1]
                 and profile[i] >= profile[i + 1] and profile[i] >= max(_MIN_CONTRAST * floor, 0.35 * top)]
        out = [i for i in peaks if (i < cut if outward < 0 else i > cut)]
        if out:
            # The table's own lines and steps lie further out than the card's
            # edge (the grain of a light wood).
            k = (max(out) if outward < 0 else min(out)) if rim else max(out, key=lambda i: profile[i])
        else:
            # A picture's frame or an index inside the box can step more, in a glare.
            k = (min(peaks) if outward < 0 else max(peaks)) if peaks else int(profile.argmax())
        # Sub-pixel: the parabola through the peak and its neighbours.
        if 0 < k < len(profile) - 1:
            l, c, r = profile[k - 1], profile[k], profile[k + 1]
            curve = l - 2 * c + r
            if curve < 0:
                k = k + 0.5 * (l - r) / curve
        pos.append((a + b) / 2)
        off.append(lo + k)
        weight.append(float(profile.max() / floor))
    if len(pos) < 2:
        return None
    pos, off = np.array(pos), np.array(off)
    if len(pos) >= 3:
        # One segment caught by something else (a glare, a shadow): dropped when it strays.
        fit = np.polyfit(pos, off, 1)
        stray = np.abs(np.polyval(fit, pos) - off)
        keep = stray <= max(1.5, 2.5 * float(np.median(stray)))
        pos, off = pos[keep], off[keep]
    if len(pos) < 2:
        return None
    b, a = np.polyfit(pos, off, 1)
    if abs(b) > 0.12:                     # a side turned by more than ~7 degrees from the others: not a card's
        return None
    return float(a), float(b)


def _corners(lines: list[tuple[int, tuple[float, float]]]) -> Optional[np.ndarray]:
    """Corners TL, TR, BR, BL (in the turned frame) of the left/right lines
    (x = a + b y) and top/bottom lines (y = a + b x)."""
    (_, left), (_, right), (_, top), (_, bottom) = lines

    def meet(v, hz):
        (av, bv), (ah, bh) = v, hz
        d = 1 - bv * bh
        if abs(d) < 1e-6:
            return None
        y = (ah + bh * av) / d
        return np.array([av + bv * y, y])

    pts = [meet(left, top), meet(right, top), meet(right, bottom), meet(left, bottom)]
    if any(p is None for p in pts):
        return None
    return np.float32(pts)


def _checked(quad: np.ndarray, size: tuple[int, int], stretches: tuple[float, ...]) -> Optional[np.ndarray]:
    """The quad when it is a card's: convex, in the picture, card-proportioned
    at one of the picture's possible ``stretches`` (``stretch.looked_at``: a
    card in a 3:4 photo saved square looks nearly square)."""
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None
    if not any(_ASPECT[0] <= quad_aspect(quad / np.float32([s, 1.0])) <= _ASPECT[1] for s in stretches):
        return None
    w, h = size
    if quad[:, 0].min() < -2 or quad[:, 1].min() < -2 or quad[:, 0].max() > w + 1 or quad[:, 1].max() > h + 1:
        return None
    return quad


def lone_card_outlines(image_bgr: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` (as ``find_cards`` found them) with the lone card's outline
    made precise (``lone_card``), the outlines found on it dropped."""
    card, _, elsewhere = lone_card(image_bgr, quads)
    return ([card] if card is not None else []) + elsewhere


def lone_card(image_bgr: np.ndarray, quads: list[np.ndarray]
              ) -> tuple[Optional[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """(the lone card's outline, the other outlines of its size on it, the
    outlines elsewhere): where the picture holds one card's print, the
    outlines on it (the card found a few pixels off, or its pips and picture
    frame found as "cards") are one card, and the one of the card's size
    whose sides lie best on edges stands for it (``find_cards``' on a tie: on
    a table that contrasts with the card its outline is the more precise).
    The others of about its size may still be the card's true outline: a side
    fitted at a line of the table beyond the card (the dark edge of a bench
    above a 7h on light wood) lies on a stronger edge than the card's own.
    (None, [], ``quads``) when the picture holds no lone card's print."""
    fitted = fit_lone_card(image_bgr)
    if fitted is None:
        return None, [], quads
    fitted = order_corners(fitted)
    gray = cv2.GaussianBlur(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), (0, 0), 1.0).astype(np.float32)
    # Only an outline of the card's size may stand for it: a pip's or an
    # index's quad lies inside the print, on edges as clear as any (an ace's
    # one large pip was read as the card).
    size = cv2.contourArea(fitted)
    alike = [q for q in quads if _overlapping(q, fitted) and cv2.contourArea(np.float32(q)) >= _ALIKE_SIZE * size]
    same = [q for q in alike if cv2.contourArea(np.float32(q)) >= _SAME_SIZE * size]
    best = max(same + [fitted], key=lambda q: min(edge_support(gray, q)))
    return best, [q for q in alike + [fitted] if q is not best], [q for q in quads if not _overlapping(q, fitted)]


def _overlapping(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether one of two outlines lies (mostly) within the other."""
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    return inter >= 0.8 * min(cv2.contourArea(np.float32(a)), cv2.contourArea(np.float32(b)))


def edge_support(gray: np.ndarray, quad: np.ndarray, samples: int = 32) -> list[float]:
    """Per side, the share of its length where the picture steps clearly in
    brightness across it (within a few pixels): card against table; where
    the two sides are as light as each other (a white card on a white
    table), a thin dark line there counts too (the shadow of the card's
    rim). The step needed is a third of the side's own strongest steps, at
    least ``_FAINTEST_EDGE``: a white card on a light table still steps, a
    side running over table or along the picture's edge does not."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    out = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        d /= max(length, 1e-6)
        n = np.array([-d[1], d[0]])
        if np.dot(n, centre - a) > 0:
            n = -n
        reach = max(3.0, 0.015 * length)
        offsets = np.linspace(-reach, reach, 9)
        t = np.linspace(0.08, 0.92, samples)
        base = a[None, :] + (t * length)[:, None] * d[None, :]
        pts = base[:, None, :] + offsets[None, :, None] * n[None, None, :]
        inside = (pts[..., 0] >= 0) & (pts[..., 0] <= gray.shape[1] - 1) & \
            (pts[..., 1] >= 0) & (pts[..., 1] <= gray.shape[0] - 1)
        prof = cv2.remap(gray, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
        outer, inner = prof[:, :3].mean(axis=1), prof[:, -3:].mean(axis=1)
        step = np.abs(inner - outer)
        if abs(float(np.median(inner - outer))) < _SAME_LIGHT:
            # Paper as light as the table: the thin dark line of the rim's shadow counts too.
            step = np.maximum(step, np.minimum(outer, inner) - prof[:, 3:6].min(axis=1))
        step[~inside.all(axis=1)] = 0.0
        need = max(_FAINTEST_EDGE, 0.33 * float(np.percentile(step, 90)))
        out.append(float((step >= need).mean()))
    return out


