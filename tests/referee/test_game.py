"""A whole game replayed from its record: hands, belote, declarations, corrections,
penalties, records without hands, and the errors that name what is wrong."""

import copy

import pytest

from referee.cards import card_name, iter_cards, parse_card
from referee.demo import play_demo_game
from referee.game import Game
from referee.record import RecordError

HEADER = {"type": "game", "version": 1, "rules": "ffb-contree"}


def clean_game(seed=5, rules="ffb-contree", hands=3, **kw):
    return play_demo_game(seed=seed, rules=rules, max_hands=hands, violation_rate=0.0, **kw)


def first_hand_with(events, predicate):
    """(index of the deal, index of the first play) of the first played hand matching predicate."""
    for i, e in enumerate(events):
        if e["type"] == "deal" and e.get("hands") and predicate(e):
            for j in range(i + 1, len(events)):
                if events[j]["type"] == "play":
                    return i, j
    raise AssertionError("no such hand in the sample")


def test_replaying_the_same_record_gives_the_same_game():
    events = play_demo_game(seed=11, rules="coinche")
    a, b = Game.from_events(events), Game.from_events(copy.deepcopy(events))
    assert a.summary() == b.summary() and a.to_json() == b.to_json()
    assert a.over and a.winner in (0, 1) and max(a.totals) >= 1000


def test_each_finished_hand_has_the_design_shape():
    game = Game.from_events(clean_game())
    hand = game.summary()["hands"][0]
    assert set(hand) == {"number", "dealer", "contract", "card_points", "score", "result", "capot", "violations"}
    assert hand["number"] == 1 and hand["result"] in ("made", "failed", "litige", "all-pass")
    if hand["contract"]:
        assert sum(hand["card_points"].values()) in (162, 252)


def test_a_play_out_of_turn_is_a_violation_and_the_card_goes_back():
    events = clean_game()
    _, j = first_hand_with(events, lambda e: True)
    game = Game.from_events(events[:j])
    wrong = "NESW"[(game.play.to_play + 2) & 3]
    card = card_name(next(iter_cards(game.play.hand("NESW".index(wrong)))))
    found = game.apply({"type": "play", "seat": wrong, "card": card})
    assert [v.rule for v in found] == ["out-of-turn"] and game.play.trick == []
    assert found[0].params == (("turn", "NESW"[game.play.to_play]),)   # whose turn it was, for other languages


def test_events_out_of_place_are_record_errors_and_change_nothing():
    events = clean_game()
    i, j = first_hand_with(events, lambda e: True)
    game = Game.from_events(events[:i + 1])                       # the auction is on
    with pytest.raises(RecordError, match="auction is not over"):
        game.apply({"type": "play", "seat": "N", "card": "7s"})
    game = Game.from_events(events[:j + 1])
    before = game.to_json()
    with pytest.raises(RecordError, match="still at trick 1"):
        game.apply({"type": "deal", "dealer": "E"})
    with pytest.raises(RecordError, match="is not a Belote card"):
        game.apply({"type": "play", "seat": "N", "card": "2s"})
    assert game.to_json() == before


def test_a_correction_replaces_a_misread_card_and_an_undo_removes_an_event():
    events = clean_game()
    _, j = first_hand_with(events, lambda e: True)
    game = Game.from_events(events[:j + 1])
    seat = events[j]["seat"]
    held = [card_name(c) for c in iter_cards(game.play.hand("NESW".index(seat)))]
    # The camera misread the lead: the referee corrects event j+1 (1-based) to another card of that hand.
    fixed = {"type": "play", "seat": seat, "card": held[0]}
    assert game.apply({"type": "correction", "ref": j + 1, "reason": "misread", "replace": fixed}) == []
    assert game.play.trick == [parse_card(held[0])]
    # Undo it: the lead is gone, the same player is to play again.
    game.apply({"type": "correction", "ref": j + 1, "reason": "undo", "replace": None})
    assert game.play.trick == [] and "NESW"[game.play.to_play] == seat
    assert len(game.events) == j + 3                            # every event is kept, corrections too


def test_a_correction_that_does_not_fit_is_refused_and_the_game_is_unchanged():
    events = clean_game()
    _, j = first_hand_with(events, lambda e: True)
    game = Game.from_events(events[:j + 2])
    before = game.to_json()
    with pytest.raises(RecordError, match="no such game event"):
        game.apply({"type": "correction", "ref": 999, "reason": "x", "replace": None})
    # Undoing the call that ended the auction would leave the plays during the auction.
    with pytest.raises(RecordError, match="correction of event .*no longer fits.*auction is not over"):
        game.apply({"type": "correction", "ref": j, "reason": "x", "replace": None})
    assert game.to_json() == before


