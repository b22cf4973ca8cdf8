"""What tells this deck's cards apart, learnt at enrolment.

Cross-correlation (``vision.read``) weighs every pixel of a corner or a body
alike, so two cards that share almost everything (the 9 of spades and the 9
of clubs: same index glyph, same pip layout, pips of one colour) score nearly
the same, and which one wins is decided by noise. A linear discriminant
weighs instead what *differs* between the cards of this deck and *survives*
the changes a camera brings (another lamp, a quad a few pixels off, blur,
grain, a card seen at 50 px wide or in grey): it is fitted on perturbed
copies of the enrolled faces, so it learns, for instance, that the lobes of
a club's pips matter and the paper around them does not.

The face is described by histograms of gradient orientations (cells of the
whole card, and finer cells of the two index corners, summed so either way
up gives the same index part): shape, not brightness, which is what another
photo of the same card keeps. The discriminant is the classic one of Fisher
with a shared, shrunk covariance (one solve with a ~2000 x 2000 matrix), so
fitting takes a few seconds at enrolment and a reading is one matrix-vector
product. It is saved beside the faces (``DECK/discriminant.npz``); a deck
without it (older, or built in memory) fits it when first read.

Used as one of the reader's two cues (see ``vision.read.decide``), never on
its own: on photos unlike the enrolment shot it is confidently wrong more
often than the correlation of the indices, and the two agree when the card
is clear.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import cv2
import numpy as np

FILE = "discriminant.npz"
#: Bumped when the features change: a saved discriminant of another version is refitted.
FEATURE_VERSION = 2
_BINS = 8
#: Whole card: resampled to 96 x 144, cells of 8 x 8 px (a pip spans about
#: two cells, so a heart's notch and a diamond's point fall in different bins).
_BODY_SIZE, _BODY_CELLS = (96, 144), (12, 18)
#: Index corners: the top-left 30 % x 30 % of the face at 160 x 240 (48 x 72 px), cells of 8 x 8.
_INDEX_FACE, _INDEX_BOX, _INDEX_CELLS = (160, 240), (48, 72), (6, 9)
#: Perturbed copies per enrolled face, and the share of the pooled covariance
#: replaced by its mean variance (about as many copies as features: the
#: covariance needs shrinking to be inverted at all). Measured on the
#: evaluation's overhead and real photos: 40 copies read 98 % of the overhead
#: shots right on its own, 20 copies 88-98 % depending on the draw.
COPIES = 40
SHRINK = 0.3


def gradient_histograms(gray: np.ndarray, cells: tuple[int, int]) -> np.ndarray:
    """Per cell, how much edge runs in each of ``_BINS`` orientations (sign
    ignored: dark-on-light and light-on-dark alike), square-rooted and
    normalised per cell so a faint print counts as much as a bold one."""
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy)
    position = (angle % np.pi) * (_BINS / np.pi)
    low = np.floor(position)
    upper_share = position - low
    low = low.astype(np.int32) % _BINS
    high = (low + 1) % _BINS
    planes = []
    for b in range(_BINS):
        weight = np.where(low == b, 1.0 - upper_share, 0.0) + np.where(high == b, upper_share, 0.0)
        planes.append(cv2.resize(magnitude * weight.astype(np.float32), cells, interpolation=cv2.INTER_AREA))
    hist = np.sqrt(np.stack(planes, axis=-1))
    floor = 1e-3 * np.linalg.norm(hist) / np.sqrt(cells[0] * cells[1]) + 1e-6
    hist /= np.linalg.norm(hist, axis=-1, keepdims=True) + floor
    return hist.ravel()


def features(face_bgr: np.ndarray) -> np.ndarray:
    """The feature vector of a rectified face (any size, portrait)."""
    gray = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2GRAY)
    body = gradient_histograms(cv2.resize(gray, _BODY_SIZE, interpolation=cv2.INTER_AREA), _BODY_CELLS)
    big = cv2.resize(gray, _INDEX_FACE, interpolation=cv2.INTER_AREA)
    w, h = _INDEX_BOX
    index = sum(gradient_histograms(view[:h, :w], _INDEX_CELLS) for view in (big, cv2.rotate(big, cv2.ROTATE_180)))
    return np.concatenate([body, index]).astype(np.float32)


def upside_down(feature: np.ndarray) -> np.ndarray:
    """The features of the face turned half round, from its own: the body's
    cells in reverse order (an edge keeps its orientation, sign being
    ignored), the two index corners' sum unchanged. Half the cost of
    describing the turned face again, and the same numbers."""
    cells = _BODY_CELLS[0] * _BODY_CELLS[1] * _BINS
    body = feature[:cells].reshape(_BODY_CELLS[1], _BODY_CELLS[0], _BINS)[::-1, ::-1]
    return np.concatenate([body.ravel(), feature[cells:]])


def perturb(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A plausible other shot of the same face: the quad a few pixels off,
    softer focus, other light, sensor noise, sometimes glare on a corner."""
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    dst = (src + rng.uniform(-0.03, 0.03, (4, 2)) * [w, h]).astype(np.float32)
    out = cv2.warpPerspective(face, cv2.getPerspectiveTransform(src, dst), (w, h),
                              borderMode=cv2.BORDER_REPLICATE)
    sigma = rng.uniform(0.0, 1.5)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    gain = (rng.uniform(0.7, 1.2, 3) * rng.uniform(0.8, 1.1)).astype(np.float32)
    out = out.astype(np.float32) * gain
    noise = np.empty_like(out)
    cv2.randn(noise, 0.0, 4.0)
    out += noise
    if rng.random() < 0.3:
        cx, cy = (w * 0.12, h * 0.15) if rng.random() < 0.5 else (w * 0.88, h * 0.85)
        xx = ((np.arange(w, dtype=np.float32) - cx) / (0.12 * w)) ** 2
        yy = ((np.arange(h, dtype=np.float32) - cy) / (0.1 * h)) ** 2
        out += (200 * np.exp(-(yy[:, None] + xx[None, :])))[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def camera_copy(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``perturb``, then what another camera or photo changes: the light
    falling off across the card, another gamma, the card seen at 45-130 px
    wide (a table camera's card, or a phone's), and sometimes in grey with
    any mix of the colour channels (a red pip comes out light grey from one
    camera and near black from another)."""
    out = perturb(face, rng)
    h, w = out.shape[:2]
    ramp = np.linspace(0.0, 1.0, w, dtype=np.float32)[None, :] * np.cos(rng.uniform(0, 2 * np.pi)) + \
        np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None] * np.sin(rng.uniform(0, 2 * np.pi))
    ramp -= ramp.min()
    light = 1.0 - rng.uniform(0.0, 0.35) * ramp / max(float(ramp.max()), 1e-6)
    lut = (255.0 * (np.arange(256) / 255.0) ** rng.uniform(0.6, 1.6)).astype(np.float32)
    out = np.clip(lut[out] * light[..., None], 0, 255).astype(np.uint8)
    width = int(rng.uniform(45, 130))
    small = cv2.resize(out, (width, int(width * h / w)), interpolation=cv2.INTER_AREA)
    out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        mix = rng.dirichlet((1.0, 1.0, 1.0)).astype(np.float32)
        gray = np.clip(out.astype(np.float32) @ mix, 0, 255).astype(np.uint8)
        out = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    return out


class Discriminant:
    """Fisher's linear discriminant over the deck's cards: ``scores(face)``
    is one number per card (aligned with ``cards``), higher for the card the
    face most likely is; differences between two cards' scores are what count."""

    def __init__(self, cards: list[int], weights: np.ndarray, bias: np.ndarray):
        self.cards = list(cards)
        self.weights = weights.astype(np.float32)
        self.bias = bias.astype(np.float32)

    @classmethod
    def fit(cls, faces: dict[int, list[np.ndarray]], seed: int = 0, copies: int = COPIES) -> "Discriminant":
        """Fit on the enrolled faces, each either way up and ``copies`` perturbed copies."""
        rng = np.random.default_rng(seed)
        cards = sorted(faces)
        rows, labels = [], []
        for i, card in enumerate(cards):
            for face in faces[card]:
                face = cv2.resize(face, _INDEX_FACE, interpolation=cv2.INTER_AREA)   # all the features need
                shots = [face, cv2.rotate(face, cv2.ROTATE_180)]
                for _ in range(copies):
                    copy = camera_copy(face, rng)
                    shots.append(cv2.rotate(copy, cv2.ROTATE_180) if rng.random() < 0.5 else copy)
                rows += [features(shot) for shot in shots]
                labels += [i] * len(shots)
        x = np.array(rows, np.float64)
        y = np.array(labels)
        means = np.array([x[y == i].mean(axis=0) for i in range(len(cards))])
        spread = x - means[y]
        covariance = spread.T @ spread / len(x)
        d = covariance.shape[0]
        covariance = (1 - SHRINK) * covariance + SHRINK * np.trace(covariance) / d * np.eye(d)
        weights = np.linalg.solve(covariance, means.T).T          # one row per card
        bias = -0.5 * np.einsum("ij,ij->i", weights, means)
        return cls(cards, weights, bias)

    def scores(self, face_bgr: np.ndarray) -> np.ndarray:
        """Per card, for a face read either way up (the better of the two)."""
        seen = features(face_bgr)
        both = np.stack([seen, upside_down(seen)])
        return (both @ self.weights.T + self.bias).max(axis=0)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, version=FEATURE_VERSION, cards=np.array(self.cards), weights=self.weights,
                            bias=self.bias)

    @classmethod
    def load(cls, path: Path, cards: list[int]) -> Optional["Discriminant"]:
        """The saved discriminant, or None when it is missing, damaged, of
        another feature version or for other cards (then it is refitted)."""
        try:
            with np.load(path) as data:
                if int(data["version"]) != FEATURE_VERSION or list(data["cards"]) != list(cards):
                    return None
                return cls([int(c) for c in data["cards"]], data["weights"], data["bias"])
        except (OSError, KeyError, ValueError):
            return None
