"""No accusation rests on one read of one sensor: the table referee under the real sensors' faults.

Issue 11's target: ``referee simulate --faults realistic``, 10,000 hands each of
contrée and classic, with camera only, RFID only, and both: 0 false
accusations, 100 % recall, no crash; and as few questions to the console per
hand as can be (a club's referee must not be drowned in them). The realistic
preset (:data:`referee.sensor_faults.REALISTIC`): the camera misreads 4 % of
the cards as the real reader does (same rank in the other suit, neighbouring
ranks; a fifth of the misreads at a confidence of 0.9 or more) and cannot read
10 %; each RFID edge is missed 30 % of the time.

The simulated console (:class:`referee.oracle.Oracle`) answers what the table
asks as a careful referee who saw the table would: a "to confirm" question
waits until the referee presses it (the sensors get their chance first), and
is then answered with the card really played (confirm, or the right card).
A planted violation counts as flagged once confirmed, by a second read or at
the console; one no sensor saw anything of (a wrong pickup whose pile reads
were all missed) is counted apart, not in the recall.

Beside them, issue 11's three measured runs, with the figures the issue gave
(before this work).

``BENCH_TRUST_HANDS`` sets the hands per configuration (default 10000).
"""

from __future__ import annotations

import os
import time

from referee.measure import run as run_simulation
from referee.sensor_faults import parse_faults

TABLES = (("both", "realistic"), ("camera only", "realistic,rfid=false"), ("RFID only", "realistic,camera=false"))
#: issue 11's runs: (hands, rules, faults, seed, what the issue measured before)
ISSUE_RUNS = ((1500, "ffb-contree", "misread=0.05,rfid_miss=0.2,knocked=0.05", 11,
               "84 false accusations, 1 missed wrong pickup"),
              (1500, "contree", "misread=0.10,unreadable=0.1,takeback=0.1", 14, "5 false accusations"),
              (1000, "contree", "camera=false,rfid_miss=0.3,duplicate=0.2", 13,
               "crash: LookupError, the ground truth has no play for conflict ... card-unknown"))


def _row(m) -> str:
    d = m.as_dict()
    return (f"{m.hands:>6} {m.planted:>7} {m.flagged:>7} {m.recall:>8.2%} {m.false_accusations:>6} "
            f"{d['conflicts_per_hand']:>7.2f} {d['to_confirm_per_hand']:>7.3f} {m.told / max(m.hands, 1):>6.2f} "
            f"{m.to_confirm_by_sensor:>7} "
            f"{m.to_confirm_left:>5} {m.untraced:>5} {d['hands_exact_share']:>8.2%}")


def _measure(hands: int, seed: int, faults: str, rules: str):
    start = time.perf_counter()
    try:
        m = run_simulation(hands, seed, parse_faults(faults), rules)
    except Exception as exc:                       # a crash is a figure too
        return None, f"CRASH {type(exc).__name__}: {str(exc)[:120]}", time.perf_counter() - start
    return m, _row(m), time.perf_counter() - start


def run() -> None:
    hands = int(os.environ.get("BENCH_TRUST_HANDS", "10000"))
    head = (f"{'rules':8} {'sensors':12} {'hands':>6} {'planted':>7} {'flagged':>7} {'recall':>8} {'false':>6} "
            f"{'q/hand':>7} {'tc/hand':>7} {'told':>6} {'2nd-rd':>7} {'left':>5} {'unsn':>5} {'exact':>8}  seconds")
    print(f"referee simulate --faults realistic, {hands} hands per line (seed 1); q/hand: questions the "
          f"console had to answer per hand (the record waits), tc/hand: of which 'to confirm'; told: conflicts "
          f"per hand the console was only told of (a camera read the RFID overruled); 2nd-rd: violations to "
          f"confirm a second read confirmed; left: never confirmed; unsn: planted but seen by no sensor (not "
          f"counted)")
    print(head)
    questions = {}
    for rules in ("contree", "classic"):
        for name, faults in TABLES:
            m, row, seconds = _measure(hands, 1, faults, rules)
            print(f"{rules:8} {name:12} {row}  {seconds:.0f}", flush=True)
            if m is not None:
                questions[(rules, name)] = m.questions
    print("\nquestions per hand by kind (card-unknown: a card no sensor could read; out-of-turn: the order "
          "of a trick; deal, gathered, turned: the deal; camera-only: a camera read that is not sure; "
          "card-mismatch: camera and RFID disagree; to-confirm)")
    for (rules, name), q in questions.items():
        per = ", ".join(f"{k} {v / hands:.3f}" for k, v in sorted(q.items()))
        print(f"  {rules:8} {name:12} {per}")
    print("\nissue 11's runs, before (the issue's figures) and now:")
    print(f"{'':40} {'hands':>6} {'planted':>7} {'flagged':>7} {'recall':>8} {'false':>6} {'q/hand':>7} "
          f"{'tc/hand':>7} {'told':>6} {'2nd-rd':>7} {'left':>5} {'unsn':>5} {'exact':>8}")
    for n, rules, faults, seed, before in ISSUE_RUNS:
        _, row, seconds = _measure(n, seed, faults, rules)
        print(f"  --rules {rules} --faults {faults} --seed {seed}")
        print(f"    before: {before}")
        print(f"    now:    {'':30}{row}  ({seconds:.0f} s)", flush=True)