def test_a_correction_of_an_earlier_hand_rescores_the_game():
    for seed in range(60):
        events = clean_game(seed=seed, hands=2)
        said = [i for i, e in enumerate(events) if e.get("say") == "rebelote"]
        if said:
            break
    game = Game.from_events(events)
    before = [r.score for r in game.results]
    at = said[0]
    unsaid = {k: v for k, v in events[at].items() if k != "say"}
    game.apply({"type": "correction", "ref": at + 1, "reason": "rebelote was not said", "replace": unsaid})
    after = [r.score for r in game.results]
    assert after != before and sum(map(sum, before)) - sum(map(sum, after)) == 20


def test_belote_must_be_said_in_ffb_contree_and_need_not_be_in_classic():
    for seed in range(40):
        events = clean_game(seed=seed, hands=4)
        says = [e for e in events if e.get("say")]
        if says:
            break
    with_say = Game.from_events(events).results
    silent = [dict(e, say=None) if e.get("say") else e for e in events]
    silent = [{k: v for k, v in e.items() if v is not None} for e in silent]
    without = Game.from_events(silent).results
    assert sum(sum(r.belote) for r in with_say) > 0
    assert sum(sum(r.belote) for r in without) == 0
    relaxed = [dict(silent[0], options={"belote_must_say": False})] + silent[1:]
    assert [r.belote for r in Game.from_events(relaxed).results] == [r.belote for r in with_say]


def test_saying_belote_without_the_pair_is_a_violation():
    events = clean_game()
    _, j = first_hand_with(events, lambda e: True)
    game = Game.from_events(events[:j])
    card = parse_card(events[j]["card"])
    assert not ((card & 7) in (5, 6) and (card >> 3) == game.play.trump)   # the lead is no trump K or Q
    (v,) = game.apply(dict(events[j], say="belote"))
    assert v.rule == "belote-not-held" and dict(v.params) == {"reason": "pair", "say": "belote"}
    assert v.message.endswith(": belote is the king and queen of trumps")     # English unchanged


def test_a_record_without_hands_is_checked_from_the_cards_played():
    # A game with planted illegal plays, then the same record without the hands.
    events = play_demo_game(seed=3, rules="ffb-contree", max_hands=6, violation_rate=0.1)
    known = Game.from_events(events)
    blind = [{k: v for k, v in e.items() if k != "hands"} for e in events]
    unknown = Game.from_events(blind)
    ours = [(v.rule, v.seat, v.card, v.trick) for r in unknown.results for v in r.violations]
    truth = [(v.rule, v.seat, v.card, v.trick) for r in known.results for v in r.violations]
    assert ours and set(ours) <= set(truth)              # never accuse on missing evidence
    assert [r.score for r in unknown.results] == [r.score for r in known.results]


def test_a_penalty_gives_the_hand_to_the_other_side():
    events = clean_game()
    i, j = first_hand_with(events, lambda e: True)
    game = Game.from_events(events[:j])
    taker = game.contract.taker
    defender = "NESW"[(taker + 1) & 3]
    game.apply({"type": "penalty", "seat": defender, "reason": "revoke at trick 1"})
    for e in events[j:]:
        game.apply(e)
        if game.results and game.results[-1].number == 1:
            break
    r = game.results[0]
    assert r.result == "made" and r.penalty == (taker + 1) & 3
    assert r.score[(taker + 1) & 1] == 0 and r.score[taker & 1] >= 162


def test_the_hand_lost_penalty_option_applies_itself_to_an_illegal_play():
    events = play_demo_game(seed=3, rules="ffb-contree", max_hands=6, violation_rate=0.1,
                            options={"play_violation_penalty": "hand-lost"})
    penalised = 0
    for r in Game.from_events(events).results:
        plays = [v for v in r.violations if v.rule.startswith("must-")]
        assert r.penalty == (plays[0].seat if plays else None)
        if plays:
            penalised += 1
            guilty = plays[0].seat & 1
            assert r.score[guilty] == sum(r.belote[guilty:guilty + 1]) and r.score[1 - guilty] >= 160
    assert penalised


