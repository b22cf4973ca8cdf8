"""The SQLite event store: what goes in comes back, garbage is kept with its reason, records round-trip."""

from __future__ import annotations

import json
import sqlite3

import pytest

from referee.observations import CardSeen, to_dict
from referee.record import read_record
from referee.oracle import answered_stream
from referee.sensor_faults import Faults
from referee.simulate import simulate
from referee.store import EventStore, StoredReferee, StoreError, import_record, ingest_file, write_record
from referee.table_referee import TableReferee


@pytest.fixture(scope="module")
def game():
    sim = simulate(8, seed=4, faults=Faults(violations=0.5))
    return sim, answered_stream(sim)


def test_a_reopened_store_is_exactly_where_it_was(game, tmp_path):
    sim, stream = game
    half = len(stream) // 2
    referee = StoredReferee(tmp_path / "g.db", header=sim.header)
    referee.ingest_burst(stream[:half])
    snapshot = json.dumps(referee.snapshot(), sort_keys=True)
    referee.close()
    again = StoredReferee(tmp_path / "g.db")
    assert json.dumps(again.snapshot(), sort_keys=True) == snapshot
    again.ingest_burst(stream[half:])
    pure = TableReferee(header=sim.header)
    for obs in stream:
        pure.ingest(obs)
    assert again.record == pure.record
    assert EventStore(tmp_path / "g.db").export_record() == pure.record
    db = sqlite3.connect(tmp_path / "g.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_garbage_is_stored_as_rejected_with_its_reason_and_the_game_goes_on(game, tmp_path):
    sim, stream = game
    referee = StoredReferee(tmp_path / "g.db", header=sim.header)
    referee.ingest_burst(stream[:100])
    last_t = stream[99].t
    garbage = ['{"kind": "seen", "source": "rfid", "t": 1, "zone": "hand:N", "card": "Jh"}',  # time back
               '{"kind": "seen", "source": "rfid", "t": 9e9, "zone": "table:N", "card": "Jh"}',  # no such zone
               '{"kind": "seen", "source": "rfid", "t": 9e9, "zone": "hand:N", "card": "1x"}',   # not a card
               'not json at all', '[1, 2]']
    outputs = referee.ingest_burst(garbage)
    assert [o.kind for o in outputs] == ["rejected"] * 5
    rows = list(referee.store.observations())[-5:]
    assert [raw for _, raw, _, _ in rows] == garbage
    assert all(status == "rejected" and reason for _, _, status, reason in rows)
    assert "time goes back" in rows[0][3] and "table:N" in rows[1][3] and "'1x'" in rows[2][3]
    assert "not JSON" in rows[3][3] and "JSON object" in rows[4][3]
    referee.ingest_burst(stream[100:])
    assert referee.store.counts()["rejected"] == 5
    assert [r.score for r in referee.results] == [r.score for r in sim.truth.results]
    assert last_t < stream[100].t


def test_ingesting_a_file_twice_applies_nothing_twice(game, tmp_path):
    sim, stream = game
    path = tmp_path / "obs.jsonl"
    path.write_text("".join(json.dumps(to_dict(o)) + "\n" for o in stream))
    first = ingest_file(path, tmp_path / "g.db", header=sim.header)
    record = list(first.record)
    first.close()
    second = ingest_file(path, tmp_path / "g.db")
    assert second.record == record
    assert second.store.counts()["accepted"] == len(stream)
    assert second.store.cursor == str(len(stream))


def test_a_game_exports_to_and_imports_from_the_record_losslessly(game, tmp_path):
    sim, stream = game
    referee = StoredReferee(tmp_path / "g.db", header=sim.header)
    referee.ingest_burst(stream)
    lines = referee.store.export_record()
    write_record(lines, tmp_path / "game.jsonl")
    assert read_record(tmp_path / "game.jsonl") == lines          # the engine's reader accepts it
    imported = import_record(lines, tmp_path / "copy.db")
    assert imported.record == lines
    assert [(h, v.as_dict()) for h, v in imported.violations()] == \
        [(h, v.as_dict()) for h, v in referee.violations()]
    imported.close()
    reopened = StoredReferee(tmp_path / "copy.db")
    assert reopened.store.export_record() == lines and reopened.record == lines
    with pytest.raises(StoreError, match="exists"):
        import_record(lines, tmp_path / "copy.db")


def test_a_file_that_is_not_a_store_says_so(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable game store"):
        EventStore(bad)


def test_console_actions_through_the_store_survive_a_restart(game, tmp_path):
    sim, stream = game
    referee = StoredReferee(tmp_path / "g.db", header=sim.header)
    for obs in stream:                      # the sensors, and the console's answers where it asked
        referee.submit(obs)
    record = list(referee.record)
    conflicts = [c.as_dict() for c in referee.conflicts]
    referee.close()
    again = StoredReferee(tmp_path / "g.db")
    assert again.record == record and [c.as_dict() for c in again.conflicts] == conflicts
    assert isinstance(sim.observations[1], CardSeen)
