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


def test_analysis_page_marks_each_finished_hands_losses_and_turning_card(client, finished_record):
    from referee.analysis import analyse_game, scoresheet_analysis

    page = client.get("/scoresheet/t9-1/analysis?lang=en")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    expected = scoresheet_analysis(analyse_game(finished_record))
    assert expected and html.count('<tr class="') == len(expected)
    for hand in expected:
        row = html.split(f'data-hand="{hand["hand"]}"')[1].split("</tr>")[0]
        assert f'data-team="NS">{hand["losses"]["NS"]}<' in row and f'data-team="EW">{hand["losses"]["EW"]}<' in row
        if hand["turning"]:
            assert f'data-card="{hand["turning"]["card"]}"' in row.split('class="l turning"')[1].split("</td>")[0]
    assert f'id="losses-NS">{sum(h["losses"]["NS"] for h in expected)}<' in html
    # the sheet links to it; a live game with no finished hand has nothing to show yet
    assert 'href="/scoresheet/t9-1/analysis"' in client.get("/scoresheet/t9-1").get_data(as_text=True)
    live = client.get("/scoresheet/t1-1/analysis?lang=en").get_data(as_text=True)
    assert "nothing to analyse" in live


def test_a_live_games_analysis_leaves_out_the_hand_being_played(tmp_path, finished_record):
    """The sheet is public: the hand in play is still in the players' hands."""
    deals = [i for i, e in enumerate(finished_record) if e["type"] == "deal"]
    games = tmp_path / "games"
    games.mkdir()
    import_record(finished_record[:deals[1] + 12], games / "t1-1.sqlite").close()    # hand 2 part-played
    hub = Hub(call_soon_threadsafe=lambda fn: fn(), call_later=lambda s, fn: None, event_factory=threading.Event)
    board = Dashboard(accounts=Accounts(tmp_path / "dashboard.sqlite"), hub=hub, instance=tmp_path, public=True)
    add_table(board, "t1", "Table 1", "ffb-contree", {})
    html = create_app(board).test_client().get("/scoresheet/t1-1/analysis?lang=en").get_data(as_text=True)
    assert 'data-hand="1"' in html and 'data-hand="2"' not in html


def test_a_finished_game_still_on_its_table_is_finished_and_replays_an_empty_one_is_not_listed(
        tmp_path, finished_record):
    """Issue 12: a finished game was listed under LIVE until "New game" was pressed (and had no
    replay slider till then); a game with nothing but its header was listed under FINISHED."""
    from referee.store import StoredReferee
    from web_dashboard.room import LiveTable

    games = tmp_path / "games"
    games.mkdir()
    hub = Hub(call_soon_threadsafe=lambda fn: fn(), call_later=lambda s, fn: None, event_factory=threading.Event)
    board = Dashboard(accounts=Accounts(tmp_path / "dashboard.sqlite"), hub=hub, instance=tmp_path, public=True)
    add_table(board, "t1", "Table 1", "ffb-contree", {"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"})
    over = import_record(finished_record, games / "t2-1.sqlite")         # its table's game is over
    board.room.add(LiveTable("t2", "Table 2", over, hub.submit))
    StoredReferee(games / "t3-1.sqlite", header=finished_record[0]).close()   # opened, never dealt
    client = create_app(board).test_client()
    archive = client.get("/scoresheets?lang=en").get_data(as_text=True)
    live, finished = archive.split('id="finished"')
    assert 'href="/scoresheet/t1-1"' in live and "/scoresheet/t2-1" not in live
    assert 'href="/scoresheet/t2-1"' in finished and "t3-1" not in archive
    page = client.get("/scoresheet/t2-1?lang=en").get_data(as_text=True)
    assert 'id="replay-step"' in page and "Table 2" in page and 'http-equiv="refresh"' not in page
    states = client.get("/scoresheet/t2-1/replay.json").get_json()["states"]
    assert len(states) == len(finished_record) - 1
