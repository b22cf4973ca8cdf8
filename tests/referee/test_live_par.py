"""The live par line: after every card, the same par and costs as ``referee solve``
gives the record up to there; a correction takes the new line of play; a card
played by a seat that did not hold it ends the line."""

from __future__ import annotations

import pytest

from referee.analysis import analyse_game
from referee.demo import play_demo_game
from referee.live_par import LivePar


@pytest.fixture(scope="module")
def record():
    return play_demo_game(seed=4, rules="ffb-contree")


def solved(events, hand):
    (analysis,) = [h for h in analyse_game(events) if h.number == hand]
    return [(p.played, p.cost) for p in analysis.positions if p.card is not None], analysis.positions[-1].par


def test_every_position_of_a_hand_agrees_with_referee_solve(record):
    deals = [i for i, e in enumerate(record) if e["type"] == "deal"]
    live = LivePar()
    checked = 0
    for n in range(deals[1] + 1, deals[2] + 1):
        line = live.update(record[:n])
        if line is None or line["hand"] != 2:
            continue
        costs, par = solved(record[:n], 2)
        assert [(c["played"], c["cost"]) for c in line["cards"]] == costs
        if line["played"] < 32:
            assert (line["par"]["NS"], line["par"]["EW"]) == (par.ns, par.ew)
        assert line["losses"]["NS"] + line["losses"]["EW"] == sum(cost for _, cost in costs)
        checked += 1
    assert checked >= 33          # the contract, then each of the 32 cards


def test_a_correction_of_an_earlier_card_takes_the_new_line(record):
    deals = [i for i, e in enumerate(record) if e["type"] == "deal"]
    plays = [i for i, e in enumerate(record) if e["type"] == "play" and deals[1] < i < deals[2]]
    live = LivePar()
    upto = record[:plays[6] + 1]
    before = live.update(upto)
    # the referee says the first card of the hand was another legal lead: a new line of play
    first = record[plays[0]]
    other = next(c for c in record[deals[1]]["hands"][first["seat"]] if c != first["card"])
    correction = {"type": "correction", "ref": plays[0] + 1, "reason": "misread",
                  "replace": dict(first, card=other)}
    corrected = record[:plays[0] + 1] + [correction]
    line = live.update(corrected)
    costs, par = solved(corrected, 2)
    assert line["cards"][0]["card"] == other and [(c["played"], c["cost"]) for c in line["cards"]] == costs
    assert line["played"] == 1 and (line["par"]["NS"], line["par"]["EW"]) == (par.ns, par.ew)
    assert live.update(upto) == before          # the old line is still known, and still right


def test_a_card_not_held_ends_the_line(record):
    deals = [i for i, e in enumerate(record) if e["type"] == "deal"]
    plays = [i for i, e in enumerate(record) if e["type"] == "play" and deals[1] < i < deals[2]]
    first = record[plays[0]]
    dealt = record[deals[1]]["hands"]
    stranger = next(c for seat, cards in dealt.items() if seat != first["seat"] for c in cards)
    line = LivePar().update(record[:plays[0]] + [dict(first, card=stranger)])
    assert line["played"] == 0 and "without holding it" in line["stopped"]
