"""The table as the players see it: which tagged card lies on which antenna.

:class:`CardTable` holds the physical layout (uid -> antenna) and the moves a
game makes (``deal``, ``play``, ``pickup``, ``put``), and runs table scripts.
What reads the table is a subclass's business, so that one script runs
against either firmware:

- :class:`~firmware_bridge.virtual_table.VirtualTable`: the firmware's logic
  played in Python on a pseudo-terminal;
- :class:`~firmware_bridge.avr_table.AvrTable`: the real firmware ELF on a
  simulated Arduino Mega 2560 (``mega2560-sim``), its readers modelled at
  register level.

Both offer the same faults (``drop``, ``corrupt``, ``reboot``, ``unplug``,
``replug``, ``silence``, ``stale_on_open``) and the host sees the same
protocol from both.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Optional

from referee.cards import card_name, parse_card
from referee.seats import SEAT_NAMES

from .mapping import DEFAULT_ZONES, TableMap
from .protocol import encode_fields

ZONE_ANTENNA = {zone: antenna for antenna, zone in DEFAULT_ZONES.items()}
FAULTS = ("drop", "corrupt", "reboot", "unplug", "replug", "silence", "stale")


def deck_tags(seed: int = 7) -> dict:
    """A deck's tags: card -> a 7-byte NTAG-style UID (``04`` + 6 bytes), stable per seed."""
    rng = random.Random(seed)
    return {card: "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6)) for card in range(32)}


def stale_output(host_seq: int) -> bytes:
    """What a board's USB bridge may still hold from an earlier session when the
    port opens: a torn line, an old HELLO, an ACK of a command this host never
    sent (``host_seq`` + 7), a phantom tag. None of it may pass for the table."""
    old = 40000
    return (b"$TAG,12,9\n"
            + encode_fields(["HELLO", old, 99999, "proto=1", "fw=old", "ants=9", "boot=0BADB007"]) + b"\n"
            + encode_fields(["ACK", old + 1, 99999, (host_seq + 7) & 0xFFFF, "OK"]) + b"\n"
            + encode_fields(["TAG", old + 2, 99999, 3, "04DEADBEEF0000", "ON"]) + b"\n")


class CardTable:
    """Cards on antennas, moved by game actions or a script; subclasses read them."""

    def __init__(self, tags: Optional[dict] = None):
        self.tags = tags if tags is not None else deck_tags()
        self._lock = threading.RLock()
        self._physical: dict = {}          # uid -> antenna where the tag lies

    # -- what a subclass supplies ---------------------------------------------
    def _moved(self, uid: str, antenna: Optional[int]) -> None:
        """A tag now lies on ``antenna`` (None: off the table). Called under the lock."""

    # -- tags and cards ---------------------------------------------------------
    def place(self, uid: str, antenna: int) -> None:
        with self._lock:
            self._physical[uid] = antenna
            self._moved(uid, antenna)

    def remove(self, uid: str) -> None:
        with self._lock:
            if self._physical.pop(uid, None) is not None:
                self._moved(uid, None)

    def put(self, card, zone: Optional[str]) -> None:
        """A card onto a zone; a zone with no antenna (a trick pile, off the table) removes its tag."""
        uid = self.tags[parse_card(card) if isinstance(card, str) else card]
        antenna = ZONE_ANTENNA.get(zone) if zone else None
        if antenna is None:
            self.remove(uid)
        else:
            self.place(uid, antenna)

    def deal(self, hands: dict) -> None:
        """``{"N": ["7s", ...], ...}``: each card onto its seat's hand area."""
        for seat, cards in hands.items():
            for card in cards:
                self.put(card, f"hand:{seat}")

    def play(self, seat: str, card) -> None:
        self.put(card, f"play:{seat}")

    def pickup(self) -> None:
        """The trick is taken: every play zone is cleared."""
        plays = {ZONE_ANTENNA[f"play:{s}"] for s in SEAT_NAMES}
        with self._lock:
            for uid in [u for u, a in self._physical.items() if a in plays]:
                self.remove(uid)

    def table_map(self) -> TableMap:
        """What a table profile of this table holds: its deck's tags, the board's antennas."""
        return TableMap(cards={uid: card for card, uid in self.tags.items()}, zones=dict(DEFAULT_ZONES))

    def snapshot(self) -> dict:
        """Where each tag physically lies now: uid -> antenna (what the host should end up believing)."""
        with self._lock:
            return dict(self._physical)

    # -- scripts ------------------------------------------------------------------
    def run_script(self, script, step_s: float = 0.1, on_event=None) -> None:
        """Play a script (text, or a list of event tuples) in the calling thread;
        ``on_event(number, total, event)`` is called before each event (progress).

        Text lines: ``deal N 7s 8s ...`` | ``play S Jh`` | ``put Jh deal`` |
        ``pickup`` | ``wait 0.5`` | ``fault drop 2`` / ``corrupt 1`` / ``reboot`` /
        ``unplug`` / ``replug`` / ``silence 2`` / ``stale``; ``#`` starts a comment.
        """
        events = parse_script(script) if isinstance(script, str) else list(script)
        for number, event in enumerate(events, start=1):
            if on_event is not None:
                on_event(number, len(events), event)
            self.apply(event)
            if event[0] != "wait":
                time.sleep(step_s)

    def apply(self, event: tuple) -> None:
        kind, args = event[0], event[1:]
        if kind == "deal":
            self.deal({args[0]: list(args[1:])})
        elif kind == "play":
            self.play(args[0], args[1])
        elif kind == "put":
            self.put(args[0], args[1])
        elif kind == "pickup":
            self.pickup()
        elif kind == "wait":
            time.sleep(float(args[0]))
        elif kind == "fault":
            fault, rest = args[0], [float(a) for a in args[1:]]
            actions = {"drop": lambda n=1: self.drop(int(n)), "corrupt": lambda n=1: self.corrupt(int(n)),
                       "reboot": self.reboot, "unplug": self.unplug, "replug": self.replug,
                       "silence": lambda s=2.0: self.silence(s), "stale": self.stale_on_open}
            if fault not in actions:
                raise ValueError(f"unknown fault {fault!r}: use one of {', '.join(FAULTS)}")
            actions[fault](*rest)
        else:
            raise ValueError(f"unknown table event {kind!r}: use deal, play, put, pickup, wait or fault")


def hand_script(seed: int = 1, rules: str = "ffb-contree") -> list:
    """A whole hand as table events: the deal, every card played, each trick picked
    up (what ``bridge simulate`` plays without a script). The hand is the referee's
    seeded demo hand (``referee.demo``), so a watcher sees a legal game."""
    from referee.demo import play_demo_game

    record = play_demo_game(seed, rules, max_hands=1, violation_rate=0.0)
    deal = next(e for e in record if e["type"] == "deal")
    script: list = [("deal", seat, *cards) for seat, cards in deal["hands"].items()]
    plays = [e for e in record if e["type"] == "play"]
    for number, play in enumerate(plays, start=1):
        script.append(("play", play["seat"], play["card"]))
        if number % 4 == 0:
            script.append(("pickup",))
    return script


def parse_script(text: str) -> list:
    """Script text -> event tuples (see :meth:`CardTable.run_script`); names the bad line."""
    events = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        kind = words[0]
        try:
            if kind == "deal":
                seat = words[1].upper()
                if seat not in SEAT_NAMES:
                    raise ValueError(f"{words[1]!r} is not a seat")
                events.append(("deal", seat, *[card_name(parse_card(c)) for c in words[2:]]))
            elif kind == "play":
                events.append(("play", words[1].upper(), card_name(parse_card(words[2]))))
            elif kind == "put":
                events.append(("put", card_name(parse_card(words[1])), words[2]))
            elif kind in ("pickup", "wait", "fault"):
                events.append((kind, *words[1:]))
            else:
                raise ValueError(f"unknown event {kind!r}: use deal, play, put, pickup, wait or fault")
        except (IndexError, ValueError) as exc:
            raise ValueError(f"script line {number}: {exc}") from exc
    return events
