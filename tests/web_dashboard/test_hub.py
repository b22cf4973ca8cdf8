"""The hub's promises: snapshot then patches, resume with Last-Event-ID, a
bounded queue that never leaves a client with a hole, the broadcast delay."""

from __future__ import annotations

import json
import threading

from web_dashboard.hub import Feed, Hub, diff_views
from web_dashboard.views import view_for

from web_fakes import sample_state


def parse(message: str) -> tuple[str, str, dict]:
    fields = dict(line.split(": ", 1) for line in message.strip().splitlines())
    return fields.get("id", ""), fields["event"], json.loads(fields["data"])


class Clock:
    """call_later for tests: run what is due when told the time."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pending: list = []

    def later(self, seconds, fn):
        self.pending.append((self.now + seconds, fn))

    def advance(self, seconds):
        self.now += seconds
        due = [p for p in self.pending if p[0] <= self.now]
        self.pending = [p for p in self.pending if p[0] > self.now]
        for _, fn in sorted(due, key=lambda p: p[0]):
            fn()


def make_hub(clock: Clock, delay=30.0, **kw) -> Hub:
    return Hub(call_soon_threadsafe=lambda fn: fn(), call_later=clock.later,
               event_factory=threading.Event, broadcast_delay=delay, **kw)


def apply(state: dict, patch: dict) -> dict:
    state = {**state, **patch["set"]}
    for key in patch.get("del", []):
        state.pop(key)
    return state


def test_snapshot_then_changes_rebuild_the_view():
    feed = Feed("venue", "ep")
    feed.update({"a": 1, "b": {"x": 1}})
    client = feed.subscribe(threading.Event)
    feed.update({"a": 2, "b": {"x": 1}, "c": [1]})
    feed.update({"a": 2, "c": [1, 2]})
    messages = [parse(m) for m in client.drain()]
    assert [m[1] for m in messages] == ["snapshot", "change", "change"]
    assert [m[0] for m in messages] == ["ep-1", "ep-2", "ep-3"]
    state = messages[0][2]
    for _, _, patch in messages[1:]:
        state = apply(state, patch)
    assert state == {"a": 2, "c": [1, 2]}
    assert diff_views(state, state) is None


def test_resume_sends_only_what_was_missed_and_a_snapshot_otherwise():
    feed = Feed("venue", "ep", ring_size=3)
    for n in range(1, 6):
        feed.update({"n": n})
    resumed = [parse(m) for m in feed.subscribe(threading.Event, "ep-3").drain()]
    assert [(i, e, d["set"]) for i, e, d in resumed] == [("ep-4", "change", {"n": 4}), ("ep-5", "change", {"n": 5})]
    assert feed.subscribe(threading.Event, "ep-5").drain() == []
    for stale in ("ep-1", "other-4", "garbage", "ep-99"):
        (only,) = [parse(m) for m in feed.subscribe(threading.Event, stale).drain()]
        assert only[1] == "snapshot" and only[2] == {"n": 5}, stale


def test_a_slow_client_drops_the_oldest_and_gets_a_fresh_snapshot():
    feed = Feed("venue", "ep", queue_size=4)
    client = feed.subscribe(threading.Event)
    for n in range(50):
        feed.update({"n": n})
    assert client.dropped > 0 and len(client.queue) <= 4
    (only,) = [parse(m) for m in client.drain()]
    assert only == ("ep-50", "snapshot", {"n": 49})


def test_broadcast_waits_for_its_delay_and_venue_never_has_hands():
    clock = Clock()
    hub = make_hub(clock, delay=30)
    hub.submit("t1", {"table": {"id": "t1", "seats": {}}, **sample_state()}, 1)
    assert "hands" not in hub.current("t1", "venue")
    assert "hands" in hub.current("t1", "referee")
    assert hub.current("t1", "broadcast") == {"status": "waiting", "feed": "broadcast", "delay": 30}
    clock.advance(29.9)
    assert "hands" not in hub.current("t1", "broadcast")
    clock.advance(0.2)
    assert hub.current("t1", "broadcast")["hands"]["N"][0] == "Js"


def test_venue_view_tells_a_declaration_but_not_its_cards():
    state = sample_state()
    state["hand"]["declarations"] = [{"seat": "N", "kind": "tierce", "value": 20, "cards": ["Qh", "Kh", "Ah"]}]
    assert view_for("venue", state)["hand"]["declarations"] == [{"seat": "N", "kind": "tierce", "value": 20}]
    assert view_for("broadcast", state, 30)["hand"]["declarations"][0]["cards"] == ["Qh", "Kh", "Ah"]
    assert state["hand"]["declarations"][0]["cards"]         # the referee's state is left whole


def test_venue_view_words_violations_without_their_explanation():
    state = sample_state([("W", "Kc", "must-trump", "W held ♥7 but did not trump")])
    state["violations"][0]["params"] = {"held": "7h", "led": "c", "win": "Ac", "partner": False}
    venue = view_for("venue", state)
    # no message, no params: both name the ♥7 still in W's hand
    assert venue["violations"] == [{"id": 1, "rule": "must-trump", "seat": "W", "card": "Kc", "trick": 1}]
    assert "7h" not in json.dumps(venue["violations"])
    broadcast = view_for("broadcast", state, 30)["violations"][0]
    assert broadcast["message"].startswith("W held") and broadcast["params"]["held"] == "7h"


def test_club_feed_ranks_pairs_by_wins_then_points():
    clock = Clock()
    hub = make_hub(clock)
    hub.finished = [{"teams": {"NS": "Ana & Cy", "EW": "Bo & Di"}, "score": {"NS": 1010, "EW": 640}, "winner": "NS"}]
    state = sample_state()
    state["table"] = {"id": "t1", "name": "Table 1", "seats": {"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"}}
    state["score"] = {"NS": 120, "EW": 300}
    hub.submit("t1", state, 1)
    club = hub.club.view
    assert [r["team"] for r in club["standings"]] == ["Ana & Cy", "Bo & Di"]
    assert club["standings"][1]["points"] == 940
    assert club["tables"][0]["score"] == {"NS": 120, "EW": 300} and "hands" not in json.dumps(club)


def test_standings_have_no_phantom_teams_from_unnamed_tables():
    """Issue 12: two tables started without --seats listed "EW" and "NS" in the
    standings, as if they were pairs (the points of every unnamed table added up)."""
    clock = Clock()
    hub = make_hub(clock)
    hub.finished = [{"teams": {"NS": "NS", "EW": "EW"}, "score": {"NS": 1010, "EW": 640}, "winner": "NS"}]
    for table_id, seats in (("t1", {}), ("t2", {"N": "Ana", "E": "Bo", "S": "Cy", "W": "Di"})):
        state = sample_state()
        state["table"] = {"id": table_id, "name": table_id, "seats": seats}
        hub.submit(table_id, state, 1)
    club = hub.club.view
    assert [r["team"] for r in club["standings"]] == ["Ana & Cy", "Bo & Di"]
    assert {t["teams"]["NS"] for t in club["tables"]} == {"NS", "Ana & Cy"}   # the table's own line still names its sides


def test_stream_sends_keep_alive_comments_when_quiet_and_stops_when_closed():
    clock = Clock()
    hub = make_hub(clock, keepalive=0.05)
    hub.submit("t1", {"status": "waiting"}, 1)
    client = hub.subscribe("t1", "venue")
    body = hub.stream(client)
    assert next(body).startswith("retry: 2000")
    snapshot = next(body)
    assert snapshot.startswith("id: ") and "event: snapshot" in snapshot
    assert next(body).startswith(": keep-alive")
    hub.submit("t1", {"status": "play"}, 2)
    assert "event: change" in next(body)
    body.close()
    assert client.closed and client not in hub.channel("t1").feeds["venue"].clients


def test_an_older_state_handed_over_late_is_dropped():
    hub = make_hub(Clock())
    hub.submit("t1", {"status": "play", "to_play": "E"}, 7)
    hub.submit("t1", {"status": "auction", "to_play": "S"}, 6)      # made before 7, arrived after
    assert hub.current("t1", "venue")["to_play"] == "E"
    assert hub.channel("t1").feeds["venue"].seq == 1
