"""Hand and match scoring, for every profile and every method of the seeds.

A hand is scored from facts the play established: the contract, the card
points and tricks of each side, the belotes and the declarations that count.
:func:`score_hand` turns them into the points each side writes on the sheet.

Methods (``scoring`` option; seed 001 has all of the contrée tables):

==========  ====================  ==================  ======================
method      made                  failed              countered (x2 / x4)
==========  ====================  ==================  ======================
made        each side its points  defence 160         winner 160 x m (320/640)
bid         takers the bid        defence 160         winner bid x m (180/360)
made+bid    takers points + bid   defence 160 + bid   winner (160 + bid) x m
classic     each side its points  defence 162 + decl  (whole hand x m)
==========  ====================  ==================  ======================

Capot: unbid 250 (``capot_value``; + bid in made+bid; the bid alone in
"bid"), a bid capot 500 made or failed (250 in "bid"), x m when countered
(001's 500/1000/2000). Belote is added outside any multiplier to its holder;
on a failed contract it follows ``belote_invincible`` and
``capot_failed_loses_belote``. Card points are rounded per ``rounding``, but
"rounded points don't allow to make the contract" (001): the decision uses the
exact figures.

>>> from referee.auction import Contract
>>> from referee.rules import profile
>>> c = Contract(taker=0, mode=1, value=80, capot=False, counter=1, call="80h")
>>> s = score_hand(profile("ffb-contree"), c, card_points=(110, 52), tricks=(5, 3))
>>> s.result, s.score                     # 001: "80 points announced + 110 achieved = 190"
('made', (190, 50))
>>> score_hand(profile("classic-501"), c, (110, 52), (5, 3)).score   # 003's example
(110, 52)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .auction import Contract
from .rules import Options

#: A bid capot, made or failed, per method (001), before the counter multiplier.
CAPOT_BID_VALUE = {"made": 500, "made+bid": 500, "bid": 250, "classic": 500}


@dataclass(frozen=True)
class HandScore:
    """One hand on the score sheet. Pairs are (NS, EW).

    ``result``: made | failed | litige. ``held``: points of a litige kept for the
    next hand (not in ``score``; :class:`MatchScore` releases them).
    ``winner``: the side that won the hand (takers if made, defence if failed;
    None for a litige), which a held litige goes to.
    """

    score: tuple[int, int]
    result: str
    capot: bool
    card_points: tuple[int, int]
    belote: tuple[int, int] = (0, 0)
    declarations: tuple[int, int] = (0, 0)
    held: tuple[int, int] = (0, 0)
    winner: Optional[int] = None


def round_points(points: int, rounding: str) -> int:
    """Round card points for the sheet (001: 1-4 down, 5-9 up).

    >>> [round_points(p, "10-5up") for p in (84, 85, 86)], round_points(85, "10-6up"), round_points(83, "5")
    ([80, 90, 90], 80, 85)
    """
    if rounding == "10-5up":
        return (points + 5) // 10 * 10
    if rounding == "10-6up":
        return (points + 4) // 10 * 10
    if rounding == "5":
        return (points + 2) // 5 * 5
    return points


def _pair(team: int, mine: int, theirs: int) -> list[int]:
    out = [0, 0]
    out[team], out[1 - team] = mine, theirs
    return out


def score_hand(options: Options, contract: Contract, card_points: tuple[int, int], tricks: tuple[int, int],
               belote: tuple[int, int] = (0, 0), declarations: tuple[int, int] = (0, 0),
               penalty: Optional[int] = None) -> HandScore:
    """Score one played hand.

    ``card_points`` are the play's points with the dix de der (162 in all, as
    :attr:`referee.play.HandPlay.card_points` gives them); the capot bonus
    (``capot_dix_de_der``) is added here. ``belote``: the belote points each side
    earned (20 per belote said and played). ``declarations``: the points of the
    side with the best declaration (0 for the other; :mod:`referee.declarations`).
    ``penalty``: the team that loses the hand for a fault (a revoke, say): the
    hand is scored as if the other side had taken every card point, no capot.
    """
    o = options
    T = contract.team
    D = 1 - T
    cp = list(card_points)
    capot_team = 0 if tricks[0] == 8 else 1 if tricks[1] == 8 else None
    if capot_team is not None:
        cp[capot_team] += o.capot_dix_de_der - o.dix_de_der
    shown = (cp[0], cp[1])
    decl = list(declarations)
    if capot_team == T and not o.capoted_keep_declarations:
        decl[D] = 0                                   # 004: a defence without a trick forfeits its own
        # (takers without a trick: 004 gives the defence "all the declarations of both teams")
    if penalty is not None:                           # scored as if the innocent side took every point
        cp = _pair(1 - penalty, sum(card_points), 0)
        capot_team = None
    bel = list(belote)

    def counted(team: int) -> int:
        return (cp[team] + (bel[team] if o.belote_counts_for_contract else 0)
                + (decl[team] if o.declarations_count_for_contract else 0))

    tot_t, tot_d = counted(T), counted(D)
    value = contract.value or 0
    tie = tot_t == tot_d
    if penalty is not None:
        made: Optional[bool] = penalty == D
    elif contract.capot:
        made = capot_team == T
    elif capot_team is not None:
        made = capot_team == T                        # all eight tricks decide (004: a defence without a
                                                      # trick cannot put the takers dedans)
    elif o.make_rule == "bid":
        made = tot_t >= value
    elif o.make_rule == "at-least-defence":
        made = tot_t >= tot_d
    elif o.make_rule == "threshold":
        need = o.threshold_with_belote if any(bel) else o.threshold
        made = None if tie else tot_t >= need
    elif o.make_rule == "more-than-defence":
        made = None if tie else tot_t > tot_d
    else:  # bid-and-more
        made = None if tie and tot_t >= value else (tot_t >= value and tot_t > tot_d)
    if made is None and (o.litige == "takers-lose" or contract.counter > 1):
        made = False                                  # a countered litige is not held: takers lose

    method = o.scoring
    m = contract.counter

    def points_of(team: int) -> int:
        """What ``team`` scores on a made contract (or each side in a litige)."""
        if capot_team is not None:
            base = o.capot_value if capot_team == team else 0
        else:
            base = round_points(cp[team], o.rounding)
        if method == "bid":
            return value if team == T else 0
        if method == "made+bid" and team == T:
            base += value
        return base

    def failed_value() -> int:
        if method == "bid":
            return o.failed_value
        base = o.capot_value if capot_team == D else o.failed_value
        return base + (value if method == "made+bid" else 0)

    held = [0, 0]
    if contract.capot:
        score = _pair(T if made else D, CAPOT_BID_VALUE[method] * m, 0)
    elif m > 1 and o.counter_scope != "hand" and method != "classic":
        cards = o.capot_value if capot_team is not None else o.failed_value
        if method == "bid":
            points = value * m
        elif method == "made+bid" and o.counter_scope == "bid":
            points = cards + value * m
        else:
            points = (cards + (value if method == "made+bid" else 0)) * m
        score = _pair(T if made else D, points, 0)
    else:
        if made is True:
            score = [points_of(0), points_of(1)]
        elif made is False:
            score = _pair(D, failed_value(), 0)
        else:  # litige
            score = [points_of(0), points_of(1)]
            if o.litige == "hold":
                held[T], score[T] = score[T], 0
            elif o.litige == "abeyance":
                held, score = score, [0, 0]
        if m > 1:                                     # counter_scope "hand", or classic
            score = [s * m for s in score]
            held = [h * m for h in held]

    if made is False and o.failed_subtract:
        score[T] -= score[D]                          # 000 §10.1.2: "subtracted from the score of the team
                                                      # that failed the contract"
    # Declarations, then belote: outside any multiplier.
    if made is False:
        score[D] += decl[D] + (decl[T] if o.dedans_declarations_to_defence else 0)
    elif made is True or o.litige == "split":
        score[0] += decl[0]
        score[1] += decl[1]
    else:
        for team in (0, 1):
            (held if (o.litige == "abeyance" or team == T) else score)[team] += decl[team]
    score[D] += bel[D]
    if made is False:
        if not (contract.capot and o.capot_failed_loses_belote):
            score[T if o.belote_invincible else D] += bel[T]
    else:
        score[T] += bel[T]
    winner = None if made is None else (T if made else D)
    result = "litige" if made is None else "made" if made else "failed"
    return HandScore((score[0], score[1]), result, capot_team is not None, shown,
                     (bel[0], bel[1]), (decl[0], decl[1]), (held[0], held[1]), winner)


class MatchScore:
    """Running totals to the target, with litiges held and released (002, 004).

    Seed 002: at 81 all, the defence (NS) scores its 81 now and the takers' 81
    go to whoever wins the next hand:

    >>> from referee.rules import profile
    >>> match = MatchScore(profile("classic", litige="hold", make_rule="more-than-defence"))
    >>> match.add(HandScore((81, 0), "litige", False, (81, 81), held=(0, 81)), taker_team=1)
    (81, 0)
    >>> match.add(HandScore((100, 62), "made", False, (100, 62), winner=0), taker_team=0)
    (181, 62)
    >>> match.totals
    [262, 62]
    """

    def __init__(self, options: Options):
        self.options = options
        self.totals = [0, 0]
        self._pending: list[tuple[tuple[int, int], int]] = []   # (held points, takers' team)
        self.winner: Optional[int] = None
        self.over = False

    @property
    def pending(self) -> tuple[int, int]:
        """Litige points waiting for the next decided hand (NS, EW)."""
        return (sum(h[0] for h, _ in self._pending), sum(h[1] for h, _ in self._pending))

    def add(self, hand: HandScore, taker_team: Optional[int]) -> tuple[int, int]:
        """Add a scored hand (None for an all-pass hand's taker); returns the
        points written for it, released litige points included."""
        written = list(hand.score)
        if hand.winner is not None:
            for held, litige_taker in self._pending:
                if self.options.litige == "abeyance" and hand.winner != litige_taker:
                    written[1 - litige_taker] += held[0] + held[1]
                elif self.options.litige == "abeyance":
                    written[0] += held[0]
                    written[1] += held[1]
                else:
                    written[hand.winner] += held[0] + held[1]
            self._pending = []
        if hand.result == "litige" and taker_team is not None and any(hand.held):
            self._pending.append((hand.held, taker_team))
        self.totals[0] += written[0]
        self.totals[1] += written[1]
        self._check_end(hand.winner)
        return written[0], written[1]

    def stop(self, winner: int) -> None:
        """End the match now (l'Arrêt, seed 004): ``winner`` wins whatever the totals."""
        self.over, self.winner = True, winner

    def _check_end(self, last_winner: Optional[int]) -> None:
        target = self.options.target
        over = [t >= target for t in self.totals]
        if not any(over):
            return
        self.over = True
        if not all(over):
            self.winner = 0 if over[0] else 1
        elif self.options.both_over == "draw":
            self.winner = None
        elif self.options.both_over == "taker" or self.totals[0] == self.totals[1]:
            self.winner = last_winner
        else:
            self.winner = 0 if self.totals[0] > self.totals[1] else 1
