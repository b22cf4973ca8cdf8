"""Photo-realistic still sets for the cases real photos here do not cover.

The real photo sets the product is judged on include an overhead USB webcam
(800 x 600 JPEG, white cards on a light grey or beige table, the card ~300 px
wide, any rotation) and a French deck (R/D/V indices, aces marked "1") shot
by a phone on a dark table and a green cloth. None of those photos may live
in the repository, so ``vision evaluate`` renders sets of the same kinds:
one card per picture, placed and turned at random, on the named cloth,
through the named camera:

- ``webcam``: 800 x 600, lens blur 1.2-1.8 px, vignetting (the corners a
  third darker), a lamp's gradient, a glare spot, sensor noise, JPEG at
  quality 70;
- ``phone``: 1600 x 1200, sharper, light noise, JPEG at quality 90, the
  camera tilted up to 20 degrees.

Real photos are always reported first; these rows say only that a failure
class seen on real photos is handled, not how often the product is right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import cv2
import numpy as np

from .render import Effects, SceneRenderer, TableScene, camera_view

#: (cloth, camera) of each set: the failure classes of the real photos.
SETS = {
    "webcam-light-grey": ("light-grey", "webcam"),
    "webcam-beige": ("beige", "webcam"),
    "webcam-white-on-white": ("white", "webcam"),
    "webcam-wood": ("wood", "webcam"),
    "phone-green": ("green", "phone"),
    "phone-dark": ("dark", "phone"),
}
#: Extra cloths (BGR) beside ``vision.render.CLOTHS``.
EXTRA_CLOTHS = {"light-grey": (196, 198, 200), "dark": (38, 36, 34)}
_CAMERAS = {"webcam": {"size": (800, 600), "card_px": 300, "blur": (1.2, 1.8), "noise": 4.0, "jpeg": 70,
                       "vignette": 0.33, "tilt": (0, 8)},
            "phone": {"size": (1600, 1200), "card_px": 420, "blur": (0.5, 0.9), "noise": 2.0, "jpeg": 90,
                      "vignette": 0.12, "tilt": (0, 20)}}


@dataclass(frozen=True)
class Shot:
    card: int
    image: np.ndarray
    corners: np.ndarray          # the card's true corners in the image


def shots(faces: dict[int, np.ndarray], name: str, seed: int) -> Iterator[Shot]:
    """One picture per card of ``faces`` for set ``name`` (see ``SETS``)."""
    cloth, camera = SETS[name]
    cam = _CAMERAS[camera]
    rng = np.random.default_rng(seed)
    w, h = cam["size"]
    # A table that more than fills the picture, at the card size the camera gives.
    px_per_mm = cam["card_px"] / 56.0
    side = 1.5 * max(w, h) / px_per_mm
    from . import render

    render.CLOTHS.update(EXTRA_CLOTHS)          # idempotent: the renderer looks cloths up by name
    for card in sorted(faces):
        tilt = float(rng.uniform(*cam["tilt"]))
        view = camera_view(side, side, (w, h), tilt, 0.0, fill=side * px_per_mm / h)
        scene = TableScene(side, side, {}, {}, view)
        effects = Effects(cloth=cloth, light=float(rng.uniform(0.2, 0.45)), glare=float(rng.uniform(20, 80)),
                          blur=float(rng.uniform(*cam["blur"])), noise=cam["noise"],
                          table_seed=int(rng.integers(1 << 30)))
        renderer = SceneRenderer({card: faces[card]}, scene, seed=int(rng.integers(1 << 30)), size=(w, h),
                                 effects=effects)
        angle = float(rng.uniform(0, 360))
        frame = _vignette(renderer.lone_card(card, angle), cam["vignette"])
        pose = (side / 2, side / 2, angle)
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, cam["jpeg"]])
        yield Shot(card, cv2.imdecode(jpeg, cv2.IMREAD_COLOR), renderer.card_corners(pose).astype(np.float32))


def _vignette(frame: np.ndarray, depth: float) -> np.ndarray:
    h, w = frame.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((x - w / 2) / (w / 2)) ** 2 + ((y - h / 2) / (h / 2)) ** 2
    gain = 1.0 - depth * np.clip(r2 / 2, 0, 1)
    return np.clip(frame.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)
