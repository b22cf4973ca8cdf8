"""The table's zones in table millimetres, and a picture of them over the camera view.

Zone names are the ones every part uses (``referee.observations.ZONES``). The
four play zones are the four triangles of the central square cut along its
diagonals: the cards of a trick overlap in the middle, and a card belongs to
the seat whose triangle holds its centre, so the zones tile the middle of the
table with no gap and no overlap. Hand areas run along each edge; the dealing
area and the two trick piles sit in the corners between seats.

Zones are saved as ``zones.json`` in the table profile, so a club can redraw
them for a different table without touching code.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from referee.observations import ZONES

from .table_plane import TableLayout, TableView

Zones = dict[str, np.ndarray]   # zone name -> Nx2 polygon in table mm

_COLOURS = {"play": (40, 200, 255), "hand": (255, 160, 40), "deal": (200, 80, 255), "pile": (80, 255, 120)}


def default_zones(layout: TableLayout = TableLayout()) -> Zones:
    """Zones for a square-ish table, scaled to its size."""
    w, h = layout.width_mm, layout.height_mm
    cx, cy = w / 2, h / 2
    r = 0.21 * min(w, h)                       # half side of the central square (~190 mm at 900)
    tl, tr, br, bl, c = (cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r), (cx, cy)
    zones = {"play:N": [tl, tr, c], "play:E": [tr, br, c], "play:S": [br, bl, c], "play:W": [bl, tl, c]}
    e = 0.14 * min(w, h)                       # depth of the hand strips
    a, b = 0.25, 0.75
    zones["hand:N"] = _rect(a * w, 0, b * w, e)
    zones["hand:E"] = _rect(w - e, a * h, w, b * h)
    zones["hand:S"] = _rect(a * w, h - e, b * w, h)
    zones["hand:W"] = _rect(0, a * h, e, b * h)
    p0, p1 = 0.09 * w, 0.09 * w + 0.17 * min(w, h)   # corner squares, clear of the markers
    zones["deal"] = _rect(p0, p0, p1, p1)                       # between N and W
    zones["pile:EW"] = _rect(w - p1, p0, w - p0, p1)            # between N and E
    zones["pile:NS"] = _rect(w - p1, h - p1, w - p0, h - p0)    # between S and E
    return {name: np.array(poly, np.float32) for name, poly in zones.items()}


def _rect(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def save_zones(path: Path, zones: Zones) -> None:
    data = {"version": 1, "units": "mm", "zones": {k: v.round(1).tolist() for k, v in zones.items()}}
    path.write_text(json.dumps(data, indent=1) + "\n")


def load_zones(path: Path) -> Zones:
    try:
        data = json.loads(path.read_text())
        zones = {str(k): np.array(v, np.float32).reshape(-1, 2) for k, v in data["zones"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a zones file ({exc}); rewrite it with "
                         f"`belote-table calibrate zones --profile DIR`") from exc
    unknown = sorted(set(zones) - set(ZONES))
    if unknown:
        raise ValueError(f"{path}: unknown zone name(s) {', '.join(unknown)}; use {' '.join(ZONES)}")
    return zones


def draw_zones(image: np.ndarray, view: TableView, zones: Zones, layout: TableLayout | None = None) -> np.ndarray:
    """The camera view with every zone outlined, tinted and labelled (the preview picture)."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    tint = out.copy()
    scale = max(1, round(out.shape[1] / 960))
    for name, poly in zones.items():
        colour = _COLOURS[name.split(":")[0]]
        pts = np.round(view.to_image(_densify(poly))).astype(np.int32)
        cv2.fillPoly(tint, [pts], colour)
        cv2.polylines(out, [pts], True, colour, 2 * scale, cv2.LINE_AA)
    out = cv2.addWeighted(tint, 0.25, out, 0.75, 0)
    if layout is not None:
        edge = np.round(view.to_image(_densify(layout.corners()))).astype(np.int32)
        cv2.polylines(out, [edge], True, (255, 255, 255), scale, cv2.LINE_AA)
    for name, poly in zones.items():
        x, y = view.to_image(poly.mean(axis=0, keepdims=True))[0]
        (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, 2 * scale)
        org = (int(x - tw / 2), int(y + th / 2))
        cv2.putText(out, name, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (0, 0, 0), 4 * scale, cv2.LINE_AA)
        cv2.putText(out, name, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (255, 255, 255), 2 * scale, cv2.LINE_AA)
    return out


def _densify(poly: np.ndarray, step_mm: float = 20.0) -> np.ndarray:
    """Points along a polygon's edges, so its outline stays right under any mapping."""
    pts = []
    for a, b in zip(poly, np.roll(poly, -1, axis=0)):
        n = max(1, int(np.linalg.norm(b - a) / step_mm))
        pts += [a + (b - a) * k / n for k in range(n)]
    return np.array(pts, np.float32)
