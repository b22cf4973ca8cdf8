"""Is anything moving, and has the table changed since it was last still? Cheaply, every frame.

Most frames of a card game show nothing new: players think. The idle check
must cost almost nothing, so it looks at a thumbnail: the frame shrunk 8x by
area averaging (which also averages sensor noise away), compared with
the previous thumbnail (motion) and with the thumbnail of the last still scene
(change). Only when the scene has been quiet for ``settle`` frames *and*
differs from the last still scene does the expensive work (locating and
reading cards) start. A hand passing over the table is motion; when it is gone
and the thumbnail matches the last still scene again, nothing happened.

Counting changed thumbnail pixels (not summing differences) makes the test
independent of how bright the table is: a card on a dark cloth and one on a
beige cloth both flip a card's worth of pixels.

A card comes to rest while the hand that put it down is still withdrawing.
The watcher keeps, per thumbnail pixel, how many frames it has been calm, so
it can say that part of the change has *settled* away from what still moves
(``Look.settled_px``, ``busy``): the card can be read before the arm is gone.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Thumbnail shrink factor: 1080p -> 240x135.
SHRINK = 8


@dataclass(frozen=True)
class Look:
    """What the watcher saw in one frame."""

    moving: bool        # the frame differs from the previous one
    quiet: int          # consecutive frames without motion (0 while moving)
    changed: bool       # the frame differs from the last still scene
    motion_px: int      # changed thumbnail pixels against the previous frame
    change_px: int      # changed thumbnail pixels against the last still scene
    settled_px: int = 0  # while moving: changed pixels calm for 2 frames, away from the motion


class Watcher:
    """Feed every frame to ``look``; call ``accept`` when the caller has taken the
    current scene as the new still reference."""

    def __init__(self, threshold: int = 14, min_pixels: int = 6):
        self.threshold = threshold          # grey-level step that counts as a change, per thumbnail pixel
        self.min_pixels = min_pixels        # changed thumbnail pixels that count as motion/change
        self.prev: np.ndarray | None = None
        self.still: np.ndarray | None = None
        self.quiet = 0
        self.calm: np.ndarray | None = None      # per pixel: frames since it last moved (saturates at 255)
        self.busy: np.ndarray | None = None      # where things move now, with a margin (255)
        self._margin = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))

    def thumbnail(self, frame: np.ndarray) -> np.ndarray:
        # Two steps: a bilinear halving-twice (each output pixel blends 2x2 input pixels, no
        # full pass over the frame) then area averaging 2x2: 16 pixels averaged, at a sixth
        # of the cost of area-averaging the whole 1080p frame (0.6 ms instead of 3.8).
        h, w = frame.shape[:2]
        half = cv2.resize(frame, (w * 2 // SHRINK, h * 2 // SHRINK), interpolation=cv2.INTER_LINEAR)
        small = cv2.resize(half, (w // SHRINK, h // SHRINK), interpolation=cv2.INTER_AREA)
        return small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)

    def _mask(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return cv2.threshold(cv2.absdiff(a, b), self.threshold, 255, cv2.THRESH_BINARY)[1]

    def look(self, frame: np.ndarray) -> Look:
        small = self.thumbnail(frame)
        if self.prev is None or self.prev.shape != small.shape:
            self.prev, self.still, self.quiet = small, small, 0
            self.calm, self.busy = np.zeros_like(small), np.zeros_like(small)
            return Look(False, 0, False, 0, 0)     # the first scene is the reference
        moved = self._mask(small, self.prev)
        motion = cv2.countNonZero(moved)
        self.prev = small
        self.calm = cv2.add(self.calm, 1)
        self.calm[moved > 0] = 0
        moving = motion >= self.min_pixels
        self.quiet = 0 if moving else self.quiet + 1
        if not moving:
            self.busy[:] = 0
            change = cv2.countNonZero(self._mask(small, self.still))
            return Look(False, self.quiet, change >= self.min_pixels, motion, change)
        self.busy = cv2.dilate(moved, self._margin, iterations=3)   # the hand, and its shadow
        settled = cv2.bitwise_and(self._mask(small, self.still), cv2.compare(self.calm, 2, cv2.CMP_GE))
        settled = cv2.countNonZero(cv2.bitwise_and(settled, cv2.bitwise_not(self.busy)))
        return Look(True, 0, False, motion, 0, settled)

    def accept(self, thumbnail: np.ndarray | None = None, only: np.ndarray | None = None) -> None:
        """The current scene (the last frame looked at), or the scene of ``thumbnail``,
        is the new still reference; only where ``only`` is set, if given (the rest
        of the scene was still moving)."""
        new = self.prev if thumbnail is None else thumbnail
        if only is None:
            self.still = new
        else:
            self.still = self.still.copy()
            self.still[only > 0] = new[only > 0]
