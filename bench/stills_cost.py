"""What one still photo costs the reader (``vision.recognize``), one core.

The live loop reads the newest card from what changed (``bench.vision``:
milliseconds a frame); a still photo is read whole: SIFT over the photo,
the keypoints matched again inside each outline, ECC and the correlation
for every candidate at every place, the index corners. A square photo
whose keypoints prove no card as it is is looked at again made 4:3 and
16:9 (``vision.stretch.looked_at``: five SIFT passes instead of one), so
the two kinds are timed apart.

What it reads: the real classic deck (``shared/datasets/cardcounter_real``,
640 x 640 phone photos), enrolled as a new user (``vision.evaluate.
new_user_deck``), then ``BENCH_STILLS_COST_PHOTOS`` of its other photos
(default 24, in name order). Times are the thread's CPU time (a shared
machine's wall clock also counts other processes); medians, as the machine
is noisy.

Peer: issue 11's first reader, measured by the product owner at 52 ms a
photo on 800 x 600 webcam photos of one card (other photos, other cards
per photo: a scale, not a race).

    BENCH_STILLS_COST_PHOTOS=8 python -m bench stills_cost
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

#: Issue 11's measured figure for the reader it was filed against (ms a photo).
PEER_MS = 52.0


def _cpu_ms(work) -> tuple[float, object]:
    start = time.thread_time()
    result = work()
    return 1000.0 * (time.thread_time() - start), result


def run() -> None:
    from vision import keypoints
    from vision.evaluate import load_dataset, new_user_deck
    from vision.face_match import despeckled
    from vision.recognize import recognize

    cv2.setNumThreads(1)
    count = int(os.environ.get("BENCH_STILLS_COST_PHOTOS", "24"))
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    photos = [p for p in load_dataset() if p.design() == "classic"]
    rows: dict[str, list[tuple[float, float, int]]] = {"proven as it is": [], "looked at stretched too": []}
    with tempfile.TemporaryDirectory() as tmp:
        say("real classic deck: enrolling as a new user")
        deck, used, _ = new_user_deck(photos, Path(tmp), say)
        rest = sorted((p for p in photos if p.name not in used), key=lambda p: p.name)[:count]
        recognize(cv2.imread(str(rest[0].path)), deck)          # the deck's keypoint index made once, not timed
        for i, photo in enumerate(rest, 1):
            image = cv2.imread(str(photo.path))
            keypoint_ms, found = _cpu_ms(lambda: keypoints.keypoint_candidates(despeckled(image), deck))
            total_ms, cards = _cpu_ms(lambda: recognize(image, deck))
            once = bool(found.hits) and found.hits[0].inliers >= keypoints.PROVEN and found.seen.stretch == 1.0
            rows["proven as it is" if once else "looked at stretched too"].append((total_ms, keypoint_ms, len(cards)))
            if i % 8 == 0 or i == len(rest):
                say(f"  {i}/{len(rest)} photos")
    print(f"one OpenCV thread; CPU time per 640 x 640 photo of `recognize` (real classic deck, {len(rest)} photos)")
    print(f"{'photos':28} {'n':>3} {'median ms':>10} {'max ms':>8} {'keypoints ms':>13} {'places':>7} "
          f"{'x peer':>7}")
    for name, got in list(rows.items()) + [("all", [r for v in rows.values() for r in v])]:
        if not got:
            continue
        total = statistics.median(r[0] for r in got)
        print(f"{name:28} {len(got):3d} {total:10.0f} {max(r[0] for r in got):8.0f} "
              f"{statistics.median(r[1] for r in got):13.0f} {statistics.median(r[2] for r in got):7.0f} "
              f"{total / PEER_MS:7.1f}")
    print(f"peer: issue 11's first reader, {PEER_MS:.0f} ms a photo (the owner's 800 x 600 webcam photos, one card)")
