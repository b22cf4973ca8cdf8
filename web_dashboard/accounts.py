"""Who may see and do what, kept in one SQLite file of the instance folder
(``var/dashboard.sqlite`` by default): the referee's password, the tables of
the event, the tokens, and the key that signs session cookies (so a restart
does not sign every referee out).

Tokens are random and only their SHA-256 is stored, so a copy of the file does
not hand out access. Two kinds:

- ``table``: a per-table sign-in token, exchanged once for a console session
  scoped to that table (a club prints it as a QR code on the table card);
- ``overlay``: read-only, scoped to one table and one feed (``broadcast`` or
  ``venue``), pasted into OBS; revocable from the console.

Sessions live here too, not only in the signed cookie: a cookie names its
session (the SHA-256 of a random id is kept), and signing out ends the session
here, so a copy of the cookie taken before sign-out opens nothing after it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from werkzeug.security import check_password_hash, generate_password_hash

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY, pw_hash TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, rules TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL CHECK (kind IN ('table', 'overlay')),
    table_id TEXT NOT NULL, feed TEXT, hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL, revoked REAL);
CREATE TABLE IF NOT EXISTS sessions (
    hash TEXT PRIMARY KEY, user TEXT NOT NULL, tables TEXT NOT NULL, created REAL NOT NULL, ended REAL);
"""

REFEREE = "referee"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Token:
    id: int
    kind: str
    table_id: str
    feed: Optional[str]
    label: str
    created: float
    revoked: Optional[float]

    def as_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "table": self.table_id, "feed": self.feed,
                "label": self.label, "created": self.created, "revoked": self.revoked}


class Accounts:
    """The dashboard's SQLite file. Each call opens its own short connection,
    so any thread may use it."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    def _db(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10)

    # --- settings ----------------------------------------------------------
    def secret_key(self) -> str:
        """The cookie-signing key, made on first use and kept."""
        with self._db() as db:
            db.execute("INSERT OR IGNORE INTO settings VALUES ('secret_key', ?)", (secrets.token_hex(32),))
            return db.execute("SELECT value FROM settings WHERE key='secret_key'").fetchone()[0]

    # --- the referee's password --------------------------------------------
    def has_password(self, name: str = REFEREE) -> bool:
        with self._db() as db:
            return db.execute("SELECT 1 FROM users WHERE name=?", (name,)).fetchone() is not None

    def set_password(self, password: str, name: str = REFEREE) -> None:
        if len(password) < 8:
            raise ValueError("the password is too short: choose at least 8 characters")
        with self._db() as db:
            db.execute("INSERT OR REPLACE INTO users VALUES (?, ?, ?)",
                       (name, generate_password_hash(password), time.time()))

    def check_password(self, password: str, name: str = REFEREE) -> bool:
        with self._db() as db:
            row = db.execute("SELECT pw_hash FROM users WHERE name=?", (name,)).fetchone()
        return bool(row) and check_password_hash(row[0], password)

    # --- tables ---------------------------------------------------------------
    def add_table(self, table_id: str, name: str, rules: str) -> None:
        with self._db() as db:
            db.execute("INSERT INTO tables VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                       "name=excluded.name, rules=excluded.rules", (table_id, name, rules, time.time()))

    def tables(self) -> list[dict]:
        with self._db() as db:
            rows = db.execute("SELECT id, name, rules FROM tables ORDER BY created, id").fetchall()
        return [{"id": r[0], "name": r[1], "rules": r[2]} for r in rows]

    # --- tokens ---------------------------------------------------------------
    def issue_token(self, kind: str, table_id: str, feed: Optional[str] = None, label: str = "") -> str:
        """A new token (returned once, in clear; only its hash is kept)."""
        if kind == "overlay" and feed not in ("broadcast", "venue"):
            raise ValueError("an overlay token is for the 'broadcast' or the 'venue' feed")
        token = secrets.token_urlsafe(24)
        with self._db() as db:
            db.execute("INSERT INTO tokens (kind, table_id, feed, hash, label, created) VALUES (?,?,?,?,?,?)",
                       (kind, table_id, feed, _digest(token), label, time.time()))
        return token

    def find_token(self, token: str) -> Optional[Token]:
        """The live (not revoked) token with this text, if any."""
        if not token:
            return None
        with self._db() as db:
            row = db.execute("SELECT id, kind, table_id, feed, label, created, revoked FROM tokens "
                             "WHERE hash=? AND revoked IS NULL", (_digest(token),)).fetchone()
        return Token(*row) if row else None

    def tokens(self, table_id: Optional[str] = None) -> list[Token]:
        with self._db() as db:
            rows = db.execute("SELECT id, kind, table_id, feed, label, created, revoked FROM tokens "
                              "WHERE ? IS NULL OR table_id=? ORDER BY id", (table_id, table_id)).fetchall()
        return [Token(*r) for r in rows]

    def revoke_token(self, token_id: int) -> bool:
        with self._db() as db:
            cur = db.execute("UPDATE tokens SET revoked=? WHERE id=? AND revoked IS NULL", (time.time(), token_id))
        return cur.rowcount == 1

    # --- sessions ---------------------------------------------------------------
    def start_session(self, tables: list[str] | str, user: str = REFEREE) -> str:
        """A new session (its id, for the cookie) for ``tables`` (``"*"``: every table)."""
        sid = secrets.token_urlsafe(24)
        with self._db() as db:
            db.execute("INSERT INTO sessions (hash, user, tables, created) VALUES (?, ?, ?, ?)",
                       (_digest(sid), user, json.dumps(tables), time.time()))
        return sid

    def session_alive(self, sid: str) -> bool:
        if not isinstance(sid, str) or not sid:
            return False
        with self._db() as db:
            row = db.execute("SELECT 1 FROM sessions WHERE hash=? AND ended IS NULL", (_digest(sid),)).fetchone()
        return row is not None

    def end_session(self, sid: str) -> None:
        if isinstance(sid, str) and sid:
            with self._db() as db:
                db.execute("UPDATE sessions SET ended=? WHERE hash=? AND ended IS NULL", (time.time(), _digest(sid)))
