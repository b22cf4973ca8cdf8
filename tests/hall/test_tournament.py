"""The tournament's pure parts: pairings (first round, Swiss without
rematches, byes, late and withdrawn teams), ranking and its tie-breaks,
match scores under each format, and the desk's audited corrections."""

from __future__ import annotations

import itertools

import pytest

from hall.matches import Format, match_score
from hall.pairings import assign_tables, first_round, swiss
from hall.ranking import Match, standings
from hall.records import Records
from hall.tournament import DeskError, Tournament, apply_action
from referee.simulate import simulate


def test_first_round_random_is_repeatable_and_seeded_keeps_the_strongest_apart():
    teams = [f"T{i}" for i in range(8)]
    assert first_round(teams, shuffle_seed=3).pairs == first_round(teams, shuffle_seed=3).pairs
    assert first_round(teams, shuffle_seed=3).pairs != first_round(teams, shuffle_seed=4).pairs
    seeds = {t: i + 1 for i, t in enumerate(teams)}
    pairs = first_round(teams, seeds).pairs
    assert pairs[0] == ("T0", "T4") and pairs[1] == ("T1", "T5")      # 1 meets 5, 2 meets 6 ...


def test_swiss_avoids_every_rematch_while_one_can_be_avoided():
    # After round 1 (A-B, C-D, E-F), the natural Swiss pairs A-B again; the search must not.
    met = {frozenset(p) for p in (("A", "B"), ("C", "D"), ("E", "F"))}
    pairing = swiss(["A", "B", "C", "D", "E", "F"], met)
    assert pairing.rematches == 0
    assert not any(frozenset(p) in met for p in pairing.pairs)
    assert pairing.pairs[0] == ("A", "C")                   # the leader meets the best team it has not met


def test_swiss_backs_up_when_the_last_teams_would_only_have_rematches():
    met = {frozenset(p) for p in (("C", "D"), ("A", "C"), ("B", "D"), ("A", "B"))}
    pairing = swiss(["A", "B", "C", "D"], met)
    assert pairing.rematches == 0 and sorted(map(sorted, pairing.pairs)) == [["A", "D"], ["B", "C"]]


def test_swiss_allows_a_rematch_only_when_none_can_be_avoided():
    met = {frozenset(p) for p in itertools.combinations("ABCD", 2)}       # everyone met everyone
    assert swiss(list("ABCD"), met).rematches == 2


def test_a_bye_goes_to_the_lowest_team_that_has_not_had_one():
    pairing = swiss(list("ABCDE"), set(), had_bye=["E"])
    assert pairing.bye == "D" and len(pairing.pairs) == 2


def test_standings_by_match_points_then_each_tiebreak_in_the_organisers_order():
    matches = [Match(1, "t1", "A", "B", 900, 700), Match(1, "t2", "C", "D", 800, 600),
               Match(2, "t1", "A", "C", 500, 700), Match(2, "t2", "B", "D", 650, 600)]
    rows = standings(list("ABCD"), matches, "match-points", ("opponents", "difference"))
    by_team = {r.team: r for r in rows}
    assert by_team["C"].rank == 1 and by_team["D"].rank == 4
    # A and B both have 2 match points; A's opponents (B 2 + C 4) beat B's (A 2 + D 0).
    assert by_team["A"].tiebreaks["opponents"] == 6 and by_team["B"].tiebreaks["opponents"] == 2
    assert by_team["A"].rank == 2 and by_team["B"].rank == 3
    # With the points difference as the only tie-break:
    rows = standings(list("ABCD"), matches, "match-points", ("difference",))
    assert [r.team for r in rows][:1] == ["C"]
    assert {r.team: r.difference for r in rows} == {"A": 0, "B": -150, "C": 400, "D": -250}


def test_head_to_head_decides_between_two_tied_teams():
    matches = [Match(1, "t1", "A", "B", 500, 800), Match(1, "t2", "C", "D", 800, 500),
               Match(2, "t1", "A", "D", 900, 100), Match(2, "t2", "B", "C", 300, 700)]
    rows = standings(list("ABCD"), matches, "match-points", ("head-to-head",))
    order = [r.team for r in rows]
    assert order.index("B") < order.index("A")            # 2 MP each; B beat A


def test_total_points_ranking_and_penalties():
    matches = [Match(1, "t1", "A", "B", 900, 700)]
    rows = standings(["A", "B"], matches, "total-points", (), penalties=[{"team": "A", "points": 250}])
    assert [(r.team, r.points) for r in rows] == [("B", 700), ("A", 650)]
    with pytest.raises(ValueError, match="tie-break"):
        standings(["A"], [], tiebreaks=("coin",))


def _seq_events(record):
    return list(enumerate(record, 1))


def test_a_match_of_n_deals_counts_the_first_n_hands_only():
    sim = simulate(hands=6, seed=5)
    full = match_score(_seq_events(sim.record), Format("target"))
    two = match_score(_seq_events(sim.record), Format("deals", deals=2))
    assert two.hands == 2 and two.final
    assert (two.ns, two.ew) != (full.ns, full.ew) and full.hands == 6


def test_time_limit_finishes_the_deal_in_progress_and_counts_no_later_one():
    sim = simulate(hands=6, seed=5)
    events = _seq_events(sim.record)
    deals = [seq for seq, e in events if e["type"] == "deal"]
    cutoff = deals[2] + 3                                      # time ran out early in the third hand
    score = match_score(events, Format("deals", deals=10), cutoff)
    assert score.hands == 3 and score.final
    partial = match_score(events[:deals[2] + 5], Format("deals", deals=10), cutoff)
    assert partial.hands == 2 and not partial.final           # the third hand is still being played


