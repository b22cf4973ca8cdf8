"""A corpus of hostile lines through `referee check` and `referee ingest`
(issue 12): never a traceback; `check` exits 2 naming the line; `ingest` keeps
every good line (the game is the one the clean log makes), exits 2 naming the
bad line, and the store it leaves is resumed by a restarted table, which
serves.

The corpus is ``bench/_hostile.py``'s ``HOSTILE_LINES``: deep nesting, 5,000
digits, NaN, bad UTF-8, lone surrogates, a 100 KB line, the wrong types...
"""

from __future__ import annotations

import json
import shutil

import pytest

from bench._hostile import HOSTILE_LINES
from commands.main import main
from referee.demo import play_demo_game
from referee.observations import to_dict
from referee.oracle import answered_stream
from referee.record import dumps_event
from referee.simulate import simulate
from referee.store import EventStore
from web_boards import serve_board, signed_in

IDS = [name for name, _ in HOSTILE_LINES]


def _facts(value):
    """A record without the observation ids it cites (the stored bad line takes an id too)."""
    if isinstance(value, dict):
        return {k: _facts(v) for k, v in value.items() if k not in ("evidence", "obs")}
    return [_facts(v) for v in value] if isinstance(value, list) else value


@pytest.fixture(scope="module")
def record_lines():
    return [dumps_event(e).encode() for e in play_demo_game(seed=4, rules="ffb-contree", max_hands=1)]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An observation log of two refereed hands, and the record its ingest makes."""
    folder = tmp_path_factory.mktemp("clean")
    lines = [json.dumps(to_dict(o)).encode() for o in answered_stream(simulate(2, seed=5))]
    (folder / "obs.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    assert main(["referee", "ingest", str(folder / "obs.jsonl"), "--store", str(folder / "g.db")]) == 0
    return lines, EventStore(folder / "g.db").export_record()


@pytest.mark.parametrize("line", [line for _, line in HOSTILE_LINES], ids=IDS)
def test_check_names_the_hostile_line_and_exits_2(line, record_lines, tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join(record_lines[:3] + [line] + record_lines[3:]) + b"\n")
    assert main(["referee", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:4: " in err and "Traceback" not in err, err[:300]
    assert main(["referee", "check", "--json", str(path)]) == 2


@pytest.mark.parametrize("line", [line for _, line in HOSTILE_LINES], ids=IDS)
def test_ingest_keeps_every_good_line_names_the_bad_one_and_a_restart_serves(line, clean, tmp_path, capsys):
    lines, record = clean
    at = len(lines) // 3
    source = tmp_path / "obs.jsonl"
    source.write_bytes(b"\n".join(lines[:at] + [line] + lines[at:]) + b"\n")
    games = tmp_path / "var" / "games"
    games.mkdir(parents=True)
    store = games / "t1-1.sqlite"
    assert main(["referee", "ingest", str(source), "--store", str(store), "--burst", "16"]) == 2
    err = capsys.readouterr().err
    assert f"obs.jsonl:{at + 1}: " in err and "Traceback" not in err, err[-400:]
    assert main(["referee", "ingest", str(source), "--store", str(store)]) == 0     # run again: nothing new
    kept = EventStore(store)
    rows = list(kept.observations())
    assert len(rows) == len(lines) + 1 and kept.cursor == str(len(lines) + 1)        # every line, once
    assert [status for _, _, status, _ in rows].count("accepted") == len(lines)
    assert _facts(kept.export_record()) == _facts(record)                          # the same game
    kept.close()
    board = serve_board(tmp_path / "var")                                           # a restart resumes it
    assert _facts(board.room.get("t1").record()) == _facts(record)
    client, csrf = signed_in(board)
    assert client.get("/club").status_code == 200
    response = client.post("/api/tables/t1/console", json={"action": "call", "seat": "N", "call": "pass"},
                           headers=csrf)
    assert response.status_code in (200, 409), response.get_json()


def test_a_check_of_bad_utf8_from_stdin_names_the_line(record_lines, monkeypatch, capsys):
    import io
    import sys

    data = b"\n".join(record_lines[:2] + [b'{"type":"call","seat":"W","call":"pa\xe9ss"}']) + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["referee", "check", "-"]) == 2
    assert "<stdin>:3: not UTF-8 text (byte 0xe9 at column 37)" in capsys.readouterr().err


def test_ingest_of_a_file_that_is_not_there_or_a_store_that_is_not_one_says_so(tmp_path, capsys):
    shutil.copy(__file__, tmp_path / "not-a-store.db")
    (tmp_path / "obs.jsonl").write_text('{"kind":"console","t":1,"action":"start","seat":"N"}\n')
    assert main(["referee", "ingest", str(tmp_path / "missing.jsonl"), "--store", str(tmp_path / "g.db")]) == 2
    assert main(["referee", "ingest", str(tmp_path / "obs.jsonl"), "--store", str(tmp_path / "not-a-store.db")]) == 2
    assert main(["referee", "ingest", str(tmp_path / "obs.jsonl"), "--store", str(tmp_path / "h.db"),
                 "--rules", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert "No such file" in err and "not a usable game store" in err and "unknown rules profile" in err
