"""A virtual table: the firmware's part, played over a real pseudo-terminal.

The host opens the returned path with pyserial exactly as it would open
``/dev/ttyACM0``; this side scans simulated antennas, debounces with the
firmware's algorithm, streams ``TAG``/``SNAP``/``HB`` frames and answers
commands. Faults come on demand, so tests and the demo can show the host
surviving what real boards do:

    table = VirtualTable()
    path = table.start()                 # a stable symlink, e.g. /tmp/belote-table-XXXX/ttyTABLE
    table.deal({"S": ["Jh", "9h", ...]}) # cards onto the hand antennas
    table.play("S", "Jh")                # from S's hand to S's play zone
    table.pickup()                       # every play zone cleared
    table.drop(2); table.corrupt(1); table.reboot(); table.unplug(); table.replug()
    table.silence(2.0); table.stale_on_open()
    table.stop()

Unplug closes the pty (the host reads EIO, as with a pulled USB cable); replug
opens a new pty and re-points the same symlink, and the board boots again.
Every public method is thread-safe and returns at once; the table runs in its
own thread.
"""

from __future__ import annotations

import errno
import os
import random
import select
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Optional

from referee.cards import card_name, parse_card
from referee.seats import SEAT_NAMES

from .debounce import Debouncer
from .mapping import DEFAULT_ZONES, TableMap
from .protocol import MAX_LINE, BadFrame, Cmd, decode, encode_fields

FW_VERSION = "vt-1.0"
_ZONE_ANTENNA = {zone: antenna for antenna, zone in DEFAULT_ZONES.items()}


