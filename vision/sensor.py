"""The camera as a sensor (``referee.sensors``): frames from
:class:`vision.capture.Capture` through the :class:`vision.pipeline.Pipeline`,
observations out, health for the console.

A referee needs *now*, not a backlog, so a live camera is read through
``Capture``'s newest-frame-only thread: when reading a card takes longer than
a frame, the frames in between are dropped (and counted), never queued. A
camera that stops answering (unplugged, stream down) is reported ``lost`` and
reopened every ``reopen_s`` seconds until it answers again; a recorded source
that plays to its end is reported ``ended``.

The observations carry the capture's clock; the table stamps them with its
own when they arrive.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable, Optional

from referee.cards import card_name
from referee.observations import CardSeen, Observation, SensorState
from referee.sensors import SensorHealth

from .capture import Capture, CaptureError
from .pipeline import FrameSizeError, Pipeline

#: Frames over which the frame rate shown on the console is measured.
RATE_WINDOW = 30


class CameraSensor:
    """``stop = CameraSensor(pipeline, "0").start(on_observation)``.

    ``source`` is anything :class:`~vision.capture.Capture` opens (a camera
    index, ``/dev/video2``, an ``rtsp://`` address, a video file or a folder,
    played at its own pace like a camera); ``open_source`` replaces
    ``Capture`` with any object that has ``read()`` (the newest
    :class:`~vision.capture.Frame`, or None at the end), ``dropped`` and
    ``close()``: the demo films its rendered table that way.
    """

    name = "camera"

    def __init__(self, pipeline: Pipeline, source: str = "", *, reopen_s: float = 2.0,
                 open_source: Optional[Callable[[], object]] = None):
        self.pipeline = pipeline
        self.source = source
        self.reopen_s = reopen_s
        self.open_source = open_source or (lambda: Capture(source, live=True))
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._lock = threading.Lock()
        self._state, self._detail, self._last = "starting", f"opening camera {source}", None
        self._times: deque = deque(maxlen=RATE_WINDOW)
        self._dropped = 0

    def start(self, on_observation: Callable[[Observation], None]) -> Callable[[], None]:
        self._thread = threading.Thread(target=self._run, args=(on_observation,), name="camera", daemon=True)
        self._thread.start()
        return self.stop

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def health(self) -> SensorHealth:
        with self._lock:
            times = list(self._times)
            rate = round((len(times) - 1) / (times[-1] - times[0]), 1) if len(times) > 1 and times[-1] > times[0] \
                else None
            detail = self._detail + (f", {self._dropped} frames dropped" if self._dropped else "")
            return SensorHealth(self.name, self._state, detail, rate=rate, last=self._last)

    # -- the loop ---------------------------------------------------------------------------
    def _run(self, emit: Callable[[Observation], None]) -> None:
        while not self._stop.is_set():
            try:
                source = self.open_source()
            except CaptureError as exc:
                self._report(emit, "lost", f"{exc}; trying again in {self.reopen_s:g} s")
                self._stop.wait(self.reopen_s)
                continue
            self._report(emit, "connected", f"camera {self.source}".rstrip())
            try:
                ended = self._frames(source, emit)
            except CaptureError as exc:            # a camera gone silent: reopen it
                self._report(emit, "lost", f"{exc}; reopening")
                self._stop.wait(self.reopen_s)
                continue
            except FrameSizeError as exc:          # another resolution than calibrated: nothing to do but say so
                self._report(emit, "lost", str(exc))
                return
            finally:
                source.close()
            if ended:       # the table hears "lost" (its words for a sensor gone); the console, "ended"
                self._report(emit, "lost", "the recording played to its end")
                self._note("ended", "the recording played to its end")
                return

    def _frames(self, source, emit: Callable[[Observation], None]) -> bool:
        """Process frames until stopped (False) or the source ends (True)."""
        while not self._stop.is_set():
            frame = source.read()
            if frame is None:
                return True
            with self._lock:
                self._times.append(time.monotonic())
                self._dropped = source.dropped
            for observation in self.pipeline.process(frame.t, frame.image):
                if isinstance(observation, SensorState):
                    self._note(observation.state, observation.detail)
                elif isinstance(observation, CardSeen):
                    with self._lock:
                        what = card_name(observation.card) if observation.card is not None else "an unread card"
                        self._last = f"{what} in {observation.zone}"
                emit(observation)
        return False

    def _note(self, state: str, detail: str) -> None:
        with self._lock:
            self._state, self._detail = state, detail

    def _report(self, emit: Callable[[Observation], None], state: str, detail: str) -> None:
        self._note(state, detail)
        emit(SensorState(self.name, time.monotonic(), state, detail))
