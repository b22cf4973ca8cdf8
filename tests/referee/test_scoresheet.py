"""The score sheet: one line per hand with running totals, as CSV, JSON and a printable A4 PDF; its command."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record import write_record
from referee.scoresheet import CSV_COLUMNS, Scoresheet
from referee.sensor_faults import Faults
from referee.simulate import simulate

import replay

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def refereed(tmp_path_factory):
    sim = simulate(40, seed=7, faults=Faults(violations=0.6))
    referee = replay.refereed(sim)               # the sensors, and the console's answers where it asked
    path = tmp_path_factory.mktemp("sheet") / "game.jsonl"
    write_record(path, referee.record)
    return sim, referee, path


def test_each_hand_has_its_line_and_the_totals_run(refereed):
    sim, referee, _ = refereed
    sheet = Scoresheet.from_referee(referee)
    assert [r.number for r in sheet.rows] == [r.number for r in sim.truth.results]
    running = [0, 0]
    for row, truth in zip(sheet.rows, sim.truth.results):
        running = [running[0] + row.points[0], running[1] + row.points[1]]
        assert row.totals == tuple(running)
        assert row.points == truth.score and row.result == truth.result
        assert row.dealer == "NESW"[truth.dealer]
    assert sheet.totals == sim.truth.totals and sheet.winner in ("NS", "EW")
    table_rules = {v["rule"] for r in sheet.rows for v in r.violations} & {"misdeal", "wrong-pickup"}
    assert table_rules, "the table's own findings are on the sheet too"


def test_csv_and_json_say_the_same(refereed):
    _, referee, _ = refereed
    sheet = Scoresheet.from_referee(referee)
    rows = list(csv.DictReader(io.StringIO(sheet.to_csv())))
    assert tuple(rows[0]) == CSV_COLUMNS
    data = json.loads(sheet.to_json())
    assert len(rows) == len(data["hands"]) == len(sheet.rows)
    for line, hand in zip(rows, data["hands"]):
        assert int(line["hand"]) == hand["number"]
        assert int(line["total_ns"]) == hand["totals"]["NS"] and int(line["total_ew"]) == hand["totals"]["EW"]
        assert line["contract"] == (hand["contract"]["call"] if hand["contract"] else "")
        assert bool(line["violations"]) == bool(hand["violations"])
    assert data["totals"] == {"NS": sheet.totals[0], "EW": sheet.totals[1]}


def test_the_pdf_is_one_a4_sheet_with_the_hands(refereed):
    _, referee, _ = refereed
    pdf = Scoresheet.from_referee(referee).to_pdf()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in pdf          # A4 in points
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 1


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "commands.main", *args], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=120)


def test_the_scoresheet_command(refereed, tmp_path):
    _, referee, path = refereed
    out = _cli("scoresheet", str(path), "--format", "csv")
    assert out.returncode == 0 and out.stdout.decode() == Scoresheet.from_referee(referee).to_csv()
    out = _cli("scoresheet", str(path), "--format", "pdf", "--out", str(tmp_path / "s.pdf"))
    assert out.returncode == 0 and (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF-")
    assert b"wrote" in out.stderr and not out.stdout
    out = _cli("scoresheet", "-", "--format", "json", stdin=path.read_bytes())
    assert json.loads(out.stdout)["totals"]
    broken = tmp_path / "broken.jsonl"
    lines = path.read_text().splitlines()
    broken.write_text("\n".join(lines[:3] + ['{"type": "play", "seat": "X"}'] + lines[3:]) + "\n")
    out = _cli("scoresheet", str(broken))
    assert out.returncode == 2 and b"broken.jsonl:4" in out.stderr and not out.stdout


def test_the_simulate_command_prints_the_measures():
    out = _cli("referee", "simulate", "--hands", "30", "--seed", "3", "--json", "--strict")
    assert out.returncode == 0, out.stderr.decode()
    d = json.loads(out.stdout)
    assert d["hands"] >= 30 and d["recall"] == 1.0 and d["false_accusations"] == 0
    assert b"refereed" in out.stderr
    out = _cli("referee", "simulate", "--hands", "5", "--faults", "misread=7")
    assert out.returncode == 2 and b"--faults" in out.stderr


def test_ingest_and_export_commands(tmp_path):
    sim = simulate(4, seed=12)
    from referee.observations import to_dict
    obs = tmp_path / "obs.jsonl"
    obs.write_text("".join(json.dumps(to_dict(o)) + "\n" for o in sim.observations))
    out = _cli("referee", "ingest", str(obs), "--store", str(tmp_path / "g.db"))
    assert out.returncode == 0 and b"observations accepted" in out.stderr
    out = _cli("referee", "export", str(tmp_path / "g.db"))
    lines = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert out.returncode == 0 and lines[0]["type"] == "game" and any(e["type"] == "play" for e in lines)
    out = _cli("referee", "export", str(tmp_path / "missing.db"))
    assert out.returncode == 2 and b"does not exist" in out.stderr
