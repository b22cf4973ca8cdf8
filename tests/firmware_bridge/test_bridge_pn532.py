"""A PN532 in HSU mode behind the bridge, against an emulator that speaks its frames over a pty."""

from __future__ import annotations

import os
import threading
import tty

import pytest

from firmware_bridge.adapters import Pn532Codec, pn532_frame
from firmware_bridge.bridge import Bridge
from firmware_bridge.mapping import TableMap
from firmware_bridge.session import LinkEvent

from bridge_helpers import Recorder

ACK = b"\x00\x00\xff\x00\xff\x00"


class Pn532:
    """The chip's side of HSU: ACK then answer each command; tags lie on its antenna."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.tags: list = []          # UIDs as bytes
        self.mute = False
        self.corrupt_next = False
        self.commands: list = []
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        buf = b""
        while not self._stop:
            try:
                buf += os.read(self.master, 256)
            except OSError:
                return
            while True:
                start = buf.find(b"\x00\xff")
                if start < 0 or len(buf) < start + 4 or len(buf) < start + 5 + buf[start + 2]:
                    break
                length = buf[start + 2]
                body = buf[start + 4:start + 4 + length]
                buf = buf[start + 6 + length:]
                if body[:1] == b"\xd4" and not self.mute:
                    self._answer(body[1], body[2:])

    def _answer(self, code: int, params: bytes):
        self.commands.append(code)
        payload = b""
        if code == 0x4A:
            shown = self.tags[:params[0]]
            payload = bytes([len(shown)]) + b"".join(
                bytes([i + 1, 0x00, 0x44, 0x00, len(uid)]) + uid for i, uid in enumerate(shown))
        answer = pn532_frame(bytes([code + 1]) + payload, direction=0xD5)
        if self.corrupt_next:
            self.corrupt_next = False
            answer = answer[:-2] + bytes([answer[-2] ^ 0xFF]) + answer[-1:]
        try:
            os.write(self.master, ACK + answer)
        except OSError:   # closed by the test's teardown
            self._stop = True

    def close(self):
        self._stop = True
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def chip():
    emulator = Pn532()
    yield emulator
    emulator.close()


def test_a_pn532_reader_reports_debounced_tags_and_survives_bad_frames_and_a_mute_chip(chip):
    rec = Recorder()
    bridge = Bridge(chip.path, TableMap(zones={4: "play:W"}), silence_s=1.0, backoff_s=(0.05, 0.2),
                    codec_factory=lambda: Pn532Codec(4, scan_s=0.02, reply_s=0.2)).start(rec)
    try:
        rec.link("connected")
        assert chip.commands[:2] == [0x14, 0x32], "SAMConfiguration, then RFConfiguration, then polling"
        chip.tags = [bytes.fromhex("04A1B2C3D4E5F6"), bytes.fromhex("DEADBEEF")]
        on = rec.tag("04A1B2C3D4E5F6", 4, True)
        assert on.zone == "play:W"
        rec.tag("DEADBEEF", 4, True)
        mark = rec.mark()
        chip.corrupt_next = True
        assert rec.link("bad-frame", mark).detail.startswith("crc")
        chip.tags = chip.tags[1:]
        rec.tag("04A1B2C3D4E5F6", 4, False, mark)
        chip.mute = True
        rec.link("lost", mark, timeout=5)
        chip.mute = False
        rec.link("connected", mark, timeout=5)
        assert [t.uid for t in rec.of(type(on), mark) if t.present] == []
        assert {e.state for e in rec.of(LinkEvent, mark)} <= {"bad-frame", "lost", "connected", "resync"}
    finally:
        bridge.stop()


def test_target_lists_are_parsed_strictly():
    iso_dep = bytes([1, 1, 0x03, 0x44, 0x20, 7]) + bytes.fromhex("04A1B2C3D4E5F6") + bytes([5, 0x78, 0x80, 0x70, 0x02])
    assert Pn532Codec._targets(iso_dep) == ["04A1B2C3D4E5F6"]
    assert Pn532Codec._targets(bytes([0])) == []
    assert Pn532Codec._targets(bytes([1, 1, 0, 0x44, 0, 7, 0x04])) is None, "a UID cut short"
    assert Pn532Codec._targets(bytes([1, 1, 0, 0x44, 0, 2, 1, 2])) is None, "a 2-byte UID"
