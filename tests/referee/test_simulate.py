"""The seeded noisy table, and the table referee measured against it (the issue's targets, on a sample)."""

from __future__ import annotations

import collections
import dataclasses
import random

import pytest

from referee.cards import card_name, parse_card
from referee.observations import CardSeen
from referee.measure import run
from referee.sensor_faults import Faults, FaultsError, confusions, misread, parse_faults
from referee.simulate import VIOLATION_KINDS, simulate
from referee.table_referee import TableReferee

from replay import replayed


def test_the_same_seed_gives_the_same_table_and_another_seed_another():
    a, b = simulate(5, seed=8), simulate(5, seed=8)
    assert a.observations == b.observations and a.record == b.record and a.planted == b.planted
    assert simulate(5, seed=9).observations != a.observations


def test_observations_come_in_time_order_from_both_sensors_and_the_console():
    sim = simulate(5, seed=8)
    times = [o.t for o in sim.observations]
    assert times == sorted(times)
    sources = {o.source for o in sim.observations}
    assert sources == {"camera", "rfid", "console"}
    frames = [o.evidence["frame"] for o in sim.observations if isinstance(o, CardSeen) and o.source == "camera"]
    assert frames and all(f.startswith("cam0:") for f in frames)


def test_faults_text():
    assert parse_faults("default") == Faults()
    assert parse_faults("none").misread == 0 and parse_faults("none").violations == 0
    f = parse_faults("misread=0.1,rfid=false")
    assert f.misread == 0.1 and f.rfid is False and f.unreadable == Faults().unreadable
    for bad in ("misread=2", "bogus=0.1", "misread"):
        with pytest.raises(FaultsError, match="--faults"):
            parse_faults(bad)


@pytest.mark.slow
def test_targets_on_a_sample_of_hands_at_default_fault_rates():
    """Recall 100%, no accusation that was not planted, every hand scored as the ground truth."""
    m = run(700, seed=2026)
    assert m.hands >= 700 and m.planted >= 80
    assert m.recall == 1.0, m.missed_examples
    assert m.false_accusations == 0, m.false_examples
    assert m.hands_exact == m.hands, m.wrong_hands[:5]
    assert {k for k, v in m.by_kind.items() if v[0]} == set(VIOLATION_KINDS)
    assert 0 < m.conflicts / m.hands < 1.5


def test_more_faults_more_questions_but_still_no_false_accusation():
    noisy = dataclasses.replace(Faults(), misread=0.08, unreadable=0.05, rfid_miss=0.05, rfid_late=0.08,
                                duplicate=0.05, takeback=0.03)
    m = run(120, seed=77, faults=noisy)
    calm = run(120, seed=77)
    assert m.false_accusations == 0 and m.recall == 1.0 and m.hands_exact == m.hands
    # Questions the sensors' faults cause (an out-of-turn card is asked about whatever the sensors:
    # the players' doing, planted alike in both runs).
    sensors = {k: v for k, v in m.questions.items() if k != "out-of-turn"}
    assert sum(sensors.values()) > sum(v for k, v in calm.questions.items() if k != "out-of-turn"), sensors


def test_an_rfid_only_table_is_refereed_too():
    m = run(100, seed=5, faults=parse_faults("camera=false"))
    assert m.recall == 1.0 and m.hands_exact == m.hands
    assert m.false_accusations == 0


def test_a_camera_only_table_asks_instead_of_accusing():
    # Without RFID nothing confirms a reading: unsure ones are asked while the card is on the table,
    # and no misdeal or wrong pickup is planted (no sensor sees hands or piles).
    m = run(150, seed=1, faults=parse_faults("rfid=false"))
    assert m.false_accusations == 0 and m.recall == 1.0 and m.hands_exact == m.hands
    assert not {"misdeal", "wrong-pickup"} & set(m.by_kind) and m.conflicts > 0


def test_classic_belote_is_dealt_in_two_rounds_and_refereed():
    # Seed 004: 3 + 2 cards and a turned card, the auction (take / takeX / pass), then the taker
    # gets the turned card and 2 more, the others 3. The antennas see both rounds: the deal is
    # corrected with the whole hands and every play is checked live.
    sim = simulate(4, seed=3, faults=parse_faults("none"), rules="classic")
    deal = sim.record[1]
    taker = next(e["seat"] for e in sim.record if e["type"] == "call" and e["call"] != "pass")
    assert deal["turned"] in deal["hands"][taker] and all(len(h) == 8 for h in deal["hands"].values())
    referee = TableReferee(header=sim.header)
    for obs in sim.observations:
        referee.ingest(obs)
    corrected = [e for e in referee.record if e["type"] == "correction"]
    assert corrected and all(e["replace"]["type"] == "deal" and "hands" in e["replace"] for e in corrected)
    assert [r.as_dict() for r in referee.results] == [r.as_dict() for r in sim.truth.results]
    m = run(150, seed=2, rules="classic")
    assert m.planted and m.recall == 1.0 and m.false_accusations == 0 and m.hands_exact == m.hands
    # Without RFID nothing reads the turned card: the console is asked for it before the calls.
    m = run(60, seed=2, faults=parse_faults("rfid=false"), rules="classic")
    assert m.recall == 1.0 and m.false_accusations == 0 and m.hands_exact == m.hands and m.rejected == 0


