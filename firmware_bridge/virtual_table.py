"""A virtual table: the firmware's part, played in Python over a real pseudo-terminal.

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
own thread. The cards and scripts are :class:`~firmware_bridge.card_table.CardTable`'s;
the same scripts run the real firmware on a simulated board with
:class:`~firmware_bridge.avr_table.AvrTable`.
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
from typing import Optional

from .card_table import CardTable, deck_tags, parse_script, stale_output
from .debounce import Debouncer
from .mapping import DEFAULT_ZONES
from .protocol import MAX_LINE, BadFrame, Cmd, decode, encode_fields

__all__ = ["VirtualTable", "deck_tags", "parse_script"]   # the last two: card_table's

FW_VERSION = "vt-1.0"


class VirtualTable(CardTable):
    def __init__(self, *, ants: int = len(DEFAULT_ZONES), tags: Optional[dict] = None,
                 link_path: Optional[str] = None, scan_s: float = 0.01, hb_s: float = 0.5,
                 snap_s: float = 5.0, on_scans: int = 2, off_scans: int = 2,
                 miss_rate: float = 0.0, seed: int = 1):
        super().__init__(tags)
        self.ants = ants
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
            self._write_raw(stale_output(cmd.host_seq))
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
