"""Rendered photo sets that copy how the product owner measures, for the photos we never see.

The product is judged on real photo sets kept outside the repository, by two
protocols (issue 11):

- ``webcam``: an overhead USB webcam, 800 x 600 JPEG, one card per photo,
  white cards on a light grey or beige table, the card about 300 px, every
  rotation; 32 cards x 20 shots. The deck is enrolled from ONE shot per card
  (the next shot where ``calibrate deck`` refuses one) and every other
  photo is read.
- ``french``: a French club deck (R/D/V indices, aces "1"), phone photos on
  a dark table and a green cloth, 2-9 cards per photo, some in overlapping
  trick heaps or fans where only index corners show; enrolled from
  single-card phone photos on the dark table.

These sets render the same protocols (``vision.still_render``: real card
faces, the table, the camera's optics) so a method is measured the way it
will be judged. Each shot is drawn from its own seed, (set, half, card, shot),
so any shot can be made again alone, and the *tune* and *report* halves are
different photos of the same protocol. Real photos always come first in
every table; these rows say how the protocol goes on photos like the hidden
ones, not what the hidden figure is.

Face sources (``deck_faces``): ``bidly``'s 32 face scans (a real standard
deck), faces cut from ``cardcounter_real``'s photos (a real classic deck,
photographed), and the project's drawn deck with French indices.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import cv2
import numpy as np

from .faces import builtin_faces, dataset_card, photo_faces
from .still_render import CARD_ASPECT, PHONE, WEBCAM, Camera, Layout, Placed, card_corners, render_photo, \
    tilt_homography

#: The protocols' sets: (protocol, table of the photos read).
SETS = {
    "webcam-light-grey": ("webcam", "light-grey"),
    "webcam-beige": ("webcam", "beige"),
    "webcam-white": ("webcam", "white"),
    "french-dark": ("french", "dark"),
    "french-green": ("french", "green"),
}
#: Where the French protocol's deck is enrolled: single cards on the dark table.
FRENCH_ENROL_TABLE = "dark"
#: The card's width in px: a webcam's "about 300 px" (its long side 280-400
#: px), a phone photo of several cards.
_WEBCAM_WIDTH = (180, 260)
_PHONE_WIDTH = (140, 230)
#: Shots offered per card at enrolment before the card is given up.
ENROL_TRIES = 6


@dataclass(frozen=True)
class Shot:
    image: np.ndarray
    cards: list[Placed]


def _rng(*key) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def single_shot(faces: dict[int, np.ndarray], card: int, table: str, camera: Camera, key: tuple) -> Shot:
    """One card alone, anywhere in view (whole, at least 6 px from the edge), at any angle."""
    rng = _rng(*key)
    w, h = camera.size
    tilt = tilt_homography((w, h), float(rng.uniform(*camera.tilt)), float(rng.uniform(0, 360)))
    width_range = _WEBCAM_WIDTH if camera is WEBCAM else (220, 330)
    for _ in range(200):
        item = Layout(card, float(rng.uniform(0, w)), float(rng.uniform(0, h)), float(rng.uniform(*width_range)),
                      float(rng.uniform(0, 360)))
        c = card_corners(item, tilt)
        if c[:, 0].min() > 6 and c[:, 1].min() > 6 and c[:, 0].max() < w - 7 and c[:, 1].max() < h - 7:
            break
    image, placed = render_photo(faces, [item], table, camera, tilt, rng)
    return Shot(image, placed)


def webcam_shot(faces: dict[int, np.ndarray], card: int, table: str, half: str, k: int) -> Shot:
    """Shot ``k`` of ``card`` in the webcam protocol (shot 0 is the one enrolment tries first)."""
    return single_shot(faces, card, table, WEBCAM, ("webcam", table, half, card, k))


def enrolment_shot(faces: dict[int, np.ndarray], card: int, protocol: str, half: str, k: int) -> Shot:
    """Shot ``k`` of ``card`` offered to ``calibrate deck`` in ``protocol``."""
    if protocol == "webcam":
        raise ValueError("the webcam protocol enrols from its own shots: use webcam_shot")
    return single_shot(faces, card, FRENCH_ENROL_TABLE, PHONE, ("enrol", protocol, half, card, k))


def french_photo(faces: dict[int, np.ndarray], table: str, half: str, k: int) -> Shot:
    """Photo ``k`` of the French protocol: 2-9 cards, scattered, in a trick heap or a fan."""
    rng = _rng("french", table, half, k)
    w, h = PHONE.size
    tilt = tilt_homography((w, h), float(rng.uniform(*PHONE.tilt)), float(rng.uniform(0, 360)))
    n = int(rng.integers(2, 10))
    cards = [int(c) for c in rng.choice(sorted(faces), size=min(n, len(faces)), replace=False)]
    width = float(rng.uniform(*_PHONE_WIDTH))
    mode = rng.choice(["scattered", "heap", "fan"], p=[0.4, 0.3, 0.3])
    layout: list[Layout] = []
    rest = cards
    if mode == "heap" and len(cards) >= 2:
        k_heap = min(len(cards), int(rng.integers(2, 5)))
        layout += _heap(cards[:k_heap], width, rng, (w, h))
        rest = cards[k_heap:]
    elif mode == "fan" and len(cards) >= 3:
        k_fan = min(len(cards), int(rng.integers(3, 9)))
        layout += _fan(cards[:k_fan], width, rng, (w, h))
        rest = cards[k_fan:]
    layout = _scatter(rest, width, rng, (w, h), tilt, layout) + layout
    image, placed = render_photo(faces, layout, table, PHONE, tilt, rng)
    return Shot(image, placed)


def _heap(cards: list[int], width: float, rng: np.random.Generator, size) -> list[Layout]:
    """A trick: each card pushed from the middle towards its player's seat, turned to face it."""
    cx, cy = rng.uniform(0.35, 0.65) * size[0], rng.uniform(0.35, 0.65) * size[1]
    turn = rng.uniform(0, 360)
    out = []
    for i, card in enumerate(cards):
        seat = math.radians(turn + 90 * i)
        reach = rng.uniform(0.25, 0.5) * width
        out.append(Layout(card, cx + reach * math.sin(seat), cy - reach * math.cos(seat), width,
                          math.degrees(seat) + rng.normal(0, 12)))
    return out


