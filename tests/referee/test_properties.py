"""Properties of scoring and replay that must hold for every game (hypothesis)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.auction import Contract
from referee.cards import iter_cards
from referee.demo import play_demo_game
from referee.game import Game
from referee.play import HandPlay
from referee.record import RecordError
from referee.rules import PROFILES, profile
from referee.scoring import score_hand

PROFILE_NAMES = sorted(PROFILES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_hand(rng: random.Random, mode: int, leader: int) -> HandPlay:
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * s:8 * s + 8]) for s in range(4)]
    play = HandPlay(mode, leader, profile("ffb-contree"), hands)
    while not play.done:
        play.play(rng.choice(list(iter_cards(play.legal()))))
    return play


@settings(max_examples=150, deadline=None)
@given(seed=seeds, mode=st.integers(0, 5), rules=st.sampled_from(PROFILE_NAMES), counter=st.sampled_from([1, 2, 4]),
       value=st.sampled_from([80, 100, 120, 160, None]), taker=st.integers(0, 3))
def test_card_points_total_162_or_252_on_a_capot_and_scores_are_deterministic(seed, mode, rules, counter, value,
                                                                               taker):
    rng = random.Random(seed)
    play = random_hand(rng, mode, rng.randrange(4))
    options = profile(rules)
    contract = Contract(taker, mode, value, value is None and options.auction == "contree", counter, "x")
    one = score_hand(options, contract, play.card_points, play.tricks_won, (0, 0))
    two = score_hand(options, contract, play.card_points, play.tricks_won, (0, 0))
    assert one == two
    assert sum(one.card_points) == (252 if one.capot else 162)
    assert one.capot == (8 in play.tricks_won)
    assert min(one.score) >= 0 and min(one.held) >= 0
    if one.result == "failed":
        assert one.score[contract.team] == 0              # no belote, no declarations here


@settings(max_examples=150, deadline=None)
@given(rules=st.sampled_from(PROFILE_NAMES), value=st.sampled_from([80, 90, 110, 130, 160]),
       points=st.integers(0, 162), belote=st.sampled_from([(0, 0), (20, 0), (0, 20)]),
       counter=st.sampled_from([1, 2, 4]))
def test_more_card_points_never_cost_the_takers(rules, value, points, belote, counter):
    """The takers' score never goes down when they take more card points (rounding included)."""
    options = profile(rules)
    contract = Contract(0, 1, value if options.auction == "contree" else None, False, counter, "x")

    def takers(p):
        return score_hand(options, contract, (p, 162 - p), (4, 4), belote).score[0]

    assert takers(points) <= takers(min(points + 1, 162))


@settings(max_examples=25, deadline=None)
@given(seed=seeds, rules=st.sampled_from(PROFILE_NAMES))
def test_replaying_a_record_twice_gives_the_same_game(seed, rules):
    events = play_demo_game(seed=seed, rules=rules, max_hands=3, violation_rate=0.05)
    assert play_demo_game(seed=seed, rules=rules, max_hands=3, violation_rate=0.05) == events
    first, second = Game.from_events(events), Game.from_events(events)
    assert first.summary() == second.summary() and first.to_json() == second.to_json()
    assert first.totals == tuple(sum(r.score[t] for r in first.results) for t in (0, 1))
    assert json.loads(json.dumps(first.to_json())) == first.to_json()      # screens get plain JSON


@settings(max_examples=25, deadline=None)
@given(seed=seeds, pick=st.integers(min_value=1))
def test_undo_then_redo_of_any_event_restores_the_game(seed, pick):
    events = play_demo_game(seed=seed, rules="ffb-contree", max_hands=2, violation_rate=0.05)
    game = Game.from_events(events)
    expected = game.summary()
    ref = 2 + pick % (len(events) - 1)
    try:
        game.apply({"type": "correction", "ref": ref, "reason": "undo", "replace": None})
    except RecordError:
        assert game.summary() == expected                  # refused: nothing changed
        return
    game.apply({"type": "correction", "ref": ref, "reason": "redo", "replace": events[ref - 1]})
    assert game.summary() == expected


