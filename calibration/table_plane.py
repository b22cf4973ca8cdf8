"""The table plane: its size, where the corner markers sit on it, and the camera's view of it.

Table coordinates are millimetres on the cloth, origin at the top-left corner
with North's edge at the top (x to East, y to South). Everything that must
survive a camera being moved (zones, piles) is stored in table coordinates; only
the homography ties them to pixels, so re-calibrating the camera is one command
and the zones stay valid.

The homography comes from the 16 corners of the four ArUco corner markers
(RANSAC, sub-pixel corners). While the table runs, ``recheck`` looks at the
markers again: if they are seen away from where the calibration put them, the
camera moved and the pipeline reports it instead of silently mapping cards to
the wrong zones. Markers that are hidden (a hand, a sleeve) prove nothing
either way, so they are reported as ``unseen``, never as ``moved``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .markers import CORNER_IDS, detect_markers


class CalibrationError(ValueError):
    """The image cannot calibrate the table; the message says what to do."""


@dataclass(frozen=True)
class TableLayout:
    """The physical table: its size and where the corner markers are taped."""

    width_mm: float = 800.0
    height_mm: float = 800.0
    marker_mm: float = 60.0
    marker_inset_mm: float = 15.0   # gap between a marker and the table's edges

    def marker_corners(self) -> dict[int, np.ndarray]:
        """Table coordinates of each corner marker's 4 corners (TL, TR, BR, BL)."""
        s, m = self.marker_mm, self.marker_inset_mm
        origins = [(m, m), (self.width_mm - m - s, m), (self.width_mm - m - s, self.height_mm - m - s),
                   (m, self.height_mm - m - s)]
        square = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
        return {mid: square + np.float32(o) for mid, o in zip(CORNER_IDS, origins)}

    def corners(self) -> np.ndarray:
        w, h = self.width_mm, self.height_mm
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)

    def to_json(self) -> dict:
        return {"width_mm": self.width_mm, "height_mm": self.height_mm,
                "marker_mm": self.marker_mm, "marker_inset_mm": self.marker_inset_mm}

    @classmethod
    def from_json(cls, data: dict) -> "TableLayout":
        return cls(**{k: float(data[k]) for k in ("width_mm", "height_mm", "marker_mm", "marker_inset_mm")
                      if k in data})


@dataclass(frozen=True)
class TableView:
    """One camera's view of the table: image pixels <-> table millimetres."""

    image_to_table: np.ndarray            # 3x3 homography
    image_size: tuple[int, int]           # (width, height) of the frames it was computed on
    markers_px: dict[int, np.ndarray] = field(default_factory=dict)  # where each marker was seen
    error_mm: float = 0.0                 # RMS reprojection error of the marker corners

    @property
    def table_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_table)

    def to_table(self, points_px) -> np.ndarray:
        return _apply(self.image_to_table, points_px)

    def to_image(self, points_mm) -> np.ndarray:
        return _apply(self.table_to_image, points_mm)

    def to_json(self) -> dict:
        return {"image_to_table": self.image_to_table.tolist(), "image_size": list(self.image_size),
                "error_mm": self.error_mm,
                "markers_px": {str(k): v.tolist() for k, v in sorted(self.markers_px.items())}}

    @classmethod
    def from_json(cls, data: dict) -> "TableView":
        return cls(np.array(data["image_to_table"], np.float64), tuple(data["image_size"]),
                   {int(k): np.array(v, np.float32) for k, v in data.get("markers_px", {}).items()},
                   float(data.get("error_mm", 0.0)))


def _apply(h: np.ndarray, points) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def locate_table(image: np.ndarray, layout: TableLayout, camera=None) -> TableView:
    """Compute the table homography from the corner markers seen in ``image``.

    ``camera`` (a ``calibration.camera.CameraModel``) removes lens distortion from
    the marker corners first when known. Needs at least 3 of the 4 markers.
    """
    seen = detect_markers(image)
    wanted = layout.marker_corners()
    found = sorted(set(seen) & set(wanted))
    if len(found) < 3:
        missing = ", ".join(str(i) for i in CORNER_IDS if i not in seen)
        raise CalibrationError(
            f"only {len(found)} of the 4 table corner markers are visible (missing id {missing}): "
            f"clear the corners, check the light and that the whole table is in the picture, "
            f"then run the command again (print the markers with `belote-table calibrate markers`)")
    img_pts = np.concatenate([seen[i] for i in found])
    if camera is not None:
        img_pts = camera.undistort_points(img_pts)
    tab_pts = np.concatenate([wanted[i] for i in found])
    h, _ = cv2.findHomography(img_pts, tab_pts, cv2.RANSAC, 3.0)
    if h is None:
        raise CalibrationError("the corner markers do not form a plane the camera can see: "
                               "are they all flat on the table and in the right corners (ids 0-3 clockwise "
                               "from North-West)?")
    err = float(np.sqrt(np.mean(np.sum((_apply(h, img_pts) - tab_pts) ** 2, axis=1))))
    height, width = image.shape[:2]
    return TableView(h, (width, height), {i: seen[i] for i in found}, err)


def _markers_near(image: np.ndarray, where: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Markers looked for only around where they were: 4 small crops instead of a
    1080p frame (about 2 ms instead of 30, so the re-check can run often)."""
    h, w = image.shape[:2]
    found = {}
    for mid, corners in where.items():
        side = float(np.linalg.norm(corners[0] - corners[2]))
        x0, y0 = np.maximum(np.floor(corners.min(axis=0) - side).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0) + side).astype(int), [w, h])
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        crop = detect_markers(image[y0:y1, x0:x1])
        if mid in crop:
            found[mid] = crop[mid] + np.float32([x0, y0])
    return found


@dataclass(frozen=True)
class Recheck:
    """The outcome of looking at the corner markers again while running."""

    state: str          # "ok" | "moved" | "unseen" (too few markers visible to tell)
    shift_px: float     # median distance between where markers are and where they were
    seen: int           # how many markers were visible

    @property
    def detail(self) -> str:
        return f"{self.seen} markers seen, median shift {self.shift_px:.1f} px"


def recheck(image: np.ndarray, view: TableView, tolerance_px: float = 4.0) -> Recheck:
    """Compare the markers in ``image`` with where the calibration saw them.

    Needs 2 visible markers to conclude: one marker alone could have been
    nudged on the cloth, two moving together means the camera moved.
    """
    seen = _markers_near(image, view.markers_px)
    common = [i for i in view.markers_px if i in seen]
    if len(common) < 2:                 # moved far, or hidden: look at the whole frame
        seen = detect_markers(image)
        common = [i for i in view.markers_px if i in seen]
    if len(common) < 2:
        return Recheck("unseen", 0.0, len(common))
    shifts = [float(np.median(np.linalg.norm(seen[i] - view.markers_px[i], axis=1))) for i in common]
    shift = float(np.median(shifts))
    moved = sum(s > tolerance_px for s in shifts) >= 2
    return Recheck("moved" if moved else "ok", shift, len(common))
