"""``belote-table bridge ...``: watch the table's RFID readers, or simulate them.

The handlers compose the parts: the tag and antenna maps come from the table
profile (``calibration.profile``), the link is ``firmware_bridge``'s. Kept
light at import time: serial and the bridge load inside the handlers.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from .output import fail, say

#: ``--reader`` choices: the table's board, or one off-the-shelf reader per port (adapters.py).
READERS = ("table", "uid-lines", "pn532")


def register(subparsers) -> None:
    bridge = subparsers.add_parser("bridge", help="the table's RFID link: watch it, simulate it")
    sub = bridge.add_subparsers(dest="bridge_command", metavar="COMMAND", required=True)

    mon = sub.add_parser(
        "monitor", help="print what the table's readers see, reconnecting forever",
        description="Connect to the table's microcontroller and print every tag edge and link "
                    "change. Never exits on a lost link: it reconnects. Ctrl-C stops it.")
    mon.add_argument("--port", required=True, action="append", metavar="URL",
                     help="pyserial URL: /dev/ttyACM0, /dev/serial/by-id/..., socket://host:port, loop://; "
                          "with an off-the-shelf --reader, repeat it for one reader per antenna (0, 1, ...)")
    mon.add_argument("--profile", type=Path, metavar="DIR",
                     help="table profile with tags.csv (uid,card) and antennas.csv (antenna,zone)")
    mon.add_argument("--json", action="store_true", help="one JSON object per line")
    mon.add_argument("--reader", default="table", choices=READERS,
                     help="'table': the table's board (default); 'uid-lines': a reader printing one "
                          "UID per line; 'pn532': a PN532 board in HSU (UART) mode")
    mon.add_argument("--silence", type=float, default=3.0, metavar="S",
                     help="declare the device lost after S seconds without a frame (default 3)")
    mon.set_defaults(func=_monitor)

    sim = sub.add_parser(
        "simulate", help="play the table's firmware on a pseudo-terminal (for trying monitor, demos)",
        description="Start a virtual table and print the port path to open. Runs the script if "
                    "given, then keeps the table up until Ctrl-C.")
    sim.add_argument("--script", type=Path, metavar="FILE",
                     help="table events: 'deal N 7s 8s ...', 'play S Jh', 'pickup', 'wait 0.5', "
                          "'fault drop 2|corrupt 1|reboot|unplug|replug|silence 2|stale'")
    sim.add_argument("--profile-out", type=Path, metavar="DIR",
                     help="write the simulated deck's tags.csv and antennas.csv there")
    sim.add_argument("--step", type=float, default=0.3, metavar="S", help="seconds between script events")
    sim.add_argument("--board", default="python", choices=("python", "mega2560"),
                     help="'python': the firmware's logic in Python (default); 'mega2560': the real firmware "
                          "on a simulated Arduino Mega 2560 (run 'make firmware' first)")
    sim.set_defaults(func=_simulate)


def _monitor(args) -> int:
    import queue

    from calibration.profile import ProfileError
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.protocol import BAD_KINDS
    from firmware_bridge.session import DeviceNote, LinkEvent

    try:
        table = table_map(args.profile)
    except ProfileError as exc:
        return fail(str(exc))
    if args.reader == "table" and len(args.port) != 1:
        return fail("the table's board uses one port: give --port once (or name an off-the-shelf --reader)")
    events: queue.Queue = queue.Queue()
    bridges = [Bridge(url, table, silence_s=args.silence, codec_factory=codec_factory(args.reader, antenna))
               .start(lambda event, url=url: events.put((url, event))) for antenna, url in enumerate(args.port)]
    print(f"bridge: watching {', '.join(args.port)}; Ctrl-C to stop", file=sys.stderr)
    waiting = Waiting(args.port)
    try:
        while True:
            try:
                url, event = events.get(timeout=waiting.remind_s)
            except queue.Empty:
                waiting.remind()
                continue
            if isinstance(event, LinkEvent) and waiting.heard(url, event):
                continue
            if isinstance(event, DeviceNote):
                print(f"bridge: {event.text}", file=sys.stderr, flush=True)
            elif args.json:
                print(json.dumps(event.to_json()), flush=True)
            elif isinstance(event, LinkEvent):
                print(f"link {event.state}" + (f": {event.detail}" if event.detail else ""), flush=True)
            else:
                print(_tag_line(event), flush=True)
    finally:
        for bridge in bridges:
            bridge.stop(timeout=0.5)
            counts = bridge.session.counters
            bad = ", ".join(f"{kind} {counts[kind]}" for kind in BAD_KINDS if counts[kind])
            partial = f", {counts['snap_partial']} partial SNAP(s)" if counts["snap_partial"] else ""
            print(f"bridge: {bridge.url}: {counts['connects']} connection(s), {counts['gaps']} SEQ gap(s) "
                  f"({counts['frames_lost']} frame(s) lost), {counts['restarts']} device restart(s){partial}, "
                  f"bad frames: {bad or 'none'}", file=sys.stderr)


class Waiting:
    """What the monitor tells the person while a port has never answered: which
    port it waits for and why (on stderr, at once and then every ``remind_s``),
    instead of retrying in silence. A link that was up and is lost is a result
    (stdout); a port that never opened is not a lost link."""

    remind_s = 30.0

    def __init__(self, urls: list[str]):
        self.why = {url: "" for url in urls}          # ports never connected, and why
        self.since = time.monotonic()

    def heard(self, url: str, event) -> bool:
        """Note ``event``; True when it was only the wait (said here, not a result)."""
        if url not in self.why:
            return False
        if event.state == "connected":
            del self.why[url]
            return False
        if event.state != "lost":
            return False
        first = not self.why[url]
        self.why[url] = _why_waiting(url, event.detail)
        if first:
            say(f"bridge: waiting for {url}: {self.why[url]}; trying again every few seconds (Ctrl-C to stop)")
        return True

    def remind(self) -> None:
        for url, why in self.why.items():
            if why:
                say(f"bridge: still waiting for {url} after {time.monotonic() - self.since:.0f} s: {why}")


def _why_waiting(url: str, detail: str) -> str:
    """Why ``url`` does not open, in words that say what to do."""
    if "://" not in url and not os.path.exists(url):
        return ("no such port: plug the table's board in, or check --port "
                "(ls /dev/serial/by-id/ lists the boards plugged in)")
    if "ermission" in detail:
        return "permission denied: add yourself to the dialout group (sudo usermod -aG dialout $USER), log in again"
    if "busy" in detail.lower() or "lock" in detail.lower():
        return "the port is in use by another program (another monitor, a serial console?)"
    return detail.removeprefix("cannot open ").split("; retrying")[0]


def table_map(profile_dir: Path | None):
    """The bridge's tag -> card and antenna -> zone maps, from a table profile
    (none: every card and zone is reported as unknown)."""
    from calibration.profile import TableProfile
    from firmware_bridge.mapping import TableMap

    if profile_dir is None:
        return TableMap()
    profile = TableProfile.existing(profile_dir)
    return TableMap(cards=profile.tags(), zones=profile.antennas())


def codec_factory(reader: str, antenna: int):
    """What the bridge talks through: the table's protocol, or an adapter for one reader as ``antenna``."""
    from firmware_bridge.adapters import Pn532Codec, UidLineCodec
    from firmware_bridge.bridge import TableCodec

    adapter = {"table": None, "uid-lines": UidLineCodec, "pn532": Pn532Codec}[reader]
    return TableCodec if adapter is None else (lambda: adapter(antenna))


