"""The order of the recorded tricks, put right after a correction changed who won one.

Why: the table referee records the cards of a trick in the order of the turn
it infers (the last trick's winner leads), not in the order the sensors saw
them put down; a card nobody saw is placed in its turn (the console names it).
When a correction (a misread found, a card named at the console) changes the
winner of a trick, the tricks recorded after it were put in an order that
rested on the wrong winner. Replayed as they stand, every card of the next
trick would be "out of turn" and go back to its hand, and the hand would
never end: accusations on a state the referee inferred, not on what anyone
saw. :func:`reordered` puts each later trick's recorded cards in the turn
the corrected tricks give, as corrections of the same play events (each card
keeps its evidence and sources; the trick's pickup stays on its last play).

A trick is only reordered when its four recorded cards are of the four seats
and no card of it was recorded out of turn (an out-of-turn play is a fact the
console or the sensors' timing gave, and the order after it is not the
referee's to change): the first such trick ends the reordering, as does the
trick still on the table.
"""

from __future__ import annotations

from typing import Any, Optional

from .game import Game
from .play import HandPlay
from .proposals import correction
from .seats import SEAT_NAMES, Seat, turn_order
from .table_cards import Played


def reordered(game: Game, played: Played, leader: Seat) -> list[dict[str, Any]]:
    """The corrections that put the hand's recorded tricks in turn order, from the first trick
    (led by ``leader``); empty when they are in order already."""
    play = game.play
    if play is None:
        return []
    replaced = game.replaced
    tricks: dict[int, list[tuple[int, Seat, int]]] = {}
    for card, (trick, seat, n) in played.items():
        if n:
            tricks.setdefault(trick, []).append((n, seat, card))
    fixes = []
    hp = HandPlay(play.trump, leader, game.options)
    for number in range(1, 9):
        plays = sorted(tricks.get(number, ()))
        if len(plays) != 4 or len({s for _, s, _ in plays}) != 4 or _interleaved(game, replaced, plays):
            break
        events = {seat: _effective(game, replaced, n) for n, seat, _ in plays}
        if any(e is None or e.get("type") != "play" or e.get("seat") != SEAT_NAMES[s] for s, e in events.items()):
            break
        order = turn_order(hp.to_play, game.options.clockwise)
        slots = [n for n, _, _ in plays]
        pickup = events[plays[-1][1]].get("pickup")
        for slot, seat in zip(slots, order):
            event = {k: v for k, v in events[seat].items() if k != "pickup"}
            if slot == slots[-1] and pickup is not None:
                event["pickup"] = pickup
            if event != _effective(game, replaced, slot):
                fixes.append(correction(slot, event, "order", {"why": "a correction changed who won an "
                                                                      "earlier trick"}))
        cards = {seat: card for _, seat, card in plays}
        for seat in order:
            hp.play(cards[seat])
    return fixes


def _effective(game: Game, replaced: dict[int, Optional[dict]], n: int) -> Optional[dict[str, Any]]:
    return replaced[n] if n in replaced else game.events[n - 1]


def _interleaved(game: Game, replaced: dict[int, Optional[dict]], plays: list[tuple[int, Seat, int]]) -> bool:
    """Is another play event (one recorded out of turn, then again in turn) among the trick's?"""
    mine = {n for n, _, _ in plays}
    for n in range(plays[0][0] + 1, plays[-1][0]):
        event = _effective(game, replaced, n)
        if n not in mine and event is not None and event.get("type") == "play":
            return True
    return False
