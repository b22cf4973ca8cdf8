"""An off-the-shelf reader printing one UID per line, behind the same bridge, over a pty."""

from __future__ import annotations

import os
import threading
import time
import tty

from firmware_bridge.adapters import UidLineCodec
from firmware_bridge.bridge import Bridge
from firmware_bridge.protocol import Cmd, Snap
from firmware_bridge.session import DeviceNote, LinkEvent, TagEvent

from bridge_helpers import Recorder


def test_a_uid_per_line_reader_becomes_a_debounced_antenna(tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)
    link = tmp_path / "ttyUSB-reader"
    link.symlink_to(os.ttyname(slave))
    rec = Recorder()
    bridge = Bridge(str(link), silence_s=3.0,
                    codec_factory=lambda: UidLineCodec(2, window_s=0.05, on_scans=2, off_scans=2)).start(rec)
    stop = threading.Event()

    def reader_prints(lines, period=0.015):
        while not stop.is_set():
            for line in lines:
                os.write(master, line)
            time.sleep(period)

    try:
        rec.link("connected")
        os.write(master, b"MFRC522 Firmware Version: 0x92 = v2.0\r\n")
        rec.wait_for(lambda e: isinstance(e, DeviceNote) and "0x92" in e.text)
        os.write(master, b"Card UID: 04 A1 B2 C3\r\n")     # one read alone is a flicker, not a card
        time.sleep(0.3)
        assert rec.of(TagEvent) == []
        printer = threading.Thread(target=reader_prints, args=([b"Card UID: 04 A1 B2 C3\r\n"],))
        printer.start()
        on = rec.tag("04A1B2C3", 2, True)
        assert on.to_json()["antenna"] == 2
        stop.set()
        printer.join()
        rec.tag("04A1B2C3", 2, False)
        assert [e.state for e in rec.of(LinkEvent)] == ["connected"]
    finally:
        stop.set()
        bridge.stop()
        os.close(master)
        os.close(slave)


def test_the_reader_answers_the_hosts_snap_with_what_it_holds():
    codec = UidLineCodec(1, window_s=0.1, on_scans=1, off_scans=3)
    codec.feed(b"04a1b2c3d4e5f6\n", 0.0)
    codec.tick(0.15)
    assert codec.command(Cmd(9, "SNAP"), 0.2) == b"", "the reader takes no commands: the adapter answers"
    snap = [f for f in codec.tick(0.2)[0] if isinstance(f, Snap)][0]
    assert snap.antennas == ((), ("04A1B2C3D4E5F6",))
