"""The real firmware, built by avr-gcc and run instruction by instruction on a
simulated Arduino Mega 2560 (mega2560-sim: libsimavr, nine register-level
MFRC522 models, the UART on a pty).

- scripted runs (deterministic, as fast as the simulator goes): RAM and stack,
  UIDs of every size and colliding piles, read misses, a dead reader's soft
  reset, a flooded link whose dropped frames are all counted;
- a whole hand dealt and played, watched by ``belote-table bridge monitor
  --json``, from the same script against the Python model and the real binary.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from referee.cards import card_name
from referee.seats import SEAT_NAMES

from firmware_bridge.avr_table import FIRMWARE_DIR, AvrTable, FirmwareMissing, run_script
from firmware_bridge.card_table import parse_script
from firmware_bridge.protocol import encode_fields
from firmware_bridge.virtual_table import VirtualTable

from test_bridge_cli import Lines, monitor, profile_of


def tag_edges(run, uid: str) -> list:
    """(antenna, ON/OFF) of every TAG frame about ``uid``, in order."""
    edges = []
    for _, line in run.frames("$TAG"):
        fields = line.split("*")[0].split(",")
        if fields[4] == uid:
            edges.append((int(fields[3]), fields[5]))
    return edges


def hb(line: str) -> dict:
    return dict(kv.split("=") for kv in line.split("*")[0].split(",")[3:])


def test_the_ram_left_at_the_measured_stack_peak_is_over_a_quarter(mega_build):
    """`make firmware`'s figure: the stack measured on a busy table (piles, SNAP, commands, a dead reader)."""
    run = run_script((FIRMWARE_DIR / "sim" / "busy_table.txt").read_text(), build_dir=mega_build)
    report = run.report
    assert report["stack_peak"] > 300, "the painted stack was measured (avr/stack_paint.c)"
    assert report["ram_free_pct"] >= 25, report
    assert report["ram_static"] + report["stack_peak"] + report["ram_free"] == 8192
    assert 0 < report["flash"] < 0.25 * report["flash_total"]
    kinds = {line.split(",")[0] + "," + line.split(",")[3] for _, line in run.frames("$ERR")}
    assert {"$ERR,snap-partial", "$ERR,reader-reinit", "$ERR,bad-cmd"} <= kinds, \
        "the scenario went down the deep paths it is meant to measure"


def test_uids_of_4_7_and_10_bytes_and_a_colliding_pile_are_read(mega_build):
    singles = {1: "DEADBEEF", 2: "04A1B2C3D4E5F6", 3: "0811223344556677AABB"}
    # one antenna, 8 tags: UIDs that first differ at many bit positions, at both cascade levels, mixed sizes
    pile = ["04A1B2C3D4E5F7", "04A1B2C3D4E5E6", "04A1B3C3D4E5F6", "05A1B2C3D4E5F6", "DEADBEEE",
            "04A1B2C3D5E5F6", "0811223344556677AABC", "04A1B2C3D4E5F5"]
    script = "".join(f"100 put {a} {uid}\n" for a, uid in singles.items())
    script += "".join(f"100 put 5 {uid}\n" for uid in pile) + "1500 end\n"
    run = run_script(script, build_dir=mega_build)
    for antenna, uid in singles.items():
        assert tag_edges(run, uid) == [(antenna, "ON")], uid
    for uid in pile:
        assert tag_edges(run, uid) == [(5, "ON")], f"{uid} of a pile of {len(pile)}"
    assert hb(run.frames("$HB")[-1][1])["rderr"] == "0"


def test_read_misses_neither_make_a_card_flicker_nor_count_as_reader_errors(mega_build):
    uid = "04C0FFEE000001"
    run = run_script(f"0 miss 1 0.25\n100 put 1 {uid}\n4000 lift {uid}\n4600 end\n", build_dir=mega_build)
    assert tag_edges(run, uid) == [(1, "ON"), (1, "OFF")], "one ON, one OFF, nothing between"
    off = next(c for c, line in run.frames("$TAG") if line.endswith(",OFF*" + line[-4:]))
    lifted = next(c for c, text in run.commands if text.startswith("lift"))
    assert (off - lifted) / 16e6 < 0.3, "gone within 6 sweeps of an empty table"
    assert hb(run.frames("$HB")[-1][1])["rderr"] == "0", "a miss is not a reader error"


