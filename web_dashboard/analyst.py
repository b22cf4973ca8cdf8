"""The live analysis of every table: par on the broadcast feed, win chance on the venue.

A table's state goes to the stream the moment it changes; the analysis follows
it. Two worker threads (par; win chance, the slower) are woken when a table's
game record grows (:attr:`web_dashboard.hub.Hub.listeners`), read the record
(a copy, taken under the table's lock in a few microseconds), work it out with
neither the web server's event loop nor the table's lock held, and hand the
result to the hub as a *note* (:meth:`web_dashboard.hub.Hub.note`), which merges
it into the table's state and publishes it like any change. So a slow solve
never delays a card on the stream, and the par, worked out from the hidden
hands, goes the broadcast's way: late by its delay, never to the venue.

*Newest position wins*: a worker asked about a table again while busy looks
once more when done, at the record as it is then; positions skipped meanwhile
are never worked out (a par line covers every card played before it anyway).
Results are kept per position: the par of each position of a deal
(:class:`referee.live_par.LivePar`), the win chance per public position (a
correction undone, a hand replayed, costs nothing the second time).

The win chance must use only what the room may see. :func:`public_record`
takes every hand out of the record before :func:`referee.winchance.win_chance`
sees it, so nothing it computes can depend on a card still held
(``tests/web_dashboard/test_analyst.py`` checks it).

The solver's C core runs without Python's lock; what is left in Python (the
replays, the win chance's draws) shares the interpreter with the server, in
slices of a few milliseconds.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import traceback
from collections import OrderedDict, deque
from typing import Any, Callable, Optional

from referee.analysis import effective_events
from referee.game import Game
from referee.live_par import LivePar
from referee.winchance import WinChanceError, win_chance

from .startup import say

#: Worlds drawn for a win chance (docs/analysis.md: 100 worlds after trick 2 in about 30 ms).
WORLDS = 100
#: Win chances kept, per public position.
CACHE = 512


def public_record(events: list[dict]) -> list[dict]:
    """The record as the room knows it: every deal without its hands (a correction's
    replacement deal too). The win chance is computed from this alone."""
    def public(event: dict) -> dict:
        if event.get("type") == "deal" and "hands" in event:
            return {k: v for k, v in event.items() if k != "hands"}
        if event.get("type") == "correction" and isinstance(event.get("replace"), dict):
            return {**event, "replace": public(event["replace"])}
        return event
    return [public(event) for event in events]


def _record_length(snapshot: dict) -> int:
    """How many events the table's record holds (the console log numbers them)."""
    log = snapshot.get("log") or []
    return log[-1]["ref"] if log else 1


class _Worker:
    """One thread working for the tables that asked, each at most once at a time."""

    def __init__(self, name: str, job: Callable[[str], None]):
        self.name = name
        self.job = job
        self._wanted: OrderedDict[str, None] = OrderedDict()
        self._wake = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name=f"analysis-{name}", daemon=True)

    def ask(self, table_id: str) -> None:
        with self._wake:
            self._wanted[table_id] = None
            self._wake.notify()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._wanted and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                table_id, _ = self._wanted.popitem(last=False)
            try:
                self.job(table_id)
            except Exception:                     # one bad position must not end the analysis of every table
                say(f"analysis ({self.name}) of table {table_id} failed, the stream goes on without it:\n"
                    + traceback.format_exc(limit=4))


class Analyst:
    """Par and win chance for every table of ``room``, noted on ``hub``."""

    def __init__(self, room: Any, hub: Any, worlds: int = WORLDS, engine: Optional[str] = None):
        self.room = room
        self.hub = hub
        self.worlds = worlds
        self.engine = engine
        self._seen: dict[str, tuple] = {}             # table -> (game, record length) last asked about
        self._pars: dict[str, LivePar] = {}
        self._chances: OrderedDict[str, Optional[dict]] = OrderedDict()
        self._par = _Worker("par", self._par_job)
        self._chance = _Worker("win-chance", self._chance_job)
        #: (what, milliseconds) of the latest jobs: the work itself, not the wait
        self.timings: deque[tuple[str, float]] = deque(maxlen=2048)

    def start(self) -> Callable[[], None]:
        """Start both workers and listen to the hub; returns what stops them."""
        self._par.start()
        self._chance.start()
        self.hub.listeners.append(self.poke)

        def stop() -> None:
            if self.poke in self.hub.listeners:
                self.hub.listeners.remove(self.poke)
            self._par.stop()
            self._chance.stop()
        return stop

    def poke(self, table_id: str, snapshot: dict, version: int) -> None:
        """A table published a state (on the table's thread): wake the workers if its
        record grew or another game began."""
        key = (snapshot.get("game"), _record_length(snapshot))
        if self._seen.get(table_id) == key:
            return
        self._seen[table_id] = key
        self._par.ask(table_id)
        self._chance.ask(table_id)

    def _record(self, table_id: str) -> Optional[tuple[str, list[dict]]]:
        table = self.room.get(table_id)
        if table is None:
            return None
        while True:
            game = table.game_id
            events = table.record()
            if table.game_id == game:         # not swapped for the next game in between
                return game, events

    # --- the jobs ------------------------------------------------------------------
    def _par_job(self, table_id: str) -> None:
        found = self._record(table_id)
        if found is None:
            return
        game, events = found
        start = time.perf_counter()
        line = self._pars.setdefault(table_id, LivePar(self.engine)).update(events)
        self.timings.append(("par", (time.perf_counter() - start) * 1000))
        self.hub.note(table_id, {"par": {**line, "game": game} if line else None})

    def _chance_job(self, table_id: str) -> None:
        found = self._record(table_id)
        if found is None:
            return
        game, events = found
        public = effective_events(public_record(events))
        # the position as the room sees it (the whole public record: rules, score, this hand's cards)
        key = hashlib.sha1(json.dumps(public, sort_keys=True).encode()).hexdigest()
        if key not in self._chances:
            start = time.perf_counter()
            self._chances[key] = self._win_chance(public)
            self.timings.append(("win_chance", (time.perf_counter() - start) * 1000))
            while len(self._chances) > CACHE:
                self._chances.popitem(last=False)
        chance = self._chances[key]
        self.hub.note(table_id, {"win_chance": {**chance, "game": game} if chance else None})

    def _win_chance(self, public: list[dict]) -> Optional[dict]:
        """The win chance at the end of a public record, with the hand's number and how
        many of its cards were played; None when no contract is being played."""
        now = Game.from_events(public)
        if now.phase != "play" or now.play is None or now.play.done:
            return None
        last_deal = max(i for i, e in enumerate(public) if e["type"] == "deal")
        try:   # the same worlds all through a hand: the figure moves with the cards, not the dice
            chance = win_chance(public, worlds=self.worlds, seed=last_deal, engine=self.engine).as_dict()
        except WinChanceError:
            return None
        return {**chance, "hand": now.hand_number, "played": now.play.played.bit_count()}
