"""The auctions (seed 000 §4 contrée, seeds 002/004 classic): every illegal call is a
violation with its reason and changes nothing; the legal ones end where the rules say."""

import pytest

from referee.auction import Auction, CallError, parse_call
from referee.cards import parse_card
from referee.rules import profile
from referee.seats import EAST, NORTH, SOUTH, WEST

FFB = profile("ffb-contree")


def run(auction, *calls):
    """Apply ``"S 80h"``-style calls; return the rules of the violations, in order."""
    rules = []
    for item in calls:
        seat, call = item.split()
        rules += [v.rule for v in auction.apply("NESW".index(seat), call)]
    return rules


def test_the_player_on_the_dealers_right_speaks_first_and_turns_go_counter_clockwise():
    a = Auction(FFB, dealer=NORTH)
    assert a.to_speak == WEST
    assert run(a, "W pass", "S pass", "E pass") == []
    assert a.to_speak == NORTH


def test_clockwise_option_flips_the_order():
    a = Auction(FFB.replace(clockwise=True), dealer=NORTH)
    assert a.to_speak == EAST


@pytest.mark.parametrize("call,rule", [("70h", "bid-too-low"), ("85h", "bid-step"), ("170h", "bid-over-max"),
                                       ("90sa", "contract-not-allowed"), ("counter", "counter-nothing"),
                                       ("recounter", "recounter-not-countered"), ("take", "contract-not-allowed")])
def test_illegal_opening_calls(call, rule):
    a = Auction(FFB, dealer=NORTH)
    found = a.apply(WEST, call)
    assert [v.rule for v in found] == [rule]
    assert found[0].call == parse_call(call).text and found[0].message.startswith("W called")
    assert a.calls == [] and a.to_speak == WEST          # nothing changed: W calls again


def test_a_bid_must_beat_the_last_one_and_an_out_of_turn_call_changes_nothing():
    a = Auction(FFB, dealer=NORTH)
    assert run(a, "W 100h", "S 100s", "E 90c") == ["bid-not-higher", "out-of-turn"]
    assert a.to_speak == SOUTH and a.last_bid == "100h"


def test_counter_only_by_an_opponent_then_only_pass_or_recounter_by_the_bidding_side():
    a = Auction(FFB, dealer=NORTH)
    assert run(a, "W 80h", "S pass", "E counter") == ["counter-own-side"]
    assert run(a, "E pass", "N counter") == []
    assert run(a, "W 90h") == ["bid-after-counter"]
    assert run(a, "W recounter") == []
    assert a.done and a.contract.counter == 4 and a.contract.taker == WEST and a.contract.call == "80h"


def test_a_recounter_from_the_countering_side_is_refused():
    a = Auction(FFB, dealer=NORTH)
    run(a, "W 80h", "S counter")
    assert run(a, "E pass", "N recounter") == ["counter-own-side"]


def test_three_passes_after_a_counter_end_the_auction_countered():
    a = Auction(FFB, dealer=NORTH)
    run(a, "W 80h", "S counter", "E pass", "N pass", "W pass")
    assert a.done and a.contract.call == "80h" and a.contract.counter == 2


def test_capot_at_any_time_and_nothing_above_it():
    a = Auction(FFB, dealer=NORTH)
    assert run(a, "W capots", "S 160h") == ["bid-after-capot"]
    run(a, "S pass", "E pass", "N pass")
    assert a.done and a.contract.capot and a.contract.value is None and a.contract.call == "capots"


def test_partner_may_raise_and_three_passes_after_the_last_bid_end_it():
    a = Auction(FFB, dealer=NORTH)
    run(a, "W 80h", "S 90s", "E 100h", "N pass", "W pass", "S pass")
    assert a.done and a.contract.taker == EAST and a.contract.call == "100h" and a.contract.counter == 1


