"""The oracle: the human referee at the simulated table's console, who knows what really happened.

The table referee asks the console about what its sensors could not settle
(conflicts). On a simulated table the ground truth is known, so the
:class:`Oracle` answers as a careful referee would after looking at the
table. :func:`answered_stream` is the sensor stream with those answers in
place: what a real table's store would hold, which the crash, store and
scoresheet tests and the benchmark replay.
"""

from __future__ import annotations

from typing import Any, Optional

from .cards import card_name, parse_card
from .observations import ConsoleAction, Observation
from .simulate import SimGame
from .table_referee import TableReferee


class Oracle:
    """The human referee at the console, who knows what really happened (the ground truth).

    It answers each conflict the table referee raises as a careful referee
    would after looking at the table: it confirms a proposal that is true,
    names the right card otherwise, and dismisses suspicions that are false.
    """

    def __init__(self, sim: SimGame):
        self.sim = sim
        self.out_of_turn = {(p.hand, p.trick, p.seat) for p in sim.planted if p.kind == "out-of-turn"}
        self.misdeal_open = set(sim.misdeals)

    def observe(self, output: dict[str, Any]) -> None:
        """What the referee reported: once a hand's misdeal is flagged, its redeal is a fair one."""
        if output.get("kind") == "violation" and output["rule"] == "misdeal":
            self.misdeal_open.discard(output["hand"])

    def answer(self, conflict: dict[str, Any], t: float) -> Optional[ConsoleAction]:
        """The console's answer to ``conflict``; None while the table referee still waits for a
        sensor to settle it (``waiting``): this referee answers when the table asks, which is
        what :func:`referee.measure.run` counts as a question."""
        if conflict.get("waiting"):
            return None
        cid, kind, hand = conflict["id"], conflict["kind"], conflict["hand"]
        seat = "NESW".index(conflict["seat"]) if conflict.get("seat") else None
        if kind == "turned":                       # classic: the card turned up in the dealing area
            deals = [e for e in self.sim.record if e["type"] == "deal"]
            return ConsoleAction(t=t, action="resolve", ref=cid, cards=(parse_card(deals[hand - 1]["turned"]),),
                                 by="oracle")
        if kind in ("deal", "gathered"):
            if hand in self.misdeal_open:
                self.misdeal_open.discard(hand)
                return ConsoleAction(t=t, action="confirm", ref=cid, by="oracle")
            return ConsoleAction(t=t, action="dismiss", ref=cid, by="oracle")
        if kind == "call-order":
            # The simulator's players never speak out of turn: a call the table heard out of its order
            # follows a hand it saw otherwise (a misdeal missed). Confirmed, it is written as it was said.
            return ConsoleAction(t=t, action="confirm", ref=cid, by="oracle")
        if kind == "in-doubt":
            # A violation of a hand whose record proved impossible: the referee who watched says
            # whether it happened (the table's inference may have made it up).
            v = {"rule": conflict["rule"], "trick": conflict.get("trick"), "seat": conflict.get("seat"),
                 "card": conflict.get("proposal")}
            happened = any(p.matches(hand, v) for p in self.sim.planted)
            return ConsoleAction(t=t, action="confirm" if happened else "dismiss", ref=cid, by="oracle")
        if kind == "out-of-turn":
            if (hand, conflict.get("trick"), seat) not in self.out_of_turn:
                return ConsoleAction(t=t, action="dismiss", ref=cid, by="oracle")
            truth = self.sim.plays.get((hand, conflict.get("trick"), seat))
            if truth is not None and conflict.get("proposal") != card_name(truth):
                return ConsoleAction(t=t, action="resolve", ref=cid, cards=(truth,), by="oracle")
            return ConsoleAction(t=t, action="confirm", ref=cid, by="oracle")
        truth = self.sim.plays.get((hand, conflict.get("trick"), seat))
        if truth is None:
            raise LookupError(f"the ground truth has no play for conflict {conflict}")
        if conflict.get("proposal") == card_name(truth):
            return ConsoleAction(t=t, action="confirm", ref=cid, by="oracle")
        return ConsoleAction(t=t, action="resolve", ref=cid, cards=(truth,), by="oracle")


def answered_stream(sim: SimGame) -> list[Observation]:
    """The sensor stream with the oracle's console answers where the referee asks:
    what a real table's store would hold (the crash test and the demo replay it)."""
    referee = TableReferee(header=sim.header)
    oracle = Oracle(sim)
    stream: list[Observation] = []
    for obs in sim.observations:
        pending = [obs]
        while pending:
            item = pending.pop(0)
            stream.append(item)
            for out in referee.ingest(item):
                oracle.observe(out.as_dict())
                answer = oracle.answer(out.data, obs.t) if out.kind == "conflict" else None
                if answer is not None:
                    pending.append(answer)
    return stream
