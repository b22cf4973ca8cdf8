"""A table seen by a camera, rendered: the video the tests, the benchmark and the demo run on.

(Over 500 lines on purpose: the scene, its script of plays and pickups, the
camera and the compositing are one picture-making pipeline whose parts share
the table's geometry; apart, each would need the others to be read.)

A real table cannot sit in CI, so the pipeline is exercised on video made the
way a camera would see one: card faces (drawn or cut from real photos) warped
onto a textured cloth through a perspective view of the table, under uneven
light with a glare spot, lens blur and sensor noise; each play is a card
sliding in from the seat's edge held by a hand that then withdraws; the four
cards of a trick overlap in the middle; a pickup sweeps them to the team's
pile, face down; a hand may pass over the table and change nothing.

The renderer also returns the truth (when each card came to rest, when the
scene was still again, which zone was cleared) so tests can check the
pipeline's observations against the scripted game, and the benchmark can
measure delays in frames.

Speed: what is at rest is composited once into a cached canvas; a frame is a
copy of it plus what moves, plus noise taken from a small pre-drawn pool. At
1080p that is a few milliseconds a frame, enough for a live demo.

>>> from vision.faces import builtin_faces
>>> scene = TableScene.square(900, size=(640, 360))
>>> r = SceneRenderer(builtin_faces(), scene, seed=1, size=(640, 360))
>>> frames = list(r.frames([Play("S", 12)], fps=10))
>>> frames[0][1].shape, r.truth[0].zone
((360, 640, 3), 'play:S')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Sequence

import cv2
import numpy as np

from referee.seats import SEAT_NAMES, parse_seat

from .faces import CARD_MM, card_back

# Directions from the table's centre towards each seat (table mm: x to E, y to S).
_TOWARDS = {0: (0.0, -1.0), 1: (1.0, 0.0), 2: (0.0, 1.0), 3: (-1.0, 0.0)}
# Rotation (degrees, table plane) that turns an upright card to face each seat.
_FACING = {0: 180.0, 1: 270.0, 2: 0.0, 3: 90.0}
CLOTHS = {"green": (40, 105, 30), "blue": (120, 70, 25), "wood": (70, 115, 160), "grey": (110, 110, 105),
          "beige": (170, 195, 210), "red": (40, 30, 120), "white": (232, 236, 238)}
_SKIN = (120, 150, 205)


# -- the script: what happens on the table -------------------------------------------------

@dataclass(frozen=True)
class Play:
    """``seat`` plays ``card``: it slides in from the seat's edge, held by a hand."""
    seat: str | int
    card: int
    hold: float = 0.8          # seconds the scene stays still afterwards


@dataclass(frozen=True)
class Pickup:
    """The trick in the middle is swept to ``team``'s pile (``NS`` or ``EW``), face down."""
    team: str
    hold: float = 0.8


@dataclass(frozen=True)
class HandPass:
    """A hand reaches over the table from ``seat`` and goes back, changing nothing."""
    seat: str | int
    seconds: float = 1.0
    hold: float = 0.6


@dataclass(frozen=True)
class Nudge:
    """``seat`` straightens its card in the trick: a hand moves it a few millimetres."""
    seat: str | int
    hold: float = 0.6


@dataclass(frozen=True)
class Wait:
    seconds: float


Action = Play | Pickup | HandPass | Nudge | Wait


@dataclass(frozen=True)
class Truth:
    """What really happened: ``kind`` is ``card`` (a card came to rest) or ``cleared``."""
    kind: str
    zone: str
    card: int | None
    t_rest: float              # the card stopped / the zone emptied
    t_still: float             # nothing moves any more (the hand is gone)
    corners: tuple = ()        # image corners of the card at rest (TL, TR, BR, BL of its face)


# -- the table and the camera --------------------------------------------------------------