CALL_TEXTS = (["pass", "counter", "recounter", "take", "takes", "takeh", "taked", "takec"]
              + [f"{v}{m}" for v in range(70, 180, 10) for m in ("s", "h", "d", "c", "sa", "ta")]
              + [f"capot{m}" for m in ("s", "h", "d", "c", "sa", "ta")] + ["85h"])


@settings(max_examples=200, deadline=None)
@given(rules=st.sampled_from(PROFILE_NAMES), dealer=st.integers(0, 3),
       attempts=st.lists(st.tuples(st.integers(0, 3), st.sampled_from(CALL_TEXTS)), max_size=60))
def test_an_auction_accepts_exactly_the_calls_it_lists_as_legal(rules, dealer, attempts):
    from referee.auction import Auction
    options = profile(rules)
    auction = Auction(options, dealer, turned=5 if options.auction == "classic" else None)
    for seat, call in attempts:
        legal = auction.legal_calls()
        expected_ok = not auction.done and seat == auction.to_speak and call in legal
        before = (auction.to_speak, list(auction.calls), auction.done)
        found = auction.apply(seat, call)
        assert (found == []) == expected_ok, (seat, call, legal)
        if found:
            assert (auction.to_speak, auction.calls, auction.done) == before   # nothing changed
            assert len(found) == 1 and found[0].call == call and found[0].rule
    if auction.done and auction.contract:
        assert auction.contract.counter in (1, options.counter_multiplier, options.recounter_multiplier)


seat_text = st.sampled_from(["N", "E", "S", "W", "X", "", "n"])
card_text = st.sampled_from(["Jh", "7s", "As", "10d", "Qc", "Kh", "2h", "", "JJ", "♥A"])
junk = st.one_of(st.none(), st.integers(-3, 40), st.text(max_size=4), st.booleans())
events = st.one_of(
    st.fixed_dictionaries({"type": st.just("deal"), "dealer": st.one_of(seat_text, junk)},
                          optional={"turned": card_text,
                                    "hands": st.dictionaries(seat_text, st.lists(card_text, max_size=9), max_size=4)}),
    st.fixed_dictionaries({"type": st.just("call"), "seat": seat_text,
                           "call": st.sampled_from(CALL_TEXTS + ["", "80", "double", "capotx"])}),
    st.fixed_dictionaries({"type": st.just("play"), "seat": seat_text, "card": st.one_of(card_text, junk)},
                          optional={"say": st.sampled_from(["belote", "rebelote", "hello"])}),
    st.fixed_dictionaries({"type": st.just("declare"), "seat": seat_text,
                           "cards": st.lists(card_text, max_size=5)}),
    st.fixed_dictionaries({"type": st.sampled_from(["correction"]), "ref": st.one_of(st.integers(-2, 80), junk),
                           "replace": st.one_of(st.none(), st.fixed_dictionaries(
                               {"type": st.just("play"), "seat": seat_text, "card": card_text}))}),
    st.fixed_dictionaries({"type": st.sampled_from(["penalty", "stop", "game", "nonsense"]), "seat": seat_text}),
)


@settings(max_examples=150, deadline=None)
@given(seed=seeds, noise=st.lists(st.tuples(st.integers(0, 400), events), max_size=6))
def test_garbage_events_are_record_errors_or_violations_never_crashes(seed, noise):
    """Whatever arrives, the game either takes it (with its violations) or refuses it with a
    RecordError, and a refused event leaves the game as it was."""
    real = play_demo_game(seed=seed, rules="coinche", max_hands=2, violation_rate=0.05)
    game = Game(real[0])
    inserted = {at % len(real): event for at, event in noise}
    for i, event in enumerate(real[1:], 1):
        for candidate in ([inserted[i]] if i in inserted else []) + [event]:
            before = game.to_json()
            try:
                game.apply(candidate)
            except RecordError:
                assert game.to_json() == before
