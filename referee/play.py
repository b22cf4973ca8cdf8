"""The play of one hand: legal cards, trick winners, play violations, card points.

(Over 500 lines on purpose: this is one concept, the hand's play state, and
its legal-card test is the engine's hot path, asked millions of times by the
benchmark and the solver; kept in one module so a reader sees every rule of
play and its options side by side.)

Cards are ints 0-31 and hands are int bit masks (:mod:`referee.cards`); the
trump mode is an int 0-5 (:mod:`referee.trump_tables`). A legal-card question is a
handful of ``&`` on ints against tables built at import, so a referee can ask
it for every card seen and a benchmark can ask it millions of times.

The rules (``shared/rules/VARIANTS.md`` "Play rules common to all"; seed 000
§5.2; seed 004 "The Play"), with the options of :class:`referee.rules.Options`
where the sources disagree:

- follow the suit led when you can;
- trump led: beat the highest trump on the table if you can, even your
  partner's (000 §5.2, 004); else any trump. ``beat_partner_on_trump_lead=False``
  is seed 001's reminder "unless ... their partner is currently winning the
  trick": then any trump;
- void in a plain suit led, partner not winning: trump, overtrumping if an
  opponent has trumped and you can; an opponent trumped higher and you cannot
  overtrump: ``undertrump="discard"`` any card (000 §5.2 note), ``"must"`` a
  lower trump (004 "pisser");
- partner winning: any card, a lower trump included; with
  ``undertrump="always"`` (004 variation "on est toujours obligé de pisser")
  and a partner who has *trumped*: overtrump or discard but never undertrump
  when you can overtrump, undertrump when you hold trumps but cannot;
- no trump (``sa``): follow suit, no obligation to beat; all trump (``ta``):
  follow suit and beat the highest card of the suit led when you can
  (``all_trump_must_beat``), a partner's card excepted under
  ``beat_partner_on_trump_lead=False`` (001: in ta "all the cards that are
  played are considered trumps", so every lead is a trump lead); nothing cuts
  another suit.

>>> from referee.rules import profile
>>> from referee.cards import parse_card, parse_cards, parse_mask, mask_names
>>> mask_names(legal_cards(profile("ffb-contree"), parse_trump("h"),
...                        parse_cards("As 7h"), parse_mask("Ks 9h Jh 8h Ad")))
['Ks']
>>> mask_names(legal_cards(profile("ffb-contree"), parse_trump("h"),
...                        parse_cards("As Jh"), parse_mask("9h 8h Ad")))   # cannot overtrump the jack
['8h', '9h', 'Ad']
>>> mask_names(legal_cards(profile("classic"), parse_trump("h"),
...                        parse_cards("As Jh"), parse_mask("9h 8h Ad")))   # classic: must undertrump
['8h', '9h']

A :class:`HandPlay` follows one hand, trick by trick; it applies every play,
legal or not (a referee records what happened), and returns the violation:

>>> from referee.seats import SOUTH, SEAT_NAMES
>>> hands = [parse_mask(h) for h in ("7s 8s 9s Ts Js Qs Ks As",   # N
...                                  "7h 8h 9c Tc Jc Qc Kc Ac",   # E
...                                  "7d 8d 9d Td Jd Qd Kd Ad",   # S
...                                  "9h Th Jh Qh Kh Ah 7c 8c")]  # W
>>> hand = HandPlay(parse_trump("h"), SOUTH, profile("ffb-contree"), hands)
>>> SEAT_NAMES[hand.to_play], mask_names(hand.legal())[:3]
('S', ['7d', '8d', '9d'])
>>> hand.play(parse_card("Ad")) is None
True
>>> print(hand.play(parse_card("Ac")).message)
E held ♥7 but did not trump: partner was not winning the trick
"""

from __future__ import annotations

import dataclasses
from typing import Iterable, NamedTuple, Optional, Sequence

