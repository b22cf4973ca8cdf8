"""Hands scored as they were played (issue 11): a belote said while the sensors hold another reading
of the table is not lost. Simulated games under the realistic faults, refereed with the console
answering as the ground truth says (the oracle); each scored a hand 20 points short before."""

import pytest

from replay import replayed

HARSH = "realistic,misread=0.1,knocked=0.1,takeback=0.2"
#: (game seed, rules, faults): found in round 10 (seed 8's RFID-only tables, work seeds), each a hand 20 points short
CASES = [
    # hand 1: N said "rebelote" as it put down the ♥K (all trumps) that no sensor read; the console named
    # the card at the pickup, 5 s after the word, which had waited for a card put down within 5 s of it
    (800397, "contree", "realistic,camera=false"),
    # hand 5: W showed the ♣K (its going back unread), put down the ♣Q and said "belote" (all trumps):
    # the word went with the first pair card down, the ♣K, and was lost when it was taken back
    (801138, "contree", "realistic,camera=false"),
    # work seed 63 (RFID only, harsher faults), hand 9: N showed the ♣Q and put down the ♦Q (trumps) with
    # "belote": the ♦Q took the ♣Q's place at the pickup, without the word
    (6300191, "contree", HARSH + ",camera=false"),
    # hand 3: N's card shown and taken back was recorded, and the ♠Q (all trumps) N put down with "belote"
    # unseen; the console named the ♠Q, which went without the word waiting
    (6300290, "contree", HARSH + ",camera=false"),
    # hand 3: S showed the ♥K and put down the ♠Q (trumps) with "belote"; asked, the console named the ♠Q
    (6300392, "contree", HARSH + ",camera=false"),
    # (camera only) hand 2: N showed the ♦Q, took it back and put down the ♦K (trumps), read as the ♥K at 61 %,
    # with "belote": the word went with the ♦Q, the one pair card read, and was lost with it
    (6300325, "contree", HARSH + ",rfid=false"),
    # (seed 6, both sensors; a regression on the way) hand 9: E's ♥10, read by the camera alone, was knocked
    # into W's zone at the pickup, its tag read landing there late; taken for a misread of E's card (a tag
    # in another zone), it stayed on the table as W's card, and W's "belote" with the ♥K was lost
    (600261, "contree", "realistic"),
    # round 11, held-out seed 10 (both sensors), hand 2: N's ♣7, read ♠7 at 0.90 by the camera alone, beside S's
    # ♣9, read at 0.999 alone too; the ♣7's tag in the pile was taken for a card of trick 3 picked up unseen,
    # and the record went a trick out of step (30 questions), the rebelote lost (now: the least sure is asked)
    (1000388, "contree", "realistic"),
    # (seed 10, both sensors) hand 1, the same cause: E's ♠Q read ♠K at trick 5, a belote lost, and a
    # "belote-not-held" asked about
    (1000424, "contree", "realistic"),
    # (seed 10, RFID only) hand 2: E showed the ♣7 (its going back unread) and put down the ♥Q with "rebelote";
    # the ♣7 was recorded, the console named the ♥Q, and the word went with the ♥Q waiting on the table, dropped
    (1000401, "contree", "realistic,camera=false"),
    # (seed 10, camera only) hand 1: N showed the ♥Q, took it back and put down the ♥K with "belote", read ♥Q at
    # 0.66: taken for the ♥Q seen again, the ♥K was dropped with it as taken back, and the word lost
    (1000329, "contree", "realistic,rfid=false"),
    # (seed 9, contrée RFID only, round 10's untraced) hand 5: W led the ♠Q unseen with "rebelote"; named at the
    # pickup, its guessed time 5.6 s after the word, it went without it (now: a lead's word said after the last
    # trick was picked up goes with it)
    (900332, "contree", "realistic,camera=false"),
    # work seed 71 (RFID only, harsher faults), hand 4: N showed the ♥Q (all trumps), read leaving its zone 0.8 s
    # before "rebelote", and the word went with it, taken back; the ♠Q it was said with left N's hand just after
    (7100340, "contree", HARSH + ",camera=false"),
]


@pytest.mark.parametrize("seed,rules,faults", CASES)
def test_every_hand_is_scored_as_played(seed, rules, faults):
    sim, referee = replayed(seed, faults, rules)
    mine = {r.number: r.score for r in referee.results}
    assert {r.number: r.score for r in sim.truth.results} == mine
