"""``belote-table bridge monitor`` as a user runs it: the real entry point, a real pty."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

from referee.cards import parse_card

from calibration.profile import TableProfile
from firmware_bridge.virtual_table import VirtualTable


class Lines:
    """stdout of a child process, line by line, with a timeout."""

    def __init__(self, stream):
        self.q: queue.Queue = queue.Queue()
        self.all: list = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        for line in stream:
            self.q.put(line)

    def until(self, predicate, timeout=5.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.q.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no matching line in {timeout} s; saw {self.all!r}")
            self.all.append(line)
            if predicate(line):
                return line


def monitor(*args):
    return bridge_command("monitor", *args)


def bridge_command(*args):
    return subprocess.Popen([sys.executable, "-m", "commands.main", "bridge", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))


def profile_of(table, directory):
    """A table profile holding the virtual table's tags and antennas, as ``calibrate tags`` would."""
    profile, rfid = TableProfile(directory), table.table_map()
    profile.save_tags(rfid.cards)
    profile.save_antennas(rfid.zones)
    return profile.dir


def test_monitor_json_prints_tags_in_designs_shape_and_survives_an_unplug(tmp_path):
    table = VirtualTable(hb_s=0.1)
    path = table.start()
    profile = profile_of(table, tmp_path / "profile")
    proc = monitor("--port", path, "--profile", str(profile), "--json", "--silence", "0.5")
    try:
        out = Lines(proc.stdout)
        first = json.loads(out.until(lambda l: True))
        assert first["kind"] == "link" and first["state"] == "connected"
        table.put("Jh", "play:S")
        line = out.until(lambda l: '"tag"' in l)
        assert json.loads(line) == {"kind": "tag", "antenna": 3, "zone": "play:S",
                                    "uid": table.tags[parse_card("Jh")], "card": "Jh", "present": True}
        table.place("04FFFFFFFFFFFF", 0)
        unknown = json.loads(out.until(lambda l: "04FFFFFFFFFFFF" in l))
        assert unknown["card"] is None and unknown["zone"] == "deal"
        table.unplug()
        lost = json.loads(out.until(lambda l: '"lost"' in l))
        assert lost["kind"] == "link" and lost["detail"]
        time.sleep(0.5)
        assert proc.poll() is None, "a lost link never ends the monitor"
        table.replug()
        out.until(lambda l: '"connected"' in l)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130  # generous: CI machines are shared
        for rest in proc.stdout:
            out.all.append(rest)
        assert all(json.loads(l)["kind"] in ("tag", "link") for l in out.all), "stdout carries only JSON"
        stderr = proc.stderr.read()
        assert "watching" in stderr
        assert "2 connection(s)" in stderr and "bad frames:" in stderr, "a summary for the person at the end"
    finally:
        proc.kill()
        table.stop()


def test_monitor_text_says_link_connected_and_names_cards(tmp_path):
    table = VirtualTable()
    path = table.start()
    table.put("As", "hand:N")
    profile = profile_of(table, tmp_path / "p")
    proc = monitor("--port", path, "--profile", str(profile))
    try:
        out = Lines(proc.stdout)
        assert out.until(lambda l: True).startswith("link connected")
        assert out.until(lambda l: "As" in l).startswith("+ As hand:N (antenna 5,")
    finally:
        proc.kill()
        table.stop()


def test_monitor_refuses_a_bad_profile_with_the_line_to_fix(tmp_path):
    (tmp_path / "tags.csv").write_text("uid,card\n04A1B2C3,Zz\n")
    proc = monitor("--port", "loop://", "--profile", str(tmp_path))
    assert proc.wait(timeout=20) == 2
    assert "tags.csv:2:" in proc.stderr.read() and proc.stdout.read() == ""


def test_monitor_runs_one_cheap_reader_per_zone(tmp_path):
    import tty

    from firmware_bridge.mapping import DEFAULT_ZONES

    TableProfile(tmp_path).save_antennas(DEFAULT_ZONES)
    TableProfile(tmp_path).save_tags({"04A1B2C3": parse_card("Qs")})
    ptys = [os.openpty() for _ in range(2)]
    for _, slave in ptys:
        tty.setraw(slave)
    proc = monitor("--reader", "uid-lines", "--json", "--profile", str(tmp_path),
                   *[a for _, slave in ptys for a in ("--port", os.ttyname(slave))])
    stop = threading.Event()

    def second_reader_sees_a_card():
        while not stop.is_set():
            os.write(ptys[1][0], b"UID: 04 A1 B2 C3\r\n")
            time.sleep(0.05)

    printer = threading.Thread(target=second_reader_sees_a_card, daemon=True)
    try:
        out = Lines(proc.stdout)
        out.until(lambda l: '"connected"' in l)
        out.until(lambda l: '"connected"' in l)
        printer.start()
        line = json.loads(out.until(lambda l: '"tag"' in l))
        assert line == {"kind": "tag", "antenna": 1, "zone": "play:N", "uid": "04A1B2C3", "card": "Qs",
                        "present": True}
    finally:
        stop.set()
        proc.kill()
        for master, slave in ptys:
            os.close(master)
            os.close(slave)


