"""The play rules position by position, the violations players read, and a hand's tally.

Each legal-card case is a trick on the table (leader first) and the hand of the
player to play next, written as cards, with the seed passage it follows.
"""

from __future__ import annotations

import pytest

from referee.cards import mask_names, parse_card, parse_cards, parse_mask
from referee.play import HandPlay, PlayError, audit, cards_in_order, legal_cards, trick_winner
from referee.rules import profile
from referee.seats import EAST, NORTH, SOUTH, WEST, SEAT_NAMES
from referee.trump_tables import ALL_TRUMP, NO_TRUMP, parse_trump, points_table, trump_name

FFB, CLASSIC = profile("ffb-contree"), profile("classic")
ALWAYS = profile("classic", undertrump="always")
SPARE = profile("contree", beat_partner_on_trump_lead=False)     # 001: "unless ... partner is currently winning"


def legal(options, trump: str, trick: str, hand: str) -> list[str]:
    return sorted(mask_names(legal_cards(options, parse_trump(trump), parse_cards(trick), parse_mask(hand))))


def names(text: str) -> list[str]:
    return sorted(mask_names(parse_mask(text)))


# --- legal cards -------------------------------------------------------------------

CASES = [
    # (why, options, trump, trick, hand, legal)
    ("leader plays anything", FFB, "h", "", "Ks 7h Ad", "Ks 7h Ad"),
    ("follow a plain suit, no need to beat", FFB, "h", "As", "Ks 7s Jh Ad", "Ks 7s"),
    ("void, partner yet to play: trump (000 §5.2)", FFB, "h", "As", "7h Jh Ad Kd", "7h Jh"),
    ("void, opponent winning with a plain card: any trump", FFB, "h", "7s As", "7h Jh Ad", "7h Jh"),
    ("void, opponent trumped: overtrump when you can", FFB, "h", "As 9h", "Jh 8h Ad", "Jh"),
    ("void, cannot overtrump: contrée may discard (000 §5.2 note)", FFB, "h", "As 9h", "8h 7h Ad", "8h 7h Ad"),
    ("void, cannot overtrump: classic must undertrump (004)", CLASSIC, "h", "As 9h", "8h 7h Ad", "8h 7h"),
    ("void, partner winning with a plain card: anything", FFB, "h", "As 7s", "Jh Ad", "Jh Ad"),
    ("void, partner winning with a plain card: anything (classic)", CLASSIC, "h", "As 7s", "Jh 8h Ad", "Jh 8h Ad"),
    ("partner trumped and wins: anything, a lower trump included", CLASSIC, "h", "Ad 9h 7d", "Jh 7h Ks",
     "Jh 7h Ks"),
    ("partner trumped, opponent overtrumped: overtrump", FFB, "h", "Ad 9h Jh", "8h 7h Ks", "8h 7h Ks"),
    ("partner trumped, opponent overtrumped, classic: undertrump", CLASSIC, "h", "Ad 9h Jh", "8h 7h Ks",
     "7h 8h"),
    ("opponent trumped over partner's trump: overtrump", FFB, "h", "Ad 7h 9h", "Jh 8h Ks", "Jh"),
    ("trump led: beat the highest trump", FFB, "h", "7h 9h", "Jh 8h Ks", "Jh"),
    ("trump led: beat even your partner's trump (000 §5.2, 004)", FFB, "h", "9h 7h", "Jh 8h", "Jh"),
    ("001 option: partner wins a trump lead: any trump", SPARE, "h", "9h 7h", "Jh 8h", "Jh 8h"),
    ("001 option: partner wins as third to play: any trump", SPARE, "h", "8h 9h 7h", "Jh Qh Ks", "Jh Qh"),
    ("001 option: an opponent wins: beat him still", SPARE, "h", "7h 9h", "Jh 8h Ks", "Jh"),
    ("001 option: second to play, partner yet to play: beat", SPARE, "h", "9h", "Jh 8h", "Jh"),
    ("001 option: partner wins, still follow suit", SPARE, "h", "9h 7h", "Jh Ks", "Jh"),
    ("001 option: plain suit led, partner wins: unchanged", SPARE, "h", "As 7s", "Ts 9s Jh", "Ts 9s"),
    ("trump led, cannot beat: any trump", FFB, "h", "9h Jh", "Ah 7h Ks", "Ah 7h"),
    ("trump led, no trump: anything", FFB, "h", "9h", "As Kd", "As Kd"),
    ("trump order J 9 A T K Q 8 7", FFB, "s", "As", "Ts Ks Qs 8s 7s 9s", "9s"),
    ("plain order: the ten beats the king", FFB, "h", "Ks", "Ts 9s", "Ts 9s"),
    ("no trump: follow, no obligation to beat", FFB, "sa", "Ts", "As 7s Kd", "As 7s"),
    ("no trump: void, anything", FFB, "sa", "Ts", "Ah Kd", "Ah Kd"),
    ("all trump: beat the highest card of the suit led", FFB, "ta", "9s", "Js 7s Kd", "Js"),
    ("all trump: beat even partner's card", FFB, "ta", "9s 7s", "Js Ts", "Js"),
    ("all trump, 001 option: partner's card need not be beaten (every card a trump)", SPARE, "ta", "9s 7s",
     "Js Ts Kd", "Js Ts"),
    ("all trump, 001 option: an opponent's card must be", SPARE, "ta", "7s 9s", "Js Ts Kd", "Js"),
    ("all trump: cannot beat, follow", FFB, "ta", "9s", "Ts 7s Kd", "Ts 7s"),
    ("all trump: void, anything (no suit cuts another)", FFB, "ta", "9s", "Jh Kd", "Jh Kd"),
    ("all trump without the beat obligation", FFB.replace(all_trump_must_beat=False), "ta", "9s", "Js 7s Kd",
     "Js 7s"),
    # 004 variation "on est toujours obligé de pisser": partner has trumped and wins
    ("always 1: can overtrump partner: overtrump or discard, never undertrump", ALWAYS, "h", "Ad 9h 7d",
     "Jh 7h Ks", "Jh Ks"),
    ("always 2: holds trumps but cannot overtrump: must undertrump", ALWAYS, "h", "Ad Jh 7d", "9h 7h Ks",
     "9h 7h"),
    ("always 3: no trump: discard", ALWAYS, "h", "Ad Jh 7d", "Ks Qc", "Ks Qc"),
    ("always: partner winning with a plain card is still free", ALWAYS, "h", "7d Ad 8d", "9h Ks", "9h Ks"),
    ("always: opponent trumped higher: undertrump as in classic", ALWAYS, "h", "As 9h", "8h 7h Ad", "7h 8h"),
]


