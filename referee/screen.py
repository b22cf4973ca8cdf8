"""The table referee's state as the screens get it: one JSON-able dict.

The rules engine's view of the game (:meth:`referee.game.Game.to_json`:
phase, dealer, auction, contract, trick, tricks, hands, totals, and
``private``, the cards held, which public feeds filter out) with what the
table adds: where the table is in the hand, every violation with its hand,
the violations still to confirm (they rest on one read of one sensor), the
conflicts and which are open, the cards on the table not yet decided
(``zones``) and each sensor's state.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

from .cards import Card, card_name
from .game import Game
from .proposals import Conflict
from .seats import SEAT_NAMES, Seat
from .table_cards import CardOnTable
from .violations import Violation


def snapshot(game: Game, mode: str, dealer: Optional[Seat], observations: int,
             violations: Iterable[tuple[int, Violation]], to_confirm: Iterable[tuple[int, Violation]],
             conflicts: list[Conflict], on_table: list[CardOnTable], sensors: dict[str, str],
             seen_hands: Optional[Callable[[], Any]] = None,
             awaiting_pickup: Optional[tuple[Seat, Card]] = None) -> dict[str, Any]:
    """The screens' state: ``mode`` (idle, deal, auction, play...), the ``dealer`` the table
    expects, the number of ``observations`` taken, each ``(hand, violation)``, and each one
    still ``to_confirm`` (it rests on a play read once: its ``to_confirm`` names the plays).
    When the record's deal has no hands (readings were missed), ``seen_hands()`` gives the cards
    the antennas did see each seat hold and how many nobody saw (``private.unseen``): the screens
    show those, never nothing. ``awaiting_pickup`` is the seat and card that completed the trick
    on the table, not yet written (it is written with the pickup)."""
    state = game.to_json()
    if state["private"]["hands"] is None and seen_hands is not None:
        seen = seen_hands()
        if seen is not None:
            state["private"]["hands"], state["private"]["unseen"] = seen
    state["table"] = {"mode": mode, "dealer": SEAT_NAMES[dealer] if dealer is not None else None,
                      "observations": observations}
    state["violations"] = [{"hand": h, **v.as_dict()} for h, v in violations]
    state["to_confirm"] = [{"hand": h, **v.as_dict()} for h, v in to_confirm]
    state["conflicts"] = [c.as_dict() for c in conflicts]
    state["open_conflicts"] = [c.id for c in conflicts if c.status == "open"]
    state["zones"] = [{"zone": f"play:{SEAT_NAMES[i.zone]}",
                       "card": card_name(i.card) if i.card is not None else None,
                       "early": i.early} for i in on_table]
    if awaiting_pickup is not None:                   # the trick is complete: it waits for its pickup
        state["trick"] = state["trick"] + [card_name(awaiting_pickup[1])]
        state["to_play"] = None
    state["sensors"] = dict(sensors)
    return state
