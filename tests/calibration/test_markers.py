"""The printed sheets: markers the detector reads back, PDFs at true scale."""

import re
import struct

import cv2

from calibration.markers import CORNER_IDS, CharucoSpec, detect_markers, marker_image, write_sheets


def test_each_corner_marker_is_read_back_with_its_id():
    for marker_id in CORNER_IDS:
        seen = detect_markers(marker_image(marker_id, 120, quiet_zone=30))
        assert list(seen) == [marker_id]
        assert abs(seen[marker_id][1, 0] - seen[marker_id][0, 0] - 120) < 3   # the marker's true width


def test_sheets_are_written_at_true_scale(tmp_path):
    files = write_sheets(tmp_path, marker_mm=60.0, dpi=300)
    names = sorted(f.name for f in files)
    assert names == sorted([f"corner-{i}.{ext}" for i in CORNER_IDS for ext in ("pdf", "png")]
                           + ["charuco.pdf", "charuco.png"])
    # PNG: the pHYs chunk says 300 dpi, so a viewer prints it at size
    png = (tmp_path / "corner-2.png").read_bytes()
    ppm = struct.unpack(">I", png[png.index(b"pHYs") + 4:][:4])[0]
    assert abs(ppm * 0.0254 - 300) < 1
    assert list(detect_markers(cv2.imread(str(tmp_path / "corner-2.png")))) == [2]
    # PDF: the image is drawn exactly 60 mm wide (170.08 pt)
    pdf = (tmp_path / "corner-0.pdf").read_bytes().decode("latin-1")
    sizes = [float(w) for w, h in re.findall(r"([\d.]+) 0 0 ([\d.]+) [\d.]+ [\d.]+ cm", pdf) if w == h and w != "1"]
    assert sizes and abs(sizes[0] - 60 / 25.4 * 72) < 0.01


def test_charuco_board_squares_have_the_printed_size():
    spec = CharucoSpec()
    img = spec.image(px_per_mm=4)
    assert img.shape == (round(spec.squares_y * spec.square_mm * 4), round(spec.squares_x * spec.square_mm * 4))
    corners, ids, _, _ = cv2.aruco.CharucoDetector(spec.board()).detectBoard(img)
    assert len(ids) == (spec.squares_x - 1) * (spec.squares_y - 1)
