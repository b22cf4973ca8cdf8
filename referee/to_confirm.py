"""Plays read once by one sensor: no accusation rests on them until a second read or the console.

Why: a camera misreads, even confidently (issue 11: 8♦ read as 8♥ at 0.995),
and a lone RFID read can be the late echo of a card shown and taken back, or
a card knocked into another zone. Such a play is recorded (the game must go
on) with ``sources`` naming its one read (``["camera"]`` or ``["rfid"]``); the
rules engine marks every violation resting on it ``to_confirm``
(:class:`referee.violations.Violation`): it is not a violation yet, for the
score sheet, ``referee check`` or anyone. It becomes one when

- an independent read agrees: the other sensor, or another RFID antenna than
  the one that read it (the hand the tag left, the zone, the pile the trick
  went to; a pile's read names the card, not whose it was, so not when its
  tag was read in another seat's zone: knocked there, or that seat's card
  the camera placed wrong). A second look of the same camera is not
  independent: a reader's confusions repeat (K♣ read as K♠ in 18 of 19
  photos);
- or the console confirms it.

Either is written as a correction of the play that names its second source
(``"sources": ["camera", "rfid"]``, reason ``confirmed``, with the read's
``evidence`` or the referee's ``by``), so the record itself says the
violation stands; a console that names another card writes a ``misread``
correction instead.

A wrong pickup also rests on its trick's cards being there when it went: on
a table with RFID, a play whose card no antenna read going with the trick
(leaving its zone, in a pile) may have been shown and taken back, its return
unread; it waits here the same way (``OneRead.going``), and a read of it
going is its second read (:mod:`referee.table_rules`).

Each play in doubt that a violation rests on is a ``to-confirm`` conflict,
shown on the console at once with its thumbnail. The referee first waits
for a second read (``waiting``: the trick's pickup brings the zone's and the
pile's reads); the question is pressed on the console (blocking) only when
the next trick is about to be recorded on top of it, after
:data:`CONFIRM_WAIT` seconds, or at once when the game is over.

Part of the table referee (:mod:`referee.table_referee`); it proposes the way
every part does (:mod:`referee.proposals`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Generator, Iterator, Optional

from .cards import Card, pretty
from .game import Game
from .observations import CardSeen, Observation
from .proposals import Ask, Conflict, Press, Proposal, Settle, Write, correction
from .seats import SEAT_NAMES, Seat
from .violations import Violation

#: Seconds a "to confirm" question waits for a second read before the console is pressed, when
#: no later trick presses it first (the hand's last trick): the pile's reads come within a second.
CONFIRM_WAIT = 2.0


@dataclass
class OneRead:
    """A recorded play that one read of one sensor backs."""

    hand: int
    card: Card
    seat: Seat
    trick: int
    sensor: str                          # camera | rfid | deduced (the hand's last card, by elimination)
    read: tuple = ()                     # (zone, "in" | "out") of the one RFID read, so that its echo is not a second
    conf: float = 1.0                    # the camera's confidence in its read
    second: Optional[tuple] = None       # (sensor, observation id) of a later read that agrees
    going: bool = False                  # read put down, but not going with its trick (a wrong pickup rests on it)
    elsewhere: bool = False              # its tag read in another seat's zone: a pile's read says nothing of whose


class ToConfirm:
    """The one-read plays of the last two hands, and the violations waiting on them."""

    def __init__(self, game: Game, conflicts: list[Conflict]):
        self.game = game                      # read only: the referee writes
        self.conflicts = conflicts            # read only: the referee files them
        self.plays: dict[int, OneRead] = {}   # record event n -> the play read once
        self.waiting: list[Violation] = []    # violations reported to confirm, not yet asked about
        self.wanted: Optional[tuple[int, int]] = None   # (hand, trick) the play watcher waits to record
        self.asked: dict[int, tuple[Conflict, float]] = {}   # question id -> it, and when it is pressed

    def note(self, n: int, one: OneRead) -> None:
        """Play event ``n`` was recorded on one read."""
        self.plays[n] = one
        for old in [k for k, p in self.plays.items() if p.hand < one.hand - 1]:
            del self.plays[old]

    def replaced(self, ref: int) -> None:
        """Play event ``ref`` was corrected: what was in doubt is gone."""
        self.plays.pop(ref, None)

    def renumbered(self, moved: dict[int, int]) -> None:
        """Plays moved to other events of the record (the tricks put in turn order): old n -> new n."""
        self.plays = {moved.get(n, n): one for n, one in self.plays.items()}
        self.waiting = [dataclasses.replace(v, to_confirm=tuple(moved.get(n, n) for n in v.to_confirm))
                        for v in self.waiting]

    def rests_on(self, v: Violation) -> None:
        """The engine reported ``v``, to confirm: it is asked about at the end of the observation."""
        self.waiting.append(v)

    def blocks(self, hand: int, trick: int) -> bool:
        """Must the card of ``trick`` wait? A violation of an earlier trick still rests on one read."""
        if not self.waiting and not self.asked:
            return False
        doubted = [self.plays[n] for v in self.waiting for n in v.to_confirm if n in self.plays]
        doubted += [self.plays[c.ref] for c in self._open() if c.ref in self.plays]
        if any(p.hand < hand or p.trick < trick for p in doubted):
            self.wanted = (hand, trick)
            return True
        return False

    def busy(self, now: float) -> bool:
        """Is there a question to file, or one waiting that time (``now``) presses?"""
        return bool(self.waiting or self.wanted or
                    any(c.waiting and now >= due for c, due in self.asked.values()))

    # -- second reads ---------------------------------------------------------------
    def read(self, obs: Observation, oid: int) -> Optional[Iterator[Proposal]]:
        """A sensor read a card in a play zone or a pile: a second read of a play read once?"""
        n = max((k for k, p in self.plays.items() if p.card == obs.card and p.second is None), default=None)
        if n is None or not self._on_table(self.plays[n]):
            return None                               # later in the hand the card read is another play
        one = self.plays[n]
        zone = f"play:{SEAT_NAMES[one.seat]}"
        play = self.game.play
        if isinstance(obs, CardSeen) and obs.zone == zone and \
                (one.hand != self.game.hand_number or play is None or one.trick != play.trick_number):
            return None                               # its trick went: a card landing now is another one
        if obs.source == "camera":
            # The other sensor, where the card lies (another zone: a knocked card says nothing of whose).
            if one.sensor != "rfid" or not isinstance(obs, CardSeen) or obs.zone != zone:
                return None
        elif obs.source == "rfid":
            edge = "in" if isinstance(obs, CardSeen) else "out"
            if obs.zone.startswith("play:") and obs.zone != zone:
                one.elsewhere = True                  # knocked there, or that seat's card: whose is in doubt
            if obs.zone not in (zone, "pile:NS", "pile:EW") or (obs.zone, edge) == one.read or \
                    (one.elsewhere and obs.zone != zone):
                return None                           # another zone, the same read again (an echo), or a
                                                      # pile's read of a card whose tag was in another zone
        else:
            return None
        one.second = (obs.source, oid)
        c = self._open_on(n)
        return self._confirm(n, c, {"evidence": [oid]}, obs.source) if c is not None else None

    def ask_winner(self, hand: int, trick: int, winner: Seat, led: Seat,
                   early: Optional[Seat] = None) -> Generator[Proposal, Conflict, bool]:
        """The next trick was led from ``led``'s zone, but the cards recorded for ``trick`` make
        ``winner`` its winner: a misread card of it may be why. Ask about its plays read once,
        the least sure first, one at a time; True while one is asked (False once none is left:
        then ``led`` played out of turn). ``early``: the next trick was led from ``winner``'s zone,
        but ``early``'s card came before its turn; whose turn it was rests on the same cards (a
        confident misread made the wrong seat the winner, and the real leader's card looked early:
        games 300238, 301438)."""
        doubted = sorted(((n, p) for n, p in self.plays.items() if p.hand == hand and p.trick == trick
                          and p.second is None), key=lambda np: (np[1].conf, np[0]))
        if any(self._open_on(n) is not None for n, _ in doubted):
            return True
        if not doubted:
            return False
        n, one = doubted[0]
        seat, card = SEAT_NAMES[one.seat], pretty(one.card)
        read = f"no antenna read {seat}'s card, {card}, going with the trick (it may have been shown and " \
            f"taken back)" if one.going else f"only the camera read {seat}'s card, {card} ({one.conf:.0%} " \
            f"sure)" if one.sensor == "camera" else f"no sensor read {seat}'s card, {card}, the one card " \
            f"not played" if one.sensor == "deduced" else f"only one RFID antenna read {seat}'s card, {card}"
        why = f"{SEAT_NAMES[led]} led trick {trick + 1}, but the cards recorded for trick {trick} make " \
            f"{SEAT_NAMES[winner]} its winner" if early is None else \
            f"{SEAT_NAMES[early]}'s card at trick {trick + 1} came before its turn, which rests on the cards " \
            f"recorded for trick {trick} ({SEAT_NAMES[winner]} won it)"
        c = yield Ask(Conflict(
            "to-confirm", f"{why}: {read}: confirm the card, or name the right one",
            hand=hand, trick=trick, seat=one.seat, proposal=one.card, ref=n, blocking=True,
            evidence=tuple(self.game.current(n).get("evidence", ()))))
        self.asked[c.id] = (c, 0.0)
        return True

    def _on_table(self, one: OneRead) -> bool:
        """Is ``one``'s trick on the table still, or being picked up (its last reads)?"""
        play = self.game.play
        if one.hand != self.game.hand_number:
            return one.hand == self.game.hand_number - 1 and one.trick == 8 and (play is None or not play.trick)
        if play is None:
            return False
        return one.trick == play.trick_number or (one.trick == play.trick_number - 1 and not play.trick)

    # -- asking ---------------------------------------------------------------------
    def ask(self, now: float) -> Iterator[Proposal]:
        """File a question for each play in doubt that a violation reported since rests on (one
        confirmed by a second read already is written as confirmed), then press the questions
        whose time is up."""
        waiting, self.waiting = self.waiting, []
        for v in waiting:
            for n in v.to_confirm:
                one = self.plays.get(n)          # None: a play of an imported record, or of hands ago
                if one is None or self._open_on(n) is not None:
                    continue
                if one.second is not None:
                    yield from self._confirm(n, None, {"evidence": [one.second[1]]}, one.second[0])
                    continue
                event = self.game.current(n)
                who = "only the camera" if one.sensor == "camera" else "only one RFID antenna"
                read = f"no antenna read {SEAT_NAMES[one.seat]}'s card at trick {one.trick}, {pretty(one.card)}, " \
                    f"going with the trick (it may have been shown and taken back)" if one.going else \
                    f"no sensor read {SEAT_NAMES[one.seat]}'s card at trick {one.trick}, {pretty(one.card)}, the " \
                    f"one card not played" if one.sensor == "deduced" else \
                    f"{who} read {SEAT_NAMES[one.seat]}'s card at trick {one.trick}, {pretty(one.card)}"
                c = yield Ask(Conflict(
                    "to-confirm", f"{read}, and {v.message}: confirm the card, or name the right one",
                    hand=one.hand, trick=one.trick, seat=one.seat, proposal=one.card, ref=n,
                    evidence=tuple(event.get("evidence", ())), waiting=True))
                self.asked[c.id] = (c, now + CONFIRM_WAIT)
        for c in self._open():
            one = self.plays.get(c.ref)
            late = self.wanted is not None and one is not None and \
                (one.hand < self.wanted[0] or one.trick < self.wanted[1])
            if c.waiting and (late or one is None or now >= self.asked[c.id][1] or self.game.over):
                yield Press(c)
        self.wanted = None

    def answer(self, c: Conflict, action: str, card: Optional[Card], why: dict) -> Iterator[Proposal]:
        """The console confirmed the card of a ``to-confirm`` question (or dismissed it: the
        violation stays to confirm, never an accusation). A different card is the play
        watcher's to correct."""
        if action == "dismiss":
            yield Settle(c, "dismissed", action)
            return
        yield from self._confirm(c.ref, c, {k: v for k, v in why.items() if k == "by"} or {"by": "console"},
                                 "console", how=action)

    # -- writing ---------------------------------------------------------------------
    def _confirm(self, n: int, c: Optional[Conflict], why: dict[str, Any], second: str,
                 how: Optional[str] = None) -> Iterator[Proposal]:
        """Write that play ``n`` is confirmed by a ``second`` source; settle its question."""
        old = self.game.current(n)
        one = self.plays.pop(n, None)
        first = (old.get("sources") or [one.sensor if one is not None else "camera"])[0]
        yield Write(correction(n, {**old, "sources": [first, second]}, "confirmed", why))
        if c is not None:
            yield Settle(c, "confirmed", how or f"confirmed by the {second}")

    def _open(self) -> list[Conflict]:
        """The questions still open (the others are forgotten)."""
        for cid in [cid for cid, (c, _) in self.asked.items() if c.status != "open"]:
            del self.asked[cid]
        return [c for c, _ in self.asked.values()]

    def _open_on(self, n: int) -> Optional[Conflict]:
        return next((c for c in self._open() if c.ref == n), None)
