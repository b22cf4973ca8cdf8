"""Par per position for a game record, and the scoresheet's analysis of each hand.

For every hand whose four hands are known, :func:`analyse_game` replays the
record and, at each position (after 0, 1, ... 31 cards of the hand), asks the
double-dummy :class:`referee.solver.Solver` for the value of every legal card:
the card points each side ends the hand with if everyone plays best after it.
The *par* is the value of the best card for the side to play; the card actually
played is marked by its *cost*, what it lost its side against par, counted on
the capot scale (a capot worth 252, so throwing away a capot costs at least 90;
:meth:`Solver.capot_scale`). One solver serves the whole hand, so the first
position (the whole deal) pays for most of the search and the others reuse it.

:func:`scoresheet_analysis` turns a game's analysis into what a score sheet
shows, in the spirit of chess blunder marks: each side's losses against par per
hand, a mark per costly card, and the *turning card* of each hand: the last card
that changed the contract's fate under par (made to failed or back), else the
costliest card.

Pure: the same record always gives the same analysis.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional

from .auction import Contract
from .cards import Card, card_name, parse_card
from .game import Game
from .play import HandPlay
from .rules import Options
from .scoring import score_hand
from .seats import SEAT_NAMES, TEAM_NAMES, Seat, team_of
from .solver import Outcome, Solver

#: chess-style marks by cost in card points (capot scale): (least cost, mark)
MARKS = ((30, "??"), (10, "?"), (1, "?!"))


def mark(cost: Optional[int]) -> str:
    """``"??"`` (30 points or more lost against par), ``"?"`` (10-29), ``"?!"`` (1-9), else ``""``."""
    for least, sign in MARKS:
        if cost is not None and cost >= least:
            return sign
    return ""


@dataclass
class PositionAnalysis:
    """One position of a hand: ``played`` cards of the hand already played, ``seat`` to play."""

    played: int
    seat: Seat
    par: Outcome
    cards: dict[Card, Outcome]                 # every legal card's value
    card: Optional[Card] = None                # the card actually played (None: the record stops here)
    value: Optional[Outcome] = None            # that card's value (an illegal card's too)
    cost: Optional[int] = None                 # what it cost the seat's side against par

    def as_dict(self) -> dict[str, Any]:
        """DESIGN's position object of ``referee solve --json``."""
        return {"played": self.played, "seat": SEAT_NAMES[self.seat], "par": outcome_dict(self.par),
                "cards": {card_name(c): outcome_dict(o) for c, o in self.cards.items()},
                "card": card_name(self.card) if self.card is not None else None, "cost": self.cost}


@dataclass
class HandAnalysis:
    """The analysed positions of one hand, and what the scoresheet needs to judge it."""

    number: int
    contract: Contract
    options: Options
    positions: list[PositionAnalysis] = field(default_factory=list)
    belote: tuple[int, int] = (0, 0)           # as scored (when the hand was finished)
    declarations: tuple[int, int] = (0, 0)
    finished: bool = False
    stopped: Optional[str] = None              # why the analysis stops before the record does

    def as_dict(self, game: str) -> dict[str, Any]:
        """DESIGN's per-hand line of ``referee solve --json``."""
        out: dict[str, Any] = {"game": game, "hand": self.number,
                               "positions": [p.as_dict() for p in self.positions]}
        if self.stopped:
            out["stopped"] = self.stopped
        return out


def outcome_dict(outcome: Outcome) -> dict[str, Any]:
    """``{"NS": n, "EW": n}``, with ``"capot": "NS"`` when a side takes every trick."""
    out: dict[str, Any] = {"NS": outcome.ns, "EW": outcome.ew}
    if outcome.capot is not None:
        out["capot"] = TEAM_NAMES[outcome.capot]
    return out


# --- replaying a record, position by position ------------------------------------------

@dataclass
class HandRecord:
    """One hand of a record as the analysis replays it: the position before each card
    played, and that card (None at the last position of a record that stops mid-hand)."""

    number: int
    contract: Contract
    options: Options
    states: list[HandPlay]                     # the position before each card played
    cards: list[Card]                          # the card played at each of those positions
    finished: bool
    belote: tuple[int, int] = (0, 0)
    declarations: tuple[int, int] = (0, 0)


def effective_events(events: list[dict]) -> list[dict]:
    """The record with its corrections applied: each corrected event replaced (or dropped
    when undone), the correction events themselves left out, so that a replay sees only
    what the referee decided happened."""
    replaced = Game.from_events(events).replaced
    out = [events[0]]
    for number, event in enumerate(events[1:], 2):
        if event["type"] == "correction":
            continue
        event = replaced.get(number, event)
        if event is not None:
            out.append(event)
    return out


def hands_played(events: list[dict]) -> Iterator[HandRecord]:
    """Every hand of the record (corrections applied: :func:`effective_events`) that
    reached the play with its four hands known."""
    game = Game(events[0])
    current: Optional[HandRecord] = None

    def started() -> HandRecord:
        if current is None or current.number != game.hand_number:
            return HandRecord(game.hand_number, game.contract, game.options, [], [], False)
        return current

    for event in events[1:]:
        before = game.play
        known = before is not None and before.hand(0) is not None
        if event["type"] != "play" or not known:
            game.apply(event)
            continue
        current = started()
        state, finished = before.copy(), len(game.results)
        game.apply(event)
        if game.play is not None and game.play.played == state.played:
            continue                                     # out of turn: the card went back to the hand
        current.states.append(state)
        current.cards.append(parse_card(event["card"]))
        if len(game.results) > finished:
            result = game.results[-1]
            current.finished = True
            current.belote, current.declarations = result.belote, result.declarations
            yield current
            current = None
    if game.play is not None and game.play.hand(0) is not None and not game.play.done:
        current = started()                              # the record stops during this hand's play
        current.states.append(game.play.copy())
        current.cards.append(None)
        yield current