def test_four_passes_at_the_start_end_the_hand_with_no_contract():
    a = Auction(FFB, dealer=NORTH)
    run(a, "W pass", "S pass", "E pass", "N pass")
    assert a.done and a.all_passed and a.contract is None
    assert [v.rule for v in a.apply(WEST, "80h")] == ["auction-over"]


def test_no_trump_and_all_trump_where_the_profile_allows():
    a = Auction(profile("contree"), dealer=NORTH)
    assert run(a, "W 90sa", "S 100ta", "E pass", "N pass", "W pass") == []
    assert a.contract.call == "100ta" and a.contract.mode == 5


def test_counter_multipliers_are_options():
    a = Auction(FFB.replace(recounter_multiplier=3), dealer=NORTH)
    run(a, "W 80h", "S counter", "E recounter")
    assert a.contract.counter == 3


def test_legal_calls_lists_exactly_what_apply_accepts():
    a = Auction(FFB, dealer=NORTH)
    run(a, "W 150h", "S counter")
    assert a.legal_calls() == ["pass", "recounter"]


@pytest.mark.parametrize("text", ["80", "h80", "take sa", "capot", "double", ""])
def test_texts_that_are_not_calls_are_errors_not_violations(text):
    with pytest.raises(CallError, match="is not a call"):
        parse_call(text)


# --- classic (turned card) ---------------------------------------------------------------

CLASSIC = profile("classic")


def classic(turned="9h", **overrides):
    return Auction(CLASSIC.replace(**overrides) if overrides else CLASSIC, dealer=NORTH, turned=parse_card(turned))


def test_classic_round_one_takes_the_turned_suit():
    a = classic()
    assert run(a, "W pass", "S take") == []
    assert a.done and a.contract.mode == 1 and a.contract.call == "take" and a.contract.taker == SOUTH


def test_classic_round_one_cannot_name_another_suit():
    a = classic()
    assert run(a, "W takes") == ["contract-not-allowed"]


def test_classic_round_two_names_another_suit_only():
    a = classic()
    run(a, "W pass", "S pass", "E pass", "N pass")
    assert a.round == 2 and not a.done
    assert run(a, "W take", "W takeh", "W takes") == ["contract-not-allowed", "contract-not-allowed"]
    assert a.contract.mode == 0 and a.contract.call == "takes"


def test_classic_round_two_may_name_the_turned_suit_with_002s_option():
    a = classic(second_round_turned_suit=True)
    run(a, "W pass", "S pass", "E pass", "N pass")
    assert run(a, "W takeh") == [] and a.contract.mode == 1


def test_classic_all_pass_twice_is_a_redeal():
    a = classic()
    run(a, *[f"{s} pass" for s in "WSEN" * 2])
    assert a.all_passed


def test_classic_refuses_bids_and_counters():
    a = classic()
    assert run(a, "W 80h", "W counter") == ["contract-not-allowed", "contract-not-allowed"]


def test_classic_needs_the_turned_card():
    with pytest.raises(CallError, match="turned"):
        Auction(CLASSIC, dealer=NORTH)


def test_a_rule_broken_for_several_reasons_names_the_reason_in_its_params():
    """So a French page can word each reason (``why_<rule>_<reason>``); the English message stays."""
    a = classic()
    run(a, "W pass", "S pass", "E pass", "N pass")
    (v,) = a.apply(WEST, "takeh")
    assert v.params == (("reason", "second-round-turned"), ("turned", "h"))
    assert v.message == "W called takeh: second round: name a suit other than the turned hearts"
    assert dict(a.apply(WEST, "take")[0].params) == {"reason": "second-round"}
    c = Auction(FFB, dealer=NORTH)
    assert dict(c.apply(WEST, "counter")[0].params) == {"reason": "no-bid"}
    run(c, "W 80h", "S pass")
    assert dict(c.apply(EAST, "counter")[0].params) == {"reason": "counter"}
    (v,) = c.apply(EAST, "take")
    assert (v.rule, dict(v.params)) == ("contract-not-allowed", {"reason": "contree"})