def test_declarations_in_classic_score_for_the_best_side_only():
    events = clean_game(seed=2, rules="classic", hands=10)
    game = Game.from_events(events)
    scored = [r for r in game.results if any(r.declarations)]
    assert scored and all(0 in r.declarations for r in scored)


def test_declarations_are_refused_where_the_profile_has_none_and_after_the_first_trick():
    events = clean_game()
    _, j = first_hand_with(events, lambda e: True)
    game = Game.from_events(events[:j])
    found = game.apply({"type": "declare", "seat": "NESW"[game.play.to_play], "cards": ["7s", "8s", "9s"]})
    assert [v.rule for v in found] == ["declaration-not-allowed"]


def test_an_invalid_or_unheld_declaration_is_a_violation():
    events = clean_game(seed=2, rules="classic", hands=10)
    _, j = first_hand_with(events, lambda e: True)
    game = Game.from_events([e for e in events[:j] if e["type"] != "declare"])
    seat = "NESW"[game.play.to_play]
    (v,) = game.apply({"type": "declare", "seat": seat, "cards": ["7s", "9s", "Ts"]})
    assert (v.rule, dict(v.params)) == ("declaration-invalid", {"reason": "shape"})   # a French page words it
    others = set(range(32)) - set(iter_cards(game.play.hand("NESW".index(seat))))
    foreign = sorted(others)[:1]
    square_rank = None
    for rank in range(2, 8):
        if any(s * 8 + rank in others for s in range(4)):
            square_rank = rank
            break
    cards = [card_name(s * 8 + square_rank) for s in range(4)]
    assert foreign and [(v.rule, dict(v.params)) for v in game.apply({"type": "declare", "seat": seat,
                                                                       "cards": cards})] \
        == [("declaration-not-held", {"reason": "dealt"})]


def test_the_next_deal_by_the_wrong_dealer_is_flagged():
    game = Game(HEADER)
    game.apply({"type": "deal", "dealer": "N"})
    for seat in "WSEN":
        game.apply({"type": "call", "seat": seat, "call": "pass"})
    found = game.apply({"type": "deal", "dealer": "E"})
    assert [v.rule for v in found] == ["wrong-dealer"]
    assert dict(found[0].params) == {"hand": 2, "turn": "W"}


def test_the_same_dealer_redeals_after_all_pass_with_002s_option():
    game = Game(dict(HEADER, options={"redeal_same_dealer": True}))
    game.apply({"type": "deal", "dealer": "N"})
    for seat in "WSEN":
        game.apply({"type": "call", "seat": seat, "call": "pass"})
    assert game.next_dealer == 0 and game.apply({"type": "deal", "dealer": "N"}) == []


def test_after_the_game_is_won_a_new_deal_is_an_error():
    events = play_demo_game(seed=11, rules="ffb-contree")
    game = Game.from_events(events)
    assert game.over and game.phase == "over"
    with pytest.raises(RecordError, match="the game is over"):
        game.apply({"type": "deal", "dealer": "N"})


def test_to_json_keeps_the_hands_apart_for_feeds_to_filter():
    events = clean_game()
    _, j = first_hand_with(events, lambda e: True)
    state = Game.from_events(events[:j + 1]).to_json()
    assert state["phase"] == "play" and len(state["trick"]) == 1
    assert sum(len(cards) for cards in state["private"]["hands"].values()) == 31


def test_bad_rules_in_the_header_name_line_one():
    with pytest.raises(RecordError, match="unknown rules profile"):
        Game({"type": "game", "version": 1, "rules": "bridge"})
    with pytest.raises(RecordError, match="unknown rule option"):
        Game({"type": "game", "version": 1, "rules": "classic", "options": {"jokers": True}})


def arret_game(target, takers_won_first_trick):
    """A clean game with l'Arrêt and ``target``, replayed to the end of its first hand's first
    trick, chosen so that the takers did (or did not) win that trick: (events, next index, game)."""
    for seed in range(100):
        events = clean_game(seed=seed, options={"arret": True, "target": target})
        _, j = first_hand_with(events, lambda e: True)
        game = Game.from_events(events[:j + 4])
        if (game.play.tricks[-1].winner & 1 == game.contract.team) == takers_won_first_trick:
            return events, j + 4, game
    raise AssertionError("no such game in 100 seeds")


