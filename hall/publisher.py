"""The table side of a hall: every event the table stores goes into the
board's own JetStream stream, and the hall is told the table exists.

The table referee writes its games to SQLite (``referee.store``) as always;
:class:`TableLink` follows those stores (a reader beside the writer, as WAL
allows) and publishes each new event to the board's nats-server, a leaf node
of the hall's. The board's stream is file-backed and synced on every write,
so what the table played survives a power cut; the hall sources it over the
leaf link whenever the link is up, and catches up by itself after an outage.

Sequence: on start the link reads the last message of the board's stream and
goes on from there (``seq`` + 1, in the game and line that message names),
never from 0. An event published but not yet known to be (the board died
between the two) is published again under the same ``Nats-Msg-Id`` and the
stream drops the copy.

Joining: the link asks the hall (``belote.hall.join``, over the leaf link)
to take the table; the hall refuses a table id that another board holds.
Until the hall answers (it may be unreachable for hours) the table plays on
and the events wait in the board's stream. Every ``beat`` seconds the link
tells the hall it is alive (its last seq, its sensors) and the hall answers
with the table's assignment in the tournament, if any.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Optional

from referee.store import EventStore

from .wire import (JOIN_SUBJECT, beat_subject, board_domain, check_table_id, envelope, msg_id, parse_envelope,
                   table_stream, table_subject)


def board_id(instance: Path) -> str:
    """This board's identity, made on its first start and kept in its instance folder."""
    path = Path(instance) / "board-id"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(uuid.uuid4().hex[:12])
    return path.read_text().strip()


class Records:
    """The table's game stores, followed in order: game 1's lines, then game 2's..."""

    def __init__(self, stores: Callable[[], list[Path]]):
        self.stores = stores
        self._open: dict[int, EventStore] = {}   # game number -> its store, open while followed

    def after(self, game: int, line: int, limit: int = 500) -> list[tuple[int, int, dict]]:
        """Up to ``limit`` ``(game, line, event)`` after line ``line`` of game ``game``
        (line 1 is the game's header)."""
        out: list[tuple[int, int, dict]] = []
        for number, path in enumerate(self.stores(), 1):
            if number < game:
                continue
            if len(out) >= limit:
                break
            if number not in self._open:
                self._open[number] = EventStore(path)
            store = self._open[number]
            start = line if number == game else 0
            if start < 1:
                header = store.header
                if header is None:            # a game being created: its header is not committed yet
                    break
                out.append((number, 1, header))
            out += [(number, n + 1, json.loads(text)) for n, text in store.events_since(max(start - 1, 0))]
            for older in [k for k in self._open if k < number]:   # the table moved on: read once, closed
                self._open.pop(older).close()
        return out[:limit]

    def close(self) -> None:
        for store in self._open.values():
            store.close()
        self._open.clear()


