"""How much two convex quads (cards, places, index boxes) overlap.

Two measures, for two questions: ``iou`` (intersection over union) asks
whether two quads are the same card seen twice; ``share`` (intersection over
the smaller) whether one lies mostly on the other, whatever their sizes (a
keypoint place on an outline, an index box on another).
"""

from __future__ import annotations

import cv2
import numpy as np


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (0 when both are empty)."""
    a, b = _quad(a), _quad(b)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of the smaller of two convex quads that the other covers."""
    a, b = _quad(a), _quad(b)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter / max(min(cv2.contourArea(a), cv2.contourArea(b)), 1e-6))


def _quad(q: np.ndarray) -> np.ndarray:
    return np.asarray(q, np.float32).reshape(-1, 2)
