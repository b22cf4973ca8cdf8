"""A small stand-in for a table referee: a fixed deal the tests can play
through, so the hub, feeds and auth are tested without the real referee."""

from __future__ import annotations

import copy

HANDS = {"N": ["Js", "9s", "As", "Ts", "Kh", "Qh", "7d", "8c"],
         "E": ["7s", "8s", "Ah", "Th", "Jh", "Ad", "Td", "Ac"],
         "S": ["Ks", "Qs", "9h", "8h", "7h", "Kd", "Qd", "Tc"],
         "W": ["Jd", "9d", "8d", "Jc", "9c", "Kc", "Qc", "7c"]}


class FakeReferee:
    """Keeps a dashboard-shaped state and records what it was told."""

    def __init__(self) -> None:
        self.received: list = []
        self.state = {
            "status": "play", "game": "g1", "to_play": "S",
            "hand": {"number": 1, "dealer": "N", "contract": {"taker": "S", "call": "80h", "counter": 1},
                     "auction": [{"seat": "W", "call": "pass"}, {"seat": "S", "call": "80h"}]},
            "trick": {"number": 1, "leader": "S", "cards": []},
            "tricks": {"NS": 0, "EW": 0}, "score": {"NS": 0, "EW": 0}, "history": [],
            "hands": copy.deepcopy(HANDS), "hand_sizes": {s: 8 for s in "NESW"},
            "violations": [], "conflicts": [], "log": [],
        }

    def snapshot(self) -> dict:
        return copy.deepcopy(self.state)

    def submit(self, observation) -> list:
        self.received.append(observation)
        if getattr(observation, "action", None) == "undo" and not self.state["trick"]["cards"]:
            raise ValueError("nothing to undo")
        return []

    def play(self, seat: str, card: str) -> None:
        self.state["hands"][seat].remove(card)
        self.state["hand_sizes"][seat] -= 1
        self.state["trick"]["cards"].append({"seat": seat, "card": card})

    def violate(self, seat: str, card: str, rule: str, message: str) -> None:
        self.state["violations"].append({"id": len(self.state["violations"]) + 1, "rule": rule, "seat": seat,
                                         "card": card, "trick": 1, "message": message})
