"""Declarations (announcements): sequences and squares, their values and ranking.

Where a profile has them (``declarations`` option: classic, coinche; never in
the FFB contrée, seed 000 §8), a player announces combinations held at the
first trick (seed 004 "When to declare"):

- sequences of one suit in the order A K Q J T 9 8 7 (our natural rank order):
  tierce (3 cards) 20, fifty (4) 50, hundred (5) 100; a longer sequence counts
  as a hundred (004 "counted as any of the 5-card sequences they include");
- squares (four of a rank), seed 002's table: in trump games (a suit, or all
  trump) J 200, 9 150, A T K Q 100; in no-trump games A 200, T 150, K Q J 9
  100; four 7s or four 8s count nothing.

Ranking (004): a square beats any sequence; between squares the higher value,
then the higher rank; between sequences the longer, then the higher top card,
then a trump sequence; still equal, the player earliest in rotation from the
dealer's right. Only the side holding the best declaration scores, and it
scores all its declarations (004). A card is in one declaration only.

Belote/rebelote is not a declaration here: it is said when the cards are
played (``say`` of a ``play`` event) and handled by :mod:`referee.game`.

>>> from referee.cards import parse_cards
>>> from referee.trump_tables import parse_trump
>>> hearts = parse_trump("h")
>>> d = make_declaration(2, parse_cards("Ah Kh Qh Jh"), hearts)
>>> d.kind, d.value
('fifty', 50)
>>> make_declaration(1, parse_cards("9s 9h 9d 9c"), hearts).value
150
>>> best = [make_declaration(0, parse_cards("Ts Js Qs"), hearts), make_declaration(1, parse_cards("8h 9h Th"), hearts)]
>>> declaration_points(best, hearts, dealer=3)        # J-high tierce beats T-high: NS scores
(20, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from .cards import RANKS, SUITS, Card, Mask, card_name, iter_cards, mask_of, rank_of, suit_of
from .seats import SEAT_NAMES, Seat, next_seat, team_of
from .trump_tables import NO_TRUMP, Mode

SEQUENCE_VALUES = {3: 20, 4: 50, 5: 100}
SEQUENCE_KINDS = {3: "tierce", 4: "fifty", 5: "hundred"}
#: Square values by natural rank 7 8 9 T J Q K A (seed 002's table).
SQUARE_VALUES = (0, 0, 150, 100, 200, 100, 100, 100)
SQUARE_VALUES_NO_TRUMP = (0, 0, 100, 150, 100, 100, 100, 200)


class DeclarationError(ValueError):
    """Cards that do not form a declaration (the message says why)."""


@dataclass(frozen=True)
class Declaration:
    """One announced combination. ``key`` orders declarations by 004's ranking
    (without the rotation tie-break, which needs the dealer)."""

    seat: Seat
    cards: Mask
    kind: str            # tierce | fifty | hundred | square
    value: int
    key: tuple

    def as_dict(self) -> dict:
        return {"seat": SEAT_NAMES[self.seat], "kind": self.kind, "value": self.value,
                "cards": [card_name(c) for c in iter_cards(self.cards)]}


def make_declaration(seat: Seat, cards: Sequence[Card], mode: Mode) -> Declaration:
    """The declaration ``cards`` form under trump ``mode``, or DeclarationError."""
    mask = mask_of(cards)
    shown = " ".join(card_name(c) for c in cards)
    if mask.bit_count() != len(cards):
        raise DeclarationError(f"{shown}: a card is listed twice")
    ranks = {rank_of(c) for c in cards}
    suits = {suit_of(c) for c in cards}
    if len(cards) == 4 and len(ranks) == 1:
        rank = ranks.pop()
        value = (SQUARE_VALUES_NO_TRUMP if mode == NO_TRUMP else SQUARE_VALUES)[rank]
        if not value:
            raise DeclarationError(f"{shown}: four {RANKS[rank]}s count nothing")
        return Declaration(seat, mask, "square", value, (1, value, rank))
    if len(suits) == 1 and len(cards) >= 3:
        low, high = min(ranks), max(ranks)
        if high - low + 1 == len(cards):
            length = min(len(cards), 5)
            suit = suits.pop()
            trump = 1 if mode == suit else 0     # in all-trump no suit outranks another
            return Declaration(seat, mask, SEQUENCE_KINDS[length], SEQUENCE_VALUES[length],
                               (0, length, high, trump))
    raise DeclarationError(f"{shown} is not a declaration: announce 3 to 5 cards in a row of one suit "
                           f"(e.g. Ah Kh Qh) or four cards of one rank (not 7s or 8s)")


def _rotation(dealer: Seat, clockwise: bool) -> list[Seat]:
    order, seat = [], dealer
    for _ in range(4):
        seat = next_seat(seat, clockwise)
        order.append(seat)
    return order


def best_declaration(declarations: Iterable[Declaration], dealer: Seat,
                     clockwise: bool = False) -> Optional[Declaration]:
    """The best declaration (004's ranking, ties to the earliest from dealer's right)."""
    order = _rotation(dealer, clockwise)
    best = None
    for d in declarations:
        if best is None or (d.key, -order.index(d.seat)) > (best.key, -order.index(best.seat)):
            best = d
    return best


def declaration_points(declarations: Sequence[Declaration], mode: Mode, dealer: Seat,
                       clockwise: bool = False) -> tuple[int, int]:
    """Points (NS, EW): the side with the best declaration scores all of its own."""
    best = best_declaration(declarations, dealer, clockwise)
    points = [0, 0]
    if best is not None:
        team = team_of(best.seat)
        points[team] = sum(d.value for d in declarations if team_of(d.seat) == team)
    return points[0], points[1]


def find_declarations(seat: Seat, hand: Mask, mode: Mode) -> list[Declaration]:
    """The declarations a player holding ``hand`` would announce: squares first,
    then the longest sequences from the cards left (a card in one declaration)."""
    found: list[Declaration] = []
    left = hand
    for rank in range(7, -1, -1):
        square = [s * 8 + rank for s in range(4)]
        if all(left >> c & 1 for c in square):
            try:
                found.append(make_declaration(seat, square, mode))
            except DeclarationError:
                continue
            left &= ~mask_of(square)
    for suit in range(len(SUITS)):
        run: list[Card] = []
        for rank in range(8):
            card = suit * 8 + rank
            if left >> card & 1:
                run.append(card)
            if not left >> card & 1 or rank == 7:
                if len(run) >= 3:
                    found.append(make_declaration(seat, run, mode))
                run = []
    return found
