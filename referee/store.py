"""The event store: one SQLite file per game, append-only, safe against a crash.

Why SQLite in WAL mode: a table referee must not lose the game when the
process dies (a kill -9, a power cut) and must come back exactly where it was.
Every observation (accepted or rejected, with the reason) and every game event
is appended here; after a restart the referee replays the stored observations
and is back in the same state, with the same game events, violations and
conflicts (``referee/table_referee.py`` is deterministic).

Writes are grouped in transactions, one per *burst* of observations (what a
sensor delivers at once): WAL + ``synchronous=NORMAL`` makes a commit cheap
and atomic, so after a crash a burst is either entirely there or entirely
absent, never half applied. :class:`StoredReferee` returns the outputs of a
burst only after its commit, so nothing reaches a screen that the disk does
not hold.

An observation may carry a ``cursor`` (a position in the source it came from:
a file offset, a line number): :attr:`EventStore.cursor` is the last one
committed, so a reader that restarts resumes right after it and nothing is
read twice or lost.

The game record (``docs/record-format.md``, JSON Lines) is the exchange form:
:meth:`EventStore.export_record` writes it, :func:`import_record` creates a
store from one.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

from .json_text import JSONTextError, loads
from .observations import Observation, ObservationError, from_dict, to_dict
from .record import RecordError, check_event
from .table_referee import Output, TableReferee

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS observations (
    id INTEGER PRIMARY KEY,          -- the observation id the referee cites as evidence
    raw TEXT NOT NULL,               -- exactly as received (JSON), even when malformed
    status TEXT NOT NULL,            -- accepted | rejected | set-aside (the referee failed on it)
    reason TEXT,                     -- why it was rejected
    cursor TEXT                      -- position in the source, for an idempotent reader
);
CREATE TABLE IF NOT EXISTS events (
    n INTEGER PRIMARY KEY,           -- 1-based index in the game record (after the header)
    obs INTEGER,                     -- the observation that produced it
    event TEXT NOT NULL              -- the game record line (JSON)
);
"""


#: The status of an observation the referee failed on: kept, never acted on again.
SET_ASIDE = "set-aside"


class StoreError(RuntimeError):
    """A store that cannot be used as asked (another game's file, a damaged file)."""


class EventStore:
    """Append-only SQLite storage of one game's observations and events."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a usable game store ({exc}); "
                             f"move it aside and start a new one") from None
        self._in_tx = False
        self._next_id = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM observations").fetchone()[0]

    # -- transactions -------------------------------------------------------
    def begin(self) -> None:
        if not self._in_tx:
            self.db.execute("BEGIN")
            self._in_tx = True

    def commit(self) -> None:
        if self._in_tx:
            self.db.execute("COMMIT")
            self._in_tx = False

    def rollback(self) -> None:
        """Forget everything since the transaction began (a request that failed leaves nothing)."""
        if self._in_tx:
            self.db.execute("ROLLBACK")
            self._in_tx = False
        self._next_id = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM observations").fetchone()[0]

    def close(self) -> None:
        self.commit()
        self.db.close()

    # -- the game header ----------------------------------------------------
    @property
    def header(self) -> Optional[dict[str, Any]]:
        row = self.db.execute("SELECT value FROM meta WHERE key='header'").fetchone()
        try:
            return None if row is None else check_event(loads(row[0]))
        except (JSONTextError, RecordError) as exc:
            raise StoreError(f"{self.path} holds a game header this program cannot read ({exc}); "
                             f"move it aside and start a new one") from None

    def set_header(self, header: dict[str, Any]) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('header', ?)", (json.dumps(header),))

    # -- appending ------------------------------------------------------------
    def append_observations(self, rows: Iterable[tuple[str, Optional[str], Optional[str]]]) -> int:
        """Append ``(raw, cursor, rejection reason)`` rows; returns the id of the first."""
        self.begin()
        first = self._next_id
        rows = [(first + i, raw, "rejected" if reason else "accepted", reason, cursor)
                for i, (raw, cursor, reason) in enumerate(rows)]
        self.db.executemany("INSERT INTO observations (id, raw, status, reason, cursor) VALUES (?, ?, ?, ?, ?)",
                            rows)
        self._next_id += len(rows)
        return first

    def mark_rejected(self, rows: Iterable[tuple[str, int]]) -> None:
        """Observations found unusable when acted on (a time going back): ``(reason, id)``."""
        self.db.executemany("UPDATE observations SET status='rejected', reason=? WHERE id=?", rows)

    def set_aside(self, obs_id: int, reason: str) -> None:
        """Observation ``obs_id`` made the referee fail: it stays stored, and is no longer acted on."""
        self.begin()
        self.db.execute("UPDATE observations SET status=?, reason=? WHERE id=?", (SET_ASIDE, reason, obs_id))

    def replace_events(self, events: Iterable[tuple[int, Optional[int], dict[str, Any]]]) -> None:
        """The game events as a replay made them, after an observation was set aside."""
        self.begin()
        self.db.execute("DELETE FROM events")
        self.append_events(events)

    def append_events(self, events: Iterable[tuple[int, Optional[int], dict[str, Any]]]) -> None:
        self.begin()
        self.db.executemany("INSERT INTO events (n, obs, event) VALUES (?, ?, ?)",
                            ((n, obs, json.dumps(ev, separators=(",", ":"))) for n, obs, ev in events))

    # -- reading --------------------------------------------------------------
    @property
    def cursor(self) -> Optional[str]:
        row = self.db.execute("SELECT cursor FROM observations WHERE cursor IS NOT NULL "
                              "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else row[0]

    def observations(self) -> Iterator[tuple[int, str, str, Optional[str]]]:
        """``(id, raw, status, reason)`` of every stored observation, in order."""
        yield from self.db.execute("SELECT id, raw, status, reason FROM observations ORDER BY id")

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(row[0]) for row in self.db.execute("SELECT event FROM events ORDER BY n")]

    def events_since(self, n: int) -> list[tuple[int, str]]:
        """``(n, event JSON)`` of the events after event ``n``, as stored (a follower's read)."""
        return self.db.execute("SELECT n, event FROM events WHERE n > ? ORDER BY n", (n,)).fetchall()

    def counts(self) -> dict[str, int]:
        obs = dict(self.db.execute("SELECT status, COUNT(*) FROM observations GROUP BY status").fetchall())
        return {"accepted": obs.get("accepted", 0), "rejected": obs.get("rejected", 0),
                "set_aside": obs.get(SET_ASIDE, 0),
                "events": self.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]}

    def export_record(self) -> list[dict[str, Any]]:
        """The game record: the header line then every game event."""
        header = self.header
        if header is None:
            raise StoreError(f"{self.path} holds no game yet")
        return [header] + self.events()


