"""``belote-table referee solve`` as a user runs it, and the analysis behind it
(``referee/analysis.py``): DESIGN's JSON shape, par and cost consistent with the
record's cards, the scoresheet's analysis, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.analysis import analyse_game, mark, scoresheet_analysis
from referee.cards import card_name
from referee.demo import play_demo_game
from referee.game import Game
from referee.record import write_record
from commands.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """Two hands of a seeded game, with the demo's planted faults (an illegal card, a call
    out of turn) so that the analysis meets them."""
    path = tmp_path_factory.mktemp("solve") / "game.jsonl"
    events = play_demo_game(seed=11, rules="ffb-contree", max_hands=2, violation_rate=0.05)
    write_record(path, events)
    return path, events


def _scale(value: dict, team: str) -> int:
    """A side's points with a capot counted 252 (and -90 for the side capoted)."""
    capot = value.get("capot")
    return value[team] + (0 if capot is None else 90 if capot == team else -90)


def test_json_is_designs_shape_and_agrees_with_the_record(capsys, record):
    path, events = record
    code, out, err = run(capsys, "referee", "solve", str(path), "--json")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [h["hand"] for h in lines] == [1, 2]
    results = Game.from_events(events).results
    for hand in lines:
        assert hand["game"] == str(path)
        positions = hand["positions"]
        assert [p["played"] for p in positions] == list(range(32))
        assert sorted(p["card"] for p in positions) == sorted(card_name(c) for c in range(32))
        for p in positions:
            assert set(p) >= {"played", "seat", "par", "cards", "card", "cost"}
            team = "NS" if p["seat"] in "NS" else "EW"
            for value in list(p["cards"].values()) + [p["par"]]:
                assert value["NS"] + value["EW"] == 162
                assert value.get("capot") in (None, "NS", "EW")
            assert _scale(p["par"], team) == max(_scale(v, team) for v in p["cards"].values())
            if p["card"] in p["cards"]:                      # a legal card: never better than par
                assert p["cost"] == _scale(p["par"], team) - _scale(p["cards"][p["card"]], team) >= 0
        # the last card is forced: its value is the hand's result
        result = results[hand["hand"] - 1]
        last = positions[-1]["cards"][positions[-1]["card"]]
        shown = {"NS": result.card_points[0], "EW": result.card_points[1]}
        if result.capot:
            side = "NS" if result.tricks[0] == 8 else "EW"
            assert last == {side: 162, ("EW" if side == "NS" else "NS"): 0, "capot": side}
        else:
            assert last == shown
    assert "analysed" in err or "position" in err            # progress on stderr


def test_one_hand_one_position(capsys, record):
    path, _ = record
    code, out, _ = run(capsys, "referee", "solve", str(path), "--hand", "2", "--position", "13", "--json")
    assert code == 0
    (line,) = out.splitlines()
    hand = json.loads(line)
    assert hand["hand"] == 2 and [p["played"] for p in hand["positions"]] == [13]


def test_the_text_form_is_a_table_per_hand(capsys, record):
    path, _ = record
    code, out, _ = run(capsys, "referee", "solve", str(path), "--hand", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{path} hand 1:")
    assert len(lines) == 2 + 32


def test_python_and_c_engines_print_the_same(capsys, record):
    path, _ = record
    c = run(capsys, "referee", "solve", str(path), "--hand", "1", "--position", "12", "--json", "--engine", "c")
    python = run(capsys, "referee", "solve", str(path), "--hand", "1", "--position", "12", "--json",
                 "--engine", "python")
    assert c[1] == python[1] and c[0] == 0


def test_bad_input_exits_2_and_says_what_to_fix(capsys, tmp_path, record):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"game","version":1,"rules":"ffb-contree"}\n{"type":"deal"\n')
    code, out, err = run(capsys, "referee", "solve", str(bad))
    assert code == 2 and out == "" and "bad.jsonl:2:" in err
    code, _, err = run(capsys, "referee", "solve", str(record[0]), "--position", "40")
    assert code == 2 and "0 to 31" in err


def test_a_record_without_hands_has_nothing_to_analyse(capsys, tmp_path, record):
    _, events = record
    blind = [dict(e, hands=None) if e["type"] == "deal" else e for e in events]
    path = tmp_path / "blind.jsonl"
    write_record(path, blind)
    code, out, err = run(capsys, "referee", "solve", str(path))
    assert code == 0 and out == "" and "nothing to analyse" in err


def test_the_command_runs_as_installed(record):
    path, _ = record
    done = subprocess.run([str(Path(sys.executable).with_name("belote-table")), "referee", "solve", str(path),
                           "--hand", "1", "--position", "31", "--json"], capture_output=True, text=True, check=True)
    position = json.loads(done.stdout)["positions"][0]
    assert position["played"] == 31 and len(position["cards"]) == 1 and position["cost"] == 0


def test_scoresheet_analysis_sums_the_costs_and_names_the_turning_card(record):
    _, events = record
    analyses = list(analyse_game(events))
    sheet = scoresheet_analysis(analyses)
    assert [h["hand"] for h in sheet] == [1, 2]
    for hand, page in zip(analyses, sheet):
        for team, name in ((0, "NS"), (1, "EW")):
            assert page["losses"][name] == sum(p.cost for p in hand.positions
                                               if p.cost is not None and p.seat & 1 == team)
        costly = [p for p in hand.positions if p.cost]
        assert len(page["marks"]) == len(costly)
        if costly:
            assert page["turning"] is not None
            assert page["turning"]["cost"] > 0
        for m in page["marks"]:
            assert m["mark"] == mark(m["cost"]) != ""
    assert mark(0) == "" and mark(5) == "?!" and mark(12) == "?" and mark(40) == "??"


def test_a_card_played_out_of_turn_goes_back_and_changes_nothing(record):
    _, events = record
    first = next(i for i, e in enumerate(events) if e["type"] == "play")
    game = Game.from_events(events[:first])
    wrong = (game.play.to_play + 1) & 3
    card = card_name(next(c for c in range(32) if game.play.hand(wrong) >> c & 1))
    noisy = events[:first] + [{"type": "play", "seat": "NESW"[wrong], "card": card}] + events[first:]
    assert [v.rule for v in Game.from_events(noisy).results[0].violations][:1] == ["out-of-turn"]
    plain = [h.as_dict("g") for h in analyse_game(events, hands=[1], position=3)]
    assert [h.as_dict("g") for h in analyse_game(noisy, hands=[1], position=3)] == plain