from .cards import SUIT_MASKS, SUIT_NAMES, SUITS, Card, Mask, card_name, iter_cards, mask_of, pretty, suit_of
from .rules import Options, option_choices
from .seats import SEAT_NAMES, Seat, Team
from .trump_tables import ALL_TRUMP, BEATS, Mode, parse_trump, points_table, strongest, trump_mask, trump_name, weakest
from .violations import Violation

__all__ = ["HandPlay", "PlayError", "Trick", "legal_cards", "trick_winner", "cards_in_order",
           "audit", "parse_trump", "follower_legal"]

_UNDERTRUMP_RULES = option_choices("undertrump")       # the option's choices; the engine keeps the index
_DISCARD, _ALWAYS = _UNDERTRUMP_RULES.index("discard"), _UNDERTRUMP_RULES.index("always")
_ALL = (1 << 32) - 1


class PlayError(ValueError):
    """A question the play engine cannot answer: a full trick, a card twice, a hand that is over."""


def _rule_code(options: Options) -> int:
    try:
        return _UNDERTRUMP_RULES.index(options.undertrump)
    except ValueError:
        raise PlayError(f"unknown undertrump rule {options.undertrump!r}: "
                        f"choose one of {', '.join(_UNDERTRUMP_RULES)}") from None


def _must_beat_mask(mode: Mode, options: Options) -> Mask:
    """Cards whose suit, when led, obliges each player to beat the best card on the table."""
    if mode == ALL_TRUMP:
        return _ALL if options.all_trump_must_beat else 0
    return trump_mask(mode)


def _winner_index(beats: tuple[Mask, ...], cards: Sequence[Card]) -> int:
    best = 0
    for i in range(1, len(cards)):
        if beats[cards[best]] >> cards[i] & 1:
            best = i
    return best


def trick_winner(trump: Mode, cards: Sequence[Card]) -> int:
    """The position (0 = leader) of the card that wins ``cards``, leader first.

    >>> from referee.cards import parse_cards
    >>> trick_winner(parse_trump("s"), parse_cards("Ah Th 7s Jh"))
    2
    >>> trick_winner(parse_trump("ta"), parse_cards("Ah 9h Jd Th"))
    1
    """
    if not cards:
        raise PlayError("an empty trick has no winner")
    return _winner_index(BEATS[trump], cards)


def legal_cards(options: Options, trump: Mode, trick_cards: Sequence[Card],
                hand_cards: Mask | Iterable[Card]) -> Mask:
    """The legal cards (a mask) of the player to play next on ``trick_cards``.

    ``trick_cards`` are the cards already played to the trick, leader first; the
    player to play is the next one, whose partner played two cards before (the
    trick's order alone says who is winning, so no seat is needed).
    ``hand_cards`` is the player's hand, a mask or cards. List the result in the
    hand's own order with :func:`cards_in_order`.
    """
    hand = hand_cards if isinstance(hand_cards, int) else mask_of(hand_cards)
    n = len(trick_cards)
    if n > 3:
        raise PlayError(f"the trick already has {n} cards: nobody plays a fifth one")
    trick = mask_of(trick_cards)
    if trick.bit_count() != n:
        raise PlayError("the trick lists the same card twice: each card of the deck is played once")
    if trick & hand:
        raise PlayError(f"{', '.join(card_name(c) for c in iter_cards(trick & hand))} is both in the trick "
                        f"and in the hand: a card played to the trick has left the hand")
    if not hand:
        raise PlayError("the hand is empty: give the cards of the player to play")
    # Replay the trick on a play state where each card was its player's only card
    # (so always legal): the rules live in one place, HandPlay.legal.
    step = 1 if options.clockwise else 3
    hands = [0, 0, 0, 0]
    for i, card in enumerate(trick_cards):
        hands[i * step & 3] = 1 << card
    hands[n * step & 3] = hand
    state = HandPlay(trump, 0, options, hands)
    for card in trick_cards:
        state.play(card)
    return state.legal()


