"""The demo table: a seeded game played through the real pipeline, at human pace.

What happens on the table comes from the table simulator
(``referee.simulate``: packets dealt, calls, cards played, tricks picked up,
a share of hands with a planted violation). It is *acted out*, not fed in:

- the RFID side moves tags on the virtual table (``firmware_bridge.
  virtual_table``), whose firmware frames go over a real pseudo-terminal to the
  real bridge, which turns them into observations;
- the camera side films the whole game as one rendered video
  (``vision.render``) and runs every frame through the real vision pipeline,
  whose observations carry a thumbnail of the card they read (``--no-camera``
  leaves it out; above ``--speed 4`` it is left out anyway);
- the auction and "belote" are what the human referee enters at the console:
  the demo enters them, and the console can enter more.

Faults are planted on the wire (corrupted and dropped frames, a firmware
reboot, the cable pulled and put back) and the simulator's violations
(revokes, missed trumps, calls out of turn, misdeals, wrong pickups) reach
the console as they happen. The assistant referee answers a conflict left
open for a while (from the simulator's ground truth), so an unattended demo
never stalls; the person at the console can answer first.

Time: the simulator's players are brisk, so at ``--speed 1`` the table's
clock runs ``1 / HUMAN_PACE`` as fast as the wall clock (a card every 3 to
4 seconds, a hand in about three minutes), and ``speed`` times that when asked. Every observation is stamped
with the table's clock, so the referee's waits (a card settles in one second)
keep their meaning at any speed.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from referee.cards import card_name
from referee.observations import CardGone, CardSeen, ConsoleAction, ZoneCleared
from referee.player import SEATS

from .startup import SetupError, say

#: Wall seconds per simulated second at --speed 1: a card every 3 to 4 s.
HUMAN_PACE = 2.0
#: Seconds (table time) an open conflict waits for the human referee before
#: the assistant answers it.
ASSISTANT_AFTER = 5.0
#: Camera frames per second of table time, and the size of the rendered video
#: (1080p, the table camera DESIGN plans: at 720p a card is ~45 px wide, and the
#: reader abstains on half the drawn cards rather than guess).
FPS = 6.0
FRAME_SIZE = (1920, 1080)
#: The camera reports a card a little after it comes to rest (the hand
#: withdraws, then frames are read), while the RFID tag is read at once: cards
#: are rendered this much earlier so both reports reach the referee together.
CAMERA_LEAD = 0.8
#: Above this speed the camera is left out (rendering and reading would not keep up).
CAMERA_MAX_SPEED = 4.0


@dataclasses.dataclass
class Trick:
    """One trick as the camera will see it (table times)."""

    plays: list = dataclasses.field(default_factory=list)       # (t, seat, card)
    cleared: Optional[float] = None


def camera_tricks(observations: list) -> list[Trick]:
    """The tricks of the simulated game, from what its camera would see."""
    tricks: list[Trick] = []
    current = Trick()
    for obs in observations:
        if obs.source != "camera":
            continue
        if isinstance(obs, CardSeen) and obs.zone and obs.zone.startswith("play:") and obs.card is not None:
            current.plays.append((obs.t, obs.zone[5:], obs.card))
        elif isinstance(obs, ZoneCleared) and current.plays:
            current.cleared = obs.t
            tricks.append(current)
            current = Trick()
    if current.plays:
        tricks.append(current)
    return tricks


def simulate_demo(seed: int, rules: str, speed: float, hands: int = 40, seats: Optional[dict] = None) -> Any:
    """The simulated game the demo acts out: its sensors clean (the faults are
    planted on the wire instead), a violation in about a third of the hands."""
    from referee.sensor_faults import Faults
    from referee.simulate import simulate

    if speed <= 0:
        raise SetupError("--speed must be more than 0 (1 is human pace, 4 is brisk)")
    quiet = Faults(misread=0, unreadable=0, rfid_miss=0, rfid_late=0, duplicate=0, knocked=0,
                   takeback=0, violations=0.3)
    try:
        return simulate(hands=hands, seed=seed, faults=quiet, rules=rules, seats=seats or SEATS)
    except ValueError as exc:
        raise SetupError(f"cannot run the demo: {exc}; try --rules ffb-contree") from None


class DemoTable:
    """Acts out a simulated game (:func:`simulate_demo`) on a :class:`~web_dashboard.room.LiveTable`."""

    def __init__(self, table: Any, sim: Any, instance: Path, seed: int = 1, speed: float = 1.0,
                 camera: bool = True):
        from referee.oracle import Oracle

        self.sim = sim
        self.oracle = Oracle(self.sim)
        self.table = table
        self.seed = seed
        self.instance = Path(instance)
        self.speed = speed
        self.rate = speed / HUMAN_PACE          # table seconds per wall second
        self.camera = camera and speed <= CAMERA_MAX_SPEED
        if camera and not self.camera:
            say(f"demo: at --speed {speed:g} the camera is left out (RFID and console only)")
        self.sim_start = self.sim.observations[0].t - 2.0
        self.wall_start = 0.0
        self._clock_runs = threading.Event()    # set once every sensor is ready to see the game
        table.clock = self.now
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._stoppers: list[Callable[[], None]] = []
        self._open_since: dict[int, float] = {}

    # --- time ----------------------------------------------------------------------
    def now(self) -> float:
        """The table's clock: simulated seconds. It stands still until the
        camera is set up, so the game starts when every sensor can see it."""
        if not self._clock_runs.is_set():
            return round(self.sim_start, 3)
        return round(self.sim_start + (time.monotonic() - self.wall_start) * self.rate, 3)

    def _start_clock(self) -> None:
        self.wall_start = time.monotonic()
        self._clock_runs.set()

    def _wait_until(self, t: float) -> bool:
        """Sleep until table time ``t``; False when stopping."""
        while not self._clock_runs.wait(0.1):
            if self._stop.is_set():
                return False
        delay = (t - self.now()) / self.rate
        return not self._stop.wait(delay) if delay > 0 else not self._stop.is_set()

    # --- lifecycle ----------------------------------------------------------------------
    def start(self) -> Callable[[], None]:
        from firmware_bridge.sensor import RfidSensor
        from firmware_bridge.virtual_table import VirtualTable

        self.vt = VirtualTable(seed=7)
        port = self.vt.start()
        rfid = RfidSensor(port, self.vt.table_map())
        self.table.sensors = [rfid]
        self._stoppers += [rfid.start(self._arrive), self.vt.stop]
        say(f"demo: virtual table firmware on {port} (pseudo-terminal), bridge connected to it")
        self._spawn(self._drive, "demo-driver")
        self._spawn(self._assistant, "demo-assistant")
        if self.camera:
            self._spawn(self._start_camera, "demo-camera")
            say(f"demo: camera video {FRAME_SIZE[0]}x{FRAME_SIZE[1]} at {FPS:g} fps into the vision pipeline "
                f"(the game starts once its deck is enrolled)")
        else:
            self._start_clock()
            say("demo: RFID and console, no camera")
        return self.stop

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(3)
        for stop in self._stoppers:
            stop()

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=self._guard(target, name), name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _guard(self, target: Callable[[], None], name: str) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            except Exception as exc:        # a dead demo thread must say why, not vanish
                say(f"demo: {name} stopped: {type(exc).__name__}: {exc}")
                raise
        return run

    # --- the sensors ----------------------------------------------------------------------
    def _arrive(self, observation: Any) -> None:
        """A sensor's observation, stamped with the table's clock (each sensor
        keeps its own clock for its own timing)."""
        self.table.ingest(dataclasses.replace(observation, t=self.now()))

    def _drive(self) -> None:
        """Act out the simulated game: tags moved on the virtual table, calls entered."""
        observations = self.sim.observations
        faults = {len(observations) * k // 8: f for k, f in
                  ((1, "corrupt"), (2, "drop"), (3, "reboot"), (5, "unplug"), (6, "corrupt"))}
        replug_at: Optional[float] = None
        for i, obs in enumerate(observations):
            if not self._wait_until(obs.t) or self.table.referee.game.over:
                break
            if replug_at is not None and obs.t >= replug_at:
                self.vt.replug()
                replug_at = None
            if i in faults:
                replug_at = self._fault(faults[i], obs.t) or replug_at
            if isinstance(obs, ConsoleAction):
                self.table.ingest(dataclasses.replace(obs, t=self.now(), by="demo"))
            elif obs.source == "rfid" and isinstance(obs, (CardSeen, CardGone)) and obs.card is not None:
                self.vt.put(obs.card, obs.zone if isinstance(obs, CardSeen) else None)
        game = self.table.referee.game
        if game.over:
            say(f"demo: game over, {game.summary()['totals']}; the dashboard stays up")
        elif not self._stop.is_set():
            say(f"demo: the simulated hands ran out before the target score ({game.summary()['totals']}); "
                f"the dashboard stays up (another game: --seed N)")

    def _fault(self, kind: str, t: float) -> Optional[float]:
        say(f"demo: planting a fault on the serial link: {kind}")
        if kind == "corrupt":
            self.vt.corrupt(2)
        elif kind == "drop":
            self.vt.drop(2)
        elif kind == "reboot":
            self.vt.reboot()
        elif kind == "unplug":
            self.vt.unplug()
            return t + 1.5
        return None

    def _assistant(self) -> None:
        """Answer conflicts the console left open for ``ASSISTANT_AFTER`` seconds."""
        while not self._stop.wait(0.5 / self.rate):
            now = self.now()
            conflicts = self.table.state().get("conflicts", [])
            for conflict in conflicts:
                since = self._open_since.setdefault(conflict["id"], now)
                if now - since < ASSISTANT_AFTER:
                    continue
                try:
                    answer = self.oracle.answer(conflict, now)
                except LookupError:
                    continue
                if answer is None:              # the table still waits for a sensor to settle it
                    continue
                say(f"demo: assistant referee answers conflict {conflict['id']} ({conflict['kind']}): "
                    f"{answer.action}{' ' + card_name(answer.cards[0]) if answer.cards else ''}")
                self.table.ingest(dataclasses.replace(answer, by="assistant", t=self.now()))

    # --- the camera -------------------------------------------------------------------------
    def _start_camera(self) -> None:
        """Film the whole game as one rendered video, played to the vision
        pipeline as a camera would (:class:`vision.sensor.CameraSensor`), each
        frame at its time on the table's clock.

        The camera is set up the way a club does it: the deck enrolled from
        each card lying alone on the table under that camera, the table
        calibrated from what the camera sees (its corner markers). That takes
        a few seconds, so it runs here, off the start-up path, and the table's
        clock starts when it is done (or has failed: the game goes on without)."""
        try:
            self._film_the_game()
        finally:
            self._start_clock()

    def _film_the_game(self) -> None:
        from calibration.table_plane import TableLayout, locate_table, recheck
        from calibration.zones import default_zones
        from vision.deck import warp_face
        from vision.enrol import deck_from_faces
        from vision.faces import builtin_faces
        from vision.locate import order_corners
        from vision.pipeline import Pipeline
        from vision.render import Effects, SceneRenderer, TableScene
        from vision.sensor import CameraSensor

        faces = builtin_faces(four_colour=True)
        scene = TableScene.square(size=FRAME_SIZE, tilt_deg=25, turn_deg=4)
        enrol = SceneRenderer(faces, scene, seed=11, size=FRAME_SIZE)
        centre = order_corners(enrol.card_corners((scene.width_mm / 2, scene.height_mm / 2, 0.0))
                               .astype("float32"))
        deck = deck_from_faces({c: [warp_face(enrol.lone_card(c), centre)] for c in faces})
        script, origin = self._script()
        renderer = SceneRenderer(faces, scene, seed=self.seed, size=FRAME_SIZE, effects=Effects(table_seed=self.seed))
        frames = renderer.frames(script, fps=FPS)
        first = next(frames)
        view = locate_table(first[1], TableLayout())
        pipeline = Pipeline(deck, view.image_to_table, default_zones(), recheck=lambda f: recheck(f, view),
                            thumbnails=self.instance / "thumbnails")
        film = _Film(self, itertools.chain([first], frames), origin)
        camera = CameraSensor(pipeline, "demo video", open_source=lambda: film)
        self.table.sensors.append(camera)
        self._stoppers.append(camera.start(self._arrive))

    def _script(self) -> tuple[list, float]:
        """The renderer's script of the whole game, and the table time of its
        start: each card comes to rest ``CAMERA_LEAD`` before its RFID read,
        each trick is swept to its pile, and now and then a hand passes over
        the table and changes nothing."""
        from vision.render import HandPass, Pickup, Play, Wait

        slide, out, sweep = 0.45, 0.3, 1.1          # the renderer's motion times (vision.render)
        tricks = camera_tricks(self.sim.observations)
        origin = tricks[0].plays[0][0] - CAMERA_LEAD - slide - 0.3
        script: list = []
        now = 0.3                                   # the renderer opens on a still table

        def wait_until(target: float) -> None:
            nonlocal now
            if target > now:
                script.append(Wait(round(target - now, 3)))
                now = target

        for number, trick in enumerate(tricks):
            first_start = trick.plays[0][0] - CAMERA_LEAD - origin - slide
            if number % 5 == 2 and first_start - now > 2.0:
                wait_until(first_start - 1.8)
                script.append(HandPass(trick.plays[0][1], 1.0, 0.2))
                now += 1.2
            for t, seat, card in trick.plays:
                wait_until(t - CAMERA_LEAD - origin - slide)
                script.append(Play(seat, card, hold=0.0))
                now += slide + out
            if trick.cleared is not None:
                wait_until(max(trick.cleared - CAMERA_LEAD - origin - 0.8, now + 1.0))  # read the last card first
                script.append(Pickup(self._winner_team(trick), hold=0.0))
                now += sweep
        return script, origin

    def _winner_team(self, trick: Trick) -> str:
        """Who picks the trick up: the pile the simulator's RFID saw it go to."""
        cards = {card for _, _, card in trick.plays}
        for obs in self.sim.observations:
            if obs.source == "rfid" and isinstance(obs, CardSeen) and obs.card in cards and \
                    obs.zone and obs.zone.startswith("pile:") and obs.t >= (trick.cleared or 0) - 1:
                return obs.zone[5:]
        return "NS"


class _Film:
    """The rendered game as a camera: ``read()`` hands over each frame at its
    time on the table's clock, and ends with the game (or the demo)."""

    dropped = 0

    def __init__(self, demo: DemoTable, frames: Iterator, origin: float):
        self.demo, self.frames, self.origin = demo, frames, origin
        self.index = 0

    def read(self) -> Optional[Any]:
        from vision.capture import Frame

        tau, image = next(self.frames, (None, None))
        if tau is None or not self.demo._wait_until(self.origin + tau) or self.demo.table.referee.game.over:
            return None
        self.index += 1
        return Frame(self.index - 1, self.demo.now(), image)

    def close(self) -> None:
        pass
