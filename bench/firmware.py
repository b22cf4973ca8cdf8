"""The table's firmware on the simulated Arduino Mega 2560: figures in simulated
cycles at 16 MHz (mega2560-sim), so they do not depend on this machine's load.

1. One full scan of the 9 readers (a sweep), in ms: empty table, a card on each
   play zone, a dealt hand (8 cards on each hand antenna).
2. Card placed -> its TAG frame wholly on the wire at 115200 baud: p50 / p99
   over placements at random moments, on an empty table and beside a dealt hand.
3. Frames per second the firmware sustains before its queue drops, and a
   check that every dropped frame is counted (HB txdrop == SEQ numbers missing).
4. How often a card flickers (OFF then ON) when its reader misses a quarter of
   its reads, with the firmware's debounce (ON after 2 scans, OFF after 6).
5. Flash and RAM, the stack measured (the `make firmware` report).

Then the end-to-end estimate for a real table: card placed -> referee event,
with the host's frame -> observation latency measured here (bench/bridge.py,
target p99 < 5 ms) beside the firmware's.
"""

from __future__ import annotations

import random
import statistics
import sys

from firmware_bridge.avr_table import CPU_HZ, FIRMWARE_DIR, build, run_script
from firmware_bridge.protocol import encode_fields

CYCLES_PER_BYTE = 10 * 17 * 8     # 8N1 at UBRR 16 with U2X: 117,647 baud, 10 bits a byte
HAND = [f"04B0{seat:02X}0000{card:04X}" for seat in range(4) for card in range(8)]   # 32 tags
PLAY_ANTENNAS = (1, 2, 3, 4)


def _ms(cycles: float) -> float:
    return cycles * 1000 / CPU_HZ


def _deal(at_ms: int = 0) -> str:
    return "".join(f"{at_ms} put {5 + i // 8} {uid}\n" for i, uid in enumerate(HAND))


def sweep_ms(build_dir) -> dict:
    plays = "".join(f"0 put {a} 04C0000000000{a}\n" for a in PLAY_ANTENNAS)
    return {name: run_script(script + "3000 end\n", build_dir=build_dir).report["sweep_ms"]
            for name, script in (("empty table", ""), ("a card on each play zone", plays),
                                 ("a dealt hand, 8 cards on each hand antenna", _deal()))}


