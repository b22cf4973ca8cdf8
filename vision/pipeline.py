"""Frames in, observations out: the camera's whole part of the table, one frame at a time.

``Pipeline.process(t, frame)`` is called for every frame (from
``vision.capture``, a video file or the scene renderer) and returns the
observations that frame completed, in the referee's words
(``referee.observations``):

- ``CardSeen(source="camera", zone="play:S", card=..., confidence=...)`` when a
  card has come to rest in a play zone and been read over ``votes`` frames
  (``card=None`` when the frames disagree or are unsure),
- ``ZoneCleared(source="camera", zone=...)`` when a trick was picked up,
- ``SensorState(source="camera", state="moved")`` when the corner markers are
  no longer where the calibration saw them; card observations stop until the
  camera is back in place (``state="connected"``) or recalibrated: a moved
  camera would put cards in the wrong zones.

Cost per frame: the idle check (``vision.watch``) on every frame; the table
plane, the change analysis and the reads only while a still scene differs
from the last one; the marker re-check every ``recheck_every`` seconds of
quiet. A card is read again in each voting frame only where its pixels
changed since its last read (by the tracker's change threshold: a glare,
a shadow, a nudge); a frame that shows it as before (sensor noise at most)
repeats its last read: a second read would differ from it by that noise alone.

The pipeline assumes the play zones are empty in the first still frames (as
they are between games); cards already there are part of the table to it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

import cv2
import numpy as np

from calibration.table_plane import recheck as recheck_markers
from referee.cards import card_name
from referee.observations import CardSeen, Observation, SensorState, ZoneCleared

from .track import MIN_CONFIDENCE, PLAY_ZONES, Analysis, Tracker, TablePlane, vote
from .watch import Watcher


@dataclass
class _Pending:
    """A still scene whose new cards are being read, one frame at a time."""
    analysis: Analysis
    rect: np.ndarray            # its table-plane image (the next reference)
    thumbnail: np.ndarray       # its watcher thumbnail (idem)
    t: float
    frame_no: int
    frame: np.ndarray           # the last frame read (for the evidence thumbnail)
    partial: bool = False       # the rest of the scene still moved: only the cards' places are new


def _fill(quad: np.ndarray, like: np.ndarray) -> np.ndarray:
    mask = np.zeros_like(like)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
    return mask


def _settled(reads: list, min_confidence: float) -> bool:
    """Two frames in a row read the same card, confidently: more frames of a still
    scene would only repeat them."""
    return len(reads) >= 2 and reads[-1][0] is not None and reads[-1][0] == reads[-2][0] and \
        min(reads[-1][1], reads[-2][1]) >= min_confidence


class FrameSizeError(ValueError):
    """Frames of another resolution than the one the table was calibrated on."""


class Pipeline:
    """One camera watching one table.

    ``deck``: the enrolled deck (``vision.deck.Deck``); ``image_to_table`` and
    ``zones``: from the table profile (:meth:`from_profile` builds the whole
    thing from a calibrated profile directory); ``recheck(frame)``: returns
    an object with ``state`` (``ok``/``moved``/``unseen``) and ``detail``
    (``calibration.table_plane.recheck``); ``thumbnails``: a directory where the face
    each observation was read from is saved.
    """

    def __init__(self, deck, image_to_table, zones: dict, camera=None, recheck: Optional[Callable] = None,
                 thumbnails: str | Path | None = None, watch: tuple[str, ...] = PLAY_ZONES,
                 settle: int = 1, votes: int = 3, min_confidence: float = MIN_CONFIDENCE,
                 absorb_after: float = 3.0, recheck_every: float = 2.0,
                 reader: Optional[Callable] = None, frame_size: Optional[tuple[int, int]] = None):
        if votes < 1 or settle < 1:
            raise ValueError("votes and settle must be at least 1 frame")
        self.deck, self.image_to_table, self.zones, self.camera = deck, image_to_table, zones, camera
        self.watch_zones, self.settle, self.votes = watch, settle, votes
        self.min_confidence, self.absorb_after, self.recheck_every = min_confidence, absorb_after, recheck_every
        self.recheck = recheck
        self.frame_size = tuple(frame_size) if frame_size else None   # the calibrated resolution, when known
        self.thumbnails = Path(thumbnails) if thumbnails else None
        if self.thumbnails:
            self.thumbnails.mkdir(parents=True, exist_ok=True)
        self.read = reader or self._read_with_deck
        self._own_reader = reader is None      # its second opinion can wait a frame (``_vote``)
        if reader is None and deck is not None:
            from .corner_read import corner_model
            from .read import prepare
            prepare(deck)
            corner_model(deck)             # loaded (`calibrate deck` learnt it), or learnt for an older deck
        self.watcher = Watcher()
        self.plane: Optional[TablePlane] = None
        self.tracker: Optional[Tracker] = None
        self.frame_no = -1
        self.moved = False
        self._pending: Optional[_Pending] = None
        self._unexplained_since: Optional[float] = None
        self._retry_at = 0                     # frame number before which a still scene is not re-analysed
        self._retry_moving_at = 0              # idem, a scene that still moves (only the settled part is looked at)
        self._refresh = False                  # a card was taken while the rest moved: look at the whole scene again
        self.look = None                       # the watcher's view of the last frame (moving, quiet, changed)
        self._last_recheck = -1e9

    @classmethod
    def from_profile(cls, profile, deck, **options) -> "Pipeline":
        """The pipeline of a calibrated table (``calibration.profile.TableProfile``):
        its camera's view of the table, its zones, the marker re-check."""
        view = profile.view()
        return cls(deck, view.image_to_table, profile.zones(), camera=profile.camera(),
                   recheck=lambda frame: recheck_markers(frame, view), frame_size=view.image_size, **options)

    def _read_with_deck(self, frame, quad, later: bool = False):
        """The landed card read whole (``read_card``); when that is not sure
        (a court card at the table camera's scale, a face half in glare), its
        index corners, read on its own face only (``read_landed``), decide:
        the same card, or a card the whole face did not name; two methods
        naming two cards is no read. ``later``: that second opinion is
        returned undone (a callable giving the read), for the next frame
        (``_vote``). Either way a card the deck cannot tell from one it
        lacks is read at most at ``confidence.CUT_CAP`` (``_capped``)."""
        from .read import read_card
        card, confidence, _ = read_card(frame, quad, self.deck)
        if card is not None and confidence >= self.min_confidence:
            return self._capped(card, confidence)
        if later:
            return partial(self._corners_decide, frame, quad, card, confidence)
        return self._corners_decide(frame, quad, card, confidence)

    def _corners_decide(self, frame, quad, card: Optional[int], confidence: float):
        """The unsure whole-face read (``card``, ``confidence``) and the card's
        index corners together (``_read_with_deck``)."""
        from .corner_merge import read_landed
        corner, corner_confidence = read_landed(frame, quad, self.deck)
        if corner is None:
            return self._capped(card, confidence)
        return self._capped(corner, corner_confidence) if card in (None, corner) else (None, 0.0)

    def _capped(self, card: Optional[int], confidence: float) -> tuple[Optional[int], float]:
        """A read of a card whose look-alike the deck lacks (a partial
        enrolment, ``calibrate deck --partial``) at most at ``CUT_CAP``:
        the photo may be of the missing card, so the referee asks before
        it builds on it (``referee.play_order.CAMERA_SURE``), as the photo
        reader does (``confidence.decide``)."""
        from .confidence import CUT_CAP, told_apart
        if card is None or self.deck is None or told_apart(card, self.deck):
            return card, confidence
        return card, min(confidence, CUT_CAP)

    # -- the loop ---------------------------------------------------------------------------
    def run(self, frames: Iterable[tuple[float, np.ndarray]]) -> Iterator[Observation]:
        for t, frame in frames:
            yield from self.process(t, frame)

    def process(self, t: float, frame: np.ndarray) -> list[Observation]:
        self.frame_no += 1
        if self.plane is None or self.plane.frame_size != (frame.shape[1], frame.shape[0]):
            self._setup(frame)
        look = self.look = self.watcher.look(frame)
        if look.moving:
            return self._while_moving(t, frame, look)
        if look.quiet < self.settle:
            return []
        out: list[Observation] = []
        if self.recheck is not None and self._pending is None and (
                t - self._last_recheck >= self.recheck_every or look.change_px > 0.4 * self.watcher.prev.size):
            out += self._recheck(t, frame)
        if self.moved:
            return out
        if self.tracker.empty is None:
            self.tracker.start(self.plane.rectify(frame))
            self.watcher.accept()
            return out
        if self._pending is not None:
            return out + self._vote(frame)
        if (look.changed or self._refresh) and self.frame_no >= self._retry_at:
            out += self._analyse(t, frame)
        return out

    def _while_moving(self, t: float, frame: np.ndarray, look) -> list[Observation]:
        """Something moves (the arm that played, withdrawing; the next player). A new
        card that has settled away from the motion is read already; cards being read
        keep being read unless the motion reaches them."""
        if self.tracker.empty is None or self.moved:
            return []
        busy = self.plane.from_thumbnail(self.watcher.busy)
        if self._pending is not None:
            touched = any(cv2.countNonZero(cv2.bitwise_and(busy, _fill(c.footprint, busy)))
                          for c in self._pending.analysis.cards)
            return self._decide() if touched else self._vote(frame)
        # Not held back by ``_retry_at``: a hand resting on a still scene kept *that* scene from
        # being taken, but once it moves the part away from it is a new question (the card it
        # just let go of, uncovered as it withdraws).
        if look.settled_px >= 3 * self.watcher.min_pixels and self.frame_no >= self._retry_moving_at:
            return self._analyse(t, frame, busy)
        return []

    def _setup(self, frame: np.ndarray) -> None:
        size = (frame.shape[1], frame.shape[0])
        if self.frame_size and size != self.frame_size:
            raise FrameSizeError(f"the frames are {size[0]}x{size[1]} but the table was calibrated on "
                             f"{self.frame_size[0]}x{self.frame_size[1]} frames: set the camera back to that "
                             f"resolution or run `belote-table calibrate table` again")
        self.plane = TablePlane(self.image_to_table, self.zones, size, self.watch_zones, self.camera)
        self.tracker = Tracker(self.plane)
        self.watcher = Watcher()
        self._pending = None

    def _analyse(self, t: float, frame: np.ndarray, busy: Optional[np.ndarray] = None) -> list[Observation]:
        """``busy``: where something still moves (table plane); then only new cards
        settled away from it are taken, and nothing else of the scene."""
        rect = self.plane.rectify(frame)
        analysis = self.tracker.analyse(rect, busy)
        if busy is not None:
            if not analysis.cards:
                self._retry_moving_at = self.frame_no + 2    # look again in a couple of frames
                return []
            self._pending = _Pending(Analysis(analysis.cards, [], 0), rect, self.watcher.prev, t, self.frame_no,
                                     frame, partial=True)
            return self._vote(frame)
        if analysis.unexplained > 0.4 * cv2.countNonZero(self.plane.visible):
            # Nearly the whole table changed at once and is still: no hand covers that much;
            # the light changed (a lamp, a cloud). Take the table again as it looks now.
            print("vision: the light changed; table references taken again", file=sys.stderr)
            self.tracker.relight(rect)
            analysis = Analysis([], [], 0)
        elif analysis.unexplained > 0.3 * self.tracker.card_px:
            # Something shapeless rests in the zones (a hand, a nudged trick): wait for it to go,
            # but not forever: after ``absorb_after`` seconds it is part of the table.
            if self._unexplained_since is None:
                self._unexplained_since = t
            if t - self._unexplained_since < self.absorb_after:
                self._retry_at = self.frame_no + 5    # look again in a few frames, not on every one
                return []
            analysis = Analysis(analysis.cards, analysis.cleared, 0)
        self._unexplained_since = None
        out: list[Observation] = [ZoneCleared("camera", t, z, {"frame": self.frame_no}) for z in analysis.cleared]
        if not analysis.cards:
            self.tracker.accept(rect, analysis)
            self.watcher.accept()
            self._refresh = False
            return out
        self._pending = _Pending(analysis, rect, self.watcher.prev, t, self.frame_no, frame)
        return out + self._vote(frame)

    def _vote(self, frame: np.ndarray) -> list[Observation]:
        """One more read of each new card (see the module doc). A card's first
        read, when the whole face is unsure, leaves its index corners
        (``read_landed``, ~4 ms) to the next frame of the scene: the frame
        that finds a card (the table plane, the change analysis, the whole-face
        read) is the costliest of the live loop, and a first read is never
        settled (two reads are needed), so nothing waits for it; the read is
        the same, made on the same frame."""
        pending = self._pending
        self._finish(pending)
        for c in pending.analysis.cards:
            x, y, w, h = cv2.boundingRect(np.round(c.quad).astype(np.int32))
            pixels = frame[max(y, 0):y + h, max(x, 0):x + w]
            if c.read_from is not None and c.read_from.shape == pixels.shape and \
                    cv2.norm(c.read_from, pixels, cv2.NORM_INF) < self.tracker.threshold:
                c.reads.append(c.reads[-1])   # no pixel of it changed as the tracker counts a change: the same read
                continue
            first = not c.reads and self._own_reader and self.votes > 1
            c.reads.append(self.read(frame, c.quad, later=True) if first else self.read(frame, c.quad))
            c.read_from = pixels.copy()
        pending.frame = frame
        if len(pending.analysis.cards[0].reads) >= self.votes or all(_settled(c.reads, self.min_confidence)
                                                                      for c in pending.analysis.cards):
            return self._decide()
        return []

    @staticmethod
    def _finish(pending: _Pending) -> None:
        """The reads ``_vote`` left for this frame, made."""
        for c in pending.analysis.cards:
            if c.reads and callable(c.reads[-1]):
                c.reads[-1] = c.reads[-1]()

    def _decide(self) -> list[Observation]:
        """The still scene's cards, from the reads made while it lasted (``votes`` frames,
        or fewer when the next move came sooner: at least one)."""
        p, self._pending = self._pending, None
        self._finish(p)
        self._unexplained_since = None            # whatever was waiting is judged afresh from this scene
        verdicts = [vote(c.reads, self.min_confidence) for c in p.analysis.cards]
        for c, verdict in zip(p.analysis.cards, verdicts):
            c.card = verdict.card
        self.tracker.accept(p.rect, p.analysis, only_cards=p.partial)
        self.watcher.accept(p.thumbnail, self._thumbnail_mask(p.analysis.cards) if p.partial else None)
        self._refresh = p.partial       # once all is still, the whole scene becomes the reference
        out: list[Observation] = []
        for c, verdict in zip(p.analysis.cards, verdicts):
            if c.is_move():
                continue                  # a card straightened in its zone: nothing new to say
            evidence = {"frame": p.frame_no, "frames": len(c.reads), "votes": verdict.votes,
                        "corners": np.round(c.quad, 1).tolist()}
            if self.thumbnails:
                evidence["thumbnail"] = str(self._thumbnail(p.frame, p.frame_no, c, verdict.card))
            out.append(CardSeen("camera", p.t, c.zone, verdict.card, verdict.confidence, evidence=evidence))
        return out

    def _thumbnail_mask(self, cards) -> np.ndarray:
        """Where the cards lie, on the watcher's thumbnail."""
        from .watch import SHRINK
        mask = np.zeros_like(self.watcher.still)
        for c in cards:
            cv2.fillConvexPoly(mask, np.round(c.quad / SHRINK).astype(np.int32), 255)
        return cv2.dilate(mask, np.ones((3, 3), np.uint8))

    def _thumbnail(self, frame: np.ndarray, frame_no: int, c, card) -> Path:
        from .deck import warp_face
        name = f"f{frame_no:06d}-{c.zone.replace(':', '')}-{card_name(card) if card is not None else 'unread'}.png"
        path = self.thumbnails / name
        cv2.imwrite(str(path), warp_face(frame, c.quad))
        return path

    def _recheck(self, t: float, frame: np.ndarray) -> list[Observation]:
        self._last_recheck = t
        result = self.recheck(frame)
        if result.state == "moved" and not self.moved:
            self.moved = True
            self._pending = None
            print(f"camera moved ({result.detail}): card observations paused; put it back or run "
                  f"`belote-table calibrate table`", file=sys.stderr)
            return [SensorState("camera", t, "moved", result.detail)]
        if result.state == "ok" and self.moved:
            self.moved = False           # what changed meanwhile is analysed as from the next frame
            return [SensorState("camera", t, "connected", f"camera back in place ({result.detail})")]
        return []


def observation_json(obs: Observation) -> dict:
    """One observation as a JSON object (``vision watch --json``)."""
    if isinstance(obs, CardSeen):
        return {"kind": "card", "t": round(obs.t, 3), "zone": obs.zone,
                "card": card_name(obs.card) if obs.card is not None else None,
                "confidence": obs.confidence, "evidence": obs.evidence}
    if isinstance(obs, ZoneCleared):
        return {"kind": "cleared", "t": round(obs.t, 3), "zone": obs.zone}
    return {"kind": "camera", "t": round(obs.t, 3), "state": obs.state, "detail": obs.detail}