@pytest.mark.parametrize("why, options, trump, trick, hand, expected", CASES, ids=[c[0] for c in CASES])
def test_legal_cards(why, options, trump, trick, hand, expected):
    assert legal(options, trump, trick, hand) == names(expected)


def test_legal_cards_in_the_order_of_the_hand():
    hand = parse_cards("Ks 9s Jh Qs")
    mask = legal_cards(FFB, parse_trump("h"), parse_cards("As 7s 8s"), hand)
    assert cards_in_order(mask, hand) == parse_cards("Ks 9s Qs")


@pytest.mark.parametrize("trick, hand, message", [
    ("As 7s 8s 9s", "Ks", "already has 4 cards"),
    ("As As", "Ks", "same card twice"),
    ("As", "As Ks", "As is both in the trick and in the hand"),
    ("As", "", "the hand is empty"),
])
def test_impossible_questions_say_what_is_wrong(trick, hand, message):
    with pytest.raises(PlayError, match=message):
        legal_cards(FFB, 1, parse_cards(trick), parse_mask(hand))


# --- trick winner and points ------------------------------------------------------------

@pytest.mark.parametrize("trump, trick, winner", [
    ("s", "Ah Th 7s Jh", 2),      # the only trump
    ("s", "Ah Th Kh Jh", 0),      # the ace of the suit led
    ("h", "7s Ah Kd 8s", 1),      # a trump beats the suit led
    ("h", "7s 9h Jh 8h", 2),      # the jack tops the trumps
    ("h", "7s Ad As Kc", 2),      # a discard never wins
    ("sa", "7h Ad Ah 8h", 2),     # no trump: the ace of the suit led
    ("ta", "Ah 9h Jd Th", 1),     # all trump: the nine beats the ace, the jack of diamonds is off-suit
])
def test_trick_winner(trump, trick, winner):
    assert trick_winner(parse_trump(trump), parse_cards(trick)) == winner


