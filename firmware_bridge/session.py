"""The host's side of the conversation with the table: recovery is ours.

The device never retransmits. So the host watches every frame's ``SEQ`` and
``T_MS``; a gap, a restart (new ``boot``, ``SEQ``/``T_MS`` going back) or a
reconnect makes it ask for a ``SNAP`` and mark its antenna state *uncertain*
(kept, not cleared) until the snapshot arrives; then it reports only what
changed. A device that says nothing for ``silence_s`` is declared lost.

Like Klipper's ``serialhdl``, the session is a state machine with no I/O and no
clock of its own: the runner (``bridge.py``) gives it frames and the time, and
sends the commands it leaves in :attr:`Session.outbox`. That keeps every
recovery path testable frame by frame.

Handshake: after the port opens the host sends ``CMD HELLO`` and ignores
everything until the ``ACK`` of *that* command: boards replay stale output or
reset when the port opens, and a replayed ``HELLO`` must not pass for a live one.
A device that boots while we wait sends its own ``HELLO``; we still wait for our
``ACK`` (the command is repeated every ``hello_retry_s``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from referee.cards import card_name
from referee.observations import CardGone, CardSeen, SensorState

from .mapping import TableMap
from .protocol import SEQ_MOD, Ack, Cmd, Debug, Err, Hb, Hello, PROTO_VERSION, Snap, Tag

SOURCE = "rfid"
#: Confidence of a tag read on an antenna that holds several: readers often
#: read only one or two cards of a stack, so piles are best-effort.
PILE_CONFIDENCE = 0.6


class TagEvent(NamedTuple):
    """A tag appeared on (``present``) or left an antenna, as the host now believes."""

    t: float                 # host time
    antenna: int
    zone: Optional[str]
    uid: str
    card: Optional[int]
    present: bool
    pile: int                # tags on that antenna after the change
    uncertain: bool          # the host's state is awaiting a SNAP
    device_ms: int

    def to_json(self) -> dict:
        return {"kind": "tag", "antenna": self.antenna, "zone": self.zone, "uid": self.uid,
                "card": None if self.card is None else card_name(self.card), "present": self.present}

    def to_observation(self):
        evidence = {"antenna": self.antenna, "device_ms": self.device_ms, "pile": self.pile,
                    "uncertain": self.uncertain}
        if self.present:
            return CardSeen(source=SOURCE, t=self.t, zone=self.zone, card=self.card,
                            confidence=PILE_CONFIDENCE if self.pile > 1 else 1.0,
                            uid=self.uid, evidence=evidence)
        return CardGone(source=SOURCE, t=self.t, zone=self.zone, card=self.card,
                        uid=self.uid, evidence=evidence)


class LinkEvent(NamedTuple):
    """The link's health: ``connected``, ``lost``, ``resync`` or ``bad-frame``."""

    t: float
    state: str
    detail: str = ""

    def to_json(self) -> dict:
        return {"kind": "link", "state": self.state, "detail": self.detail}

    def to_observation(self):
        return SensorState(source=SOURCE, t=self.t, state=self.state, detail=self.detail)


class DeviceNote(NamedTuple):
    """Something for a person (an ``ERR`` frame, a debug line, a refused ``ACK``); not a table fact."""

    t: float
    text: str