def write_record(lines: list[dict[str, Any]], path: str | Path) -> None:
    Path(path).write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))


def import_record(lines: list[dict[str, Any]], path: str | Path) -> "StoredReferee":
    """A new store at ``path`` holding a game record (header + events), and its referee."""
    if not lines or lines[0].get("type") != "game":
        raise StoreError("a game record starts with its {\"type\":\"game\"} line")
    if Path(path).exists():
        raise StoreError(f"{path} exists: import into a new file")
    referee = StoredReferee(path, header=lines[0])
    referee.load_events(lines[1:])
    return referee


class StoredReferee(TableReferee):
    """A :class:`TableReferee` whose every input and event is in an :class:`EventStore`.

    ``StoredReferee(path, rules=..., seats=...)`` creates a new game or reopens
    the one at ``path`` (its stored rules win; the arguments are then only
    checked). Reopening replays the stored observations, so the referee is
    exactly where it was before a crash.

    ``ingest`` stores then acts on one observation and commits;
    ``ingest_burst`` does a whole burst in one transaction (much faster) and
    returns its outputs after the commit. ``ingest_raw`` takes the JSON text
    as it came from a sensor or a file: malformed input is stored as rejected
    with its reason, and the game goes on.

    Nothing stored can stop a game. Should the referee fail on an observation
    (a bug: it raises instead of answering), the burst is rolled back, the
    referee reopened from the store, and each observation of the burst tried
    alone: the one it fails on is stored *set aside* with the error, refused
    with that reason, and never acted on again; a reopened store that meets
    such a row (stored by an older version) sets it aside the same way and
    goes on. ``set_aside`` lists them, ``(id, reason)``, for the person who
    started the table.
    """

    def __init__(self, path: str | Path, rules: str = "ffb-contree", options: Optional[dict] = None,
                 seats: Optional[dict[str, str]] = None, header: Optional[dict[str, Any]] = None):
        self.store = EventStore(path)
        self.set_aside: list[tuple[int, str]] = []
        stored = self.store.header
        header = stored or header or TableReferee.make_header(rules, options, seats)
        try:
            super().__init__(header=header)
        except RecordError as exc:
            if stored is None:
                raise                           # the caller's header: its own error
            raise StoreError(f"{path} holds a game this program cannot referee ({exc}); "
                             f"move it aside and start a new one") from None
        if stored is None:
            self.store.set_header(header)
            self.store.commit()
            self._replaying = False
            self._new_events: list[tuple[int, Optional[int], dict[str, Any]]] = []
            self._stored_events = 0
        else:
            self._replay()

    def _replay(self) -> None:
        """Be where the stored observations left the game: act on each again, in order.

        A row this program refuses though an older one accepted it is marked rejected with the
        reason, and one it fails on is set aside (both listed in ``set_aside``); the stored
        events are then rewritten as this replay made them."""
        while True:
            TableReferee.__init__(self, header=self.store.header)
            self._replaying, self._new_events, self._stored_events = True, [], 0
            oid = None
            try:
                for oid, raw, status, reason in self.store.observations():
                    if status == SET_ASIDE:
                        self.reject(reason)             # it keeps its id; nothing else
                    else:
                        why = self._act(*self._parse(raw))[1]
                        if why and status == "accepted":
                            self.store.mark_rejected([(why, oid)])
                            self.set_aside.append((oid, f"now refused: {why}"))
                    self._after(oid)
            except Exception as exc:                    # noqa: BLE001 - any failure: that row goes aside
                self._put_aside(oid, exc)
                continue
            break
        stored = self.store.events()
        if stored[:len(self.events)] != self.events:
            self.store.replace_events(self._new_events)  # as this replay made them
        elif len(stored) > len(self.events):
            # An imported record: events without the observations that made them.
            self.load_events(stored[len(self.events):], store=False)
        self.store.commit()
        self._replaying = False
        self._new_events = []
        self._stored_events = len(self.events)

    def _put_aside(self, oid: Optional[int], exc: Exception) -> str:
        reason = (f"set aside: the referee failed on this observation ({type(exc).__name__}: {str(exc)[:160]}); "
                  f"the game goes on without it")
        if oid is None:
            raise exc
        self.store.set_aside(oid, reason)
        self.store.commit()
        self.set_aside.append((oid, reason))
        return reason

    # -- the durable side of ingestion -------------------------------------------
    def _after(self, obs_id: Optional[int]) -> None:
        """Collect the game events created since the last call (appended with the burst)."""
        record = self.game.events                # header first: event n is record[n - 1]
        if len(record) - 1 > self._stored_events:
            new = record[self._stored_events + 1:]
            self._new_events += [(self._stored_events + i + 1, obs_id, ev) for i, ev in enumerate(new)]
            self._stored_events = len(record) - 1

    def _flush_events(self) -> None:
        if self._new_events:
            self.store.append_events(self._new_events)
            self._new_events = []

    @staticmethod
    def _parse(raw: str) -> tuple[Optional[Observation], Optional[str]]:
        try:
            return from_dict(loads(raw)), None
        except ObservationError as exc:
            return None, str(exc)
        except JSONTextError as exc:
            return None, str(exc)

    def _act(self, obs: Optional[Observation], reason: Optional[str]) -> tuple[list[Output], Optional[str]]:
        """Act on one parsed observation; returns the outputs and why it was rejected, if it was."""
        if obs is not None and reason is None:
            reason = self.check(obs)
        if obs is None or reason:
            return self.reject(reason), reason
        return self.ingest(obs, checked=True), None

    def ingest_raw(self, raw: str, cursor: Optional[str] = None) -> list[Output]:
        outputs = self._ingest_parsed([(raw, cursor, *self._parse(raw))])
        self.store.commit()
        return outputs

    def _ingest_parsed(self, rows: list[tuple[str, Optional[str], Optional[Observation], Optional[str]]]
                       ) -> list[Output]:
        """Append a burst's observations, then act on each in order, then append the game events
        (one transaction, committed by the caller). Should the referee fail, nothing of the burst
        is kept and each of its observations is tried alone (:meth:`_recover`)."""
        try:
            return self._ingest_rows(rows)
        except sqlite3.Error as exc:
            self.store.rollback()
            self._replay()
            raise StoreError(f"the game store {self.store.path} could not be written ({exc}): "
                             f"nothing of this was recorded") from None
        except Exception as exc:                        # noqa: BLE001 - a failure must not leave half a burst
            if self._replaying:
                raise
            return self._recover(rows, exc)

    def _recover(self, rows: list[tuple[str, Optional[str], Optional[Observation], Optional[str]]],
                 exc: Exception) -> list[Output]:
        self.store.rollback()
        self._replay()
        if len(rows) == 1:
            raw, cursor, _, _ = rows[0]
            oid = self.store.append_observations([(raw, cursor, None)])
            self.store.commit()
            reason = self._put_aside(oid, exc)
            self._replay()
            return [Output("rejected", {"obs": oid, "reason": reason})]
        outputs: list[Output] = []
        for row in rows:
            outputs += self._ingest_parsed([row])
            self.store.commit()
        return outputs

    def _ingest_rows(self, rows: list[tuple[str, Optional[str], Optional[Observation], Optional[str]]]
                     ) -> list[Output]:
        first = self.store.append_observations((raw, cursor, reason) for raw, cursor, _, reason in rows)
        outputs: list[Output] = []
        late_rejects = []
        for i, (raw, cursor, obs, reason) in enumerate(rows):
            out, why = self._act(obs, reason)
            outputs += out
            if why and not reason:
                late_rejects.append((why, first + i))
            self._after(first + i)
        if late_rejects:
            self.store.mark_rejected(late_rejects)
        self._flush_events()
        return outputs

    def ingest_burst(self, items: Iterable[Observation | str | tuple[str, str]]) -> list[Output]:
        """Store and act on a burst in one transaction; outputs come back after the commit.

        Items are observations, raw JSON texts, or ``(raw, cursor)`` pairs. The
        observations are appended before any of them is acted on."""
        rows = []
        for item in items:
            if isinstance(item, tuple):
                rows.append((item[0], item[1], *self._parse(item[0])))
            elif isinstance(item, str):
                rows.append((item, None, *self._parse(item)))
            else:                                 # already an observation: stored in its JSON form
                rows.append((json.dumps(to_dict(item), separators=(",", ":")), None, item, None))
        outputs = self._ingest_parsed(rows)
        self.store.commit()
        return outputs

    def submit(self, obs: Observation) -> list[Output]:
        """One observation (a console action, a sensor report), stored and committed."""
        return self.ingest_burst([obs])

    def load_events(self, events: list[dict[str, Any]], store: bool = True) -> None:
        super().load_events(events)
        if store and not self._replaying:
            self._after(None)
            self._flush_events()
            self.store.commit()

    def close(self) -> None:
        self.store.close()


