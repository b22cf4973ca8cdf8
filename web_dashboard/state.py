"""The dashboard's state of one table, built from its table referee's snapshot.

Pages and feeds speak this one shape (documented in ``docs/dashboard.md``),
whatever the referee's internals; :mod:`web_dashboard.views` then cuts it
down for each feed. The engine's game state (``referee.game.Game.to_json``)
keeps the cards still held under ``private``: only here do they come out, into
the ``hands`` field that the public feeds never carry.
"""

from __future__ import annotations

from typing import Any, Optional

from referee.seats import SEAT_NAMES, turn_order

STATUS = {"deal": "hand-over", "auction": "auction", "play": "play", "over": "game-over"}


def _seat_index(name: Optional[str]) -> Optional[int]:
    return SEAT_NAMES.index(name) if name in ("N", "E", "S", "W") else None


def _trick_seats(leader: Optional[str], count: int, clockwise: bool) -> list[str]:
    first = _seat_index(leader)
    if first is None:
        return [""] * count
    return [SEAT_NAMES[s] for s in turn_order(first, clockwise)][:count]


def _current_trick(game: dict, clockwise: bool) -> dict:
    """The trick on the table: its cards with who played them."""
    done = game.get("tricks") or []
    cards = game.get("trick") or []
    if done:
        leader = done[-1]["winner"]
    else:   # first trick: the player after the dealer leads
        dealer = _seat_index(game.get("dealer"))
        leader = SEAT_NAMES[turn_order(dealer, clockwise)[1]] if dealer is not None else None
    seats = _trick_seats(leader, len(cards), clockwise)
    return {"number": len(done) + 1 if cards or game.get("to_play") else len(done),
            "leader": leader, "cards": [{"seat": s, "card": c} for s, c in zip(seats, cards)]}


def _last_trick(game: dict, clockwise: bool) -> Optional[dict]:
    done = game.get("tricks") or []
    if not done:
        return None
    last = done[-1]
    seats = _trick_seats(last["leader"], len(last["cards"]), clockwise)
    return {"number": len(done), "winner": last["winner"],
            "cards": [{"seat": s, "card": c} for s, c in zip(seats, last["cards"])]}


def _tricks_won(game: dict) -> dict:
    won = {"NS": 0, "EW": 0}
    for trick in game.get("tricks") or []:
        won["NS" if trick["winner"] in "NS" else "EW"] += 1
    return won


def from_game(game: dict, clockwise: bool = False) -> dict:
    """The dashboard shape of an engine game state (``Game.to_json()``)."""
    auction = game.get("auction") or {}
    phase = game.get("phase", "deal")
    hands = (game.get("private") or {}).get("hands")
    in_hand = phase in ("auction", "play")
    state: dict[str, Any] = {
        "status": "waiting" if phase == "deal" and not game.get("hands") else STATUS.get(phase, phase),
        "to_play": game.get("to_play") if phase == "play" else auction.get("to_speak") if phase == "auction" else None,
        "hand": {"number": game.get("hand_number"), "dealer": game.get("dealer"), "turned": game.get("turned"),
                 "contract": game.get("contract"), "auction": auction.get("calls", []),
                 "declarations": game.get("declarations", [])} if in_hand else
                {"number": game.get("hand_number"), "dealer": game.get("next_dealer"), "contract": None, "auction": []},
        "trick": _current_trick(game, clockwise) if phase == "play" else {"number": 0, "cards": []},
        "last_trick": _last_trick(game, clockwise) if phase == "play" else None,
        "tricks": _tricks_won(game) if phase == "play" else {"NS": 0, "EW": 0},
        "points": game.get("hand_points") if phase == "play" else None,
        "score": game.get("totals", {"NS": 0, "EW": 0}),
        "history": [{k: h.get(k) for k in ("number", "dealer", "contract", "card_points", "score", "result",
                                           "capot", "belote", "penalty")} for h in game.get("hands", [])],
        "winner": game.get("winner"),
    }
    if hands and in_hand:
        state["hands"] = hands
        state["hand_sizes"] = {s: len(cards) for s, cards in hands.items()}
    return state


def dashboard_state(table_id: str, name: str, referee: Any, meta: dict) -> dict:
    state = dict(referee.snapshot())
    state["table"] = {"id": table_id, "name": name, **meta, **state.get("table", {})}
    return state
