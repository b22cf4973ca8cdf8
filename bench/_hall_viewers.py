"""Viewers of ``/stream/hall`` for ``bench/hall.py``, in a process of their own
(so that parsing 200 streams does not slow the tables being measured): each
records when it first saw each table reach each sequence number
(``time.monotonic``, one clock for every process of the machine); on SIGTERM
the process writes ``{"table seq": [times...]}`` as JSON and exits.

    python -m bench._hall_viewers URL COUNT OUT.json
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
import urllib.request


def main(url: str, count: int, out: str) -> None:
    seen: list[dict] = [{} for _ in range(count)]

    def read(i: int) -> None:
        try:
            with urllib.request.urlopen(url, timeout=3600) as response:
                for raw in response:
                    if raw.startswith(b"data: "):
                        now = time.monotonic()
                        data = json.loads(raw[6:])
                        for key, line in data.get("set", data).items():
                            if key.startswith("table:") and isinstance(line, dict):
                                seen[i].setdefault(f"{line['id']} {line['seq']}", now)
        except (OSError, ValueError):
            pass

    for i in range(count):
        threading.Thread(target=read, args=(i,), daemon=True).start()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    print("ready", flush=True)
    done.wait()
    with open(out, "w") as handle:
        json.dump(seen, handle)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
