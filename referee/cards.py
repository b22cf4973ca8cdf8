"""Cards, suits and ranks as small integers, and sets of cards as bit masks.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``, where suits are
``s h d c`` (0-3) and ranks ``7 8 9 T J Q K A`` (0-7) in *natural* order. A set
of cards (a hand, a trick, what is left in the deck) is an ``int`` bit mask with
bit ``card`` set, so "does W hold a heart?" is one ``&``. Like squares in
python-chess, these are plain ints: hashable, immutable, cheap to copy.

>>> card = parse_card("Jh")
>>> card_name(card), suit_of(card), rank_of(card)
('Jh', 1, 4)
>>> card_name(parse_card("10♥")), card_name(parse_card("QS"))
('Th', 'Qs')
>>> mask_names(parse_mask("As 7s Jh"))
['7s', 'As', 'Jh']
"""

from __future__ import annotations

from typing import Iterable, Iterator

Card = int
Mask = int
Suit = int

SUITS = "shdc"
RANKS = "789TJQKA"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
#: French indices for the court cards (roi, dame, valet), used by displays.
FRENCH_RANKS = "789XVDRA"

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

ALL_CARDS: Mask = (1 << 32) - 1
SUIT_MASKS: tuple[Mask, ...] = tuple(0xFF << (8 * s) for s in range(4))
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)

_RANK_ALIASES = {"10": TEN, "t": TEN, "j": JACK, "q": QUEEN, "k": KING, "a": ACE,
                 "7": SEVEN, "8": EIGHT, "9": NINE}
_SUIT_ALIASES = {c: i for i, c in enumerate(SUITS)}
_SUIT_ALIASES.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
_SUIT_ALIASES.update({"♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS})


class CardError(ValueError):
    """A text that is not a card of the 32-card Belote deck."""


def make_card(suit: Suit, rank: int) -> Card:
    return suit * 8 + rank


def suit_of(card: Card) -> Suit:
    return card >> 3


def rank_of(card: Card) -> int:
    return card & 7


def card_name(card: Card) -> str:
    return CARD_NAMES[card]


def parse_card(text: str) -> Card:
    """Parse ``Jh``, ``10h``, ``J♥``, ``JH`` or ``th`` into a card.

    >>> parse_card("7s"), parse_card("Ac")
    (0, 31)
    >>> parse_card("2h")
    Traceback (most recent call last):
    ...
    referee.cards.CardError: '2h' is not a Belote card: write a rank 7 8 9 T J Q K A (or 10) then a suit s h d c (or ♠♥♦♣), e.g. Jh
    """
    t = text.strip()
    if len(t) >= 2:
        rank = _RANK_ALIASES.get(t[:-1].lower())
        suit = _SUIT_ALIASES.get(t[-1].lower())
        if rank is not None and suit is not None:
            return suit * 8 + rank
    raise CardError(f"{text!r} is not a Belote card: write a rank 7 8 9 T J Q K A (or 10) "
                    f"then a suit s h d c (or ♠♥♦♣), e.g. Jh")


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas, keeping their order."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items]


def parse_suit(text: str) -> Suit:
    suit = _SUIT_ALIASES.get(text.strip().lower())
    if suit is None:
        raise CardError(f"{text!r} is not a suit: write s, h, d or c (or ♠♥♦♣)")
    return suit


def mask_of(cards: Iterable[Card]) -> Mask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def parse_mask(text: str | Iterable[str]) -> Mask:
    return mask_of(parse_cards(text))


def iter_cards(mask: Mask) -> Iterator[Card]:
    """The cards of a mask, lowest bit first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_names(mask: Mask) -> list[str]:
    return [CARD_NAMES[c] for c in iter_cards(mask)]


def count(mask: Mask) -> int:
    return mask.bit_count()


def pretty(card: Card, french: bool = False) -> str:
    """A card for people: ``♥J`` (or ``♥V`` with French indices)."""
    ranks = FRENCH_RANKS if french else "789TJQKA"
    rank = ranks[rank_of(card)]
    return SUIT_SYMBOLS[suit_of(card)] + ("10" if rank in "TX" else rank)
