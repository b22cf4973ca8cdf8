"""The live analysis on the stream: how long after a card the par reaches the
broadcast feed and the win chance the venue feed.

1. **On the stream**: the real server (``belote-table demo --no-camera``, the
   simulated table's firmware over a pseudo-terminal, the bridge, the table
   referee, the analysis workers) with no broadcast delay; one raw SSE client on
   each feed. For every card, the time from the change that shows it to the
   change that carries the analysis of that position (same client, same clock).
   Positions the worker skipped because a newer card had come (newest position
   wins) are counted, not timed: their cards are marked by the next par line.
2. **The work itself**, in this process: the par line (``referee.live_par``) and
   the win chance (100 worlds, from the public record) after every card of
   seeded games, as the analysis worker computes them.

    python -m bench live_analysis          # or: make bench
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bench._serving import stop_server

ROOT = Path(__file__).resolve().parents[1]
SECONDS = 150            # of demo play watched on the stream
SPEED = 6                # the demo's pace (a card about every 0.6 s)
GAMES = 3                # seeded games for the in-process figures


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))] if values else float("nan")


def _line(name: str, values: list[float], extra: str = "") -> None:
    if not values:
        print(f"{name:44} (none)")
        return
    print(f"{name:44} n={len(values):4}  median {statistics.median(values):8.2f}  p90 {_pct(values, .9):8.2f}  "
          f"p99 {_pct(values, .99):8.2f}  max {max(values):8.2f} ms{extra}")


class Feed(threading.Thread):
    """One raw SSE client: the state after each message, with its arrival time."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.states: list[tuple[float, dict]] = []

    def run(self) -> None:
        state: dict = {}
        event = ""
        try:
            for raw in urllib.request.urlopen(self.url, timeout=60):
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    if event == "snapshot":
                        state = data
                    else:
                        state = {**state, **data.get("set", {})}
                        for key in data.get("del", []):
                            state.pop(key, None)
                    self.states.append((time.perf_counter(), state))
        except (OSError, ValueError):
            pass


def _position(state: dict) -> tuple | None:
    """(game, hand, cards played) of a state in play."""
    if state.get("status") != "play":
        return None
    trick = state.get("trick") or {}
    return state.get("game"), (state.get("hand") or {}).get("number"), \
        (trick.get("number", 1) - 1) * 4 + len(trick.get("cards") or [])


def _lags(feed: Feed, note: str) -> tuple[list[float], int]:
    """Per position: card shown -> its analysis on the same feed (ms); and how many were skipped.
    The par needs the four hands: a hand whose deal no sensor read has none, and is left out."""
    shown: dict[tuple, float] = {}
    done: dict[tuple, float] = {}
    for arrival, state in feed.states:
        where = _position(state)
        if where is None or (note == "par" and "hands" not in state):
            continue
        shown.setdefault(where, arrival)
        analysis = state.get(note) or {}
        key = (analysis.get("game"), analysis.get("hand"), analysis.get("played"))
        if key in shown and key not in done:
            done[key] = arrival
    lags = [(done[k] - shown[k]) * 1000 for k in shown if k in done and k[2] > 0]
    skipped = sum(1 for k in shown if k not in done and k[2] > 0)
    return lags, skipped


def on_the_stream() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "commands.main", "demo", "--no-camera", "--speed", str(SPEED),
                                 "--broadcast-delay", "0", "--port", "0", "--instance", tmp],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        base = ""
        for line in proc.stderr:
            if m := re.search(r"Dashboard: (http://[^/]+)/club", line):
                base = m.group(1)
            if "Stop with Ctrl-C" in line:
                break
        failures: list[str] = []          # the analysis' own complaints, if any

        def drain() -> None:
            for line in proc.stderr:
                if failures or line.startswith("analysis"):
                    failures.append(line)
        threading.Thread(target=drain, daemon=True).start()
        try:
            feeds = {name: Feed(f"{base}/stream/t1?feed={name}") for name in ("broadcast", "venue")}
            for feed in feeds.values():
                feed.start()
            print(f"watching the demo at --speed {SPEED} for {SECONDS} s ...", file=sys.stderr, flush=True)
            time.sleep(SECONDS)
            par, par_skipped = _lags(feeds["broadcast"], "par")
            chance, chance_skipped = _lags(feeds["venue"], "win_chance")
            _line("card -> par on the broadcast feed", par, f"  ({par_skipped} positions skipped)")
            _line("card -> win chance on the venue feed", chance, f"  ({chance_skipped} positions skipped)")
            if failures:
                print("the server said:\n" + "".join(failures[:40]))
        finally:
            stop_server(proc)


def the_work() -> None:
    from referee.analysis import effective_events
    from referee.demo import play_demo_game
    from referee.live_par import LivePar
    from referee.winchance import WinChanceError, win_chance
    from web_dashboard.analyst import WORLDS, public_record

    par_ms: list[float] = []
    chance_ms: dict[str, list[float]] = {"trick 1": [], "from trick 2": []}
    for seed in range(1, GAMES + 1):
        record = play_demo_game(seed=seed)
        live = LivePar()
        in_hand = 0
        for n in range(2, len(record) + 1):
            event = record[n - 1]
            in_hand = 0 if event["type"] == "deal" else in_hand + (event["type"] == "play")
            if event["type"] not in ("play", "call"):
                continue
            start = time.perf_counter()
            live.update(record[:n])
            par_ms.append((time.perf_counter() - start) * 1000)
            if event["type"] != "play" or in_hand >= 32:
                continue
            public = effective_events(public_record(record[:n]))
            start = time.perf_counter()
            try:
                win_chance(public, worlds=WORLDS, seed=n)
            except WinChanceError:
                continue
            chance_ms["trick 1" if in_hand < 4 else "from trick 2"].append((time.perf_counter() - start) * 1000)
        print(f"  game {seed}: {len(record)} events", file=sys.stderr, flush=True)
    _line("par line after a call or a card (worker)", par_ms)
    for when, values in chance_ms.items():
        _line(f"win chance, {WORLDS} worlds, {when} (worker)", values)


def run() -> None:
    the_work()
    on_the_stream()


if __name__ == "__main__":
    run()
