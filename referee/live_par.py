"""Par after every card of the hand being played: what a live broadcast shows.

:func:`referee.analysis.analyse_game` values every legal card at every position,
which a score sheet needs once the hand is over. A stream needs less, after each
card and within milliseconds: the par of the position now, and what each card
played so far cost its side. A card's value is the par of the position after it,
so one par per position is enough, and a position's par, once known, is kept:
each new card costs one par on a warm solver (``docs/analysis.md``: 0.12 ms p99
after the deal was solved, the deal itself when the contract is made).

:class:`LivePar` keeps one solver per deal and the par of every position it has
seen, keyed by the cards played to reach it, so a correction of an earlier card
(a new line of play) is worked out afresh while the old line's pars stay right.

Pure: no thread, no clock; the same record gives the same answer.
"""

from __future__ import annotations

from typing import Any, Optional

from .analysis import HandRecord, effective_events, final_outcome, hands_played, mark, outcome_dict
from .cards import Card, card_name
from .play import PlayError
from .seats import SEAT_NAMES, TEAM_NAMES, team_of
from .solver import Outcome, Solver


class LivePar:
    """The par line of the hand being played, one record after another."""

    def __init__(self, engine: Optional[str] = None):
        self.engine = engine
        self._deal: Optional[tuple] = None          # which deal the solver and the pars belong to
        self._solver: Optional[Solver] = None
        self._pars: dict[tuple[Card, ...], Outcome] = {}

    def update(self, events: list[dict]) -> Optional[dict[str, Any]]:
        """The par line at the end of ``events`` (a record): the last hand whose four
        hands are known, if it has a contract being played or played out, else None.

        ``{"hand": 3, "played": 5, "takers": "NS", "par": {"NS": 102, "EW": 60},
        "cards": [{"played": 0, "seat": "W", "card": "7h", "cost": 0, "mark": ""}, ...],
        "losses": {"NS": 0, "EW": 12}, "stopped": "..."}`` (``stopped`` only when a card
        was played by a seat that did not hold it: the line ends there).
        """
        hand = None
        for hand in hands_played(effective_events(events)):
            pass
        if hand is None:
            return None
        return self._line(hand)

    def _line(self, hand: HandRecord) -> dict[str, Any]:
        start = hand.states[0]
        deal = (hand.number, start.trump, tuple(start.hand(s) for s in range(4)), start.to_play)
        if deal != self._deal:
            self._deal, self._solver, self._pars = deal, Solver(start, engine=self.engine), {}
        cards: list[dict[str, Any]] = []
        losses = [0, 0]
        line: dict[str, Any] = {"hand": hand.number, "takers": TEAM_NAMES[team_of(hand.contract.taker)]}
        par = None
        for i, state in enumerate(hand.states):
            try:
                par = self._par(hand, i)
                played = hand.cards[i]
                if played is None:
                    break
                if not state.hand(state.to_play) >> played & 1 or state.played >> played & 1:
                    raise PlayError("a card not held")
                after = state.copy()
                after.play(played)
                value = final_outcome(after) if after.done else self._par(hand, i + 1, after)
            except PlayError:
                line["stopped"] = (f"{SEAT_NAMES[state.to_play]} played {card_name(hand.cards[i])} at card {i + 1} "
                                   f"without holding it: the par line stops there")
                break
            team = team_of(state.to_play)
            cost = self._solver.capot_scale(par, team) - self._solver.capot_scale(value, team)
            losses[team] += cost
            cards.append({"played": i, "seat": SEAT_NAMES[state.to_play], "card": card_name(played),
                          "cost": cost, "mark": mark(cost)})
            par = value
        line.update(played=len(cards), par=outcome_dict(par) if par is not None else None, cards=cards,
                    losses={"NS": losses[0], "EW": losses[1]})
        return line

    def _par(self, hand: HandRecord, i: int, state: Any = None) -> Outcome:
        """The par after the first ``i`` cards of ``hand`` (``state``: that position, when
        it is not among the hand's recorded states)."""
        key = tuple(hand.cards[:i])
        if key not in self._pars:
            where = state if state is not None else hand.states[i]
            self._pars[key] = self._solver.par(where)
        return self._pars[key]
