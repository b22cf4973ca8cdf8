"""The double-dummy solver (``referee/solver.py``): against colver's solver, C against
Python, and the properties any correct solver has.

colver's ``solve_scores`` gives, for each legal card, NS's card points with a capot
counted 252 (our search's ``w``, floored at 0: colver does not tell a capot suffered
from a zero-point hand). ``bench/solver.py`` runs the same comparison on 10,000
positions; here 500 keep ``make test`` fast.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the bench package, at the repo root

from bench.solver import colver_values, random_position  # noqa: E402
from referee.cards import CLUBS, DIAMONDS, HEARTS, SPADES, SUIT_MASKS, iter_cards  # noqa: E402
from referee.play import HandPlay, PlayError  # noqa: E402
from referee.rules import profile  # noqa: E402
from referee.solver import Outcome, Solver  # noqa: E402
from referee.solver_c import available  # noqa: E402
from referee.trump_tables import parse_trump  # noqa: E402

#: the play options that change the search, each tried on random positions (C against Python)
VARIANTS = [
    ("ffb-contree", {}),
    ("classic", {}),                                                  # must undertrump
    ("classic", {"undertrump": "always"}),
    ("contree", {"beat_partner_on_trump_lead": "false"}),
    ("contree", {"all_trump_must_beat": "false"}),
    ("classic-501", {}),                                              # clockwise
    ("contree", {"no_trump_values": "plain"}),
    ("contree", {"capot_dix_de_der": "10"}),                          # no capot bonus at all
]


def test_the_c_core_is_built():
    assert available(), "the solver's C core is not built: run `make install` (it needs gcc)"


def test_agrees_with_colver_on_every_card_of_500_random_positions():
    rng = random.Random(14)
    options = profile("ffb-contree")
    compared = cards = 0
    for _ in range(500):
        play, deal = random_position(rng, options, (0, 1, 2, 3), rng.randrange(0, 29))
        theirs = colver_values(deal, play)
        solver = Solver(play, engine="c")
        ours = {card: max(solver.capot_scale(o, 0), 0) for card, o in solver.card_values(play).items()}
        assert ours == theirs, (play, ours, theirs)
        compared += 1
        cards += len(ours)
    assert compared == 500 and cards > 1000


@pytest.mark.parametrize("rules,overrides", VARIANTS)
def test_c_and_python_give_the_same_values(rules, overrides):
    rng = random.Random(hash((rules, tuple(overrides))) & 0xFFFF)
    options = profile(rules, **overrides)
    for _ in range(25):
        play, _ = random_position(rng, options, range(6), rng.randrange(12, 30))
        c = Solver(play, engine="c").card_values(play)
        python = Solver(play, engine="python").card_values(play)
        assert c == python, (play, c, python)


@pytest.mark.parametrize("rules,overrides", VARIANTS[:4])
def test_par_is_the_best_card_and_each_card_is_its_own_re_solve(rules, overrides):
    """par = the best of the card values for the side to play; each card's value = the par of
    the position after it, asked of a fresh solver; the sides' points add up to the hand's."""
    rng = random.Random(7)
    options = profile(rules, **overrides)
    for _ in range(30):
        play, _ = random_position(rng, options, range(6), rng.randrange(0, 31))
        solver = Solver(play)
        team = play.to_play & 1
        values = solver.card_values(play)
        par = solver.par(play)
        assert solver.capot_scale(par, team) == max(solver.capot_scale(o, team) for o in values.values())
        for card, value in values.items():
            after = play.copy()
            after.play(card)
            again = Solver(after).par(after) if not after.done else Outcome(*after.card_points, after.capot)
            assert again == value
        total = solver.total
        for o in list(values.values()) + [par]:
            assert o.ns + o.ew == total
            assert o.capot is None or o.points(o.capot) == total


def test_can_reach_is_the_zero_window_of_par():
    rng = random.Random(3)
    options = profile("ffb-contree")
    for _ in range(40):
        play, _ = random_position(rng, options, range(4), rng.randrange(4, 31))
        solver = Solver(play)
        par = solver.par(play)
        for team in (0, 1):
            best = solver.capot_scale(par, team)
            assert solver.can_reach(play, team, best)
            assert not solver.can_reach(play, team, best + 1)


def test_the_value_at_the_last_trick_is_what_the_cards_give():
    rng = random.Random(5)
    options = profile("classic")
    for _ in range(50):
        play, _ = random_position(rng, options, range(6), 28)
        par = Solver(play).par(play)
        while not play.done:
            play.play(next(iter_cards(play.legal())))
        ns, ew = play.card_points
        assert par == Outcome(ns, ew, play.capot)


def test_a_capot_counts_252_for_the_side_that_makes_it():
    # N holds every heart (trumps) and leads: every trick is NS's
    hands = [SUIT_MASKS[HEARTS], SUIT_MASKS[SPADES], SUIT_MASKS[DIAMONDS], SUIT_MASKS[CLUBS]]
    play = HandPlay(parse_trump("h"), 0, profile("ffb-contree"), hands)
    solver = Solver(play)
    par = solver.par(play)
    assert par == Outcome(162, 0, 0)
    assert (solver.capot_scale(par, 0), solver.capot_scale(par, 1)) == (252, -90)
    assert solver.can_reach(play, 0, 252)
    assert not solver.can_reach(play, 1, 0)              # EW cannot even avoid the capot


def test_one_solver_serves_every_later_position_of_its_deal_and_refuses_another():
    rng = random.Random(9)
    options = profile("ffb-contree")
    play, _ = random_position(rng, options, range(4), 0)
    solver = Solver(play)
    start = play.copy()
    while not play.done:
        cold = Solver(play).card_values(play)
        assert solver.card_values(play) == cold      # the warm table answers the same
        play.play(next(iter_cards(play.legal())))
    other, _ = random_position(rng, options, range(4), 0)
    if other.trump == start.trump:
        with pytest.raises(PlayError, match="deal"):
            solver.par(other)
    with pytest.raises(PlayError, match="over"):
        solver.par(play)


def test_a_hand_without_its_hands_is_refused_with_a_reason():
    with pytest.raises(PlayError, match="all four hands"):
        Solver(HandPlay(0, 0, profile("ffb-contree")))
