"""The play watcher's pickups: a trick leaving the table, and what its reads say of it.

Part of the play watcher (:mod:`referee.play_watch`, whose state it reads and
changes: it is a mixin of :class:`~referee.play_watch.PlayWatch`, apart so that
each module reads in one sitting). A trick ends when its cards leave the
zones (two or more: one card leaving is a knock or a take-back, unless it had
lain there :data:`STAYED` seconds); its pile is the first pile antenna that
reads one of its cards, and a pile that is not the winner's side's is a
``wrong-pickup`` (the referee finds it on the trick's last play, which carries
the ``pickup``). The reads of a pickup also tell what the record got wrong: a
tag no play holds leaving a zone or reaching a pile says a card of the trick
was misread (corrected, when the camera alone read it) or shown and taken back
(asked); cards nobody saw are asked for before the trick is written.
"""

from __future__ import annotations

from typing import Iterator, Optional

from .cards import Card, card_name, parse_card, pretty
from .observations import CardGone, Observation
from .proposals import Ask, Conflict, Notice, Proposal, Write, chain, one
from .seats import SEAT_NAMES, Seat
from .table_cards import CardOnTable
from .to_confirm import OneRead

#: Seconds a card must have lain in its zone before its leaving is the pickup, not a take-back: a card
#: that stayed :data:`~referee.play_order.SETTLE` was played (a card shown is taken back well within it),
#: and a late read of its leaving can add a few tenths.
STAYED = 1.3
#: Seconds after a trick's last card within which another card its player puts down (before the
#: pickup) is the one it played, the first shown and taken back: a trick cannot be gathered and the
#: next one led in less.
SWAP_WAIT = 2.0
#: Seconds after a trick was picked up within which a pile read is of that trick (not of the next one).
PILE_LATE = 2.5
#: Seconds after a trick is cleared to wait for the pile antennas.
PICKUP_WAIT = 1.5


