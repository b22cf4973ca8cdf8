"""The play watcher: cards put down in the play zones, turned into plays, tricks and pickups.

Part of the table referee (:mod:`referee.table_referee`), which hands it the
play zones', the piles' and (during the play) the hand antennas' readings and
writes what it proposes (:mod:`referee.proposals`).

How cards become plays: the readings of each card put down are merged into
one card on the table (:mod:`referee.table_cards`), which is a play once it has stayed
there :data:`SETTLE` seconds or the next player's card appears (a card shown
and taken back never is); who played it is the hand the RFID saw it leave,
else the zone; RFID identifies the card (tags are not misread), the camera
confirms it. A card in a zone before the player whose turn it is puts theirs
down is out of turn. A trick ends when its cards leave the zones (two or
more: one card leaving is a knock or a take-back); its pile is the first
pile antenna that reads one of its cards, and a pile that is not the
winner's side's is a ``wrong-pickup`` (the referee finds it on the trick's
last play, which carries the ``pickup``).

When the evidence is not good enough it asks the console instead of
accusing anyone, and answers the conflicts it raised: ``card-mismatch`` (camera and RFID disagree:
the RFID card is recorded), ``card-unknown`` (no trustworthy reading),
``camera-only`` (a camera-only table asks about every reading that is not
sure, :data:`CAMERA_SURE`, while the card is still on the table, since a
misread found tricks later would be a correction that reorders the tricks
after it), ``out-of-turn`` (a card early in a zone, nobody saw which hand it
left). A play that one read of one sensor backs is recorded with that read as
its ``sources``; a violation resting on it is "to confirm"
(:mod:`referee.to_confirm`), and the cards of the next trick wait until it is.
The rules of evidence are listed in docs/record-format.md ("What the table
takes as evidence").

Why one module over 500 lines: deciding a card (in turn, out of turn, shown
and taken back, of a trick picked up unseen, misread) reads and changes the
same state of the trick on the table, and each decision is only right next to
the others; what is not that state lives apart (the cards' reads in
:mod:`referee.table_cards`, the plays read once in :mod:`referee.to_confirm`).
"""

from __future__ import annotations

from typing import Any, Generator, Iterator, Optional

from .cards import KING, QUEEN, Card, card_name, parse_card, pretty, rank_of, suit_of
from .deal_watch import DealWatch
from .game import Game
from .observations import CardGone, CardSeen
from .play import HandPlay
from .proposals import Ask, Conflict, Notice, Proposal, Settle, Write, correction
from .record import RecordError
from .seats import SEAT_NAMES, Seat
from .table_cards import CardOnTable, Played, TableCards
from .to_confirm import OneRead, ToConfirm
from .trump_tables import ALL_TRUMP, NO_TRUMP

#: Seconds a card must stay in a play zone before it counts as played (a card
#: shown and taken back within this time was never played).
SETTLE = 1.0
#: Seconds a card must have lain in its zone before its leaving is the pickup, not a take-back: a card
#: shown is taken back within a second, and a read can come 0.8 s late.
STAYED = 2.0
#: Seconds to wait for the RFID to confirm a card only the camera read.
RFID_WAIT = 1.0
#: Seconds to wait for any reading of a card nobody could read yet.
UNKNOWN_WAIT = 2.0
#: Without RFID, a camera reading at or below this confidence is asked at once, while the card is still
#: on the table: vision reads score 0.8 (a bare read) to 1 (a clear lead, docs/vision.md), and a
#: misread found tricks later would be a correction that reorders every trick after it.
CAMERA_SURE = 0.9
#: Seconds after a trick's last card within which another card its player puts down (before the
#: pickup) is the one it played, the first shown and taken back: a trick cannot be gathered and the
#: next one led in less.
SWAP_WAIT = 2.0
#: Seconds between the camera seeing a card of the trick leave its zone and seeing one land in another
#: zone within which the two are one card knocked across (a player puts a card down seconds apart).
KNOCK_GAP = 0.3
#: Seconds after a trick was picked up within which a pile read is of that trick (not of the next one).
PILE_LATE = 2.5
#: Seconds after a trick is cleared to wait for the pile antennas.
PICKUP_WAIT = 1.5
#: Seconds a "belote" said before its card was read waits for that card: it is said as it is played.
SAY_WAIT = 5.0
#: Seconds after a card was put down that a "belote" said with no card of that seat on the table
#: still goes with it; said later, it goes with the seat's next card (maybe one nobody read yet).
SAY_RECENT = 2.0