@dataclass
class TableScene:
    """The table as the renderer needs it: size, corner markers and zones in table
    millimetres, and the camera's ``table_to_image`` homography at the output size."""

    width_mm: float
    height_mm: float
    markers: dict[int, np.ndarray]       # ArUco id -> 4x2 corners (mm)
    zones: dict[str, np.ndarray]          # zone name -> polygon (mm)
    table_to_image: np.ndarray
    dictionary: int = cv2.aruco.DICT_4X4_50   # the markers' ArUco dictionary

    @classmethod
    def square(cls, side_mm: float = 800, size=(1920, 1080), tilt_deg: float = 0.0, turn_deg: float = 0.0):
        """The project's standard table under ``camera_view``. Its geometry (markers,
        zones) is calibration's; the renderer, a simulator, borrows it here. The live
        pipeline itself takes plain arrays and never imports calibration."""
        from calibration.markers import DICTIONARY_ID
        from calibration.table_plane import TableLayout
        from calibration.zones import default_zones
        layout = TableLayout(side_mm, side_mm)
        return cls(side_mm, side_mm, layout.marker_corners(), default_zones(layout),
                   camera_view(side_mm, side_mm, size, tilt_deg, turn_deg), DICTIONARY_ID)


def camera_view(width_mm: float, height_mm: float, size=(1920, 1080), tilt_deg: float = 0.0,
                turn_deg: float = 0.0, fill: float = 0.92) -> np.ndarray:
    """``table_to_image`` of a pinhole camera above the table, tilted by ``tilt_deg``
    towards South and turned by ``turn_deg`` about the vertical, framed so the
    table fills ``fill`` of the picture height."""
    t, a = math.radians(tilt_deg), math.radians(turn_deg)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    r = rx @ rz
    dist = 1.6 * max(width_mm, height_mm)
    # camera looking down: table point (x, y, 0) relative to centre -> camera frame
    p = np.array([[1, 0, -width_mm / 2], [0, 1, -height_mm / 2], [0, 0, 1.0]])
    h = np.column_stack([r[:, 0], r[:, 1], r @ np.array([0, 0, 0]) + np.array([0, 0, dist])]) @ p
    corners = cv2.perspectiveTransform(
        np.float32([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]]).reshape(-1, 1, 2), h)
    lo, hi = corners.reshape(-1, 2).min(axis=0), corners.reshape(-1, 2).max(axis=0)
    s = min(fill * size[1] / (hi[1] - lo[1]), fill * size[0] / (hi[0] - lo[0]))
    fit = np.array([[s, 0, size[0] / 2 - s * (lo[0] + hi[0]) / 2], [0, s, size[1] / 2 - s * (lo[1] + hi[1]) / 2],
                    [0, 0, 1]])
    h = fit @ h
    return h / h[2, 2]


# -- the renderer --------------------------------------------------------------------------

@dataclass
class Effects:
    """How hard the camera's life is; all on by default (0 turns one off)."""
    cloth: str | None = None        # one of CLOTHS; None: chosen by table_seed
    light: float = 0.35             # depth of the uneven-light gradient (0 = flat)
    glare: float = 70.0             # brightest added glare (grey levels)
    blur: float = 0.8               # lens blur sigma, pixels
    noise: float = 3.0              # sensor noise sigma, grey levels
    table_seed: int = 0             # the table's look (cloth, lamp, glare): the same for every renderer of it


@dataclass(eq=False)          # each card on the table is itself, whatever it looks like
class _Resting:
    face: np.ndarray
    pose: tuple[float, float, float]     # x mm, y mm, angle deg
    zone: str


@dataclass
class _Step:
    start: float
    end: float
    draw: object = None                  # draw(frame, t): what moves during the step
    commit: object = None                # commit(): change what rests, at the step's end
    rebuild: bool = False                # the rest canvas must be redrawn (something was removed)


