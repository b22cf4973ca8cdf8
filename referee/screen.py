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

from typing import Any, Iterable, Optional

from .cards import card_name
from .game import Game
from .proposals import Conflict
from .seats import SEAT_NAMES, Seat
from .table_cards import CardOnTable
from .violations import Violation


def snapshot(game: Game, mode: str, dealer: Optional[Seat], observations: int,
             violations: Iterable[tuple[int, Violation]], to_confirm: Iterable[tuple[int, Violation]],
             conflicts: list[Conflict], on_table: list[CardOnTable], sensors: dict[str, str]) -> dict[str, Any]:
    """The screens' state: ``mode`` (idle, deal, auction, play...), the ``dealer`` the table
    expects, the number of ``observations`` taken, each ``(hand, violation)``, and each one
    still ``to_confirm`` (it rests on a play read once: its ``to_confirm`` names the plays)."""
    state = game.to_json()
    state["table"] = {"mode": mode, "dealer": SEAT_NAMES[dealer] if dealer is not None else None,
                      "observations": observations}
    state["violations"] = [{"hand": h, **v.as_dict()} for h, v in violations]
    state["to_confirm"] = [{"hand": h, **v.as_dict()} for h, v in to_confirm]
    state["conflicts"] = [c.as_dict() for c in conflicts]
    state["open_conflicts"] = [c.id for c in conflicts if c.status == "open"]
    state["zones"] = [{"zone": f"play:{SEAT_NAMES[i.zone]}",
                       "card": card_name(i.card) if i.card is not None else None,
                       "early": i.early} for i in on_table]
    state["sensors"] = dict(sensors)
    return state