#: The longest observation line :func:`ingest_file` reads (one is a few hundred bytes).
MAX_LINE = 64 * 1024


def _lines(handle: Any) -> Iterator[tuple[int, str, Optional[str]]]:
    """``(number, text, why it is unreadable or None)`` for each line of a binary file, without
    ever holding more than :data:`MAX_LINE` bytes of one line."""
    number = 0
    while True:
        data = handle.readline(MAX_LINE + 1)
        if not data:
            return
        number += 1
        why = None
        if len(data) > MAX_LINE and not data.endswith(b"\n"):
            while (rest := handle.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                pass
            data, why = data[:200], f"longer than {MAX_LINE // 1024} KiB: not an observation"
        data = data.rstrip(b"\r\n")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = data.decode("utf-8", "backslashreplace")
            why = why or f"not UTF-8 text (byte 0x{data[exc.start]:02x} at column {exc.start + 1})"
        yield number, text, why


def ingest_file(source: str | Path, path: str | Path, rules: str = "ffb-contree", burst: int = 64,
                progress=None, header: Optional[dict[str, Any]] = None, pace=None,
                unreadable: Optional[Callable[[int, str], None]] = None) -> StoredReferee:
    """Ingest an observation file (JSON Lines, one observation per line) into the store at ``path``.

    Idempotent: each line's number is its cursor, so a run killed at any point
    and started again resumes after the last committed burst; no line is lost
    or applied twice. A line that is not an observation (not UTF-8, not JSON,
    not an observation's shape) is stored as rejected, with the reason, and
    ``unreadable(line number, reason)`` is told; the lines after it go on.
    Blank lines are skipped. ``header`` is a new store's game line;
    ``pace()`` is called after each burst (a live source's rhythm, in the
    crash test).
    """
    referee = StoredReferee(path, rules=rules, header=header)
    done = int(referee.store.cursor or 0)
    batch: list[tuple[str, Optional[str], Optional[Observation], Optional[str]]] = []

    def flush() -> None:
        referee._ingest_parsed(batch)
        referee.store.commit()
        batch.clear()

    with open(source, "rb") as handle:
        for number, text, why in _lines(handle):
            if number <= done or not text.strip() and why is None:
                continue
            obs, why = (None, why) if why else referee._parse(text)
            if why and unreadable:
                unreadable(number, why)
            batch.append((text, str(number), obs, why))
            if len(batch) >= burst:
                flush()
                if progress:
                    progress(number)
                if pace:
                    pace()
    if batch:
        flush()
    return referee