class SceneRenderer:
    """Frames of a scripted table: ``frames(script, fps)`` yields ``(t, frame_bgr)``.

    ``truth`` is filled while planning (before the first frame): one ``Truth``
    per card that came to rest and per zone that was cleared.
    """

    def __init__(self, faces: dict[int, np.ndarray], scene: TableScene, seed: int = 0,
                 size: tuple[int, int] = (1920, 1080), effects: Effects = Effects()):
        self.scene, self.size, self.effects = scene, tuple(size), effects
        self.rng = np.random.default_rng(seed)                        # what happens: poses, hands, noise
        self.table_rng = np.random.default_rng(effects.table_seed)      # what the table looks like
        self.h = np.asarray(scene.table_to_image, np.float64)
        if self.h.shape != (3, 3):
            raise ValueError("table_to_image must be a 3x3 homography")
        px_per_mm = self._px_per_mm()
        face_px = (max(8, round(CARD_MM[0] * px_per_mm * 1.6)), max(12, round(CARD_MM[1] * px_per_mm * 1.6)))
        self.faces = {c: _bgra(cv2.resize(f, face_px, interpolation=cv2.INTER_AREA)) for c, f in faces.items()}
        self.back = _bgra(cv2.resize(card_back(), face_px, interpolation=cv2.INTER_AREA))
        self.gain = self._light_map()
        self.background = self._background()
        self.glare_roi, self.glare = self._glare()
        self.noise = self._noise_pool()
        self.truth: list[Truth] = []
        self.resting: list[_Resting] = []       # what lies on the table now (while rendering)
        self._trick: list[_Resting] = []        # the trick in the middle, as planned so far
        self._piles = {"NS": 0, "EW": 0}

    # -- public ----------------------------------------------------------------------------
    def frames(self, script: Sequence[Action], fps: float = 30.0) -> Iterator[tuple[float, np.ndarray]]:
        """The video of ``script``, from t = 0. Calling it again continues the same table:
        what rests on it (a trick in progress, the piles) stays, so a game can be
        rendered trick by trick as it is played."""
        steps = self._plan(script)
        end = steps[-1].end if steps else 0.0
        canvas = self._canvas()
        i, n = 0, int(math.ceil(end * fps)) + 1
        for k in range(n):
            t = k / fps
            while i < len(steps) and t >= steps[i].end:
                if steps[i].commit:
                    added = steps[i].commit()
                    if steps[i].rebuild:
                        canvas = self._canvas()
                    elif added is not None:
                        self._paste(canvas, added.face, added.pose)
                i += 1
            frame = canvas.copy()
            if i < len(steps) and steps[i].draw and t >= steps[i].start:
                steps[i].draw(frame, t)
            yield t, self._camera(frame)

    def lone_card(self, card: int, angle: float = 0.0) -> np.ndarray:
        """One frame with one card lying in the middle of the table: an enrolment
        shot (``calibrate deck`` enrols from such pictures, through the same camera)."""
        frame = self.background.copy()
        self._paste(frame, self.faces[card], (self.scene.width_mm / 2, self.scene.height_mm / 2, angle))
        return self._camera(frame)

    def card_corners(self, pose) -> np.ndarray:
        """Image corners of a card lying at ``pose`` (x mm, y mm, angle deg)."""
        return self._to_image(_card_mm(pose))

    # -- planning --------------------------------------------------------------------------
    def _plan(self, script: Sequence[Action]) -> list[_Step]:
        self.truth = []
        steps: list[_Step] = []
        t = 0.3                          # the first frames show the table still
        trick, piles = self._trick, self._piles
        cx, cy = self.scene.width_mm / 2, self.scene.height_mm / 2
        for action in script:
            if isinstance(action, Play):
                seat = action.seat if isinstance(action.seat, int) else parse_seat(action.seat)
                if action.card not in self.faces:
                    raise ValueError(f"no face for card {action.card}: give the renderer all the cards it plays")
                dx, dy = _TOWARDS[seat]
                reach = 0.035 * min(self.scene.width_mm, self.scene.height_mm)   # cards of a trick overlap
                jitter = self.rng.normal(0, 6, 2)
                end = (cx + dx * reach + jitter[0], cy + dy * reach + jitter[1],
                       _FACING[seat] + self.rng.normal(0, 10))
                edge = 0.5 * min(self.scene.width_mm, self.scene.height_mm) + 40
                start = (cx + dx * edge, cy + dy * edge, end[2] + self.rng.normal(0, 25))
                slide, out = 0.45, 0.3
                item = _Resting(self.faces[action.card], end, f"play:{SEAT_NAMES[seat]}")
                trick.append(item)
                steps.append(_Step(t, t + slide, self._slide_draw(item.face, start, end, t, slide, seat),
                                   self._add(item)))
                steps.append(_Step(t + slide, t + slide + out, self._hand_draw(end, seat, t + slide, out, 1.0, 0.0)))
                self.truth.append(Truth("card", item.zone, action.card, t + slide, t + slide + out,
                                        tuple(map(tuple, self.card_corners(end).round(1)))))
                t += slide + out + action.hold
            elif isinstance(action, Pickup):
                team = action.team.upper()
                if team not in piles:
                    raise ValueError(f"pickup team {action.team!r}: write NS or EW")
                pile = self.scene.zones[f"pile:{team}"].mean(axis=0)
                seat = 2 if team == "NS" else 1
                k = piles[team]
                piles[team] += 1
                dest = (pile[0] + self.rng.normal(0, 3) - k, pile[1] + self.rng.normal(0, 3) - k,
                        _FACING[seat] + 90 + self.rng.normal(0, 8))
                gone = list(trick)
                trick.clear()
                zones = sorted({g.zone for g in gone})
                reach, sweep, out = 0.3, 0.5, 0.3
                steps.append(_Step(t, t + reach, self._hand_draw((cx, cy, 0), seat, t, reach, 0.0, 1.0),
                                   self._lift(gone), rebuild=True))
                pile_item = _Resting(self.back, dest, f"pile:{team}")
                steps.append(_Step(t + reach, t + reach + sweep, self._sweep_draw(gone, dest, seat, t + reach, sweep),
                                   self._add(pile_item)))
                steps.append(_Step(t + reach + sweep, t + reach + sweep + out,
                                   self._hand_draw(dest, seat, t + reach + sweep, out, 1.0, 0.0)))
                for z in zones:
                    self.truth.append(Truth("cleared", z, None, t + reach + sweep, t + reach + sweep + out))
                t += reach + sweep + out + action.hold
            elif isinstance(action, HandPass):
                seat = action.seat if isinstance(action.seat, int) else parse_seat(action.seat)
                half = action.seconds / 2
                steps.append(_Step(t, t + half, self._hand_draw((cx, cy, 0), seat, t, half, 0.0, 1.0)))
                steps.append(_Step(t + half, t + 2 * half, self._hand_draw((cx, cy, 0), seat, t + half, half, 1.0, 0.0)))
                t += 2 * half + action.hold
            elif isinstance(action, Nudge):
                seat = action.seat if isinstance(action.seat, int) else parse_seat(action.seat)
                old = next((c for c in reversed(trick) if c.zone == f"play:{SEAT_NAMES[seat]}"), None)
                if old is None:
                    raise ValueError(f"nudge: {SEAT_NAMES[seat]} has no card in the trick to straighten")
                shift = self.rng.choice([-1, 1], 3) * self.rng.uniform([5, 5, 4], [10, 10, 8])
                new = _Resting(old.face, tuple(np.add(old.pose, shift)), old.zone)
                trick[trick.index(old)] = new
                reach, move, out = 0.3, 0.25, 0.3
                steps.append(_Step(t, t + reach, self._hand_draw(old.pose, seat, t, reach, 0.0, 1.0),
                                   self._lift([old]), rebuild=True))
                steps.append(_Step(t + reach, t + reach + move,
                                   self._slide_draw(old.face, old.pose, new.pose, t + reach, move, seat),
                                   self._add(new)))
                steps.append(_Step(t + reach + move, t + reach + move + out,
                                   self._hand_draw(new.pose, seat, t + reach + move, out, 1.0, 0.0)))
                t += reach + move + out + action.hold
            elif isinstance(action, Wait):
                steps.append(_Step(t, t + action.seconds))
                t += action.seconds
            else:
                raise TypeError(f"not a table action: {action!r}")
        steps.append(_Step(t, t + 0.2))
        return steps

    def _add(self, item: _Resting):
        def commit():
            self.resting.append(item)
            return item
        return commit

    def _lift(self, gone: list[_Resting]):
        def commit():
            for g in gone:
                self.resting.remove(g)
        return commit

    # -- what moves ------------------------------------------------------------------------
    def _slide_draw(self, face, start, end, t0, dt, seat):
        def draw(frame, t):
            p = _ease(min(1.0, (t - t0) / dt))
            pose = tuple(a + (b - a) * p for a, b in zip(start, end))
            self._paste(frame, face, pose)
            self._hand(frame, pose, seat, 1.0)
        return draw

    def _sweep_draw(self, cards, dest, seat, t0, dt):
        def draw(frame, t):
            p = _ease(min(1.0, (t - t0) / dt))
            for c in cards:
                pose = tuple(a + (b - a) * p for a, b in zip(c.pose, dest))
                self._paste(frame, self.back if p > 0.5 else c.face, pose)
            self._hand(frame, tuple(a + (b - a) * p for a, b in zip((self.scene.width_mm / 2,
                                                                     self.scene.height_mm / 2, 0), dest)), seat, 1.0)
        return draw

    def _hand_draw(self, at, seat, t0, dt, frm, to):
        def draw(frame, t):
            p = _ease(min(1.0, (t - t0) / dt))
            self._hand(frame, at, seat, frm + (to - frm) * p)
        return draw

    def _hand(self, frame, at, seat, reach: float):
        """A hand and forearm coming from ``seat``'s edge; ``reach`` 1 puts the
        fingertips over ``at``, 0 pulls it back out of the table."""
        if reach <= 0.01:
            return
        dx, dy = _TOWARDS[seat]
        edge = np.array([self.scene.width_mm / 2 + dx * self.scene.width_mm * 0.62,
                         self.scene.height_mm / 2 + dy * self.scene.height_mm * 0.62])
        tip = edge + (np.array(at[:2]) + np.array([dx, dy]) * 30 - edge) * reach
        u = -np.array([dx, dy])                     # pointing into the table
        v = np.array([-u[1], u[0]])

        def pts(local):
            return self._to_image(np.array([tip + a * u + b * v for a, b in local], np.float32))

        arm = pts([(-90, -42), (-600, -48), (-600, 48), (-90, 42)])
        palm = pts([(-130 + 95 * (1 + math.cos(a)) / 2, 48 * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 24)])
        fingers = [pts([(-40, o - 8), (0, o - 7), (5, o), (0, o + 7), (-40, o + 8)]) for o in (-27, -9, 9, 27)]
        thumb = pts([(-100, 40), (-55, 62), (-48, 70), (-60, 76), (-105, 55)])
        polys = [np.round(p).astype(np.int32) for p in [arm, palm, thumb, *fingers]]
        self._shadow(frame, polys)
        for poly in polys:              # one by one: fillPoly makes holes where polygons overlap
            cv2.fillPoly(frame, [poly], _SKIN, cv2.LINE_AA)
        cv2.polylines(frame, polys, True, (90, 115, 165), 2, cv2.LINE_AA)

    def _shadow(self, frame: np.ndarray, polys: list[np.ndarray]) -> None:
        """The hand's soft shadow on the table: it is above the cloth, lit from above-left."""
        shift = np.array([0.012 * self.size[0], 0.02 * self.size[1]]).round().astype(np.int32)
        pts = np.concatenate(polys) + shift
        pad = int(0.02 * self.size[0])
        x0, y0 = np.maximum(pts.min(axis=0) - pad, 0)
        x1, y1 = np.minimum(pts.max(axis=0) + pad, self.size)
        if x0 >= x1 or y0 >= y1:
            return
        k = 4                                              # drawn and blurred at 1/4 scale: a soft shadow
        mask = np.zeros(((y1 - y0) // k + 1, (x1 - x0) // k + 1), np.uint8)
        for poly in polys:
            cv2.fillPoly(mask, [(poly + shift - (x0, y0)) // k], 255)
        mask = cv2.resize(cv2.GaussianBlur(mask, (0, 0), pad / 2 / k), (x1 - x0, y1 - y0))
        roi = frame[y0:y1, x0:x1]
        roi[:] = (roi * (1 - 0.35 / 255 * mask.astype(np.float32))[:, :, None]).astype(np.uint8)

    # -- drawing ---------------------------------------------------------------------------
    def _to_image(self, pts_mm) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(-1, 1, 2), self.h).reshape(-1, 2)

    def _px_per_mm(self) -> float:
        c = np.array([[self.scene.width_mm / 2, self.scene.height_mm / 2]])
        a, b = self._to_image(c), self._to_image(c + [[100, 0]])
        return float(np.linalg.norm(b - a)) / 100

    def _paste(self, frame: np.ndarray, face: np.ndarray, pose) -> None:
        """Warp a BGRA face onto the frame at ``pose``, lit like the table, with a soft shadow."""
        dst = self.card_corners(pose)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 3
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 4
        fx0, fy0, fx1, fy1 = max(x0, 0), max(y0, 0), min(x1, self.size[0]), min(y1, self.size[1])
        if fx0 >= fx1 or fy0 >= fy1:
            return
        fh, fw = face.shape[:2]
        src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
        m = cv2.getPerspectiveTransform(src, (dst - [fx0, fy0]).astype(np.float32))
        warped = cv2.warpPerspective(face, m, (fx1 - fx0, fy1 - fy0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        if self.effects.blur > 0:
            warped = cv2.GaussianBlur(warped, (0, 0), self.effects.blur)
        alpha = warped[:, :, 3:4].astype(np.float32) * (1 / 255)
        roi = frame[fy0:fy1, fx0:fx1]
        shadow = np.roll(alpha, (2, 2), axis=(0, 1)) * 0.35
        lit = warped[:, :, :3].astype(np.float32) * self.gain[fy0:fy1, fx0:fx1, None]
        out = roi.astype(np.float32) * (1 - shadow) * (1 - alpha) + lit * alpha
        roi[:] = np.clip(out, 0, 255).astype(np.uint8)

    def _canvas(self) -> np.ndarray:
        canvas = self.background.copy()
        for item in self.resting:
            self._paste(canvas, item.face, item.pose)
        return canvas

    def _camera(self, frame: np.ndarray) -> np.ndarray:
        """What the sensor adds: the glare spot and this frame's noise."""
        if self.glare is not None:
            (x0, y0, x1, y1) = self.glare_roi
            frame[y0:y1, x0:x1] = cv2.add(frame[y0:y1, x0:x1], self.glare)
        if self.noise:
            pos, neg = self.noise[int(self.rng.integers(len(self.noise)))]
            cv2.add(frame, pos, dst=frame)
            cv2.subtract(frame, neg, dst=frame)
        return frame

    # -- the static parts, drawn once -------------------------------------------------------
    def _light_map(self) -> np.ndarray:
        w, h = self.size
        depth = self.effects.light
        if depth <= 0:
            return np.ones((h, w), np.float32)
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = self.table_rng.uniform(0, 2 * math.pi)
        grad = ((x / w - 0.5) * math.cos(ang) + (y / h - 0.5) * math.sin(ang))
        lx, ly = self.table_rng.uniform(0.2, 0.8) * w, self.table_rng.uniform(0.2, 0.8) * h
        lamp = np.exp(-(((x - lx) ** 2 + (y - ly) ** 2) / (2 * (0.45 * w) ** 2)))
        gain = 1.0 + depth * (grad * 0.9 + lamp * 0.6 - 0.4)
        return gain.astype(np.float32)

    def _background(self) -> np.ndarray:
        w, h = self.size
        cloth_name = self.effects.cloth or list(CLOTHS)[int(self.table_rng.integers(len(CLOTHS)))]
        if cloth_name not in CLOTHS:
            raise ValueError(f"unknown cloth {cloth_name!r}: choose one of {', '.join(CLOTHS)}")
        sw, sh = int(self.scene.width_mm), int(self.scene.height_mm)
        cloth = np.empty((sh, sw, 3), np.float32)
        cloth[:] = CLOTHS[cloth_name]
        grain = cv2.resize(self.table_rng.normal(0, 1, (sh // 8, sw // 8)).astype(np.float32), (sw, sh))
        fine = self.table_rng.normal(0, 1, (sh, sw)).astype(np.float32)
        if cloth_name == "wood":
            fine = cv2.resize(self.table_rng.normal(0, 1, (sh, 8)).astype(np.float32), (sw, sh))  # grain along x
        cloth += (grain * 6 + fine * 5)[:, :, None]
        cloth = np.clip(cloth, 0, 255).astype(np.uint8)
        aruco = cv2.aruco.getPredefinedDictionary(self.scene.dictionary)
        for mid, corners in self.scene.markers.items():
            x0, y0 = np.floor(corners.min(axis=0)).astype(int)
            x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
            q = max(3, (x1 - x0) // 6)
            cloth[max(0, y0 - q):y1 + q, max(0, x0 - q):x1 + q] = 250
            marker = cv2.aruco.generateImageMarker(aruco, mid, x1 - x0)
            cloth[y0:y1, x0:x1] = cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR)[: y1 - y0]
        room = np.full((h, w, 3), (35, 38, 42), np.uint8)
        frame = cv2.warpPerspective(cloth, self.h, (w, h), dst=room, flags=cv2.INTER_AREA,
                                    borderMode=cv2.BORDER_TRANSPARENT)
        if self.effects.blur > 0:
            frame = cv2.GaussianBlur(frame, (0, 0), self.effects.blur)
        return np.clip(frame.astype(np.float32) * self.gain[:, :, None], 0, 255).astype(np.uint8)

    def _glare(self):
        if self.effects.glare <= 0:
            return None, None
        w, h = self.size
        r = int(0.07 * h)
        cx = int(self.table_rng.uniform(0.35, 0.65) * w)
        cy = int(self.table_rng.uniform(0.3, 0.7) * h)
        x0, y0, x1, y1 = max(0, cx - 6 * r), max(0, cy - 4 * r), min(w, cx + 6 * r), min(h, cy + 4 * r)
        y, x = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        spot = self.effects.glare * np.exp(-(((x - cx) / 1.6) ** 2 + (y - cy) ** 2) / (2 * r * r))
        return (x0, y0, x1, y1), np.repeat(spot.astype(np.uint8)[:, :, None], 3, axis=2)

    def _noise_pool(self, n: int = 3):
        if self.effects.noise <= 0:
            return []
        w, h = self.size
        pool = []
        for _ in range(n):
            z = self.rng.normal(0, self.effects.noise, (h, w, 3)).astype(np.float32)
            pool.append((np.clip(z, 0, 255).astype(np.uint8), np.clip(-z, 0, 255).astype(np.uint8)))
        return pool


def _card_mm(pose) -> np.ndarray:
    """The 4 corners (TL, TR, BR, BL of the upright face) of a card at ``pose``."""
    x, y, ang = pose
    w, h = CARD_MM
    a = math.radians(ang)
    c, s = math.cos(a), math.sin(a)
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ np.array([[c, s], [-s, c]]) + [x, y]


def _ease(p: float) -> float:
    return 1 - (1 - p) ** 3


def _bgra(face: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(face, cv2.COLOR_BGR2BGRA)


def demo_script(seed: int = 0, tricks: int = 2) -> list[Action]:
    """A few tricks of a random deal, with a hand passing over now and then."""
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.permutation(32)]
    script: list[Action] = []
    leader = 2
    for k in range(tricks):
        for i in range(4):
            seat = (leader - i) % 4          # counter-clockwise: S, E, N, W
            script.append(Play(SEAT_NAMES[seat], cards.pop()))
            if rng.random() < 0.15:
                script.append(HandPass(SEAT_NAMES[int(rng.integers(4))]))
        script.append(Pickup("NS" if rng.random() < 0.5 else "EW"))
    return script
