"""Presence debounce for RFID reads, the same algorithm as ``firmware/scan.c``.

Real readers miss a tag now and then and read a tag briefly as it slides past:
a tag counts as present after ``on_scans`` consecutive scans that read it, and
as gone after ``off_scans`` consecutive scans that do not. The firmware runs it
in C; the virtual table and the off-the-shelf reader adapters run this copy,
and ``firmware/debounce_vectors.txt`` keeps the two identical.

>>> d = Debouncer(on_scans=2, off_scans=2)
>>> d.scan(0, ["04AA"]), d.scan(0, ["04AA"]), d.scan(0, []), d.scan(0, [])
([], [('04AA', True)], [], [('04AA', False)])
"""

from __future__ import annotations

MAX_TAGS_PER_ANTENNA = 8   # what one antenna tracks (a C array in the firmware)


class Debouncer:
    def __init__(self, on_scans: int = 2, off_scans: int = 3):
        if on_scans < 1 or off_scans < 1:
            raise ValueError("on_scans and off_scans must be at least 1")
        self.on_scans, self.off_scans = on_scans, off_scans
        self._tracks: dict = {}   # antenna -> {uid: [present, hits, misses]}, in first-seen order

    def present(self, antenna: int) -> list:
        return [uid for uid, (on, _, _) in self._tracks.get(antenna, {}).items() if on]

    def clear(self) -> None:
        self._tracks.clear()

    def scan(self, antenna: int, uids_read) -> list:
        """One scan of one antenna; returns the edges ``[(uid, on), ...]`` it completes."""
        tracks = self._tracks.setdefault(antenna, {})
        read = set(uids_read)
        edges = []
        for uid in list(tracks):
            track = tracks[uid]
            if uid in read:
                continue
            track[1], track[2] = 0, track[2] + 1
            if not track[0]:
                del tracks[uid]            # a candidate that did not last
            elif track[2] >= self.off_scans:
                del tracks[uid]
                edges.append((uid, False))
        for uid in dict.fromkeys(uids_read):
            track = tracks.get(uid)
            if track is None:
                if len(tracks) >= MAX_TAGS_PER_ANTENNA:
                    continue               # the pile is beyond what we track: best-effort
                track = tracks[uid] = [False, 0, 0]
            track[1], track[2] = track[1] + 1, 0
            if not track[0] and track[1] >= self.on_scans:
                track[0] = True
                edges.append((uid, True))
        return edges
