"""From still scenes to observations: which card landed in which zone, which zone was cleared.

Works in table coordinates: each still scene's play area is resampled onto
the table plane (``TablePlane``, 1 px per mm), where a card is a 56 x 87 mm
rectangle whatever the camera's angle, and compared with two references:

- the last still scene: what changed since (``new`` evidence), and
- the empty table, seen when the pipeline started: what is not cloth.

A card put on top of a trick in progress is the part that changed since the
last still scene *and* is not cloth: the earlier cards did not change, so only
the new card's footprint remains, even when it covers half of them. Its
rectangle gives the quad that is read; its centre gives the zone. Two cards
put down while a hand hid the table make one blob: cards of known size are
fitted on its outline's right-angled corners. A zone whose
reported cards' footprints all look like empty cloth again has been cleared.
Anything else that changed (a hand resting on the table, a card nudged into a
shapeless blob) is *unexplained*: the scene is not taken as the new reference
until it is explained or has stayed so for a while, so a hand lifted later does
not reveal "new" cards that were there all along.

Reading votes over several frames of the same still scene; a card read
differently, or without enough confidence, is reported with ``card=None``
and the votes as evidence: uncertain, never guessed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import cv2
import numpy as np

from . import overlap

CARD_MM = (56.0, 87.0)
PLAY_ZONES = ("play:N", "play:E", "play:S", "play:W")


def zone_at(zones: dict[str, np.ndarray], point_mm) -> Optional[str]:
    """The zone whose polygon (table mm) holds the point, or None."""
    pt = (float(point_mm[0]), float(point_mm[1]))
    for name, poly in zones.items():
        if cv2.pointPolygonTest(np.asarray(poly, np.float32).reshape(-1, 1, 2), pt, False) >= 0:
            return name
    return None


class TablePlane:
    """Pixels <-> table millimetres for one camera, and the table-plane image of
    the watched area (bounding box of the zones plus a card's length)."""

    def __init__(self, image_to_table, zones: dict[str, np.ndarray], frame_size: tuple[int, int],
                 names=PLAY_ZONES, camera=None, px_per_mm: float = 1.0):
        self.frame_size = tuple(frame_size)
        self.h = np.asarray(image_to_table, np.float64)
        self.h_inv = np.linalg.inv(self.h)
        self.camera = camera
        self.ppm = px_per_mm
        pts = np.concatenate([np.asarray(zones[n], np.float32) for n in names if n in zones])
        if not len(pts):
            raise ValueError(f"none of the zones {', '.join(names)} is defined in the table profile")
        lo = pts.min(axis=0) - CARD_MM[1]
        hi = pts.max(axis=0) + CARD_MM[1]
        self.origin = lo
        self.size = (int(np.ceil((hi[0] - lo[0]) * px_per_mm)), int(np.ceil((hi[1] - lo[1]) * px_per_mm)))
        gx, gy = np.meshgrid(np.arange(self.size[0], dtype=np.float32), np.arange(self.size[1], dtype=np.float32))
        grid = np.stack([gx.ravel(), gy.ravel()], axis=1) / px_per_mm + lo
        img = self.to_image(grid).astype(np.float32)
        self.map_x = img[:, 0].reshape(self.size[1], self.size[0])
        self.map_y = img[:, 1].reshape(self.size[1], self.size[0])
        # the same maps in OpenCV's fixed-point form (1/32 px): remap reads them a third faster
        self._fixed = cv2.convertMaps(self.map_x, self.map_y, cv2.CV_16SC2)
        from .watch import SHRINK
        self._thumb_x, self._thumb_y = self.map_x / SHRINK, self.map_y / SHRINK
        w, h = frame_size
        inside = (self.map_x >= 0) & (self.map_x < w - 1) & (self.map_y >= 0) & (self.map_y < h - 1)
        self.visible = inside.astype(np.uint8) * 255
        self.zones = {n: np.asarray(zones[n], np.float32) for n in names if n in zones}
        self.zone_masks = {}
        for n in names:
            if n in zones:
                m = np.zeros((self.size[1], self.size[0]), np.uint8)
                cv2.fillPoly(m, [np.round(self.to_plane(zones[n])).astype(np.int32)], 255)
                self.zone_masks[n] = m

    def to_table(self, points_px) -> np.ndarray:
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        if self.camera is not None:
            pts = self.camera.undistort_points(pts)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.h).reshape(-1, 2)

    def to_image(self, points_mm) -> np.ndarray:
        pts = cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), self.h_inv).reshape(-1, 2)
        if self.camera is None:
            return pts
        k = self.camera.matrix
        norm = np.column_stack([(pts[:, 0] - k[0, 2]) / k[0, 0], (pts[:, 1] - k[1, 2]) / k[1, 1], np.ones(len(pts))])
        out, _ = cv2.projectPoints(norm, np.zeros(3), np.zeros(3), k, self.camera.distortion)
        return out.reshape(-1, 2)

    def to_plane(self, points_mm) -> np.ndarray:
        return (np.asarray(points_mm, np.float64).reshape(-1, 2) - self.origin) * self.ppm

    def from_plane(self, points) -> np.ndarray:
        return np.asarray(points, np.float64).reshape(-1, 2) / self.ppm + self.origin

    def from_thumbnail(self, mask: np.ndarray) -> np.ndarray:
        """A watcher thumbnail mask (``vision.watch``) on the table plane."""
        return cv2.remap(mask, self._thumb_x, self._thumb_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        return cv2.remap(frame, *self._fixed, cv2.INTER_AREA if self.ppm < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT)


@dataclass
class Candidate:
    """A card found in a still scene, waiting for its votes."""

    zone: str
    quad: np.ndarray                 # image pixels, ordered as vision.locate.order_corners
    footprint: np.ndarray            # 4x2 table-plane pixels
    reads: list = field(default_factory=list)   # (card|None, confidence) per frame
    read_from: Optional[np.ndarray] = None     # the frame's pixels around it at its last read
    card: Optional[int] = None       # the verdict, once voted
    under: Optional["Candidate"] = None   # an earlier card of the zone it mostly covers ...
    overlap: float = 0.0             # ... and by how much (intersection over union)

    def is_move(self) -> bool:
        """The earlier card straightened, not a new one: the same card where both were
        read, else a footprint mostly where the earlier one was."""
        if self.under is None:
            return False
        if self.card is not None and self.under.card is not None:
            return self.card == self.under.card
        return self.overlap > 0.5


@dataclass
class Analysis:
    """What a still scene holds compared with the last accepted one."""

    cards: list[Candidate]
    cleared: list[str]
    unexplained: int                 # table-plane pixels of change nothing explains


@dataclass(frozen=True)
class Verdict:
    card: Optional[int]
    confidence: float
    votes: dict


#: Below this mean confidence of the agreeing reads, a card is reported unread. With the
#: reader as measured (docs/vision.md), every misread seen had 0.75 or less.
MIN_CONFIDENCE = 0.8


def vote(reads: list, min_confidence: float = MIN_CONFIDENCE, agree: float = 0.66) -> Verdict:
    """One answer from several readings of one card: the card at least ``agree`` of
    the frames read (one dissenting frame in three, a glare flash, is outvoted),
    if those reads are confident enough on average; otherwise None."""
    names = Counter(c for c, _ in reads)
    tally = {("?" if c is None else str(c)): n for c, n in names.items()}
    if not reads:
        return Verdict(None, 0.0, tally)
    best, n = names.most_common(1)[0]
    conf = float(np.mean([conf for c, conf in reads if c == best])) if best is not None else 0.0
    if best is None or n / len(reads) < agree or conf < min_confidence:
        return Verdict(None, round(conf, 4), tally)
    return Verdict(best, round(conf, 4), tally)


class Tracker:
    """The table's state in table coordinates, updated one still scene at a time."""

    def __init__(self, plane: TablePlane, threshold: int = 30):
        self.plane = plane
        self.threshold = threshold            # colour step (max over B, G, R) that counts as a change
        self.empty: Optional[np.ndarray] = None
        self.still: Optional[np.ndarray] = None
        self.placed: dict[str, list[Candidate]] = {}   # zone -> its cards, as accepted
        self.card_px = CARD_MM[0] * CARD_MM[1] * plane.ppm ** 2
        gap = max(3, int(round(15 * plane.ppm)))
        self._group_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (gap, gap))

    def start(self, rect: np.ndarray) -> None:
        """The first still scene: the empty table every later scene is compared with."""
        self.empty = rect.copy()
        self.still = rect.copy()
        self.placed = {}

    def _diff(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        d = cv2.absdiff(a, b)
        if d.ndim == 3:                       # the largest change over B, G, R (numpy's max(axis=2) is 20x slower)
            c0, c1, c2 = cv2.split(d)
            d = cv2.max(cv2.max(c0, c1), c2)
        m = cv2.threshold(d, self.threshold, 255, cv2.THRESH_BINARY)[1]
        return cv2.bitwise_and(m, self.plane.visible)

    @staticmethod
    def _despeckle(mask: np.ndarray, min_px: int) -> np.ndarray:
        """Drop isolated specks (noise) but keep thin lines: a card's outline on a cloth
        of its own colour is one or two pixels wide and may be all there is to see."""
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        keep = np.zeros(n, np.uint8)
        keep[1:] = (stats[1:, cv2.CC_STAT_AREA] >= min_px) * 255
        return keep[labels]

    def _groups(self, new: np.ndarray):
        """The pieces of change grouped by proximity (a gap of up to ~15 mm), one mask
        each; labelled only inside the box around the change (a card is a few % of
        the plane)."""
        x, y, w, h = cv2.boundingRect(new)
        if not w:
            return
        pad = self._group_kernel.shape[0]
        x0, y0 = max(x - pad, 0), max(y - pad, 0)
        x1, y1 = min(x + w + pad, new.shape[1]), min(y + h + pad, new.shape[0])
        box = self._despeckle(new[y0:y1, x0:x1], max(4, int(8 * self.plane.ppm ** 2)))
        n, labels, _, _ = cv2.connectedComponentsWithStats(cv2.dilate(box, self._group_kernel), connectivity=8)
        for i in range(1, n):
            group = np.zeros_like(new)
            group[y0:y1, x0:x1] = cv2.bitwise_and(box, box, mask=(labels == i).astype(np.uint8))
            yield group

    def analyse(self, rect: np.ndarray, busy: Optional[np.ndarray] = None) -> Analysis:
        """What changed since the last accepted scene. ``busy`` (table-plane mask):
        where something still moves; then only new cards well away from it are
        looked for (clearings wait for the whole scene to be still)."""
        d_prev = self._diff(rect, self.still)
        d_empty = self._diff(rect, self.empty)
        cleared = []
        for zone, cards in self.placed.items() if busy is None else ():
            quads = [c.footprint for c in cards]
            if not quads:
                continue
            mask = np.zeros_like(d_empty)
            cv2.fillPoly(mask, [np.round(q).astype(np.int32) for q in quads], 255)
            area = max(1, cv2.countNonZero(mask))
            # cleared: it changed since the last still scene and now looks like the empty table
            if cv2.countNonZero(cv2.bitwise_and(mask, d_prev)) > 0.1 * area and \
                    cv2.countNonZero(cv2.bitwise_and(mask, d_empty)) < 0.15 * area:
                cleared.append(zone)
        # What changed and is not cloth. Where the new card's white lies on an older card's
        # white nothing changed, so the card shows as its edges and print: group those
        # pieces and take the group's hull as the footprint.
        cards, unexplained = [], 0
        for group in self._groups(cv2.bitwise_and(d_prev, d_empty)):
            if busy is not None and cv2.countNonZero(cv2.bitwise_and(group, busy)):
                continue                      # still moving (the hand that played, or with it)
            pts = cv2.findNonZero(group)
            if pts is None:
                continue
            hull = cv2.convexHull(pts)
            area = cv2.contourArea(hull)
            if area < 0.3 * self.card_px:
                continue
            found = self._cards_in(hull, area, group)
            if not found and any(cv2.countNonZero(cv2.bitwise_and(group, m)) for m in self.plane.zone_masks.values()):
                unexplained += int(area)      # something shapeless in the watched zones (a hand, a nudge)
            cards += [c for c in found if c.zone]   # cards outside the watched zones are not our business
        for c in cards:
            for earlier in self.placed.get(c.zone, []):
                iou = overlap.iou(c.footprint, earlier.footprint)
                if iou > max(0.25, c.overlap):
                    c.under, c.overlap = earlier, iou
        return Analysis(cards, cleared, unexplained)

    def _cards_in(self, hull: np.ndarray, area: float, group: np.ndarray) -> list[Candidate]:
        """Card-shaped quads in a group of change: its hull's rectangle (snapped to
        the card's true size) when that is one card's size and shape; for a bigger
        group (several cards put down while a hand hid them), card rectangles
        fitted to its outline's corners."""
        from .locate import order_corners
        quads = []
        card_w, card_h = CARD_MM[0] * self.plane.ppm, CARD_MM[1] * self.plane.ppm
        # The plane reaches a card's length beyond the zones: what runs off it is an arm.
        x, y, w, h = cv2.boundingRect(hull)
        if x <= 0 or y <= 0 or x + w >= self.plane.size[0] or y + h >= self.plane.size[1]:
            return []
        if area <= 1.6 * self.card_px:
            (cx, cy), (w, h), ang = cv2.minAreaRect(hull)
            long_, short = max(w, h), min(w, h)
            if 0.75 < long_ / card_h < 1.25 and 0.7 < short / card_w < 1.35 and area > 0.75 * w * h:
                size = (card_w, card_h) if w < h else (card_h, card_w)
                quads.append(cv2.boxPoints(((cx, cy), size, ang)))
        if not quads and area < 4.5 * self.card_px:       # bigger than a whole trick: not cards
            quads = self._fit_cards(group)
        out = []
        for fp in quads:
            centre = self.plane.from_plane(fp.mean(axis=0, keepdims=True))[0]
            image_quad = order_corners(self.plane.to_image(self.plane.from_plane(fp)).astype(np.float32))
            out.append(Candidate(zone_at(self.plane.zones, centre), image_quad, np.asarray(fp, np.float32)))
        return out

    def _fit_cards(self, group: np.ndarray) -> list[np.ndarray]:
        """Cards of known size in a blob of overlapping cards: every right-angled
        convex corner of the blob's outline is a corner of some card; try a card
        rectangle on it both ways round, keep those lying (almost) wholly in the
        blob, best first, until the blob is covered."""
        closed = cv2.morphologyEx(group, cv2.MORPH_CLOSE, self._group_kernel)
        contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            return []
        contour = max(contours, key=cv2.contourArea)
        blob = np.zeros_like(closed)                       # filled: print on a white cloth leaves holes
        cv2.drawContours(blob, [contour], -1, 255, cv2.FILLED)
        poly = cv2.approxPolyDP(contour, 3 * self.plane.ppm, True).reshape(-1, 2).astype(np.float64)
        sides = (CARD_MM[0] * self.plane.ppm, CARD_MM[1] * self.plane.ppm)
        h, w = blob.shape
        tries = []
        for k in range(len(poly)):
            p0, p1, p2 = poly[k - 1], poly[k], poly[(k + 1) % len(poly)]
            a, b = p0 - p1, p2 - p1
            if min(np.linalg.norm(a), np.linalg.norm(b)) < 8 * self.plane.ppm:
                continue                                   # a kink, not a card's corner
            a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
            if abs(float(a @ b)) > 0.34:                   # not within 70-110 degrees
                continue
            inward = p1 + 4 * self.plane.ppm * (a + b)
            if not (0 <= inward[0] < w and 0 <= inward[1] < h and blob[int(inward[1]), int(inward[0])]):
                continue                                   # a concave corner (where two cards cross)
            v = np.array([-a[1], a[0]]) * np.sign(a[0] * b[1] - a[1] * b[0])   # b made square to a
            for la, lb in (sides, sides[::-1]):
                tries.append(np.array([p1, p1 + la * a, p1 + la * a + lb * v, p1 + lb * v], np.float32))
        chosen: list[np.ndarray] = []
        covered = np.zeros_like(blob)
        total = max(1, cv2.countNonZero(blob))
        scored = []
        for quad in tries:
            m = np.zeros_like(blob)
            cv2.fillConvexPoly(m, np.round(quad).astype(np.int32), 255)
            n = max(1, cv2.countNonZero(m))
            scored.append((cv2.countNonZero(cv2.bitwise_and(m, blob)) / n, quad, m))
        for inside, quad, m in sorted(scored, key=lambda x: -x[0]):
            if inside < 0.9 or cv2.countNonZero(covered) > 0.92 * total:
                break
            if any(np.linalg.norm(quad.mean(axis=0) - c.mean(axis=0)) < 15 * self.plane.ppm for c in chosen):
                continue                                   # the same card, from another of its corners
            chosen.append(quad)
            covered = cv2.bitwise_or(covered, cv2.bitwise_and(m, blob))
        return chosen

    def relight(self, rect: np.ndarray) -> None:
        """The whole table changed at once and stayed so: the light changed. The empty-table
        reference is taken again from this scene, with the cloth under the known cards
        painted in from around them."""
        under = np.zeros(rect.shape[:2], np.uint8)
        quads = [c.footprint for cs in self.placed.values() for c in cs]
        if quads:
            cv2.fillPoly(under, [np.round(q).astype(np.int32) for q in quads], 255)
            under = cv2.dilate(under, self._group_kernel)
        self.empty = cv2.inpaint(rect, under, 5, cv2.INPAINT_TELEA) if quads else rect.copy()

    def accept(self, rect: np.ndarray, analysis: Analysis, only_cards: bool = False) -> None:
        """Take the scene as the new reference, with its cards and clearings; with
        ``only_cards`` (the rest of the scene still moved), only the new cards' places."""
        if only_cards:
            where = np.zeros(rect.shape[:2], np.uint8)
            for c in analysis.cards:
                cv2.fillConvexPoly(where, np.round(c.footprint).astype(np.int32), 255)
            where = cv2.dilate(where, self._group_kernel)   # its soft edge and shadow too (motion is further)
            np.copyto(self.still, rect, where=(where > 0)[:, :, None] if rect.ndim == 3 else where > 0)
        else:
            self.still = rect.copy()
        for zone in analysis.cleared:
            self.placed[zone] = []
        for c in analysis.cards:
            cards = self.placed.setdefault(c.zone, [])
            if c.is_move() and c.under in cards:
                cards[cards.index(c.under)] = c
            else:
                cards.append(c)
