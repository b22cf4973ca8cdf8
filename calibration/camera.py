"""Camera intrinsics (focal length, principal point, lens distortion) from ChArUco views.

Optional for a camera looking straight down with a normal lens (the table
homography absorbs everything), but needed for wide-angle webcams whose barrel
distortion bends the table's edges by several centimetres: without it cards
near the edges land in the wrong zone.

Calibrate with 10-20 pictures of the printed ChArUco board held at different
angles and distances, covering the whole field of view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import cv2
import numpy as np

from .markers import CharucoSpec
from .table_plane import CalibrationError

MIN_VIEWS = 4
MIN_CORNERS = 8   # per view; fewer corners constrain a view too little to help


@dataclass(frozen=True)
class CameraModel:
    matrix: np.ndarray          # 3x3 K
    distortion: np.ndarray      # k1 k2 p1 p2 k3
    image_size: tuple[int, int]
    rms_px: float = 0.0         # reprojection error of the calibration views
    views: int = 0

    def undistort_points(self, points) -> np.ndarray:
        """Pixel points as an ideal (distortion-free) camera with the same K would see them."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix).reshape(-1, 2)

    def to_json(self) -> dict:
        return {"matrix": self.matrix.tolist(), "distortion": self.distortion.ravel().tolist(),
                "image_size": list(self.image_size), "rms_px": self.rms_px, "views": self.views}

    @classmethod
    def from_json(cls, data: dict) -> "CameraModel":
        return cls(np.array(data["matrix"], np.float64), np.array(data["distortion"], np.float64),
                   tuple(data["image_size"]), float(data.get("rms_px", 0.0)), int(data.get("views", 0)))


def calibrate_camera(images: Iterable[np.ndarray], spec: CharucoSpec = CharucoSpec(),
                     progress=None) -> CameraModel:
    """Intrinsics from pictures of the ChArUco board. ``progress(i, corners)`` is
    called per picture (``corners`` = 0 when the board was not found)."""
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    obj_all, img_all, size = [], [], None
    for i, image in enumerate(images):
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        if size is None:
            size = (grey.shape[1], grey.shape[0])
        elif size != (grey.shape[1], grey.shape[0]):
            raise CalibrationError(f"picture {i + 1} is {grey.shape[1]}x{grey.shape[0]} but the first was "
                                   f"{size[0]}x{size[1]}: use pictures from one camera at one resolution")
        corners, ids, _, _ = detector.detectBoard(grey)
        n = 0 if ids is None else len(ids)
        if progress:
            progress(i, n)
        if n < MIN_CORNERS:
            continue
        obj, img = board.matchImagePoints(corners, ids)
        obj_all.append(obj.reshape(-1, 1, 3).astype(np.float32))
        img_all.append(img.reshape(-1, 1, 2).astype(np.float32))
    if len(obj_all) < MIN_VIEWS:
        raise CalibrationError(
            f"the ChArUco board was found in only {len(obj_all)} picture(s); at least {MIN_VIEWS} are needed "
            f"(10-20 is better): hold the printed board at different angles and distances, well lit, "
            f"filling a good part of the picture")
    # k3 stays 0: with views that rarely reach the picture's corners it only fits noise
    # and bends the corners wrongly (the table's corners are exactly where it matters).
    rms, k, dist, _, _ = cv2.calibrateCamera(obj_all, img_all, size, None, None, flags=cv2.CALIB_FIX_K3)
    return CameraModel(k, dist.ravel(), size, float(rms), len(obj_all))
