"""Off-the-shelf RFID readers behind the same link as the table's board.

A club can start with one cheap reader per zone before building the
multiplexed board. Each adapter here makes one reader look like a one-antenna
table to :class:`~firmware_bridge.bridge.Bridge`: it answers the host's
commands itself (``ACK``, ``HELLO``, ``SNAP``), turns the reader's reads into
debounced ``TAG`` edges with the firmware's algorithm, and beats ``HB`` while
the reader is alive, so the session's recovery and watchdog work unchanged.

- :class:`UidLineCodec` (``--reader uid-lines``): readers that print one UID
  per line for as long as a tag lies on them (MFRC522/PN532 breakouts running a
  "print the UID" sketch, USB readers in serial mode): ``04A1B2C3``,
  ``04 a1 b2 c3``, ``Card UID: 04 A1 B2 C3``. Every ``window_s`` of reads is one
  scan; lines without a UID are debug text.
- :class:`Pn532Codec` (``--reader pn532``): an NXP PN532 board in HSU (UART)
  mode behind a USB-serial adapter, polled with ``InListPassiveTarget``.

>>> codec = UidLineCodec(antenna=2, window_s=0.1, on_scans=1, off_scans=1)
>>> codec.feed(b"Card UID: 04 A1 B2 C3\\r\\n", 0.0), [f for f in codec.tick(0.11)[0] if isinstance(f, Tag)]
([], [Tag(seq=0, t_ms=110, antenna=2, uid='04A1B2C3', on=True)])
"""

from __future__ import annotations

import random
import re
from typing import Optional

from .bridge import LineSplitter
from .debounce import Debouncer
from .protocol import Ack, BadFrame, Cmd, Debug, Hb, Hello, Snap, Tag


class _OneAntennaReader:
    """What every adapter shares: answering the host, SEQ and T_MS, debounced edges, HB."""

    name = "reader"

    def __init__(self, antenna: int, on_scans: int, off_scans: int, hb_s: float):
        self.antenna, self.hb_s = antenna, hb_s
        self._debounce = Debouncer(on_scans, off_scans)
        self._boot = f"{random.randrange(1 << 32):08X}"
        self._seq = 0
        self._t0: Optional[float] = None
        self._next_hb = 0.0
        self._out: list = []
        self._held: list = []     # HELLO/SNAP asked before the reader answered

    def _ms(self, now: float) -> int:
        if self._t0 is None:
            self._t0 = now
        return int((now - self._t0) * 1000)

    def _emit(self, kind, now: float, *fields) -> None:
        seq, self._seq = self._seq, (self._seq + 1) & 0xFFFF
        self._out.append(kind(seq, self._ms(now), *fields))

    def command(self, cmd: Cmd, now: float) -> bytes:
        """ACK at once; HELLO and SNAP once the reader answers (see :meth:`_collect`)."""
        self._emit(Ack, now, cmd.host_seq, "OK" if cmd.command != "CFG" else "unsupported")
        if cmd.command in ("HELLO", "SNAP"):
            self._held.append(cmd.command)
        return b""   # the reader itself takes no protocol commands

    def _scan(self, now: float, uids: list) -> None:
        for uid, on in self._debounce.scan(self.antenna, uids):
            self._emit(Tag, now, self.antenna, uid, on)

    def _collect(self, now: float, alive: bool) -> list:
        """Frames due: the queued answers and edges; while the reader is alive, the
        HELLO/SNAP it was asked and HB (a dead reader never passes for a connected one)."""
        if alive:
            for command in self._held:
                if command == "HELLO":
                    self._emit(Hello, now, 1, self.name, self.antenna + 1, self._boot)
                else:
                    self._emit(Snap, now, tuple([()] * self.antenna
                                                + [tuple(self._debounce.present(self.antenna))]))
            self._held = []
        if alive and now >= self._next_hb:
            self._next_hb = now + self.hb_s
            self._emit(Hb, now, (("reader", self.name),))
        out, self._out = self._out, []
        return out


_UID_IN_LINE = re.compile(r"(?:UID|uid|Uid)?[^0-9A-Fa-f]*((?:[0-9A-Fa-f]{2}[\s:\-]?){4,10})\s*\Z")


class UidLineCodec(_OneAntennaReader):
    name = "uid-lines"

    def __init__(self, antenna: int = 0, *, window_s: float = 0.3, on_scans: int = 2,
                 off_scans: int = 2, hb_s: float = 1.0):
        super().__init__(antenna, on_scans, off_scans, hb_s)
        self.window_s = window_s
        self._window_end: Optional[float] = None
        self._reads: list = []
        self._lines = LineSplitter()

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
        if self._window_end is None:
            self._window_end = now + self.window_s
        while now >= self._window_end:   # one scan per window, even with no read in it
            self._scan(now, self._reads)
            self._reads = []
            self._window_end += self.window_s
        # a silent UID printer is a reader with no tag on it: it stays alive
        return self._collect(now, alive=True), b""


# -- PN532 in HSU mode ------------------------------------------------------------------------

PN532_WAKEUP = b"\x55\x55" + b"\x00" * 14     # HSU: wakes the chip from power-down
_HOST_TO_PN532, _PN532_TO_HOST = 0xD4, 0xD5
_SAM_CONFIGURATION = bytes([0x14, 0x01, 0x14, 0x01])            # normal mode, 1 s timeout, IRQ
_RF_RETRIES = bytes([0x32, 0x05, 0xFF, 0x01, 0x02])             # MxRtyPassiveActivation 2: answer at once
_LIST_TARGETS = bytes([0x4A, 0x02, 0x00])                       # up to 2 targets, 106 kbps type A


