"""The seeded noisy table, and the table referee measured against it (the issue's targets, on a sample)."""

from __future__ import annotations

import dataclasses

import pytest

from referee.observations import CardSeen
from referee.measure import run
from referee.sensor_faults import Faults, FaultsError, parse_faults
from referee.simulate import VIOLATION_KINDS, simulate
from referee.table_referee import TableReferee


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
    assert m.conflicts > calm.conflicts


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
