"""The live-update hub: per table, three feeds of JSON views, each streamed to
its clients as Server-Sent Events.

A feed keeps its current view, a numbered ring of its recent changes and its
clients. A client that connects gets a ``snapshot``; one that reconnects with
``Last-Event-ID`` still in the ring gets only the changes it missed. A change
is a top-level patch of the view (``{"set": {...}, "del": [...]}``), so a page
applies it with one ``Object.assign``.

Each client has a bounded queue. A slow client (a tablet on a weak network)
must not make the server grow without bound, so the queue drops its oldest
entry when full; because a patch stream with a hole would be wrong, a client
that lost anything is sent a fresh snapshot instead of the rest of its queue.

Event ids are ``<epoch>-<n>``: the epoch changes every time the server starts,
so a browser that resumes against a restarted server gets a snapshot rather
than changes numbered from another life.

Two more things reach a table's feeds besides its states:

- *notes*, the live analysis (par, win chance), computed by a worker thread
  after the state they describe; a note is merged into the table's last state
  and published as if the table had changed, so it takes the same road: cut per
  feed by :mod:`web_dashboard.views`, and late by the broadcast delay (par is
  worked out from the hidden hands);
- the *overlay* settings (the look, a cue such as "show the last trick"): for
  the producer, not about the game, so they reach the overlay feeds at once,
  never delayed, and stay on every later view.

Threading: every method here runs on one thread (the web server's event loop);
sensors and console actions on other threads hand their snapshots over through
:meth:`Hub.submit` (and the analysis its notes through :meth:`Hub.note`), which
go through the ``call_soon_threadsafe`` given to the hub. This keeps the hub
free of locks and easy to test. ``listeners`` are told of each state as it is
submitted, on the submitting thread (the analysis worker's wake-up).
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections import deque
from typing import Any, Callable, Iterator, Optional

from .views import FEEDS, club_summary, club_view, view_for

_MISSING = object()


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def sse_message(event: str, data: str, event_id: Optional[str] = None) -> str:
    """One SSE message; ``data`` is one line of JSON."""
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


def diff_views(old: dict, new: dict) -> Optional[dict]:
    """The top-level patch that turns ``old`` into ``new`` (None when equal)."""
    changed = {k: v for k, v in new.items() if old.get(k, _MISSING) != v}
    removed = [k for k in old if k not in new]
    if not changed and not removed:
        return None
    patch: dict[str, Any] = {"set": changed}
    if removed:
        patch["del"] = removed
    return patch


class Client:
    """One open stream: a bounded queue of SSE messages and a wake-up."""

    def __init__(self, feed: "Feed", queue_size: int, event: Any):
        self.feed = feed
        self.queue: deque[str] = deque()
        self.queue_size = queue_size
        self.event = event           # gevent.event.Event in the server, threading.Event in tests
        self.resync = False          # lost a message: next thing it gets is a snapshot
        self.dropped = 0
        self.closed = False
        self.owner: Any = None       # who opened it (web_dashboard.auth.reader): closed when they end

    def push(self, message: str) -> None:
        if len(self.queue) >= self.queue_size:
            self.queue.popleft()
            self.dropped += 1
            self.resync = True
        self.queue.append(message)
        self.event.set()

    def drain(self) -> list[str]:
        """What to write now: the queued messages, or one snapshot after a loss."""
        self.event.clear()
        if self.resync:
            self.resync = False
            self.queue.clear()
            return [self.feed.snapshot_message()]
        out = list(self.queue)
        self.queue.clear()
        return out

    def close(self) -> None:
        self.closed = True
        self.feed.clients.discard(self)
        self.event.set()


class Feed:
    """One feed of one table: its view, its recent changes, its clients."""

    def __init__(self, name: str, epoch: str, ring_size: int = 512, queue_size: int = 256):
        self.name = name
        self.epoch = epoch
        self.seq = 0
        self.view: dict = {}
        self.ring: deque[tuple[int, str]] = deque(maxlen=ring_size)   # (seq, message)
        self.queue_size = queue_size
        self.clients: set[Client] = set()

    def event_id(self, seq: Optional[int] = None) -> str:
        return f"{self.epoch}-{self.seq if seq is None else seq}"

    def snapshot_message(self) -> str:
        return sse_message("snapshot", _dumps(self.view), self.event_id())

    def update(self, view: dict) -> bool:
        """Make ``view`` current; send the change to every client. False if nothing changed."""
        patch = diff_views(self.view, view)
        if patch is None:
            return False
        self.view = view
        self.seq += 1
        message = sse_message("change", _dumps(patch), self.event_id())
        self.ring.append((self.seq, message))
        for client in list(self.clients):
            client.push(message)
        return True

    def subscribe(self, event_factory: Callable[[], Any], last_event_id: Optional[str] = None) -> Client:
        client = Client(self, self.queue_size, event_factory())
        missed = self._since(last_event_id)
        if missed is None:
            client.push(self.snapshot_message())
        else:
            for message in missed:
                client.push(message)
        self.clients.add(client)
        return client

    def _since(self, last_event_id: Optional[str]) -> Optional[list[str]]:
        """The changes after ``last_event_id``, or None when only a snapshot will do."""
        if not last_event_id:
            return None
        epoch, _, number = last_event_id.rpartition("-")
        if epoch != self.epoch or not number.isdigit():
            return None
        seq = int(number)
        if seq == self.seq:
            return []
        if seq > self.seq or not self.ring or self.ring[0][0] > seq + 1:
            return None
        return [message for n, message in self.ring if n > seq]


class Channel:
    """The three feeds of one table. The broadcast feed gets each view
    ``delay`` seconds late (a stream must not show hidden hands live)."""

    #: the feeds an overlay reads (they carry the overlay settings)
    OVERLAY_FEEDS = ("broadcast", "venue")

    def __init__(self, table_id: str, epoch: str, delay: float,
                 call_later: Callable[[float, Callable[[], None]], Any], **feed_args: Any):
        self.table_id = table_id
        self.delay = delay
        self.call_later = call_later
        self.feeds = {name: Feed(name, epoch, **feed_args) for name in FEEDS}
        self.feeds["broadcast"].view = view_for("broadcast", None, delay)
        self.snapshot: Optional[dict] = None     # the table's last state
        self.notes: dict = {}                    # the analysis' fields, merged into each state
        self.overlay: Optional[dict] = None      # the overlay's look and cues

    def publish(self, snapshot: dict) -> None:
        self.snapshot = snapshot
        state = {**snapshot, **self.notes} if self.notes else snapshot
        self.feeds["referee"].update(view_for("referee", state))
        self._show("venue", view_for("venue", state))
        delayed = view_for("broadcast", state, self.delay)
        if self.delay > 0:
            self.call_later(self.delay, lambda: self._show("broadcast", delayed))
        else:
            self._show("broadcast", delayed)

    def note(self, fields: dict) -> None:
        """Merge the analysis' ``fields`` into the table's state and publish it again."""
        self.notes.update(fields)
        if self.snapshot is not None:
            self.publish(self.snapshot)

    def set_overlay(self, overlay: dict) -> None:
        """New overlay settings, on the overlay feeds at once (not delayed)."""
        self.overlay = overlay
        for name in self.OVERLAY_FEEDS:
            self._show(name, self.feeds[name].view)

    def _show(self, name: str, view: dict) -> None:
        if self.overlay is not None:
            view = {**view, "overlay": self.overlay}
        self.feeds[name].update(view)


class Hub:
    """Every table's channel. ``call_soon_threadsafe(fn)`` runs ``fn`` on the
    hub's thread; ``call_later(seconds, fn)`` runs it later on that thread."""

    def __init__(self, call_soon_threadsafe: Callable[[Callable[[], None]], Any],
                 call_later: Callable[[float, Callable[[], None]], Any],
                 event_factory: Callable[[], Any], broadcast_delay: float = 30.0,
                 ring_size: int = 512, queue_size: int = 256, keepalive: float = 15.0):
        self.call_soon_threadsafe = call_soon_threadsafe
        self.call_later = call_later
        self.event_factory = event_factory
        self.broadcast_delay = broadcast_delay
        self.keepalive = keepalive
        self.epoch = secrets.token_hex(4)
        self.feed_args = {"ring_size": ring_size, "queue_size": queue_size}
        self.channels: dict[str, Channel] = {}
        self.versions: dict[str, int] = {}     # the last state version published, per table
        #: the club page's one feed: every table's line and the standings
        self.club = Feed("club", self.epoch, **self.feed_args)
        self.summaries: dict[str, dict] = {}
        self.finished: list[dict] = []       # finished games' lines (the archive)
        #: told ``(table_id, snapshot, version)`` of each state submitted, on the submitting thread
        self.listeners: list[Callable[[str, dict, int], None]] = []

    def channel(self, table_id: str) -> Channel:
        if table_id not in self.channels:
            self.channels[table_id] = Channel(table_id, self.epoch, self.broadcast_delay,
                                              self.call_later, **self.feed_args)
        return self.channels[table_id]

    def submit(self, table_id: str, snapshot: dict, version: int) -> None:
        """Publish a table's state number ``version``; callable from any thread.
        Two threads may hand over their states in the other order than they
        made them: an older version arriving late is dropped."""
        self.call_soon_threadsafe(lambda: self._publish(table_id, snapshot, version))
        for listener in self.listeners:
            listener(table_id, snapshot, version)

    def note(self, table_id: str, fields: dict) -> None:
        """Analysis fields for a table's state (``par``, ``win_chance``); callable from any thread."""
        self.call_soon_threadsafe(lambda: self.channel(table_id).note(fields))

    def set_overlay(self, table_id: str, overlay: dict) -> None:
        """A table's overlay settings (look, cues); callable from any thread."""
        self.call_soon_threadsafe(lambda: self.channel(table_id).set_overlay(overlay))

    def _publish(self, table_id: str, snapshot: dict, version: int) -> None:
        if version <= self.versions.get(table_id, -1):
            return
        self.versions[table_id] = version
        channel = self.channel(table_id)
        channel.publish(snapshot)
        self.summaries[table_id] = club_summary(channel.feeds["venue"].view)
        self.update_club()

    def update_club(self) -> None:
        self.club.update(club_view(list(self.summaries.values()), self.finished))

    def current(self, table_id: str, feed: str) -> dict:
        return self.channel(table_id).feeds[feed].view

    def subscribe(self, table_id: str, feed: str, last_event_id: Optional[str] = None) -> Client:
        return self.channel(table_id).feeds[feed].subscribe(self.event_factory, last_event_id)

    def subscribe_club(self, last_event_id: Optional[str] = None) -> Client:
        return self.club.subscribe(self.event_factory, last_event_id)

    def close_owner(self, owner: Any) -> int:
        """Close every stream ``owner`` opened (a session signed out, a token revoked)."""
        feeds = [f for channel in self.channels.values() for f in channel.feeds.values()] + [self.club]
        closing = [c for feed in feeds for c in list(feed.clients) if c.owner == owner]
        for client in closing:
            client.close()
        return len(closing)

    def stream(self, client: Client) -> Iterator[str]:
        """The text of one SSE response: what is queued, then each change as it
        comes, with a keep-alive comment when the feed is quiet."""
        ticks = itertools.count()
        yield f"retry: 2000\n: {self.epoch}\n\n"
        try:
            while not client.closed:
                for message in client.drain():
                    yield message
                if not client.event.wait(self.keepalive):
                    yield f": keep-alive {next(ticks)}\n\n"
        finally:
            client.close()