def cards_in_order(mask: Mask, cards: Iterable[Card]) -> list[Card]:
    """The cards of ``mask``, in the order they appear in ``cards`` (e.g. a hand as given).

    >>> from referee.cards import parse_cards, parse_mask
    >>> cards_in_order(parse_mask("Ks Jh"), parse_cards("Ks 9s Jh")) == parse_cards("Ks Jh")
    True
    """
    return [c for c in cards if mask >> c & 1]


def _why(mode: Mode, seat: Seat, hand: Mask, card: Card, lead: Card, win: Card,
         partner_wins: bool) -> tuple[str, str, tuple[tuple[str, object], ...]]:
    """The rule broken by playing ``card`` (illegal, in ``hand``), a sentence for the players
    and its params (``held``: the card that should have been played; ``led``, ``win``,
    ``partner``: the trick) for :attr:`Violation.params`."""
    who = SEAT_NAMES[seat]
    beats = BEATS[mode]
    ruff = trump_mask(mode)
    follow = hand & SUIT_MASKS[lead >> 3]
    trick = (("led", SUITS[suit_of(lead)]), ("win", card_name(win)), ("partner", partner_wins))
    if follow:
        if not follow >> card & 1:
            held = weakest(mode, follow)
            return "must-follow", (f"{who} held {pretty(held)} but did not follow suit: "
                                   f"{SUIT_NAMES[suit_of(lead)]} were led"), (("held", card_name(held)),) + trick
        # Only reached when the beat obligation holds: under beat_partner_on_trump_lead=False a
        # partner's card leaves every card of the suit legal, so partner_wins here means the default.
        led = "all trumps are played" if mode == ALL_TRUMP else "trumps were led"
        whose = "even partner's " if partner_wins else ""
        held = strongest(mode, follow & beats[win])
        return "must-beat", (f"{who} played {pretty(card)} but held {pretty(held)}: "
                             f"{led}, so a player must beat {whose}{pretty(win)} when they can"), \
            (("held", card_name(held)),) + trick
    cut = hand & ruff
    over = cut & beats[win]
    if not ruff >> win & 1:
        held = weakest(mode, cut)
        return "must-trump", (f"{who} held {pretty(held)} but did not trump: "
                              f"partner was not winning the trick"), (("held", card_name(held)),) + trick
    if partner_wins:                         # only the "always undertrump" rule gets here
        if over:
            held = strongest(mode, over)
            return "must-overtrump", (f"{who} played {pretty(card)} under partner's {pretty(win)} while holding "
                                      f"{pretty(held)}: on a trick partner has trumped, "
                                      f"overtrump or discard, never undertrump"), (("held", card_name(held)),) + trick
        held = weakest(mode, cut)
        return "must-undertrump", (f"{who} held {pretty(held)} but did not trump: these rules "
                                   f"require undertrumping even on partner's {pretty(win)}"), \
            (("held", card_name(held)),) + trick
    if over:
        held = strongest(mode, over)
        return "must-overtrump", (f"{who} held {pretty(held)} but did not overtrump: "
                                  f"an opponent had trumped with {pretty(win)}"), (("held", card_name(held)),) + trick
    held = weakest(mode, cut)
    return "must-undertrump", (f"{who} held {pretty(held)} but did not trump: an opponent had "
                               f"trumped with {pretty(win)} and these rules require undertrumping"), \
        (("held", card_name(held)),) + trick


def follower_legal(hand: Mask, lead: Card, win: Card, n: int, winpos: int, ruff: Mask, must_beat: Mask,
                   beats: Sequence[Mask], partner_free: bool, rule: int) -> Mask:
    """The legal cards of ``hand`` for the player who plays the ``n + 1``-th card (``n`` >= 1) of
    a trick led with ``lead``, ``win`` winning it as the ``winpos``-th card.

    The one implementation of the play rules (module docstring), for :meth:`HandPlay.legal` and
    the double-dummy search (:mod:`referee.solver`); ``ruff``, ``must_beat``, ``beats``,
    ``partner_free`` and ``rule`` are a mode's and the options' constants (:class:`HandPlay`
    holds them).
    """
    follow = hand & SUIT_MASKS[lead >> 3]
    if follow:                                    # follow suit; beat when trumps (or ta) are led,
        if must_beat >> lead & 1 and not (        # unless partner wins and the rules free them
                partner_free and winpos == n - 2):
            return follow & beats[win] or follow
        return follow
    if not hand & ruff:                           # nothing to follow or cut with
        return hand
    cut = hand & ruff
    partner_wins = n >= 2 and winpos == n - 2
    if ruff >> win & 1:                           # somebody has trumped and wins the trick
        over = cut & beats[win]
        if partner_wins:
            return hand if rule != _ALWAYS else ((over | hand & ~ruff) if over else cut)
        if over:
            return over
        return hand if rule == _DISCARD else cut
    return hand if partner_wins else cut


