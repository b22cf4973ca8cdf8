"""Off-the-shelf RFID readers behind the same link as the table's board.

A club can start with one cheap serial reader per zone before building the
multiplexed board: the common UART/USB readers (MFRC522 or PN532 breakouts
running a "print the UID" sketch, USB readers in serial mode) print one UID per
line for as long as a tag lies on them, in forms like ``04A1B2C3``,
``04 a1 b2 c3`` or ``Card UID: 04 A1 B2 C3``.

:class:`UidLineCodec` makes such a reader look like a one-antenna table to
:class:`~firmware_bridge.bridge.Bridge`: it answers the host's commands itself
(``ACK``, ``HELLO``, ``SNAP``), turns reads into debounced ``TAG`` edges (each
``window_s`` of reads is one scan for the firmware's debounce algorithm) and
beats ``HB`` so the session's silence watchdog stays meaningful only for the
port. Lines that hold no UID (banners, firmware versions) are debug text.

>>> codec = UidLineCodec(antenna=2, window_s=0.1, on_scans=1, off_scans=1)
>>> codec.feed(b"Card UID: 04 A1 B2 C3\\r\\n", 0.0), [f for f in codec.tick(0.11)[0] if isinstance(f, Tag)]
([], [Tag(seq=0, t_ms=110, antenna=2, uid='04A1B2C3', on=True)])
"""

from __future__ import annotations

import random
import re

from .bridge import LineSplitter
from .debounce import Debouncer
from .protocol import Ack, Cmd, Debug, Hb, Hello, Snap, Tag

READERS = ("table", "uid-lines")
_UID_IN_LINE = re.compile(r"(?:UID|uid|Uid)?[^0-9A-Fa-f]*((?:[0-9A-Fa-f]{2}[\s:\-]?){4,10})\s*\Z")


class UidLineCodec:
    def __init__(self, antenna: int = 0, *, window_s: float = 0.3, on_scans: int = 2,
                 off_scans: int = 2, hb_s: float = 1.0):
        self.antenna = antenna
        self.window_s, self.hb_s = window_s, hb_s
        self._debounce = Debouncer(on_scans, off_scans)
        self._boot = f"{random.randrange(1 << 32):08X}"
        self._seq = 0
        self._t0 = None
        self._window_end = None
        self._next_hb = 0.0
        self._reads: list = []
        self._out: list = []
        self._lines = LineSplitter()

    def _ms(self, now: float) -> int:
        if self._t0 is None:
            self._t0 = now
        return int((now - self._t0) * 1000)

    def _next(self) -> int:
        seq, self._seq = self._seq, (self._seq + 1) & 0xFFFF
        return seq

    def command(self, cmd: Cmd, now: float) -> bytes:
        t = self._ms(now)
        self._out.append(Ack(self._next(), t, cmd.host_seq, "OK" if cmd.command != "CFG" else "unsupported"))
        if cmd.command == "HELLO":
            self._out.append(Hello(self._next(), t, 1, "uid-lines", self.antenna + 1, self._boot))
        elif cmd.command == "SNAP":
            piles = [()] * self.antenna + [tuple(self._debounce.present(self.antenna))]
            self._out.append(Snap(self._next(), t, tuple(piles)))
        return b""   # the reader itself takes no commands

    def feed(self, data: bytes, now: float) -> list:
        self._ms(now)
        if self._window_end is None:
            self._window_end = now + self.window_s
        notes = []
        for line in self._lines.feed(data):
            text = line.decode("ascii", "replace").strip()
            match = _UID_IN_LINE.search(text)
            if match is None:
                notes += [Debug(text)] if text else []
            else:
                self._reads.append(re.sub(r"[\s:\-]", "", match.group(1)).upper())
        return notes

    def tick(self, now: float) -> tuple:
        t = self._ms(now)
        if self._window_end is None:
            self._window_end = now + self.window_s
        while now >= self._window_end:   # one scan per window, even with no read in it
            for uid, on in self._debounce.scan(self.antenna, self._reads):
                self._out.append(Tag(self._next(), t, self.antenna, uid, on))
            self._reads = []
            self._window_end += self.window_s
        if now >= self._next_hb:
            self._next_hb = now + self.hb_s
            self._out.append(Hb(self._next(), t, (("reader", "uid-lines"),)))
        out, self._out = self._out, []
        return out, b""
