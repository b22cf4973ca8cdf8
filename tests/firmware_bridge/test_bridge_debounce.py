"""The presence debounce's promises, for any sequence of reads a flaky reader can produce."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.debounce import MAX_TAGS_PER_ANTENNA, Debouncer


@given(st.integers(1, 4), st.integers(1, 4), st.lists(st.booleans(), max_size=80))
def test_edges_follow_runs_of_reads_and_misses(on_scans, off_scans, reads):
    debouncer = Debouncer(on_scans, off_scans)
    present, run_read, run_miss = False, 0, 0
    for read in reads:
        edges = debouncer.scan(0, ["04A1B2C3"] if read else [])
        run_read, run_miss = (run_read + 1, 0) if read else (0, run_miss + 1)
        if not present and run_read == on_scans:
            assert edges == [("04A1B2C3", True)], "ON exactly when the reads reach on_scans"
            present = True
        elif present and run_miss == off_scans:
            assert edges == [("04A1B2C3", False)], "OFF exactly when the misses reach off_scans"
            present = False
        else:
            assert edges == [], "a flicker or a short miss changes nothing"
        assert debouncer.present(0) == (["04A1B2C3"] if present else [])


@given(st.lists(st.sets(st.integers(0, 15), max_size=12), max_size=40))
def test_a_pile_tracks_at_most_its_limit_and_never_reports_a_tag_twice(scans):
    debouncer = Debouncer(1, 1)
    on: set = set()
    for scan in scans:
        for uid, present in debouncer.scan(3, [f"04{u:06X}" for u in sorted(scan)]):
            assert (uid in on) != present, "edges alternate per tag"
            (on.add if present else on.discard)(uid)
        assert len(on) <= MAX_TAGS_PER_ANTENNA
        assert set(debouncer.present(3)) == on