def _fan(cards: list[int], width: float, rng: np.random.Generator, size) -> list[Layout]:
    """A hand fanned about a point near the cards' bottom, each card on top of the one before."""
    px, py = rng.uniform(0.3, 0.7) * size[0], rng.uniform(0.4, 0.7) * size[1]
    step = rng.uniform(9, 18)
    base = rng.uniform(0, 360) - step * (len(cards) - 1) / 2
    radius = 0.42 * width * CARD_ASPECT
    out = []
    for i, card in enumerate(cards):
        a = math.radians(base + step * i)
        out.append(Layout(card, px + radius * math.sin(a), py - radius * math.cos(a), width, math.degrees(a)))
    return out


def _scatter(cards: list[int], width: float, rng: np.random.Generator, size, tilt: np.ndarray,
             taken: list[Layout]) -> list[Layout]:
    """Cards lying apart from each other and from ``taken``, whole in view."""
    w, h = size
    placed = [card_corners(t, tilt) for t in taken]
    out = []
    for card in cards:
        for _ in range(300):
            item = Layout(card, float(rng.uniform(0, w)), float(rng.uniform(0, h)), width, float(rng.uniform(0, 360)))
            c = card_corners(item, tilt)
            if c[:, 0].min() < 8 or c[:, 1].min() < 8 or c[:, 0].max() > w - 9 or c[:, 1].max() > h - 9:
                continue
            if all(cv2.intersectConvexConvex(c, p)[0] < 1.0 for p in placed):
                placed.append(c)
                out.append(item)
                break
    return out


# -- the decks the sets are rendered with -------------------------------------------------------

DECKS = ("bidly-scans", "cardcounter-cut", "drawn-french")


def deck_faces(name: str, datasets: Path) -> dict[int, np.ndarray]:
    """The faces of one face source (see module doc), card -> BGR face."""
    if name == "drawn-french":
        return builtin_faces(french=True)
    if name == "bidly-scans":
        folder = datasets / "bidly_deals" / "faces"
        out = {}
        for p in sorted(folder.glob("*.jpg")):
            card = dataset_card(p.stem.upper())
            if card is not None:
                out[card] = cv2.imread(str(p))
        return out
    if name == "cardcounter-cut":
        return {c: fs[0] for c, fs in photo_faces(datasets / "cardcounter_real", per_card=1).items()}
    raise ValueError(f"unknown deck {name!r}: one of {', '.join(DECKS)}")


def shots_of_set(name: str, faces: dict[int, np.ndarray], half: str, count: int,
                 skip: Optional[dict[int, int]] = None) -> Iterator[tuple[str, Shot]]:
    """The photos read in set ``name``: for the webcam protocol ``count``
    shots per card (shot ``skip[card]``, the enrolled one, left out); for the
    French protocol ``count`` photos of several cards."""
    protocol, table = SETS[name]
    if protocol == "webcam":
        for k in range(count):
            for card in sorted(faces):
                if skip is None or skip.get(card) != k:
                    yield f"{name}/{half}/{k}", webcam_shot(faces, card, table, half, k)
    else:
        for k in range(count):
            yield f"{name}/{half}/{k}", french_photo(faces, table, half, k)
