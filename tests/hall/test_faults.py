"""Faults a hall must survive, each against the real engines: nats-server
(hall and boards), PostgreSQL, socat cutting the link. After each one the
hall's record of every table equals that table's own store, event for event.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from hall_harness import FAST, ROOT, Board, HallProcess, Proxy, hall_copy, wait_equal

from hall.db import HallDB


def boards(hall, workdir, n, **kw):
    return [Board(workdir / f"b{i}", f"t{i}", hall.url_via(hall.proxy), seed=i, **kw) for i in range(1, n + 1)]


def play(tables, k):
    for board in tables:
        board.play(k)


def test_a_ten_second_link_cut_during_play(hall, workdir):
    tables = boards(hall, workdir, 3)
    play(tables, 15)
    wait_equal(hall.dsn, tables)
    hall.proxy.cut()
    held = HallDB(hall.dsn).counts()
    cut_at = time.monotonic()
    while time.monotonic() - cut_at < 10:               # the tables play on through the outage
        play(tables, 2)
        time.sleep(0.5)
    view = hall.hall_view()
    assert HallDB(hall.dsn).counts() == held, "events reached the hall through a cut link"
    lines = {line["id"]: line for line in view["tables"]}
    assert all(lines[b.table_id]["link"] == "offline" for b in tables), [(l["link"], l["lag"]) for l in lines.values()]
    assert all(lines[b.table_id]["lag"]["seconds"] >= 5 for b in tables), lines
    hall.proxy.restore()
    took = wait_equal(hall.dsn, tables, timeout=30)
    assert took < 15, f"catching up took {took:.1f} s"
    play(tables, 5)                                      # and the hall keeps following afterwards
    wait_equal(hall.dsn, tables)
    for board in tables:
        board.stop()