def placement_latency(build_dir, dealt: bool, placements: int, period_ms: int, seed: int = 5) -> list:
    """ms from a card's placement to the last bit of its TAG ON frame on the wire."""
    rng = random.Random(seed)
    script, puts = _deal() if dealt else "", set()
    for i in range(placements):
        at = 1000 + i * period_ms + rng.randrange(period_ms // 4)   # a random phase of the sweep
        uid = f"04D1{i:010X}"
        script += f"{at} put {PLAY_ANTENNAS[i % 4]} {uid}\n{at + period_ms // 2} lift {uid}\n"
        puts.add(uid)
    run = run_script(script + f"{1000 + (placements + 1) * period_ms} end\n", build_dir=build_dir)
    placed = {text.split()[2]: cycle for cycle, text in run.commands
              if text.startswith("put") and text.split()[2] in puts}
    out = []
    for cycle, line in run.frames("$TAG"):
        uid = line.split(",")[4]
        if uid in placed and ",ON*" in line:
            out.append(_ms(cycle + CYCLES_PER_BYTE - placed.pop(uid)))
    missing = [uid for uid in puts if uid in placed]
    if missing:
        raise RuntimeError(f"{len(missing)} placements never reported")
    return sorted(out)


def sustained_frames(build_dir, rates=(100, 120, 130, 140, 150, 175, 250), seconds: int = 3) -> list:
    """The host asks HELLO `rate` times a second (ACK + HELLO: 2 frames, 84 bytes each time)."""
    rows = []
    for rate in rates:
        lines = [f"{500 + int(k * 1000 / rate)} send {encode_fields(['CMD', k % 65536, 'HELLO']).decode()}"
                 for k in range(rate * seconds)]
        run = run_script("\n".join(lines) + f"\n{500 + seconds * 1000 + 1500} end\n", build_dir=build_dir)
        window = [(c, l) for c, l in run.lines if l.startswith("$") and 500 <= _ms(c) <= 500 + seconds * 1000]
        seqs = [int(line.split(",")[1]) for _, line in run.lines if line.startswith("$")]
        missing = sum(b - a - 1 for a, b in zip(seqs, seqs[1:]))
        txdrop = int(dict(kv.split("=") for kv in run.frames("$HB")[-1][1].split("*")[0].split(",")[3:])["txdrop"])
        wire = sum(len(line) + 1 for _, line in window) / seconds
        rows.append((rate * 2, len(window) / seconds, wire, missing, txdrop))
    return rows


def flicker(build_dir, miss: float = 0.25, seconds: int = 60) -> tuple:
    run = run_script(f"0 miss 1 {miss}\n100 put 1 04E0000000000A\n{seconds * 1000 + 100} end\n",
                     build_dir=build_dir)
    edges = [line for _, line in run.frames("$TAG") if "04E0000000000A" in line]
    return sum(",OFF*" in e for e in edges), run.report["sweeps"]


def host_p99() -> tuple:
    from bench.bridge import _latencies
    lat = _latencies(count=500)
    return statistics.median(lat) * 1000, lat[int(0.99 * (len(lat) - 1))] * 1000


def run() -> None:
    build_dir = build()
    print("(simulated cycles at 16 MHz on mega2560-sim: figures do not depend on this machine's load)")
    print("\n1. one sweep of the 9 readers")
    for name, ms in sweep_ms(build_dir).items():
        print(f"   {name:45s} {ms:7.1f} ms")
    print("\n2. card placed -> TAG frame wholly on the wire (115200 baud)", flush=True)
    figures = {}
    for name, dealt, n, period in (("empty table", False, 200, 400), ("beside a dealt hand", True, 100, 2000)):
        print(f"   ({name}: {n} placements...)", file=sys.stderr, flush=True)
        lat = placement_latency(build_dir, dealt, n, period)
        figures[name] = (statistics.median(lat), lat[int(0.99 * (len(lat) - 1))], lat[-1])
        p50, p99, worst = figures[name]
        print(f"   {name:22s} p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   max {worst:6.1f} ms   ({n} placements)")
    print("\n3. frames per second before the queue drops (host floods HELLO: 2 frames per command)", flush=True)
    print("   offered/s   on the wire/s   bytes/s   SEQ missing   HB txdrop")
    knee = 0.0
    for offered, sent, wire, missing, txdrop in sustained_frames(build_dir):
        print(f"   {offered:9d}   {sent:13.1f}   {wire:7.0f}   {missing:11d}   {txdrop:9d}"
              f"{'   <- all counted' if missing == txdrop and missing else ''}")
        if missing == 0:
            knee = max(knee, sent)
    print(f"   sustained without a drop: {knee:.0f} frames/s ({11765 / 42:.0f}/s is the 115200-baud line for "
          f"these 42-byte frames); every dropped frame is counted in HB txdrop")
    offs, sweeps = flicker(build_dir)
    print(f"\n4. a reader missing 25 % of its reads: {offs} flicker(s) in 60 s ({sweeps} sweeps; "
          f"OFF needs 6 missed scans in a row: 0.25^6 = {0.25 ** 6:.1e} a sweep)")
    report = run_script((FIRMWARE_DIR / "sim" / "busy_table.txt").read_text(), build_dir=build_dir).report
    print(f"\n5. flash {report['flash']:,} of {report['flash_total']:,} bytes "
          f"({100 * report['flash'] / report['flash_total']:.1f} %); RAM {report['ram_static']:,} static + "
          f"{report['stack_peak']} stack (measured, busy table) = {report['ram_static'] + report['stack_peak']:,} "
          f"of 8,192 bytes: {report['ram_free_pct']:.1f} % left (target >= 25 %)")
    host50, host99 = host_p99()
    empty50, empty99, _ = figures["empty table"]
    dealt50, dealt99, _ = figures["beside a dealt hand"]
    usb = 4.0   # ATmega16U2 USB-serial bridge + the host's 1 ms USB frames: a few ms, not measured here
    print(f"\n   host: pty frame -> observation p50 {host50:.2f} ms, p99 {host99:.2f} ms (target p99 < 5 ms)")
    print(f"   end to end on a real table, card placed -> referee event, p99: firmware {empty99:.0f} ms "
          f"(empty table) to {dealt99:.0f} ms (beside a dealt hand) + USB up to ~{usb:.0f} ms + host "
          f"{host99:.1f} ms = {empty99 + usb + host99:.0f} to {dealt99 + usb + host99:.0f} ms: the readers' "
          f"scan is {100 * empty99 / (empty99 + usb + host99):.0f} to {100 * dealt99 / (dealt99 + usb + host99):.0f} "
          f"% of it, the host's share {host99:.1f} ms")


if __name__ == "__main__":
    run()