def pn532_frame(command: bytes, direction: int = _HOST_TO_PN532) -> bytes:
    """A PN532 normal information frame: preamble, start code, LEN, LCS, TFI+data, DCS, postamble."""
    data = bytes([direction]) + command
    return (b"\x00\x00\xff" + bytes([len(data), -len(data) & 0xFF]) + data
            + bytes([-sum(data) & 0xFF, 0x00]))


class Pn532Codec(_OneAntennaReader):
    """Polls a PN532 (HSU, 115200 baud) for type A tags; each answer is one scan.

    Setup after the port opens: wake-up preamble, ``SAMConfiguration`` and
    ``RFConfiguration`` (few passive activation retries, so a poll answers at
    once when no tag is there); then ``InListPassiveTarget`` every ``scan_s``.
    A frame with a bad checksum is a ``crc`` bad frame, a PN532 error frame a
    ``field`` one; a command unanswered for ``reply_s`` is sent again, after the
    wake-up preamble once more. HB is beaten only while the chip answers, so a
    dead or unpowered PN532 is declared lost by the session.
    """

    name = "pn532"

    def __init__(self, antenna: int = 0, *, scan_s: float = 0.1, on_scans: int = 2,
                 off_scans: int = 2, hb_s: float = 1.0, reply_s: float = 0.5):
        super().__init__(antenna, on_scans, off_scans, hb_s)
        self.scan_s, self.reply_s = scan_s, reply_s
        self._buf = bytearray()
        self._setup = [_SAM_CONFIGURATION, _RF_RETRIES]
        self._pending: Optional[bytes] = None   # the command awaiting its answer
        self._sent_at = 0.0
        self._next_poll = 0.0
        self._last_answer: Optional[float] = None
        self._wake = True

    def feed(self, data: bytes, now: float) -> list:
        self._buf += data
        problems = []
        while True:
            start = self._buf.find(b"\x00\xff")
            if start < 0:
                del self._buf[:-1]
                return problems
            del self._buf[:start]
            if len(self._buf) < 4:
                return problems
            length, lcs = self._buf[2], self._buf[3]
            if length == 0x00 and lcs == 0xFF:    # ACK: the command was taken
                del self._buf[:4]
                continue
            if length == 0xFF and lcs == 0x00:    # NACK: send it again
                del self._buf[:4]
                self._sent_at = -1e9
                continue
            if (length + lcs) & 0xFF:
                del self._buf[:2]
                problems.append(BadFrame("crc", "PN532 frame length checksum"))
                continue
            if len(self._buf) < 5 + length:
                return problems
            body, dcs = bytes(self._buf[4:4 + length]), self._buf[4 + length]
            del self._buf[:5 + length]
            if (sum(body) + dcs) & 0xFF:
                problems.append(BadFrame("crc", "PN532 frame data checksum"))
            elif body[:1] == b"\x7f":
                problems.append(BadFrame("field", "PN532 answered with an application error frame"))
            elif len(body) < 2 or body[0] != _PN532_TO_HOST:
                problems.append(BadFrame("field", f"PN532 frame {body.hex()} is not an answer"))
            else:
                problem = self._answer(now, body[1], body[2:])
                if problem is not None:
                    problems.append(problem)

    def _answer(self, now: float, code: int, data: bytes) -> Optional[BadFrame]:
        if self._pending is None or code != self._pending[0] + 1:
            return BadFrame("field", f"PN532 answer 0x{code:02X} to no command of ours")
        self._pending, self._last_answer = None, now
        if code == _LIST_TARGETS[0] + 1:
            uids = self._targets(data)
            if uids is None:
                return BadFrame("field", f"PN532 target list {data.hex()} is malformed")
            self._scan(now, uids)
        elif self._setup:
            self._setup.pop(0)
        return None

    @staticmethod
    def _targets(data: bytes) -> Optional[list]:
        """UIDs from an ``InListPassiveTarget`` answer (type A at 106 kbps)."""
        if not data:
            return None
        count, at, uids = data[0], 1, []
        for _ in range(count):
            if at + 5 > len(data):
                return None
            sel_res, id_len = data[at + 3], data[at + 4]
            uid = data[at + 5:at + 5 + id_len]
            if len(uid) != id_len or not 4 <= id_len <= 10:
                return None
            at += 5 + id_len
            if sel_res & 0x20:                  # ISO 14443-4 tags append their ATS
                if at >= len(data) or data[at] == 0:
                    return None
                at += data[at]
            uids.append(uid.hex().upper())
        return uids if at == len(data) else None

    def tick(self, now: float) -> tuple:
        out = b""
        if self._pending is not None and now - self._sent_at >= self.reply_s:
            self._pending, self._wake = None, True   # unanswered: wake the chip and ask again
        if self._pending is None and now >= self._next_poll:
            command = self._setup[0] if self._setup else _LIST_TARGETS
            if not self._setup:
                self._next_poll = now + self.scan_s
            out = (PN532_WAKEUP if self._wake else b"") + pn532_frame(command)
            self._wake, self._pending, self._sent_at = False, command, now
        alive = (not self._setup and self._last_answer is not None
                 and now - self._last_answer < 2 * self.reply_s + self.scan_s)
        return self._collect(now, alive), out