def test_card_values_of_each_mode():
    hearts = points_table(parse_trump("h"))
    assert [hearts[parse_card(c)] for c in "Jh 9h Ah Th Kh Qh 8h 7h".split()] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [hearts[parse_card(c)] for c in "As Ts Ks Qs Js 9s 8s 7s".split()] == [11, 10, 4, 3, 2, 0, 0, 0]
    sa = points_table(NO_TRUMP)
    assert [sa[parse_card(c)] for c in "As Ts Ks Qs Js 9s".split()] == [19, 10, 4, 3, 2, 0]
    assert points_table(NO_TRUMP, "plain")[parse_card("As")] == 11
    ta = points_table(ALL_TRUMP)
    assert [ta[parse_card(c)] for c in "Jd 9d Ad Td Kd Qd 8d".split()] == [13, 9, 6, 5, 3, 2, 0]


@pytest.mark.parametrize("text, mode", [("h", 1), ("SA", NO_TRUMP), ("ta", ALL_TRUMP), ("♣", 3)])
def test_trump_modes_read_and_write(text, mode):
    assert parse_trump(text) == mode
    assert trump_name(mode) == text.lower().replace("♣", "c")


# --- violations players read ------------------------------------------------------------

def first_violation(options, trump, leader, hands, plays):
    hand = HandPlay(parse_trump(trump), leader, options, [parse_mask(h) for h in hands])
    found = [v for v in (hand.play(c) for c in parse_cards(plays)) if v is not None]
    return found[0] if found else None


# N E S W; counter-clockwise: N leads, then W, S, E
HANDS = ("As Ks 9h 8h 7d 8d 9d Td",     # N
         "Ts 7h 7c 8c 9c Tc Jc Qc",     # E
         "Qs Js Jh Qh Kh Ah Jd Qd",     # S
         "7s 8s 9s Th Kd Ad Kc Ac")     # W


@pytest.mark.parametrize("leader, plays, rule, seat, message", [
    (NORTH, "As Kd", "must-follow", WEST, "W held ♠7 but did not follow suit: spades were led"),
    (NORTH, "9d Kc", "must-follow", WEST, "W held ♦K but did not follow suit: diamonds were led"),
    (EAST, "7c 7d", "must-trump", NORTH, "N held ♥8 but did not trump: partner was not winning the trick"),
    (NORTH, "8h Th Qh", "must-beat", SOUTH, "S played ♥Q but held ♥J: trumps were led, so a player must beat ♥10"),
])
def test_violation_names_the_rule_and_says_why(leader, plays, rule, seat, message):
    v = first_violation(FFB, "h", leader, HANDS, plays)
    assert (v.rule, v.seat) == (rule, seat)
    assert v.message.startswith(message)
    assert v.card == parse_cards(plays)[-1]


def test_a_violation_carries_what_its_sentence_says_for_other_languages():
    v = first_violation(FFB, "h", NORTH, HANDS, "As Kd")
    assert v.params == (("held", "7s"), ("led", "s"), ("win", "As"), ("partner", False))
    assert v.as_dict()["params"] == {"held": "7s", "led": "s", "win": "As", "partner": False}
    overplayed = HandPlay(parse_trump("h"), NORTH, FFB, [parse_mask(h) for h in HANDS])
    overplayed.play(parse_card("As"))
    not_held = overplayed.play(parse_card("Qs"))                        # S was dealt it, W plays it
    assert not_held.rule == "not-held" and "params" not in not_held.as_dict()   # its card says it all