def test_the_simulated_players_say_belote_in_all_trump_and_the_table_scores_it():
    # In an all-trump contract a king and queen of any suit are a belote (the profile allows it):
    # the players say it, the console enters it, and the table referee scores it as the truth does.
    sim = simulate(6, seed=1, faults=parse_faults("none"), rules="coinche")
    said = [r for r in sim.truth.results if r.contract and r.contract.call.endswith("ta") and any(r.belote)]
    assert said
    referee = TableReferee(header=sim.header)
    for obs in sim.observations:
        referee.ingest(obs)
    assert [r.as_dict() for r in referee.results] == [r.as_dict() for r in sim.truth.results]


def test_the_realistic_preset_misreads_as_the_real_reader_does():
    # Issue 11's measured confusions: the same rank in the other suit of its colour most often
    # (K♣ as K♠), then a neighbouring rank of the same suit (K♣ as Q♣), then the other colour.
    f = parse_faults("realistic")
    assert f.like_reader and f.rfid_miss == 0.3 and parse_faults("realistic,camera=false").camera is False
    rng = random.Random(1)
    reads = collections.Counter(card_name(misread(rng, parse_card("Kc"), True)) for _ in range(8000))
    assert set(reads) == {"Ks", "Qc", "Kh", "Kd"}
    assert reads["Ks"] > reads["Qc"] > reads["Kh"] and 0.45 < reads["Ks"] / 8000 < 0.55
    assert {card_name(c) for c, _ in confusions(parse_card("8d"))} == {"8h", "8s", "8c", "7d", "9d"}
    # A fifth of the misreads come with a confidence of 0.9 or more, as a real reader's do.
    sim = simulate(6, seed=4, faults=dataclasses.replace(f, misread=1.0, unreadable=0.0, rfid=False))
    wrong = [o.confidence for o in sim.observations if isinstance(o, CardSeen) and o.card is not None]
    assert 0.12 < sum(c >= 0.9 for c in wrong) / len(wrong) < 0.3


@pytest.mark.parametrize("game_seed, faults, rules", [
    # issue 11's crash: LookupError, the ground truth has no play for conflict ... card-unknown ... trick 6
    (1300039, "camera=false,rfid_miss=0.3,duplicate=0.2", "contree"),
    # issue 11's false accusations: already-played built on one camera misread, a desync after a
    # card only the camera read (misread) was left at its trick's pickup, a must-follow on one read
    (1100052, "misread=0.05,rfid_miss=0.2,knocked=0.05", "ffb-contree"),
    (1100054, "misread=0.05,rfid_miss=0.2,knocked=0.05", "ffb-contree"),
    (1100058, "misread=0.05,rfid_miss=0.2,knocked=0.05", "ffb-contree"),
    (1400208, "misread=0.10,unreadable=0.1,takeback=0.1", "contree"),
    # RFID only: S showed ♥A and took it back unread, ♣A (never read arriving) left S's zone at the
    # pickup: S's card is the tag's, not the next trick's lead (it was; three cards asked, 4 accusations)
    (1300051, "camera=false,rfid_miss=0.3,duplicate=0.2", "contree"),
    # RFID only: E's card of trick 1 never read, a card of it seen leaving at the pickup, then E's
    # card of trick 2: not N's and W's cards out of turn (4 accusations and a cascade followed)
    (1300158, "camera=false,rfid_miss=0.3,duplicate=0.2", "contree"),
    # RFID only: a planted out-of-turn in the trick after a pickup seen in part is still flagged
    (1300101, "camera=false,rfid_miss=0.3,duplicate=0.2", "contree"),
    # realistic: E says rebelote as its ♠K lies unread on the table: not said with its last card,
    # ♥Q (a belote-not-held followed at the end of the hand)
    (100266, "realistic", "contree"),
    # RFID only: a pile read of a card nobody saw played is not a correction of the last trick's
    # card one antenna read (it is of the trick on the table: 9 accusations followed)
    (1300120, "camera=false,rfid_miss=0.3,duplicate=0.2", "contree"),
])
def test_the_games_that_crashed_or_accused_wrongly_are_refereed_right(game_seed, faults, rules):
    sim, referee = replayed(game_seed, faults, rules)
    assert sorted((h, v.rule) for h, v in referee.violations()) == \
        sorted((p.hand, p.rule) for p in sim.planted if p.traced)
    assert [r.score for r in referee.results] == [r.score for r in sim.truth.results]


@pytest.mark.parametrize("rules", ["contree", "classic"])
@pytest.mark.parametrize("sensors", ["", ",rfid=false"])
def test_realistic_faults_no_false_accusation_and_every_planted_violation(rules, sensors):
    """The issue's target on a sample (make bench runs 10,000 hands of each): the camera misreads
    as the real reader does, the RFID misses 30 % of its reads; nothing crashes, no accusation
    that was not planted, every planted violation flagged (by the sensors or at the console)."""
    m = run(240, seed=7, faults=parse_faults("realistic" + sensors), rules=rules)
    assert m.planted >= 30
    assert m.false_accusations == 0, m.false_examples
    assert m.recall == 1.0, m.missed_examples
    assert m.to_confirm_left == 0


@pytest.mark.parametrize("rules", ["contree", "classic"])
def test_realistic_rfid_only_no_crash_and_every_planted_violation(rules):
    """RFID only (30 % of the reads missed): nothing crashes and every planted violation a sensor
    could trace is flagged. Not yet the issue's target of no false accusation: with whole
    pickups or every read of a card missed, a hand can still be recorded wrong from some trick
    on (bench.trust, 10,000 hands: 248 in contrée, 415 in classic, a few hands each); the bound
    keeps it from getting worse."""
    m = run(240, seed=7, faults=parse_faults("realistic,camera=false"), rules=rules)
    assert m.planted >= 20
    assert m.recall == 1.0, m.missed_examples
    assert m.false_accusations <= 4, m.false_examples
