"""The deal watcher: the cards arriving in the hands, judged as a deal.

Part of the table referee (:mod:`referee.table_referee`), which hands it the
hand antennas' and the dealing area's readings and writes what it proposes
(:mod:`referee.proposals`). It follows the hand from the dealer's first card
to the play (:attr:`DealWatch.mode`): ``idle`` (waiting for a deal),
``deal`` (cards arriving in the hands), ``turned`` (classic belote: the
console names the turned card), ``auction``, ``deal2`` (classic belote: the
second round, after the take), ``play``.

The deal closes when all 32 cards are in the hands, or when something else
happens (a call, a card played, a card leaving a hand). It is then judged
from the order and times the tags arrived: a ``misdeal`` is a seat without 8
cards, a packet of 1 or 4, packets not in the profile's order (:data:`DEAL_PACKETS`,
:data:`CLASSIC_PACKETS`, a round not starting at the dealer's right), two
tags for one card, a card left in the dealing area. With readings missing a
fault that a late read could explain is a ``deal`` conflict (a question),
never a misdeal; cards gathered before the auction's first call are a
``gathered`` conflict (was it a misdeal?).

In the record a misdeal is a ``misdeals`` field on the redeal's ``deal``
event, or, for a deal already recorded, the correction that undoes it, with
a ``misdeal`` field. Without hand antennas nothing is seen: the deal event
has no ``hands`` and each hand is audited when it ends.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from .cards import Card, card_name, iter_cards, mask_of, pretty
from .game import Game
from .observations import CardGone, CardSeen
from .proposals import Ask, Conflict, Flag, Proposal, Redeal, Settle, Write, correction
from .record import RecordError
from .seats import SEAT_NAMES, Seat, next_seat, turn_order
from .violations import Violation

#: Two arrivals in a seat's hand area further apart than this (seconds) are two packets.
PACKET_GAP = 1.2
#: The packets an 8-card deal may go in, the same for every seat in each round.
DEAL_PACKETS = ((3, 2, 3), (3, 3, 2), (2, 3, 3))
#: Classic belote's first round (5 cards each, then the turned card; seed 004).
CLASSIC_PACKETS = ((3, 2), (2, 3))
#: The conflicts this part asks, and answers.
KINDS = ("deal", "gathered", "turned")
#: Fewer cards than this seen dealt (not even the first round): a card leaving a hand then is a
#: stray read of an earlier deal being gathered, not the end of this one.
EARLY_CARDS = 8
#: Two cards of tricks already picked up arriving in the hands within this many seconds: the next
#: deal has begun while the hand is still being played in the record (its last pickup unread).
AHEAD_GAP = 3.0


class DealWatch:
    """The deal of each hand, from the hand antennas and the dealing area."""

    def __init__(self, game: Game, blocking: set[int], dealer: Optional[Seat] = None):
        self.game = game                      # read only: the referee writes
        self.options = game.options
        self.blocking = blocking              # the open blocking conflicts' ids (read only)
        self.dealer = dealer
        self.mode = "idle"                   # idle | deal | turned | auction | deal2 | play
        self.misdeals_pending: list[Violation] = []   # spoilt deals, named on the redeal's deal event
        self.ahead: list[tuple[Any, int]] = []        # the next deal's readings, while the hand is not over
        self.moving = False                           # ... once it is sure the next deal has begun
        self.new_hand()

    def new_hand(self) -> None:
        """Forget the cards of the hand (a new hand, or the same dealer dealing again)."""
        self.arrivals: list[tuple[float, Seat, Card, Optional[str], int]] = []
        self.in_hand: dict[Card, Seat] = {}
        self.in_deal: dict[Card, int] = {}
        self.closed = False
        self.gather_asked = False

    def holder(self, card: Card) -> Optional[Seat]:
        """The seat the antennas saw ``card`` dealt to, if they did."""
        return self.in_hand.get(card)

    def auction_over(self) -> None:
        """The contract is made: classic belote's second round comes first where the antennas
        saw the first one (seed 004), else the play."""
        classic = self.options.auction == "classic" and self.arrivals
        self.mode = "deal2" if classic else "play"

    # -- the next deal, seen before the hand is over -------------------------------------
    def early(self, obs: Any, oid: int, picked_up: bool) -> bool:
        """A hand antenna's or the dealing area's reading during the play. When the next deal has
        begun while the hand is still played in the record (its last trick's pickup unread, its
        cards asked for), the reading is kept for that deal (:meth:`catch_up`) and True returned:
        without it a misdeal then, a short deal, went unseen (game 601323).

        The next deal has begun when a card lands in the dealing area, or when two cards of
        tricks already picked up (``picked_up``: this one is) arrive in the hands within
        :data:`AHEAD_GAP`: during the play no card of a picked-up trick comes back to a hand."""
        if self.moving:
            self.ahead.append((obs, oid))
            return True
        if obs.zone == "deal" and isinstance(obs, CardSeen) and obs.card is not None:
            self.moving = True
        elif isinstance(obs, CardSeen) and picked_up:
            self.ahead = [(o, i) for o, i in self.ahead if obs.t - o.t <= AHEAD_GAP]
            self.moving = any(o.card != obs.card for o, _ in self.ahead)
        else:
            return False
        self.ahead.append((obs, oid))
        return True

    def catch_up(self) -> list[tuple[Any, int]]:
        """The next deal's readings kept while the hand was played, now that it is over (none when
        the table was not sure the next deal had begun: a lone card is forgotten, as before)."""
        ahead = self.ahead if self.moving else []
        self.ahead, self.moving = [], False
        return ahead

    # -- the readings -----------------------------------------------------------------
    def card_in_hand(self, obs: CardSeen, seat: Seat, oid: int) -> Optional[Iterator[Proposal]]:
        """A tag arrived in ``seat``'s hand area (outside the play). Proposes the deal once every
        card is in the hands."""
        if self.mode == "deal2":                      # classic: the second round of the deal
            self.in_hand[obs.card] = seat
            self.arrivals.append((obs.t, seat, obs.card, obs.uid, oid))
            return self.close(obs.t) if len(self.in_hand) == 32 else None
        if self.mode == "idle" and self.dealer is not None and not self.blocking:
            self.mode = "deal"
        if self.mode != "deal":
            return None
        if self.in_hand.get(obs.card) == seat and any(a[2] == obs.card and a[3] == obs.uid for a in self.arrivals):
            return None                               # a duplicate read
        self.in_hand[obs.card] = seat
        self.arrivals.append((obs.t, seat, obs.card, obs.uid, oid))
        if len({a[2] for a in self.arrivals}) == 32 and len(self.in_hand) == 32 and not self.in_deal:
            return self.close(obs.t)
        return None

    def card_left_hand(self, obs: CardGone, oid: int) -> Iterator[Proposal]:
        """A tag left a hand area: the deal is over, or the cards are being gathered.

        Only a card this deal saw arrive can end it: after a misdeal the spoilt deal's cards are
        gathered while the redeal starts, and a late read of one of them may open the new deal.
        Such a stray card, leaving before the deal's first round is out, is forgotten."""
        if self.mode == "deal" and not self.closed:
            if obs.card not in self.in_hand:
                return                                # a card of an earlier deal, being gathered
            if len(self.in_hand) < EARLY_CARDS:
                del self.in_hand[obs.card]
                self.arrivals = [a for a in self.arrivals if a[2] != obs.card]
                if not self.in_hand:
                    self.mode = "idle"
                return
        if self.mode in ("deal", "deal2"):
            yield from self.close(obs.t)
        if self.mode == "auction" and not self.game.auction.calls and not self.gather_asked:
            self.gather_asked = True
            yield Ask(Conflict("gathered", "the cards are being gathered before the auction: was it a misdeal? "
                               "(confirm to redeal, dismiss to play on)", seat=self.dealer, evidence=(oid,),
                               blocking=True))

    def card_in_dealing_area(self, card: Card, oid: int) -> None:
        if self.mode in ("idle", "deal"):
            self.in_deal[card] = oid

    def card_left_dealing_area(self, card: Card) -> None:
        self.in_deal.pop(card, None)

    def turned_at_console(self, card: Card, oid: int) -> None:
        """Classic belote: the console names the turned card the dealing area did not read."""
        self.in_deal = {card: oid}

    # -- closing and judging the deal ---------------------------------------------------
    def close(self, t: float) -> Iterator[Proposal]:
        """The deal is over: write it, declare a misdeal, or ask the console."""
        if self.mode == "deal2":
            yield from self._close_second_round()
            return
        if self.mode != "deal" or self.closed:
            return
        self.closed = True
        problems, doubts, hands = self._judge()
        evidence = tuple(a[4] for a in self.arrivals[:1]) + tuple(sorted(self.in_deal.values()))[:3]
        if problems:
            yield from self.misdeal("; ".join(problems), evidence, "deal")
        elif doubts:
            yield Ask(Conflict("deal", "; ".join(doubts) + ": misdeal? (confirm to redeal, dismiss to play on)",
                               blocking=True, evidence=evidence, seat=self.dealer, item=hands))
        else:
            yield from self.write(hands, evidence)

    def _judge(self) -> tuple[list[str], list[str], Optional[list[int]]]:
        """Certain faults of the deal, doubtful ones, and the hands where they are known."""
        problems, doubts = [], []
        uids: dict[Card, set] = {}
        per_seat: list[list[tuple[float, Card]]] = [[], [], [], []]
        for t, seat, card, uid, _ in self.arrivals:
            uids.setdefault(card, set()).add(uid)
        for card, seat in self.in_hand.items():
            t = next(a[0] for a in self.arrivals if a[2] == card and a[1] == seat)
            per_seat[seat].append((t, card))
        for card, tags in uids.items():
            if len(tags) > 1:
                problems.append(f"two tags read as {pretty(card)}: the deck has a duplicate card")
        classic = self.options.auction == "classic"   # 5 cards each, then the turned card (seed 004)
        left = [c for c in self.in_deal if c not in self.in_hand]
        if classic and len(left) > 1:
            problems.append(f"{len(left)} cards face up in the dealing area: turn one card")
        for card in [] if classic else left:
            problems.append(f"{pretty(card)} was left in the dealing area")
        counts = [len(s) for s in per_seat]
        full_hand = 5 if classic else 8
        unseen = 4 * full_hand - len(self.in_hand)
        packets: list[list[tuple[float, int]]] = []
        for seat in range(4):
            times = sorted(t for t, _ in per_seat[seat])
            runs: list[tuple[float, int]] = []
            for t in times:
                if runs and t - runs[-1][2] <= PACKET_GAP:
                    runs[-1] = (runs[-1][0], runs[-1][1] + 1, t)
                else:
                    runs.append((t, 1, t))
            packets.append([(start, n) for start, n, _ in runs])
        for seat in range(4):
            name = SEAT_NAMES[seat]
            if counts[seat] > full_hand:
                problems.append(f"{name} was dealt {counts[seat]} cards")
            if any(n >= 4 for _, n in packets[seat]):
                problems.append(f"{name} got a packet of {max(n for _, n in packets[seat])} cards")
        full = [s for s in range(4) if counts[s] == full_hand]
        patterns = {tuple(n for _, n in packets[s]) for s in full}
        allowed = CLASSIC_PACKETS if classic else DEAL_PACKETS
        for p in patterns:
            if p not in allowed:
                problems.append(f"packets of {'-'.join(map(str, p))}: deal "
                                f"{' or '.join('-'.join(map(str, a)) for a in allowed)}")
        if len(patterns) > 1 and all(p in allowed for p in patterns):
            problems.append("the players did not get packets of the same size in each round")
        if self.dealer is not None and self.arrivals:
            order = turn_order(next_seat(self.dealer, self.options.clockwise), self.options.clockwise)
            rounds = min(len(packets[s]) for s in range(4)) if all(packets) else 0
            for r in range(rounds):
                starts = sorted(range(4), key=lambda s: packets[s][r][0])
                if starts != order and all(len(packets[s]) == len(packets[0]) for s in range(4)):
                    # With reads missing, a late read may open a packet: a question, not a fact.
                    (doubts if unseen else problems).append(f"round {r + 1} of the deal went {' '.join(SEAT_NAMES[s] for s in starts)}, "
                                    f"not {' '.join(SEAT_NAMES[s] for s in order)} from the dealer's right")
                    break
        # Seats short of cards while as many cards were not read is no sign of a misdeal: the reads
        # missed them (an antenna misses a stacked tag now and then). Asking the console about it
        # would ask about nearly every deal; a misdeal the players notice, they gather the cards
        # (a "gathered" question).
        short = [s for s in range(4) if counts[s] < full_hand]
        explained = len(short) == 1 and counts[short[0]] + unseen == full_hand   # it holds what was not read
        hands = None
        if self.arrivals and not problems and not classic:      # classic: 3 more cards come after the auction
            masks = [mask_of(c for _, c in per_seat[s]) for s in range(4)]
            if not short:
                hands = masks
            elif explained:
                masks[short[0]] |= ((1 << 32) - 1) & ~mask_of(self.in_hand)   # it holds what nobody saw
                hands = masks
        return problems, doubts, hands

    def _close_second_round(self) -> Iterator[Proposal]:
        """Classic belote: the hands are whole once the second round is dealt (the taker's with the
        turned card). Where the antennas saw them, the deal is corrected with them so that each play
        is checked live; otherwise each hand is audited at its end. The engine says whether the
        turned card went to the taker."""
        self.mode = "play"
        masks = [0, 0, 0, 0]
        for card, seat in self.in_hand.items():
            masks[seat] |= 1 << card
        counts = [bin(m).count("1") for m in masks]
        short = [s for s in range(4) if counts[s] < 8]
        unseen = 32 - len(self.in_hand)
        if any(c > 8 for c in counts) or len(short) > 1 or (short and counts[short[0]] + unseen != 8):
            return                                    # not seen well enough to name the hands
        if short:
            masks[short[0]] |= ((1 << 32) - 1) & ~mask_of(self.in_hand)   # it holds what nobody saw
        ref = next(n for n in range(len(self.game.events), 1, -1) if self.game.events[n - 1]["type"] == "deal")
        deal = self.game.events[ref - 1]
        hands = {SEAT_NAMES[s]: [card_name(c) for c in iter_cards(masks[s])] for s in range(4)}
        yield Write(correction(ref, {**deal, "hands": hands}, "second round of the deal", {}))

    def _deal_event(self, hands: Optional[list[int]], evidence: tuple) -> dict[str, Any]:
        if self.dealer is None:
            raise RecordError("the first dealer is not known: the console says who deals (start)")
        event: dict[str, Any] = {"type": "deal", "dealer": SEAT_NAMES[self.dealer]}
        if self.options.auction == "classic":
            turned = [c for c in self.in_deal if c not in self.in_hand]
            if len(turned) != 1:
                raise RecordError("the turned card was not seen in the dealing area: enter it at the console "
                                  "(turned), then the calls")
            event["turned"] = card_name(turned[0])
        if hands is not None:
            event["hands"] = {SEAT_NAMES[s]: [card_name(c) for c in iter_cards(hands[s])] for s in range(4)}
        if evidence:
            event["evidence"] = list(evidence)
        if self.misdeals_pending:
            event["misdeals"] = [v.as_dict() for v in self.misdeals_pending]
        return event

    def write(self, hands: Optional[list[int]], evidence: tuple) -> Iterator[Proposal]:
        """The deal event (``hands``: each seat's mask, where they are known); classic belote
        needs the turned card first."""
        if self.options.auction == "classic" and self.dealer is not None and \
                len([c for c in self.in_deal if c not in self.in_hand]) != 1:
            # The dealing area did not read the turned card: the auction cannot be checked without it.
            yield Ask(Conflict("turned", "the turned card was not read in the dealing area: which card "
                               "is turned up?", seat=self.dealer, blocking=True, evidence=evidence,
                               item=(hands, evidence)))
            self.mode = "turned"
            self.closed = True
            return
        yield Write(self._deal_event(hands, evidence))
        self.misdeals_pending = []
        self.mode = "auction"
        self.closed = True

    def misdeal(self, message: str, evidence: tuple, reason: str) -> Iterator[Proposal]:
        """Void the deal. A spoilt deal that never reached the record is named on its redeal's
        ``deal`` event (``misdeals``); one already recorded is undone by a correction. Its params
        hold only the ``reason`` (``deal``: the sensors judged it; ``confirmed``; ``redeal``):
        the message may name cards in a hand, which the room must not see."""
        dealer = self.dealer if self.dealer is not None else 0
        v = Violation("misdeal", dealer, f"misdeal by {SEAT_NAMES[dealer]}: {message}; the same dealer deals again",
                      evidence=tuple(evidence), params=(("reason", reason),))
        if self.game.phase == "deal":
            self.misdeals_pending.append(v)
            yield Flag(v)
        else:
            ref = next(n for n in range(len(self.game.events), 1, -1)
                       if self.game.events[n - 1]["type"] == "deal")
            yield Write({"type": "correction", "ref": ref, "reason": "misdeal", "replace": None,
                         "misdeal": v.as_dict()})
        self.mode = "idle"
        yield Redeal()

    def seen_hands(self) -> Optional[tuple[dict[str, list[str]], dict[str, int]]]:
        """For the screens, when the deal went into the record without its hands (readings were
        missed): the cards the antennas saw each seat receive and not yet play, and how many of
        each seat's cards nobody saw. None when the record has the hands, or nothing was seen."""
        hand = self.game.play
        if self.game.phase not in ("auction", "play") or not self.in_hand:
            return None
        played = set()
        left = [8, 8, 8, 8]
        if hand is not None:
            played = {c for t in hand.tricks for c in t.cards} | set(hand.trick)
            step = 1 if self.options.clockwise else 3
            for seat in range(4):
                left[seat] -= len(hand.tricks)
            for i in range(1, len(hand.trick) + 1):
                left[(hand.to_play - i * step) & 3] -= 1
        known = {SEAT_NAMES[s]: [card_name(c) for c in sorted(self.in_hand) if self.in_hand[c] == s and c not in played]
                 for s in range(4)}
        unseen = {SEAT_NAMES[s]: max(0, left[s] - len(known[SEAT_NAMES[s]])) for s in range(4)}
        return known, unseen

    # -- the console's answers ----------------------------------------------------------
    def answer(self, c: Conflict, action: str, card: Optional[Card]) -> Iterator[Proposal]:
        """The console answered one of this part's conflicts (:data:`KINDS`)."""
        if c.kind == "turned":
            if card is None:
                raise RecordError(f"conflict {c.id}: name the turned card (resolve)")
            yield Settle(c, "resolved", action)
            self.in_deal = {card: c.evidence[0] if c.evidence else 0}
            self.in_hand.pop(card, None)
            yield from self.write(*c.item)
            return
        yield Settle(c, "confirmed" if action == "confirm" else "dismissed", action)
        if action == "confirm":
            yield from self.misdeal("the referee confirmed a misdeal: " + c.message, c.evidence, "confirmed")
        elif c.kind == "deal":
            yield from self.write(c.item, c.evidence)
