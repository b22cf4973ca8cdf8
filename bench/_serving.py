"""A real ``serve`` started for a benchmark: its address, and what else its start-up lines say.

The web benchmarks measure the server a club runs, as a separate process on
a free port, and read what they need (the dashboard's address, the console's
password or sign-in link) from the lines it prints while starting."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parents[1]


def start_server(instance: Path, options: list[str], wanted: dict[str, str],
                 program: Optional[list[str]] = None,
                 preexec_fn: Optional[Callable[[], None]] = None) -> tuple[subprocess.Popen, str, dict[str, str]]:
    """``serve --port 0 --instance INSTANCE OPTIONS``; returns the process, the
    dashboard's base address and, for each name of ``wanted``, the first match
    of its pattern's group 1 in the start-up lines ("" when never printed)."""
    program = program or ["-m", "commands.main"]
    proc = subprocess.Popen([sys.executable, *program, "serve", "--port", "0", "--instance", str(instance),
                             *options], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=preexec_fn)
    base, found = "", {name: "" for name in wanted}
    deadline = time.monotonic() + 60
    for line in proc.stderr:
        if m := re.search(r"Dashboard: (http://[^/]+)/club", line):
            base = m.group(1)
        for name, pattern in wanted.items():
            if not found[name] and (m := re.search(pattern, line)):
                found[name] = m.group(1)
        if "Stop with Ctrl-C" in line or time.monotonic() > deadline:
            break
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    if not base:
        proc.kill()
        raise RuntimeError("the server did not start")
    return proc, base, found


def stop_server(proc: subprocess.Popen) -> None:
    """Stop it as Ctrl-C does (it closes its stores), or kill it after 10 s."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
