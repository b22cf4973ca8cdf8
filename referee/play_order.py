"""The play watcher's turn order: which card on the table is whose play, and when.

Part of the play watcher (:mod:`referee.play_watch`, whose state it reads and
changes: it is a mixin of :class:`~referee.play_watch.PlayWatch`, apart so that
each module reads in one sitting). A card on the table is a play once it has
stayed there :data:`SETTLE` seconds or the next player's card appears (a card
shown and taken back never is); the card of the player whose turn it is is
decided first. A card in a zone before that player puts theirs down is out of
turn, written without the console only when the sensors' own reads say so
(both cards seen leaving their hands, the cards down those of the trick the
referee thinks is on the table, and a second apart when one RFID read, maybe
late, times the card of the player to play); otherwise it is a question. A card put down
after the trick began to leave is of the next trick.
"""

from __future__ import annotations

from typing import Any, Generator, Iterator, Optional

from .cards import Card, card_name, pretty
from .play import HandPlay
from .proposals import Ask, Conflict, Notice, Proposal, Write
from .seats import SEAT_NAMES, Seat
from .play_pickup import STAYED
from .table_cards import LATE_EDGE, CardOnTable

#: Seconds a card must stay in a play zone before it counts as played (a card
#: shown and taken back within this time was never played).
SETTLE = 1.0
#: Seconds to wait for the RFID to confirm a card only the camera read.
RFID_WAIT = 1.0
#: Seconds to wait for any reading of a card nobody could read yet.
UNKNOWN_WAIT = 2.0
#: Without RFID, a camera reading at or below this confidence is asked at once, while the card is still
#: on the table: vision reads score 0.8 (a bare read) to 1 (a clear lead, docs/vision.md), and a
#: misread found tricks later would be a correction that reorders every trick after it.
CAMERA_SURE = 0.9
#: Seconds a card of the hand's last trick that no sensor read waits for the cards after it, which
#: may leave it the one card of the deck not played (:meth:`TurnOrder._last_of_deck`).
LAST_WAIT = 8.0
#: :meth:`TurnOrder._last_of_deck`'s word for "the cards after it are not all down yet".
WAIT = "wait"


