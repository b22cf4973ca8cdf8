"""Trump modes and the card tables precomputed for each: order, points, "beats".

A *trump mode* is an ``int``: a suit 0-3 (``s h d c``), :data:`NO_TRUMP` (4,
``sa``) or :data:`ALL_TRUMP` (5, ``ta``). Everything the play engine asks about
a card under a mode is a lookup in a tuple built once at import, so that the
legal-card and trick-winner questions are a few ``&`` and ``>>`` on ints:

- :data:`BEATS` ``[mode][card]``: the mask of cards that take the trick from
  ``card`` when ``card`` is the one currently winning it. The winning card is
  always of the suit led or a trump, so one mask per card is enough: higher
  cards of its suit, plus every trump when it is a plain card.
- :data:`ORDER` ``[mode][card]``: strength 0-7 within the suit (trump order
  J 9 A T K Q 8 7 for trumps, plain order A T K Q J 9 8 7 otherwise), plus 8
  for a trump in a suit contract, so that "the strongest of these cards" is a
  ``max`` over ints.
- :func:`points_table`: the card points for a mode and a rules option.

>>> trump = parse_trump("h")
>>> from referee.cards import parse_card, mask_names
>>> mask_names(BEATS[trump][parse_card("Ah")])
['9h', 'Jh']
>>> len(mask_names(BEATS[trump][parse_card("Ts")]))     # the ace of spades and all eight hearts
9
>>> sum(points_table(trump)), sum(points_table(NO_TRUMP)), sum(points_table(ALL_TRUMP))
(152, 152, 152)
>>> sum(points_table(NO_TRUMP, "plain"))
120
"""

from __future__ import annotations

from .cards import SUIT_MASKS, SUITS, Card, CardError, Mask, parse_suit, rank_of, suit_of

Mode = int

NO_TRUMP: Mode = 4
ALL_TRUMP: Mode = 5
MODES: tuple[Mode, ...] = tuple(range(6))
MODE_NAMES: tuple[str, ...] = tuple(SUITS) + ("sa", "ta")

# Strength within a suit, indexed by natural rank 7 8 9 T J Q K A.
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)      # J 9 A T K Q 8 7
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)      # A T K Q J 9 8 7

# Card values, indexed by natural rank 7 8 9 T J Q K A.
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
NO_TRUMP_POINTS = {                              # Options.no_trump_values
    "001": (0, 0, 0, 10, 2, 3, 4, 19),           # seed 001: A 19, T 10, K 4, Q 3, J 2
    "plain": PLAIN_POINTS,                       # A 11 as in a suit contract
}
ALL_TRUMP_POINTS = (0, 0, 9, 5, 13, 2, 3, 6)     # seed 001: J 13, 9 9, A 6, T 5, K 3, Q 2


def parse_trump(text: str) -> Mode:
    """``s h d c`` (or ``♠♥♦♣``), ``sa`` or ``ta``, any case, into a trump mode.

    >>> parse_trump("SA"), parse_trump("ta"), parse_trump("♣")
    (4, 5, 3)
    >>> parse_trump("x")
    Traceback (most recent call last):
    ...
    referee.cards.CardError: 'x' is not a trump mode: write a suit s, h, d or c (or ♠♥♦♣), sa (no trump) or ta (all trump)
    """
    name = text.strip().lower()
    if name in ("sa", "ta"):
        return NO_TRUMP if name == "sa" else ALL_TRUMP
    try:
        return parse_suit(name)
    except CardError:
        raise CardError(f"{text!r} is not a trump mode: write a suit s, h, d or c (or ♠♥♦♣), "
                        f"sa (no trump) or ta (all trump)") from None


def trump_name(mode: Mode) -> str:
    """The text form of a trump mode: ``h``, ``sa``, ``ta``."""
    return MODE_NAMES[mode]


def trump_mask(mode: Mode) -> Mask:
    """The cards that can cut a suit they are not of: the trump suit, else none.

    In ``ta`` every card is a trump of its own suit, but none cuts another suit.
    """
    return SUIT_MASKS[mode] if mode < 4 else 0


def _is_trump(mode: Mode, card: Card) -> bool:
    return mode == ALL_TRUMP or suit_of(card) == mode


def _order(mode: Mode) -> tuple[int, ...]:
    out = []
    for card in range(32):
        trump = _is_trump(mode, card)
        strength = (TRUMP_STRENGTH if trump else PLAIN_STRENGTH)[rank_of(card)]
        out.append(strength + (8 if trump and mode < 4 else 0))
    return tuple(out)


ORDER: tuple[tuple[int, ...], ...] = tuple(_order(m) for m in MODES)


def _beats(mode: Mode) -> tuple[Mask, ...]:
    order = ORDER[mode]
    out = []
    for card in range(32):
        suit = SUIT_MASKS[suit_of(card)]
        higher = sum(1 << c for c in range(32) if (1 << c) & suit and order[c] > order[card])
        if mode < 4 and suit_of(card) != mode:
            higher |= SUIT_MASKS[mode]
        out.append(higher)
    return tuple(out)


BEATS: tuple[tuple[Mask, ...], ...] = tuple(_beats(m) for m in MODES)


def _points(mode: Mode, no_trump_values: str) -> tuple[int, ...]:
    if mode == NO_TRUMP:
        values = NO_TRUMP_POINTS[no_trump_values]
        return tuple(values[rank_of(c)] for c in range(32))
    if mode == ALL_TRUMP:
        return tuple(ALL_TRUMP_POINTS[rank_of(c)] for c in range(32))
    return tuple((TRUMP_POINTS if suit_of(c) == mode else PLAIN_POINTS)[rank_of(c)] for c in range(32))


_POINTS = {(m, v): _points(m, v) for m in MODES for v in NO_TRUMP_POINTS}


def points_table(mode: Mode, no_trump_values: str = "001") -> tuple[int, ...]:
    """The points of each card (indexed by card) under ``mode``.

    ``no_trump_values`` is :attr:`referee.rules.Options.no_trump_values`; it only
    matters for ``sa``.
    """
    try:
        return _POINTS[mode, no_trump_values]
    except KeyError:
        raise ValueError(f"no table for trump mode {mode!r} with no-trump values "
                         f"{no_trump_values!r}: modes are 0-5, values {', '.join(NO_TRUMP_POINTS)}") from None


def strongest(mode: Mode, mask: Mask) -> Card:
    """The highest-ranked card of a non-empty mask (trumps above plain cards)."""
    order = ORDER[mode]
    best, best_order = -1, -1
    m = mask
    while m:
        low = m & -m
        card = low.bit_length() - 1
        if order[card] > best_order:
            best, best_order = card, order[card]
        m ^= low
    return best


def weakest(mode: Mode, mask: Mask) -> Card:
    """The lowest-ranked card of a non-empty mask."""
    order = ORDER[mode]
    best, best_order = -1, 99
    m = mask
    while m:
        low = m & -m
        card = low.bit_length() - 1
        if order[card] < best_order:
            best, best_order = card, order[card]
        m ^= low
    return best

