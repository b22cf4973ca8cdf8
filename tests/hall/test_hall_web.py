"""The hall's pages against the real hall (``hall serve``) and a real board
(``belote-table serve --hall``, a console table): the hall view, the desk
(sign-in, CSRF, rounds, an audited correction), the assignment reaching the
board, the standings, results as CSV and PDF, a team's history, and the pages
in headless Chromium."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

from hall_harness import FAST, ROOT, wait_equal

from hall.db import HallDB


@pytest.fixture
def board(hall, workdir):
    """A console table (no sensors) joined to the hall as t1."""
    proc = subprocess.Popen([sys.executable, "-m", "commands.main", "serve", "--port", "0",
                             "--instance", str(workdir / "board"), "--hall", hall.url_via(hall.proxy),
                             "--table-id", "t1", "--seats", "Ana,Bo,Cy,Di"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **FAST, "PYTHONUNBUFFERED": "1"})
    lines = []
    for line in proc.stderr:
        lines.append(line)
        if "Stop with Ctrl-C" in line:
            break
    assert any("t1 joined" in line for line in lines), "".join(lines)
    yield workdir / "board"
    proc.send_signal(2)
    proc.wait(20)


def desk_session(hall):
    password = next(re.search(r"password: ([^) ]+)\)", l).group(1) for l in hall.lines if "Desk:" in l)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    page = opener.open(f"{hall.base}/signin?next=/desk").read().decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    page = opener.open(f"{hall.base}/signin", data=urllib.parse.urlencode(
        {"csrf": csrf, "password": password, "next": "/desk"}).encode()).read().decode()
    return opener, re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def act(opener, hall, csrf, action, args=None, reason=None):
    body = json.dumps({"action": action, "args": args or {}, "reason": reason, "who": "Zoe"}).encode()
    req = urllib.request.Request(f"{hall.base}/api/hall/desk", data=body,
                                 headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
    try:
        with opener.open(req) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_desk_runs_a_round_that_reaches_the_board_and_the_standings(hall, board):
    # The desk is the organiser's: no session, no action; a wrong CSRF token, no action.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(urllib.request.Request(f"{hall.base}/api/hall/desk", data=b"{}",
                                                      headers={"Content-Type": "application/json"}))
    assert refused.value.code == 401
    assert "/signin" in urllib.request.urlopen(f"{hall.base}/desk").url
    opener, csrf = desk_session(hall)
    assert act(opener, hall, "wrong", "start-round")[0] == 403

    for team, players in {"A": ("Ana Martin", "Cy Petit"), "B": ("Bo Durand", "Di Simon")}.items():
        status, _ = act(opener, hall, csrf, "add-team", {"team": team, "player1": players[0],
                                                          "licence1": "04123456", "player2": players[1]})
        assert status == 200
    status, answer = act(opener, hall, csrf, "start-round", {"shuffle_seed": 1})
    assert status == 200 and answer["round"]["tables"][0]["table"] == "t1"
    assert act(opener, hall, csrf, "start-round")[0] == 409          # round 1 is still open
    desk = opener.open(f"{hall.base}/desk?lang=en").read().decode()
    assert re.search(r'id="assignment".*<td>t1</td>', desk, re.S)
    sheet = urllib.request.urlopen(f"{hall.base}/pairings/open?lang=en").read().decode()
    assert "N Ana Martin" in sheet or "E Ana Martin" in sheet                # the table card to print
    french = urllib.request.urlopen(f"{hall.base}/pairings/open?lang=fr").read().decode()
    assert re.search(r"· O (Cy Petit|Di Simon)</td>", french) and "· W " not in french   # O for Ouest (issue 12)

    # The board hears its assignment with its next heartbeat: a new game with the players' names.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        view = hall.hall_view()
        line = next((t for t in view["tables"] if t["id"] == "t1"), {})
        if line.get("round") == 1:
            break
        time.sleep(0.3)
    assert line["round"] == 1 and line["link"] == "live" and line["lag"]["events"] == 0
    assert set(line["seats"].values()) == {"Ana Martin", "Cy Petit", "Bo Durand", "Di Simon"}
    assert line["sensors"] == {} or "console" not in line["sensors"]

    # A correction needs its reason; with one it changes the standings, and the audit says who and why.
    status, answer = act(opener, hall, csrf, "correct", {"round": 1, "table": "t1", "NS": 120, "EW": 700})
    assert status == 409 and "reason" in answer["error"]
    status, _ = act(opener, hall, csrf, "correct", {"round": 1, "table": "t1", "NS": 120, "EW": 700,
                                                   "reason": "sheet signed by both teams"})
    assert status == 200
    act(opener, hall, csrf, "close-round")
    csv_text = urllib.request.urlopen(f"{hall.base}/results/open.csv").read().decode()
    ranking = csv_text.strip().split("\r\n")
    assert ranking[0].startswith("rank,team,name") and ranking[1].split(",")[4] == "2"    # the winner's 2 MP
    assert "sheet signed by both teams" in csv_text
    pdf = urllib.request.urlopen(f"{hall.base}/results/open.pdf").read()
    assert pdf.startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True).stdout.decode()
    assert "Ana Martin" in text and "corrected: sheet signed by both teams" in text
    page = urllib.request.urlopen(f"{hall.base}/results/open").read().decode()
    assert "Zoe" in page and "correct" in page                                   # the audit trail
    winner = ranking[1].split(",")[1]
    history = urllib.request.urlopen(f"{hall.base}/team/open/{winner}?lang=en").read().decode()
    assert "won" in history and "t1" in history


def test_the_hall_and_standings_pages_in_chromium(hall, board, browser, tmp_path):
    from playwright.sync_api import expect

    from hall.desk import Desk

    desk = Desk(HallDB(hall.dsn), "open")
    for team, (a, b) in {"A": ("Ana", "Cy"), "B": ("Bo", "Di")}.items():
        desk.act("add-team", {"team": team, "player1": a, "player2": b}, "test")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{hall.base}/hall?lang=en")
    card = page.locator('[data-table="t1"]')
    expect(card).to_contain_text("live")
    expect(card).to_contain_text("lag 0")
    page.screenshot(path=str(tmp_path / "hall.png"))
    page.goto(f"{hall.base}/standings/open?lang=en")
    expect(page.locator("#standings tbody tr")).to_have_count(2)
    expect(page.locator("#standings")).to_contain_text("Ana & Cy")
    assert errors == []
    context.close()

def test_the_featured_table_runs_at_full_rate_while_the_hall_view_is_throttled(pg, workdir):
    """With the hall view rebuilt only every 5 s, the featured table's stream still shows
    every event as it is ingested."""
    from hall_harness import Board, HallProcess, Proxy, new_database

    dsn = new_database(pg, "h_featured")
    hall = HallProcess(workdir / "hall", dsn, throttle=5.0).start()
    hall.proxy = Proxy(hall.leaf_port)
    board = Board(workdir / "b1", "t1", hall.url_via(hall.proxy), seed=4)
    board.play(3)
    wait_equal(dsn, [board])
    seen: list[tuple[float, int]] = []
    response = urllib.request.urlopen(f"{hall.base}/stream/hall/featured", timeout=30)

    def read() -> None:
        state: dict = {}
        try:
            for raw in response:
                if raw.startswith(b"data: "):
                    data = json.loads(raw[6:])
                    state = {**state, **data.get("set", data)}
                    if "seq" in state:
                        seen.append((time.monotonic(), state["seq"]))
        except (OSError, ValueError, AttributeError):
            pass
    import threading
    threading.Thread(target=read, daemon=True).start()
    time.sleep(1.5)
    assert seen and seen[0][1] == 4, seen                       # featured from the start: the first table
    for _ in range(8):                                          # one event every 0.4 s
        board.play(1)
        time.sleep(0.4)
    time.sleep(1.0)
    seqs = [s for _, s in seen]
    assert len(set(seqs)) >= 7, seqs                             # (almost) every event, not one per 5 s
    assert seqs == sorted(seqs)
    response.close()
    board.stop()
    hall.proxy.cut()
    hall.stop()
