"""Command line of the table referee.

- ``belote-table scoresheet GAME.jsonl --format csv|json|pdf [--out F]``: the
  club score sheet of a game record.
- ``belote-table referee simulate --hands N --faults ... --seed S``: referee a
  seeded noisy table and print recall, false accusations, conflicts per hand
  and hands scored exactly (``--json`` for one JSON object).
- ``belote-table referee ingest OBS.jsonl --store GAME.db``: ingest an
  observation log into a game store; run it again after a crash and it
  resumes where the store stopped.
- ``belote-table referee export GAME.db [--out GAME.jsonl]``: the game record
  of a store.

Results go to stdout, progress and messages to stderr; bad input exits 2 with
what to fix. Heavy modules are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .output import fail


def register(subparsers: argparse._SubParsersAction) -> None:
    sheet = subparsers.add_parser("scoresheet", help="a game's score sheet as CSV, JSON or a printable A4 PDF",
                                  description="The club score sheet of a game record: per hand the dealer, "
                                              "contract, card points, belote, declarations, result, points and "
                                              "running totals, with the violations.")
    sheet.add_argument("record", metavar="GAME.jsonl", help="the game record (- reads stdin)")
    sheet.add_argument("--format", choices=("csv", "json", "pdf"), default="csv")
    sheet.add_argument("--out", metavar="FILE", help="write to FILE (needed for a PDF on a terminal)")
    sheet.set_defaults(func=_scoresheet)


def register_referee(sub: argparse._SubParsersAction) -> None:
    """The table referee's commands under ``belote-table referee``."""
    sim = sub.add_parser("simulate", help="referee a seeded noisy simulated table and measure it",
                         description="Play whole games on a simulated table (camera + RFID with faults, "
                                     "planted violations), referee them, answer conflicts as the ground truth "
                                     "says, and print recall, false accusations, conflicts per hand and hands "
                                     "scored exactly.")
    sim.add_argument("--hands", type=int, default=1000, help="hands to referee (default 1000)")
    sim.add_argument("--faults", default="default",
                     help="default, none, or name=rate,... over the defaults: misread unreadable rfid_miss "
                          "rfid_late duplicate knocked takeback violations (rates 0-1), camera rfid (true/false)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--rules", default="ffb-contree",
                     help="a rules profile (default ffb-contree; classic and classic-501 are dealt in two rounds)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--strict", action="store_true",
                     help="exit 1 unless recall is 100%%, no false accusation and every hand scored exactly")
    sim.set_defaults(func=_simulate)

    ingest = sub.add_parser("ingest", help="ingest an observation log into a game store (resumable)",
                            description="Ingest observations (JSON Lines) into a SQLite game store. Run it again "
                                        "after a crash: it resumes after the last committed line.")
    ingest.add_argument("observations", metavar="OBS.jsonl")
    ingest.add_argument("--store", required=True, metavar="GAME.db")
    ingest.add_argument("--rules", default="ffb-contree", help="rules profile of a new store")
    ingest.add_argument("--burst", type=int, default=64, help="observations per transaction (default 64)")
    ingest.set_defaults(func=_ingest)

    export = sub.add_parser("export", help="the game record (JSON Lines) of a game store")
    export.add_argument("store", metavar="GAME.db")
    export.add_argument("--out", metavar="FILE")
    export.set_defaults(func=_export)