def test_a_dead_reader_is_soft_reset_and_its_card_never_flickers(mega_build):
    uid = "04C0FFEE000002"
    run = run_script(f"100 put 4 {uid}\n1000 dead 4 1\n1800 dead 4 0\n2500 lift {uid}\n3200 end\n",
                     build_dir=mega_build)
    errors = [line for _, line in run.frames("$ERR") if ",reader-reinit,4," in line]
    assert len(errors) == 1, "ERR reader-reinit names the reader, once a second at most"
    last = hb(run.frames("$HB")[-1][1])
    assert int(last["reinit"]) > 1 and int(last["rderr"]) >= 3, "HB counts every re-initialisation"
    assert tag_edges(run, uid) == [(4, "ON"), (4, "OFF")], "a failed scan is no news: no OFF while it was dead"
    off = next(c for c, line in run.frames("$TAG") if ",OFF*" in line)
    assert off > next(c for c, text in run.commands if text.startswith("lift")), "read again after its reset"


def test_nine_dead_readers_do_not_starve_the_handshake(mega_build):
    """Readers without power fail every scan; their ERR frames must leave the host room to connect."""
    dead = "".join(f"0 dead {a} 1\n" for a in range(9))
    hello = encode_fields(["CMD", 7, "HELLO"]).decode()
    run = run_script(f"{dead}1000 send {hello}\n2200 end\n", build_dir=mega_build)
    errors = run.frames("$ERR")
    assert 9 <= len(errors) <= 27, f"{len(errors)} ERR frames in 2.2 s from nine dead readers"
    assert int(hb(run.frames("$HB")[-1][1])["txdrop"]) == 0, "nothing was dropped"
    after = [line for cycle, line in run.lines if cycle > next(c for c, t in run.commands if t.startswith("send"))]
    assert any(line.startswith("$ACK,") and ",7,OK" in line for line in after)
    assert any(line.startswith("$HELLO,") for line in after), "the HELLO the host asked for reached it"


def test_a_flooded_link_drops_whole_frames_and_counts_every_one(mega_build):
    """The host asks HELLO 150 times at once: 80 bytes out for 19 in, four times what 115200 baud
    carries. The 1 KiB queue drops whole frames; HB txdrop must equal the SEQ numbers missing."""
    commands = "".join(f"500 send {encode_fields(['CMD', n, 'HELLO']).decode()}\n" for n in range(150))
    run = run_script(commands + "3000 end\n", build_dir=mega_build)
    seqs = [int(line.split(",")[1]) for _, line in run.lines if line.startswith("$")]
    missing = sum(b - a - 1 for a, b in zip(seqs, seqs[1:]))
    last_hb = run.frames("$HB")[-1][1]
    assert missing > 20, f"the flood overflowed the queue ({missing} frames lost)"
    assert int(hb(last_hb)["txdrop"]) == missing, "every dropped frame is counted"
    assert all(re.fullmatch(r"[$#][ -~]*", line) for _, line in run.lines), "only whole lines reached the wire"


def test_reset_from_the_host_is_a_watchdog_reset_with_a_new_boot_id(mega_build):
    reset = encode_fields(["CMD", 9, "RESET"]).decode()
    run = run_script(f"500 send {reset}\n1200 reset\n1600 end\n", build_dir=mega_build)
    boots = [line for _, line in run.lines if line.startswith("#belote-table")]
    assert [b.rsplit("reset=", 1)[1] for b in boots] == ["power-on", "watchdog", "reset-pin"]
    hellos = [line for _, line in run.frames("$HELLO")]
    ids = [re.search(r"boot=([0-9A-F]{8})", h).group(1) for h in hellos]
    assert len(ids) == 3 and len(set(ids)) == 3, "every boot has its own id (an EEPROM boot counter)"
    ack = next(i for i, (_, line) in enumerate(run.lines) if line.startswith("$ACK,"))
    assert run.lines[ack + 1][1] == boots[1], "the ACK of RESET leaves before the board restarts"