class PlayWatch:
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
        self.early_pile: dict[Card, tuple[str, int]] = {}        # pile reads before their trick was complete
        self.played: Played = {}                                 # card -> (trick, seat, event n)
        self.says: dict[Seat, int] = {}
        self.put_down: dict[Card, float] = {}                    # card -> when its play was put down
        self.pending_say: dict[Seat, float] = {}                 # "belote" said before its card: when
        self.trick_done: Optional[dict[str, Any]] = None        # the complete trick awaiting its pickup
        self.left_zone: dict[Card, tuple[int, int, float]] = {}  # a play seen leaving its zone: hand, trick, when
        self.cleared_at: Optional[float] = None                 # the trick on the table seen picked up, incomplete
        self.moved_t: Optional[float] = None                    # the table moved on to the next deal then
        self.camera_left: Optional[tuple[Seat, float]] = None   # the camera saw a recorded card leave a zone
        self.flushed: Optional[tuple[int, float]] = None        # the last trick written, and when it went
        self.going: set[Card] = set()                           # tags read leaving a zone or in a pile

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
        moved = self.camera_left
        if moved is not None and moved[0] != zone and obs.t - moved[1] <= KNOCK_GAP:
            # The camera saw a card of the trick leave another zone just before: this is that card,
            # knocked here (whatever it is read as now: a tag that disagrees with the card recorded
            # there corrects it when it leaves with the trick), not a card put down.
            return None
        if card is not None and card in self.played:
            trick, seat, n = self.played[card]
            if obs.t > self.left_zone.get(card, (0, 0, obs.t))[2] and (not camera or seat == zone):
                del self.left_zone[card]              # back in a zone: it was moved, not picked up
            if not camera and seat == zone and n and trick < play.trick_number - (not play.trick) \
                    and self._camera_alone(n) and isinstance(obs, CardSeen):
                # Its tag lands in the zone tricks after the camera alone read it there: the camera
                # misread that seat's earlier card as this one, which is being played now.
                self.cards.seen(obs, zone, oid, {})
                return _one(Ask(Conflict(
                    "card-unknown", f"{SEAT_NAMES[seat]}'s card at trick {trick} was recorded as {pretty(card)} "
                    f"(only the camera read it), but the tag of {pretty(card)} came into {SEAT_NAMES[seat]}'s zone "
                    f"now: which card did {SEAT_NAMES[seat]} play at trick {trick}?", trick=trick, seat=seat,
                    blocking=True, ref=n, evidence=(oid,))))
            if not camera:
                return None                           # RFID does not misread: a late or moved tag
            if (trick == play.trick_number or self.trick_done is not None) and \
                    (seat == zone or card in self.cards.gone_cards):
                return None                           # seen again where it lies, or moved
            # else: the camera misread this player's card as one already played (a question, below)
        self.cards.seen(obs, zone, oid, self.played)
        return None

    def card_gone(self, source: str, zone: Seat, card: Optional[Card], t: float,
                  oid: int, asked: bool = False) -> Optional[Iterator[Proposal]]:
        """A card (or every card: ``card`` None) left a play zone: a pickup, a knock or a take-back.
        Proposes a question when the trick is being picked up without a card nobody saw, or when
        a tag no play holds leaves a zone whose recorded card a tag backs (``asked``: done)."""
        play = self.game.play
        on_table = set(play.trick) | (self.trick_done["cards"] if self.trick_done else set())
        cards = self.cards
        if source == "rfid" and card is not None:
            self.going.add(card)                      # its tag was on the table when it left
        if source == "camera" and card is not None:
            trick = self.trick_done["trick"] if self.trick_done else play.trick_number
            there = any(k == trick and s == zone for k, s, _ in self.played.values()) or \
                any(i.zone == zone and not i.early for i in cards.items)
            self.camera_left = (zone, t) if there else None
        if source == "rfid" and card is not None and card not in on_table and card not in self.played and \
                not cards.shows(card) and card not in cards.back_in_hand:
            if not play.trick and self._just_written(t):
                # Leaving with the trick just written (its pickup's last reads), not a card of the next.
                last = play.trick_number - 1
                return self._wrong_card(zone, card, oid, last) or \
                    (None if asked else self._ask_taken_back(zone, card, oid, trick=last))
            misread = self._wrong_card(zone, card, oid)
            if misread is not None:
                on_table.add(card)
                cards.gone_cards.add(card)
                return _chain(misread, self.card_gone(source, zone, card, t, oid))
            question = None if asked else self._ask_taken_back(zone, card, oid)
            if question is not None:
                return _chain(question, self.card_gone(source, zone, card, t, oid, asked=True))
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
        if card is not None and (card in on_table or cards.shows(card)):
            cards.gone_cards.add(card)                # a card of this trick (not a late read of the last one)
            if card in play.trick:
                self.left_zone[card] = (self.game.hand_number, play.trick_number, t)
        here = on_table | {c for i in cards.items for c in (i.cam, i.rfid) if c is not None}
        pickup = (card is None and (on_table or cards.items)) or len(cards.gone_cards & here) >= 2
        if pickup:
            return self._picked_up_at(t)
        if card is None or card in on_table:
            return None                               # one card moved (knocked): it stays the play it was
        for item in cards.items:                      # maybe taken back: decided once the pickup is ruled out
            if item.zone == zone and card == (item.cam if source == "camera" else item.rfid) \
                    and item.conflict is None and not item.early and item.timed:
                if t - item.t >= STAYED and not item.closed:
                    # It had long settled: it was played, and goes with the trick being picked up
                    # (its other cards' reads missed), not back to the hand.
                    return self._picked_up_at(t)
                item.gone_t = t                       # (one nobody saw put down, first read leaving
                                                      # now, is the pickup's, its other reads missed)
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
        if not n:                                     # the trick's last card, waiting for its pickup
            done["event"] = {**{k: v for k, v in done["event"].items() if k != "sources"},
                             "card": card_name(card), "sources": ["rfid"],
                             "evidence": done["event"].get("evidence", []) + [oid]}
            done["card"] = card
            done["one"] = ("rfid", edge, 1.0)
            done["cards"] = (done["cards"] - {read}) | {card}
            self.played[card] = self.played.pop(read)
            return iter(())
        old = {k: v for k, v in self.game.current(n).items() if k != "sources"}
        self.played[card] = self.played.pop(read)
        fixed = self.correct_play(n, {**old, "card": card_name(card), "sources": ["rfid"],
                                      "evidence": old.get("evidence", []) + [oid]}, "misread", {"evidence": [oid]})
        # The tag's one read is the play's now: a violation resting on it waits for a second read
        # (the pile's) or the console, as any play read once does.
        return _chain(fixed, self._note_one(n, OneRead(self.game.hand_number, card, zone, trick, "rfid", edge)))

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
                         "card": card_name(card), "evidence": list(item.oids)}
        one = item.one_read()
        if one is not None:
            done["event"]["sources"] = [one]
        done.update(card=card, cards=(done["cards"] - {shown}) | {card}, oids=item.oids, mismatch=None,
                    one=(one, next(iter(item.rfid_reads)) if one == "rfid" else (), item.conf))
        self.played[card] = self.played.pop(shown)
        self.put_down[card] = item.t
        return Notice(f"{pretty(shown)} was shown in {SEAT_NAMES[done['seat']]}'s zone and taken back: "
                      f"{pretty(card)}, put down after it, is {SEAT_NAMES[done['seat']]}'s card")

    def _note_one(self, n: int, one: OneRead) -> Iterator[Proposal]:
        self.to_confirm.note(n, one)
        yield from ()

    def _camera_alone(self, n: int) -> bool:
        """Does play event ``n`` rest on one camera read, with no second read since?"""
        one = self.to_confirm.plays.get(n)
        return one is not None and one.sensor == "camera" and one.second is None

    def _just_written(self, t: float) -> bool:
        """Was the trick before the one on the table (none of whose cards is recorded yet) picked up
        just before ``t``, so that a read at ``t`` is of its pickup?"""
        play = self.game.play
        return self.flushed is not None and self.flushed[0] == play.trick_number - 1 and \
            t - self.flushed[1] < PILE_LATE

    def _dealt_in_pile(self, card: Card, oid: int, pile: str, trick: int) -> Optional[Iterator[Proposal]]:
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
            # read going with the trick (leaving its zone, in a pile) is the card shown and taken back.
            shown = [s for c, (k, s, n) in self.played.items() if k == trick and n and c not in self.going]
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
        return _one(Ask(Conflict(
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
            yield from self._ask(item, "card-unknown", f"trick {play.trick_number} is being picked up but no "
                                 f"sensor saw {SEAT_NAMES[seat]}'s card: which card?", seat, play.trick_number)

    def card_in_pile(self, card: Card, where: str, t: float, oid: int) -> Optional[Iterator[Proposal]]:
        """A pile antenna (``where``: ``NS`` or ``EW``) read ``card``: who picked the trick up.
        Proposes the trick's last play once its pile is known."""
        self.going.add(card)
        done = self.trick_done
        if done is None:
            play = self.game.play
            if play is not None and (card in play.trick or self.cards.shows(card)):
                self.early_pile.setdefault(card, (where, oid))   # its trick's last play is not decided yet
                self.cards.gone_cards.add(card)
                return self._picked_up_at(t)          # a card of the trick in a pile: it is being picked up
            if play is not None and card not in self.played:
                if play.trick:                        # the trick on the table: a recorded card of it wrong?
                    question = self._dealt_in_pile(card, oid, where, play.trick_number)
                    if question is not None:
                        return question
                elif play.trick_number > 1:           # the trick just picked up: misread?
                    misread = self._wrong_card(None, card, oid, play.trick_number - 1, where)
                    if misread is None and self._just_written(t):
                        misread = self._dealt_in_pile(card, oid, where, play.trick_number - 1)
                    if misread is not None:
                        return misread
                return self._picked_up_at(t, unseen=True)   # a card nobody saw played: so was its trick
            return None
        if card not in done["cards"] and card not in self.played:
            return self._wrong_card(None, card, oid, done["trick"], where) or \
                self._dealt_in_pile(card, oid, where, done["trick"])
        if card not in done["cards"] or done.get("pile"):
            return None
        done["pile"] = where
        done["pile_obs"] = oid
        done["pile_card"] = card
        return self._flush_trick()

    # -- deciding, as time goes by ----------------------------------------------------
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
                    return None
        return self._decide_in_turn(now, taken, settled)

    def _decide_in_turn(self, now: float, taken: list[CardOnTable], settled: Optional[tuple]) -> Iterator[Proposal]:
        """What :meth:`advance` found due, in the table's order: the cards taken back, the trick
        picked up, then each play that has settled (the first one ``settled``, when
        :meth:`advance` found it), while nothing blocks."""
        for item in taken:
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
            any(i.t > done["t"] + 0.1 and not i.early and i.seat != done["seat"] for i in self.cards.items)

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
            return None
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
            if mine is not None and other.card is not None and (before or not self._left_before(other.t)):
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
                    item.early = True
                    unseen = CardOnTable(zone=to_play, t=other.t - 1e-3)
                    self.cards.items.append(unseen)
                    yield from self._ask(unseen, "card-unknown", f"a card of trick {trick} has left the table but "
                                         f"no sensor saw {SEAT_NAMES[to_play]}'s card: which card?", to_play, trick)
                    return True
                if other.origin is not None and item.origin == to_play and play.trick and \
                        self._where_thought(live):
                    # The two hands and their times say so: both cards were seen leaving their
                    # hands. (A card only seen in a zone may be a knocked one; a card waiting for
                    # its turn, or more cards down than players still to play: the tricks are not
                    # where the referee thinks; a lead: whose lead it is rests on the last trick's
                    # cards as recorded. Then it is a question.)
                    yield from self._write_out_of_turn(other)
                else:
                    yield from self._ask(other, "out-of-turn", f"a card appeared in {SEAT_NAMES[other.zone]}'s "
                                         f"zone before {SEAT_NAMES[to_play]} played: did {SEAT_NAMES[other.zone]} "
                                         f"play out of turn?", other.zone, trick, other.card)
                return True
        if play.trick and item.timed and self._left_before(item.t):
            # Put down after a card of this trick had left its zone (and was not seen in one again):
            # the trick was being picked up, its pickup reads missed, so this player's card in it
            # went down unseen and this one is of the next trick (it waits for its turn).
            item.early = True
            unseen = CardOnTable(zone=to_play, t=item.t - 1e-3)
            self.cards.items.append(unseen)
            yield from self._ask(unseen, "card-unknown", f"a card of trick {trick} has left the table but "
                                 f"no sensor saw {SEAT_NAMES[to_play]}'s card: which card?", to_play, trick)
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
        yield from self._commit(item, to_play)
        return True

    def _where_thought(self, live: list[CardOnTable]) -> bool:
        """Are the cards down those of the trick the referee thinks is on the table: no card waiting
        for its turn, none of a seat whose card of this trick is recorded, one card a seat, no more
        than the players still to play? (Else a pickup went unseen and the next trick is down.)"""
        play = self.game.play
        recorded = {s for k, s, _ in self.played.values() if k == play.trick_number}
        seats = [i.seat for i in live]
        return not any(i.early for i in live) and not recorded & set(seats) and len(seats) == len(set(seats)) \
            and len(seats) <= 4 - len(play.trick)

    def _left_before(self, t: float) -> bool:
        """Was a card recorded in the trick on the table seen leaving its zone before ``t``?"""
        play = self.game.play
        return any(self.left_zone.get(c, (0, 0, t))[:2] == (self.game.hand_number, play.trick_number)
                   and self.left_zone[c][2] < t for c in play.trick)

    def _ask(self, item: CardOnTable, kind: str, message: str, seat: Seat, trick: int,
             proposal: Optional[Card] = None) -> Iterator[Proposal]:
        """A blocking question about a card on the table, which stays there until it is answered."""
        c = yield Ask(Conflict(kind, message, trick=trick, seat=seat, blocking=True, evidence=tuple(item.oids),
                               proposal=proposal, item=item))
        item.conflict = c.id

    # -- writing the plays --------------------------------------------------------------
    def _commit(self, item: CardOnTable, seat: Seat) -> Iterator[Proposal]:
        play = self.game.play
        card = item.card
        hand = self.game.hand_number
        trick = play.trick_number
        event: dict[str, Any] = {"type": "play", "seat": SEAT_NAMES[seat], "card": card_name(card)}
        if item.say:
            event["say"] = item.say
        elif seat in self.pending_say and abs(item.t - self.pending_say[seat]) < SAY_WAIT and \
                self._belote_card(card):
            # said before the card was read (and not long before: it was said with this card)
            event["say"] = "rebelote" if self.says.get(seat) else "belote"
            self.says[seat] = self.says.get(seat, 0) + 1
            del self.pending_say[seat]
        evidence = tuple(item.oids) + ((item.frame,) if item.frame else ())
        event["evidence"] = list(evidence)
        one = item.one_read()
        if card in self.early_pile:
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
        for other in _shown_before(cards.items, item):
            cards.items.remove(other)
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
            seen = [self.early_pile[c] for c in self.trick_done["cards"] if c in self.early_pile]
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

    def _flush_trick(self) -> Iterator[Proposal]:
        """Write the trick's last play, with who picked the trick up."""
        if self.trick_done is None:
            return
        swapped = self._shown_then_played()
        if swapped is not None:
            yield swapped
        done, self.trick_done = self.trick_done, None
        self.flushed = (done["trick"], done.get("cleared", done["t"]))
        self.cleared_at = None
        self.cards.items = [i for i in self.cards.items if i.early or i.conflict is not None or i.t > done["t"]]
        self.cards.gone_cards = set()
        hand = self.game.hand_number
        event = done["event"]
        if event.get("sources") and done.get("pile_card") == done["card"]:
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

    def _write_out_of_turn(self, item: CardOnTable) -> Iterator[Proposal]:
        card = item.card
        if card is None:
            item.early = True
            return
        evidence = tuple(item.oids) + ((item.frame,) if item.frame else ())
        yield Write({"type": "play", "seat": SEAT_NAMES[item.seat], "card": card_name(card),
                     "evidence": list(evidence)})
        item.early = True

    def name_card(self, ref: int, card: Card, why: dict) -> Iterator[Proposal]:
        """The console names the card of play event ``ref`` (a misread): its word, not a sensor's read."""
        old = {k: v for k, v in self.game.current(ref).items() if k != "sources"}
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

    # -- the console --------------------------------------------------------------------
    def answer(self, c: Conflict, action: str, card: Optional[Card], why: dict) -> Iterator[Proposal]:
        """The console answered one of this part's conflicts (every kind but the deal watcher's)."""
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
        if c.kind == "to-confirm" and (action == "dismiss" or (card if action == "resolve" else c.proposal)
                                        == c.proposal):
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
            c.item.card_override = chosen
            c.item.conflict = None
        elif c.ref is not None:                   # a play already recorded (a refused correction raises)
            old = self.game.current(c.ref)
            before = parse_card(old["card"])
            if chosen != before:
                twin = self.played.get(chosen) if c.hand == self.game.hand_number else None
                yield from self.name_card(c.ref, chosen, why)
                if c.hand == self.game.hand_number:
                    # The real card is recorded now: the old one is still to play, and
                    # readings of the real one still waiting in a zone are that same card.
                    entry = self.played.get(before)
                    if entry is not None and entry[2] == c.ref:
                        self.played[chosen] = self.played.pop(before)
                    else:
                        self.played[chosen] = (c.trick, c.seat, c.ref)
                    self.cards.items = [i for i in self.cards.items
                                        if i.conflict is not None or chosen not in (i.rfid, i.cam)]
                if twin is not None and twin[2] and twin[2] != c.ref:
                    doubt = twin                  # that card was recorded as another play of the hand too
            for item in self.cards.items:             # a card that waited on this question about its seat's
                if item.conflict == c.id:             # recorded card: the same card now, or another one later
                    item.conflict = None
                    if item.card == chosen:
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

    def belote(self, seat: Seat, t: float) -> Iterator[Proposal]:
        """Attach "belote"/"rebelote" to ``seat``'s card being played: a trump king or queen on
        the table or just played when there is one (the sensors may hold other readings of that
        seat), else its card on the table, else its next card."""
        word = "rebelote" if self.says.get(seat) else "belote"
        mine = [i for i in self.cards.items if i.seat == seat and i.say is None]
        last = max(((n, card) for card, (_, s, n) in self.played.items() if s == seat and n), default=None)
        pair = [i for i in mine if self._belote_card(i.card)]
        unread = any(i.card is None for i in mine)     # its card on the table, not read yet: maybe the pair's
        if not pair and not unread and last and self._belote_card(last[1]) and \
                "say" not in self.game.current(last[0]) and t - self.put_down.get(last[1], t) <= SAY_RECENT:
            self.says[seat] = self.says.get(seat, 0) + 1
            old = self.game.current(last[0])
            yield from self.correct_play(last[0], {**old, "say": word}, "belote said", {})
            return
        if pair or (mine and not self._has_belote()):
            (pair or mine)[0].say = word               # without trumps, the engine will say why it is wrong
            self.says[seat] = self.says.get(seat, 0) + 1
            return
        self.pending_say[seat] = t

    def _has_belote(self) -> bool:
        play = self.game.play
        return play is not None and play.trump != NO_TRUMP

    def _belote_card(self, card: Optional[Card]) -> bool:
        play = self.game.play
        if card is None or play is None or rank_of(card) not in (KING, QUEEN):
            return False
        return play.trump == ALL_TRUMP or suit_of(card) == play.trump


def _shown_before(items: list[CardOnTable], item: CardOnTable) -> list[CardOnTable]:
    """The cards ``item``'s player put down (or took from its hand) before it, in the same trick:
    shown and taken back (one player plays one card a trick; the reads of their going back were
    missed)."""
    return [i for i in items if i is not item and i.seat == item.seat and i.t < item.t
            and i.window == item.window and i.conflict is None and not i.early]


def _last_put_down(live: list[CardOnTable], item: CardOnTable) -> CardOnTable:
    """Of the cards ``item``'s player put down in this trick, the last one: the others were shown and
    taken back (a card waiting for its turn in a later trick is not one of them)."""
    return max([item] + [i for i in live if not i.early and item in _shown_before(live, i)], key=lambda i: i.t)


def _one(proposal: Proposal) -> Iterator[Proposal]:
    """One proposal, as a step of its own (the referee sends the answer back into it)."""
    yield proposal


def _chain(*parts: Optional[Iterator[Proposal]]) -> Iterator[Proposal]:
    """The proposals of several steps, in turn (a step may have none: None)."""
    for part in parts:
        if part is not None:
            yield from part
