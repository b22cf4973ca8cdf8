"""The play benchmark stays runnable: ``python -m bench referee`` prints every engine's row,
the ratios, the memory per state, and a clean differential run."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the bench package, at the repo root

import bench.referee  # noqa: E402


def test_bench_prints_side_by_side_figures_and_a_clean_differential(capsys):
    bench.referee.run(hands=40, repeats=1, differential=40)
    out = capsys.readouterr().out
    for engine in ("ours", "colver", "belote-cli"):
        assert re.search(rf"^\S.*\s{re.escape(engine)}\s+[\d,]+\s+[\d,]+$", out, re.M), engine
    assert len(re.findall(r"^ratio ours / \S+\s+[\d.]+x\s+[\d.]+x$", out, re.M)) == 2
    per_state = int(re.search(r"bytes per hand state .*: ([\d,]+)", out).group(1).replace(",", ""))
    assert 100 < per_state < 1024                 # the bound: under 1 KB per hand state
    assert out.count(" 0 undocumented disagreements") == 2
