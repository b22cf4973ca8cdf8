"""The hall side: the hall stream sources every table's stream, and the
ingest writes it to PostgreSQL, committed before the ack.

- A table asks to join (``belote.hall.join``): the ingest gives it its table
  id in the database (refusing an id another board holds) and adds the
  board's stream to the hall stream's sources. From then on the hall's
  nats-server pulls that table's events over the leaf link by itself, and
  after an outage resumes where it stopped: no code of ours resends.
- A durable pull consumer on the hall stream hands the ingest its messages
  in batches; a batch is inserted (``ON CONFLICT DO NOTHING`` on
  ``(table_id, seq)``) and committed, and only then acked. Killed between the
  two, the ingest gets the batch again when it restarts and stores nothing
  twice. PostgreSQL down: the batch waits, unacked, until it is back.
- Heartbeats (``belote.hall.beat.<table>``) are recorded as the table's
  health and answered with the table's assignment in the tournament.
- A stalled source is restarted. After an outage nats-server retries a
  stream source with a growing back-off: measured here, a 30 s outage left
  the hall idle 29.6 s after the link was back, a 60 s one 49.8 s. A table
  whose heartbeat says it has events the hall lacks, while nothing of it has
  arrived for ``STALL`` seconds, gets its source removed and added back (the
  stream resumes it from the last message it holds of it): 1.2 s instead.

``BELOTE_HALL_FAILPOINT=kill-after-commit:N`` kills the process with SIGKILL
right after its N-th commit, before the ack: the fault test's way to die at
exactly the worst moment.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
from typing import Any, Callable, Optional

from referee.json_text import loads

from .db import HallDB, connect
from .wire import (HALL_STREAM, INGEST_CONSUMER, JOIN_SUBJECT, WireError, check_table_id, parse_envelope,
                   table_stream)


#: Seconds without progress, while a table says it is ahead, before its source is restarted.
STALL = 2.0


def _failpoint() -> Optional[int]:
    value = os.environ.get("BELOTE_HALL_FAILPOINT", "")
    return int(value.split(":", 1)[1]) if value.startswith("kill-after-commit:") else None


class Ingest:
    """Runs in a thread with its own asyncio loop (``start``/``stop``).

    ``on_events(table_ids)`` is called after each committed batch with the
    tables it touched; ``assignment(table_id)`` answers heartbeats."""

    def __init__(self, nats_url: str, dsn: str, on_events: Callable[[set], None] = lambda tables: None,
                 assignment: Callable[[str], Any] = lambda table_id: None, batch: int = 256,
                 ack_wait: float = 30.0, say: Callable[[str], None] = lambda text: None):
        self.nats_url, self.dsn = nats_url, dsn
        self.on_events, self.assignment = on_events, assignment
        self.batch, self.ack_wait = batch, ack_wait
        self.say = say
        self.commits = 0
        self.stored = 0                    # new rows committed by this process
        self.ready = threading.Event()
        self._kill_after = _failpoint()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._sources_lock: Optional[asyncio.Lock] = None
        self.held: dict[str, int] = {}         # the last seq stored per table
        self._progress: dict[str, float] = {}  # when it last grew (monotonic)
        self._kicked: dict[str, float] = {}
        self._js: Any = None
        self.error: Optional[BaseException] = None

    def start(self) -> "Ingest":
        self._thread = threading.Thread(target=self._run, name="hall-ingest", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(15)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:
            self.error = exc
            self.say(f"hall ingest stopped: {type(exc).__name__}: {exc}")
            raise

    async def _main(self) -> None:
        import nats

        self.db = HallDB(self.dsn, timeout=120)
        self._beat_db = HallDB(self.dsn, timeout=120)
        self._sources_lock = asyncio.Lock()
        self.held = self.db.last_seqs()
        nc = await nats.connect(self.nats_url, max_reconnect_attempts=-1, reconnect_time_wait=0.5, name="hall-ingest")
        try:
            js = self._js = nc.jetstream()
            await self._ensure_stream(js)
            async def on_join(msg: Any) -> None:
                await self._on_join(js, msg)
            await nc.subscribe(JOIN_SUBJECT, cb=on_join)
            await nc.subscribe("belote.hall.beat.*", cb=self._on_beat)
            consumer = await self._consumer(js)
            self.ready.set()
            while not self._stop.is_set():
                try:
                    msgs = await consumer.fetch(self.batch, timeout=0.5)
                except (asyncio.TimeoutError, nats.errors.TimeoutError):
                    continue
                except nats.errors.Error as exc:     # the hall's server restarting: the consumer is durable
                    self.say(f"hall ingest: fetch failed ({exc!r}); again shortly")
                    await asyncio.sleep(0.5)
                    continue
                await self._store(msgs)
        finally:
            await nc.close()
            self.db.close()
            self._beat_db.close()

    # --- the hall stream -------------------------------------------------------------------------
    async def _ensure_stream(self, js: Any) -> None:
        from nats.js.api import StorageType, StreamConfig
        from nats.js.errors import NotFoundError

        try:
            await js.stream_info(HALL_STREAM)
        except NotFoundError:
            await js.add_stream(StreamConfig(name=HALL_STREAM, storage=StorageType.FILE, sources=[]))
        for table_id, _, domain in self.db.boards():   # sources survive in the stream's config; check anyway
            await self._add_source(js, table_id, domain)

    async def _consumer(self, js: Any) -> Any:
        from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

        return await js.pull_subscribe("", durable=INGEST_CONSUMER, stream=HALL_STREAM, config=ConsumerConfig(
            ack_policy=AckPolicy.EXPLICIT, deliver_policy=DeliverPolicy.ALL, ack_wait=self.ack_wait,
            max_ack_pending=20000, max_deliver=-1))

    async def _add_source(self, js: Any, table_id: str, domain: str) -> None:
        from nats.js.api import ExternalStream, StreamSource

        async with self._sources_lock:
            info = await js.stream_info(HALL_STREAM)
            config = info.config
            name = table_stream(table_id)
            api = f"$JS.{domain}.API"
            sources = [s for s in (config.sources or []) if s.name != name or (s.external and s.external.api == api)]
            if any(s.name == name for s in sources):
                return
            sources.append(StreamSource(name=name, external=ExternalStream(api=api)))
            config.sources = sources
            await js.update_stream(config)
            self.say(f"hall: sourcing table {table_id} from JetStream domain {domain}")

    # --- joins and heartbeats --------------------------------------------------------------------
    async def _on_join(self, js: Any, msg: Any) -> None:
        try:
            request = loads(msg.data)
            table_id = check_table_id(request.get("table", ""))
            board, domain = str(request["board"]), str(request["domain"])
        except (ValueError, KeyError, WireError) as exc:
            await msg.respond(json.dumps({"ok": False, "error": f"bad join request: {exc}"}).encode())
            return
        refusal = self.db.claim(table_id, board, domain)
        if refusal is None:
            await self._add_source(js, table_id, domain)
            self.db.beat(table_id, int(request.get("seq") or 0), {}, float(request.get("clock") or 0))
        else:
            self.say(f"hall: refused board {board} as table {table_id}: another board holds it")
        await msg.respond(json.dumps({"ok": refusal is None, "error": refusal}).encode())

    async def _on_beat(self, msg: Any) -> None:
        try:
            beat = json.loads(msg.data)
            table_id = check_table_id(beat.get("table", ""))
            said = int(beat.get("seq") or 0)
            self._beat_db.beat(table_id, said, beat.get("status") or {}, float(beat.get("clock") or 0))
            await self._unstall(table_id, said)
            answer = {"assignment": self.assignment(table_id)}
        except Exception as exc:          # a bad beat, or the database restarting: the table beats again
            answer = {"assignment": None, "error": str(exc)}
            self._reconnect_if_broken(self._beat_db)
        if msg.reply:
            await msg.respond(json.dumps(answer).encode())

    async def _unstall(self, table_id: str, said: int) -> None:
        """Restart the source of a table that is ahead of the hall while nothing of it arrives."""
        now = asyncio.get_running_loop().time()
        self._progress.setdefault(table_id, now)
        if said <= self.held.get(table_id, 0) or now - self._progress[table_id] < STALL \
                or now - self._kicked.get(table_id, -1e9) < 2 * STALL:
            return
        self._kicked[table_id] = now
        boards = {t: domain for t, _, domain in self.db.boards()}
        if table_id not in boards:
            return
        self.say(f"hall: table {table_id} is at seq {said}, the hall at {self.held.get(table_id, 0)}, "
                 f"nothing for {now - self._progress[table_id]:.0f} s: restarting its source")
        await self._remove_source(table_id)
        await self._add_source(self._js, table_id, boards[table_id])

    async def _remove_source(self, table_id: str) -> None:
        async with self._sources_lock:
            config = (await self._js.stream_info(HALL_STREAM)).config
            config.sources = [s for s in (config.sources or []) if s.name != table_stream(table_id)]
            await self._js.update_stream(config)

    @staticmethod
    def _reconnect_if_broken(db: HallDB) -> None:
        if db.conn.broken or db.conn.closed:
            try:
                db.conn = connect(db.dsn, timeout=1)
            except Exception:              # still down: the next beat tries again
                pass

    # --- the ingest proper ------------------------------------------------------------------------
    async def _store(self, msgs: list) -> None:
        rows, touched = [], set()
        for m in msgs:
            try:
                e = parse_envelope(m.data)
            except WireError as exc:       # never written by a table of ours: kept out, said, acked
                self.say(f"hall ingest: dropped a malformed message ({exc})")
                continue
            rows.append((e["table"], e["seq"], e["game"], e["n"],
                         json.dumps(e["event"], separators=(",", ":")), e.get("clock")))
            touched.add(e["table"])
        while True:
            try:
                self.stored += self.db.insert_events(rows)
                break
            except Exception as exc:       # PostgreSQL restarting: keep the batch, unacked, and retry
                import psycopg
                if not isinstance(exc, psycopg.Error):
                    raise
                self.say(f"hall ingest: database unavailable ({type(exc).__name__}); retrying")
                await asyncio.sleep(0.5)
                self.db.conn.close()
                try:
                    self.db = HallDB(self.dsn, timeout=1)
                except psycopg.Error:
                    continue
        now = asyncio.get_running_loop().time()
        for table, seq, *_ in rows:
            if seq > self.held.get(table, 0):
                self.held[table] = seq
                self._progress[table] = now
        self.commits += 1
        if self._kill_after is not None and self.commits >= self._kill_after:
            os.kill(os.getpid(), signal.SIGKILL)       # the fault test: committed, never acked
        for m in msgs:
            await m.ack()
        if touched:
            self.on_events(touched)
