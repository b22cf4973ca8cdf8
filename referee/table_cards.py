"""The cards on the play zones that are not plays yet: what each sensor said about each.

Why a model of its own: a card put down is reported by up to three readings
that arrive in any order, late or twice (its tag leaving the hand, its tag
arriving in the zone, the camera's view of the zone), and a card shown and
taken back is reported too. :class:`TableCards` merges them into one
:class:`CardOnTable` per physical card, so that the play watcher
(:mod:`referee.play_watch`) decides plays from cards, not from readings.
It decides nothing and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .cards import Card
from .observations import CardGone, CardSeen
from .seats import SEAT_NAMES, Seat

#: Seconds after a card left its zone before it counts as taken back: a pickup may be starting,
#: and with reads missing the next sign of it (another card leaving, a pile read) may come late.
#: A card taken back is seen back in its hand sooner, as a rule.
TAKEBACK_WAIT = 1.0
#: Seconds a card nobody saw put down, first read leaving its zone, waits for its seat to put
#: another card down (then it was shown and taken back) before it counts as the card played.
LONE_WAIT = 2.0
#: Seconds an RFID edge may be reported late (the reader's queue): a tag read arriving in a zone
#: this soon after it was read leaving that zone is the late report of its arrival, not a card put back;
#: a card put down this soon after another whose time rests on one RFID read may have come after it.
LATE_EDGE = 1.0
#: A tag seen leaving a hand this soon after it came back is a late read of the earlier edge.
STALE_READ = 0.4
#: A tag seen leaving a play zone this soon after its card came back to the hand is a late (0.2-0.8 s)
#: or repeated report of the card going back; later, the card was put down again, unseen.
BACK_LATE = 1.0
#: Seconds between a tag leaving a hand and its card landing in a zone: a card read in a zone
#: longer after (or before) its tag left a hand is not that hand's card on its way (a card shown
#: and taken back whose return was missed leaves its hand read for the rest of the hand).
HAND_TO_ZONE = 1.5

#: What the play watcher knows of the cards played this hand: card -> (trick, seat, event n).
Played = dict[Card, tuple[int, Seat, int]]


@dataclass
class CardOnTable:
    """A card on a play zone that is not (yet) a play: what each sensor says about it."""

    zone: Seat
    t: float
    cam: Optional[Card] = None
    cam_seen: bool = False
    conf: float = 0.0
    frame: Optional[str] = None
    rfid: Optional[Card] = None
    rfid_reads: set = field(default_factory=set)   # each RFID read of ``rfid``: (zone, "in" | "out")
    by_console: bool = False                 # the console entered it (a table without sensors)
    origin: Optional[Seat] = None            # the hand it left (RFID), the strongest "who"
    oids: list[int] = field(default_factory=list)
    early: bool = False                      # out of turn, waiting for its seat's turn
    gone_t: Optional[float] = None           # when it left its zone (a take-back, unless a pickup follows)
    zone_seen: bool = True                   # False: only seen leaving the hand so far
    window: Optional[int] = None             # the pickup its trick went with, once picked up while it waited
    say: Optional[str] = None
    conflict: Optional[int] = None
    card_override: Optional[Card] = None     # settled at the console
    deduced: bool = False                    # ... or by elimination: the hand's last card, the one not played

    @property
    def card(self) -> Optional[Card]:
        if self.card_override is not None:
            return self.card_override
        return self.rfid if self.rfid is not None else self.cam

    @property
    def seat(self) -> Seat:
        return self.origin if self.origin is not None else self.zone

    @property
    def closed(self) -> bool:
        """Its trick was picked up while it waited: a later card in its zone is another card."""
        return self.window is not None

    @property
    def read(self) -> bool:
        """Did a sensor see it (or the console enter it)? Else it is a card nobody saw, placed
        in its turn: its time says nothing."""
        return self.cam_seen or bool(self.rfid_reads) or self.by_console

    @property
    def timed(self) -> bool:
        """Did a sensor see it put down (the camera saw it land, its tag left the hand or came into
        the zone; or the console entered it)? Else its time is a guess (a card nobody saw, or a tag
        first read leaving the zone at the pickup) and says nothing of the order it came in."""
        return self.cam_seen or self.by_console or any(edge == "in" or zone.startswith("hand:")
                                                        for zone, edge in self.rfid_reads)

    def one_read(self) -> Optional[str]:
        """The sensor (``camera``, ``rfid``) of the one read that names this card, when only one
        does: no other sensor agrees, nor another RFID antenna (the hand the tag left, the zone);
        None when two or more do, or the console settled or entered it. The hand's last card named by
        elimination (``deduced``) rests on the record of the other 31 as on one read."""
        if self.deduced:
            return "deduced"
        if self.card_override is not None or self.by_console:
            return None
        card = self.card
        reads = len(self.rfid_reads) if self.rfid == card else 0
        camera = self.cam_seen and self.cam == card
        if reads + camera != 1:
            return None
        return "camera" if camera else "rfid"

    def add_rfid(self, card: Card, read: tuple) -> None:
        """An RFID read of ``card`` (``read``: zone and edge) backs this card."""
        if self.rfid is None:
            self.rfid = card
        if self.rfid == card:
            self.rfid_reads.add(read)


class TableCards:
    """The undecided cards of the trick being played, and the hand tags seen on their way."""

    def __init__(self) -> None:
        self.items: list[CardOnTable] = []
        self.hand_off: dict[Card, tuple[Seat, int, float]] = {}  # card -> (seat, obs, t) it left that hand
        self.back_in_hand: dict[Card, float] = {}                # card -> when it came back to the hand
        self.gone_at: dict[Card, float] = {}                     # trick cards seen leaving their zone, and when
        self.pickups = 0                                         # the tricks seen picked up this hand
        self.taken: list[CardOnTable] = []                       # the trick's cards taken as taken back

    def shows(self, card: Card, zone: Optional[Seat] = None) -> bool:
        """Does a sensor read ``card`` on the table (or the console name it), in ``zone`` when given?"""
        return any(card in (i.cam, i.rfid, i.card_override) and zone in (None, i.zone) for i in self.items)

    @property
    def gone_cards(self) -> set[Card]:
        """The cards of the trick on the table seen leaving their zones."""
        return set(self.gone_at)

    def went(self, card: Card, t: float) -> None:
        """``card``, of the trick on the table, was seen leaving its zone at ``t``."""
        self.gone_at[card] = t

    def trick_written(self, last: float) -> None:
        """The trick on the table was written, its last card put down at ``last``: the cards that stay
        are the ones waiting (for their turn, or for the console) and those put down after it (the next
        trick's); the cards seen leaving their zones were the written trick's."""
        self.items = [i for i in self.items if i.early or i.conflict is not None or i.t > last]
        self.gone_at = {}
        self.taken = []

    def gone_since_last_down(self, cards: set[Card]) -> set[Card]:
        """The cards of ``cards`` seen leaving their zones since the last card a sensor saw put down
        (on the table, undecided): a trick is picked up once its cards are all down, so a card that
        left before another was put down was taken back or moved, not picked up with the trick
        (game 6200302: N's ♠J and S's ♣7, shown and taken back 4 s apart, looked like a pickup)."""
        last = max((i.t for i in self.items if i.timed and not i.early), default=float("-inf"))
        return {c for c in self.gone_cards & cards if self.gone_at[c] >= last}

    def stale(self, card: Optional[Card], t: float) -> bool:
        """Is a tag read of ``card`` at ``t`` a late read of it from before it came back to the hand?"""
        back = self.back_in_hand.get(card)
        return back is not None and t - back < STALE_READ

    def just_back(self, card: Card, t: float) -> bool:
        """Is a tag read of ``card`` leaving a play zone at ``t`` a late report of its going back to
        the hand (not of the card put down again, its leaving the hand unread: game 6100258)?"""
        back = self.back_in_hand.get(card)
        return back is not None and t - back < BACK_LATE

    def came_back(self, card: Card, t: float) -> None:
        """``card``'s tag came back into its hand at ``t``."""
        self.hand_off.pop(card, None)
        self.back_in_hand[card] = t

    def left_hand(self, obs: CardGone, seat: Seat, oid: int, played: Played) -> None:
        """A tag left ``seat``'s hand area during the play: a card on its way to the zone."""
        if self.stale(obs.card, obs.t):
            return                                    # a late read of the card leaving before it came back
        self.back_in_hand.pop(obs.card, None)
        self.hand_off[obs.card] = (seat, oid, obs.t)
        if obs.card in played:
            return
        for item in self.items:
            if item.rfid == obs.card or (item.rfid is None and item.zone == seat and item.origin is None
                                         and abs(item.t - obs.t) < HAND_TO_ZONE and item.cam_seen
                                         and item.gone_t is None):
                # Its tag read before, or the camera's card landing in this seat's zone as the tag left
                # (a camera read of this card elsewhere, or long before, is a misread of another card;
                # one the camera saw leave the zone again was shown and taken back, not this card on
                # its way: game 6200265, E's ♦7 taken for the ♥J shown just before, and the camera's
                # misread of the ♦7 recorded as E's card).
                if not item.timed:
                    # Its time was a guess (first read leaving its zone): this read times it, no later
                    # than its leaving (the hand's edge reported late: game 6500325, E's ♣J shown and
                    # taken back looked as if it had lain there since the trick began, and was played)
                    item.t = min(obs.t, item.gone_t if item.gone_t is not None else obs.t)
                item.origin = seat
                item.add_rfid(obs.card, (obs.zone, "out"))
                item.oids.append(oid)
                return
        # The card left the hand: it is on its way to the play zone, whatever the zone's sensors say.
        item = CardOnTable(zone=seat, t=obs.t, origin=seat, oids=[oid], zone_seen=False)
        item.add_rfid(obs.card, (obs.zone, "out"))
        self.items.append(item)

    def seen(self, obs: CardSeen, zone: Seat, oid: int, played: Played) -> None:
        """A sensor read a card (``obs.card`` None: one it could not read) in ``zone``'s play
        zone that is not a play already: a new card, or another reading of one on the table."""
        card = obs.card
        camera = obs.source == "camera"
        for item in self.items:                       # the same card seen again
            if card is not None and card == (item.cam if camera else item.rfid) and \
                    (not camera or (item.zone == zone) == (item.gone_t is None)):
                # (The camera seeing a card in another zone than where it saw it, which it did not see
                # leave, sees two cards: one of the two reads is a misread. Seeing it land again where
                # it saw it leave, it sees a card put down: the one shown and taken back, or another
                # misread as it (game 1000329: N showed the ♥Q, took it back and put down the ♥K with
                # "belote", read ♥Q at 0.66; taken for the ♥Q seen again, the ♥K was dropped with it as
                # taken back, and the word lost).)
                if not camera and obs.source != "console":
                    item.rfid_reads.add((obs.zone, "in"))
                if not item.zone_seen:                # seen leaving the hand, now seen in the zone
                    item.zone_seen = True
                    item.oids.append(oid)
                return
        target = None
        here = [i for i in sorted(self.items, key=lambda i: i.t)
                if i.zone == zone and i.conflict is None and not i.early and not i.closed and i.gone_t is None]
        if card is not None:                          # the same card from the other sensor
            target = next((i for i in here if (i.rfid if camera else i.cam) == card), None)
        for item in [] if target is not None else here:
            if camera:
                # One card per zone and trick: a second look at the zone refines the first.
                if item.cam_seen and not (card is not None and (item.cam is None or obs.confidence > item.conf)):
                    return
                target = item
                break
            if item.rfid is None:
                target = item
                break
        if target is None:
            target = CardOnTable(zone=zone, t=obs.t)
            self.items.append(target)
        target.zone_seen = True
        if camera:
            target.cam_seen, target.cam, target.conf = True, card, obs.confidence
            target.frame = obs.evidence.get("frame")
        else:
            if target.rfid != card:
                target.rfid_reads = set()             # the reads of another tag are not this one's
            target.rfid = card
            if obs.source == "console":
                target.by_console = True
            else:
                target.rfid_reads.add((obs.zone, "in"))
        if card is not None and target.origin is None and (not camera or target.rfid is None):
            off = self.hand_off.get(card) if card not in played else None
            if camera and any(i is not target and card in (i.cam, i.rfid) and i.zone != zone and i.gone_t is None
                              for i in self.items):
                # The camera reads here a card already on the table in another zone (its tag left
                # that seat's hand): one of the two reads is a misread, and this one says that a card
                # was put down here now, not which hand it left (game 500527: N's card out of turn,
                # read as the card S had just played, would have become S's and N's gone unseen).
                off = None
            if off is not None and abs(obs.t - off[2]) < HAND_TO_ZONE:
                target.origin = off[0]
                target.add_rfid(card, (f"hand:{SEAT_NAMES[off[0]]}", "out"))
                target.oids.append(off[1])
        target.oids.append(oid)

    def taken_back(self, now: float) -> list[CardOnTable]:
        """The cards that left their zone :data:`TAKEBACK_WAIT` ago with no pickup: taken back.

        A card nobody saw put down, first read leaving its zone, was taken back only if its seat
        then put another card down (the one it played); if none comes within :data:`LONE_WAIT`,
        it was the card played, the other reads of its trick's pickup missed: it stays."""
        for item in self.items:
            if item.gone_t is not None and not item.timed and now >= item.gone_t + LONE_WAIT:
                item.gone_t = None
        gone = [i for i in self.items if i.gone_t is not None and now >= i.gone_t + TAKEBACK_WAIT
                and (i.timed or any(o.seat == i.seat and o.timed and o.t > i.gone_t for o in self.items))]
        for item in gone:
            self.items.remove(item)
            self.taken.append(item)
            self.gone_at.pop(item.card, None)
            if item.card is not None:
                self.back_in_hand[item.card] = now       # late reads of it are stale for a moment
                self.hand_off.pop(item.card, None)       # nor is it on its way to the zone any more
        return gone

    def picked_up_unseen(self, seat: Seat, t: float, plays: list[tuple[Seat, float]]) -> Optional[CardOnTable]:
        """A card put down in ``seat``'s zone at ``t``, ``seat``'s card of the trick being down already:
        the card taken as shown and taken back (:meth:`taken_back`) of another seat, that left its zone
        after ``seat``'s card came and before this one, its seat putting nothing down since (``plays``:
        each play recorded, its seat and when it was put down), when there is one. Taken back, its seat
        would have put down the card it played just after; with none, and another player putting down a
        second card, it was picked up with the trick (its other pickup reads missed): the trick goes,
        and this card is read as any card put down after it (game 1200188: N's ♠K, the trick's last
        card, read leaving 1.28 s after its one, late, read leaving N's hand, under
        :data:`~referee.play_pickup.STAYED`). None otherwise."""
        down = [i.t for i in self.items if i.zone == seat and i.timed and not i.early and not i.closed
                and i.conflict is None and i.gone_t is None]
        return next((i for i in self.taken if i.zone != seat and i.timed and i.gone_t < t
                     and any(d < i.gone_t for d in down)
                     and not any(o.seat == i.seat and o.t > i.gone_t for o in self.items + self.taken)
                     and not any(s == i.seat and at > i.gone_t for s, at in plays)), None)

    def put_back(self, item: CardOnTable) -> None:
        """``item``, taken as taken back, was picked up with its trick: it is on the table again."""
        self.taken.remove(item)
        self.items.append(item)
        if item.card is not None:                     # a card no sensor named leaves no name behind
            self.went(item.card, item.gone_t)
            self.back_in_hand.pop(item.card, None)

    def origin_card(self, seat: Seat, t: float, played: Played) -> Optional[Card]:
        """The card the RFID saw leave ``seat``'s hand around ``t`` (not yet played)."""
        best = None
        for card, (s, oid, tg) in self.hand_off.items():
            if s == seat and card not in played and abs(tg - t) < HAND_TO_ZONE:
                if best is None or abs(tg - t) < abs(self.hand_off[best][2] - t):
                    best = card
        return best