@pytest.mark.parametrize("board", ["python", "mega2560"])
def test_simulate_serves_a_scripted_table_that_monitor_can_watch(tmp_path, board, request):
    """The same script played by the Python model and by the real firmware on the simulated Mega."""
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.mapping import TableMap

    from bridge_helpers import Recorder

    script = tmp_path / "hand.txt"
    script.write_text("# a deal then a play\ndeal S Jh 9h\nwait 0.3\nplay S Jh\n")
    if board == "mega2560":
        request.getfixturevalue("mega_build")
    proc = bridge_command("simulate", "--script", str(script), "--profile-out", str(tmp_path / "p"),
                          "--step", "0.05", "--board", board)
    try:
        path = Lines(proc.stdout).until(lambda l: True).strip()
        rec = Recorder()
        profile = TableProfile(tmp_path / "p")
        bridge = Bridge(path, TableMap(profile.tags(), profile.antennas())).start(rec)
        try:
            seen = rec.wait_for(lambda e: getattr(e, "zone", None) == "play:S" and e.present)
            assert seen.to_json()["card"] == "Jh"
        finally:
            bridge.stop()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130  # generous: CI machines are shared
        assert "[3/3] play S Jh" in proc.stderr.read()
    finally:
        proc.kill()


def test_simulate_names_the_bad_script_line(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("deal S Jh\nplay S 2h\n")
    proc = bridge_command("simulate", "--script", str(script))
    assert proc.wait(timeout=20) == 2
    assert "line 2: '2h' is not a Belote card" in proc.stderr.read()


def test_monitor_on_a_port_that_does_not_exist_says_what_it_waits_for_then_connects(tmp_path):
    """Issue 12: it retried silently forever. Now stderr says which port and what
    to do; stdout stays for results (a port never opened is no lost link)."""
    port = tmp_path / "ttyTABLE"                     # not there yet: the board is unplugged
    proc = monitor("--port", str(port))
    table = VirtualTable()
    try:
        errors = Lines(proc.stderr)
        waiting = errors.until(lambda l: "waiting for" in l)
        assert str(port) in waiting and "no such port" in waiting and "check --port" in waiting
        os.symlink(table.start(), port)              # the board is plugged in: the monitor finds it
        assert Lines(proc.stdout).until(lambda l: True, timeout=15).startswith("link connected")
    finally:
        proc.kill()
        table.stop()


def test_simulate_without_a_script_plays_a_whole_hand(tmp_path):
    """Issue 12: without --script it showed nothing. Now it deals and plays a
    seeded legal hand, trick by trick, that a bridge reads card by card."""
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.card_table import hand_script
    from firmware_bridge.mapping import TableMap

    from bridge_helpers import Recorder

    script = hand_script()
    assert [e[0] for e in script].count("play") == 32 and [e[0] for e in script].count("pickup") == 8
    proc = bridge_command("simulate", "--profile-out", str(tmp_path / "p"), "--step", "0.05")
    try:
        path = Lines(proc.stdout).until(lambda l: True, timeout=20).strip()
        rec = Recorder()
        profile = TableProfile(tmp_path / "p")
        bridge = Bridge(path, TableMap(profile.tags(), profile.antennas())).start(rec)
        try:
            first_play = next(e for e in script if e[0] == "play")
            seen = rec.wait_for(lambda e: getattr(e, "zone", None) == f"play:{first_play[1]}" and e.present,
                                timeout=20)
            assert seen.to_json()["card"] == first_play[2]
        finally:
            bridge.stop()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130
        stderr = proc.stderr.read()
        assert "no --script: playing a seeded hand (32 cards, 8 tricks picked up)" in stderr
        assert f"play {first_play[1]} {first_play[2]}" in stderr
    finally:
        proc.kill()
