"""A dashboard state with everything a feed must cut (the hands, a violation's
explanation), so the hub and the views are tested on plain dicts."""

from __future__ import annotations

HANDS = {"N": ["Js", "9s", "As", "Ts", "Kh", "Qh", "7d", "8c"],
         "E": ["7s", "8s", "Ah", "Th", "Jh", "Ad", "Td", "Ac"],
         "S": ["Ks", "Qs", "9h", "8h", "7h", "Kd", "Qd", "Tc"],
         "W": ["Jd", "9d", "8d", "Jc", "9c", "Kc", "Qc", "7c"]}


def sample_state(violations: tuple = ()) -> dict:
    """The first trick of a hand about to be played, with ``(seat, card, rule, message)`` violations."""
    return {
        "status": "play", "game": "g1", "to_play": "S",
        "hand": {"number": 1, "dealer": "N", "contract": {"taker": "S", "call": "80h", "counter": 1},
                 "auction": [{"seat": "W", "call": "pass"}, {"seat": "S", "call": "80h"}]},
        "trick": {"number": 1, "leader": "S", "cards": []},
        "tricks": {"NS": 0, "EW": 0}, "score": {"NS": 0, "EW": 0}, "history": [],
        "hands": {seat: list(cards) for seat, cards in HANDS.items()}, "hand_sizes": {s: 8 for s in "NESW"},
        "violations": [{"id": n, "rule": rule, "seat": seat, "card": card, "trick": 1, "message": message}
                       for n, (seat, card, rule, message) in enumerate(violations, 1)],
        "conflicts": [], "log": [],
    }
