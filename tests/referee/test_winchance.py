"""Win chance from the public view (``referee/winchance.py``).

The facts drawn from the plays must hold for the real deal (they are facts); the
draws must be uniform over the deals that fit them (counted exactly against a brute
force on small cases); the chance is deterministic for a seed and certain where the
hand is decided.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from referee.cards import iter_cards
from referee.demo import play_demo_game
from referee.game import Game
from referee.winchance import WinChanceError, _replay, _Sampler, public_view, win_chance

PROFILES = ("ffb-contree", "classic", "coinche")


def _hands_in_play(rules: str, games: int, seed: int = 0, violation_rate: float = 0.0):
    """(events up to a cut, the real hands held at the cut) for each full hand of seeded games."""
    rng = random.Random(seed)
    for g in range(games):
        events = play_demo_game(seed=seed * 1000 + g, rules=rules, max_hands=3, violation_rate=violation_rate)
        starts = [i for i, e in enumerate(events) if e["type"] == "deal"] + [len(events)]
        for a, b in zip(starts, starts[1:]):
            plays = [i for i in range(a, b) if events[i]["type"] == "play"]
            if len(plays) < 32:
                continue
            cut = plays[rng.randrange(0, 31)]
            game = Game.from_events(events[:cut])
            if game.play is None:
                continue
            yield events[:cut], [game.play.hand(s) for s in range(4)]


@pytest.mark.parametrize("rules", PROFILES)
def test_the_facts_hold_for_the_real_deal(rules):
    """Whatever the public view says must be held is held, what it says can't be held isn't,
    and the real deal is among those the sampler counts."""
    seen = 0
    for events, real in _hands_in_play(rules, 25, seed=1):
        view = public_view(events)
        for seat in range(4):
            assert view.held[seat] & ~real[seat] == 0, (seat, view.held, real)
            assert view.forbidden[seat] & real[seat] == 0, (seat, view.forbidden, real)
            assert view.counts[seat] == real[seat].bit_count()
        assert _Sampler(view, 0).total() > 0
        seen += 1
    assert seen > 40


def test_voids_shown_are_known():
    # a player who did not follow suit holds no card of it afterwards, in every draw
    for events, _ in _hands_in_play("ffb-contree", 20, seed=2):
        view = public_view(events)
        sampler = _Sampler(view, view.taker_trumps)
        if not sampler.total():
            sampler = _Sampler(view, 0)
        rng = random.Random(0)
        for _ in range(20):
            hands = sampler.draw(rng)
            for seat in range(4):
                assert hands[seat] & view.forbidden[seat] == 0
                assert hands[seat] & view.held[seat] == view.held[seat]
                assert hands[seat].bit_count() == view.counts[seat]
            assert _replay(view, hands) is not None     # every card played stays legal


def test_draws_are_uniform_over_the_deals_that_fit():
    """Late in a hand, every deal that fits the facts is listed by brute force: the sampler
    counts the same number and draws each about equally often."""
    checked = 0
    for events, _ in _hands_in_play("classic", 40, seed=3):
        view = public_view(events, taker_trumps=0)
        hidden = list(iter_cards(view.hidden))
        if not 6 <= len(hidden) <= 8:
            continue
        fits = set()
        seats = [s for s in range(4) for _ in range(view.counts[s])]
        for order in set(itertools.permutations(seats)):
            hands = [0, 0, 0, 0]
            for card, seat in zip(hidden, order):
                hands[seat] |= 1 << card
            if all(hands[s] & view.forbidden[s] == 0 and hands[s] & view.held[s] == view.held[s] for s in range(4)):
                fits.add(tuple(hands))
        sampler = _Sampler(view, 0)
        assert sampler.total() == len(fits)
        if len(fits) < 4:
            continue
        rng = random.Random(1)
        draws = 300 * len(fits)
        counts = Counter(tuple(sampler.draw(rng)) for _ in range(draws))
        assert set(counts) == fits
        expected = draws / len(fits)
        chi2 = sum((counts[f] - expected) ** 2 / expected for f in fits)
        assert chi2 < len(fits) + 6 * (2 * len(fits)) ** 0.5, (chi2, len(fits))   # mean + 6 sd
        checked += 1
        if checked == 5:
            break
    assert checked >= 3


def test_the_chance_is_deterministic_for_a_seed_and_certain_at_the_end():
    for events, _ in list(_hands_in_play("ffb-contree", 6, seed=4))[:6]:
        a = win_chance(events, 30, seed=7)
        b = win_chance(events, 30, seed=7)
        assert a == b
        assert 0.0 <= a.chance <= 1.0 and a.worlds == 30
    # after the 31st card the deal is known from the public view: the chance is 0 or 1 and right
    for events in _records("ffb-contree", 3, seed=5):
        plays = [i for i, e in enumerate(events) if e["type"] == "play"]
        game = Game.from_events(events)
        result = game.results[0]
        if result.contract is None or len(plays) < 32:
            continue
        last_play = plays[31]
        chance = win_chance(events[:last_play], 5, seed=1)
        assert chance.chance == (1.0 if result.result == "made" else 0.0), (result.result, chance)


def _records(rules: str, count: int, seed: int):
    for g in range(count * 3):
        events = play_demo_game(seed=seed * 100 + g, rules=rules, max_hands=1, violation_rate=0.0)
        if any(e["type"] == "play" for e in events):
            yield events
            count -= 1
            if not count:
                return


def test_the_auction_promise_is_kept_or_dropped_when_play_contradicts_it():
    for events, real in _hands_in_play("ffb-contree", 10, seed=6):
        view = public_view(events)
        assert view.taker_trumps == 3
        result = win_chance(events, 10, seed=2)
        assert result.promise in (0, 3)
        if result.promise == 3:
            sampler = _Sampler(view, 3)
            rng = random.Random(3)
            trumps = 0xFF << 8 * view.contract.mode
            for _ in range(10):
                hands = sampler.draw(rng)
                dealt = hands[view.contract.taker] | sum(1 << c for s, c in view.plays if s == view.contract.taker)
                assert (dealt & trumps).bit_count() >= 3


def test_a_record_with_no_hand_in_play_is_refused():
    events = play_demo_game(seed=1, rules="ffb-contree", max_hands=1, violation_rate=0.0)
    with pytest.raises(WinChanceError, match="no contract is being played"):
        win_chance(events, 10)
    with pytest.raises(WinChanceError, match="no deal"):
        win_chance(events[:1], 10)
