"""The play watcher: cards put down in the play zones, turned into plays, tricks and pickups.

Part of the table referee (:mod:`referee.table_referee`), which hands it the
play zones', the piles' and (during the play) the hand antennas' readings and
writes what it proposes (:mod:`referee.proposals`).

How cards become plays: the readings of each card put down are merged into
one card on the table (:mod:`referee.table_cards`); who played it is the hand
the RFID saw it leave, else the zone; RFID identifies the card (tags are not
misread), the camera confirms it. The watcher is one state in four modules:

- this one: the readings as they come, writing the plays, the console's
  answers;
- :mod:`referee.play_order`: which card on the table is whose play and when
  (in turn, out of turn, shown and taken back, of the next trick);
- :mod:`referee.play_pickup`: a trick leaving the table, its pile, and what
  the pickup's reads say the record got wrong;
- :mod:`referee.play_say`: "belote" and "rebelote", and which card they go with.

When the evidence is not good enough it asks the console instead of
accusing anyone, and answers the conflicts it raised: ``card-mismatch`` (camera and RFID disagree:
the RFID card is recorded), ``card-unknown`` (no trustworthy reading),
``camera-only`` (a camera-only table asks about every reading that is not
sure, :data:`~referee.play_order.CAMERA_SURE`, while the card is still on the
table, since a misread found tricks later would be a correction that reorders
the tricks after it), ``out-of-turn`` (a card early in a zone, nobody saw
which hand it left). A play that one read of one sensor backs is recorded with
that read as its ``sources``; a violation resting on it is "to confirm"
(:mod:`referee.to_confirm`), and the cards of the next trick wait until it is.
The rules of evidence are listed in docs/record-format.md ("What the table
takes as evidence").
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from .cards import Card, card_name, parse_card, pretty
from .deal_watch import DealWatch
from .game import Game
from .observations import CardGone, CardSeen
from .play_order import TurnOrder, shown_before
from .play_pickup import PickupWatch
from .play_say import SayWatch
from .proposals import Ask, Conflict, Impossible, Notice, Proposal, Settle, Write, chain, correction, one
from .record import RecordError
from .seats import SEAT_NAMES, Seat
from .table_cards import LATE_EDGE, CardOnTable, Played, TableCards
from .to_confirm import OneRead, ToConfirm

#: Seconds between the camera seeing a card of the trick leave its zone and seeing one land in another
#: zone within which the two are one card knocked across (a player puts a card down seconds apart).
KNOCK_GAP = 0.3


class PlayWatch(TurnOrder, PickupWatch, SayWatch):
    """The play of each hand, from the play zones, the piles and the hands."""

    def __init__(self, game: Game, deal: DealWatch, to_confirm: ToConfirm, sources: set[str],
                 blocking: set[int]):
        self.game = game                      # read only: the referee writes
        self.deal = deal                      # who was dealt which card, and whether the play is on
        self.to_confirm = to_confirm
        self.sources = sources                # the sensors seen so far ("rfid", "camera")
        self.blocking = blocking              # the open blocking conflicts' ids (read only)
        self.new_hand()

    def new_hand(self) -> None:
        self.cards = TableCards()
        # Pile reads before their trick was complete: card -> (pile, read, the trick on the table then). A
        # read is of that trick's pickup only: a card recorded in a later trick was no card of it (game
        # 1900106: W's ♣8, put down unseen at trick 7 after the ♣9 was shown, was read in NS's pile with
        # trick 7; named W's trick 8 card by elimination, its read gave trick 8, taken by EW, to NS).
        self.early_pile: dict[Card, tuple[str, int, int]] = {}
        self.played: Played = {}                                 # card -> (trick, seat, event n)
        self.says: dict[Seat, int] = {}
        self.put_down: dict[Card, float] = {}                    # card -> when its play was put down
        self.pending_say: dict[Seat, float] = {}                 # "belote" said before its card: when
        self.taken_back_say: dict[Card, str] = {}                # a card seen taken back: the word said with it
        self.displaced_say: dict[Card, str] = {}                 # a play the console gave another card: its word
        self.trick_done: Optional[dict[str, Any]] = None        # the complete trick awaiting its pickup
        self.left_zone: dict[Card, tuple[int, int, float]] = {}  # a play seen leaving its zone: hand, trick, when
        self.cleared_at: Optional[float] = None                 # the trick on the table seen picked up, incomplete
        self.moved_t: Optional[float] = None                    # the table moved on to the next deal then
        self.camera_left: Optional[tuple[Seat, float]] = None   # the camera saw a recorded card leave a zone
        self.flushed: Optional[tuple[int, Optional[float]]] = None   # the last trick written, and when it went
                                                                     # (None: its pickup is still to come)
        self.going: dict[Card, float] = {}                      # tags read leaving a zone or in a pile: when
        self.unpicked: Optional[int] = None                     # a trick seen picked up on a take-back's read
        self.zone_left: dict[Card, tuple[Seat, float]] = {}     # a tag read leaving a play zone: which, when
        # (hand, trick) of the last tag of a card recorded in an earlier trick read leaving a hand or landing
        # in a zone: a card of the record may not be where it was recorded (no card is named by elimination)
        self.stray: tuple[int, int] = (0, 0)

    # -- the readings -----------------------------------------------------------------
    def card_back_in_hand(self, obs: CardSeen, seat: Seat, oid: int) -> Iterator[Proposal]:
        """A tag arrived in ``seat``'s hand area during the play: a card shown and taken back."""
        self.cards.came_back(obs.card, obs.t)
        done = self.trick_done
        if done is not None and done["card"] == obs.card and done["seat"] == seat:
            # The trick's last card, not yet written, is back in its player's hand: it was
            # shown and taken back (its leaving the zone read late); the real card is still to come.
            self.trick_done = None
            self.played.pop(obs.card, None)
            yield Notice(f"{pretty(obs.card)} was shown and taken back into {SEAT_NAMES[seat]}'s hand")
            return
        for item in [i for i in self.cards.items if i.card == obs.card and i.conflict is None]:
            self.cards.items.remove(item)
            yield Notice(f"{pretty(obs.card)} was shown and taken back into {SEAT_NAMES[seat]}'s hand")
        trick, by, n = self.played.get(obs.card, (0, -1, 0))
        play = self.game.play
        if by == seat and n and (trick == play.trick_number or (trick == play.trick_number - 1 and not play.trick)):
            # Recorded as played, yet back in the hand: it was taken back after all (late reads).
            written = self.flushed is not None and self.flushed[0] == trick
            cleared = self.cleared_at if trick == play.trick_number else self.flushed[1] if written else None
            if cleared is not None and \
                    self.put_down.get(obs.card, float("inf")) <= self.going.get(obs.card, float("-inf")) <= cleared:
                # Its leaving the zone made its trick look picked up: that pickup is still to come, and
                # the tags then leaving the zones are of that trick (game 3400386: two cards shown and
                # taken back; the real card of one, read leaving with the pickup, was taken for the
                # next trick's and the record went a trick out of step).
                self.unpicked = trick
                if written:
                    self.flushed = (trick, None)
            yield Ask(Conflict("card-unknown", f"{pretty(obs.card)}, recorded as {SEAT_NAMES[seat]}'s card at "
                               f"trick {trick}, went back into {SEAT_NAMES[seat]}'s hand: which card did "
                               f"{SEAT_NAMES[seat]} play?", trick=trick, seat=seat, blocking=True, ref=n,
                               evidence=(oid,), proposal=obs.card))

    def card_left_hand(self, obs: CardGone, seat: Seat, oid: int) -> Iterator[Proposal]:
        """A tag left ``seat``'s hand area during the play: a card on its way to the zone. Proposes
        a question when the card is recorded as that player's card of an earlier trick."""
        self.cards.left_hand(obs, seat, oid, self.played)
        trick, by, n = self.played.get(obs.card, (0, -1, 0))
        play = self.game.play
        if trick and trick < play.trick_number and not self.cards.stale(obs.card, obs.t):
            self.stray = (self.game.hand_number, play.trick_number)
        if by == seat and n and not self.cards.stale(obs.card, obs.t) and \
                (trick < play.trick_number - 1 or (trick == play.trick_number - 1 and play.trick)):
            # Still in the hand, a trick or more later (not a late read of its going): that card was
            # shown and taken back, the reads of its going back missed, and the card really played
            # then was never read.
            yield Ask(Conflict("card-unknown", f"{pretty(obs.card)}, recorded as {SEAT_NAMES[seat]}'s card at "
                               f"trick {trick}, left {SEAT_NAMES[seat]}'s hand again at trick {play.trick_number}: "
                               f"which card did {SEAT_NAMES[seat]} play at trick {trick}?", trick=trick, seat=seat,
                               blocking=True, ref=n, evidence=(oid,), proposal=obs.card))

    def card_seen(self, obs: CardSeen, zone: Seat, oid: int) -> Optional[Iterator[Proposal]]:
        """A sensor saw a card (or an unreadable one: ``obs.card`` None) in ``zone``'s play zone.
        Proposes a question when a tag says an earlier card only the camera read was misread."""
        card = obs.card
        camera = obs.source == "camera"
        play = self.game.play
        if not camera and self.cards.stale(card, obs.t):
            return None                               # a late read of a card already back in its hand
        left = self.zone_left.get(card)
        if not camera and left is not None and left[0] == zone and 0 <= obs.t - left[1] <= LATE_EDGE:
            return None                               # its arrival read late, after its leaving: it is gone
        moved = self.camera_left
        if moved is not None and moved[0] != zone and obs.t - moved[1] <= KNOCK_GAP:
            # The camera saw a card of the trick leave another zone just before: this is that card,
            # knocked here (whatever it is read as now: a tag that disagrees with the card recorded
            # there corrects it when it leaves with the trick), not a card put down.
            return None
        if card is not None and card in self.played:
            trick, seat, n = self.played[card]
            if not camera and trick < play.trick_number:
                self.stray = (self.game.hand_number, play.trick_number)
            if obs.t > self.left_zone.get(card, (0, 0, obs.t))[2] and (not camera or seat == zone):
                del self.left_zone[card]              # back in a zone: it was moved, not picked up
            # Its tag lands in another seat's zone, not moved there: not seen leaving the recorded seat's
            # zone, nor a card the camera saw leave a zone just before (the tag's report may be late:
            # game 600261, E's ♥10 knocked into W's zone at the pickup)
            went = self.zone_left.get(card)
            elsewhere = seat != zone and not (went is not None and went[0] == seat) and \
                not (moved is not None and moved[0] != zone and obs.t - moved[1] <= LATE_EDGE)
            if not camera and n and (elsewhere or (seat == zone and trick < play.trick_number - (not play.trick))) \
                    and self._camera_alone(n) and isinstance(obs, CardSeen):
                # Its tag lands in the zone tricks after the camera alone read it there, or in another
                # seat's zone: the camera misread that seat's card as this one, which is being put down
                # now (game 6200190: S's ♣A read as the ♠A for sure, N's ♠A then shown, its tag read in
                # N's zone). (That other seat's card, the console will say; the tag is not taken for it.)
                if seat == zone:
                    self.cards.seen(obs, zone, oid, {})
                return one(Ask(Conflict(
                    "card-unknown", f"{SEAT_NAMES[seat]}'s card at trick {trick} was recorded as {pretty(card)} "
                    f"(only the camera read it), but the tag of {pretty(card)} came into {SEAT_NAMES[zone]}'s zone "
                    f"now: which card did {SEAT_NAMES[seat]} play at trick {trick}?", trick=trick, seat=seat,
                    blocking=True, ref=n, evidence=(oid,))))
            if not camera:
                return None                           # RFID does not misread: a late or moved tag
            if (trick == play.trick_number or self.trick_done is not None) and \
                    (seat == zone or card in self.cards.gone_cards):
                return None                           # seen again where it lies, or moved
            # else: the camera misread this player's card as one already played (a question, below)
        picked = self.cards.picked_up_unseen(
            zone, obs.t, [(s, self.put_down.get(c, 0.0)) for c, (_, s, _) in self.played.items()]) \
            if self.trick_done is None and not self.cards.shows(card) else None
        if picked is not None:
            self.cards.put_back(picked)
            pickup = self._picked_up_at(picked.gone_t)
            self.cards.seen(obs, zone, oid, self.played)
            return chain(one(Notice(f"{pretty(picked.card) if picked.card is not None else 'a card'} was not "
                                    f"taken back but picked up with its trick")), pickup or ())
        self.cards.seen(obs, zone, oid, self.played)
        return None

    def _note_one(self, n: int, one: OneRead) -> Iterator[Proposal]:
        self.to_confirm.note(n, one)
        yield from ()

    def _camera_alone(self, n: int) -> bool:
        """Does play event ``n`` rest on one camera read, with no second read since?"""
        one = self.to_confirm.plays.get(n)
        return one is not None and one.sensor == "camera" and one.second is None

    # -- writing the plays --------------------------------------------------------------
    def _commit(self, item: CardOnTable, seat: Seat) -> Iterator[Proposal]:
        play = self.game.play
        card = item.card
        hand = self.game.hand_number
        trick = play.trick_number
        event: dict[str, Any] = {"type": "play", "seat": SEAT_NAMES[seat], "card": card_name(card)}
        if item.say:
            event["say"] = item.say
        elif card in self.displaced_say:
            event["say"] = self.displaced_say.pop(card)   # said with it when it was recorded as an earlier play
        elif seat in self.pending_say and self._said_for(item, seat) and self._belote_card(card):
            # said before the card was read (and not long before: it was said with this card)
            event["say"] = self._say(seat)
            del self.pending_say[seat]
        evidence = tuple(item.oids) + ((item.frame,) if item.frame else ())
        event["evidence"] = list(evidence)
        one = item.one_read()
        if self.early_pile.get(card, (0, 0, 0))[2] == trick and self._pile_backs(card, seat):
            one = None                                # the pile antenna read it too: a second read
        if one is not None:
            event["sources"] = [one]
        read = next(iter(item.rfid_reads)) if one == "rfid" else ()
        cards = self.cards
        cards.items.remove(item)
        for other in [i for i in cards.items if i.conflict is None and not i.early and
                      (i.card == card or (i.seat == seat and not i.zone_seen))]:
            if other.card == card and other.zone != item.zone and other.rfid is None and \
                    other.card_override is None and other.cam_seen:
                other.cam = None                      # the camera misread another card as this one there
                continue
            cards.items.remove(other)                 # the same card seen twice, or a stale hand read
            if other.say and "say" not in event:
                event["say"] = other.say              # "belote" was said over the other reading
        for other in shown_before(cards.items, item):
            cards.items.remove(other)
            self.keep_word(other)
            if other.card is not None and other.card != card:
                cards.hand_off.pop(other.card, None)  # back in the hand, not on its way to the zone
            yield Notice(f"{pretty(other.card) if other.card is not None else 'a card'} was shown in "
                         f"{SEAT_NAMES[seat]}'s zone and taken back")
        cards.hand_off.pop(card, None)
        self.put_down[card] = item.t
        mismatch = item.cam_seen and item.cam is not None and item.rfid is not None and item.cam != item.rfid \
            and item.card_override is None
        last = len(play.trick) == 3
        if last:
            self.trick_done = {"event": event, "cards": set(play.trick) | {card}, "t": item.t, "trick": trick,
                               "seat": seat, "card": card, "one": (one, read, item.conf),
                               "mismatch": (item.cam, item.rfid) if mismatch else None, "oids": item.oids}
            if self.cleared_at is not None:           # the trick was seen picked up before its last card was decided
                self.trick_done["cleared"] = self.cleared_at
            self.played[card] = (trick, seat, 0)
            seen = [self.early_pile[c][:2] for c in self.trick_done["cards"]
                    if self.early_pile.get(c, (0, 0, 0))[2] == trick]
            if seen:
                self.trick_done["pile"], self.trick_done["pile_obs"] = min(seen, key=lambda p: p[1])
                yield from self._flush_trick()
            return
        n = len(self.game.events) + 1
        self.played[card] = (trick, seat, n)
        yield Write(event)
        yield from self._after_play(hand, trick, seat, card, n, (one, read, item.conf),
                                    (item.cam, item.rfid) if mismatch else None, item.oids)

    def _after_play(self, hand: int, trick: int, seat: Seat, card: Card, n: int, one: tuple,
                    mismatch: Optional[tuple], oids) -> Iterator[Proposal]:
        if one[0] is not None:
            self.to_confirm.note(n, OneRead(hand, card, seat, trick, *one))
        if mismatch:
            yield Ask(Conflict("card-mismatch", f"the camera read {pretty(mismatch[0])} but the RFID read "
                               f"{pretty(mismatch[1])} for {SEAT_NAMES[seat]}'s card at trick {trick}: "
                               f"the RFID's is recorded", hand=hand, trick=trick, seat=seat, proposal=mismatch[1],
                               alternative=mismatch[0], ref=n, evidence=tuple(oids)))

    def name_card(self, ref: int, card: Card, why: dict, evidence: tuple = (),
                  say: Optional[str] = None) -> Iterator[Proposal]:
        """The console names the card of play event ``ref`` (a misread): its word, not a sensor's read.
        The play keeps its evidence (the reads of that card, misread), unless ``evidence`` gives the
        reads of the card named: the recorded one was another card, shown and taken back. ``say``: the
        word said with the card named, while it waited on the table for the answer."""
        old = {k: v for k, v in self.game.current(ref).items() if k != "sources"}
        if evidence:
            old["evidence"] = list(evidence)
        if card in self.taken_back_say:
            # The card named was seen taken back with its word: it was played, with that word; the card
            # recorded, a belote card, is still to be played with its own (game 1700727: E put down the
            # ♠K with "belote", its going read as a take-back; the ♠Q put down at the next trick with
            # "rebelote" was recorded in its place, the console named the ♠K, and the ♠Q went without a
            # word, 20 points short)
            recorded = parse_card(old["card"])
            if "say" in old and recorded != card and self._belote_card(recorded):
                self.displaced_say[recorded] = old["say"]
            old["say"] = self.taken_back_say.pop(card)
        if say and "say" not in old:
            old["say"] = say
        if "say" not in old:
            # A "belote" its player said as it put the card down, waiting for a belote card while the
            # sensors held another (games 6300290, 6300392: a card shown and taken back was recorded;
            # the console named the queen of trumps put down with the word)
            old.update(self._said_with(SEAT_NAMES.index(old["seat"]), parse_card(old["card"]), card))
        yield from self.correct_play(ref, {**old, "card": card_name(card)}, "misread", why)

    def correct_play(self, ref: int, replacement: dict[str, Any], reason: str, why: dict) -> Iterator[Proposal]:
        """Correct play event ``ref`` (a misread, a belote said late): a doubt about it goes with it."""
        yield Write(correction(ref, replacement, reason, why))
        self.to_confirm.replaced(ref)

    def renumbered(self) -> dict[int, int]:
        """The hand's tricks were put in turn order (:mod:`referee.trick_order`): each card's
        play is another event of the record now. Returns the moves (old event n -> new n)."""
        replaced = self.game.replaced
        slots = {}
        for card, (_, _, n) in self.played.items():
            if n:
                event = replaced.get(n, self.game.events[n - 1])
                if event is not None and event.get("type") == "play":
                    slots[parse_card(event["card"])] = n
        moved = {}
        for card, (trick, seat, n) in list(self.played.items()):
            if n and card in slots and slots[card] != n:
                self.played[card] = (trick, seat, slots[card])
                moved[n] = slots[card]
        self.to_confirm.renumbered(moved)
        return moved

    def unplace(self, card: Card) -> None:
        """``card``'s play, which the console named without a time, was undone (its place in the
        trick came from a turn a correction changed): it is on the table again, named, and waits
        for its seat's turn."""
        trick, seat, _ = self.played.pop(card)
        window = next((i.window for i in self.cards.items if not i.early), None)
        self.cards.items.append(CardOnTable(zone=seat, t=self.put_down.pop(card, 0.0), window=window,
                                            card_override=card))

    # -- the console --------------------------------------------------------------------
    def answer(self, c: Conflict, action: str, card: Optional[Card], why: dict, oid: int = 0) -> Iterator[Proposal]:
        """The console answered (observation ``oid``) one of this part's conflicts (every kind but
        the deal watcher's)."""
        if c.kind == "out-of-turn":
            yield Settle(c, "confirmed" if action == "confirm" else "dismissed", action)
            item = c.item
            item.conflict = None
            if action == "resolve":               # out of turn, and the card was another one
                item.card_override = card
            if action in ("confirm", "resolve"):
                yield from self._write_out_of_turn(item)
            else:
                item.early = True                 # down before its turn: it waits for it
            return
        named = card if action == "resolve" else c.proposal
        if c.kind == "to-confirm" and (action == "dismiss" or named == c.proposal or
                                        (c.ref is not None and self._recorded_as(c.ref, named))):
            # (The console named the card the play holds now: a tag corrected it while the question
            # waited, and it rests on that one read; the console's word confirms it, game 3700366.)
            yield from self.to_confirm.answer(c, action, card, why)
            return
        doubt = None
        if action == "confirm":
            chosen = c.proposal
        elif action == "dismiss":
            chosen = c.alternative
        else:
            chosen = card
        if chosen is None:
            raise RecordError(f"conflict {c.id}: name the card that was played (resolve)")
        if c.item is not None:                    # a card still on the table
            if c.item.cam is None and c.item.rfid not in (None, chosen):
                # A tag is not misread: the one read there was another card's (knocked, or read from
                # a zone away), so when and how the card named came down nobody saw: it has no time,
                # and makes no card before or after it out of turn (game 301322).
                c.item.rfid, c.item.rfid_reads, c.item.oids = None, set(), []
            c.item.card_override = chosen
            c.item.conflict = None
            twin = self.played.get(chosen) if c.hand == self.game.hand_number else None
            if twin is not None and twin[2] and (twin[0], twin[1]) != (c.trick, c.seat):
                doubt = twin                      # recorded as another play: that one is asked about;
                # the hand is in doubt as if the card had been played twice
                yield Impossible(f"{pretty(chosen)} was recorded as {SEAT_NAMES[twin[1]]}'s card at trick "
                                 f"{twin[0]}, and the console named it as {SEAT_NAMES[c.seat]}'s at trick {c.trick}")
        elif c.ref is not None:                   # a play already recorded (a refused correction raises)
            old = self.game.current(c.ref)
            before = parse_card(old["card"])
            if chosen != before:
                twin = self.played.get(chosen) if c.hand == self.game.hand_number else None
                known = dict(self.played)
                if c.hand == self.game.hand_number:
                    # The real card is recorded now: the old one is still to play. (Known before the
                    # correction is written: putting the later tricks in turn reads the plays.)
                    entry = self.played.get(before)
                    if entry is not None and entry[2] == c.ref:
                        self.played[chosen] = self.played.pop(before)
                        self.done_holds(before, chosen)
                    else:
                        self.played[chosen] = (c.trick, c.seat, c.ref)
                # The card named, waiting on the table for this answer, may have taken a "belote" said
                # with it (game 1000401: E showed the ♣7, its going back unread, and put down the ♥Q with
                # "rebelote"; the ♣7 was recorded, the console named the ♥Q, and the word was lost with
                # the waiting card, 20 points short).
                said = next((i.say for i in self.cards.items if i.conflict == c.id and i.card == chosen), None)
                try:
                    yield from self.name_card(c.ref, chosen, why, self._evidence_of_named(c, chosen, oid), said)
                except RecordError:
                    self.played = known
                    raise
                if c.hand == self.game.hand_number and self.game.play is not None and \
                        c.trick >= self.game.play.trick_number - (self.trick_done is not None):
                    # Readings of the real one still waiting in a zone are that same card, while its
                    # trick is on the table; once it was picked up, they are later cards misread as it
                    # (the camera confuses two cards both ways: game 300845, W's ♠7 read as the ♠8 at
                    # trick 7, W's ♠8 as the ♠7 at trick 8), asked about as any read of a card played.
                    self.cards.items = [i for i in self.cards.items
                                        if i.conflict is not None or chosen not in (i.rfid, i.cam)]
                if twin is not None and twin[2] and twin[2] != c.ref:
                    doubt = twin                  # that card was recorded as another play of the hand too
            for item in self.cards.items:             # a card that waited on this question about its seat's
                if item.conflict == c.id:             # recorded card: the same card now, or another one later
                    item.conflict = None
                    elsewhere = item.card is not None and item.card_override is None and \
                        (item.card in self.played or any(o is not item and o.card == item.card and
                                                         o.seat != item.seat for o in self.cards.items))
                    if item.card == chosen or elsewhere:
                        # (A card recorded as another seat's play, or on the table as another seat's
                        # card, is not this seat's next card: a tag read a zone away, or knocked there;
                        # waiting, it took the place of the card this seat put down next, and hid
                        # that one's time: game 301322.)
                        self.cards.items.remove(item)
                    else:
                        item.early = True
                    break
        yield Settle(c, {"confirm": "confirmed", "dismiss": "dismissed"}.get(action, "resolved"), action)
        if doubt is not None:
            # A card is played once: its other play in the record is a card nobody read right.
            trick, seat, n = doubt
            yield Ask(Conflict("card-unknown", f"{pretty(chosen)} is {SEAT_NAMES[c.seat]}'s card at trick {c.trick}, "
                               f"but it was recorded as {SEAT_NAMES[seat]}'s card at trick {trick} too: which card "
                               f"did {SEAT_NAMES[seat]} play at trick {trick}?", trick=trick, seat=seat,
                               blocking=True, ref=n))

    @staticmethod
    def _evidence_of_named(c: Conflict, chosen: Card, oid: int) -> tuple:
        """The evidence of the card the console named, answering ``c`` (observation ``oid``), for a
        recorded play: none of its own (``()``: the play keeps its reads, of that card misread),
        unless the question rests on a read saying the recorded card was another card, shown and
        taken back (a ``card-unknown`` with a read and a card it proposes). Then the reads recorded
        are of that other card (game 3400386): the card named has the question's read when it is
        the card proposed, else the console's word alone."""
        if c.kind != "card-unknown" or c.proposal is None or not c.evidence:
            return ()
        return tuple(c.evidence) if chosen == c.proposal else (oid,) if oid else ()

    def _recorded_as(self, n: int, card: Optional[Card]) -> bool:
        """Does play event ``n`` hold ``card`` now (as corrected)?"""
        event = self.game.current(n)
        return card is not None and event is not None and event.get("type") == "play" and \
            parse_card(event["card"]) == card