def _tag_line(event) -> str:
    from referee.cards import card_name

    what = card_name(event.card) if event.card is not None else "unknown tag"
    where = event.zone or "unmapped"
    pile = f", pile of {event.pile}" if event.pile > 1 else ""
    return (f"{'+' if event.present else '-'} {what} {where} "
            f"(antenna {event.antenna}, {event.uid}{pile}{', uncertain' if event.uncertain else ''})")


def _simulate(args) -> int:
    from calibration.profile import TableProfile
    from firmware_bridge.card_table import hand_script
    from firmware_bridge.virtual_table import VirtualTable, parse_script

    try:
        script = parse_script(args.script.read_text(encoding="utf-8")) if args.script else hand_script()
    except (OSError, ValueError) as exc:
        return fail(f"{args.script}: {exc}")
    if not args.script:
        say(f"simulate: no --script: playing a seeded hand ({sum(e[0] == 'play' for e in script)} cards, "
            f"{sum(e[0] == 'pickup' for e in script)} tricks picked up) every {args.step:g} s, then idle")
    if args.board == "mega2560":
        from firmware_bridge.avr_table import AvrTable
        table = AvrTable()
    else:
        table = VirtualTable()
    if args.profile_out:
        profile, rfid = TableProfile(args.profile_out), table.table_map()
        profile.save_tags(rfid.cards)
        profile.save_antennas(rfid.zones)
        print(f"simulate: wrote tags.csv and antennas.csv in {args.profile_out}", file=sys.stderr)
    try:
        path = table.start()
    except RuntimeError as exc:   # FirmwareMissing: says what to run
        return fail(str(exc))
    print(path, flush=True)
    print("simulate: table up; open the path above with 'belote-table bridge monitor --port PATH'",
          file=sys.stderr)
    try:
        table.run_script(script, args.step, on_event=lambda number, total, event: print(
            f"simulate: [{number}/{total}] {' '.join(event)}", file=sys.stderr, flush=True))
        while True:
            time.sleep(3600)
    finally:
        table.stop()
