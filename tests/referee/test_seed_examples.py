"""The seeds' own worked examples and tables, figure by figure.

Each case names the seed passage it comes from; the figures are the seeds'
(or follow from their tables where the text gives a rule, not a number).
"""

import pytest

from referee.auction import Contract
from referee.declarations import declaration_points, make_declaration
from referee.cards import parse_cards
from referee.rules import profile
from referee.scoring import HandScore, MatchScore, score_hand
from referee.trump_tables import parse_trump

NS, EW = 0, 1


def contract(value=80, counter=1, capot=False, taker=0, mode="h"):
    call = ("capot" + mode) if capot else (f"{value}{mode}" if value else "take")
    return Contract(taker=taker, mode=parse_trump(mode), value=None if capot else value, capot=capot,
                    counter=counter, call=call)


# (case, profile, overrides, contract kwargs, card points, tricks, belote, declarations, score, result)
CASES = [
    # --- seed 001, points made + points announced --------------------------------------------
    ("001 m+b: 80 announced + 110 achieved = 190", "contree", {}, dict(value=80), (110, 52), (5, 3),
     (0, 0), (0, 0), (190, 50), "made"),
    ("001 m+b: failed, defence 160 + the bid", "contree", {}, dict(value=100), (70, 92), (3, 5),
     (0, 0), (0, 0), (0, 260), "failed"),
    ("001 m+b: 90 bid, 89 achieved: rounded points do not make it", "contree", {}, dict(value=90), (89, 73),
     (4, 4), (0, 0), (0, 0), (0, 250), "failed"),
    ("001 m+b: doubled, made: (160 + bid) x 2", "contree", {}, dict(value=100, counter=2), (120, 42), (6, 2),
     (0, 0), (0, 0), (520, 0), "made"),
    ("001 m+b: redoubled, failed: (160 + bid) x 4 to the defence", "contree", {}, dict(value=100, counter=4),
     (60, 102), (3, 5), (0, 0), (0, 0), (0, 1040), "failed"),
    ("001 m+b: unbid capot 250 + contract", "contree", {}, dict(value=80), (162, 0), (8, 0),
     (0, 0), (0, 0), (330, 0), "made"),
    ("001 m+b: capot announced and made 500", "contree", {}, dict(capot=True), (162, 0), (8, 0),
     (0, 0), (0, 0), (500, 0), "made"),
    ("001 m+b: capot announced and failed 500", "contree", {}, dict(capot=True), (150, 12), (7, 1),
     (0, 0), (0, 0), (0, 500), "failed"),
    ("001 m+b: doubled capot 1000", "contree", {}, dict(capot=True, counter=2), (162, 0), (8, 0),
     (0, 0), (0, 0), (1000, 0), "made"),
    ("001 m+b: redoubled capot 2000", "contree", {}, dict(capot=True, counter=4), (162, 0), (8, 0),
     (0, 0), (0, 0), (2000, 0), "made"),
    # --- seed 001, points made ---------------------------------------------------------------------
    ("001 made: each side its rounded points", "contree", {"scoring": "made"}, dict(value=80), (106, 56),
     (5, 3), (0, 0), (0, 0), (110, 60), "made"),
    ("001 made: failed, opposing side 160", "contree", {"scoring": "made"}, dict(value=120), (100, 62),
     (5, 3), (0, 0), (0, 0), (0, 160), "failed"),
    ("001 made: double 320", "contree", {"scoring": "made"}, dict(value=100, counter=2), (110, 52), (5, 3),
     (0, 0), (0, 0), (320, 0), "made"),
    ("001 made: redouble 640", "contree", {"scoring": "made"}, dict(value=100, counter=4), (110, 52), (5, 3),
     (0, 0), (0, 0), (640, 0), "made"),
    ("001 made: double with belote 340", "contree", {"scoring": "made"}, dict(value=100, counter=2),
     (110, 52), (5, 3), (20, 0), (0, 0), (340, 0), "made"),
    ("001 made: redouble with belote 660", "contree", {"scoring": "made"}, dict(value=100, counter=4),
     (110, 52), (5, 3), (20, 0), (0, 0), (660, 0), "made"),
    ("001 made: non-announced capot 250", "contree", {"scoring": "made"}, dict(value=80), (162, 0), (8, 0),
     (0, 0), (0, 0), (250, 0), "made"),
    ("001 made: belote guarantees the contract (62 + 20 >= 80)", "contree", {"scoring": "made"},
     dict(value=80), (62, 100), (3, 5), (20, 0), (0, 0), (80, 100), "made"),
    ("001 made: belote not guaranteed, goes to the defenders", "contree", {"scoring": "made"},
     dict(value=100), (70, 92), (3, 5), (20, 0), (0, 0), (0, 180), "failed"),
    ("001 made: announced capot failed loses the takers' belote", "contree", {"scoring": "made"},
     dict(capot=True), (150, 12), (7, 1), (20, 0), (0, 0), (0, 500), "failed"),
    ("001 made: announced capot made keeps the belote", "contree", {"scoring": "made"},
     dict(capot=True), (162, 0), (8, 0), (20, 0), (0, 0), (520, 0), "made"),
    # --- seed 001, points announced ---------------------------------------------------------------
    ("001 bid: made scores the bid, defence 0", "contree", {"scoring": "bid"}, dict(value=90), (120, 42),
     (6, 2), (0, 0), (0, 0), (90, 0), "made"),
    ("001 bid: contract 90 doubled -> 180", "contree", {"scoring": "bid"}, dict(value=90, counter=2),
     (120, 42), (6, 2), (0, 0), (0, 0), (180, 0), "made"),
    ("001 bid: contract 90 redoubled -> 360", "contree", {"scoring": "bid"}, dict(value=90, counter=4),
     (120, 42), (6, 2), (0, 0), (0, 0), (360, 0), "made"),
    ("001 bid: failed, opposing side 160", "contree", {"scoring": "bid"}, dict(value=90), (60, 102),
     (3, 5), (0, 0), (0, 0), (0, 160), "failed"),
    ("001 bid: non-announced capot is worth the bid", "contree", {"scoring": "bid"}, dict(value=90),
     (162, 0), (8, 0), (0, 0), (0, 0), (90, 0), "made"),
    ("001 bid: capot announced and made 250", "contree", {"scoring": "bid"}, dict(capot=True), (162, 0),
     (8, 0), (0, 0), (0, 0), (250, 0), "made"),
    ("001 bid: doubled capot 500", "contree", {"scoring": "bid"}, dict(capot=True, counter=2), (162, 0),
     (8, 0), (0, 0), (0, 0), (500, 0), "made"),
    ("001 bid: redoubled capot 1000", "contree", {"scoring": "bid"}, dict(capot=True, counter=4), (162, 0),
     (8, 0), (0, 0), (0, 0), (1000, 0), "made"),
    # --- seed 000 (FFB) -----------------------------------------------------------------------------
    ("000 §10.1.1: the takers must score more than the defenders (81-81 fails)", "ffb-contree", {},
     dict(value=80), (81, 81), (4, 4), (0, 0), (0, 0), (0, 240), "failed"),
    ("000 §7: a said belote is invincible", "ffb-contree", {}, dict(value=100), (70, 92), (3, 5),
     (20, 0), (0, 0), (20, 260), "failed"),
    ("000 + 001: belote outside the multiplier", "ffb-contree", {}, dict(value=100, counter=2), (110, 52),
     (5, 3), (20, 0), (0, 0), (540, 0), "made"),
    ("000 §10.1.2 wording: the hand's value is subtracted from the failed takers", "ffb-contree",
     {"failed_subtract": True}, dict(value=100), (70, 92), (3, 5), (0, 0), (0, 0), (-260, 260), "failed"),
    ("000 §9.2: capot card points 252", "ffb-contree", {}, dict(value=80), (162, 0), (8, 0),
     (0, 0), (0, 0), (330, 0), "made"),
    # --- seed 003 (classic to 501) -----------------------------------------------------------------
    ("003: attacking team wins 110 points, the defence 52", "classic-501", {}, dict(value=None), (110, 52),
     (5, 3), (0, 0), (0, 0), (110, 52), "made"),
    ("003: 82 minimum to win", "classic-501", {}, dict(value=None), (82, 80), (4, 4), (0, 0), (0, 0),
     (82, 80), "made"),
    ("003: below 82, the opponents score 162", "classic-501", {}, dict(value=None), (81, 81), (4, 4),
     (0, 0), (0, 0), (0, 162), "failed"),
    ("003: with belote the goal is 92 (72 + 20)", "classic-501", {}, dict(value=None), (72, 90), (4, 4),
     (20, 0), (0, 0), (92, 90), "made"),
    ("003: failed, the takers keep only their belote, the opponents 162", "classic-501", {}, dict(value=None),
     (71, 91), (4, 4), (20, 0), (0, 0), (20, 162), "failed"),
    ("003: capot 252", "classic-501", {}, dict(value=None), (162, 0), (8, 0), (0, 0), (0, 0), (252, 0), "made"),
    # --- seed 002 (classic, 81 threshold, litige) --------------------------------------------------
    ("002: less than 81: takers keep only belote, defence 160 + announcements", "classic",
     {"make_rule": "threshold", "failed_value": 160, "litige": "hold"}, dict(value=None), (60, 102),
     (3, 5), (20, 0), (0, 20), (20, 180), "failed"),
    ("002: exactly 81: litige, defenders keep their points, takers' wait", "classic",
     {"make_rule": "threshold", "failed_value": 160, "litige": "hold"}, dict(value=None), (81, 81),
     (4, 4), (0, 0), (0, 0), (0, 81), "litige"),
    # --- seed 004 (classic in depth) ---------------------------------------------------------------
    ("004: at least as many points as the defence makes it", "classic", {}, dict(value=None), (81, 81),
     (4, 4), (0, 0), (0, 0), (81, 81), "made"),
    ("004: dedans: 162 + the losing team's declarations + their own", "classic", {}, dict(value=None),
     (50, 112), (3, 5), (0, 0), (20, 0), (0, 182), "failed"),
    ("004: capot 252 + declarations", "classic", {}, dict(value=None), (162, 0), (8, 0), (0, 0), (20, 0),
     (272, 0), "made"),
    ("004: the capot side forfeits its declarations", "classic", {}, dict(value=None), (162, 0), (8, 0),
     (0, 0), (0, 50), (252, 0), "made"),
    ("004 variation: a capot defence keeps its declarations; takers not dedans", "classic",
     {"capoted_keep_declarations": True}, dict(value=None), (162, 0), (8, 0), (0, 0), (0, 100),
     (252, 100), "made"),
    ("004: takers capoted: 252 + all declarations to the defence", "classic", {}, dict(value=None),
     (0, 162), (0, 8), (0, 0), (0, 20), (0, 272), "failed"),
    ("004: takers capoted: 'plus all the declarations of both teams'", "classic", {}, dict(value=None),
     (0, 162), (0, 8), (0, 0), (50, 0), (0, 302), "failed"),
    ("004 variation: more than the defence, equality loses", "classic",
     {"make_rule": "more-than-defence", "litige": "takers-lose"}, dict(value=None), (81, 81), (4, 4),
     (0, 0), (0, 0), (0, 162), "failed"),
    ("004 variation: declarations do not count toward the contract", "classic",
     {"declarations_count_for_contract": False}, dict(value=None), (75, 87), (4, 4), (0, 0), (20, 0),
     (0, 182), "failed"),
    ("004 variation: rounding to 5", "classic", {"rounding": "5"}, dict(value=None), (103, 59), (5, 3),
     (0, 0), (0, 0), (105, 60), "made"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_seed_example(case):
    name, rules, overrides, kwargs, points, tricks, belote, decl, expected, result = case
    score = score_hand(profile(rules, **overrides), contract(**kwargs), points, tricks, belote, decl)
    assert (score.score, score.result) == (expected, result), name


# Issue 12: two readings corrected, each against the passage it follows.
SEED_000_SECTION_7 = "A correctly announced Belote is invincible: the point bonus is awarded even if the team falls short."
SEED_003_FAILED = ("If the contract has not been made, the team makes a contract to get only belote points, if you have "
                   "one, and the opposing team scores 162 points and points belote")


@pytest.mark.parametrize("counter, defence", [(1, 500), (2, 1000), (4, 2000)])
def test_ffb_contree_a_failed_capot_bid_leaves_the_takers_their_belote(counter, defence):
    """FFB rules §7 (SEED_000_SECTION_7): the FFB profile takes only the online contrée
    rules' capot table (500/1000/2000), not their loss of the takers' belote on a failed capot."""
    assert "invincible" in SEED_000_SECTION_7 and "even if the team falls short" in SEED_000_SECTION_7
    score = score_hand(profile("ffb-contree"), contract(capot=True, counter=counter), (150, 12), (7, 1), (20, 0))
    assert (score.result, score.score) == ("failed", (20, defence))
    # The defence's own belote is theirs too, and the online contrée profile keeps its own reading.
    assert score_hand(profile("ffb-contree"), contract(capot=True), (150, 12), (7, 1), (0, 20)).score == (0, 520)
    assert score_hand(profile("contree"), contract(capot=True), (150, 12), (7, 1), (20, 0)).score == (0, 500)


@pytest.mark.parametrize("belote, expected", [
    ((20, 0), (20, 162)),          # the takers' belote stays with them (92 needed: 71 + 20 falls short)
    ((0, 20), (0, 182)),           # the opponents' belote is added to their 162
    ((0, 0), (0, 162)),
])
def test_classic_501_a_failed_contract_keeps_only_the_takers_belote(belote, expected):
    """The 501 rules, seed 003 (SEED_003_FAILED): the takers only their belote, the opponents 162 + theirs."""
    assert "get only belote points" in SEED_003_FAILED and "162 points and points belote" in SEED_003_FAILED
    score = score_hand(profile("classic-501"), contract(value=None), (71, 91), (4, 4), belote)
    assert (score.result, score.score) == ("failed", expected)


def test_capot_card_points_are_252():
    score = score_hand(profile("ffb-contree"), contract(), (162, 0), (8, 0))
    assert score.card_points == (252, 0) and score.capot


def test_a_zero_point_trick_prevents_capot():
    # VARIANTS: winning only a zero-point trick is not a capot for the other side.
    score = score_hand(profile("ffb-contree"), contract(), (162, 0), (7, 1))
    assert not score.capot and score.score == (240, 0)


def test_002_litige_goes_to_the_winner_of_the_next_hand():
    opts = profile("classic", make_rule="threshold", failed_value=160, litige="hold")
    match = MatchScore(opts)
    first = score_hand(opts, contract(value=None, taker=0), (81, 81), (4, 4))
    assert match.add(first, taker_team=NS) == (0, 81)
    assert match.pending == (81, 0)
    # Next hand: EW take and make it: the held 81 go to EW.
    second = score_hand(opts, contract(value=None, taker=1), (60, 102), (3, 5))
    assert match.add(second, taker_team=EW) == (60, 102 + 81)
    assert match.pending == (0, 0)


def test_004_abeyance_both_sides_held_then_returned_to_the_earlier_takers_side():
    opts = profile("classic", make_rule="more-than-defence", litige="abeyance")
    match = MatchScore(opts)
    first = score_hand(opts, contract(value=None, taker=0), (81, 81), (4, 4))
    assert (first.result, first.score, first.held) == ("litige", (0, 0), (81, 81))
    match.add(first, taker_team=NS)
    # NS (the earlier takers) defeat EW's contract: each side gets its own 81.
    second = score_hand(opts, contract(value=None, taker=1), (100, 62), (5, 3))
    assert second.result == "failed"
    assert match.add(second, taker_team=EW) == (162 + 81, 81)


def test_004_abeyance_whole_162_to_the_opponents_when_the_takers_lose_next():
    opts = profile("classic", make_rule="more-than-defence", litige="abeyance")
    match = MatchScore(opts)
    match.add(score_hand(opts, contract(value=None, taker=0), (81, 81), (4, 4)), taker_team=NS)
    second = score_hand(opts, contract(value=None, taker=1), (40, 122), (2, 6))
    assert match.add(second, taker_team=EW) == (40, 122 + 162)


def test_004_both_teams_over_1000_on_the_same_hand_is_drawn():
    match = MatchScore(profile("classic"))
    match.totals = [950, 960]
    match.add(HandScore((81, 81), "made", False, (81, 81), winner=NS), taker_team=NS)
    assert match.over and match.winner is None


def test_003_both_over_501_the_higher_score_wins():
    match = MatchScore(profile("classic-501"))
    match.totals = [450, 480]
    match.add(HandScore((60, 102), "made", False, (60, 102), winner=EW), taker_team=EW)
    assert match.over and match.winner == EW


HEARTS = parse_trump("h")


def decl(seat, cards, mode=HEARTS):
    return make_declaration(seat, parse_cards(cards), mode)


def test_004_a_square_beats_a_five_card_sequence():
    found = [decl(0, "9s Ts Js Qs Ks"), decl(1, "Qs Qh Qd Qc")]
    assert declaration_points(found, HEARTS, dealer=0) == (0, 100)


def test_004_longer_beats_shorter_and_higher_beats_lower():
    assert declaration_points([decl(0, "Ac Kc Qc"), decl(1, "7d 8d 9d Td")], HEARTS, dealer=0) == (0, 50)
    assert declaration_points([decl(0, "Ac Kc Qc"), decl(1, "Jd Qd Kd")], HEARTS, dealer=0) == (20, 0)


def test_004_equal_sequences_trump_wins_else_earliest_from_dealers_right():
    assert declaration_points([decl(0, "Jc Qc Kc"), decl(1, "Jh Qh Kh")], HEARTS, dealer=0) == (0, 20)
    # Neither is trump: dealer N, so W (dealer's right) is first in rotation, then S, E, N.
    tied = [decl(0, "Jc Qc Kc"), decl(3, "Jd Qd Kd")]
    assert declaration_points(tied, HEARTS, dealer=0) == (0, 20)
    assert declaration_points(tied, HEARTS, dealer=3) == (20, 0)     # dealer W: S, E, N first


def test_004_only_the_best_side_scores_all_its_declarations():
    found = [decl(0, "7s 8s 9s"), decl(2, "7c 8c 9c"), decl(1, "7d 8d 9d Td")]
    assert declaration_points(found, HEARTS, dealer=0) == (0, 50)
    found.append(decl(3, "Jc Qc Kc"))
    assert declaration_points(found, HEARTS, dealer=0) == (0, 70)


def test_002_square_values_trump_and_no_trump():
    values = {r: decl(0, " ".join(r + s for s in "shdc")).value for r in "JA9TKQ"}
    assert values == {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
    sa = parse_trump("sa")
    values = {r: decl(0, " ".join(r + s for s in "shdc"), sa).value for r in "AT9JKQ"}
    assert values == {"A": 200, "T": 150, "9": 100, "J": 100, "K": 100, "Q": 100}