class PickupWatch:
    """The pickups of the play watcher (a mixin of :class:`~referee.play_watch.PlayWatch`)."""

    def card_gone(self, source: str, zone: Seat, card: Optional[Card], t: float,
                  oid: int, asked: bool = False) -> Optional[Iterator[Proposal]]:
        """A card (or every card: ``card`` None) left a play zone: a pickup, a knock or a take-back.
        Proposes a question when the trick is being picked up without a card nobody saw, or when
        a tag no play holds leaves a zone whose recorded card a tag backs (``asked``: done)."""
        play = self.game.play
        on_table = set(play.trick) | (self.trick_done["cards"] if self.trick_done else set())
        cards = self.cards
        if source == "rfid" and card is not None:
            self.going[card] = t                      # its tag was on the table when it left
            self.zone_left[card] = (zone, t)
            if self.played.get(card, (play.trick_number,))[0] < play.trick_number - 1:
                self.stray = (self.game.hand_number, play.trick_number)   # (not the last trick's pickup)
        if source == "camera" and card is not None:
            trick = self.trick_done["trick"] if self.trick_done else play.trick_number
            there = any(k == trick and s == zone for k, s, _ in self.played.values()) or \
                any(i.zone == zone and not i.early for i in cards.items)
            self.camera_left = (zone, t) if there else None
        if source == "rfid" and card is not None and card not in on_table and card not in self.played and \
                not cards.shows(card, zone) and not cards.just_back(card, t):
            if not play.trick and self._just_written(t):
                # Leaving with the trick just written (its pickup's last reads), not a card of the next.
                self._time_pickup(t)
                last = play.trick_number - 1
                return self._wrong_card(zone, card, oid, last) or \
                    (None if asked else self._ask_taken_back(zone, card, oid, trick=last))
            misread = self._wrong_card(zone, card, oid)
            if misread is not None:
                on_table.add(card)
                cards.went(card, t)
                return chain(misread, self.card_gone(source, zone, card, t, oid))
            question = None if asked else self._ask_taken_back(zone, card, oid)
            if question is not None:
                return chain(question, self.card_gone(source, zone, card, t, oid, asked=True))
            unread = next((i for i in cards.items if i.zone == zone and i.card is None and not i.early
                           and i.conflict is None), None)
            if unread is not None:
                # The card the camera saw land there and could not read: this is its tag.
                unread.add_rfid(card, (f"play:{SEAT_NAMES[zone]}", "out"))
                unread.oids.append(oid)
            else:
                # A tag leaving a play zone that no sensor saw arrive: it was played there, in turn.
                # Another card seen put down in that zone this trick was shown and taken back (its
                # going back unread): this one was still there when the trick went, so it is the one
                # put down last.
                mine = [i.t for i in cards.items if i.zone == zone and not i.early and i.conflict is None]
                before = max(mine) + 1e-3 if mine else min([i.t for i in cards.items if not i.early],
                                                           default=t) - 1e-3
                item = CardOnTable(zone=zone, t=before, oids=[oid])
                item.add_rfid(card, (f"play:{SEAT_NAMES[zone]}", "out"))
                cards.items.append(item)
        elsewhere = source == "camera" and card in self.played and self.played[card][1] != zone
        if card is not None and (card in on_table or cards.shows(card)) and not elsewhere:
            # A card of this trick (not a late read of the last one; and, the camera's, where it lies:
            # one it reads leaving another seat's zone is another card, shown there, misread as it).
            cards.went(card, t)
            if card in play.trick:
                self.left_zone[card] = (self.game.hand_number, play.trick_number, t)
        here = on_table | {c for i in cards.items for c in (i.cam, i.rfid) if c is not None}
        pickup = (card is None and (on_table or cards.items)) or len(cards.gone_since_last_down(here)) >= 2
        if pickup:
            return self._picked_up_at(t)
        if card is None or card in on_table:
            return None                               # one card moved (knocked): it stays the play it was
        for item in cards.items:                      # maybe taken back: decided once the pickup is ruled out
            if item.zone == zone and card == (item.cam if source == "camera" else item.rfid) \
                    and item.conflict is None and not item.early:
                if item.timed and not item.closed and (t - item.t >= STAYED or self._last_card(item)):
                    # It had long settled, or it is the last card its player held: it was played, and
                    # goes with the trick being picked up (its other cards' reads missed), not back
                    # to the hand.
                    return self._picked_up_at(t)
                item.gone_t = t                       # (one nobody saw put down, first read leaving
                                                      # now: :meth:`TableCards.taken_back` says which)
        return None

    def _wrong_card(self, zone: Optional[Seat], card: Card, oid: int,
                    trick: Optional[int] = None, pile: str = "") -> Optional[Iterator[Proposal]]:
        """A tag, ``card``, no play of this hand holds, is read as ``trick`` (default: the one on the
        table) is picked up: leaving ``zone``, or (``zone`` None) in a pile. A tag is not misread,
        so a card of the trick was recorded wrong: the camera misread it, or (RFID) the card was
        shown and taken back with the reads of its going back missed, and ``card``, the one really
        played, was never read arriving. Leaving ``zone``: that seat's card still waiting for the
        pickup, or recorded on one camera read (one a tag backs is asked about:
        :meth:`_ask_taken_back`); in a pile: the one card of the trick only the camera read (with
        RFID reads missing, a card in a pile that nobody saw played is as likely of the next
        trick). The play is corrected with the tag's card, or the pending one changed; None when
        no card (or more than one in a pile) could be the wrong one: a question later."""
        trick = trick or self.game.play.trick_number
        edge = (f"play:{SEAT_NAMES[zone]}", "out") if zone is not None else (f"pile:{pile}", "in")
        done = self.trick_done
        mine = [(c, n, s) for c, (k, s, n) in self.played.items() if k == trick and zone in (None, s) and c != card
                and (self._camera_alone(n) if n else done is not None and done["card"] == c
                     and (zone is not None or done["one"][0] == "camera"))]
        if len(mine) != 1:
            return None
        read, n, zone = mine[0]
        said = self._said_with(zone, read, card)
        if not n:                                     # the trick's last card, waiting for its pickup
            done["event"] = {**{k: v for k, v in done["event"].items() if k != "sources"},
                             "card": card_name(card), "sources": ["rfid"],
                             "evidence": done["event"].get("evidence", []) + [oid], **said}
            done["card"] = card
            done["one"] = ("rfid", edge, 1.0)
            done["cards"] = (done["cards"] - {read}) | {card}
            self.played[card] = self.played.pop(read)
            return iter(())
        old = {k: v for k, v in self.game.current(n).items() if k != "sources"}
        self.played[card] = self.played.pop(read)
        self.done_holds(read, card)
        fixed = self.correct_play(n, {**old, "card": card_name(card), "sources": ["rfid"],
                                      "evidence": old.get("evidence", []) + [oid], **said}, "misread",
                                  {"evidence": [oid]})
        # The tag's one read is the play's now: a violation resting on it waits for a second read
        # (the pile's) or the console, as any play read once does.
        return chain(fixed, self._note_one(n, OneRead(self.game.hand_number, card, zone, trick, "rfid", edge)))

    def done_holds(self, read: Card, card: Card) -> None:
        """A play of the trick awaiting its pickup, recorded as ``read``, is ``card`` now (a tag or the
        console corrected it): the trick holds that card, so that its pile read gives its pile (game
        6600294: E's ♦A, read ♣A by the camera, corrected by its tag leaving the zone; game 1200397:
        N's ♥9 shown and taken back, the ♥Q named at the console; the pile's read of the card named
        was not of the trick, and its wrong pickup was missed)."""
        done = self.trick_done
        if done is not None and read in done["cards"]:
            done["cards"] = (done["cards"] - {read}) | {card}

    def _shown_then_played(self) -> Optional[Notice]:
        """The trick awaiting its pickup is going: did its last player put down another card soon
        after the one recorded, before the pickup began? One player plays one card a trick, the
        last one put down: the one recorded was shown and taken back (the reads of its going back
        missed), as :func:`_last_put_down` has it for the other cards. (Later than
        :data:`SWAP_WAIT`, it is that player's lead of the next trick.)"""
        done = self.trick_done
        cleared = done.get("cleared")
        item = max((i for i in self.cards.items if i.seat == done["seat"] and i.conflict is None and not i.early
                    and i.card is not None and i.card not in self.played and done["t"] < i.t < done["t"] + SWAP_WAIT
                    and (cleared is None or i.t < cleared)), key=lambda i: i.t, default=None)
        if item is None:
            return None
        shown, card = done["card"], item.card
        self.cards.items.remove(item)
        done["event"] = {**{k: v for k, v in done["event"].items() if k not in ("sources", "say")},
                         "card": card_name(card), "evidence": list(item.oids),
                         **({"say": item.say} if item.say else {})}    # said with it (game 6300191)
        one = item.one_read()
        if one is not None:
            done["event"]["sources"] = [one]
        done.update(card=card, cards=(done["cards"] - {shown}) | {card}, oids=item.oids, mismatch=None,
                    one=(one, next(iter(item.rfid_reads)) if one == "rfid" else (), item.conf))
        self.played[card] = self.played.pop(shown)
        self.put_down[card] = item.t
        return Notice(f"{pretty(shown)} was shown in {SEAT_NAMES[done['seat']]}'s zone and taken back: "
                      f"{pretty(card)}, put down after it, is {SEAT_NAMES[done['seat']]}'s card")

    def _just_written(self, t: float) -> bool:
        """Was the trick before the one on the table (none of whose cards is recorded yet) picked up
        just before ``t``, or is its pickup still to come, so that a read at ``t`` is of its pickup?
        (A read it says so of then times that pickup: :meth:`_time_pickup`.)"""
        play = self.game.play
        if self.flushed is None or self.flushed[0] != play.trick_number - 1:
            return False
        return self.flushed[1] is None or t - self.flushed[1] < PILE_LATE

    def _time_pickup(self, t: float) -> None:
        """A read at ``t`` is of the pickup of the trick just written: when nobody saw that pickup,
        this first read of it times it (the reads within :data:`PILE_LATE` after are of it too)."""
        if self.flushed is not None and self.flushed[1] is None:
            self.flushed = (self.flushed[0], t)

    def _dealt_in_pile(self, card: Card, oid: int, pile: str, trick: int, t: float) -> Optional[Iterator[Proposal]]:
        """``card``, which no play holds and not a card the camera alone read wrong, went to
        ``pile`` with ``trick``: the card its holder was dealt went with the trick, so that seat's
        recorded card of it (backed by a tag) was shown and taken back. Asked, when the antennas
        saw who was dealt it or one play of the trick alone was not read going with it (None
        otherwise)."""
        if card in self.cards.back_in_hand:
            return None
        holder = self.deal.holder(card)
        if holder is None:
            # Who was dealt it, the antennas missed: the one play of the trick whose tag no antenna
            # read going with the trick (leaving its zone, in a pile, just before ``t``) is the card
            # shown and taken back.
            shown = [s for c, (k, s, n) in self.played.items() if k == trick and n
                     and t - self.going.get(c, -PILE_LATE) >= PILE_LATE]
            if len(shown) > 1:
                # Several, of which the camera alone read some: the tag is one of those misread, the
                # least sure is asked about. Taken instead for a card of the next trick, picked up
                # unseen, it put the record a trick out of step for the rest of the hand (game 1000388:
                # N's ♣7 read ♠7 at 0.90 beside S's ♣9 at 0.999; 30 questions, and the rebelote lost).
                alone = [(self.to_confirm.plays[n].conf, s) for c, (k, s, n) in self.played.items()
                         if k == trick and s in shown and n and self._camera_alone(n)]
                shown = [min(alone)[1]] if alone else shown
            if len(shown) != 1:
                return None
            holder = shown[0]
        return self._ask_taken_back(holder, card, oid, pile, trick)

    def _ask_taken_back(self, zone: Seat, card: Card, oid: int, pile: str = "",
                        trick: Optional[int] = None) -> Optional[Iterator[Proposal]]:
        """A tag no play holds, ``card``, left ``zone`` (or reached ``pile`` with the trick, dealt
        to ``zone``'s seat) while the seat's card of the trick on the table is recorded, backed by a
        tag: that card was shown and taken back (the reads of its going back missed) and ``card``
        really played, or the trick was picked up unseen and ``card`` is of the next one. Which,
        only the console can say."""
        trick = trick or self.game.play.trick_number
        mine = next(((c, n) for c, (k, s, n) in self.played.items() if k == trick and s == zone and n), None)
        if mine is None:
            return None
        event = self.game.current(mine[1])
        if not event.get("evidence") or "console" in event.get("sources", ()):
            return None                               # the console settled it
        seen = f"{pretty(card)}, a card no play holds, went to {pile}'s pile with the trick" if pile else \
            f"{pretty(card)} left {SEAT_NAMES[zone]}'s zone"
        return one(Ask(Conflict(
            "card-unknown", f"{SEAT_NAMES[zone]}'s card at trick {trick} was recorded as {pretty(mine[0])}, but "
            f"{seen}: which card did {SEAT_NAMES[zone]} play at trick {trick}?", trick=trick, seat=zone,
            blocking=True, ref=mine[1], proposal=card, evidence=(oid,))))

    def _picked_up_at(self, t: float, unseen: bool = False) -> Optional[Iterator[Proposal]]:
        """The trick on the table is being picked up (its cards leave the zones, or reach a pile;
        ``unseen``: a pile read a card of it that nobody saw played)."""
        cards = self.cards
        window = cards.pickups
        for item in cards.items:
            item.gone_t = None                        # picked up with the trick, not taken back
            if item.window is None:
                item.window = window                  # a later card in its zone is another card
        if unseen or any(i.window == window for i in cards.items):
            cards.pickups += 1
        if self.trick_done is not None:
            self.trick_done.setdefault("cleared", t)
            return None
        if unseen or self.game.play.trick or any(not i.early for i in cards.items):
            if self.cleared_at is None:
                self.cleared_at = t                   # its last card, decided later, was picked up then
            return self._missing_play(t, window)
        return None

    def moved_on(self, t: float) -> Iterator[Proposal]:
        """The table has moved on (a call entered, a card in the dealing area) while the hand is
        still played in the record: its last trick was picked up with reads missing. Its pickup is
        taken as seen, and the cards nobody saw are asked for, instead of taking the next hand's
        calls for calls after the auction."""
        play = self.game.play
        if play is None or play.done:
            return
        self.moved_t = t
        if self.trick_done is not None:
            self.trick_done.setdefault("cleared", t)
            return
        yield from self._picked_up_at(t, unseen=True) or ()

    def _missing_play(self, t: float, window: int) -> Iterator[Proposal]:
        """The trick is being picked up but players still to play have no card: nobody saw them."""
        play = self.game.play
        items = self.cards.items
        if self.blocking:
            return
        order = [(play.to_play + k * (1 if self.game.options.clockwise else 3)) & 3 for k in range(4 - len(play.trick))]
        for k, seat in enumerate(order):
            if any(i.seat == seat for i in items):
                continue
            # It was put down in turn: after the cards of the players before it, before those after it.
            before = [i.t for i in items if not i.early and i.seat in order[:k]]
            after = [i.t for i in items if not i.early and i.seat in order[k + 1:]]
            at = max(before) + 1e-3 if before else min(after, default=t) - 1e-3
            item = CardOnTable(zone=seat, t=at, window=window)
            items.append(item)
            left = self._one_card_left(seat, {i.card for i in items}) if self._last_by_elimination() else None
            if left is not None:
                # The hand's last trick, this the one card nobody saw (resting on the record as on one
                # read), not asked.
                item.card_override, item.deduced = left, True
                continue
            yield from self._ask(item, "card-unknown", f"trick {play.trick_number} is being picked up but no "
                                 f"sensor saw {SEAT_NAMES[seat]}'s card: which card?", seat, play.trick_number)

    def _last_by_elimination(self) -> bool:
        """May a card of the trick on the table that no sensor read be named by elimination
        (:meth:`_one_card_left`)? Only at the hand's last trick, none of whose reads was of a tag
        recorded in an earlier trick (a card of the record is then not where it was recorded, and the
        card left not the one played: seed 3's game 300030), and on a table with RFID: without it, a
        confident camera misread earlier in the hand that named this very card is never asked about,
        and the card left is then the misread one (seed 10 at 10,000 hands, one hand each camera-only
        table, a failed contract scored made in game 1000126; asked, the console names the card and
        the misread is found)."""
        return self.game.play.trick_number == 8 and self.stray != (self.game.hand_number, 8) and \
            "rfid" in self.sources

    def _last_card(self, item: CardOnTable) -> bool:
        """Is ``item`` the last card of the hand's last trick, the one card its player still held
        (:meth:`_one_card_left`), so that it leaving its zone is the pickup however soon? No other card
        can be played in its place (game 2000383, seed 20, contrée RFID only, the game's last hand: S's
        ♦9 left its zone a second after it landed, every other read of the pickup missed; it was taken
        as shown and taken back, and the hand, waiting for S's card, was never scored)."""
        play = self.game.play
        return self._last_by_elimination() and len(play.trick) == 3 and item.card is not None and \
            self._one_card_left(item.seat, set()) == item.card

    def _one_card_left(self, seat: Seat, down: set) -> Optional[Card]:
        """The one card of the deck that no play holds nor a card of ``down`` (the other cards of the
        hand's last trick): ``seat``'s card by elimination; None when more than one is left, or the
        antennas saw it dealt to another seat (:meth:`_missing_play`, :meth:`TurnOrder._last_of_deck`)."""
        left = set(range(32)) - set(self.played) - down
        if len(left) != 1:
            return None
        card = left.pop()
        return card if self.deal.holder(card) in (None, seat) else None

    def card_in_pile(self, card: Card, where: str, t: float, oid: int) -> Optional[Iterator[Proposal]]:
        """A pile antenna (``where``: ``NS`` or ``EW``) read ``card``: who picked the trick up.
        Proposes the trick's last play once its pile is known."""
        self.going[card] = t
        done = self.trick_done
        if done is None:
            play = self.game.play
            if play is not None and (card in play.trick or self.cards.shows(card)):
                # its trick's last play is not decided yet
                self.early_pile.setdefault(card, (where, oid, play.trick_number))
                self.cards.went(card, t)
                return self._picked_up_at(t)          # a card of the trick in a pile: it is being picked up
            if play is not None and card not in self.played:
                if play.trick:                        # the trick on the table: a recorded card of it wrong?
                    # Or the card of a player still to play, put down unseen. Named at the console as
                    # either, its trick went to this pile (games 401022, 401432: a hand's last trick,
                    # no read after it).
                    self.early_pile.setdefault(card, (where, oid, play.trick_number))
                    # Whose it is: the seat dealt it (seen by the antennas), whose recorded card was then
                    # shown and taken back; not known, a player still to play put it down unseen (a
                    # question about a recorded card instead left the pickup unnoted and the record a
                    # trick out of step: game 4600337).
                    question = self._dealt_in_pile(card, oid, where, play.trick_number, t) \
                        if self.deal.holder(card) is not None else None
                    if question is not None:
                        return question
                elif play.trick_number > 1:           # the trick just picked up: misread?
                    misread = self._wrong_card(None, card, oid, play.trick_number - 1, where)
                    if misread is None and self._just_written(t):
                        timed = self.flushed[1] is not None
                        self._time_pickup(t)
                        misread = self._dealt_in_pile(card, oid, where, play.trick_number - 1, t)
                        if misread is None and timed:
                            # Read less than PILE_LATE after the last trick went: of its pickup (a card
                            # shown and taken back, the real one unread, which of its plays the reads
                            # cannot say: asked when the card recorded is played again), not of a next
                            # trick played and picked up unseen in that time (game 1200744: four
                            # questions, and W's card out of turn at trick 3 was missed).
                            return None
                    if misread is not None:
                        return misread
                # A card nobody saw played: so was its trick, the one on the table, none of whose cards
                # is recorded yet, and it went to this pile (game 7200295, harsher faults, RFID only: N
                # led trick 1 unseen, the others' cards waiting for it; the pile's one read was of N's
                # card, and EW's wrong pickup was missed).
                self.early_pile.setdefault(card, (where, oid, play.trick_number))
                return self._picked_up_at(t, unseen=True)
            return None
        if card not in done["cards"] and card not in self.played:
            return self._wrong_card(None, card, oid, done["trick"], where) or \
                self._dealt_in_pile(card, oid, where, done["trick"], t)
        if card not in done["cards"] or done.get("pile"):
            return None
        done["pile"] = where
        done["pile_obs"] = oid
        done["pile_card"] = card
        # Picked up by now at the latest: the reads of its pickup that follow are of this trick, not of
        # the next (game 3400329: W's real card, read leaving the zone 3 s after the shown one was put
        # down, was taken for the next trick's).
        done.setdefault("cleared", t)
        return self._flush_trick()

    def out_of_step(self, obs: Observation) -> bool:
        """Does this play-zone or pile read of a recorded card contradict the trick the record has it
        in: a pile read in the other side's pile than that trick went to, or a tag leaving a zone
        :data:`PILE_LATE` seconds or more after that trick was picked up? Then it is no second read
        of that play (game 500544: trick 7's pickup reads "confirmed" two cards the record, a trick
        out of step, had in trick 6, and a wrong pickup resting on them was shown, then withdrawn)."""
        trick = self.played.get(obs.card, (0, -1, 0))[0]
        if not trick:
            return False
        if obs.zone.startswith("pile:"):
            events = [self.game.current(n) for k, _, n in self.played.values() if k == trick and n]
            pile = next((e["pickup"]["pile"] for e in events if e and e.get("pickup")), None)
            return pile is not None and obs.zone != f"pile:{pile}"
        went = self.flushed[1] if self.flushed is not None and self.flushed[0] == trick else None
        return isinstance(obs, CardGone) and went is not None and obs.t - went >= PILE_LATE

    def unseen_going(self, hand: int, n: int) -> Optional[OneRead]:
        """Play event ``n`` of the hand being played, if no antenna has read its card going with its
        trick (leaving the zone, in a pile) since it was put down, though a table with RFID could:
        the card may have been shown and taken back, its return unread. None for a play read once
        (asked about anyway), confirmed, named at the console, or on a table without RFID."""
        if hand != self.game.hand_number or "rfid" not in self.sources:
            return None
        event = self.game.current(n)
        if not event or event.get("type") != "play" or event.get("sources") or not event.get("evidence"):
            return None
        card = parse_card(event["card"])
        trick, seat, m = self.played.get(card, (0, -1, 0))
        if m != n or self.going.get(card, float("-inf")) >= self.put_down.get(card, float("inf")):
            return None
        return OneRead(hand, card, seat, trick, "rfid", read=(f"play:{SEAT_NAMES[seat]}", "in"), going=True)

    def note_unseen_going(self, hand: int, n: int) -> None:
        """Play ``n`` of ``hand``, not read once, whose card no antenna has read going with its
        trick yet (it may have been shown and taken back, its return unread, and the real card
        never read: game 3100367) is noted as resting on that one read, to confirm before a wrong
        pickup or a lead out of turn rests on it."""
        if self.game.read_once(n) or n in self.to_confirm.plays:
            return
        one = self.unseen_going(hand, n)
        if one is not None:
            self.to_confirm.note(n, one)

    def _pile_backs(self, card: Card, seat: Seat) -> bool:
        """Is a pile antenna's read of ``card`` a second read of ``seat``'s play of it? It says that the
        card went with the trick, not whose it was: not when its tag was read leaving another seat's zone
        (game 6200288, harsher faults: N's ♣Q, knocked into W's zone, was read there by the camera alone
        and recorded as W's card; W's ♣K, unread, was named N's by elimination. The pile's reads of both
        "confirmed" them, though the tags had left N's and W's zones the other way round, and a wrong
        pickup was shown. Now the play stays read once, and the violation is asked at the console.)"""
        return self.zone_left.get(card, (seat,))[0] == seat

    def _picked_up(self, now: float) -> bool:
        """Has the complete trick awaiting its pickup been picked up by ``now``? Its pickup was
        seen, or time or a next card says it happened."""
        done = self.trick_done
        cleared = done.get("cleared")
        wait = PICKUP_WAIT if "rfid" in self.sources else 0.0      # no pile antennas to wait for
        # A later card says so, unless it is in the zone of the trick's last card with no sign of the
        # pickup yet: then it may be the card that player really put down (the one recorded shown
        # and taken back, its return reads missed); the pile's reads will say (:meth:`card_in_pile`).
        return (cleared is not None and now >= cleared + wait) or now >= done["t"] + 8.0 or \
            any(i.t > done["t"] + 0.1 and not i.early and i.timed and i.seat != done["seat"] for i in self.cards.items)

    def _flush_trick(self) -> Iterator[Proposal]:
        """Write the trick's last play, with who picked the trick up."""
        if self.trick_done is None:
            return
        swapped = self._shown_then_played()
        if swapped is not None:
            yield swapped
        done, self.trick_done = self.trick_done, None
        self.flushed = (done["trick"], None if self.unpicked == done["trick"] else done.get("cleared", done["t"]))
        self.cleared_at = None
        self.cards.trick_written(done["t"])
        hand = self.game.hand_number
        event = done["event"]
        if event.get("sources") and done.get("pile_card") == done["card"] and \
                self._pile_backs(done["card"], done["seat"]):
            del event["sources"]                      # the pile antenna read it too: a second read
            done["one"] = (None, (), 1.0)
        if done.get("pile"):
            pile = done["pile"]
            event["pickup"] = {"pile": pile, "evidence": [done["pile_obs"]]}
        n = len(self.game.events) + 1
        self.played[done["card"]] = (done["trick"], done["seat"], n)
        yield Write(event)
        yield from self._after_play(hand, done["trick"], done["seat"], done["card"], n, done["one"],
                                    done["mismatch"], done["oids"])
