"""A match's score from a table's game record, under the round's format.

Formats (``Format``): ``deals`` (the first N hands count, all-pass ones
included), or ``target`` (the rules profile's target score ends the game);
either with a time limit, after which the hand in progress is finished and
no new one counts.

The time limit is applied in the table's sequence, never by a clock: when the
round's time is up the hall notes, for each table, the last sequence number
it holds (``cutoff``); the hands dealt up to that event count, the deal in
progress is played out, and any deal after it does not count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from referee.game import Game
from referee.record import RecordError


@dataclass
class Format:
    kind: str = "deals"               # deals | target
    deals: int = 4
    minutes: Optional[float] = None   # the round's time limit, if any

    def __post_init__(self) -> None:
        if self.kind not in ("deals", "target"):
            raise ValueError("format: kind is deals (N deals a round) or target (the rules profile's target)")
        if self.kind == "deals" and self.deals < 1:
            raise ValueError("format: a round needs at least one deal")

    def to_dict(self) -> dict:
        return {"kind": self.kind, "deals": self.deals, "minutes": self.minutes}


@dataclass
class Score:
    ns: int
    ew: int
    hands: int
    final: bool
    error: Optional[str] = None


def match_score(events: list[tuple[int, dict]], fmt: Format, cutoff: Optional[int] = None) -> Score:
    """The score of one game, given as ``(seq, event)`` in sequence order (header first)."""
    if not events:
        return Score(0, 0, 0, False)
    try:
        game = Game(events[0][1])
        for seq, event in events[1:]:
            if event.get("type") == "deal" and (
                    (fmt.kind == "deals" and len(game.results) >= fmt.deals)
                    or (cutoff is not None and seq > cutoff)):
                break                                   # a deal that does not count: the match is over
            game.apply(event)
    except RecordError as exc:
        return Score(0, 0, 0, False, str(exc))
    hands = len(game.results)
    ns, ew = game.totals
    in_hand = game.phase in ("auction", "play")
    final = game.over or (fmt.kind == "deals" and hands >= fmt.deals) \
        or (cutoff is not None and not in_hand and _dealt_after(events, cutoff))   # a game won early ends it too
    return Score(ns, ew, hands, final)


def _dealt_after(events: list[tuple[int, dict]], cutoff: int) -> bool:
    """Whether the table's record has gone past the cutoff (so the hall knows its last hand)."""
    return events[-1][0] >= cutoff