@pytest.mark.parametrize("trump, hands, recorded, beaten", [
    # N leads the 9, W cannot beat it, S (N's partner) plays the queen with the jack in hand;
    # at trick 2 S shows the jack, so a record without hands proves it too
    ("h", ("9h As Ks Qs Js Ts 9s 8s", "7h 7s 7d 8d 9d Td Jd Qd",
           "Jh Qh Kd Ad 7c 8c 9c Tc", "8h Th Kh Ah Jc Qc Kc Ac"), "9h 8h Qh 7h  As Ah Jh 7s", "♥9"),
    # ta: 001 "all the cards that are played are considered trumps", so the option covers it too
    ("ta", ("9s Ah Kh Qh Jh Th 9h 8h", "7h 7d 8d 9d Td Jd Qd Kd",
            "Js Qs Ad 7c 8c 9c Tc Jc", "7s 8s Ts Ks As Qc Kc Ac"), "9s 8s Qs 7h  Ah Qc Js 7d", "♠9"),
], ids=["suit", "all-trump"])
def test_beating_partner_on_a_trump_lead_is_the_default_and_001_spares_it(trump, hands, recorded, beaten):
    plays = " ".join(recorded.split()[:3])
    v = first_violation(FFB, trump, NORTH, hands, plays)
    assert (v.rule, v.seat, v.card) == ("must-beat", SOUTH, parse_card(plays.split()[-1]))
    assert v.message.endswith(f"so a player must beat even partner's {beaten} when they can")
    assert first_violation(profile("contree"), trump, NORTH, hands, plays).rule == "must-beat"
    assert first_violation(SPARE, trump, NORTH, hands, recorded) is None
    assert [(v.rule, v.seat, v.trick) for v in audit(parse_trump(trump), NORTH, parse_cards(recorded), FFB)] == [
        ("must-beat", SOUTH, 1)]
    assert audit(parse_trump(trump), NORTH, parse_cards(recorded), SPARE) == []


def test_overtrump_violation_and_the_undertrump_choice_of_each_profile():
    # S leads a spade, E (void) trumps with the 9; N, S's partner, is void too and holds the jack
    hands = ("Jh 7h Ad Kd Qd Jd Td 9d",      # N
             "9h 8d 7d Kc Qc Jc Tc 9c",      # E
             "As Ks Qs Js Ts 9s 8s 7s",      # S
             "Ah Th Kh Qh 8h Ac 8c 7c")      # W
    v = first_violation(FFB, "h", SOUTH, hands, "As 9h Ad")
    assert (v.rule, v.seat, v.trick) == ("must-overtrump", NORTH, 1)
    assert v.message == "N held ♥J but did not overtrump: an opponent had trumped with ♥9"
    # N overtrumps with the jack; W cannot beat it: contrée lets W discard, classic wants a trump
    assert first_violation(FFB, "h", SOUTH, hands, "As 9h Jh Ac") is None
    v = first_violation(CLASSIC, "h", SOUTH, hands, "As 9h Jh Ac")
    assert (v.rule, v.seat) == ("must-undertrump", WEST)


def test_undertrump_violation_in_classic():
    # E leads a spade, N trumps with the jack, W (E's partner) cannot follow or overtrump
    hands = ("Jh 7h Ad Kd Qd Jd Td 9d",      # N
             "As Ks Qs Js Ts 9s 8s 7s",      # E
             "9h 8d 7d Kc Qc Jc Tc 9c",      # S
             "Ah Th Kh Qh 8h Ac 8c 7c")      # W
    v = first_violation(CLASSIC, "h", EAST, hands, "As Jh Ac")
    assert (v.rule, v.seat) == ("must-undertrump", WEST)
    assert v.message == ("W held ♥8 but did not trump: an opponent had trumped with ♥J "
                         "and these rules require undertrumping")
    assert first_violation(FFB, "h", EAST, hands, "As Jh Ac") is None


def test_always_undertrump_rule_over_a_partner_who_has_trumped():
    hands = ("As Ks Qs Js Ts 9s 8s 7s",      # N leads spades; order N W S E
             "Jh 9h Ad Kd Qd Jd Td 9d",      # E, W's partner
             "8d 7d Kc Qc Jc Tc 9c 8c",      # S
             "Ah Th 7h Kh Qh 8h Ac 7c")      # W
    assert first_violation(ALWAYS, "h", NORTH, hands, "As Ah 8d 9h") is None   # E overtrumps partner
    assert first_violation(ALWAYS, "h", NORTH, hands, "As 8h 8d Ad") is None   # E could, and discards
    low = ("As Ks Qs Js Ts 9s 8s 7s", "7h 9h Ad Kd Qd Jd Td 9d",
           "8d 7d Kc Qc Jc Tc 9c 8c", "Ah Th Jh Kh Qh 8h Ac 7c")
    v = first_violation(ALWAYS, "h", NORTH, low, "As Jh 8d Ad")                # E cannot beat the jack
    assert (v.rule, v.seat) == ("must-undertrump", EAST)
    assert v.message == "E held ♥7 but did not trump: these rules require undertrumping even on partner's ♥J"
    assert first_violation(CLASSIC, "h", NORTH, low, "As Jh 8d Ad") is None