def test_arret_a_defender_who_has_the_target_wins_at_once():
    events, _, game = arret_game(target=1, takers_won_first_trick=False)
    winner = game.play.tricks[-1].winner
    assert game.apply({"type": "stop", "seat": "NESW"[winner]}) == []
    assert game.over and game.winner == winner & 1 and game.stopped["claim"] >= 1


def test_arret_a_taker_must_also_make_the_contract():
    events, k, game = arret_game(target=1, takers_won_first_trick=True)
    winner = game.play.tricks[-1].winner
    game.apply({"type": "stop", "seat": "NESW"[winner]})
    assert not game.over                                   # the hand is played out first
    for event in events[k:]:
        game.apply(event)
        if game.over:
            break
    made = game.results[0].result == "made"
    assert game.over and game.winner == (winner & 1 if made else 1 - (winner & 1))


def test_arret_a_wrong_claim_gives_the_game_to_the_other_side():
    events, _, game = arret_game(target=1000, takers_won_first_trick=False)
    winner = game.play.tricks[-1].winner
    game.apply({"type": "stop", "seat": "NESW"[winner]})
    assert game.over and game.winner == 1 - (winner & 1)


def test_arret_only_right_after_winning_a_trick_and_only_where_played():
    events, k, game = arret_game(target=1, takers_won_first_trick=False)
    loser = (game.play.tricks[-1].winner + 1) & 3
    assert [v.rule for v in game.apply({"type": "stop", "seat": "NESW"[loser]})] == ["arret-not-allowed"]
    plain = Game.from_events([dict(events[0], options={})] + events[1:k])
    found = plain.apply({"type": "stop", "seat": "NESW"[game.play.tricks[-1].winner]})
    assert [v.rule for v in found] == ["arret-not-allowed"] and not plain.over


def test_classic_the_turned_card_must_go_to_the_taker():
    events = clean_game(seed=2, rules="classic", hands=6)
    i, _ = first_hand_with(events, lambda e: True)
    deal = copy.deepcopy(events[i])
    calls = []
    for e in events[i + 1:]:
        if e["type"] != "call":
            break
        calls.append(e)
    taker = calls[-1]["seat"]
    other = next(s for s in "NESW" if s != taker)
    turned = deal["turned"]
    swap = deal["hands"][other][0]
    deal["hands"][taker] = [swap if c == turned else c for c in deal["hands"][taker]]
    deal["hands"][other] = [turned] + deal["hands"][other][1:]
    game = Game.from_events(events[:i] + [deal])
    found = [v for e in calls for v in game.apply(e)]
    assert [(v.rule, v.seat) for v in found] == [("misdeal", game.dealer)]
    assert f"was dealt to {other}" in found[0].message


def test_without_hands_a_card_played_twice_is_reported_once():
    events = [{k: v for k, v in e.items() if k != "hands"} for e in clean_game(hands=1)]
    plays = [i for i, e in enumerate(events) if e["type"] == "play"]
    events[plays[5]] = dict(events[plays[5]], card=events[plays[0]]["card"])
    violations = Game.from_events(events).results[0].violations
    assert [v.rule for v in violations].count("already-played") == 1


def test_classic_hands_added_to_the_deal_by_a_correction_after_the_auction():
    events = clean_game(seed=2, rules="classic", hands=6)
    i, j = first_hand_with(events, lambda e: True)
    blind_deal = {k: v for k, v in events[i].items() if k != "hands"}
    game = Game.from_events(events[:i] + [blind_deal] + events[i + 1:j])
    assert game.play.hand(0) is None
    game.apply({"type": "correction", "ref": i + 1, "reason": "second round dealt", "replace": events[i]})
    assert game.play.hand(0) is not None and game.phase == "play"


def test_without_hands_a_false_belote_is_found_from_the_cards_played():
    for seed in range(60):
        events = [{k: v for k, v in e.items() if k != "hands"} for e in clean_game(seed=seed, hands=1)]
        plays = [i for i, e in enumerate(events) if e["type"] == "play"]
        trump_kings = [i for i in plays if events[i]["card"][0] == "K" and "shdc".index(events[i]["card"][1])
                       == Game.from_events(events[:plays[0] + 1]).play.trump]
        if trump_kings and not events[trump_kings[0]].get("say"):
            break
    at = trump_kings[0]
    events[at] = dict(events[at], say="belote")
    result = Game.from_events(events).results[0]
    assert [(v.rule, v.card) for v in result.violations if v.rule == "belote-not-held"] == \
        [("belote-not-held", parse_card(events[at]["card"]))]
    assert result.belote == (0, 0)