def _scoresheet(args: argparse.Namespace) -> int:
    from referee.record import RecordError, read_record
    from referee.scoresheet import Scoresheet

    try:
        lines = read_record(args.record)
        sheet = Scoresheet.from_record(lines)
    except RecordError as exc:
        return fail(f"{exc} (fix the record, then run scoresheet again)")
    data = sheet.render(args.format)
    if args.out:
        with open(args.out, "wb") as handle:
            handle.write(data)
        print(f"wrote {args.out} ({len(sheet.rows)} hands, {args.format})", file=sys.stderr)
        return 0
    if args.format == "pdf" and sys.stdout.isatty():
        return fail("a PDF is not for a terminal: add --out sheet.pdf (or pipe it)")
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from referee.measure import run
    from referee.sensor_faults import FaultsError, parse_faults

    try:
        faults = parse_faults(args.faults)
    except FaultsError as exc:
        return fail(str(exc))
    if args.hands < 1:
        return fail("--hands must be at least 1")

    def progress(done: int, total: int) -> None:
        print(f"\rrefereed {done}/{total} hands", end="", file=sys.stderr, flush=True)

    try:
        m = run(args.hands, args.seed, faults, args.rules, progress=progress, clock=time.perf_counter)
    except ValueError as exc:
        print(file=sys.stderr)
        return fail(str(exc))
    print(file=sys.stderr)
    d = m.as_dict()
    if args.json:
        print(json.dumps(d))
    else:
        rows = [("hands refereed", f"{m.hands} ({m.games} games, {m.observations} observations)"),
                ("planted violations flagged (recall)", f"{m.flagged}/{m.planted} = {m.recall:.2%}"),
                ("  ... of which with no console answer", f"{m.flagged_without_console}"),
                ("planted but seen by no sensor (not counted)", str(m.untraced)),
                ("accusations not planted", str(m.false_accusations)),
                ("questions to the console per hand", f"{d['conflicts_per_hand']:.3f} ({m.conflicts} in all; "
                                                      f"{m.told / max(m.hands, 1):.3f} per hand only told of)"),
                ("  ... of which 'to confirm'", f"{d['to_confirm_per_hand']:.3f} per hand ({m.to_confirm_asked}); "
                                                f"{m.to_confirm_by_sensor} confirmed by a second read, "
                                                f"{m.to_confirm_left} left unconfirmed"),
                ("hands scored exactly", f"{m.hands_exact}/{m.hands} = {d['hands_exact_share']:.2%}"),
                ("speed", f"{d['observations_per_second']} observations/s (simulation included)")]
        rows += [(f"  {kind}", f"{v['flagged']}/{v['planted']}") for kind, v in d["by_kind"].items()]
        width = max(len(r[0]) for r in rows)
        for name, value in rows:
            print(f"{name:<{width}}  {value}")
        for example in d["false_examples"] + d["missed_examples"]:
            print(f"  example: {json.dumps(example, ensure_ascii=False)}", file=sys.stderr)
    ok = m.recall == 1.0 and m.false_accusations == 0 and m.hands_exact == m.hands
    return 1 if args.strict and not ok else 0


def _ingest(args: argparse.Namespace) -> int:
    from referee.record import RecordError
    from referee.store import StoreError, ingest_file

    def progress(line: int) -> None:
        print(f"\ringested {line} lines", end="", file=sys.stderr, flush=True)

    unreadable: list[tuple[int, str]] = []
    try:
        referee = ingest_file(args.observations, args.store, args.rules, max(args.burst, 1), progress,
                              unreadable=lambda line, why: unreadable.append((line, why)))
    except (OSError, StoreError) as exc:
        return fail(f"{exc}")
    except RecordError as exc:                      # the new store's header: an unknown --rules
        return fail(f"--rules {args.rules}: {exc.message}")
    counts = referee.store.counts()
    for oid, why in referee.set_aside:
        print(f"\robservation {oid} is set aside: {why}", file=sys.stderr)
    referee.close()
    print(f"\r{counts['accepted']} observations accepted, {counts['rejected']} rejected, "
          f"{counts['events']} game events in {args.store}", file=sys.stderr)
    if unreadable:
        for line, why in unreadable[:10]:
            print(f"{args.observations}:{line}: {why}", file=sys.stderr)
        more = f" (and {len(unreadable) - 10} more)" if len(unreadable) > 10 else ""
        return fail(f"{len(unreadable)} line(s) of {args.observations} are not observations{more}: they are "
                    f"stored as rejected and every other line is in {args.store}; fix the source if they "
                    f"should have counted")
    return 0


def _export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from referee.record import iter_lines
    from referee.store import EventStore, StoreError

    if not Path(args.store).exists():
        return fail(f"{args.store} does not exist: give the path of a game store (.db)")
    try:
        lines = EventStore(args.store).export_record()
    except StoreError as exc:
        return fail(str(exc))
    text = "".join(iter_lines(lines))
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out} ({len(lines)} lines)", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