@pytest.mark.parametrize("at_ms", [3, 4, 5])
def test_a_reset_while_booting_leaves_every_reader_working(mega_build, at_ms):
    """A host that opens the port at power-on resets the board (DTR) a few ms into its boot,
    maybe while it holds the readers' reset line low: the readers must come back with it."""
    uid = "04C0FFEE000003"
    run = run_script(f"0 put 1 {uid}\n{at_ms} reset\n700 end\n", build_dir=mega_build)
    assert [line.rsplit("reset=", 1)[1] for _, line in run.lines if line.startswith("#belote-table")] \
        == ["reset-pin"], "the reset came before the first boot said anything"
    assert not run.frames("$ERR"), "no reader fails after the reset"
    assert tag_edges(run, uid) == [(1, "ON")]


def test_a_missing_build_says_what_to_run(tmp_path):
    with pytest.raises(FirmwareMissing, match="make firmware"):
        AvrTable(build_dir=tmp_path).start()


def _hand_script(seed: int) -> str:
    """A whole hand: 32 cards dealt onto the hand antennas, 8 tricks played and picked up."""
    cards = list(range(32))
    random.Random(seed).shuffle(cards)
    hands = {seat: [card_name(c) for c in cards[8 * i:8 * i + 8]] for i, seat in enumerate(SEAT_NAMES)}
    lines = [f"deal {seat} {' '.join(hand)}" for seat, hand in hands.items()]
    for trick in range(8):
        lines += [f"play {seat} {hands[seat][trick]}" for seat in SEAT_NAMES] + ["pickup"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("board", ["python-model", "mega2560-sim"])
def test_a_whole_hand_dealt_and_played_reaches_bridge_monitor_json(board, tmp_path, request):
    """The same script on both firmwares; each step waits until monitor shows its new cards."""
    table = VirtualTable() if board == "python-model" else AvrTable(build_dir=request.getfixturevalue("mega_build"))
    path = table.start()
    profile = profile_of(table, tmp_path / "profile")
    proc = monitor("--port", path, "--profile", str(profile), "--json")
    seen, expected = [], []
    try:
        out = Lines(proc.stdout)
        assert json.loads(out.until(lambda line: True))["state"] == "connected"

        def wait_for(wanted: list) -> None:
            deadline = time.monotonic() + 20
            while not set(wanted) <= set(seen):
                line = json.loads(out.until(lambda l: True, timeout=max(0.1, deadline - time.monotonic())))
                assert line["kind"] == "tag" or line["state"] in ("connected", "resync"), line
                if line["kind"] == "tag":
                    seen.append((line["zone"], line["card"], line["present"]))

        where: dict = {}   # card -> the zone it lies on
        for event in parse_script(_hand_script(seed=11)):
            table.apply(event)
            kind, args = event[0], event[1:]
            if kind == "deal":
                arrivals, departures = [(f"hand:{args[0]}", card, True) for card in args[1:]], []
                where.update({card: f"hand:{args[0]}" for card in args[1:]})
            elif kind == "play":
                seat, card = args
                departures = [(where[card], card, False)]
                where[card] = f"play:{seat}"
                arrivals = [(where[card], card, True)]
            else:
                arrivals = []
                departures = [(zone, card, False) for card, zone in where.items() if zone.startswith("play:")]
                where = {card: zone for card, zone in where.items() if not zone.startswith("play:")}
            expected += arrivals + departures
            wait_for(arrivals or departures)   # a card leaving a hand may be reported a little later
        wait_for(expected)
        assert sorted(seen) == sorted(expected), "every card seen where it went, and nothing else"
        assert len(seen) == 32 * 4
    finally:
        proc.kill()
        table.stop()
