"""The pictures ``vision evaluate`` writes: what a person looks at first.

``confusion_png``: a 32 x 33 confusion matrix (rows truth, columns read,
last column abstained). ``reliability_png``: for the reads of a set, how
often a read at each confidence was right (bars), with how many reads fell
in each bin: a calibrated reader's bars stand at or above the diagonal.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from referee.cards import CARD_NAMES

#: Confidence bins of the reliability plot (a read is at least 0.8).
BINS = (0.8, 0.85, 0.9, 0.95, 0.99, 1.0001)


def confusion_png(tally, path: Path, title: str, attribution: str = "") -> Path:
    """A 32x33 confusion matrix (last column: abstained) as a picture."""
    names = list(CARD_NAMES)
    cols = names + ["?"]
    cell, left, top = 18, 40, 70
    img = np.full((top + cell * len(names) + 40, left + cell * len(cols) + 10, 3), 255, np.uint8)
    rows_total = Counter()
    for (t, _), n in tally.confusion.items():
        rows_total[t] += n
    for i, t in enumerate(names):
        cv2.putText(img, t, (4, top + i * cell + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 1)
        for j, r in enumerate(cols):
            n = tally.confusion.get((t, r), 0)
            x, y = left + j * cell, top + i * cell
            if n:
                share = n / max(rows_total[t], 1)
                colour = (0, int(200 * (1 - share)), 0) if r == t else \
                    ((0, 160, 255) if r == "?" else (0, 0, int(155 + 100 * share)))
                cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
                cv2.putText(img, str(n), (x + 2, y + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (255, 255, 255), 1)
            cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), (220, 220, 220), 1)
    for j, r in enumerate(cols):
        cv2.putText(img, r, (left + j * cell + 1, top - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (0, 0, 0), 1)
    s = tally.summary()
    cv2.putText(img, f"{title}: {s['count']} reads, right {s['right_pct']}%, wrong {s['wrong_pct']}%, "
                     f"abstained {s['abstain_pct']}%  (rows: truth, columns: read, ?: abstained)",
                (4, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
    cv2.putText(img, attribution[:110], (4, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (80, 80, 80), 1)
    cv2.putText(img, attribution[110:], (4, 54), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (80, 80, 80), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)
    return path


def reliability_png(reads: list[tuple[float, bool]], path: Path, title: str) -> Path:
    """``reads``: (confidence, right) of every card read (abstentions left
    out). One bar per confidence bin: the share right, and the count."""
    w, h, left, bottom, top = 520, 320, 50, 40, 40
    img = np.full((h, w, 3), 255, np.uint8)
    plot_w, plot_h = w - left - 20, h - top - bottom
    cv2.rectangle(img, (left, top), (left + plot_w, top + plot_h), (0, 0, 0), 1)
    n_bins = len(BINS) - 1
    for i in range(n_bins):
        lo, hi = BINS[i], BINS[i + 1]
        inside = [right for conf, right in reads if lo <= conf < hi]
        x0 = left + int(i * plot_w / n_bins) + 4
        x1 = left + int((i + 1) * plot_w / n_bins) - 4
        if inside:
            share = sum(inside) / len(inside)
            y = top + int((1 - share) * plot_h)
            colour = (60, 160, 60) if share == 1.0 else (40, 40, 200)
            cv2.rectangle(img, (x0, y), (x1, top + plot_h), colour, -1)
            cv2.putText(img, f"{100 * share:.1f}%", (x0, max(top + 12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.38,
                        (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(img, f"n={len(inside)}", (x0, top + plot_h - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 255, 255)
                    if inside else (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(img, f"{lo:.2f}-{min(hi, 1.0):.2f}", (x0, top + plot_h + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                    (0, 0, 0), 1, cv2.LINE_AA)
    for frac in (0.0, 0.5, 0.9, 1.0):
        y = top + int((1 - frac) * plot_h)
        cv2.putText(img, f"{int(100 * frac)}%", (8, y + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, f"{title}: share right by confidence ({len(reads)} reads)", (8, 22), cv2.FONT_HERSHEY_SIMPLEX,
                0.42, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, "confidence of the read", (left + plot_w // 2 - 70, h - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.38,
                (0, 0, 0), 1, cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)
    return path