@dataclass
class Session:
    table: TableMap = field(default_factory=TableMap)
    silence_s: float = 3.0        # no frame for this long: the device is lost
    hello_retry_s: float = 1.0
    snap_retry_s: float = 1.0
    report_s: float = 1.0         # at most one bad-frame report per this many seconds

    def __post_init__(self):
        self.outbox: list = []                  # Cmd frames for the runner to send
        self.counters: Counter = Counter()      # bad frames by kind, gaps, restarts...
        self.health: dict = {}                  # the device's last HB counters
        self.hello: Optional[Hello] = None      # the live device, once up
        self.antennas: dict = {}                # antenna -> {uid: None} (an ordered set)
        self.uncertain = False
        self.up = False
        self._host_seq = random.randrange(SEQ_MOD)  # stale ACKs of an earlier run cannot match
        self._hello_cmd: Optional[int] = None   # host seq of the HELLO we wait an ACK for
        self._acked = False
        self._snap_cmd: Optional[float] = None  # when we last asked a SNAP still awaited
        self._partial: set = set()              # antennas whose next SNAP pile is cut short
        self._told_partial: set = set()         # antennas whose cut-short piles people were told of
        self._last_seq: Optional[int] = None
        self._last_t: Optional[int] = None
        self._last_rx = self._opened_at = self._hello_sent = 0.0
        self._told_no_hello = False
        self._last_bad_report = float("-inf")
        self._bad_unreported = 0

    # -- commands ---------------------------------------------------------
    def _send(self, command: str, *args: str) -> int:
        self._host_seq = (self._host_seq + 1) % SEQ_MOD
        self.outbox.append(Cmd(self._host_seq, command, tuple(args)))
        return self._host_seq

    def _ask_hello(self, now: float) -> None:
        self._hello_cmd, self._acked, self._hello_sent = self._send("HELLO"), False, now

    def _ask_snap(self, now: float) -> None:
        self._send("SNAP")
        self._snap_cmd = now

    # -- what the runner tells us ----------------------------------------
    def opened(self, now: float) -> list:
        """The port (re)opened: handshake again; what we knew is now uncertain."""
        self.up = False
        self.outbox.clear()   # commands and notices meant for the previous connection
        self._partial.clear()
        self._snap_cmd = None
        self._last_rx = self._opened_at = now
        self._last_seq = self._last_t = None
        self._ask_hello(now)
        return []

    def closed(self, now: float, reason: str) -> list:
        """The port closed or failed. Reported once per loss."""
        was_up, self.up = self.up, False
        self._hello_cmd = None
        if self.antennas:
            self.uncertain = True
        self.counters["lost"] += 1
        return [LinkEvent(now, "lost", reason)] if was_up or self.counters["lost"] == 1 else []

    def bad_frame(self, now: float, kind: str, detail: str) -> list:
        """A rejected line: always counted; reported at most once per ``report_s``
        (a wrong baud rate must not flood the referee with thousands of events)."""
        self._last_rx = now
        if not self.up:
            self.counters["stale"] += 1   # boot noise, replayed output: expected before HELLO
            return []
        self.counters[kind] += 1
        if now - self._last_bad_report < self.report_s:
            self._bad_unreported += 1
            return []
        more = f" (and {self._bad_unreported} more since the last report)" if self._bad_unreported else ""
        self._last_bad_report, self._bad_unreported = now, 0
        return [LinkEvent(now, "bad-frame", f"{kind}: {detail}{more}")]

    def tick(self, now: float) -> tuple:
        """Timers. Returns ``(events, lost)``; ``lost`` asks the runner to reopen the port."""
        if now - self._last_rx > self.silence_s:
            self.counters["silent"] += 1
            events = self.closed(now, f"no frame from the device for {self.silence_s:g} s")
            return events, True
        if not self.up and now - self._hello_sent >= self.hello_retry_s:
            self._ask_hello(now)
        if not self.up and not self._told_no_hello and now - self._opened_at > self.silence_s:
            self._told_no_hello = True   # bytes come, but never a HELLO: say what to check, once
            return [LinkEvent(now, "bad-frame",
                              f"no HELLO after {self.silence_s:g} s but {self.counters['stale']} unreadable "
                              f"or stale line(s): check the baud rate (115200) and that this port is "
                              f"the table's")], False
        if self.up and self._snap_cmd is not None and now - self._snap_cmd >= self.snap_retry_s:
            self._ask_snap(now)
        return [], False

    def feed(self, now: float, frame) -> list:
        """One decoded frame (or debug line) from the device."""
        self._last_rx = now
        if isinstance(frame, Debug):
            return [DeviceNote(now, "device: " + frame.text)] if self.up else []
        if not self.up:
            return self._handshake(now, frame)
        events = self._check_sequence(now, frame)
        handler = _HANDLERS.get(type(frame))
        if handler is not None:
            events += handler(self, now, frame)
        return events

    # -- internals ----------------------------------------------------------
    def _handshake(self, now: float, frame) -> list:
        if isinstance(frame, Ack) and frame.host_seq == self._hello_cmd:
            self._acked = True
            return []
        if not (isinstance(frame, Hello) and self._acked):
            self.counters["stale"] += 1
            return []
        if frame.proto != PROTO_VERSION:
            self._acked = False
            self.counters["proto"] += 1
            return [LinkEvent(now, "bad-frame",
                              f"device speaks protocol {frame.proto}, this host speaks "
                              f"{PROTO_VERSION}: update the firmware or belote-table")]
        restarted = self.hello is not None and (frame.boot != self.hello.boot or frame.boot is None)
        self.hello, self.up = frame, True
        self._last_seq, self._last_t = frame.seq, frame.t_ms
        self.counters["connects"] += 1
        events = [LinkEvent(now, "connected",
                            f"fw={frame.fw} ants={frame.ants} boot={frame.boot or '?'}")]
        events += self._resync(now, "device restarted while the link was down" if restarted
                               else "reconnected", quiet=not self.antennas and not self.uncertain)
        return events

    def _resync(self, now: float, why: str, quiet: bool = False) -> list:
        """Ask a SNAP; until it comes, what we hold is uncertain."""
        self._ask_snap(now)
        if quiet:
            return []
        self.uncertain = True
        return [LinkEvent(now, "resync", f"{why}; state uncertain until the next SNAP")]

    def _check_sequence(self, now: float, frame) -> list:
        seq, t_ms = frame.seq, frame.t_ms
        last_seq, last_t = self._last_seq, self._last_t
        self._last_seq, self._last_t = seq, t_ms
        if isinstance(frame, Hello):
            if frame.boot != self.hello.boot or t_ms < last_t:
                self.hello = frame
                self.counters["restarts"] += 1
                return self._resync(now, f"device restarted (boot {frame.boot or '?'})")
            self.hello = frame
            return []
        if t_ms < last_t:
            self.counters["restarts"] += 1
            return self._resync(now, "device restarted (its clock went back)")
        if seq != (last_seq + 1) % SEQ_MOD:
            lost = (seq - last_seq - 1) % SEQ_MOD
            self.counters["gaps"] += 1
            self.counters["frames_lost"] += lost
            return self._resync(now, f"{lost} frame(s) lost (SEQ {last_seq} -> {seq})")
        return []

    def _event(self, now: float, antenna: int, uid: str, present: bool, device_ms: int) -> TagEvent:
        return TagEvent(now, antenna, self.table.zone_for(antenna), uid, self.table.card_for(uid),
                        present, len(self.antennas.get(antenna, ())), self.uncertain, device_ms)

    def _on_tag(self, now: float, frame: Tag) -> list:
        held = self.antennas.setdefault(frame.antenna, {})
        if frame.on == (frame.uid in held):
            return []
        if frame.on:
            held[frame.uid] = None
        else:
            del held[frame.uid]
        return [self._event(now, frame.antenna, frame.uid, frame.on, frame.t_ms)]

    def _on_snap(self, now: float, frame: Snap) -> list:
        events = []
        antennas = set(self.antennas) | set(range(len(frame.antennas)))
        listed = {uid for uids in frame.antennas for uid in uids}
        for antenna in sorted(antennas):
            seen = frame.antennas[antenna] if antenna < len(frame.antennas) else ()
            held = self.antennas.setdefault(antenna, {})
            # A partial pile keeps what the SNAP could not list, unless the SNAP
            # lists that tag on another antenna (the card was played from the hand).
            partial = antenna in self._partial
            for uid in [u for u in held if u not in seen and (not partial or u in listed)]:
                del held[uid]
                events.append(self._event(now, antenna, uid, False, frame.t_ms))
            for uid in seen:
                if uid not in held:
                    held[uid] = None
                    events.append(self._event(now, antenna, uid, True, frame.t_ms))
        self._partial.clear()
        self._snap_cmd = None
        if events and not self.uncertain:
            self.counters["snap_repairs"] += 1
        if self.uncertain:
            self.uncertain = False
            events.append(LinkEvent(now, "connected",
                                    f"state confirmed by SNAP ({len(events)} change(s))"))
        return events

    def _on_hb(self, now: float, frame: Hb) -> list:
        """Keep the device's health; say when a trouble counter grew (same boot only)."""
        before, self.health = self.health, dict(frame.counters)
        notes = []
        for key, what in _TROUBLE.items():
            old, new = before.get(key, ""), self.health.get(key, "")
            if old.isdigit() and new.isdigit() and int(new) > int(old):
                notes.append(DeviceNote(now, f"device: {int(new) - int(old)} more {what} ({key}={new})"))
        return notes

    def _on_err(self, now: float, frame: Err) -> list:
        self.counters["device_errors"] += 1
        if frame.code == "snap-partial" and frame.antenna is not None:
            self._partial.add(frame.antenna)   # the next SNAP lists only part of this pile
            # A trick pile too big for one SNAP line stays too big: every resync says so
            # again. Told once per antenna, counted always (the monitor's summary).
            self.counters["snap_partial"] += 1
            if frame.antenna in self._told_partial:
                return []
            self._told_partial.add(frame.antenna)
            return [DeviceNote(now, f"device: the pile on antenna {frame.antenna} is too big for one SNAP line "
                                    f"({frame.text}); the tags it leaves out are kept (said once)")]
        where = "" if frame.antenna is None else f" on antenna {frame.antenna}"
        return [DeviceNote(now, f"device error {frame.code}{where}: {frame.text}")]

    def _on_ack(self, now: float, frame: Ack) -> list:
        if frame.status == "OK":
            return []
        return [DeviceNote(now, f"device refused command {frame.host_seq}: {frame.status}")]


#: HB counters that mean trouble when they grow (firmware/table.c's send_hb).
_TROUBLE = {"txdrop": "frame(s) dropped on a full serial buffer", "rderr": "failed reader scan(s)",
            "reinit": "reader re-initialisation(s)", "rxbad": "unreadable command(s) from this host"}

_HANDLERS = {Tag: Session._on_tag, Snap: Session._on_snap, Hb: Session._on_hb,
             Err: Session._on_err, Ack: Session._on_ack}
