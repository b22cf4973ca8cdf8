"""Scoresheets from real event stores: the page, the CSV and the PDF agree
with the rules engine's totals, the archive lists finished games, and a
finished game replays event by event (a live one does not)."""

from __future__ import annotations

import csv
import io
import subprocess
import threading

import pytest

from referee.demo import play_demo_game
from referee.game import Game
from referee.store import import_record
from web_dashboard.accounts import Accounts
from web_dashboard.app import create_app
from web_dashboard.board import Dashboard
from web_dashboard.hub import Hub
from web_dashboard.table_runner import add_table


@pytest.fixture(scope="module")
def finished_record():
    return play_demo_game(seed=3, rules="ffb-contree")


@pytest.fixture
def client(tmp_path, finished_record):
    games = tmp_path / "games"
    games.mkdir()
    import_record(finished_record, games / "t9-1.sqlite").close()
    hub = Hub(call_soon_threadsafe=lambda fn: fn(), call_later=lambda s, fn: None, event_factory=threading.Event)
    board = Dashboard(accounts=Accounts(tmp_path / "dashboard.sqlite"), hub=hub, instance=tmp_path, public=True)
    add_table(board, "t1", "Table 1", "ffb-contree", {"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"})
    return create_app(board).test_client()


def test_sheet_csv_and_pdf_agree_with_the_engine(client, finished_record):
    game = Game.from_events(finished_record)
    assert game.over
    page = client.get("/scoresheet/t9-1?lang=en").get_data(as_text=True)
    assert f'id="sheet-NS">{game.totals[0]}<' in page and f'id="sheet-EW">{game.totals[1]}<' in page
    rows = list(csv.DictReader(io.StringIO(client.get("/scoresheet/t9-1.csv").get_data(as_text=True))))
    assert len(rows) == len(game.results)
    assert (int(rows[-1]["total_ns"]), int(rows[-1]["total_ew"])) == game.totals
    assert sum(int(r["points_ns"]) for r in rows) == game.totals[0]
    pdf = client.get("/scoresheet/t9-1.pdf")
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    assert f"Winner: {('NS', 'EW')[game.winner]} ({game.totals[0]} to {game.totals[1]})" in text
    # The live game's sheet is there from its first hand: empty, with the players.
    live = client.get("/scoresheet/t1-1?lang=en").get_data(as_text=True)
    assert "Ana &amp; Cy" in live and 'id="sheet-NS">0<' in live


def test_archive_and_replay_of_a_finished_game(client, finished_record):
    archive = client.get("/scoresheets?lang=en").get_data(as_text=True)
    assert 'href="/scoresheet/t9-1"' in archive and 'href="/scoresheet/t1-1"' in archive
    states = client.get("/scoresheet/t9-1/replay.json").get_json()["states"]
    assert len(states) == len(finished_record) - 1
    game = Game.from_events(finished_record)
    assert (states[-1]["score"]["NS"], states[-1]["score"]["EW"]) == game.totals
    first_play = next(s for s in states if s["event"]["type"] == "play")
    assert sum(len(cards) for cards in first_play["hands"].values()) == 31
    # The live game is not replayed card by card, and an unknown game is a clear 404.
    assert client.get("/scoresheet/t1-1/replay.json").status_code == 403
    missing = client.get("/scoresheet/nope")
    assert missing.status_code == 404 and "/scoresheets" in missing.get_data(as_text=True)