def test_undertrumping_partner_when_able_to_overtrump_breaks_the_always_rule():
    hands = ("As Ks Qs Js Ts 9s 8s 7s", "Jh 7h Ad Kd Qd Jd Td 9d",
             "8d 7d Kc Qc Jc Tc 9c 8c", "Ah Th 9h Kh Qh 8h Ac 7c")
    v = first_violation(ALWAYS, "h", NORTH, hands, "As Th 8d 7h")
    assert (v.rule, v.seat) == ("must-overtrump", EAST)
    assert v.message.startswith("E played ♥7 under partner's ♥10 while holding ♥J")
    assert first_violation(CLASSIC, "h", NORTH, hands, "As Th 8d 7h") is None


def test_not_held_and_already_played():
    hand = HandPlay(1, NORTH, FFB, [parse_mask(h) for h in HANDS])
    v = hand.play(parse_card("Js"))
    assert (v.rule, v.seat, v.trick) == ("not-held", NORTH, 1)
    assert v.message == "N played ♠J but was not dealt it"
    v = hand.play(parse_card("Js"))
    assert v.rule == "already-played"


# --- the play state ------------------------------------------------------------------------

def test_an_illegal_card_is_recorded_and_the_hand_goes_on():
    hand = HandPlay(1, NORTH, FFB, [parse_mask(h) for h in HANDS])
    hand.play(parse_card("As"))
    assert hand.play(parse_card("Kd")).rule == "must-follow"
    assert hand.trick == parse_cards("As Kd")
    assert hand.to_play == SOUTH
    assert not hand.hand(WEST) >> parse_card("Kd") & 1
    assert hand.winning() == NORTH


def test_turn_order_counter_clockwise_by_default_and_clockwise_as_an_option():
    order = []
    hand = HandPlay(1, NORTH, FFB, [parse_mask(h) for h in HANDS])
    for _ in range(4):
        order.append(SEAT_NAMES[hand.to_play])
        hand.play(min(c for c in range(32) if hand.legal() >> c & 1))
    assert order == ["N", "W", "S", "E"]
    hand = HandPlay(1, NORTH, FFB.replace(clockwise=True), [parse_mask(h) for h in HANDS])
    order = []
    for _ in range(4):
        order.append(SEAT_NAMES[hand.to_play])
        hand.play(min(c for c in range(32) if hand.legal() >> c & 1))
    assert order == ["N", "E", "S", "W"]


def test_the_winner_leads_and_collects_points_and_dix_de_der():
    # N holds every heart (trump): N wins all eight tricks, NS are capot
    hands = [parse_mask(h) for h in ("7h 8h 9h Th Jh Qh Kh Ah", "7s 8s 9s Ts Js Qs Ks As",
                                     "7d 8d 9d Td Jd Qd Kd Ad", "7c 8c 9c Tc Jc Qc Kc Ac")]
    hand = HandPlay(1, WEST, FFB, hands)
    while not hand.done:
        assert hand.play(min(c for c in range(32) if hand.legal() >> c & 1)) is None
    assert hand.winners[1:] == [NORTH] * 7
    assert hand.tricks_won == (8, 0)
    assert hand.card_points == (162, 0)
    assert hand.capot == 0


def test_a_zero_point_trick_is_enough_to_escape_capot():
    # recorded without hands: only the tally is tested here (N W S E counter-clockwise)
    plays = ("7s 8s 7d 7c "          # N leads; W wins with 8s: no points for EW
             "9s As Js Qs "          # W leads; S wins
             "Jh 7h 8h Ks  9h Ts Qh Kh  Ah 8d Th 9d  Ad Jd Qd Kd  Ac 8c 9c Tc  Kc Jc Qc Td")
    hand = HandPlay(1, NORTH, FFB)
    for card in parse_cards(plays):
        assert hand.play(card) is None
    assert hand.done
    assert hand.tricks_won == (7, 1)
    assert hand.card_points == (162, 0)
    assert hand.capot is None


