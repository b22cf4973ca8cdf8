"""What crosses the wire between a table and its hall: names and shapes.

One message per game event, on the table's subject, in the table's stream::

    {"table": "t7", "seq": 42, "game": 2, "n": 5, "event": {...}, "clock": 1732390000.1}

- ``seq``: the table's own sequence, 1, 2, 3... over all its games, never
  reset: it is the event's place in the table's record, and the hall orders
  by it and nothing else (``clock`` is the board's wall clock, shown, never
  trusted: a board's clock may be wrong);
- ``game``/``n``: where the event lies in the table's stores: game number
  ``game`` (``<table>-<game>.sqlite``), line ``n`` of its record (1 is the
  ``game`` header);
- the JetStream header ``Nats-Msg-Id`` is ``<table>-<seq>``, so a message
  published twice (a board killed between its publish and its note of it) is
  stored once.
"""

from __future__ import annotations

import json
import re
from typing import Any

from referee.json_text import loads

#: The hall's JetStream domain; each board's is ``b<board id>``.
HALL_DOMAIN = "hall"
#: The hall stream, which sources every table's stream.
HALL_STREAM = "HALL"
#: The ingest's durable consumer on the hall stream.
INGEST_CONSUMER = "INGEST"
#: A table asks to join here (request/reply over the leaf link).
JOIN_SUBJECT = "belote.hall.join"
#: The NATS account every server of a hall and its tables use for the game.
ACCOUNT = "BELOTE"

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}\Z")


class WireError(ValueError):
    """A message or a name that does not have the shape above."""


def check_table_id(table_id: str) -> str:
    """A table id usable in subjects and stream names, or a clear error."""
    if not _TABLE_ID.match(table_id or ""):
        raise WireError(f"table id {table_id!r} must be 1 to 32 letters, digits, '-' or '_' (e.g. t7)")
    return table_id


def table_stream(table_id: str) -> str:
    return f"TABLE_{table_id}"


def table_subject(table_id: str) -> str:
    return f"belote.table.{table_id}.events"


def beat_subject(table_id: str) -> str:
    """Where a table says it is alive (request: the hall answers with the table's assignment)."""
    return f"belote.hall.beat.{table_id}"


def board_domain(board_id: str) -> str:
    return f"b{board_id}"


def msg_id(table_id: str, seq: int) -> str:
    return f"{table_id}-{seq}"


def envelope(table_id: str, seq: int, game: int, n: int, event: dict, clock: float) -> bytes:
    return json.dumps({"table": table_id, "seq": seq, "game": game, "n": n, "event": event,
                       "clock": round(clock, 3)}, separators=(",", ":")).encode()


def parse_envelope(data: bytes) -> dict[str, Any]:
    try:
        msg = loads(data)          # hostile text too: deep nesting, huge numbers (referee.json_text)
    except ValueError as exc:
        raise WireError(f"not JSON: {exc}") from None
    if not isinstance(msg, dict):
        raise WireError("an event message is a JSON object")
    for key, kind in (("table", str), ("seq", int), ("game", int), ("n", int), ("event", dict)):
        if not isinstance(msg.get(key), kind):
            raise WireError(f"field {key!r} missing or not a {kind.__name__}")
    check_table_id(msg["table"])
    if msg["seq"] < 1 or msg["game"] < 1 or msg["n"] < 1:
        raise WireError("seq, game and n count from 1")
    return msg
