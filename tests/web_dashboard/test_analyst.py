"""The live analysis on the feeds: par after each card on the broadcast feed only,
the win chance from the public view on the venue feed, worked out off the hub's
thread and off the table's lock, newest position first."""

from __future__ import annotations

import json
import queue
import threading
import time

import pytest

from referee.analysis import analyse_game
from referee.demo import play_demo_game
from referee.table_referee import TableReferee
from referee.winchance import win_chance
from web_dashboard import analyst as analyst_module
from web_dashboard.analyst import Analyst, public_record
from web_dashboard.hub import Hub
from web_dashboard.room import LiveTable, Room


class Loop:
    """The web server's event loop, for tests: one thread running what it is handed."""

    def __init__(self) -> None:
        self.calls: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while (fn := self.calls.get()) is not None:
            fn()

    def later(self, seconds, fn) -> None:
        threading.Timer(seconds, lambda: self.calls.put(fn)).start()

    def run(self, fn):
        """``fn()`` on the loop's thread, and its result."""
        done: queue.Queue = queue.Queue()
        self.calls.put(lambda: done.put(fn()))
        return done.get(timeout=10)

    def stop(self) -> None:
        self.calls.put(None)


@pytest.fixture(scope="module")
def record():
    return play_demo_game(seed=2, rules="ffb-contree")


def hand_start(record, number=2):
    """The index in ``record`` of the first card of hand ``number`` (its deal and auction before)."""
    deals = [i for i, e in enumerate(record) if e["type"] == "deal"]
    return next(i for i, e in enumerate(record) if i > deals[number - 1] and e["type"] == "play")


@pytest.fixture
def live(record):
    """A table part-way into hand 2, its hub on a loop thread, the analyst started."""
    loop = Loop()
    hub = Hub(call_soon_threadsafe=loop.calls.put, call_later=loop.later, event_factory=threading.Event,
              broadcast_delay=0)
    room = Room()
    analyst = Analyst(room, hub)
    stop = analyst.start()
    start = hand_start(record)
    table = room.add(LiveTable("t1", "Table 1", TableReferee.from_record(record[:start]), hub.submit))
    yield loop, hub, table, analyst, start
    stop()
    loop.stop()


def wait_view(loop, hub, feed, predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = loop.run(lambda: hub.current("t1", feed))
        if predicate(view):
            return view
        time.sleep(0.01)
    raise AssertionError(f"the {feed} feed never showed it: {json.dumps(view)[:400]}")


def add(table, event):
    table.change(lambda referee: referee.load_events([event]))


def test_par_follows_every_card_on_the_broadcast_feed_and_never_reaches_the_venue(live, record):
    loop, hub, table, _, start = live
    wait_view(loop, hub, "broadcast", lambda v: (v.get("par") or {}).get("played") == 0)
    for n in range(start, start + 8):
        add(table, record[n])
        played = n - start + 1
        view = wait_view(loop, hub, "broadcast", lambda v: (v.get("par") or {}).get("played") == played)
        assert view["par"]["hand"] == 2 and view["par"]["game"] == table.game_id
        venue = loop.run(lambda: hub.current("t1", "venue"))
        assert "par" not in venue
    # the marks are the score sheet's: each card's cost against par, as `referee solve` has it
    (solved,) = [h for h in analyse_game(record[:start + 8]) if h.number == 2]
    assert [(c["played"], c["cost"]) for c in view["par"]["cards"]] == \
        [(p.played, p.cost) for p in solved.positions if p.card is not None]
    assert view["par"]["par"] == {"NS": solved.positions[-1].par.ns, "EW": solved.positions[-1].par.ew}


def test_win_chance_on_the_venue_is_the_public_views_and_carries_no_held_card(live, record):
    loop, hub, table, _, start = live
    for n in range(start, start + 6):
        add(table, record[n])
    venue = wait_view(loop, hub, "venue", lambda v: (v.get("win_chance") or {}).get("played") == 6)
    expected = win_chance(public_record(record[:start + 6]), worlds=analyst_module.WORLDS,
                          seed=max(i for i, e in enumerate(record[:start]) if e["type"] == "deal"))
    assert venue["win_chance"]["chance"] == expected.as_dict()["chance"]
    assert venue["win_chance"]["takers"] == expected.as_dict()["takers"] and venue["win_chance"]["hand"] == 2
    held = {c for cards in table.state()["hands"].values() for c in cards}
    assert len(held) == 26
    text = json.dumps(venue)
    assert not [c for c in held if f'"{c}"' in text]


def test_the_win_chance_cannot_depend_on_a_card_still_held(record):
    """Two deals alike in everything the room saw (the cards played so far) but not in
    the cards still held: the analysis is given the same record, so the same chance."""
    start = hand_start(record) + 5
    deal_at = max(i for i, e in enumerate(record[:start]) if e["type"] == "deal")
    deal = record[deal_at]
    played = {e["card"] for e in record[deal_at:start] if e["type"] == "play"}
    north = [c for c in deal["hands"]["N"] if c not in played]
    east = [c for c in deal["hands"]["E"] if c not in played]
    swapped = {**deal, "hands": {**deal["hands"],
                                 "N": [east[0] if c == north[0] else c for c in deal["hands"]["N"]],
                                 "E": [north[0] if c == east[0] else c for c in deal["hands"]["E"]]}}
    other = record[:deal_at] + [swapped] + record[deal_at + 1:start]
    assert other != record[:start] and public_record(other) == public_record(record[:start])
    assert "hands" not in json.dumps(public_record(record[:start]))


def test_a_slow_solve_never_delays_a_card_and_the_newest_position_wins(live, record, monkeypatch):
    loop, hub, table, analyst, start = live
    wait_view(loop, hub, "broadcast", lambda v: (v.get("par") or {}).get("played") == 0)
    real = analyst_module.LivePar.update
    calls = []

    def slow(self, events):
        calls.append(len(events))
        time.sleep(0.8)
        return real(self, events)
    monkeypatch.setattr(analyst_module.LivePar, "update", slow)
    t0 = time.monotonic()
    for n in range(start, start + 5):
        add(table, record[n])
    # every card is on the stream at once, the analysis far behind
    wait_view(loop, hub, "broadcast", lambda v: len(v["trick"]["cards"]) == 1 and v["trick"]["number"] == 2)
    assert time.monotonic() - t0 < 0.6
    view = wait_view(loop, hub, "broadcast", lambda v: (v.get("par") or {}).get("played") == 5)
    assert len(view["par"]["cards"]) == 5                 # the skipped positions' cards are marked all the same
    assert len(calls) <= 3, calls                           # not one solve per card: the newest position won
