"""The firmware's C, compiled with gcc and held to the host's Python.

- the C unit tests (scan pattern, field cycling, re-init, queue, table core);
- the MFRC522 driver against the simulator's register-level reader and tag models;
- the shared vectors, read by both codecs (both directions, corrupt frames too);
- a differential fuzz: hypothesis mutates valid frames, and the C and Python
  decoders must give the same verdict on every line;
- the C firmware core as a process on a pty, talking to the real Python bridge.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tty
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol
from firmware_bridge.bridge import Bridge
from firmware_bridge.debounce import Debouncer
from firmware_bridge.protocol import BadFrame, Debug, decode, encode_fields
from firmware_bridge.session import TagEvent

from bridge_helpers import Recorder

FIRMWARE = Path(protocol.__file__).parent / "firmware"
SOURCES = ["wire.c", "scan.c", "txq.c", "table.c"]
#: the driver, and the reader and tag models it is tested against, built with the Mega's sizes
DRIVER = ["mfrc522.c", "crc_a.c", "sim/mfrc522_model.c", "sim/picc.c"]
MEGA_SIZES = ["-DREADS_PER_SCAN=8", "-DMAX_ANTENNAS=9"]
VECTORS = FIRMWARE / "vectors.txt"
DEBOUNCE_VECTORS = FIRMWARE / "debounce_vectors.txt"


def _gcc(out: Path, main: str, flags: list, extra: tuple = ()) -> None:
    cmd = ["gcc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O1", "-g", *flags,
           "-o", str(out), str(FIRMWARE / "test" / main), *[str(FIRMWARE / s) for s in (*SOURCES, *extra)]]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    """The three host binaries, with AddressSanitizer/UBSan where this gcc has them."""
    assert shutil.which("gcc"), "gcc is missing: run 'bash scripts/system-deps.sh'"
    out = tmp_path_factory.mktemp("firmware")
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    try:
        _gcc(out / "probe", "test_firmware.c", sanitize)
    except subprocess.CalledProcessError:
        sanitize = []
    bins = {}
    for name, main in (("tests", "test_firmware.c"), ("vectors", "vectors_runner.c"), ("sim", "table_sim.c")):
        # the simulated board gets a small queue, so that a stalled host makes it drop frames
        _gcc(out / name, main, sanitize if name != "sim" else ["-D_DEFAULT_SOURCE", "-DTXQ_SIZE=256"])
        bins[name] = str(out / name)
    _gcc(out / "driver", "test_mfrc522.c", sanitize + MEGA_SIZES, DRIVER)
    bins["driver"] = str(out / "driver")
    return bins


def test_the_c_unit_tests_pass(build):
    run = subprocess.run([build["tests"]], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert " 0 failures" in run.stdout


def test_the_mfrc522_driver_reads_the_register_level_model(build):
    """REQA/WUPA, 4/7/10-byte UIDs, colliding piles, HALT, misses, a dead chip's soft reset."""
    run = subprocess.run([build["driver"]], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert " 0 failures" in run.stdout


def test_the_c_codec_agrees_with_every_shared_vector(build):
    run = subprocess.run([build["vectors"], "check", str(VECTORS)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def _unescape(text: str) -> bytes:
    out, i = bytearray(), 0
    while i < len(text):
        if text.startswith("\\\\", i):
            out.append(0x5C)
            i += 2
        elif text.startswith("\\x", i):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out.append(ord(text[i]))
            i += 1
    return bytes(out)


def _escape(line: bytes) -> str:
    return "".join("\\\\" if c == 0x5C else chr(c) if 0x20 <= c <= 0x7E else f"\\x{c:02X}" for c in line)


def _verdict(line: bytes) -> str:
    try:
        frame = decode(line)
    except BadFrame as exc:
        return f"bad\t{exc.kind}"
    if isinstance(frame, Debug):
        return "debug"
    name = type(frame).__name__.upper()
    if name == "CMD":
        return f"ok\tCMD {frame.host_seq} 0"
    return f"ok\t{name} {frame.seq} {frame.t_ms}"


def test_the_python_codec_agrees_with_every_shared_vector():
    count = 0
    for raw in VECTORS.read_text().splitlines():
        if not raw or raw.startswith("#"):
            continue
        kind, a, *rest = raw.split("\t")
        count += 1
        if kind == "crc":
            assert f"{protocol.crc16(a.encode()):04X}" == rest[0]
        elif kind == "enc":
            fields = a.split(",")
            assert encode_fields(fields) == _unescape(rest[0])
        else:
            want = kind + ("\t" + rest[0] if rest else "")
            assert _verdict(_unescape(a)) == want, a
    assert count > 100


def test_both_debounces_give_the_same_edges(build):
    run = subprocess.run([build["vectors"], "debounce", str(DEBOUNCE_VECTORS)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stdout
    debouncer = Debouncer()
    scans = 0
    for raw in DEBOUNCE_VECTORS.read_text().splitlines():
        if raw.startswith("config"):
            debouncer = Debouncer(*map(int, raw.split()[1:]))
        elif raw.startswith("scan"):
            reads, expect = raw.split("->")
            _, antenna, *uids = reads.split()
            got = " ".join(("+" if on else "-") + uid for uid, on in debouncer.scan(int(antenna), uids))
            assert got == expect.strip(), raw
            scans += 1
    assert scans > 200


_VALID = [encode_fields(f) for f in (
    ["HELLO", 0, 0, "proto=1", "fw=1.0.0", "ants=9", "boot=1A2B3C4D"],
    ["TAG", 7, 3400, 3, "04A1B2C3D4E5F6", "ON"], ["TAG", 65535, 4294967295, 255, "DEADBEEF", "OFF"],
    ["SNAP", 12, 9000, 3, "0:-", "1:04A1B2C3D4E5F6", "2:DEADBEEF+CAFEBABE"],
    ["HB", 3, 1000, "up=1", "txdrop=0"], ["ERR", 5, 10, "reader-reinit", 2, "re-init, after 3"],
    ["ACK", 8, 1000, 41, "OK"], ["CMD", 41, "SNAP"], ["CMD", 1, "CFG", "hb=500"])]
_BYTES = st.sampled_from(b"$*,:+-=#\r0123456789ABCDEFabcdefONFTAGSNPHELOBRCKMD x\x00\xff")


@st.composite
def _mutated(draw):
    line = bytearray(draw(st.sampled_from(_VALID)))
    for _ in range(draw(st.integers(1, 3))):
        op, pos = draw(st.integers(0, 3)), draw(st.integers(0, len(line)))
        if op == 0 and line:
            line[min(pos, len(line) - 1)] = draw(_BYTES)
        elif op == 1:
            line[pos:pos] = bytes([draw(_BYTES)])
        elif op == 2 and line:
            del line[min(pos, len(line) - 1)]
        else:
            del line[pos:]
    line = bytes(line).replace(b"\n", b"")
    if draw(st.booleans()) and line.startswith(b"$") and b"*" in line:   # fix the CRC: reach the field checks
        body = line[1:line.rfind(b"*")]
        line = b"$" + body + b"*" + b"%04X" % protocol.crc16(body)
    return line


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_mutated(), min_size=20, max_size=60))
def test_c_and_python_give_the_same_verdict_on_mutated_frames(build, lines):
    run = subprocess.run([build["vectors"], "classify"], input="".join(_escape(l) + "\n" for l in lines),
                         capture_output=True, text=True, timeout=30)
    for line, got in zip(lines, run.stdout.splitlines(), strict=True):
        assert got == _verdict(line), line


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=260) | _mutated())
def test_no_exception_but_badframe_escapes_the_decoder_and_no_bad_frame_is_accepted(line):
    line = line.replace(b"\n", b"")
    try:
        frame = decode(line)
    except BadFrame as exc:
        assert exc.kind in protocol.BAD_KINDS
        with pytest.raises(BadFrame) as checked:
            protocol.decode_checked(line)
        assert checked.value.kind == exc.kind, "the fast path and the full path disagree"
        return
    assert protocol.decode_checked(line) == frame, "the fast path and the full path disagree"
    if isinstance(frame, Debug):
        assert line.startswith(b"#")
        return
    # accepted: then it is a well-formed frame whose CRC checks and that re-encodes to a valid frame
    body = line.rstrip(b"\r")[1:-5]
    assert line.rstrip(b"\r")[-4:] == b"%04X" % protocol.crc16(body)
    assert len(line.rstrip(b"\r")) <= protocol.MAX_LINE
    decode(protocol.encode(frame))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_VALID), st.data())
