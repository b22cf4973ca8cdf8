"""Properties of the play engine over random deals, rules and lines of play (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import RANKS, iter_cards
from referee.play import HandPlay, audit, legal_cards
from referee.rules import PROFILES, profile
from referee.trump_tables import ALL_TRUMP, NO_TRUMP

TRUMP_ORDER = "78QKTA9J"        # weakest first, written from the rulebooks, not from referee.trump_tables
PLAIN_ORDER = "789JQKTA"
PLAY_RULES = {"must-follow", "must-trump", "must-overtrump", "must-undertrump", "must-beat"}


def strength(card: int, mode: int, led_suit: int) -> tuple[int, int]:
    """(class, order): trumps above the suit led above the rest; a naive second opinion."""
    suit, rank = card >> 3, RANKS[card & 7]
    if mode == ALL_TRUMP:
        return (1 if suit == led_suit else 0), TRUMP_ORDER.index(rank)
    if mode < 4 and suit == mode:
        return 2, TRUMP_ORDER.index(rank)
    return (1 if suit == led_suit else 0), PLAIN_ORDER.index(rank)


def naive_legal(hand: list[int], trick: list[int], mode: int, options) -> set[int]:
    """The rules read once more, with lists and the naive ranking: a second opinion that,
    unlike the peers of the differential tests, covers every option."""
    if not trick:
        return set(hand)
    led = trick[0] >> 3
    rank = [strength(c, mode, led) for c in trick]
    position = rank.index(max(rank))
    win = trick[position]
    partner_wins = len(trick) >= 2 and position == len(trick) - 2
    same = [c for c in hand if c >> 3 == led]
    higher = [c for c in hand if strength(c, mode, led) > strength(win, mode, led)]
    if mode == NO_TRUMP or (mode == ALL_TRUMP and not options.all_trump_must_beat):
        return set(same or hand)
    if mode == ALL_TRUMP or led == mode:             # a trump led (in ta every card is one, 001)
        if partner_wins and not options.beat_partner_on_trump_lead:
            return set(same or hand)                 # 001: "unless ... their partner is currently winning"
        return set([c for c in same if c in higher] or same or hand)
    if same:
        return set(same)
    trumps = [c for c in hand if c >> 3 == mode]
    if not trumps:
        return set(hand)
    over = [c for c in trumps if c in higher]
    trumped = win >> 3 == mode
    if partner_wins:
        if options.undertrump == "always" and trumped:
            return set(over + [c for c in hand if c >> 3 != mode]) if over else set(trumps)
        return set(hand)
    if over:
        return set(over)
    return set(hand) if trumped and options.undertrump == "discard" else set(trumps)


options_st = st.builds(
    lambda name, undertrump, must_beat, beat_partner, clockwise, values: profile(
        name, undertrump=undertrump, all_trump_must_beat=must_beat, beat_partner_on_trump_lead=beat_partner,
        clockwise=clockwise, no_trump_values=values),
    st.sampled_from(sorted(PROFILES)), st.sampled_from(["discard", "must", "always"]), st.booleans(),
    st.booleans(), st.booleans(), st.sampled_from(["001", "plain"]))
deal_st = st.permutations(range(32)).map(lambda d: [sum(1 << c for c in d[8 * i:8 * i + 8]) for i in range(4)])
choices_st = st.lists(st.integers(0, 7), min_size=32, max_size=32)


def play_out(hands, mode, leader, options, choices, legal_only=True):
    """Play a whole hand, card i chosen by choices[i] among the legal cards (or the whole hand)."""
    hand = HandPlay(mode, leader, options, hands)
    plays, violations = [], []
    for choice in choices:
        assert hand.legal(), "no legal card"          # also after illegal plays: the hand goes on
        pool = hand.legal() if legal_only else hand.hand(hand.to_play)
        cards = list(iter_cards(pool))
        card = cards[choice % len(cards)]
        plays.append(card)
        violations.append(hand.play(card))
    return hand, plays, violations


@settings(max_examples=300, deadline=None)
@given(deal_st, st.integers(0, 5), st.integers(0, 3), options_st, choices_st)
def test_legal_play_is_never_a_violation_and_a_legal_card_always_exists(hands, mode, leader, options, choices):
    hand = HandPlay(mode, leader, options, hands)
    for choice in choices:
        legal = hand.legal()
        held = hand.hand(hand.to_play)
        assert legal and legal & ~held == 0
        # the one-shot function agrees with the play state, and a naive reading of the rules with both
        assert legal_cards(options, mode, hand.trick, held) == legal
        assert set(iter_cards(legal)) == naive_legal(list(iter_cards(held)), hand.trick, mode, options)
        cards = list(iter_cards(legal))
        assert hand.play(cards[choice % len(cards)]) is None
    assert hand.done


@settings(max_examples=300, deadline=None)
@given(deal_st, st.integers(0, 5), st.integers(0, 3), options_st, choices_st)
def test_trick_winners_points_and_capot(hands, mode, leader, options, choices):
    hand, _, _ = play_out(hands, mode, leader, options, choices)
    for trick in hand.tricks:
        led = trick.cards[0] >> 3
        position = [(trick.leader + i * (1 if options.clockwise else 3)) & 3 for i in range(4)].index(trick.winner)
        best = strength(trick.cards[position], mode, led)
        assert all(strength(c, mode, led) <= best for c in trick.cards)
    total = 130 if mode == NO_TRUMP and options.no_trump_values == "plain" else 162
    assert sum(hand.card_points) == total
    assert sum(hand.tricks_won) == 8
    assert (hand.capot is not None) == (8 in hand.tricks_won)
    assert hand.card_points[hand.winners[-1] & 1] >= options.dix_de_der


@settings(max_examples=200, deadline=None)
@given(deal_st, st.integers(0, 5), st.integers(0, 3), options_st, choices_st)
def test_replaying_the_same_plays_gives_the_same_state(hands, mode, leader, options, choices):
    first, plays, violations = play_out(hands, mode, leader, options, choices, legal_only=False)
    again = HandPlay(mode, leader, options, hands)
    assert [again.play(c) for c in plays] == violations
    assert (again.tricks, again.card_points, again.tricks_won, again.capot) == (
        first.tricks, first.card_points, first.tricks_won, first.capot)


@settings(max_examples=300, deadline=None)
@given(deal_st, st.integers(0, 5), st.integers(0, 3), options_st, choices_st)
def test_audit_without_hands_finds_exactly_the_violations_seen_with_hands(hands, mode, leader, options, choices):
    _, plays, violations = play_out(hands, mode, leader, options, choices, legal_only=False)
    seen = [(v.rule, v.seat, v.trick, v.card) for v in violations if v is not None]
    assert {rule for rule, *_ in seen} <= PLAY_RULES
    found = [(v.rule, v.seat, v.trick, v.card) for v in audit(mode, leader, plays, options)]
    assert found == seen
