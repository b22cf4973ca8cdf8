"""Camera intrinsics from rendered ChArUco views through a known lens."""

import math

import cv2
import numpy as np
import pytest

from calibration.camera import calibrate_camera
from calibration.markers import CharucoSpec
from calibration.table_plane import CalibrationError

SIZE = (1280, 720)
K = np.array([[1000.0, 0, 650.0], [0, 1000.0, 355.0], [0, 0, 1]])
DIST = np.array([-0.12, 0.05, 0.0, 0.0, 0.0])


def _views(n=10, seed=0):
    """The board seen from n poses through K and DIST (the barrel distortion is applied by remap)."""
    spec = CharucoSpec()
    ppm = 4.0
    board = cv2.cvtColor(spec.image(ppm, margin_mm=10), cv2.COLOR_GRAY2BGR)
    rng = np.random.default_rng(seed)
    # pixel of the board image -> mm on the board plane
    to_mm = np.array([[1 / ppm, 0, -10], [0, 1 / ppm, -10], [0, 0, 1]])
    gx, gy = np.meshgrid(np.arange(SIZE[0], dtype=np.float32), np.arange(SIZE[1], dtype=np.float32))
    ideal = cv2.undistortPoints(np.stack([gx.ravel(), gy.ravel()], 1).reshape(-1, 1, 2), K, DIST, P=K).reshape(
        SIZE[1], SIZE[0], 2)
    views = []
    for _ in range(n):
        rvec = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-0.3, 0.3)])
        r, _ = cv2.Rodrigues(rvec)
        t = np.array([rng.uniform(-130, -30), rng.uniform(-100, -40), rng.uniform(420, 600)])
        h = K @ np.column_stack([r[:, 0], r[:, 1], t]) @ to_mm
        straight = cv2.warpPerspective(board, h, SIZE, borderValue=(90, 90, 90))
        views.append(cv2.remap(straight, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR))
    return views


def test_intrinsics_and_distortion_are_recovered():
    cam = calibrate_camera(_views())
    assert cam.views >= 8 and cam.rms_px < 0.6
    assert abs(cam.matrix[0, 0] / K[0, 0] - 1) < 0.03 and abs(cam.matrix[1, 1] / K[1, 1] - 1) < 0.03
    assert math.hypot(cam.matrix[0, 2] - K[0, 2], cam.matrix[1, 2] - K[1, 2]) < 15
    assert abs(cam.distortion[0] - DIST[0]) < 0.05
    # what it is for: a distorted edge point is put back where a perfect lens would see it
    p = np.array([[1200.0, 680.0]])
    truth = cv2.undistortPoints(p.reshape(-1, 1, 2), K, DIST, P=K).reshape(-1, 2)
    assert np.linalg.norm(cam.undistort_points(p) - truth) < 3


def test_too_few_views_say_what_to_do():
    with pytest.raises(CalibrationError, match="at least 4 are needed"):
        calibrate_camera(_views(2) + [np.full((720, 1280, 3), 80, np.uint8)])


def test_calibrate_camera_command_writes_camera_json(tmp_path, capsys):
    import json

    from calibration.profile import TableProfile
    from commands.main import main

    views = tmp_path / "views"
    views.mkdir()
    for i, view in enumerate(_views(8, seed=3)):
        cv2.imwrite(str(views / f"view{i:02d}.png"), view)
    assert main(["calibrate", "camera", "--source", str(views), "--profile", str(tmp_path / "p")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["views"] >= 6 and abs(out["focal_px"][0] - 1000) < 30
    camera = TableProfile(tmp_path / "p").camera()
    assert camera.image_size == SIZE and abs(camera.distortion[0] - DIST[0]) < 0.05
