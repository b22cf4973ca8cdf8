"""The hall's live pages: every table's copy replayed from PostgreSQL and
handed to the hub's feeds (the same SSE machinery as a table's dashboard).

One thread follows the database: after each committed ingest batch (or every
``poll`` seconds, for what another process ingested) it reads each touched
table's new rows in sequence order into :class:`hall.records.Records`, then

- the **featured** table's feed gets the new state at once, event by event
  (the overlay of the streamed table runs at full rate);
- the **hall** feed (every table: score, contract, hand, sensors, lag) and
  the **standings** feed are rebuilt at most every ``throttle`` seconds: 60
  tables at a card every few seconds would otherwise send each of hundreds of
  viewers a patch per card.

A table's lag is what the hall lacks of what the table said it has (in
events) and for how long it has lacked it (seconds, on the hall's clock;
the board's clock is never trusted). A table whose heartbeat stopped for
``offline_after`` seconds is offline.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Optional

from hall.db import HallDB
from hall.desk import Desk
from hall.records import Records

from .hub import Feed
from .state import from_game
from .views import view_for


class HallLive:
    def __init__(self, dsn: str, hub: Any, event: str, throttle: float = 0.5, poll: float = 1.0,
                 offline_after: float = 5.0, clock: Callable[[], float] = time.monotonic):
        self.dsn, self.hub, self.event = dsn, hub, event
        self.throttle, self.poll, self.offline_after = throttle, poll, offline_after
        self.clock = clock
        self.records = Records()
        args = hub.feed_args
        self.feeds = {name: Feed(name, hub.epoch, **args) for name in ("hall", "standings", "featured")}
        self.featured: Optional[str] = None
        self.health: dict[str, dict] = {}
        self._caught_up: dict[str, float] = {}
        self._dirty: set[str] = set()
        self._lock = threading.Lock()
        self.records_lock = threading.RLock()   # the records change on this thread, are read by the desk's
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.db: Optional[HallDB] = None
        self.desk: Optional[Desk] = None
        self.tournament = None

    # --- life ---------------------------------------------------------------------------------
    def start(self) -> "HallLive":
        self.db = HallDB(self.dsn, timeout=120)
        self.desk = Desk(self.db, self.event, scores=self.scores)     # this thread's reads
        self.web_desk = Desk(HallDB(self.dsn, timeout=120), self.event, scores=self.scores)   # the desk's actions
        self._thread = threading.Thread(target=self._run, name="hall-live", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread:
            self._thread.join(5)

    def touched(self, tables: set) -> None:
        """The ingest committed events of ``tables`` (any thread)."""
        with self._lock:
            self._dirty |= set(tables)
        self._wake.set()

    def feature(self, table: Optional[str]) -> None:
        self.featured = table
        self._push_featured()

    # --- the loop ------------------------------------------------------------------------------
    def _run(self) -> None:
        next_view = next_poll = 0.0
        while not self._stop.is_set():
            self._wake.wait(max(0.01, min(next_view, next_poll) - self.clock()))
            self._wake.clear()
            now = self.clock()
            try:
                if now >= next_poll:
                    self._poll()
                    next_poll = now + self.poll
                with self._lock:
                    dirty, self._dirty = self._dirty, set()
                for table in sorted(dirty):
                    rows = self.db.events(table, after=self.records.last_seq(table))
                    with self.records_lock:
                        taken = self.records.add(table, rows)
                    if taken and table == self.featured:
                        self._push_featured()
                if now >= next_view:
                    self._push_views()
                    next_view = now + self.throttle
            except Exception as exc:        # the database restarting: keep the pages, try again
                import psycopg
                if not isinstance(exc, psycopg.Error):
                    raise
                time.sleep(0.5)
                try:
                    self.db.conn.close()
                    self.db = HallDB(self.dsn, timeout=1)
                    self.desk.db = self.db
                except psycopg.Error:
                    pass

    def _poll(self) -> None:
        """What the ingest of another process stored, each table's heartbeat, the tournament."""
        for table, seq in self.db.last_seqs().items():
            if seq > self.records.last_seq(table):
                with self._lock:
                    self._dirty.add(table)
        self.health = self.db.health()
        self.tournament, _ = self.desk.load()
        self._time_up()
        if self.featured is None and self.records.tables:     # until the desk picks one: the first table
            self.featured = min(self.records.tables, key=_natural)
            self._push_featured()

    def _time_up(self) -> None:
        """The open round's time limit passed (the hall's clock): each table's cutoff is the
        last event the hall holds of it; the deal in progress is played out."""
        round_ = self.tournament.current if self.tournament else None
        if round_ and round_["status"] == "open" and round_.get("deadline") and not round_.get("cutoffs") \
                and time.time() >= round_["deadline"]:
            with self.records_lock:
                cutoffs = {t: c.seq for t, c in self.records.tables.items()}
            self.tournament = self.desk.act("time-up", {"cutoffs": cutoffs}, "hall clock")

    def sync_tables(self, who: str) -> None:
        """Every table that joined the hall is a table of the tournament (in the room's order)."""
        for table_id, _, _ in sorted(self.web_desk.db.boards(), key=lambda b: _natural(b[0])):
            self.web_desk.add_table(table_id, who)

    # --- views ----------------------------------------------------------------------------------
    def scores(self, tournament: Any) -> dict:
        cutoffs = {r["number"]: r.get("cutoffs", {}) for r in tournament.rounds}
        with self.records_lock:
            return self.records.scores(self.event, tournament.format, cutoffs)

    def table_state(self, table: str) -> dict:
        """A table's venue view (never a card still held), from the hall's copy."""
        with self.records_lock:
            return self._table_state(table)

    def _table_state(self, table: str) -> dict:
        copy = self.records.tables.get(table)
        current = copy.current if copy else None
        if current is None or current.game is None:
            return {"status": "waiting", "table": {"id": table}}
        state = from_game(current.game.to_json(), current.game.options.clockwise)
        state["table"] = {"id": table, "seats": current.header.get("seats", {}), "rules": current.header.get("rules")}
        state["game"] = f"{table}-{current.number}"
        view = view_for("venue", state)
        view["round"] = (current.header.get("hall") or {}).get("round")
        view["seq"] = copy.seq
        if current.error:
            view["error"] = current.error
        return view

    def line(self, table: str, now: float) -> dict:
        """One table's line on the hall view."""
        copy = self.records.tables.get(table)
        state = self.table_state(table)
        health = self.health.get(table, {})
        held = copy.seq if copy else 0
        said = health.get("table_seq") or 0
        behind = max(0, said - held)
        if behind == 0:
            self._caught_up[table] = now
        age = health.get("beat_age")
        link = "never" if age is None else "live" if age <= self.offline_after else "offline"
        lag_s = 0.0 if behind == 0 and link == "live" else max(now - self._caught_up.get(table, now), age or 0.0)
        hand = state.get("hand") or {}
        return {"id": table, "round": state.get("round"), "status": state.get("status"),
                "seats": (state.get("table") or {}).get("seats", {}), "score": state.get("score", {}),
                "contract": hand.get("contract"), "hand": hand.get("number"),
                "sensors": {k: v.get("state") if isinstance(v, dict) else v
                            for k, v in (health.get("sensors") or {}).items()},
                "link": link, "seq": held, "lag": {"events": behind, "seconds": round(lag_s, 1)}}

    def hall_view(self) -> dict:
        """``order`` (the tables in the room's order) and ``table:<id>`` (each table's line)."""
        now = self.clock()
        tables = sorted(set(self.records.tables) | set(self.health), key=_natural)
        round_ = self.tournament.current if self.tournament else None
        # One top-level key per table: the feed's patches are top-level, so a card played at
        # one table sends that table's line only, not all sixty.
        view = {"event": self.event, "round": round_ and {k: round_.get(k) for k in ("number", "status", "deadline")},
                "featured": self.featured, "order": tables}
        view.update({f"table:{t}": self.line(t, now) for t in tables})
        return view

    def standings_view(self) -> dict:
        t = self.tournament
        if t is None:
            return {"event": self.event, "rows": [], "rounds": 0}
        scores = self.scores(t)
        names = {team.id: team.name for team in t.registry.teams.values()}
        rows = [{"rank": r.rank, "team": r.team, "name": names.get(r.team, r.team), "played": r.played,
                 "match_points": r.match_points, "points": r.points, "difference": r.difference,
                 "tiebreaks": r.tiebreaks} for r in t.standings(scores)]
        return {"event": self.event, "name": t.name, "method": t.method, "tiebreaks": list(t.tiebreaks),
                "rounds": len(t.rounds), "rows": rows}

    def _push_views(self) -> None:
        hall, standings = self.hall_view(), self.standings_view()
        self.hub.call_soon_threadsafe(lambda: (self.feeds["hall"].update(hall),
                                               self.feeds["standings"].update(standings)))

    def _push_featured(self) -> None:
        if self.featured is None:
            return
        view = {**self.table_state(self.featured), "featured": self.featured}
        self.hub.call_soon_threadsafe(lambda: self.feeds["featured"].update(view))


def _natural(table_id: str) -> tuple:
    """t2 before t10."""
    import re
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", table_id))