def deck_tags(seed: int = 7) -> dict:
    """A deck's tags: card -> a 7-byte NTAG-style UID (``04`` + 6 bytes), stable per seed."""
    rng = random.Random(seed)
    return {card: "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6)) for card in range(32)}


class VirtualTable:
    def __init__(self, *, ants: int = len(DEFAULT_ZONES), tags: Optional[dict] = None,
                 link_path: Optional[str] = None, scan_s: float = 0.01, hb_s: float = 0.5,
                 snap_s: float = 5.0, on_scans: int = 2, off_scans: int = 2,
                 miss_rate: float = 0.0, seed: int = 1):
        self.ants = ants
        self.tags = tags if tags is not None else deck_tags()
        self.scan_s, self.hb_s, self.snap_s = scan_s, hb_s, snap_s
        self.miss_rate = miss_rate
        self._rng = random.Random(seed)
        self._debounce = Debouncer(on_scans, off_scans)
        self._settle_scans = max(on_scans, off_scans)
        self._dir = None
        if link_path is None:
            self._dir = tempfile.mkdtemp(prefix="belote-table-")
            link_path = os.path.join(self._dir, "ttyTABLE")
        self.path = link_path
        self._lock = threading.RLock()
        self._physical: dict = {}          # uid -> antenna where the tag lies
        self._fds: Optional[tuple] = None  # (master, slave) while plugged
        self._thread: Optional[threading.Thread] = None
        self._running = False
        self._drop = self._corrupt = 0
        self._silent_until = 0.0
        self._stale_on_open = False
        self._rx = b""
        self.counters = {"tx": 0, "tx_dropped": 0, "dropped": 0, "corrupted": 0, "boots": 0}
        self._boot()

    # -- lifecycle ----------------------------------------------------------
    def start(self) -> str:
        """Plug the table in and start its firmware; returns the port path to open."""
        with self._lock:
            self._plug()
            self._running = True
        self._thread = threading.Thread(target=self._loop, name="virtual-table", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        with self._lock:
            self._running = False
        if self._thread is not None:
            self._thread.join(2.0)
        with self._lock:
            self._unplug()
        if self._dir is not None:
            try:
                os.rmdir(self._dir)
            except OSError:
                pass

    def __enter__(self) -> "VirtualTable":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- the table: tags and cards -------------------------------------------
    def place(self, uid: str, antenna: int) -> None:
        with self._lock:
            self._physical[uid] = antenna

    def remove(self, uid: str) -> None:
        with self._lock:
            self._physical.pop(uid, None)

    def put(self, card, zone: Optional[str]) -> None:
        """A card onto a zone; a zone with no antenna (a trick pile, off the table) removes its tag."""
        uid = self.tags[parse_card(card) if isinstance(card, str) else card]
        antenna = _ZONE_ANTENNA.get(zone) if zone else None
        if antenna is None:
            self.remove(uid)
        else:
            self.place(uid, antenna)

    def deal(self, hands: dict) -> None:
        """``{"N": ["7s", ...], ...}``: each card onto its seat's hand area."""
        for seat, cards in hands.items():
            for card in cards:
                self.put(card, f"hand:{seat}")

    def play(self, seat: str, card) -> None:
        self.put(card, f"play:{seat}")

    def pickup(self) -> None:
        """The trick is taken: every play zone is cleared."""
        with self._lock:
            plays = {_ZONE_ANTENNA[f"play:{s}"] for s in SEAT_NAMES}
            for uid in [u for u, a in self._physical.items() if a in plays]:
                del self._physical[uid]

    def table_map(self) -> TableMap:
        """What a table profile of this virtual table holds: its deck's tags, the board's antennas."""
        return TableMap(cards={uid: card for card, uid in self.tags.items()}, zones=dict(DEFAULT_ZONES))

    def snapshot(self) -> dict:
        """Where each tag physically lies now: uid -> antenna (what the host should end up believing)."""
        with self._lock:
            return dict(self._physical)

    def run_script(self, script, step_s: float = 0.1, on_event=None) -> None:
        """Play a script (text, or a list of event tuples) in the calling thread;
        ``on_event(number, total, event)`` is called before each event (progress).

        Text lines: ``deal N 7s 8s ...`` | ``play S Jh`` | ``put Jh deal`` |
        ``pickup`` | ``wait 0.5`` | ``fault drop 2`` / ``corrupt 1`` / ``reboot`` /
        ``unplug`` / ``replug`` / ``silence 2`` / ``stale``; ``#`` starts a comment.
        """
        events = parse_script(script) if isinstance(script, str) else list(script)
        for number, event in enumerate(events, start=1):
            if on_event is not None:
                on_event(number, len(events), event)
            self.apply(event)
            if event[0] != "wait":
                time.sleep(step_s)

    def apply(self, event: tuple) -> None:
        kind, args = event[0], event[1:]
        if kind == "deal":
            self.deal({args[0]: list(args[1:])})
        elif kind == "play":
            self.play(args[0], args[1])
        elif kind == "put":
            self.put(args[0], args[1])
        elif kind == "pickup":
            self.pickup()
        elif kind == "wait":
            time.sleep(float(args[0]))
        elif kind == "fault":
            fault, rest = args[0], [float(a) for a in args[1:]]
            actions = {"drop": lambda n=1: self.drop(int(n)), "corrupt": lambda n=1: self.corrupt(int(n)),
                       "reboot": self.reboot, "unplug": self.unplug, "replug": self.replug,
                       "silence": lambda s=2.0: self.silence(s), "stale": self.stale_on_open}
            if fault not in actions:
                raise ValueError(f"unknown fault {fault!r}: use one of {', '.join(actions)}")
            actions[fault](*rest)
        else:
            raise ValueError(f"unknown table event {kind!r}: use deal, play, put, pickup, wait or fault")

    # -- faults ---------------------------------------------------------------
    def drop(self, frames: int = 1) -> None:
        """The next frames are lost on the wire (their SEQ is spent: the host sees a gap)."""
        with self._lock:
            self._drop += frames

    def corrupt(self, frames: int = 1) -> None:
        """The next frames arrive with a flipped byte (bad CRC)."""
        with self._lock:
            self._corrupt += frames

    def reboot(self, noise: bool = True) -> None:
        """A watchdog reset: new boot id, SEQ and T_MS from zero, boot noise, then HELLO."""
        with self._lock:
            self._boot()
            if noise:
                self._write_raw(b"\x00\xff ets Jul 29 2019 12:21:46\r\nrst:0x1 (POWERON_RESET)\r\n")
            self._hello()

    def unplug(self) -> None:
        with self._lock:
            self._unplug()

    def replug(self) -> None:
        """Plugged back in: the same path, a new pty, and the board boots again."""
        with self._lock:
            self._boot()
            self._plug()

    def silence(self, seconds: float) -> None:
        """The firmware hangs: nothing is sent or answered for ``seconds``."""
        with self._lock:
            self._silent_until = time.monotonic() + seconds

    def stale_on_open(self) -> None:
        """When the host next talks, first replay stale output of an earlier session
        (an old HELLO, an old ACK, a phantom tag, a torn line), as boards do."""
        with self._lock:
            self._stale_on_open = True

    # -- the firmware ------------------------------------------------------------
    def _boot(self) -> None:
        self.boot_id = f"{self._rng.randrange(1 << 32):08X}"
        self._t0 = time.monotonic()
        self._seq = 0
        self._scans = 0           # since boot: a SNAP waits until the debounce has settled
        self._snap_asked = False
        self._debounce.clear()
        now = time.monotonic()
        self._next_scan, self._next_hb, self._next_snap = now, now + self.hb_s, now + self.snap_s
        self.counters["boots"] += 1

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)   # no echo, no CR/LF translation: a USB CDC port is raw
        os.set_blocking(master, False)
        self._fds = (master, slave)
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self._rx = b""
        self._hello()

    def _unplug(self) -> None:
        if self._fds is None:
            return
        for fd in self._fds:
            os.close(fd)
        self._fds = None
        if os.path.lexists(self.path):
            os.unlink(self.path)

    def _t_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000) & 0xFFFFFFFF

    def _write_raw(self, data: bytes) -> bool:
        if self._fds is None:
            return False
        try:
            os.write(self._fds[0], data)
            return True
        except BlockingIOError:
            self.counters["tx_dropped"] += 1   # never block on a full buffer: drop and count
        except OSError as exc:
            if exc.errno not in (errno.EIO, errno.EAGAIN):
                raise
            self.counters["tx_dropped"] += 1
        return False

    def _send(self, *fields) -> None:
        seq, self._seq = self._seq, (self._seq + 1) & 0xFFFF
        line = encode_fields([fields[0], seq, self._t_ms(), *fields[1:]])
        if self._drop:
            self._drop -= 1
            self.counters["dropped"] += 1
            return
        if self._corrupt:
            self._corrupt -= 1
            self.counters["corrupted"] += 1
            i = len(line) // 2
            line = line[:i] + bytes([line[i] ^ 0x01]) + line[i + 1:]
        if self._write_raw(line + b"\n"):
            self.counters["tx"] += 1

    def _hello(self) -> None:
        self._send("HELLO", "proto=1", f"fw={FW_VERSION}", f"ants={self.ants}", f"boot={self.boot_id}")

    def _snap(self) -> None:
        piles = [list(self._debounce.present(a)) for a in range(self.ants)]

        def length() -> int:
            fields = [f"{a}:{'+'.join(p) if p else '-'}" for a, p in enumerate(piles)]
            return len(encode_fields(["SNAP", 65535, 4294967295, self.ants, *fields]))

        cut = {}
        while length() > MAX_LINE:   # a line is at most 200 bytes: trim the biggest pile
            biggest = max(range(self.ants), key=lambda a: len(piles[a]))
            cut.setdefault(biggest, len(piles[biggest]))
            piles[biggest].pop()
        for antenna, total in sorted(cut.items()):
            self._send("ERR", "snap-partial", antenna, f"next SNAP lists {len(piles[antenna])} of {total} tags")
        self._send("SNAP", self.ants, *[f"{a}:{'+'.join(p) if p else '-'}" for a, p in enumerate(piles)])

    def _scan(self) -> None:
        by_antenna: dict = {}
        for uid, antenna in self._physical.items():
            if self._rng.random() >= self.miss_rate:
                by_antenna.setdefault(antenna, []).append(uid)
        for antenna in range(self.ants):
            for uid, on in self._debounce.scan(antenna, by_antenna.get(antenna, ())):
                self._send("TAG", antenna, uid, "ON" if on else "OFF")

    def _command(self, line: bytes) -> None:
        try:
            cmd = decode(line)
        except BadFrame as exc:
            self._send("ERR", "bad-cmd", "-", exc.kind)
            return
        if not isinstance(cmd, Cmd):
            self._send("ERR", "bad-cmd", "-", "not a command")
            return
        if self._stale_on_open:
            self._stale_on_open = False
            old = 40000
            self._write_raw(b"$TAG,12,9\n" + encode_fields(["HELLO", old, 99999, "proto=1", "fw=old",
                                                             "ants=9", "boot=0BADB007"])
                            + b"\n" + encode_fields(["ACK", old + 1, 99999, (cmd.host_seq + 7) & 0xFFFF, "OK"])
                            + b"\n" + encode_fields(["TAG", old + 2, 99999, 3, "04DEADBEEF0000", "ON"]) + b"\n")
            return   # the board was resetting: this command is lost, the host asks again
        self._send("ACK", cmd.host_seq, "OK")
        if cmd.command == "HELLO":
            self._hello()
        elif cmd.command == "SNAP":
            self._snap_asked = True   # answered once the debounce has settled (see _loop)
        elif cmd.command == "RESET":
            self._boot()
            self._hello()

    def _loop(self) -> None:
        while True:
            with self._lock:
                if not self._running:
                    return
                master = self._fds[0] if self._fds else None
            ready = []
            if master is not None:
                try:
                    ready, _, _ = select.select([master], [], [], self.scan_s)
                except (OSError, ValueError):
                    ready = []
            else:
                time.sleep(self.scan_s)
            with self._lock:
                if self._fds is None or time.monotonic() < self._silent_until:
                    if self._fds is not None and ready:
                        self._read_commands(execute=False)
                    continue
                if ready:
                    self._read_commands(execute=True)
                now = time.monotonic()
                if now >= self._next_scan:
                    self._next_scan = now + self.scan_s
                    self._scan()
                    self._scans += 1
                if self._snap_asked and self._scans > self._settle_scans:
                    self._snap_asked = False
                    self._snap()
                if now >= self._next_hb:
                    self._next_hb = now + self.hb_s
                    self._send("HB", f"up={self._t_ms() // 1000}", f"txdrop={self.counters['tx_dropped']}",
                               "rderr=0", "reinit=0")
                if now >= self._next_snap and self._scans > self._settle_scans:
                    self._next_snap = now + self.snap_s
                    self._snap()

    def _read_commands(self, execute: bool) -> None:
        try:
            data = os.read(self._fds[0], 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""   # the host closed its end (EIO): nothing to read until it reopens
            time.sleep(self.scan_s)
        lines = (self._rx + data).split(b"\n")
        self._rx = lines.pop()[-512:]
        for line in lines if execute else ():
            self._command(line)


def parse_script(text: str) -> list:
    """Script text -> event tuples (see :meth:`VirtualTable.run_script`); names the bad line."""
    events = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        kind = words[0]
        try:
            if kind == "deal":
                seat = words[1].upper()
                if seat not in SEAT_NAMES:
                    raise ValueError(f"{words[1]!r} is not a seat")
                events.append(("deal", seat, *[card_name(parse_card(c)) for c in words[2:]]))
            elif kind == "play":
                events.append(("play", words[1].upper(), card_name(parse_card(words[2]))))
            elif kind == "put":
                events.append(("put", card_name(parse_card(words[1])), words[2]))
            elif kind in ("pickup", "wait", "fault"):
                events.append((kind, *words[1:]))
            else:
                raise ValueError(f"unknown event {kind!r}: use deal, play, put, pickup, wait or fault")
        except (IndexError, ValueError) as exc:
            raise ValueError(f"script line {number}: {exc}") from exc
    return events

