"""Belote and rebelote as said: who may say it, with which card, and what it is worth.

Apart from :mod:`referee.game` because it is a rule of its own, read on its own:
the word goes with the king or the queen of trumps as it is played (a
``say`` on the ``play`` event), the profile decides whether it must be said
(``belote_must_say``) and whether the king comes first (``belote_king_first``),
and a hand whose deal was not seen can only be checked from the cards played.
:class:`~referee.game.Game` calls these as it replays the plays and when a
hand is scored.

``says`` is the hand's record of the pair's cards played: card -> (seat, the
word said with it or None, the order it was played in).
"""

from __future__ import annotations

from typing import Optional

from .cards import KING, QUEEN, mask_of, pretty, rank_of, suit_of
from .rules import Options
from .seats import SEAT_NAMES, Seat, team_of
from .trump_tables import ALL_TRUMP, NO_TRUMP
from .violations import Violation

Says = dict[int, tuple[Seat, Optional[str], int]]


def belote_suits(options: Options, trump: int) -> list[int]:
    """The suits whose king and queen make a belote (every suit at all-trumps, none at no-trumps)."""
    if not options.belote or trump == NO_TRUMP:
        return []
    return [0, 1, 2, 3] if trump == ALL_TRUMP else [trump]


def check_say(options: Options, trump: int, dealt: Optional[list[int]], seat: Seat, card: int, say: str,
              trick: int) -> list[Violation]:
    """The word ``say`` said by ``seat`` with ``card`` at ``trick``: not a card of a belote, a pair
    not dealt to that seat (``dealt``: the hands at the deal, when seen), or the queen first."""
    suits = belote_suits(options, trump)
    name = SEAT_NAMES[seat]
    pair = None
    if rank_of(card) in (KING, QUEEN) and suit_of(card) in suits:
        s = suit_of(card)
        pair = (s * 8 + KING, s * 8 + QUEEN)
    if pair is None:
        reason, why = (("rules", "belote is not played with these rules") if not options.belote
                       else ("no-trump", "there is no belote without trumps") if trump == NO_TRUMP
                       else ("pair", "belote is the king and queen of trumps"))
        return [Violation("belote-not-held", seat, f"{name} said {say} with {pretty(card)}: {why}",
                          card=card, trick=trick, params=(("reason", reason), ("say", say)))]
    if dealt is not None and (dealt[seat] & mask_of(pair)) != mask_of(pair):
        return [Violation("belote-not-held", seat, f"{name} said {say} with {pretty(card)} without holding "
                          f"both {pretty(pair[0])} and {pretty(pair[1])}", card=card,
                          trick=trick, params=(("reason", "dealt"), ("say", say)))]
    if options.belote_king_first and rank_of(card) == QUEEN and say == "belote":
        return [Violation("belote-king-first", seat, f"{name} played the queen {pretty(card)} before the "
                          f"king: with these rules the king comes first for belote", card=card,
                          trick=trick, params=(("reason", "said"),))]
    return []


def unheld_belotes(options: Options, trump: int, says: Says) -> list[Violation]:
    """Without the hands: a belote said by a player who did not play both cards of the pair."""
    found = []
    for card, (seat, say, _) in sorted(says.items()):
        pair_card = rank_of(card) in (KING, QUEEN) and suit_of(card) in belote_suits(options, trump)
        if not say or not pair_card:
            continue                              # reported when played
        other = suit_of(card) * 8 + (QUEEN if rank_of(card) == KING else KING)
        if says.get(other, (None,))[0] != seat:
            found.append(Violation("belote-not-held", seat, f"{SEAT_NAMES[seat]} said {say} with {pretty(card)} "
                                   f"but did not play {pretty(other)} (the cards played show it)", card=card,
                                   params=(("reason", "played"), ("say", say))))
    return found


def belote_points(options: Options, trump: int, says: Says) -> list[int]:
    """20 per belote held and played by one player (said, where it must be), per team (NS, EW)."""
    points = [0, 0]
    for s in belote_suits(options, trump):
        king, queen = says.get(s * 8 + KING), says.get(s * 8 + QUEEN)
        if not king or not queen or king[0] != queen[0]:
            continue
        first, second = (king, queen) if king[2] < queen[2] else (queen, king)
        if options.belote_must_say and not (first[1] and second[1]):
            continue
        if options.belote_king_first and first is queen:
            continue
        points[team_of(king[0])] += 20
    return points
