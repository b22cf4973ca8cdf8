"""Belote and rebelote as the console enters them: which card on the table the word goes with.

Part of the play watcher (:mod:`referee.play_watch`; a mixin of
:class:`~referee.play_watch.PlayWatch`, one state with it). The referee
types "belote" when a player says it; the word goes with the trump king or
queen that player is putting down. Which card that is the table infers from
when it was said, and the sensors may hold other readings of that seat (a
card shown and taken back, a misread, a card nobody read yet), so the word
may have to wait for the card it goes with. Lost, it scores the hand 20
points short; gone with a card that makes none, it is asked about.
"""

from __future__ import annotations

from typing import Iterator, Optional

from .cards import KING, QUEEN, Card, rank_of, suit_of
from .play_order import CAMERA_SURE
from .proposals import Proposal
from .seats import Seat
from .table_cards import CardOnTable
from .trump_tables import ALL_TRUMP, NO_TRUMP

#: Seconds a "belote" said before its card was read waits for that card: it is said as it is played.
SAY_WAIT = 5.0
#: Seconds after a card was put down that a "belote" said with no card of that seat on the table
#: still goes with it; said later, it goes with the seat's next card (maybe one nobody read yet).
SAY_RECENT = 2.0


class SayWatch:
    """The words of the play watcher (a mixin of :class:`~referee.play_watch.PlayWatch`)."""

    def belote(self, seat: Seat, t: float) -> Iterator[Proposal]:
        """Attach "belote"/"rebelote" to ``seat``'s card being played: a trump king or queen on
        the table or just played when there is one (the sensors may hold other readings of that
        seat), else its card on the table, else its next card."""
        # a card seen taken back is the last this was said with: the one still down comes first, then the
        # one put down nearest the word (game 801138: W showed the ♣K, its going back unread, put down the
        # ♣Q and said "belote"; the word went with the ♣K and was lost with it, 20 points short)
        mine = sorted((i for i in self.cards.items if i.seat == seat and i.say is None),
                      key=lambda i: (i.gone_t is not None, abs(t - i.t)))
        last = max(((n, card) for card, (_, s, n) in self.played.items() if s == seat and n), default=None)
        # Its card on the table not read yet, or read by the camera alone and not for sure (it will be
        # asked about): maybe the pair's (game 6300325: N showed the ♦Q, took it back and put down the
        # ♦K, read ♥K at 61 %, with "belote"; the word went with the ♦Q and was lost with it).
        unread = any(i.card is None or (i.gone_t is None and "rfid" not in self.sources and i.rfid is None
                                        and i.card_override is None and i.conf <= CAMERA_SURE) for i in mine)
        # A pair card seen taken back is not the one the word went with while a card still down is unread
        # (game 5600704: S showed the ♠K, took it back and put down a card the camera could not read; the
        # word went with the ♠K and was lost with it, 20 points short).
        # Nor is one seen leaving its zone before the word was said (game 7100340: N's ♥Q, shown, was read
        # leaving N's zone 0.8 s before "rebelote"; the ♠Q it was said with left N's hand just after it).
        pair = [i for i in mine if self._belote_card(i.card)
                and not (i.gone_t is not None and (unread or i.gone_t < t))]
        if not pair and not unread and last and self._belote_card(last[1]) and \
                "say" not in self.game.current(last[0]) and self._just_put_down(last[1], t):
            old = self.game.current(last[0])
            yield from self.correct_play(last[0], {**old, "say": self._say(seat)}, "belote said", {})
            return
        if pair or (mine and not self._has_belote()):
            (pair or mine)[0].say = self._say(seat)    # without trumps, the engine will say why it is wrong
            return
        self.pending_say[seat] = t

    def keep_word(self, item: CardOnTable) -> None:
        """``item`` was taken as shown and taken back: the word said with it is kept with its card,
        for the console's naming it as played after all (:meth:`~referee.play_watch.PlayWatch.name_card`)."""
        if item.say and item.card is not None:
            self.taken_back_say[item.card] = item.say

    def _just_put_down(self, card: Card, t: float) -> bool:
        """Was ``card``, its seat's last play, put down no more than :data:`SAY_RECENT` before ``t``? One
        no sensor timed (named at the console or by a tag at the pickup) only while its trick is the
        one on the table (game 7200303: W's "rebelote", said with its trick-3 ♦K nobody read, went with
        its trick-2 ♠K, which a pile's tag had just named in place of the ♣Q recorded; a belote-not-held
        was shown and the hand scored 20 points short)."""
        down = self.put_down.get(card)
        if down is None:
            return self.played[card][0] == self.game.play.trick_number
        return t - down <= SAY_RECENT

    def _said_with(self, seat: Seat, read: Card, card: Card) -> dict[str, str]:
        """A "belote" ``seat`` said as it put down ``read`` waits for a belote card when ``read`` is
        not one; a tag now says the card was ``card``: the word goes with it when it is one (game
        5300605: N's ♠Q, the trump queen, read ♣Q by the camera; the tag corrected the card at the
        pickup, the belote was lost, the contract counted failed, and the game ended a hand early,
        its last hand's revoke unseen). Returns the ``say`` field for the corrected play, or none."""
        said = self.pending_say.get(seat)
        down = self.put_down.get(read, self.put_down.get(card))
        if said is None or down is None or abs(said - down) >= SAY_WAIT or not self._belote_card(card):
            return {}
        del self.pending_say[seat]
        return {"say": self._say(seat)}

    def _said_for(self, item: CardOnTable, seat: Seat) -> bool:
        """Was the "belote" waiting for ``seat`` said with ``item``: as it was put down
        (:data:`SAY_WAIT`), or, when no sensor saw it put down (its time is a guess), after a card of
        its trick was (game 800397: N said "rebelote" putting down the ♥K nobody read; named at the
        console at the pickup, 5 s later, the card went without the word, 20 points short; for the
        trick's lead, after the last trick was picked up)."""
        said = self.pending_say[seat]
        if abs(item.t - said) < SAY_WAIT:
            return True
        began = min((self.put_down[c] for c in self.game.play.trick if c in self.put_down), default=None)
        if began is None and self.flushed is not None and self.flushed[0] == self.game.play.trick_number - 1:
            # The trick's lead: the trick began once the last one was picked up (game 900332: W led the ♠Q
            # unseen with "rebelote"; named at the pickup, its guessed time 5.6 s after the word, it went
            # without it, 20 points short)
            began = self.flushed[1]
        return not item.timed and began is not None and began <= said

    def _said_over(self, item: CardOnTable) -> bool:
        """Was "belote" said by ``item``'s player as it put ``item`` down (:data:`SAY_WAIT`), waiting
        for a belote card, while ``item``'s card is none?"""
        said = self.pending_say.get(item.seat)
        return said is not None and abs(said - item.t) < SAY_WAIT and self._has_belote() and \
            not self._belote_card(item.card)

    def _say(self, seat: Seat) -> str:
        """The word ``seat`` says now ("belote", then "rebelote"), counted as said."""
        word = "rebelote" if self.says.get(seat) else "belote"
        self.says[seat] = self.says.get(seat, 0) + 1
        return word

    def _has_belote(self) -> bool:
        play = self.game.play
        return play is not None and play.trump != NO_TRUMP

    def _belote_card(self, card: Optional[Card]) -> bool:
        play = self.game.play
        if card is None or play is None or rank_of(card) not in (KING, QUEEN):
            return False
        return play.trump == ALL_TRUMP or suit_of(card) == play.trump