class Trick(NamedTuple):
    """A finished trick: who led, the four cards in play order, who won."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat

    def __repr__(self) -> str:
        return (f"Trick({SEAT_NAMES[self.leader]}: {' '.join(card_name(c) for c in self.cards)} "
                f"-> {SEAT_NAMES[self.winner]})")


class HandPlay:
    """The play state of one hand: whose turn, the trick on the table, tricks and points won.

    ``hands`` (four masks, indexed by seat) may be left out when the record has
    none: plays are then only checked for cards played twice, and
    :func:`audit` finds the revokes once the hand is over. ``play`` always
    applies the card, legal or not, and returns the :class:`Violation` or None.

    Per-state memory is a few ints (``__slots__``, tricks packed into one int
    each): ``bench/referee.py`` measures it.
    """

    __slots__ = ("trump", "options", "_rule", "_ruff", "_must_beat", "_partner_free", "_beats", "_points",
                 "_step", "_hands", "_played", "_leader", "_to_play", "_trick", "_win", "_winpos", "_trick_points",
                 "_history", "_score", "_memo")

    def __init__(self, trump: Mode, leader: Seat, options: Options = Options(),
                 hands: Optional[Sequence[Mask]] = None):
        if not 0 <= trump <= ALL_TRUMP:
            raise PlayError(f"trump mode {trump!r} is not 0-3 (a suit), 4 (sa) or 5 (ta); see parse_trump")
        if not 0 <= leader <= 3:
            raise PlayError(f"leader {leader!r} is not a seat 0-3 (N E S W)")
        self.trump = trump
        self.options = options
        self._rule = _rule_code(options)
        self._ruff = trump_mask(trump)
        self._must_beat = _must_beat_mask(trump, options)
        self._partner_free = not options.beat_partner_on_trump_lead   # 001: no need to beat partner
        self._beats = BEATS[trump]
        self._points = points_table(trump, options.no_trump_values)
        self._step = 1 if options.clockwise else 3
        if hands is not None:
            hands = list(hands)
            if len(hands) != 4:
                raise PlayError(f"give four hands (N E S W), not {len(hands)}")
            union = 0
            for h in hands:
                if union & h:
                    raise PlayError(f"{', '.join(card_name(c) for c in iter_cards(union & h))} "
                                    f"is dealt to two players")
                union |= h
        self._hands: Optional[list[Mask]] = hands
        self._played = 0                      # every card played so far
        self._leader = leader                 # leader of the trick on the table
        self._to_play = leader
        self._trick: list[Card] = []          # cards on the table, leader first
        self._win = -1                        # card winning the trick on the table
        self._winpos = 0
        self._trick_points = 0
        self._history: list[int] = []         # finished tricks: leader | 4 cards << 2, 7, 12, 17 | winner << 22
        self._score = 0                       # NS points | EW points << 16 | NS tricks << 32 | EW tricks << 36
        self._memo = -1                       # legal() of the current position, -1 when stale

    # --- questions ---------------------------------------------------------

    @property
    def to_play(self) -> Seat:
        return self._to_play

    @property
    def trick(self) -> list[Card]:
        """The cards on the table, leader first (a copy)."""
        return list(self._trick)

    @property
    def trick_leader(self) -> Seat:
        return self._leader

    @property
    def trick_number(self) -> int:
        """1-8: the trick being played (8 once the hand is over)."""
        return min(len(self._history) + 1, 8)

    @property
    def done(self) -> bool:
        return len(self._history) == 8

    @property
    def played(self) -> Mask:
        return self._played

    def hand(self, seat: Seat) -> Optional[Mask]:
        """What ``seat`` still holds, or None when the hands are not known."""
        return None if self._hands is None else self._hands[seat]

    def winning(self) -> Optional[Seat]:
        """The seat whose card is winning the trick on the table, or None if it is empty."""
        return (self._leader + self._winpos * self._step) & 3 if self._trick else None

    def legal(self) -> Mask:
        """The legal cards of the player to play (a mask); needs the hands.

        Ints and table lookups (:func:`follower_legal`), memoized until the next play.
        """
        legal = self._memo
        if legal >= 0:
            return legal
        try:
            hand = self._hands[self._to_play]
        except TypeError:
            raise PlayError("legal cards need the players' hands; this hand was started without them") from None
        trick = self._trick
        if not trick:
            if len(self._history) == 8:
                raise PlayError("the hand is over: all eight tricks have been played")
            legal = hand                                  # the leader plays anything
        else:
            legal = follower_legal(hand, trick[0], self._win, len(trick), self._winpos, self._ruff, self._must_beat,
                                   self._beats, self._partner_free, self._rule)
        self._memo = legal
        return legal

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order."""
        return [_unpack(p) for p in self._history]

    @property
    def winners(self) -> list[Seat]:
        return [p >> 22 & 3 for p in self._history]

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won by (NS, EW)."""
        return self._score >> 32 & 15, self._score >> 36 & 15

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points won by (NS, EW), the dix de der included once the last trick is taken.

        Capot's larger bonus (``capot_dix_de_der``) is a matter of hand scoring,
        not of card points: see :attr:`capot`.
        """
        return self._score & 0xFFFF, self._score >> 16 & 0xFFFF

    @property
    def capot(self) -> Optional[Team]:
        """The team that took all eight tricks (0 NS, 1 EW), else None.

        Counted by tricks: a team that wins only a zero-point trick has still
        prevented the capot.
        """
        ns, ew = self.tricks_won
        return 0 if ns == 8 else 1 if ew == 8 else None

    # --- the play ------------------------------------------------------------

    def play(self, card: Card) -> Optional[Violation]:
        """Apply ``card`` for the player to play; return the rule it broke, or None.

        The card is applied even when illegal: the referee records what
        happened, and the hand goes on.
        """
        history = self._history
        if len(history) == 8:
            raise PlayError("the hand is over: all eight tricks have been played")
        if not 0 <= card < 32:
            raise PlayError(f"{card!r} is not a card (0-31)")
        seat = self._to_play
        bit = 1 << card
        trick = self._trick
        n = len(trick)
        violation = None
        if self._played & bit:
            violation = self._violation("already-played", seat, card,
                                        f"{SEAT_NAMES[seat]} played {pretty(card)}, which was already played "
                                        f"in this hand")
        elif self._hands is not None:
            hand = self._hands[seat]
            if not hand & bit:
                violation = self._violation("not-held", seat, card,
                                            f"{SEAT_NAMES[seat]} played {pretty(card)} but was not dealt it")
            elif n and not (self._memo if self._memo >= 0 else self.legal()) & bit:
                rule, message, params = _why(self.trump, seat, hand, card, trick[0], self._win,
                                             n >= 2 and self._winpos == n - 2)
                violation = self._violation(rule, seat, card, message, params)
            self._hands[seat] = hand & ~bit
        self._memo = -1
        self._played |= bit
        trick.append(card)
        self._trick_points += self._points[card]
        if n == 0:
            self._win = card
            self._winpos = 0
        elif self._beats[self._win] & bit:
            self._win = card
            self._winpos = n
        if n < 3:
            self._to_play = (seat + self._step) & 3
            return violation
        # the trick is complete
        step = self._step
        winner = (self._leader + self._winpos * step) & 3
        points = self._trick_points
        if len(history) == 7:
            points += self.options.dix_de_der
        team = winner & 1
        self._score += (points << (16 * team)) + (1 << (32 + 4 * team))
        history.append(self._leader | trick[0] << 2 | trick[1] << 7 | trick[2] << 12 | trick[3] << 17
                       | winner << 22)
        self._trick = []
        self._trick_points = 0
        self._leader = self._to_play = winner
        return violation

    def _violation(self, rule: str, seat: Seat, card: Card, message: str,
                   params: tuple[tuple[str, object], ...] = ()) -> Violation:
        return Violation(rule=rule, seat=seat, message=message, card=card, trick=len(self._history) + 1,
                         params=params)

    def copy(self) -> "HandPlay":
        """An independent copy (to explore a line of play without changing this one)."""
        other = object.__new__(HandPlay)
        for name in HandPlay.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = None if self._hands is None else list(self._hands)
        other._trick = list(self._trick)
        other._history = list(self._history)
        return other

    def __repr__(self) -> str:
        return (f"<HandPlay {trump_name(self.trump)} "
                f"trick {self.trick_number} {SEAT_NAMES[self._to_play]} to play, "
                f"on table {' '.join(card_name(c) for c in self._trick) or '-'}>")


