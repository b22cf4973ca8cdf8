"""Double-dummy analysis: the best result each side can still reach with all hands known.

From any position of a hand (a :class:`referee.play.HandPlay` whose four hands
are known), :class:`Solver` answers, with everyone playing best from there:

- :meth:`Solver.par`: the card points each side ends the hand with;
- :meth:`Solver.card_values`: the same after each legal card of the player to play;
- :meth:`Solver.can_reach`: whether a side can still end with at least X points,
  a zero-window search, much cheaper than a full solve ("can the takers make it").

**What is optimised.** Each side maximises its card points (tricks already
won and dix de der included) *with a capot counted as the scoring counts it*:
152 + ``capot_dix_de_der`` (252) for the side that takes all eight tricks.
So a side prefers a capot to 162 points without one, and prefers winning a
zero-point trick to being capoted. Internally a result is one number ``w``
seen from NS: NS's card points, +90 (``capot_dix_de_der - dix_de_der``) when
NS take every trick, -90 when EW do. ``w`` orders outcomes exactly as "NS minus
EW" does, so NS maximising it and EW minimising it is the zero-sum game both
sides play; :class:`Outcome` turns it back into card points and a capot flag.
Belote and declarations do not depend on the play and are left out (DESIGN:
``referee solve``).

**How.** Alpha-beta over single cards with a transposition table at trick
boundaries, keyed on the cards still out (the deal fixes who holds them), the
leader and which sides have won a trick (the capot is still open or not); the
table keeps bounds on the points still to come, so one :class:`Solver` serves
every position of its deal (a warm start: solve the deal during the auction,
then each card's analysis reuses it). Cards of one player that are adjacent in
strength among the cards still live (no other player's card, nor one on the
table, between them) and worth the same points are one move (equivalent-card
pruning). Moves are tried best-first: the table's best lead, then cards that
take the trick for the player's side, with the points they bring. The bounds
"nothing more than the points still out" cut the rest.

Two engines run the same search with the same numbers: pure Python
(:mod:`referee.solver_py`), and a C core (``referee/solver_core.c``, built by
``make install``; :mod:`referee.solver_c`) used when it is built;
``tests/referee/test_solver.py`` holds them to each other and to colver's solver.

>>> from referee.cards import parse_mask, card_name
>>> from referee.rules import profile
>>> from referee.trump_tables import parse_trump
>>> hands = [parse_mask(h) for h in ("Jh 9h", "Ah Th", "As Ks", "Ac Tc")]   # a two-card example, hearts
>>> play = HandPlay(parse_trump("h"), 0, profile("ffb-contree"), hands)
>>> solver = Solver(play, engine="python")
>>> solver.par(play)                       # N's jack and nine draw E's ace and ten: every point, every trick
Outcome(ns=101, ew=0, capot=0)
>>> {card_name(c): o.ns for c, o in solver.card_values(play).items()}
{'9h': 101, 'Jh': 101}
>>> solver.can_reach(play, 1, 1)           # EW cannot take a single point
False
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from .cards import SUIT_MASKS, Card, Mask, iter_cards
from .play import HandPlay, PlayError
from .seats import Team
from .trump_tables import ORDER, points_table

__all__ = ["Outcome", "Solver", "Position", "position_of", "ENGINES"]

_INF = 1 << 20


class Outcome(NamedTuple):
    """The card points each side ends the hand with (0-162 in a 162-point hand) and the
    side that took all eight tricks, if one did (0 NS, 1 EW)."""

    ns: int
    ew: int
    capot: Optional[Team]

    def points(self, team: Team) -> int:
        return self.ew if team else self.ns


class Position(NamedTuple):
    """A position as the search sees it: what each seat holds, the trick on the table
    (cards leader first), its leader, NS's card points in finished tricks and which sides
    have won a trick (bit 0 NS, bit 1 EW)."""

    hands: tuple[Mask, Mask, Mask, Mask]
    trick: tuple[Card, ...]
    leader: int
    ns: int
    won: int


def position_of(play: HandPlay) -> Position:
    """The search's view of a play state (which must know the hands and not be over)."""
    if play.hand(0) is None:
        raise PlayError("double-dummy analysis needs all four hands: this hand was recorded without them")
    if play.done:
        raise PlayError("the hand is over: there is nothing left to analyse")
    ns_tricks, ew_tricks = play.tricks_won
    return Position(tuple(play.hand(s) for s in range(4)), tuple(play.trick), play.trick_leader,
                    play.card_points[0], (1 if ns_tricks else 0) | (2 if ew_tricks else 0))