def test_a_finished_hand_refuses_more_cards_and_legal_needs_hands():
    hand = HandPlay(NO_TRUMP, NORTH, FFB)
    with pytest.raises(PlayError, match="need the players' hands"):
        hand.legal()
    for card in range(32):
        hand.play(card)
    with pytest.raises(PlayError, match="the hand is over"):
        hand.play(0)


def test_hands_dealt_twice_are_refused():
    with pytest.raises(PlayError, match="As is dealt to two players"):
        HandPlay(1, NORTH, FFB, [parse_mask("As Ks"), parse_mask("As"), 0, 0])


def test_copy_is_independent():
    hand = HandPlay(1, NORTH, FFB, [parse_mask(h) for h in HANDS])
    hand.play(parse_card("As"))
    other = hand.copy()
    other.play(parse_card("7s"))
    assert hand.trick == parse_cards("As") and other.trick == parse_cards("As 7s")
    assert hand.hand(WEST) >> parse_card("7s") & 1


# --- audit of a hand recorded without hands -----------------------------------------------------

def test_audit_finds_a_revoke_from_the_cards_played_later():
    # W discards Kc on a spade lead, then plays 7s at trick 2: W held a spade
    plays = parse_cards("As Kc Qs Ts  Ks 7s Js 7h")
    v, = audit(1, NORTH, plays, FFB)
    assert (v.rule, v.seat, v.trick, v.card) == ("must-follow", WEST, 1, parse_card("Kc"))
    assert v.message.endswith("(the cards played later show it)")


def test_audit_does_not_accuse_on_an_unfinished_hand_when_unseen_cards_could_excuse():
    # always-undertrump: E discards Ad over partner W's trump, and later plays 7h: E held a trump.
    # Had E also held a higher one (never seen: the hand stops after two tricks), discarding was allowed.
    plays = parse_cards("As Th 8d Ad  Qh Kc 7h Ks")
    assert audit(1, NORTH, plays, ALWAYS) == []
    # with E's whole hand known, and no higher trump in it, the discard is a violation
    full = HandPlay(1, NORTH, ALWAYS, [parse_mask(h) for h in (
        "As Ks Qs Js Ts 9s 8s 7s", "Ad 7h Kd Qd Jd Td 9d 7d",
        "8d Kc Qc Jc Tc 9c 8c 7c", "Ah Th 9h Kh Qh 8h Jh Ac")])
    assert [v.rule for v in (full.play(c) for c in plays[:4]) if v] == ["must-undertrump"]


def test_audit_of_too_many_plays_is_refused():
    with pytest.raises(PlayError, match="a hand has 32"):
        audit(1, NORTH, list(range(32)) + [0])


def test_audit_follows_the_direction_of_play_and_reports_a_card_played_twice():
    # clockwise, N leads: N E S W. E discards Kc on spades, then shows a spade at trick 2.
    plays = parse_cards("As Kc Qs Ts  Ks 7s Js 8s")
    clockwise = FFB.replace(clockwise=True)
    v, = audit(1, NORTH, plays, clockwise)
    assert (v.rule, v.seat, v.trick) == ("must-follow", EAST, 1)
    assert audit(1, NORTH, plays, FFB)[0].seat == WEST      # the same cards, counter-clockwise: W's
    twice = audit(1, NORTH, parse_cards("As 7s Ks As"), FFB)
    assert [(v.rule, v.seat, v.trick) for v in twice] == [("already-played", EAST, 1)]


def test_a_play_violation_has_the_shape_of_check_json():
    v = first_violation(FFB, "h", EAST, HANDS, "7c 7d")
    assert v.as_dict() == {"trick": 1, "seat": "N", "card": "7d", "rule": "must-trump",
                           "message": "N held ♥8 but did not trump: partner was not winning the trick",
                           "params": {"held": "8h", "led": "c", "win": "7c", "partner": False}}
