"""The simulated player: what a seeded player calls, which card it plays, what it says.

One player sits at every seat of every simulated game: the terminal demo's
records (:mod:`referee.demo`) and the simulated table whose sensors the table
referee is tested and measured on (:mod:`referee.simulate`, which the
dashboard's demo acts out). It announces its declarations at the first
trick, plays a card picked at random among those it is given (the legal
ones, unless the game plants a violation: what to get wrong, and when, is
the caller's plan), and says "belote" and "rebelote" with the trump king and
queen. Everything random comes from the game's seeded source, so a seed
always gives the same game.

It bids in one of two temperaments. A *careful* player (the demo's) bids by
the strength of its hand, so its auctions read like a club's. A *reckless*
player (the simulated table's) bids at random among the cheapest bids, in
any trump mode, no trump and all trump included, and now and then counters:
the table referee must see every kind of contract, and the hands it gets
mostly pass or bid low, so that all-pass hands come up too.

>>> import random
>>> from referee.auction import Auction
>>> from referee.cards import parse_mask
>>> from referee.rules import profile
>>> careful = Player(random.Random(1), profile("ffb-contree"))
>>> careful.auction_starts()
>>> careful.call(Auction(careful.options, dealer=0), parse_mask("Jh 9h Ah Th Kh As Ad Ac"))
'80h'
>>> careful.call(Auction(careful.options, dealer=0), parse_mask("7s 8s 7d 8d 9c 7c 8h 9s"))
'pass'
"""

from __future__ import annotations

import random
from typing import Optional

from .auction import Auction, parse_call
from .cards import KING, QUEEN, Card, Mask, iter_cards, rank_of, suit_of
from .declarations import Declaration, find_declarations
from .rules import Options
from .seats import Seat
from .trump_tables import ALL_TRUMP, NO_TRUMP, Mode, points_table

#: The players' names at the simulated table (the demos' and the simulator's games).
SEATS = {"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"}


def strength(hand: Mask, mode: Mode) -> int:
    """A rough count of what a hand brings with ``mode`` trumps (card points,
    plus length in trumps)."""
    table = points_table(mode)
    points = sum(table[c] for c in iter_cards(hand))
    if mode < NO_TRUMP:
        points += 12 * sum(1 for c in iter_cards(hand) if suit_of(c) == mode)
    return points


class Player:
    """A seeded simulated player (the same one plays each seat, with that seat's hand)."""

    def __init__(self, rng: random.Random, options: Options, reckless: bool = False):
        self.rng = rng
        self.options = options
        self.reckless = reckless
        self.eager = True

    def auction_starts(self) -> None:
        """A new auction. A reckless table sits out some auctions of contrée altogether."""
        if self.reckless and self.options.auction != "classic":
            self.eager = self.rng.random() < 0.85

    def call(self, auction: Auction, hand: Mask) -> str:
        """The call for the seat to speak, holding ``hand`` (classic belote: the first five
        cards, bid with the turned card)."""
        if self.reckless:
            return self._reckless_call(auction)
        rng = self.rng
        legal = auction.legal_calls()
        if self.options.auction == "classic":
            takes = [c for c in legal if c != "pass"]
            turned = auction.turned
            best = max(takes, key=lambda c: strength(hand | (1 << turned), parse_call(c).mode
                                                     if parse_call(c).mode is not None else suit_of(turned)),
                       default=None)
            mode = suit_of(turned) if best == "take" else parse_call(best).mode if best else None
            if best and strength(hand | (1 << turned), mode) >= 62 + rng.randint(-10, 15):
                return best
            return "pass"
        bids = [parse_call(c) for c in legal if c[0].isdigit()]
        if bids:
            mode = max(range(6 if self.options.all_trump else 4), key=lambda m: strength(hand, m))
            target = 50 + strength(hand, mode) // 2 + rng.randint(-10, 10)
            wanted = [b for b in bids if b.mode == mode and b.value <= target]
            if wanted and rng.random() < 0.8:
                return wanted[-1 if rng.random() < 0.3 else 0].text
        if "counter" in legal and rng.random() < 0.08:
            return "counter"
        if "recounter" in legal and rng.random() < 0.2:
            return "recounter"
        return "pass"

    def _reckless_call(self, auction: Auction) -> str:
        rng = self.rng
        legal = auction.legal_calls()
        if self.options.auction == "classic":
            takes = [c for c in legal if c != "pass"]
            return rng.choice(takes) if takes and rng.random() < (0.35 if auction.round == 1 else 0.5) else "pass"
        bids = [c for c in legal if c[0].isdigit()]
        if "counter" in legal and rng.random() < 0.03:
            return "counter"
        if "recounter" in legal and rng.random() < 0.2:
            return "recounter"
        if bids and self.eager and rng.random() < (0.6 if auction.last_bid is None else 0.2):
            return rng.choice(bids[:min(len(bids), 8)])
        return "pass"

    def declarations(self, seat: Seat, hand: Mask, trump: Mode) -> list[Declaration]:
        """What the player announces at the first trick."""
        return find_declarations(seat, hand, trump)

    def card(self, cards: Mask) -> Card:
        """A card of ``cards`` picked at random: the legal ones, or those that break a rule
        when the game plants a violation."""
        return self.rng.choice(list(iter_cards(cards)))

    @staticmethod
    def says(mode: Mode, card: Card, hand: Mask, said: set[Card]) -> Optional[str]:
        """"belote" when playing a trump king or queen with its pair still in ``hand``,
        "rebelote" with the second card (``said``: the cards "belote" was said with in this hand)."""
        if rank_of(card) not in (KING, QUEEN) or mode == NO_TRUMP or (mode != ALL_TRUMP and suit_of(card) != mode):
            return None
        other = suit_of(card) * 8 + (QUEEN if rank_of(card) == KING else KING)
        if hand >> other & 1:
            said.add(card)
            return "belote"
        return "rebelote" if other in said else None
