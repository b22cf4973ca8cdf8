"""The hall's PostgreSQL: every table's events, which board holds which table
id, each table's health, the tournament and its audit trail.

``events`` is keyed by ``(table_id, seq)``: the ingest inserts with ``ON
CONFLICT DO NOTHING``, so a message delivered twice (an ingest killed between
its commit and its ack gets it again) is stored once. The event is kept as the
exact JSON text the table stored, so the hall's copy can be compared with the
table's own store byte for byte.
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterable, Optional

SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    table_id TEXT PRIMARY KEY,
    board_id TEXT NOT NULL,          -- the board (its instance folder) that holds this table id
    domain TEXT NOT NULL,            -- the board's JetStream domain, whose stream the hall sources
    joined_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq BIGINT NOT NULL,             -- the table's own sequence: the only order the hall trusts
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    event TEXT NOT NULL,             -- the record line, exactly as the table stored it
    clock DOUBLE PRECISION,          -- the board's clock (shown, never used to order)
    ingested_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS health (
    table_id TEXT PRIMARY KEY,
    beat_at TIMESTAMPTZ,             -- the hall's clock when the table last said it was alive
    table_seq BIGINT,                -- the last seq the table said it had
    sensors JSONB,
    board_clock DOUBLE PRECISION
);
CREATE TABLE IF NOT EXISTS tournament (
    event TEXT PRIMARY KEY,
    doc JSONB NOT NULL,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS audit (
    id BIGSERIAL PRIMARY KEY,
    event TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    who TEXT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT,
    detail JSONB
);
"""


def connect(dsn: str, timeout: float = 30.0) -> Any:
    """A connection, retried while PostgreSQL is (re)starting."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            return psycopg.connect(dsn, connect_timeout=5)
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


class HallDB:
    """One connection to the hall's database and the queries the hall makes."""

    def __init__(self, dsn: str, timeout: float = 30.0):
        self.dsn = dsn
        self.conn = connect(dsn, timeout)
        with self.conn.transaction():
            self.conn.execute(SCHEMA)

    def close(self) -> None:
        self.conn.close()

    # --- the ingest ------------------------------------------------------------------------
    def insert_events(self, rows: Iterable[tuple[str, int, int, int, str, Optional[float]]]) -> int:
        """Insert ``(table_id, seq, game, n, event_json, clock)`` rows and commit; already
        stored ones are skipped. Returns how many were new."""
        columns = list(zip(*rows)) or [()] * 6
        with self.conn.transaction():
            cursor = self.conn.execute(
                "INSERT INTO events (table_id, seq, game, n, event, clock) SELECT * FROM "
                "unnest(%s::text[], %s::bigint[], %s::int[], %s::int[], %s::text[], %s::float8[]) "
                "ON CONFLICT DO NOTHING", [list(c) for c in columns])
            return cursor.rowcount

    def claim(self, table_id: str, board_id: str, domain: str) -> Optional[str]:
        """Give ``table_id`` to ``board_id``; None if done (or already its), else why not."""
        with self.conn.transaction():
            row = self.conn.execute("SELECT board_id FROM boards WHERE table_id=%s FOR UPDATE",
                                    (table_id,)).fetchone()
            if row is None:
                self.conn.execute("INSERT INTO boards (table_id, board_id, domain) VALUES (%s, %s, %s)",
                                  (table_id, board_id, domain))
                return None
            if row[0] != board_id:
                return (f"table id {table_id!r} is already held by another board ({row[0][:8]}) in this hall: "
                        f"start this board with another --table-id (and move its match there at the desk)")
            return None

    def boards(self) -> list[tuple[str, str, str]]:
        """``(table_id, board_id, domain)`` of every table that joined."""
        with self.conn.transaction():
            return self.conn.execute("SELECT table_id, board_id, domain FROM boards ORDER BY table_id").fetchall()

    def beat(self, table_id: str, table_seq: int, sensors: dict, board_clock: float) -> None:
        with self.conn.transaction():
            self.conn.execute(
                "INSERT INTO health (table_id, beat_at, table_seq, sensors, board_clock) "
                "VALUES (%s, now(), %s, %s, %s) ON CONFLICT (table_id) DO UPDATE SET beat_at=now(), "
                "table_seq=EXCLUDED.table_seq, sensors=EXCLUDED.sensors, board_clock=EXCLUDED.board_clock",
                (table_id, table_seq, json.dumps(sensors), board_clock))

    # --- reading ----------------------------------------------------------------------------
    def events(self, table_id: str, after: int = 0) -> list[tuple[int, int, int, str]]:
        """``(seq, game, n, event_json)`` of a table, in sequence order."""
        with self.conn.transaction():
            return self.conn.execute("SELECT seq, game, n, event FROM events WHERE table_id=%s AND seq>%s "
                                     "ORDER BY seq", (table_id, after)).fetchall()

    def last_seqs(self) -> dict[str, int]:
        with self.conn.transaction():
            return dict(self.conn.execute("SELECT table_id, MAX(seq) FROM events GROUP BY table_id").fetchall())

    def counts(self) -> dict[str, int]:
        with self.conn.transaction():
            return dict(self.conn.execute("SELECT table_id, COUNT(*) FROM events GROUP BY table_id").fetchall())

    def health(self) -> dict[str, dict]:
        """Each table's last word: ``beat_age`` (seconds on the hall's clock), ``table_seq``, ``sensors``."""
        with self.conn.transaction():
            rows = self.conn.execute("SELECT table_id, EXTRACT(EPOCH FROM now() - beat_at), table_seq, sensors, "
                                     "board_clock FROM health").fetchall()
        return {t: {"beat_age": float(age) if age is not None else None, "table_seq": seq,
                    "sensors": sensors or {}, "board_clock": clock} for t, age, seq, sensors, clock in rows}

    # --- the tournament --------------------------------------------------------------------------
    def load_tournament(self, event: str) -> tuple[Optional[dict], int]:
        with self.conn.transaction():
            row = self.conn.execute("SELECT doc, version FROM tournament WHERE event=%s", (event,)).fetchone()
        return (row[0], row[1]) if row else (None, 0)

    def save_tournament(self, event: str, doc: dict, version: int, who: str, action: str,
                        reason: Optional[str], detail: dict) -> int:
        """Save ``doc`` if nobody saved since ``version`` was read, with its audit line, in one
        transaction. Returns the new version; raises ``ValueError`` on a concurrent change."""
        from psycopg.types.json import Jsonb

        with self.conn.transaction():
            if version == 0:
                done = self.conn.execute("INSERT INTO tournament (event, doc, version) VALUES (%s, %s, 1) "
                                         "ON CONFLICT DO NOTHING", (event, Jsonb(doc))).rowcount
            else:
                done = self.conn.execute("UPDATE tournament SET doc=%s, version=version+1 "
                                         "WHERE event=%s AND version=%s", (Jsonb(doc), event, version)).rowcount
            if not done:
                raise ValueError("someone else changed the tournament meanwhile: reload the desk and try again")
            self.conn.execute("INSERT INTO audit (event, who, action, reason, detail) VALUES (%s, %s, %s, %s, %s)",
                              (event, who, action, reason, Jsonb(detail)))
        return version + 1

    def audit(self, event: str) -> list[dict]:
        with self.conn.transaction():
            rows = self.conn.execute("SELECT id, at, who, action, reason, detail FROM audit WHERE event=%s "
                                     "ORDER BY id", (event,)).fetchall()
        return [{"id": i, "at": at.isoformat(timespec="seconds"), "who": who, "action": action, "reason": reason,
                 "detail": detail} for i, at, who, action, reason, detail in rows]
