"""Frames from a camera, a video file, a network stream or a folder of images.

A referee needs *now*, not a backlog: if processing one frame takes longer
than the camera's frame interval, a plain read loop falls further and further
behind. So a live source is read in a thread that keeps only the newest frame;
``read()`` returns it with its timestamp and frame number, and frames that
nobody asked for are dropped (and counted). Files and folders are not live:
by default every frame is handed over in order (``live=False``), timed by the
file's frame rate, so a recorded game replays the same on any machine;
``live=True`` paces them at their own rate and drops like a camera would.

Sources: ``0`` (camera index), ``/dev/video2``, ``game.mp4``,
``rtsp://...``/``http://...`` (anything FFmpeg opens), or a directory of
``.jpg``/``.png`` images taken in name order.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


class CaptureError(OSError):
    """A source that cannot be opened or read; the message says what to check."""


@dataclass(frozen=True)
class Frame:
    index: int          # frame number from the source (gaps = frames dropped)
    t: float            # seconds: source time for files, monotonic clock for live sources
    image: np.ndarray


def _is_live(source: str) -> bool:
    return source.isdigit() or source.startswith(("/dev/", "rtsp://", "http://", "https://", "udp://", "tcp://"))


class Capture:
    """``with Capture("0") as cap: for frame in cap: ...`` (or ``cap.read()``)."""

    def __init__(self, source: str | int, live: Optional[bool] = None, fps: float = 0.0):
        self.source = str(source)
        path = Path(self.source)
        self.folder = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) \
            if path.is_dir() else None
        if self.folder is not None and not self.folder:
            raise CaptureError(f"{self.source}: the folder holds no .jpg/.png images")
        self.live = _is_live(self.source) if live is None else live
        self.cap = None
        if self.folder is None:
            if not _is_live(self.source) and not path.exists():
                raise CaptureError(f"{self.source}: no such file, folder or camera; give a camera index (0), "
                                   f"a video file, a folder of images or an rtsp:// / http:// address")
            self.cap = cv2.VideoCapture(int(self.source) if self.source.isdigit() else self.source)
            if not self.cap.isOpened():
                raise CaptureError(f"{self.source}: cannot be opened (camera busy or absent, unsupported video, "
                                   f"unreachable stream): check it plays with another program")
        self.fps = fps or (self.cap.get(cv2.CAP_PROP_FPS) if self.cap is not None else 0.0) or 30.0
        self.dropped = 0
        self._next = 0
        self._latest: Optional[Frame] = None
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._ended = False
        self._thread: Optional[threading.Thread] = None
        if self.live:
            self._thread = threading.Thread(target=self._pump, name=f"capture {self.source}", daemon=True)
            self._thread.start()

    # -- reading -----------------------------------------------------------------------------
    def _grab(self) -> Optional[np.ndarray]:
        if self.folder is not None:
            if self._next >= len(self.folder):
                return None
            image = cv2.imread(str(self.folder[self._next]), cv2.IMREAD_COLOR)
            if image is None:
                raise CaptureError(f"{self.folder[self._next]}: not a readable image")
            return image
        ok, image = self.cap.read()
        return image if ok else None

    def _pump(self) -> None:
        """Live sources: keep only the newest frame; pace files at their own rate."""
        start = time.monotonic()
        while not self._stop.is_set():
            image = self._grab()
            if image is None:
                break
            now = time.monotonic()
            frame = Frame(self._next, now, image)
            self._next += 1
            with self._cond:
                if self._latest is not None:
                    self.dropped += 1
                self._latest = frame
                self._cond.notify_all()
            if self.folder is not None or not _is_live(self.source):   # a file played "live"
                delay = start + self._next / self.fps - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
        with self._cond:
            self._ended = True
            self._cond.notify_all()

    def read(self, timeout: float = 5.0) -> Optional[Frame]:
        """The next frame (live: the newest one not yet handed over), or None at the end."""
        if not self.live:
            image = self._grab()
            if image is None:
                return None
            frame = Frame(self._next, self._next / self.fps, image)
            self._next += 1
            return frame
        with self._cond:
            if not self._cond.wait_for(lambda: self._latest is not None or self._ended, timeout):
                raise CaptureError(f"{self.source}: no frame for {timeout:g} s (camera unplugged? stream down?)")
            frame, self._latest = self._latest, None
            return frame

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.cap is not None:
            self.cap.release()

    def __enter__(self) -> "Capture":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def first_still_frame(source: str, frames: int = 10, warm_up: float = 1.0) -> np.ndarray:
    """A frame for calibration: the median of the first few frames, which removes
    sensor noise and a hand passing briefly. A live camera is given ``warm_up``
    seconds first: webcams start dark while their exposure settles."""
    with Capture(source) as cap:
        if cap.live:
            start = time.monotonic()
            while time.monotonic() - start < warm_up and cap.read() is not None:
                pass
        images = [f.image for _, f in zip(range(frames), cap)]
    if not images:
        raise CaptureError(f"{source}: gave no frame")
    return np.median(np.stack(images), axis=0).astype(np.uint8) if len(images) > 2 else images[0]