def analyse_game(events: list[dict], hands: Optional[Iterable[int]] = None, position: Optional[int] = None,
                 engine: Optional[str] = None,
                 progress: Optional[Callable[[int, int, int], None]] = None) -> Iterator[HandAnalysis]:
    """The double-dummy analysis of each hand of a record whose four hands are known
    (only the hands numbered in ``hands``, when given), hand by hand.

    ``position``: only the position after that many cards of the hand were played.
    ``progress(hand, done, total)`` is called after each position. A hand whose record
    shows a card played twice or by a player who did not hold it is analysed up to
    that card (the hands no longer add up after it).
    """
    wanted = None if hands is None else set(hands)
    for record in hands_played(effective_events(events)):
        if wanted is not None and record.number not in wanted:
            continue
        yield _analyse_hand(record, position, engine, progress)


def _analyse_hand(record: HandRecord, position: Optional[int], engine: Optional[str],
                  progress: Optional[Callable[[int, int, int], None]]) -> HandAnalysis:
    out = HandAnalysis(record.number, record.contract, record.options, belote=record.belote,
                       declarations=record.declarations, finished=record.finished)
    indices = range(len(record.states)) if position is None else [position] if position < len(record.states) else []
    solver: Optional[Solver] = None
    for i in indices:
        state, card = record.states[i], record.cards[i]
        if state.done:
            break
        if solver is None:
            solver = Solver(state, engine=engine)
        values = solver.card_values(state)
        seat = state.to_play
        team = team_of(seat)
        par = max(values.values(), key=lambda o: solver.capot_scale(o, team))
        entry = PositionAnalysis(i, seat, par, values)
        if card is not None:
            hand = state.hand(seat)
            if not hand >> card & 1 or state.played >> card & 1:
                out.stopped = (f"{SEAT_NAMES[seat]} played {card_name(card)} at card {i + 1} without holding it: "
                               f"the analysis stops there")
                entry.card = card
                out.positions.append(entry)
                break
            value = values.get(card)
            if value is None:                            # an illegal card: its value all the same
                after = state.copy()
                after.play(card)
                value = solver.par(after) if not after.done else final_outcome(after)
            entry.card, entry.value = card, value
            entry.cost = solver.capot_scale(par, team) - solver.capot_scale(value, team)
        out.positions.append(entry)
        if progress:
            progress(record.number, len(out.positions), len(indices))
    return out


def final_outcome(play: HandPlay) -> Outcome:
    """The result of a hand played to its end: the card points each side took, the capot."""
    ns, ew = play.card_points
    return Outcome(ns, ew, play.capot)


# --- the scoresheet's analysis page --------------------------------------------------------

def contract_made(options: Options, contract: Contract, outcome: Outcome, belote: tuple[int, int] = (0, 0),
                  declarations: tuple[int, int] = (0, 0)) -> bool:
    """Whether the contract is made when the hand ends with ``outcome`` (litige: not made)."""
    tricks = (8, 0) if outcome.capot == 0 else (0, 8) if outcome.capot == 1 else (1, 1)
    return score_hand(options, contract, (outcome.ns, outcome.ew), tricks, belote, declarations).result == "made"


def scoresheet_analysis(analyses: Iterable[HandAnalysis]) -> list[dict[str, Any]]:
    """Per hand: each side's losses against par (the sum of its cards' costs), every costly
    card with its mark, and the turning card. Plain data (JSON-ready) for a score sheet.

    ``[{"hand": 1, "par": {...}, "losses": {"NS": 12, "EW": 30},
    "marks": [{"played": 5, "seat": "E", "card": "Ah", "cost": 30, "mark": "??"}],
    "turning": {"played": 5, "seat": "E", "card": "Ah", "cost": 30, "mark": "??",
    "fate": "made->failed" | null} | null}]``
    """
    sheet = []
    for hand in analyses:
        losses = [0, 0]
        marks = []
        turning = None
        turning_cost = 0
        last_flip = None
        for pos in hand.positions:
            if pos.cost is None:
                continue
            losses[team_of(pos.seat)] += pos.cost
            item = {"played": pos.played, "seat": SEAT_NAMES[pos.seat], "card": card_name(pos.card),
                    "cost": pos.cost, "mark": mark(pos.cost)}
            if pos.cost > 0:
                marks.append(item)
            before = contract_made(hand.options, hand.contract, pos.par, hand.belote, hand.declarations)
            after = contract_made(hand.options, hand.contract, pos.value, hand.belote, hand.declarations)
            if before != after:
                last_flip = dict(item, fate=("made->failed" if before else "failed->made"))
            if pos.cost > turning_cost:
                turning, turning_cost = dict(item, fate=None), pos.cost
        sheet.append({"hand": hand.number, "par": outcome_dict(hand.positions[0].par) if hand.positions else None,
                      "losses": {"NS": losses[0], "EW": losses[1]}, "marks": marks,
                      "turning": last_flip or turning})
    return sheet
