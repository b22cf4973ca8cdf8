"""kill -9 the ingesting process at random points, over and over: nothing is lost or applied twice.

A subprocess ingests a long observation log (a whole simulated game, faults,
planted violations and the console's answers included) into a SQLite store,
at a live table's pace. It is killed with SIGKILL after a random short delay,
more than a hundred times, and restarted each time; it resumes from the
store's cursor. At the end the store must hold every line exactly once, in
order, and the game, its violations and its score sheet must be exactly those
of an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.observations import ObservationError, from_dict, to_dict
from referee.scoresheet import Scoresheet
from referee.oracle import answered_stream
from referee.sensor_faults import Faults
from referee.simulate import simulate
from referee.store import EventStore, StoredReferee
from referee.table_referee import TableReferee

ROOT = Path(__file__).resolve().parents[2]
# Ingest at a live table's pace (bursts of 4, 5 ms apart); say "go" once the store is open and replayed.
INGEST = ("import json, sys, time\n"
          "from referee.store import ingest_file\n"
          "said = []\n"
          "def go(line):\n"
          "    if not said:\n"
          "        print('go', flush=True); said.append(1)\n"
          "ingest_file(sys.argv[1], sys.argv[2], header=json.loads(sys.argv[3]), burst=4, progress=go,\n"
          "            pace=lambda: time.sleep(0.005))\n")


@pytest.fixture(scope="module")
def observation_log(tmp_path_factory):
    sim = simulate(60, seed=2024, faults=Faults(violations=0.5), options={"target": 5000})
    lines = [json.dumps(to_dict(o)) for o in answered_stream(sim)]
    lines.insert(len(lines) // 3, '{"kind": "seen", "source": "camera", "t": 1e9, "zone": "play:N", "card": "Jh"')
    lines.insert(len(lines) // 2, json.dumps({"kind": "seen", "source": "rfid", "t": 5, "zone": "hand:Q",
                                              "card": "Zz"}))
    path = tmp_path_factory.mktemp("crash") / "observations.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, lines, sim.header


def _uninterrupted(lines, header):
    referee = TableReferee(header=header)
    for line in lines:
        try:
            obs = from_dict(json.loads(line))
        except (ValueError, ObservationError) as exc:
            referee.reject(str(exc))
            continue
        reason = referee.check(obs)
        if reason:
            referee.reject(reason)
        else:
            referee.ingest(obs, checked=True)
    return referee


@pytest.mark.slow
def test_kill_9_at_random_points_loses_nothing_and_applies_nothing_twice(observation_log, tmp_path):
    path, lines, header = observation_log
    assert len(lines) > 5000, "the log must be long enough for a hundred kills"
    db = tmp_path / "game.db"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    rng = random.Random(7)
    kills = runs = 0
    cursors: set = set()                     # where the kills left the store
    deadline = time.monotonic() + 150
    while True:
        runs += 1
        proc = subprocess.Popen([sys.executable, "-c", INGEST, str(path), str(db), json.dumps(header)],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if kills < 100:
            if rng.random() < 0.8:                       # mostly while it ingests, sometimes while it starts
                proc.stdout.readline()
                time.sleep(rng.uniform(0.0, 0.08))
            else:
                time.sleep(rng.uniform(0.0, 0.3))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                kills += 1
                if db.exists():
                    cursors.add(EventStore(db).cursor)
                assert time.monotonic() < deadline, f"only {kills} kills in the time allowed"
                continue
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
        if kills >= 100:
            break
    assert kills >= 100 and len(cursors) >= 50, f"kills landed at only {len(cursors)} distinct points"

    store = EventStore(db)
    rows = list(store.observations())
    assert [raw for _, raw, _, _ in rows] == lines, "every line stored once, in order"
    assert [oid for oid, _, _, _ in rows] == list(range(1, len(lines) + 1))
    assert store.cursor == str(len(lines))
    rejected = [(oid, reason) for oid, _, status, reason in rows if status == "rejected"]
    assert len(rejected) == 2 and "not JSON" in rejected[0][1] and "hand:Q" in rejected[1][1]

    reference = _uninterrupted(lines, header)
    survivor = StoredReferee(db)
    assert survivor.record == reference.record
    assert store.export_record() == reference.record, "the stored events are the replayed ones"
    assert [(h, v.as_dict()) for h, v in survivor.violations()] == \
        [(h, v.as_dict()) for h, v in reference.violations()]
    assert Scoresheet.from_referee(survivor).to_csv() == Scoresheet.from_referee(reference).to_csv()
    assert len(reference.game.results) >= 10 and reference.violations(), "a game worth checking"