class _Rules:
    """A mode's and the options' constants, as the search (and the C core) use them."""

    def __init__(self, play: HandPlay):
        from .play import _must_beat_mask, _rule_code   # the play engine's own reading of the options
        from .trump_tables import BEATS, trump_mask
        options = play.options
        mode = play.trump
        self.mode = mode
        self.beats = BEATS[mode]
        self.points = points_table(mode, options.no_trump_values)
        self.ruff = trump_mask(mode)
        self.must_beat = _must_beat_mask(mode, options)
        self.partner_free = not options.beat_partner_on_trump_lead
        self.rule = _rule_code(options)
        self.step = 1 if options.clockwise else 3
        self.dix = options.dix_de_der
        self.bonus = options.capot_dix_de_der - options.dix_de_der   # what a capot adds, e.g. 90
        order = ORDER[mode]
        #: the cards of each suit, weakest first
        self.ladder = tuple(tuple(sorted(iter_cards(SUIT_MASKS[s]), key=order.__getitem__)) for s in range(4))


class Solver:
    """Double-dummy solver for one deal under one contract (see the module docstring).

    Built from any position of the hand (a :class:`HandPlay` with its hands);
    every later position of the same deal can then be asked, reusing what was
    learnt. ``engine`` is ``"c"`` (the compiled core), ``"python"``, or None:
    the C core when it is built, else Python. Both give the same numbers.
    """

    def __init__(self, play: HandPlay, engine: Optional[str] = None):
        self.rules = _Rules(play)
        self.trump = play.trump
        self.options = play.options
        self._owner = _owners(position_of(play), self.rules.step)
        self.total = _hand_total(play, self.rules)
        if engine is None:
            engine = "c" if _c_core() is not None else "python"
        if engine not in ENGINES:
            raise ValueError(f"unknown solver engine {engine!r}: choose one of {', '.join(ENGINES)}")
        if engine == "c":
            core = _c_core()
            if core is None:
                raise RuntimeError("the C solver core is not built: run `make install` (it needs gcc)")
            self._engine = core.Core(self.rules)
        else:
            from .solver_py import Core
            self._engine = Core(self.rules)
        self.engine = engine

    def reset(self, where: HandPlay | Position) -> None:
        """Forget what was learnt and serve another deal of the same hand: same contract and
        rules, same cards played so far (the next sampled world of :mod:`referee.winchance`),
        given as a play state or directly as a :class:`Position`."""
        if isinstance(where, HandPlay):
            self._check_rules(where)
            self.total = _hand_total(where, self.rules)
            where = position_of(where)
        self._owner = _owners(where, self.rules.step)
        self._engine.clear()

    # --- questions ---------------------------------------------------------------

    def par(self, play: HandPlay) -> Outcome:
        """The result with everyone playing best from ``play``'s position."""
        return self.outcome(self._exact(self._position(play)))

    def card_values(self, play: HandPlay) -> dict[Card, Outcome]:
        """The result after each legal card of the player to play, everyone playing best after it."""
        pos = self._position(play)
        return {card: self.outcome(self._exact(_after(pos, card, self.rules))) for card in iter_cards(play.legal())}

    def can_reach(self, play: HandPlay | Position, team: Team, points: int) -> bool:
        """Whether ``team`` can still end with at least ``points`` card points whatever the
        others do, a capot counting 152 + ``capot_dix_de_der`` (252)."""
        target = self._w_for(team, points)
        pos = self._position(play)
        if team == 0:
            return self._engine.value(pos, target - 1, target) >= target
        return self._engine.value(pos, target, target + 1) <= target

    def value(self, play: HandPlay) -> int:
        """The search's own figure ``w`` for ``play`` (NS's points, +/- the capot's extra):
        what colver's ``solve_scores`` reports, less its floor at 0."""
        return self._exact(self._position(play))

    def _exact(self, pos: Position) -> int:
        """``w`` of ``pos`` by bisection on zero-window searches: each asks "at least m?" and
        answers with a bound (fail-soft), and the table keeps what every search learnt, so
        about nine narrow searches cost less than one wide one."""
        r = self.rules
        low, high = -r.bonus, self.total + r.bonus
        value = self._engine.value
        while low < high:
            mid = (low + high + 1) // 2
            g = value(pos, mid - 1, mid)
            if g >= mid:
                low = g
            else:
                high = g
        return low

    # --- conversions ----------------------------------------------------------------

    def outcome(self, w: int) -> Outcome:
        """``w`` (see the module docstring) as card points per side and a capot flag."""
        if w > self.total:
            return Outcome(self.total, 0, 0)
        if w < 0:
            return Outcome(0, self.total, 1)
        return Outcome(w, self.total - w, None)

    def capot_scale(self, outcome: Outcome, team: Team) -> int:
        """``team``'s points in ``outcome`` counted as the search counts them: a capot is worth
        152 + ``capot_dix_de_der`` (252) to the side that made it, and minus the capot's extra
        (-90) to the side that suffered it, so that losing a capot costs at least 90."""
        extra = self.rules.bonus if outcome.capot == team else -self.rules.bonus if outcome.capot is not None else 0
        return outcome.points(team) + extra

    def _w_for(self, team: Team, points: int) -> int:
        """``team`` ends with at least ``points`` on the capot scale when ``w`` is at least this
        figure (NS), or at most it (EW, whose own figure is ``total - w``)."""
        return points if team == 0 else self.total - points

    def _check_rules(self, play: HandPlay) -> None:
        if play.trump != self.trump or play.options is not self.options and play.options != self.options:
            raise PlayError("this solver was built for another contract or other rules: build one per hand")

    def _position(self, where: HandPlay | Position) -> Position:
        if isinstance(where, Position):
            pos = where
        else:
            self._check_rules(where)
            pos = position_of(where)
        step = self.rules.step
        for seat in range(4):
            if pos.hands[seat] & ~self._owner[seat]:
                raise PlayError("this position is not of the deal the solver was built for: build one per deal")
        for seat, card in _trick_seats(pos, step):
            if not self._owner[seat] >> card & 1:
                raise PlayError("this position is not of the deal the solver was built for: build one per deal")
        return pos


