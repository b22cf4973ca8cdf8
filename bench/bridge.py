"""Firmware bridge: how fast frames are decoded, and how long a tag takes to reach the referee.

1. Decoding: frames per CPU second through ``protocol.decode`` alone, and through
   the whole host path (line splitting + decode + session), on TAG edges and on a
   mix with HB and SNAP; the firmware's C decoder beside them. Target: >= 200,000
   frames/s for the Python decoder.
2. Latency: a ``TAG`` frame written on the device side of a real pty, to the
   observation handed to the bridge's consumer. Target: p99 < 5 ms.

Prints medians (of repeated runs) and p99, and the ratio to each target.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Optional

from firmware_bridge import protocol
from firmware_bridge.bridge import Bridge, LineSplitter
from firmware_bridge.protocol import Ack, Cmd, Hello, decode, encode_fields
from firmware_bridge.session import Session, TagEvent

UIDS = [f"04{i:02X}B7E1{i * 7 % 256:02X}00{i:02X}" for i in range(32)]


def _mix(n: int, tags_only: bool = False) -> list:
    frames = []
    for i in range(n):
        seq, t = i % 65536, 1000 + i
        if tags_only:
            frames.append(encode_fields(["TAG", seq, t, i % 9, UIDS[i % 32], "ON" if i % 2 else "OFF"]))
        elif i % 10 == 9:
            frames.append(encode_fields(["HB", seq, t, "up=12", "sweeps=400", "txdrop=0", "rderr=0"]))
        elif i % 50 == 49:
            frames.append(encode_fields(["SNAP", seq, t, 9, *(f"{a}:{UIDS[a]}" for a in range(9))]))
        else:
            frames.append(encode_fields(["TAG", seq, t, i % 9, UIDS[i % 32], "ON" if i % 2 else "OFF"]))
    return frames


def _decode_rate(frames: list) -> float:
    """Frames per CPU second: this machine is shared, and CPU time does not count
    the time spent waiting for a core (wall-clock rates are lower under load)."""
    start = time.process_time()
    for line in frames:
        decode(line)
    return len(frames) / (time.process_time() - start)


def _pipeline_rate(frames: list) -> float:
    """Bytes as they come off the port -> events, including the session's bookkeeping."""
    session = Session()
    session.opened(0.0)
    cmd = session.outbox.pop()
    session.feed(0.0, Ack(65535, 0, cmd.host_seq, "OK"))
    session.feed(0.0, Hello(65535, 0, 1, "bench", 9, "00000001"))
    blob = b"".join(line + b"\n" for line in frames)
    chunks = [blob[i:i + 4096] for i in range(0, len(blob), 4096)]
    splitter = LineSplitter()
    start = time.process_time()
    for chunk in chunks:
        for line in splitter.feed(chunk):
            session.feed(1.0, decode(line))
    return len(frames) / (time.process_time() - start)


class _Device:
    """The smallest device that passes the handshake, on the master side of a pty."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.seq = 0
        self._stop = False
        self._thread = threading.Thread(target=self._answer, daemon=True)
        self._thread.start()

    def send(self, fields: list) -> None:
        os.write(self.master, encode_fields([fields[0], self.seq, 1, *fields[1:]]) + b"\n")
        self.seq = (self.seq + 1) % 65536

    def _answer(self):
        buf = b""
        while not self._stop:
            try:
                buf += os.read(self.master, 1024)
            except OSError:
                return
            *lines, buf = buf.split(b"\n")
            for line in lines:
                cmd = decode(line)
                if isinstance(cmd, Cmd):
                    self.send(["ACK", cmd.host_seq, "OK"])
                    if cmd.command == "HELLO":
                        self.send(["HELLO", "proto=1", "fw=bench", "ants=9", "boot=00000001"])
                    elif cmd.command == "SNAP":
                        self.send(["SNAP", 9, *(f"{a}:-" for a in range(9))])

    def close(self):
        self._stop = True
        os.close(self.master)
        os.close(self.slave)


def _latencies(count: int = 1000, gap_s: float = 0.002) -> list:
    device = _Device()
    arrived: dict = {}
    ready, landed = threading.Event(), threading.Event()

    def sink(event):
        now = time.perf_counter()
        if isinstance(event, TagEvent):
            arrived[event.uid, event.present] = now
            landed.set()
        elif getattr(event, "state", "") == "connected":
            ready.set()

    bridge = Bridge(device.path, silence_s=5.0).start(sink)
    try:
        if not ready.wait(5):
            raise RuntimeError("the bench device never connected")
        time.sleep(0.1)   # let the first SNAP pass
        sent = {}
        for i in range(count):
            key = (UIDS[i % 32], (i // 32) % 2 == 0)
            landed.clear()
            sent[key, i] = time.perf_counter()
            device.send(["TAG", 0, key[0], "ON" if key[1] else "OFF"])
            landed.wait(0.5)   # sleeps without the GIL: the bench does not slow the bridge down
            if key in arrived:
                sent[key, i] = arrived.pop(key) - sent[key, i]
            time.sleep(gap_s)
        return sorted(v for v in sent.values() if v < 0.5)
    finally:
        bridge.stop()
        device.close()


def _c_rate(frames: list) -> Optional[float]:
    """The firmware's C decoder on the same frames (gcc -O2), the peer of the Python one."""
    if shutil.which("gcc") is None:
        return None
    firmware = Path(protocol.__file__).parent / "firmware"
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "vectors_runner"
        subprocess.run(["gcc", "-std=c99", "-O2", "-o", str(binary), str(firmware / "test" / "vectors_runner.c"),
                        str(firmware / "wire.c"), str(firmware / "scan.c")], check=True)
        runs = [subprocess.run([str(binary), "bench", "40"], input=b"\n".join(frames[:20_000]) + b"\n",
                               capture_output=True, check=True).stdout for _ in range(3)]
    return statistics.median(float(out.split()[0]) for out in runs)


def run() -> None:
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: rates are per CPU second, "
          f"the latency is wall-clock and grows with the load)")
    for name, frames in (("TAG edges", _mix(50_000, tags_only=True)), ("mix 88% TAG, 10% HB, 2% SNAP", _mix(50_000))):
        rate = statistics.median(_decode_rate(frames) for _ in range(5))
        pipe = statistics.median(_pipeline_rate(frames) for _ in range(5))
        c_rate = _c_rate(frames)
        peer = f"; the firmware's C decoder {c_rate:,.0f} (x{c_rate / rate:.0f})" if c_rate else ""
        print(f"{name}: decode median {rate:,.0f} frames per CPU second (target 200,000: "
              f"x{rate / 200_000:.2f}); split+decode+session {pipe:,.0f}{peer}")
    lat = _latencies()
    p50, p99 = statistics.median(lat), lat[int(0.99 * (len(lat) - 1))]
    print(f"pty frame -> observation: {len(lat)} TAG frames, median {p50 * 1000:.3f} ms, "
          f"p99 {p99 * 1000:.3f} ms, max {lat[-1] * 1000:.3f} ms (target p99 < 5 ms: x{5e-3 / p99:.1f} margin)")


if __name__ == "__main__":
    run()
