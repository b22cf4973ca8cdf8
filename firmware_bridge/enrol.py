"""The tag enrolment wizard: which RFID tag is stuck under which card.

``belote-table calibrate tags --port URL --out DIR`` asks for each of the 32
cards in turn ("place 7♠ on antenna 0"), reads the tag that appears, refuses a
tag already enrolled as another card (one UID must never mean two cards),
asks again after a misread or a silence, and hands the whole enrolment to
``save`` after every card (the command saves it as the profile's ``tags.csv``),
so an interrupted session resumes where it stopped.

It talks to the table through the same :class:`~firmware_bridge.bridge.Bridge`
as the referee does, so a flaky cable during enrolment is survived the same way;
with an adapter's codec it enrols through a single off-the-shelf reader.
"""

from __future__ import annotations

import queue
import sys
import time
from typing import Callable, Optional

from referee.cards import card_name, pretty

from .bridge import Bridge, TableCodec
from .session import LinkEvent, TagEvent


class EnrolmentAborted(RuntimeError):
    """The wizard stopped; the message says why and what to do. Cards done so far are saved."""


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class _Wizard:
    def __init__(self, events: queue.Queue, antenna: int, timeout_s: float, say: Callable):
        self.events, self.antenna, self.timeout_s, self.say = events, antenna, timeout_s, say
        self.on_antenna: dict = {}   # uid -> True for tags now on our antenna
        self.connected = False

    def next_event(self, deadline: float):
        """The next event before ``deadline`` (None at the deadline), keeping track of the antenna."""
        try:
            event = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if isinstance(event, LinkEvent):
            if event.state == "connected":
                self.connected = True
            elif event.state == "lost":
                self.say(f"  link lost ({event.detail}): waiting for the table to come back")
        elif isinstance(event, TagEvent) and event.antenna == self.antenna:
            if event.present:
                self.on_antenna[event.uid] = True
            else:
                self.on_antenna.pop(event.uid, None)
        return event

    def wait_empty(self, why: str) -> bool:
        """Until no tag lies on the antenna; False after the timeout."""
        if not self.on_antenna:
            return True
        self.say(f"  {why}: take every card off antenna {self.antenna}")
        deadline = time.monotonic() + self.timeout_s
        while self.on_antenna:
            if self.next_event(deadline) is None and time.monotonic() >= deadline:
                return False
        return True

    def read_card(self, card: int, enrolled: dict) -> Optional[str]:
        """The UID of a new tag laid on the antenna before the timeout, or None."""
        deadline = time.monotonic() + self.timeout_s
        while True:
            event = self.next_event(deadline)
            if event is None:
                if time.monotonic() >= deadline:
                    return None
                continue
            if not isinstance(event, TagEvent) or not event.present:
                continue
            if event.antenna != self.antenna:
                self.say(f"  a tag was read on antenna {event.antenna}, not {self.antenna}: "
                         f"lay {pretty(card)} on antenna {self.antenna}")
            elif len(self.on_antenna) > 1:
                self.say(f"  {len(self.on_antenna)} tags on antenna {self.antenna}: one card at a time")
                self.wait_empty("several tags")
            elif event.uid in enrolled:
                self.say(f"  that tag is already {pretty(enrolled[event.uid])}: take it off and lay "
                         f"{pretty(card)}")
            else:
                return event.uid


def enrol_tags(url: str, enrolled: dict, save: Callable[[dict], None], path: str, *, antenna: int = 0,
               timeout_s: float = 30.0, attempts: int = 3, say: Callable = _say,
               silence_s: float = 3.0, codec_factory: Callable = TableCodec) -> dict:
    """Run the wizard from ``enrolled`` (UID -> card, the cards already done);
    returns UID -> card for the whole deck. ``save(enrolled)`` runs after every
    card; ``path`` is where it saves, for the messages."""
    enrolled = dict(enrolled)
    if enrolled:
        say(f"resuming: {len(set(enrolled.values()))} card(s) already in {path}")
    events: queue.Queue = queue.Queue()
    bridge = Bridge(url, silence_s=silence_s, codec_factory=codec_factory).start(events.put)
    wizard = _Wizard(events, antenna, timeout_s, say)
    try:
        deadline = time.monotonic() + timeout_s
        while not wizard.connected:
            if wizard.next_event(deadline) is None and time.monotonic() >= deadline:
                raise EnrolmentAborted(f"no table answered on {url} within {timeout_s:g} s: check the "
                                       f"cable and the port (belote-table bridge monitor --port {url})")
        done = set(enrolled.values())
        todo = [card for card in range(32) if card not in done]
        for card in todo:
            number = 32 - len(todo) + todo.index(card) + 1
            if not wizard.wait_empty("before the next card"):
                raise EnrolmentAborted(f"antenna {antenna} never cleared; {len(done)} card(s) saved in "
                                       f"{path}: run the command again to resume")
            for attempt in range(1, attempts + 1):
                say(f"[{number}/32] place {pretty(card)} ({card_name(card)}) on antenna {antenna}")
                uid = wizard.read_card(card, enrolled)
                if uid is not None:
                    break
                say(f"  no new tag read in {timeout_s:g} s (try {attempt}/{attempts}): lay the card "
                    f"flat, its tag over the antenna's centre")
            else:
                raise EnrolmentAborted(f"no tag for {card_name(card)} after {attempts} tries; "
                                       f"{len(done)} card(s) saved in {path}: run the command again "
                                       f"to resume")
            enrolled[uid] = card
            done.add(card)
            save(enrolled)
            say(f"  {pretty(card)} = {uid}; take it off")
        say(f"all 32 cards enrolled in {path}")
        return enrolled
    finally:
        bridge.stop(timeout=0.5)
