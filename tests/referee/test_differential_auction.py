"""Our contrée auction against colver's (an engine no one here wrote), call by call.

colver deals and runs its own auction; at every turn both engines must agree on
who speaks and on the exact set of legal calls (bids of each value and suit,
capot, pass, counter, re-counter), and at the end on the contract (taker's
side, value or capot, trump, counter level) or on the hand being passed out.
The calls are drawn at random from colver's legal set, passes favoured so that
auctions run long and reach counters and capots.
"""

from __future__ import annotations

import random

import colver

from referee.auction import Auction
from referee.rules import profile

AUCTIONS = 10_000
SUITS = "shdc"                                # colver's suit order is ours


def call_text(action: int) -> str:
    """colver's bidding action as our call text: 0 pass, 1-36 bids 80..160 by suit, 37-40
    capot by suit, 41 coinche (counter), 42 surcoinche (re-counter)."""
    if action == 0:
        return "pass"
    if action <= 36:
        return f"{80 + 10 * ((action - 1) // 4)}{SUITS[(action - 1) % 4]}"
    if action <= 40:
        return f"capot{SUITS[action - 37]}"
    return "counter" if action == 41 else "recounter"


def seat(player: int) -> int:
    """colver numbers seats so that play goes to player + 1; ours counter-clockwise: s = -p mod 4."""
    return -player & 3


def test_colver_and_we_agree_on_every_turn_every_legal_call_and_the_contract():
    rng = random.Random(2026)
    options = profile("ffb-contree")
    calls = counters = capots = passed_out = 0
    for n in range(AUCTIONS):
        dealer = n % 4
        env = colver.Env.deal(dealer=dealer, seed=n)
        ours = Auction(options, seat(dealer))
        while env.phase() == 0 and not env.is_terminal():
            assert not ours.done, f"auction {n}: we ended, colver goes on after {ours.calls}"
            assert ours.to_speak == seat(env.current_player()), f"auction {n}: turn after {ours.calls}"
            theirs = sorted(call_text(a) for a in env.legal_actions())
            assert sorted(ours.legal_calls()) == theirs, f"auction {n} after {ours.calls}"
            actions = env.legal_actions()
            action = 0 if rng.random() < 0.55 else rng.choice(actions)
            assert ours.apply(ours.to_speak, call_text(action)) == []
            env.step(action)
            calls += 1
        assert ours.done, f"auction {n}: colver ended, we still wait after {ours.calls}"
        contract = env.get_contract()
        if ours.contract is None:
            passed_out += 1
            assert env.is_terminal() or contract.get("value", 0) == 0, f"auction {n}: {contract}"
            continue
        c = ours.contract
        counters += c.counter > 1
        capots += c.capot
        assert (c.team, c.mode, 250 if c.capot else c.value, {1: 0, 2: 1, 4: 2}[c.counter]) == \
            (contract["team"], contract["trump"], contract["value"], contract["coinche"]), f"auction {n}"
    print(f"colver auctions: {AUCTIONS}, {calls} calls compared, {passed_out} passed out, {counters} countered, "
          f"{capots} capots")
    assert passed_out > AUCTIONS // 10 and counters > AUCTIONS // 10 and capots > AUCTIONS // 10


def test_the_comparison_notices_a_rule_difference():
    """With counters forbidden, our legal set must lose exactly colver's counter calls."""
    options = profile("ffb-contree", counter=False)
    differ = 0
    for n in range(200):
        env = colver.Env.deal(dealer=n % 4, seed=n)
        ours = Auction(options, seat(n % 4))
        env.step(5)                                   # 90s
        ours.apply(ours.to_speak, "90s")
        theirs = {call_text(a) for a in env.legal_actions()}
        assert theirs - set(ours.legal_calls()) == {"counter"}
        differ += 1
    assert differ == 200