def test_any_single_byte_change_of_a_valid_frame_is_rejected(line, data):
    pos = data.draw(st.integers(0, len(line) - 1))
    new = data.draw(st.integers(0, 255).filter(lambda b: b != line[pos] and b not in (10, 13)))
    mutated = line[:pos] + bytes([new]) + line[pos + 1:]
    if pos == 0 and new == ord("#"):
        return   # a debug line now, by definition not a frame
    with pytest.raises(BadFrame):
        decode(mutated)


def test_the_c_firmware_core_talks_to_the_python_bridge_over_a_pty(build, tmp_path):
    """The C core's frames, SEQ, drops on a full queue and reboot, met by the Python session."""
    script = tmp_path / "script.txt"
    script.write_text("200 put 1 7\n250 put 5 8\n600 lift 1 7\n700 put 3 7\n"
                      "900 stall 1200\n1000 put 2 9\n1100 lift 5 8\n"   # host not reading: the queue overflows
                      "2600 reset\n2800 put 4 10\n4200 end\n")
    master, slave = os.openpty()
    tty.setraw(slave)
    link = tmp_path / "ttyC"
    link.symlink_to(os.ttyname(slave))
    proc = subprocess.Popen([build["sim"], "6", str(script)], stdin=master, stdout=master)
    os.close(master)
    rec = Recorder()
    bridge = Bridge(str(link), silence_s=2.0).start(rec)
    uid = "04B7E1000000{:02X}".format
    try:
        rec.link("connected", timeout=3)
        rec.tag(uid(7), 1, True, timeout=3)
        rec.tag(uid(8), 5, True, timeout=3)
        rec.tag(uid(7), 1, False, timeout=3)
        rec.tag(uid(7), 3, True, timeout=3)
        rec.tag(uid(9), 2, True, timeout=4)
        rec.tag(uid(8), 5, False, timeout=4)
        assert "lost" in rec.link("resync", timeout=4).detail, "the dropped frames show as a SEQ gap"
        restart = rec.wait_for(lambda e: getattr(e, "state", "") == "resync" and "restarted" in e.detail)
        rec.tag(uid(10), 4, True, since=rec.events.index(restart), timeout=4)
        assert proc.wait(timeout=6) == 0
        assert bridge.session.counters["gaps"] >= 1 and bridge.session.counters["restarts"] == 1
        assert {u: a for a, held in bridge.session.antennas.items() for u in held} == {
            uid(7): 3, uid(9): 2, uid(10): 4}
    finally:
        bridge.stop()
        proc.kill()
        os.close(slave)