def _tournament(n_teams=5):
    t = Tournament("open", format=Format("deals", deals=2), tiebreaks=("opponents", "difference"))
    for i in range(n_teams):
        apply_action(t, "add-team", {"team": f"T{i}", "player1": f"P{i}a", "player2": f"P{i}b",
                                     "licence1": f"L{i}"}, "org", 0.0, {})
    for table in ("t1", "t2", "t3"):
        t.registry.add_table(table)
    return t


def test_rounds_byes_late_and_withdrawn_teams_and_no_rematch():
    t = _tournament(5)
    r1 = t.start_round(0.0, {}, shuffle_seed=1)
    assert r1["bye"] and len(r1["tables"]) == 2
    with pytest.raises(DeskError, match="still open"):
        t.start_round(1.0, {})
    scores = {(1, m["table"]): type("S", (), {"ns": 500 + i, "ew": 300, "final": True})()
              for i, m in enumerate(r1["tables"])}
    t.close_round(2.0)
    apply_action(t, "add-team", {"team": "LATE", "player1": "x", "player2": "y"}, "org", 3.0, scores)
    t.registry.withdraw(r1["tables"][0]["EW"], after_round=1)
    r2 = t.start_round(4.0, scores)
    playing = {x for m in r2["tables"] for x in (m["NS"], m["EW"])} | {r2["bye"]} - {None}
    assert "LATE" in playing and r1["tables"][0]["EW"] not in playing
    assert r2["bye"] != r1["bye"]
    assert not {frozenset((m["NS"], m["EW"])) for m in r2["tables"]} & \
        {frozenset((m["NS"], m["EW"])) for m in r1["tables"]}
    assignment = t.assignment(r2["tables"][0]["table"])
    assert assignment["round"] == 2 and set(assignment["seats"]) == set("NESW")


def test_corrections_and_penalties_are_audited_and_change_the_standings():
    t = _tournament(2)
    t.registry.tables = ["t1"]
    r1 = t.start_round(0.0, {}, shuffle_seed=1)
    ns, ew = r1["tables"][0]["NS"], r1["tables"][0]["EW"]
    scores = {(1, "t1"): type("S", (), {"ns": 800, "ew": 400, "final": True})()}
    assert t.standings(scores)[0].team == ns
    with pytest.raises(DeskError, match="reason"):
        t.correct(1, "t1", 100, 900, " ", "org", 5.0)
    t.correct(1, "t1", 100, 900, "scoresheet misread: the 8 was a 1", "Zoe", 5.0)
    assert t.standings(scores)[0].team == ew
    t.penalise(ew, 0, 2, "slow play, second warning", "Zoe", 6.0)
    assert t.corrections[0]["who"] == "Zoe" and t.penalties[0]["reason"].startswith("slow play")
    again = Tournament.from_dict(t.to_dict())                   # what the hall keeps in PostgreSQL
    rows = {r.team: r for r in again.standings(scores)}
    assert rows[ew].match_points == 0 == rows[ns].match_points          # the penalty took the win's 2 MP
    assert rows[ew].rank == 1 and again.history(ew, scores)[0]["result"] == "won"   # points difference


def test_move_team_swaps_tables_in_the_open_round():
    t = _tournament(4)
    r = t.start_round(0.0, {}, shuffle_seed=2)
    team = r["tables"][0]["NS"]
    t.move_team(team, "t3")
    assert next(m for m in r["tables"] if team in (m["NS"], m["EW"]))["table"] == "t3"
    with pytest.raises(DeskError, match="no table"):
        t.move_team(team, "t9")


def test_records_take_events_in_sequence_order_and_wait_at_a_gap():
    sim = simulate(hands=1, seed=2)
    import json
    rows = [(i, 1, i, json.dumps(e)) for i, e in enumerate(sim.record, 1)]
    records = Records()
    assert records.add("t1", rows[:3] + rows[5:]) == 3           # seq 4 and 5 missing: stop at the gap
    assert records.add("t1", rows[3:]) == len(rows) - 3
    assert records.export("t1") == sim.record


def test_assign_tables_needs_enough_tables():
    from hall.pairings import Pairing, PairingError
    with pytest.raises(PairingError, match="tables"):
        assign_tables(Pairing([("A", "B"), ("C", "D")]), ["t1"])


def test_the_organisers_settings_are_checked_before_anything_changes():
    t = _tournament(2)
    apply_action(t, "settings", {"kind": "target", "minutes": "45", "method": "total-points",
                                 "tiebreaks": "head-to-head, difference", "rules": "classic"}, "org", 0.0, {})
    assert (t.format.kind, t.format.minutes, t.method, t.tiebreaks, t.rules) == \
        ("target", 45.0, "total-points", ("head-to-head", "difference"), "classic")
    for bad in ({"method": "coin-toss"}, {"tiebreaks": "luck"}, {"rules": "poker"}, {"first_round": "alphabetical"}):
        with pytest.raises(DeskError):
            apply_action(t, "settings", bad, "org", 0.0, {})
    assert t.method == "total-points" and t.rules == "classic"            # a refused change changes nothing
    round_ = t.start_round(100.0, {}, shuffle_seed=1)
    assert round_["deadline"] == 100.0 + 45 * 60