class TableLink:
    """Forwards a table's events to its board's stream and keeps in touch with the hall.

    ``status()`` gives the table's sensors for the heartbeat; ``on_assignment``
    gets the hall's assignment (a dict, or None) after each heartbeat;
    ``clock`` is the board's wall clock (written into each message, never used
    to order anything)."""

    def __init__(self, table_id: str, board: str, local_url: str, stores: Callable[[], list[Path]],
                 status: Callable[[], dict] = dict, on_assignment: Optional[Callable[[Any], None]] = None,
                 beat: float = 1.0, poll: float = 0.1, clock: Callable[[], float] = time.time,
                 say: Callable[[str], None] = lambda text: None):
        self.table_id = check_table_id(table_id)
        self.board = board
        self.local_url = local_url
        self.records = Records(stores)
        self.status = status
        self.on_assignment = on_assignment
        self.beat_every, self.poll = beat, poll
        self.clock = clock
        self.say = say
        self.seq = 0                       # the last seq in the board's stream
        self.joined = threading.Event()
        self.refused: Optional[str] = None
        self.started = threading.Event()   # the stream is there and the sequence resumed
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.error: Optional[BaseException] = None

    # --- the thread -------------------------------------------------------------------------
    def start(self) -> "TableLink":
        self._thread = threading.Thread(target=self._run, name=f"hall-link-{self.table_id}", daemon=True)
        self._thread.start()
        return self

    def notify(self) -> None:
        """The table stored something: publish it now rather than at the next poll."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread:
            self._thread.join(10)
        self.records.close()

    def wait_started(self, timeout: float = 30.0) -> None:
        if not self.started.wait(timeout):
            raise RuntimeError(f"the board's stream did not open: {self.error!r}")

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:       # said, not swallowed: the table plays on, stored locally
            self.error = exc
            self.say(f"hall link of {self.table_id} stopped: {type(exc).__name__}: {exc}")

    async def _main(self) -> None:
        import nats

        nc = await nats.connect(self.local_url, max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                                name=f"table-{self.table_id}")
        try:
            js = nc.jetstream()
            await self._ensure_stream(js)
            game, line = await self._resume(js)
            self.started.set()
            tasks = [asyncio.create_task(self._join(nc)), asyncio.create_task(self._beat(nc))]
            try:
                while not self._stop.is_set():
                    batch = self.records.after(game, line)
                    for game, line, event in batch:
                        await self._publish(js, game, line, event)
                    if not batch:
                        await asyncio.get_running_loop().run_in_executor(None, self._wake.wait, self.poll)
                        self._wake.clear()
                for game, line, event in self.records.after(game, line):   # stopping: what the table stored last
                    await self._publish(js, game, line, event)
            finally:
                for task in tasks:
                    task.cancel()
        finally:
            await nc.close()

    async def _ensure_stream(self, js: Any) -> None:
        from nats.js.api import StorageType, StreamConfig
        from nats.js.errors import NotFoundError

        try:
            await js.stream_info(table_stream(self.table_id))
        except NotFoundError:
            await js.add_stream(StreamConfig(name=table_stream(self.table_id),
                                             subjects=[table_subject(self.table_id)],
                                             storage=StorageType.FILE, duplicate_window=3600.0))

    async def _resume(self, js: Any) -> tuple[int, int]:
        """Where the board's stream ends: (game, line) of its last message, and ``self.seq``."""
        from nats.js.errors import NotFoundError

        try:
            last = await js.get_last_msg(table_stream(self.table_id), table_subject(self.table_id))
        except NotFoundError:
            return 1, 0
        msg = parse_envelope(last.data)
        self.seq = msg["seq"]
        self.say(f"hall link of {self.table_id}: the board's stream ends at seq {self.seq}; going on from there")
        return msg["game"], msg["n"]

    async def _publish(self, js: Any, game: int, line: int, event: dict) -> None:
        seq = self.seq + 1
        data = envelope(self.table_id, seq, game, line, event, self.clock())
        while True:
            try:
                await js.publish(table_subject(self.table_id), data, timeout=5,
                                 headers={"Nats-Msg-Id": msg_id(self.table_id, seq)})
                break
            except Exception as exc:       # the board's own server restarting: wait, never skip
                if self._stop.is_set():
                    raise
                self.say(f"hall link of {self.table_id}: publish of seq {seq} failed ({exc!r}); retrying")
                await asyncio.sleep(0.5)
        self.seq = seq

    async def _join(self, nc: Any) -> None:
        while not self.joined.is_set():
            request = json.dumps({"table": self.table_id, "board": self.board, "domain": board_domain(self.board),
                                  "stream": table_stream(self.table_id), "seq": self.seq,
                                  "clock": self.clock()}).encode()
            try:
                reply = json.loads((await nc.request(JOIN_SUBJECT, request, timeout=2)).data)
            except Exception:              # no hall yet (link down, hall restarting): ask again
                await asyncio.sleep(1.0)
                continue
            if reply.get("ok"):
                self.say(f"hall link of {self.table_id}: joined the hall")
                self.joined.set()
            else:
                self.refused = reply.get("error") or "refused"
                self.say(f"hall link of {self.table_id}: the hall refused: {self.refused}")
                self.joined.set()

    async def _beat(self, nc: Any) -> None:
        while True:
            await asyncio.sleep(self.beat_every)
            if not self.joined.is_set() or self.refused:
                continue
            try:
                status = self.status()
            except Exception as exc:       # the table's state is being swapped: beat without it
                status = {"error": str(exc)}
            data = json.dumps({"table": self.table_id, "board": self.board, "seq": self.seq,
                               "clock": self.clock(), "status": status}).encode()
            try:
                reply = json.loads((await nc.request(beat_subject(self.table_id), data, timeout=2)).data)
            except Exception:
                continue
            if self.on_assignment is not None:
                try:
                    self.on_assignment(reply.get("assignment"))
                except Exception as exc:   # a bad assignment must not stop the link
                    self.say(f"hall link of {self.table_id}: assignment not applied: {exc}")