def _unpack(packed: int) -> Trick:
    leader = packed & 3
    return Trick(leader, tuple(packed >> s & 31 for s in (2, 7, 12, 17)), packed >> 22 & 3)


def audit(trump: Mode, leader: Seat, plays: Iterable[Card], options: Options = Options()) -> list[Violation]:
    """Every play violation of a hand recorded without the players' hands.

    Each player's hand is rebuilt from the cards they played: a player who
    discarded and later played a card of the suit led (or a trump) held it,
    so the discard was a revoke. ``plays`` are the cards in the order played
    (the seats follow from the rules: the winner of a trick leads the next).

    A player who has not played all eight cards (an unfinished hand) may have
    held cards nobody saw; a play is then reported only if it would be illegal
    whatever those cards were, so no one is accused on incomplete evidence.
    More cards only add obligations, with one exception: under
    ``undertrump="always"`` a higher trump would have allowed a discard over
    the partner's trump, so that discard is kept only if no unseen card could
    have overtrumped. (``beat_partner_on_trump_lead=False`` adds no exception:
    whether the partner holds the trick is known from the cards on the table.)

    >>> from referee.cards import parse_cards
    >>> from referee.seats import NORTH
    >>> plays = parse_cards("As 7h Ks Qs") + parse_cards("8h 7s 8s 9s")   # W discarded 7h, then played 8h
    >>> [(v.rule, v.trick) for v in audit(parse_trump("d"), NORTH, plays)]
    [('must-follow', 1)]
    """
    plays = list(plays)
    if len(plays) > 32:
        raise PlayError(f"{len(plays)} plays recorded: a hand has 32")
    step = 1 if options.clockwise else 3
    beats = BEATS[trump]
    # First pass: who played what (seats follow from trick winners), without legality.
    seats: list[Seat] = []
    held = [0, 0, 0, 0]
    first = leader
    for start in range(0, len(plays), 4):
        cards = plays[start:start + 4]
        for i, card in enumerate(cards):
            seat = (first + i * step) & 3
            seats.append(seat)
            held[seat] |= 1 << card
        first = (first + _winner_index(beats, cards) * step) & 3
    unseen = ~mask_of(plays) & _ALL & trump_mask(trump)
    complete = [seats.count(seat) == 8 for seat in range(4)]
    # Second pass: replay with the rebuilt hands; a card played twice is reported by play().
    game = HandPlay(trump, leader, options)
    game._hands = held
    found = []
    for seat, card in zip(seats, plays):
        over_partner = game.winning() == seat ^ 2 and unseen & beats[game._win]
        violation = game.play(card)
        if violation is None or (violation.rule == "must-undertrump" and over_partner and not complete[seat]):
            continue
        found.append(violation if violation.rule == "already-played" else dataclasses.replace(
            violation, message=violation.message + " (the cards played later show it)"))
    return found
