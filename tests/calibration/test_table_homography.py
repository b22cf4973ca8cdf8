"""Table homography from the corner markers on rendered camera views, and the re-check."""

import json

import cv2
import numpy as np
import pytest

from calibration.table_plane import CalibrationError, TableLayout, locate_table, recheck
from vision.faces import builtin_faces
from vision.render import SceneRenderer, TableScene
from commands.main import main

SIZE = (1280, 720)


def _view(tilt, turn, seed=0):
    scene = TableScene.square(size=SIZE, tilt_deg=tilt, turn_deg=turn)
    frame = next(SceneRenderer(builtin_faces(), scene, seed=seed, size=SIZE).frames([], fps=30))[1]
    return scene, frame


@pytest.mark.parametrize("tilt,turn", [(0, 0), (30, 8), (40, -15)])
def test_homography_is_recovered_within_a_few_millimetres(tilt, turn):
    scene, frame = _view(tilt, turn)
    view = locate_table(frame, TableLayout())
    grid = np.array([[x, y] for x in range(100, 800, 100) for y in range(100, 800, 100)], np.float64)
    seen_px = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), scene.table_to_image).reshape(-1, 2)
    err_mm = np.linalg.norm(view.to_table(seen_px) - grid, axis=1)
    assert err_mm.max() < 3.0, err_mm.max()
    assert sorted(view.markers_px) == [0, 1, 2, 3]


def test_recheck_tells_a_moved_camera_from_hidden_markers():
    _, frame = _view(25, 3)
    view = locate_table(frame, TableLayout())
    assert recheck(frame, view).state == "ok"
    shifted = cv2.warpAffine(frame, np.float32([[1, 0, 12], [0, 1, -7]]), SIZE)
    moved = recheck(shifted, view)
    assert moved.state == "moved" and moved.shift_px > 10
    far = cv2.warpAffine(frame, np.float32([[0.9, 0, 110], [0, 0.9, 60]]), SIZE)   # knocked well off
    assert recheck(far, view).state == "moved"
    hidden = frame.copy()
    for corners in list(view.markers_px.values())[:3]:      # three markers under sleeves
        x0, y0 = corners.min(axis=0).astype(int) - 10
        x1, y1 = corners.max(axis=0).astype(int) + 10
        hidden[y0:y1, x0:x1] = (120, 150, 205)
    assert recheck(hidden, view).state == "unseen"


def test_missing_markers_give_an_error_that_says_what_to_do():
    _, frame = _view(0, 0)
    view = locate_table(frame, TableLayout())
    for i in (0, 1):
        x0, y0 = view.markers_px[i].min(axis=0).astype(int) - 10
        x1, y1 = view.markers_px[i].max(axis=0).astype(int) + 10
        frame[y0:y1, x0:x1] = 60
    with pytest.raises(CalibrationError, match=r"only 2 of the 4 .*missing id 0, 1.*calibrate markers"):
        locate_table(frame, TableLayout())


def test_calibrate_table_command_writes_the_profile_and_preview(tmp_path, capsys):
    _, frame = _view(20, 0)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i}.png"), frame)
    profile = tmp_path / "profile"
    assert main(["calibrate", "table", "--source", str(folder), "--profile", str(profile)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["markers"] == [0, 1, 2, 3] and out["error_mm"] < 1.5
    assert {"table.json", "zones.json", "zones.png"} <= {p.name for p in profile.iterdir()}
    preview = cv2.imread(str(profile / "zones.png"))
    assert preview.shape == frame.shape and np.abs(preview.astype(int) - frame).mean() > 3   # zones drawn on it

    empty = tmp_path / "empty"
    empty.mkdir()
    cv2.imwrite(str(empty / "0.png"), np.full((720, 1280, 3), 90, np.uint8))
    assert main(["calibrate", "table", "--source", str(empty), "--profile", str(tmp_path / "p2")]) == 2
    assert "corner markers are visible" in capsys.readouterr().err
    assert not (tmp_path / "p2" / "table.json").exists()
