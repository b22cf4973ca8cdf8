"""``belote-table referee legal|check|profiles|demo`` as a user runs them: results on
stdout, messages on stderr, exit 2 with the line on bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.demo import play_demo_game
from referee.record import write_record
from commands.main import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_prints_the_legal_cards_in_the_order_given(capsys):
    code, out, err = run(capsys, "referee", "legal", "--rules", "ffb-contree", "--trump", "h",
                         "--trick", "As 7s 8s", "--hand", "Ks 9s Jh")
    assert (code, out, err) == (0, "Ks 9s\n", "")


def test_legal_must_trump_and_the_undertrump_option(capsys):
    args = ["referee", "legal", "--trump", "h", "--trick", "As Jh", "--hand", "Ad 9h 8h"]
    assert run(capsys, *args, "--rules", "ffb-contree")[1] == "Ad 9h 8h\n"     # opponent trumped higher: free
    assert run(capsys, *args, "--rules", "classic")[1] == "9h 8h\n"            # must undertrump (004)
    assert run(capsys, *args, "--rules", "ffb-contree", "--option", "undertrump=must")[1] == "9h 8h\n"


def test_legal_beat_partner_option_of_seed_001(capsys):
    args = ["referee", "legal", "--rules", "contree", "--trump", "h", "--trick", "9h 7h", "--hand", "Jh 8h Ks"]
    assert run(capsys, *args)[1] == "Jh\n"                                    # beat even partner's 9 (000, 004)
    assert run(capsys, *args, "--option", "beat_partner_on_trump_lead=false")[1] == "Jh 8h\n"   # 001


def test_legal_accepts_other_card_spellings_and_prints_canonical_ones(capsys):
    assert run(capsys, "referee", "legal", "--trump", "♥", "--trick", "10s", "--hand", "AS jH")[1] == "As\n"


@pytest.mark.parametrize("args,message", [
    (["--trump", "x", "--hand", "Ks"], "is not a trump mode"),
    (["--trump", "h", "--hand", "Ks 2h"], "'2h' is not a Belote card"),
    (["--trump", "h", "--hand", "Ks", "--rules", "bridge"], "unknown rules profile"),
    (["--trump", "h", "--hand", "Ks", "--option", "undertrump"], "write key=value"),
    (["--trump", "h", "--hand", "Ks", "--option", "undertrump=maybe"], "takes one of"),
    (["--trump", "h", "--trick", "Ks", "--hand", "Ks Qs"], "both in the trick and in the hand"),
])
def test_legal_bad_input_exits_2_with_what_to_fix(capsys, args, message):
    code, out, err = run(capsys, "referee", "legal", *args)
    assert code == 2 and out == "" and message in err


def test_check_json_has_designs_shape(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    write_record(record, play_demo_game(seed=4, rules="ffb-contree", max_hands=5, violation_rate=0.05))
    code, out, err = run(capsys, "referee", "check", str(record), "--json")
    summary = json.loads(out)
    assert code == 0 and err == "" and set(summary) == {"hands", "totals", "winner"}
    assert len(summary["hands"]) == 5 and set(summary["totals"]) == {"NS", "EW"}
    totals = {t: sum(h["score"][t] for h in summary["hands"]) for t in ("NS", "EW")}
    assert totals == summary["totals"]
    for hand in summary["hands"]:
        if hand["contract"]:
            assert set(hand["contract"]) == {"taker", "call", "counter"} and hand["contract"]["counter"] in (1, 2, 4)
        for v in hand["violations"]:
            assert {"seat", "rule", "message"} <= set(v) and ("trick" in v or "call" in v)
    assert any(h["violations"] for h in summary["hands"])


def test_check_prints_a_table_and_strict_fails_on_violations(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    write_record(record, play_demo_game(seed=4, rules="classic", max_hands=5, violation_rate=0.05))
    code, out, err = run(capsys, "referee", "check", str(record))
    assert code == 0 and "contract" in out.splitlines()[1] and out.splitlines()[-1].startswith("totals NS")
    assert run(capsys, "referee", "check", str(record), "--strict")[0] == 1


def test_check_a_malformed_record_exits_2_naming_the_line(tmp_path, capsys):
    events = play_demo_game(seed=4, max_hands=1)
    assert events[6]["type"] == "call"
    lines = [json.dumps(e) for e in events]
    lines[6] = json.dumps({"type": "call", "seat": events[6]["seat"], "cal": events[6]["call"]})
    record = tmp_path / "bad.jsonl"
    record.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "referee", "check", str(record), "--json")
    assert code == 2 and out == "" and f"{record}:7: " in err and '"call" is missing' in err


def test_check_an_unfinished_record_warns_on_stderr(tmp_path, capsys):
    events = play_demo_game(seed=4, max_hands=2)
    record = tmp_path / "cut.jsonl"
    write_record(record, events[:-3])
    code, out, err = run(capsys, "referee", "check", str(record), "--json")
    assert code == 0 and "ends during hand 2" in err and len(json.loads(out)["hands"]) == 1


def test_profiles_lists_every_profile_with_notes_and_options(capsys):
    code, out, _ = run(capsys, "referee", "profiles")
    for name in ("ffb-contree", "contree", "coinche", "classic", "classic-501"):
        assert f"\n{name}\n" in f"\n{out}"
    assert "undertrump=must" in out
    # Issue 12: rulebooks by the names a player knows, not "Seed 000 §4.1".
    assert "(FFB rules §4.1)" in out and "FFB rules: the official rules of Belote Contrée" in out
    assert "Seed 0" not in out and "(000 §" not in out and "(001)" not in out
    data = json.loads(run(capsys, "referee", "profiles", "--json")[1])
    assert data["classic-501"]["options"]["target"] == 501 and "The 501 rules" in data["classic-501"]["notes"]


def test_demo_prints_a_whole_seeded_game(capsys):
    code, out, err = run(capsys, "referee", "demo", "--seed", "3", "--hands", "2")
    assert code == 0 and "=== Hand 1" in out and "=== Score sheet" in out and "playing" in err
    assert run(capsys, "referee", "demo", "--seed", "3", "--hands", "2")[1] == out


def test_the_installed_entry_point_runs_legal(tmp_path):
    # The real process, as a user types it (stdout only carries the result).
    result = subprocess.run([sys.executable, "-m", "commands.main", "referee", "legal", "--trump", "s",
                             "--trick", "Ah", "--hand", "7s Kh"], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert (result.returncode, result.stdout) == (0, "Kh\n")


def test_check_reads_a_record_from_stdin(tmp_path):
    record = tmp_path / "game.jsonl"
    write_record(record, play_demo_game(seed=4, max_hands=2))
    result = subprocess.run([sys.executable, "-m", "commands.main", "referee", "check", "-", "--json"],
                            stdin=record.open(), capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0 and len(json.loads(result.stdout)["hands"]) == 2


def test_legal_explain_says_why_each_other_card_is_illegal_on_stderr(capsys):
    code, out, err = run(capsys, "referee", "legal", "--rules", "classic", "--trump", "h",
                         "--trick", "As Jh", "--hand", "Ad 9h 8h", "--explain")
    assert (code, out) == (0, "9h 8h\n")
    assert len(err.splitlines()) == 1 and err.startswith("Ad: must-undertrump: S held ♥8 but did not trump")
