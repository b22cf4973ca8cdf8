"""The dashboard's state of one table, built from its table referee's snapshot.

Pages and feeds speak this one shape (documented in ``docs/dashboard.md``),
whatever the referee's internals; :mod:`web_dashboard.views` then cuts it
down for each feed. The engine's game state (``referee.game.Game.to_json``)
keeps the cards still held under ``private``: only here do they come out, into
the ``hands`` field that the public feeds never carry.
"""

from __future__ import annotations

from typing import Any, Optional

from referee.cards import parse_card
from referee.play import trick_winner
from referee.seats import SEAT_NAMES, turn_order
from referee.trump_tables import parse_trump, points_table

STATUS = {"deal": "hand-over", "auction": "auction", "play": "play", "over": "game-over"}


def _seat_index(name: Optional[str]) -> Optional[int]:
    return SEAT_NAMES.index(name) if name in ("N", "E", "S", "W") else None


def _trick_seats(leader: Optional[str], count: int, clockwise: bool) -> list[str]:
    first = _seat_index(leader)
    if first is None:
        return [""] * count
    return [SEAT_NAMES[s] for s in turn_order(first, clockwise)][:count]


def _winning(trump: Optional[str], seats: list[str], cards: list[str]) -> Optional[str]:
    """The seat whose card wins ``cards`` so far (None for an empty trick)."""
    if not cards or not trump:
        return None
    return seats[trick_winner(parse_trump(trump), [parse_card(c) for c in cards])] or None


def _current_trick(game: dict, clockwise: bool) -> dict:
    """The trick on the table: its cards with who played them, and who is winning it."""
    done = game.get("tricks") or []
    cards = game.get("trick") or []
    if done:
        leader = done[-1]["winner"]
    else:   # first trick: the player after the dealer leads
        dealer = _seat_index(game.get("dealer"))
        leader = SEAT_NAMES[turn_order(dealer, clockwise)[1]] if dealer is not None else None
    seats = _trick_seats(leader, len(cards), clockwise)
    return {"number": len(done) + 1 if cards or game.get("to_play") else len(done),
            "leader": leader, "cards": [{"seat": s, "card": c} for s, c in zip(seats, cards)],
            "winning": _winning(game.get("trump"), seats, cards)}


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
                 "contract": game.get("contract"), "trump": game.get("trump"), "auction": auction.get("calls", []),
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


def violation_id(v: dict) -> str:
    """A violation's stable name (a correction may remove an earlier one, so
    not its position): hand, trick, seat, rule and card or call."""
    return "-".join(str(v.get(k) or "") for k in ("hand", "trick", "seat", "rule", "card", "call"))


def _log_line(n: int, event: dict) -> dict:
    kind = event.get("type")
    line = {"ref": n, "type": kind, "seat": event.get("seat")}
    if kind == "play":
        line["card"] = event.get("card")
        line["text"] = f"#{n} {event.get('seat')} {event.get('card')}" + (f" ({event['say']})" if event.get("say") else "")
    elif kind == "call":
        line["text"] = f"#{n} {event.get('seat')} {event.get('call')}"
    elif kind == "correction":
        line["text"] = f"#{n} correction of #{event.get('ref')}: {event.get('reason', '')}"
    elif kind == "deal":
        line["text"] = f"#{n} deal, dealer {event.get('dealer')}"
    elif kind == "tally":
        points = event.get("card_points") or {}
        line["text"] = (f"#{n} tally " + (f"capot {event['capot']}" if event.get("capot") else
                                          f"NS {points.get('NS')} EW {points.get('EW')}")
                        + "".join(f" belote {team}" for team in event.get("belote") or ()))
    else:
        line["text"] = f"#{n} {kind} {event.get('seat') or ''}".rstrip()
    return line


def tally_total(game: Any) -> Optional[int]:
    """The card points of the hand being played (dix de der included) while it
    may still be tallied (contract made, no card played), else None: the
    console's end-of-hand form computes the other side's points from it."""
    play = game.play if game.phase == "play" else None
    if play is None or play.tricks or play.trick:
        return None
    return sum(points_table(play.trump, game.options.no_trump_values)) + game.options.dix_de_der


def dashboard_state(table: Any, log_size: int = 40) -> dict:
    """The state of a :class:`~web_dashboard.room.LiveTable` (called under its lock)."""
    referee = table.referee
    snapshot = referee.snapshot()
    state = from_game(snapshot, referee.options.clockwise)
    seats = {**table.meta.get("seats", {}), **(snapshot.get("seats") or {})}
    state["table"] = {"id": table.id, "name": table.name, "rules": snapshot.get("rules"),
                      "sensors": table.meta.get("sensors"), "seats": seats,
                      "target": referee.options.target}
    state["game"] = table.game_id
    if state["hand"].get("dealer") is None:      # before the first deal: the dealer the console named
        state["hand"]["dealer"] = (snapshot.get("table") or {}).get("dealer")
    state["violations"] = [{**v, "id": violation_id(v), **table.thumbnail_for(v.get("evidence", ()))}
                           for v in snapshot.get("violations", [])]
    state["conflicts"] = [{**c, **table.thumbnail_for(c.get("evidence", ()))}
                          for c in snapshot.get("conflicts", []) if c.get("status") == "open"]
    # The open "to confirm" questions, each with the violations that wait on its play.
    pending = snapshot.get("to_confirm", [])
    state["to_confirm"] = [{**c, "violations": [v for v in pending if c.get("ref") in v.get("to_confirm", ())]}
                           for c in state["conflicts"] if c["kind"] == "to-confirm"]
    state["sensors"] = {name: {"state": value} for name, value in (snapshot.get("sensors") or {}).items()
                        if name != "console"}          # the console's "sensor" is the table's clock
    state["undecided"] = snapshot.get("zones", [])
    state["tally_total"] = tally_total(referee.game)
    events = referee.record
    state["log"] = [_log_line(n, events[n - 1]) for n in range(max(2, len(events) - log_size + 1), len(events) + 1)]
    return state
