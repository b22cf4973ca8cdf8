"""A linear second opinion on an index's rank glyph and suit pip (``vision.corner_read``).

Why: the corner reader names a rank by its best example's correlation and
asks it to be clearly nearer than the next rank's (Lowe's ratio). In a
tight fan, at 8 px glyphs, blur brings every rank's best example near, and
a perfectly legible 9 or K is refused (bidly's deals 1-3: 9/8 at 0.66, K
under 0.8). A discriminative model weighs the pixels that tell the ranks
apart rather than every pixel alike: one ridge-regression classifier, one
versus the rest, over the same synthetic examples the correlation uses,
with a class of its own for the "no index" marks (pips of a face's middle,
parts of a court picture). That class is what keeps a rank the deck lacks
out: on deals 1-3 it took 51 of the 74 frames on the 52-card pack's 2-6 for
"no index", and named the others' ranks by margins of at most 0.43 (the
correlation names most of them an 8, not clearly).

It never reads alone: ``corner_read`` asks it only about a glyph or pip the
correlation refused for its lead, and takes its word only when it names
the correlation's own best by a clear margin (``MARGIN``); the read then
comes at the reader's lowest confidence.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

#: Ridge regularisation (the examples are unit rows of 450-1000 values).
_RIDGE = 1.0


def fit(rows: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """Weights (dims + 1) x classes of the one-versus-rest ridge classifier
    of ``rows`` (N x dims) labelled 0..classes-1, targets +1 / -1."""
    if not len(rows):
        return np.zeros((rows.shape[1] + 1, classes), np.float32)
    targets = -np.ones((len(rows), classes), np.float64)
    targets[np.arange(len(rows)), labels] = 1.0
    x = np.hstack([rows.astype(np.float64), np.ones((len(rows), 1))])
    w = np.linalg.solve(x.T @ x + _RIDGE * np.eye(x.shape[1]), x.T @ targets)
    return w.astype(np.float32)


def best(weights: np.ndarray, row: np.ndarray) -> tuple[Optional[int], float]:
    """(the class with the highest score, its lead over the next); (None, 0)
    for a model that learnt nothing."""
    if not weights.any():
        return None, 0.0
    scores = np.append(row, 1.0).astype(np.float32) @ weights
    order = np.argsort(-scores)
    return int(order[0]), float(scores[order[0]] - scores[order[1]])
