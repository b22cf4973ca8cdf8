"""The printed things the camera calibrates against: ArUco corner markers and a ChArUco board.

Four ArUco markers (ids 0-3, dictionary 4x4_50) are taped at the table's
corners; the table homography is computed from their 16 corners, and the same
markers let the running pipeline notice a camera that moved. A ChArUco board
(a chessboard whose white squares carry ArUco markers) gives the camera's
intrinsics: unlike a plain chessboard it is found even when partly covered or
out of the picture, which is what happens with hand-held calibration views.

The sheets are written as PNG (for screens and quick tests) and as PDF at true
scale (for printing: "actual size", no "fit to page"), with the expected size
printed on the sheet so the user can check it with a ruler.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: One dictionary for every printed marker: 4x4 bits are read from further away
#: than 5x5/6x6 at the same printed size, and 50 ids are plenty.
DICTIONARY_ID = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # table corners: top-left, top-right, bottom-right, bottom-left (N at top)


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY_ID)


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Every ArUco marker of our dictionary in an image: id -> 4x2 float32 corners
    (marker's top-left, top-right, bottom-right, bottom-left, in pixels)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary(), params).detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float32) for i, c in zip(ids.ravel(), corners)}


def marker_image(marker_id: int, pixels: int, quiet_zone: int = 0) -> np.ndarray:
    """A marker as a grey image, ``pixels`` wide, with an optional white margin."""
    img = cv2.aruco.generateImageMarker(dictionary(), marker_id, pixels)
    if quiet_zone:
        img = cv2.copyMakeBorder(img, *([quiet_zone] * 4), cv2.BORDER_CONSTANT, value=255)
    return img


@dataclass(frozen=True)
class CharucoSpec:
    """A ChArUco board's printed geometry (millimetres). The default fits A4 landscape."""

    squares_x: int = 7
    squares_y: int = 5
    square_mm: float = 35.0
    marker_mm: float = 26.0

    def board(self) -> cv2.aruco.CharucoBoard:
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm,
                                      self.marker_mm, dictionary())

    def image(self, px_per_mm: float = 8.0, margin_mm: float = 0.0) -> np.ndarray:
        """The board drawn at ``px_per_mm``; one square is exactly ``square_mm``."""
        margin = round(margin_mm * px_per_mm)
        size = (round(self.squares_x * self.square_mm * px_per_mm) + 2 * margin,
                round(self.squares_y * self.square_mm * px_per_mm) + 2 * margin)
        return self.board().generateImage(size, marginSize=margin, borderBits=1)


def write_sheets(out: Path, marker_mm: float = 60.0, charuco: CharucoSpec = CharucoSpec(),
                 dpi: int = 300) -> list[Path]:
    """Write the printable sheets into ``out``: one PDF + PNG per corner marker and
    one for the ChArUco board. Returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    px_per_mm = dpi / 25.4
    written = []
    for marker_id in CORNER_IDS:
        img = marker_image(marker_id, round(marker_mm * px_per_mm))
        label = f"table corner marker id {marker_id} (ArUco 4x4_50): black square {marker_mm:g} mm wide"
        written += _write_sheet(out / f"corner-{marker_id}", img, marker_mm, marker_mm, label, dpi)
    board = charuco.image(px_per_mm)
    w_mm, h_mm = charuco.squares_x * charuco.square_mm, charuco.squares_y * charuco.square_mm
    label = (f"ChArUco board {charuco.squares_x}x{charuco.squares_y}: squares {charuco.square_mm:g} mm, "
             f"markers {charuco.marker_mm:g} mm (ArUco 4x4_50); print at actual size, glue flat")
    written += _write_sheet(out / "charuco", board, w_mm, h_mm, label, dpi)
    return written


def _write_sheet(stem: Path, img: np.ndarray, w_mm: float, h_mm: float, label: str, dpi: int) -> list[Path]:
    """PNG with the DPI recorded, and a PDF page with the image placed at exactly ``w_mm`` x ``h_mm``."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.units import mm
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    png = stem.with_suffix(".png")
    framed = cv2.copyMakeBorder(img, *([round(10 * dpi / 25.4)] * 4), cv2.BORDER_CONSTANT, value=255)
    ok, data = cv2.imencode(".png", framed)
    if not ok:
        raise OSError(f"could not encode {png}")
    png.write_bytes(_with_png_dpi(data.tobytes(), dpi))

    pdf = stem.with_suffix(".pdf")
    page = landscape(A4) if w_mm > h_mm else A4
    c = canvas.Canvas(str(pdf), pagesize=page, pageCompression=0)   # readable: the size can be checked
    x, y = (page[0] - w_mm * mm) / 2, (page[1] - h_mm * mm) / 2
    ok, raw = cv2.imencode(".png", img)
    from io import BytesIO
    c.drawImage(ImageReader(BytesIO(raw.tobytes())), x, y, width=w_mm * mm, height=h_mm * mm)
    c.setFont("Helvetica", 9)
    c.drawString(15 * mm, 10 * mm, label)
    c.drawString(15 * mm, 6 * mm, "Print at 100% (actual size) and check the size with a ruler.")
    c.showPage()
    c.save()
    return [png, pdf]


def _with_png_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk so image viewers and printers know the true size."""
    import struct
    import zlib
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature + IHDR length/type/data/crc
    return png[:ihdr_end] + chunk + png[ihdr_end:]
