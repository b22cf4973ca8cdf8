"""Plays only the camera saw: recorded, but held in doubt until a violation depends on one.

Why: on a table with RFID a card the tags did not confirm was read by the
camera alone, and the camera misreads. Such a play is recorded (the game
must go on) but never trusted to accuse anyone: before a violation is
written that such a play could explain (the card that breaks a rule, the
cards of its trick, the seat's earlier cards, or, when the hands are not
known, the cards the end-of-hand audit would accuse), the console is asked
to confirm it (a ``camera-only`` conflict). A late RFID read of the card, or
the console's answer, lifts the doubt.

Part of the play watcher (:mod:`referee.play_watch`); it proposes conflicts
the way every part of the table referee does (:mod:`referee.proposals`).
"""

from __future__ import annotations

from typing import Generator, Optional

from .cards import Card, pretty
from .game import Game
from .play import audit
from .proposals import Ask, Conflict, Proposal
from .seats import SEAT_NAMES, Seat, next_seat
from .table_cards import Played


class CameraDoubts:
    """The recorded plays of the game that only the camera saw, not yet confirmed."""

    def __init__(self, game: Game, conflicts: list[Conflict], evidence: dict[tuple[int, Card], tuple]):
        self.game = game                      # read only: the referee writes
        self.conflicts = conflicts            # read only: the referee files them
        self.evidence = evidence              # read only: (hand, card) -> the evidence of its play
        self.plays: dict[tuple[int, Card], int] = {}   # (hand, card) -> event n, not yet confirmed

    def note(self, hand: int, card: Card, n: int) -> None:
        """Event ``n`` of the record, ``card`` in hand ``hand``, was read by the camera alone."""
        self.plays[(hand, card)] = n

    def lift(self, hand: int, card: Card) -> None:
        """``card`` is confirmed (an RFID read of it, or the console)."""
        self.plays.pop((hand, card), None)

    def replaced(self, ref: int) -> None:
        """Play event ``ref`` was replaced by a correction: what was in doubt is gone."""
        for key in [k for k, n in self.plays.items() if n == ref]:
            del self.plays[key]

    def ask(self, played: Played, seat: Optional[Seat], only: Optional[Card] = None,
            trick: Optional[int] = None) -> Generator[Proposal, Conflict, bool]:
        """Raise a question on each of ``seat``'s recorded cards only the camera saw (or on ``only``;
        with ``trick``, on every such card of that trick, whoever played it). True when one is
        asked (or still open)."""
        hand = self.game.hand_number
        asked = False
        for (h, card), n in sorted(self.plays.items(), key=lambda kv: kv[1]):
            by = played.get(card, (0, -1))
            if h != hand or only not in (None, card) or \
                    (by[0] != trick if trick is not None else by[1] != seat):
                continue
            if any(c.ref == n and c.status == "open" for c in self.conflicts):
                asked = True
                continue
            yield Ask(Conflict("camera-only", f"only the camera read {SEAT_NAMES[by[1]]}'s card at trick {by[0]}, "
                               f"{pretty(card)}, and a violation depends on it: confirm the card",
                               trick=by[0], seat=by[1], blocking=True, proposal=card, ref=n,
                               evidence=self.evidence.get((h, card), ())))
            asked = True
        return asked

    def ask_before_audit(self, played: Played, card: Card) -> Generator[Proposal, Conflict, bool]:
        """The hand's last card, when the hands are not known: the seats the audit of the whole
        hand would accuse have their camera-only cards asked about first."""
        play = self.game.play
        plays = [c for t in play.tricks for c in t.cards] + play.trick + [card]
        leader = next_seat(self.game.dealer, self.game.options.clockwise)
        seats = {v.seat for v in audit(play.trump, leader, plays, self.game.options)}
        for s in sorted(seats):
            if (yield from self.ask(played, s)):
                return True
        return False
