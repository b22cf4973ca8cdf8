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


# --- issue 12: nothing stored can stop a game ------------------------------------------------------

def _failing_on(monkeypatch, call: str) -> None:
    """Make the console desk fail (raise, as a bug would) on one call word."""
    from referee.desk import Desk

    act = Desk.act

    def failing(self, a, oid):
        if a.action == "call" and a.call == call:
            raise ValueError("a bug met on this call")
        return act(self, a, oid)
    monkeypatch.setattr(Desk, "act", failing)


def _console(t: float, **fields) -> str:
    return json.dumps({"kind": "console", "t": t, **fields})


def test_a_failure_inside_the_referee_rolls_the_burst_back_and_sets_that_observation_aside(monkeypatch, tmp_path):
    referee = StoredReferee(tmp_path / "g.db")
    referee.ingest_burst([_console(1, action="start", seat="N")])
    before = (list(referee.record), referee.store.counts())
    _failing_on(monkeypatch, "90h")
    out = referee.ingest_burst([_console(2, action="call", seat="E", call="80h"),
                                _console(3, action="call", seat="S", call="90h"),
                                _console(4, action="call", seat="W", call="pass")])
    assert [o.kind for o in out if o.kind == "rejected"] == ["rejected"]
    (rejected,) = [o.data for o in out if o.kind == "rejected"]
    assert "set aside" in rejected["reason"] and "a bug met on this call" in rejected["reason"]
    rows = list(referee.store.observations())
    assert [status for _, _, status, _ in rows] == ["accepted", "accepted", "set-aside", "accepted"]
    assert before[1]["accepted"] == 1
    # the burst's other calls went through, once each, in order, and the store agrees with the referee
    calls = [(e["seat"], e["call"]) for e in referee.events if e["type"] == "call"]
    assert calls == [("E", "80h"), ("W", "pass")]
    assert EventStore(tmp_path / "g.db").export_record() == referee.record
    referee.close()
    monkeypatch.undo()                          # a fixed program: the row stays aside, the game the same
    again = StoredReferee(tmp_path / "g.db")
    assert again.record == EventStore(tmp_path / "g.db").export_record() and again.set_aside == []
    assert again.n_obs == 4


def test_a_resumed_store_sets_aside_a_row_it_fails_on_and_goes_on(monkeypatch, tmp_path):
    referee = StoredReferee(tmp_path / "g.db")
    referee.ingest_burst([_console(1, action="start", seat="N"),
                          _console(2, action="call", seat="E", call="80h"),
                          _console(3, action="call", seat="S", call="90h"),
                          _console(4, action="call", seat="W", call="pass")])
    referee.close()
    _failing_on(monkeypatch, "90h")             # a row an older program stored, this one fails on
    again = StoredReferee(tmp_path / "g.db")
    assert [oid for oid, _ in again.set_aside] == [3] and "a bug met" in again.set_aside[0][1]
    assert [(e["seat"], e["call"]) for e in again.events if e["type"] == "call"] == [("E", "80h"), ("W", "pass")]
    assert EventStore(tmp_path / "g.db").export_record() == again.record
    out = again.ingest_burst([_console(5, action="call", seat="N", call="pass")])
    assert "event" in [o.kind for o in out] and again.store.counts()["events"] == len(again.events)


def test_the_five_thousand_digit_bid_an_older_version_stored_no_longer_stops_a_resume(tmp_path):
    # issue 12 item 1: a console call of 5,000 digits was committed by the next ordinary action, and
    # every restart died on it ("Exceeds the limit (4300 digits)").
    store = EventStore(tmp_path / "g.db")
    store.set_header(TableReferee.make_header())
    store.append_observations([(_console(1, action="start", seat="N"), None, None),
                               (_console(2, action="call", seat="E", call="9" * 5000 + "h"), None, None),
                               (_console(3, action="call", seat="E", call="80h"), None, None)])
    store.close()
    referee = StoredReferee(tmp_path / "g.db")
    assert [e.get("call") for e in referee.events if e["type"] == "call"] == ["80h"]
    reasons = [reason for _, _, status, reason in referee.store.observations() if status != "accepted"]
    assert reasons and "at most 16" in reasons[0] and referee.set_aside[0][0] == 2


def test_a_hostile_observation_is_refused_whole_and_the_store_stays_usable(tmp_path):
    referee = StoredReferee(tmp_path / "g.db")
    hostile = ['{"kind":"console","t":1,"action":"call","seat":"E","call":"' + "9" * 5000 + 'h"}',
               '{"kind":"sensor","source":"rfid","t":' + "9" * 400 + ',"state":"connected"}',
               '[' * 100_000 + ']' * 100_000,
               '{"kind":"console","t":1,"action":"undo","ref":' + "1" * 30 + "}",
               '{"kind":"console","t":1e300,"action":"start","seat":"N"}',
               '{"kind":"seen","source":"rfid","t":1,"zone":"hand:N","card":"Jh","evidence":{"x":"' + "a" * 5000 + '"}}',
               '{"kind":"console","t":1,"action":"start","seat":"N","reason":"' + "r" * 5000 + '"}']
    out = referee.ingest_burst(hostile)
    assert [o.kind for o in out] == ["rejected"] * len(hostile)
    assert referee.record == [TableReferee.make_header()]
    referee.close()
    assert StoredReferee(tmp_path / "g.db").store.counts() == {"accepted": 0, "rejected": len(hostile),
                                                               "set_aside": 0, "events": 0}