ENGINES = ("c", "python")


def _hand_total(play: HandPlay, rules: _Rules) -> int:
    """The card points of the whole hand, dix de der included: 162 in a 32-card deal (130
    in sa with plain values); less in the made-up hands of examples, which deal fewer cards."""
    pos = position_of(play)
    out = 0
    for h in pos.hands:
        out |= h
    for c in pos.trick:
        out |= 1 << c
    return sum(play.card_points) + sum(rules.points[c] for c in iter_cards(out)) + rules.dix


def _owners(pos: Position, step: int) -> list[Mask]:
    """Who holds each card not yet in a finished trick (the cards on the table too)."""
    owner = list(pos.hands)
    for seat, card in _trick_seats(pos, step):
        owner[seat] |= 1 << card
    return owner


def _trick_seats(pos: Position, step: int):
    return [((pos.leader + i * step) & 3, card) for i, card in enumerate(pos.trick)]


def _after(pos: Position, card: Card, rules: _Rules) -> Position:
    """The position after the player to play plays ``card`` (legal, in their hand)."""
    n = len(pos.trick)
    seat = (pos.leader + n * rules.step) & 3
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    trick = pos.trick + (card,)
    if n < 3:
        return Position(tuple(hands), trick, pos.leader, pos.ns, pos.won)
    winpos = 0
    for i in range(1, 4):
        if rules.beats[trick[winpos]] >> trick[i] & 1:
            winpos = i
    winner = (pos.leader + winpos * rules.step) & 3
    points = sum(rules.points[c] for c in trick) + (rules.dix if not any(hands) else 0)
    if winner & 1:
        return Position(tuple(hands), (), winner, pos.ns, pos.won | 2)
    return Position(tuple(hands), (), winner, pos.ns + points, pos.won | 1)


_CORE: list = []


def _c_core():
    """The compiled core's module, or None when it is not built (imported once)."""
    if not _CORE:
        try:
            from . import solver_c
            _CORE.append(solver_c if solver_c.available() else None)
        except ImportError:
            _CORE.append(None)
    return _CORE[0]