class TurnOrder:
    """The turn order of the play watcher (a mixin of :class:`~referee.play_watch.PlayWatch`)."""

    def advance(self, now: float) -> Optional[Iterator[Proposal]]:
        """What the time ``now`` decides: cards taken back, plays that have settled, a trick picked
        up; None when it decides nothing, as before most observations (the question is cheaper
        than running the decisions to find that out)."""
        taken = self.cards.taken_back(now)
        settled = None
        if not taken:
            if self.trick_done is not None:
                if not self._picked_up(now):
                    return None
            elif not self.cards.items or self.deal.mode != "play" or self.blocking:
                return None
            else:
                settled = self._settled(now)
                if settled is None:
                    return self._last_trick_gone(now)
        return self._decide_in_turn(now, taken, settled)

    def _decide_in_turn(self, now: float, taken: list[CardOnTable], settled: Optional[tuple]) -> Iterator[Proposal]:
        """What :meth:`advance` found due, in the table's order: the cards taken back, the trick
        picked up, then each play that has settled (the first one ``settled``, when
        :meth:`advance` found it), while nothing blocks."""
        for item in taken:
            self.keep_word(item)
            yield Notice(f"{pretty(item.card) if item.card is not None else 'a card'}"
                         f" was shown in {SEAT_NAMES[item.zone]}'s zone and taken back")
        if self.trick_done is not None and self._picked_up(now):
            yield from self._flush_trick()
        while self.cards.items and self.deal.mode == "play" and self.trick_done is None and not self.blocking:
            if settled is None:
                settled = self._settled(now)
            if settled is None or not (yield from self._decide(now, *settled)):
                break
            settled = None
        if self.trick_done is not None and self._picked_up(now):     # a last card decided late
            yield from self._flush_trick()

    def _settled(self, now: float) -> Optional[tuple[HandPlay, Seat, list[CardOnTable], CardOnTable, bool]]:
        """The card of the player to play once it has settled (with the play, that seat, the cards
        still live on the table, and whether a later card of another seat is down), else None."""
        play = self.game.play
        if play is None or play.done:
            return None
        to_play = play.to_play
        live = [i for i in self.cards.items if i.conflict is None and i.gone_t is None]
        # A card seen in the zone comes before one only seen leaving the hand (maybe a late read).
        item = min((i for i in live if i.seat == to_play), key=lambda i: (not i.zone_seen, i.t), default=None)
        if item is None:
            after = self._down_after_pickup(live)
            return None if after is None else (play, to_play, live, after, True)
        # A card this player put down after one recorded in the trick had left its zone is of the
        # next trick, not the card it played instead of the first.
        item = _last_put_down([i for i in live if i is item or not self._left_before(i.t)], item)
        later = any(i.t > item.t and i.seat != to_play and not i.early for i in live)
        if not (now >= item.t + (SETTLE if item.zone_seen else SETTLE + RFID_WAIT) or later):
            return None
        return play, to_play, live, item, later

    def _decide(self, now: float, play: HandPlay, to_play: Seat, live: list[CardOnTable], item: CardOnTable,
                later: bool) -> Generator[Proposal, Any, bool]:
        """Commit a settled card, or ask about it or the cards around it first; True when
        something was decided."""
        trick = play.trick_number
        if self.to_confirm.blocks(self.game.hand_number, trick):
            return False                              # an earlier trick's violation rests on one read
        if item.seat != to_play:                      # (:meth:`_down_after_pickup`)
            yield from self._went_unseen(item, to_play, trick, item.t)
            return True
        first = min((i for i in live if not i.early and i.timed), key=lambda i: i.t, default=item)
        if not play.trick and trick > 1 and first.seat != to_play and \
                (yield from self.to_confirm.ask_winner(self.game.hand_number, trick - 1, to_play, first.seat)):
            return True                               # the last trick's winner is in doubt: a card misread?
        for other in sorted(live, key=lambda i: i.t):       # cards put down before this one, out of turn
            if other.seat == to_play or other.early or not other.timed:
                continue
            mine = next(((c, n) for c, (k, s, n) in self.played.items() if k == trick and s == other.seat and n),
                        None)
            before = other.t < item.t and item.timed
            unpicked = not self._left_before(other.t) and (self.cleared_at is None or other.t < self.cleared_at)
            if mine is not None and other.card is not None and (before or unpicked):
                # That player's card of this trick is recorded already, and this one went down before
                # the trick was picked up (before or after this player's card): one of the two was shown
                # and taken back (the reads of its going back were missed or late), not a card out of
                # turn, nor the next trick's lead.
                c = yield Ask(Conflict(
                    "card-unknown", f"{SEAT_NAMES[other.seat]}'s card at trick {trick} was recorded as "
                    f"{pretty(mine[0])}, but {SEAT_NAMES[other.seat]} put down {pretty(other.card)} too: "
                    f"which card did {SEAT_NAMES[other.seat]} play?", trick=trick, seat=other.seat,
                    blocking=True, ref=mine[1], proposal=other.card, evidence=tuple(other.oids)))
                other.conflict = c.id
                return True
            if before:
                if self._left_before(item.t):
                    # A card recorded in this trick had left its zone before this one came: the trick
                    # was being picked up, so this player's card in it went down unseen, and the one
                    # seen is of the next trick (it waits for its turn). Not a card out of turn: a question.
                    yield from self._went_unseen(item, to_play, trick, other.t)
                    return True
                if trick > 1 and (yield from self.to_confirm.ask_winner(
                        self.game.hand_number, trick - 1, play.winners[-1], play.winners[-1], early=other.seat)):
                    return True                       # whose turn it is rests on the last trick's cards read once
                if other.origin is not None and item.origin == to_play and play.trick and \
                        self._where_thought(live) and not self._whole_without(other, item, live) and \
                        (item.one_read() != "rfid" or item.t - other.t > LATE_EDGE):
                    # The two hands and their times say so: both cards were seen leaving their
                    # hands. (A card only seen in a zone may be a knocked one; a card waiting for
                    # its turn, or more cards down than players still to play: the tricks are not
                    # where the referee thinks; a lead: whose lead it is rests on the last trick's
                    # cards as recorded; the card of the player to play timed by one RFID read, which
                    # may come up to LATE_EDGE late, less than that after the other (game 1200367:
                    # E's hand read 0.13 s after N's card, late; N's card was after it, then taken
                    # back). Then it is a question.)
                    yield from self._write_out_of_turn(other)
                else:
                    yield from self._ask(other, "out-of-turn", f"a card appeared in {SEAT_NAMES[other.zone]}'s "
                                         f"zone before {SEAT_NAMES[to_play]} played: did {SEAT_NAMES[other.zone]} "
                                         f"play out of turn?", other.zone, trick, other.card)
                return True
        recorded = {s: self.put_down.get(c) for c, (k, s, n) in self.played.items() if k == trick and n}
        nexts = [i.t for i in live if i.early and i.timed and i.t < item.t and i.card is not None
                 and i.card not in self.played and recorded.get(i.seat) is not None and i.t > recorded[i.seat]]
        if play.trick and item.timed and nexts:
            # Put down after a card its player put down after that player's recorded card of this trick,
            # which the console kept: that card is of the next trick, so this trick was picked up before
            # it (its reads missed), this player's card in it went down unseen, and this one is of the
            # next trick too (game 5500207: W's card of trick 4 unread, W's lead of trick 5 was recorded
            # as it, and a wrong pickup resting on it was shown, then withdrawn).
            yield from self._went_unseen(item, to_play, trick, min(nexts))
            return True
        if play.trick and item.timed and self._left_before(item.t, lain=STAYED):
            # Put down after a card of this trick that had long lain there left its zone (and was not
            # seen in one again): the trick was being picked up, its pickup reads missed, so this
            # player's card in it went down unseen and this one is of the next trick (it waits for
            # its turn). (One that left soon after it was put down may have been taken back.)
            yield from self._went_unseen(item, to_play, trick, item.t)
            return True
        rfid_on = "rfid" in self.sources
        if item.rfid is None and item.card_override is None and rfid_on:
            found = self.cards.origin_card(to_play, item.t, self.played)
            if found is not None:
                item.origin = to_play
                item.add_rfid(found, (f"hand:{SEAT_NAMES[to_play]}", "out"))
                item.oids.append(self.cards.hand_off[found][1])
            elif now < item.t + (RFID_WAIT if item.cam is not None else UNKNOWN_WAIT) and not later:
                return False
        card = item.card
        if card is None:
            left = self._last_of_deck(item, to_play, live)
            if left is WAIT and now < item.t + LAST_WAIT and self.cleared_at is None:
                return False                          # the other cards of the hand's last trick may say
            if isinstance(left, int):
                # The one card of the deck that no play holds, nor another card of the last trick:
                # named by elimination (resting on the record as on one read: a violation resting
                # on it is to confirm).
                item.card_override, item.deduced = left, True
                card = left
        if card is None or (card in self.played and item.card_override is None):
            why = "no sensor could read it" if card is None else f"the camera read {pretty(card)}, already played"
            yield from self._ask(item, "card-unknown", f"{SEAT_NAMES[to_play]} played a card at trick {trick} but "
                                 f"{why}: which card?", to_play, trick)
            return True
        camera_only = item.rfid is None and item.card_override is None and rfid_on
        if camera_only:
            holder = self.deal.holder(card)
            if holder is not None and holder != to_play:
                yield from self._ask(item, "card-unknown", f"the camera read {pretty(card)} for "
                                     f"{SEAT_NAMES[to_play]} but the RFID saw it dealt to {SEAT_NAMES[holder]}: "
                                     f"which card?", to_play, trick, card)
                return True
        if not rfid_on and item.card_override is None and item.rfid is None and item.conf <= CAMERA_SURE:
            yield from self._ask(item, "camera-only", f"only the camera read {SEAT_NAMES[to_play]}'s card, "
                                 f"{pretty(card)} ({item.conf:.0%} sure), and the reading is not sure: "
                                 f"confirm the card", to_play, trick, card)
            return True
        if not rfid_on and item.card_override is None and item.rfid is None and self._said_over(item):
            # The word says the card is the trump king or queen: the read, however sure, is doubted
            # (game 5800317: E's ♠Q read ♠J at 0.90; the rebelote waited for a belote card and was lost).
            yield from self._ask(item, "camera-only", f"only the camera read {SEAT_NAMES[to_play]}'s card, "
                                 f"{pretty(card)} ({item.conf:.0%} sure), but {SEAT_NAMES[to_play]} said "
                                 f"belote, which that card does not make: confirm the card", to_play, trick, card)
            return True
        yield from self._commit(item, to_play)
        return True

    def _last_of_deck(self, item: CardOnTable, to_play: Seat, live: list[CardOnTable]):
        """At the hand's last trick, ``item``, ``to_play``'s card, which no sensor could read: the one
        card of the deck no play holds nor another card of the trick down; :data:`WAIT` while a player
        after ``to_play`` has put no card down yet (its card may say); None when no one card is left
        (the console is asked, as before round 11), the antennas saw that card dealt to another seat, or
        no card may be named so here (:meth:`_last_by_elimination`: not at the last trick, after a stray
        tag, or on a table without RFID). (A card the camera read as one already played is asked about
        still: seed 3's games 300018, 300082.)"""
        if not self._last_by_elimination():
            return None
        step = 1 if self.game.options.clockwise else 3
        after = {(to_play + k * step) & 3 for k in range(1, 4 - len(self.game.play.trick))}
        others = [i for i in live if i is not item and i.seat in after and not i.early]
        if {i.seat for i in others} != after:
            return WAIT
        return self._one_card_left(to_play, {i.card for i in others})

    def _went_unseen(self, item: CardOnTable, to_play: Seat, trick: int, before: float) -> Iterator[Proposal]:
        """``item`` is of the next trick (it waits for its turn): ``to_play``'s card of ``trick``,
        put down before ``before``, nobody saw; the console is asked which it was."""
        item.early = True
        unseen = CardOnTable(zone=to_play, t=before - 1e-3)
        self.cards.items.append(unseen)
        yield from self._ask(unseen, "card-unknown", f"a card of trick {trick} has left the table but "
                             f"no sensor saw {SEAT_NAMES[to_play]}'s card: which card?", to_play, trick)

    def _down_after_pickup(self, live: list[CardOnTable]) -> Optional[CardOnTable]:
        """With no card down for the player to play: the first card put down in the zone of a seat whose
        card of the trick is recorded, after a card of the trick that had long lain there
        (:data:`STAYED`) left its zone. That player played the trick already, and the card that left
        was not knocked but picked up: the trick went, its other pickup reads missed, this card is
        of the next trick, and the card of the player to play went down unseen (game 1200648: S's
        ♣Q alone read leaving at trick 7's pickup; N's unread card of it was taken for N's ♠K of
        trick 8, read leaving at trick 8's pickup, and N's two cards were swapped)."""
        play = self.game.play
        recorded = {s for k, s, n in self.played.values() if k == play.trick_number and n}
        return min((i for i in live if i.seat in recorded and i.timed and i.card not in self.played
                    and self._left_before(i.t, lain=STAYED)), key=lambda i: i.t, default=None)

    def _last_trick_gone(self, now: float) -> Optional[Iterator[Proposal]]:
        """At the hand's last trick, a card of it that had long lain there (:data:`STAYED`) left its
        zone, not read landing in another, and nothing was put down for :data:`LAST_WAIT` since: the
        trick was picked up then, its other pickup reads missed, and the cards nobody saw are
        named or asked for (game 900422: the game's last trick, S's ♣Q alone read leaving, E's card
        never read; no next deal came to end the hand, and it was never scored). Earlier in a hand
        the next trick's cards say so (:meth:`_down_after_pickup`)."""
        play = self.game.play
        if play.trick_number != 8 or not play.trick or self.cleared_at is not None:
            return None
        left = [self.left_zone[c][2] for c in play.trick if c in self.left_zone
                and self.left_zone[c][:2] == (self.game.hand_number, 8)
                and self.left_zone[c][2] - self.put_down.get(c, 0.0) >= STAYED]
        if not left or now < min(left) + LAST_WAIT or any(i.t > min(left) for i in self.cards.items):
            return None
        return self._picked_up_at(min(left))

    def _where_thought(self, live: list[CardOnTable]) -> bool:
        """Are the cards down those of the trick the referee thinks is on the table: no card waiting
        for its turn, none of a seat whose card of this trick is recorded, one card a seat, no more
        than the players still to play? (Else a pickup went unseen and the next trick is down.)"""
        play = self.game.play
        recorded = {s for k, s, _ in self.played.values() if k == play.trick_number}
        seats = [i.seat for i in live]
        return not any(i.early for i in live) and not recorded & set(seats) and len(seats) == len(set(seats)) \
            and len(seats) <= 4 - len(play.trick)

    def _whole_without(self, early: CardOnTable, item: CardOnTable, live: list[CardOnTable]) -> bool:
        """Would the trick have been whole with ``early`` had ``item``'s player put a card down unseen
        before it, ``early`` having lain there as a play (:data:`SETTLE`) before ``item`` came? Then
        ``item`` may be the next trick's lead, the trick picked up with its reads missed: that
        ``early`` came out of turn rests on a card nobody saw, so it is asked, not written (game
        301028: E's card of trick 2 unread, N's card "out of turn" before E's lead of trick 3)."""
        seats = {i.seat for i in live if not i.early and i.timed and i.t <= early.t}
        return len(self.game.play.trick) + len(seats | {early.seat}) + 1 == 4 and item.t - early.t >= SETTLE

    def _left_before(self, t: float, lain: float = 0.0) -> bool:
        """Was a card recorded in the trick on the table seen leaving its zone before ``t`` (``lain``
        seconds or more after it was put down)?"""
        play = self.game.play
        return any(self.left_zone.get(c, (0, 0, t))[:2] == (self.game.hand_number, play.trick_number)
                   and self.left_zone[c][2] < t and self.left_zone[c][2] - self.put_down.get(c, 0.0) >= lain
                   for c in play.trick)

    def _ask(self, item: CardOnTable, kind: str, message: str, seat: Seat, trick: int,
             proposal: Optional[Card] = None) -> Iterator[Proposal]:
        """A blocking question about a card on the table, which stays there until it is answered."""
        c = yield Ask(Conflict(kind, message, trick=trick, seat=seat, blocking=True, evidence=tuple(item.oids),
                               proposal=proposal, item=item))
        item.conflict = c.id

    def _write_out_of_turn(self, item: CardOnTable) -> Iterator[Proposal]:
        card = item.card
        if card is None:
            item.early = True
            return
        evidence = tuple(item.oids) + ((item.frame,) if item.frame else ())
        yield Write({"type": "play", "seat": SEAT_NAMES[item.seat], "card": card_name(card),
                     "evidence": list(evidence)})
        item.early = True

def shown_before(items: list[CardOnTable], item: CardOnTable) -> list[CardOnTable]:
    """The cards ``item``'s player put down (or took from its hand) before it, in the same trick:
    shown and taken back (one player plays one card a trick; the reads of their going back were
    missed)."""
    return [i for i in items if i is not item and i.seat == item.seat and i.t < item.t
            and i.window == item.window and i.conflict is None and not i.early]

def _last_put_down(live: list[CardOnTable], item: CardOnTable) -> CardOnTable:
    """Of the cards ``item``'s player put down in this trick, the last one: the others were shown and
    taken back (a card waiting for its turn in a later trick is not one of them)."""
    return max([item] + [i for i in live if not i.early and item in shown_before(live, i)], key=lambda i: i.t)
