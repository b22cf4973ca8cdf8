"""``belote-table demo/run/serve`` refuse what they cannot start with a
sentence on stderr and exit 2, leaving nothing behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args, says", [
    (["demo", "--speed", "0"], "--speed must be more than 0"),
    (["demo", "--rules", "nosuch"], "try --rules ffb-contree"),
    (["serve", "--seats", "Ana,Bo"], "--seats takes four names"),
    (["serve", "--tables", "0"], "--tables must be at least 1"),
    (["run", "--profile", "/nonexistent/profile"], "is not a table profile"),
])
def test_bad_start_says_what_to_fix_and_exits_2(tmp_path, args, says):
    done = subprocess.run([sys.executable, "-m", "commands.main", *args, "--port", "0",
                           "--instance", str(tmp_path / "var")], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and done.stdout == ""
    assert not list((tmp_path / "var" / "games").glob("*.sqlite"))


def test_a_port_that_cannot_be_is_a_sentence_not_a_traceback(tmp_path):
    """Issue 12: ``--port 99999`` ended in a traceback."""
    done = subprocess.run([sys.executable, "-m", "commands.main", "demo", "--port", "99999",
                           "--instance", str(tmp_path / "var")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "99999 is not a port: ports go from 1 to 65535" in done.stderr


def test_make_demo_takes_the_port(tmp_path):
    """Issue 12: ``make demo`` offered no way to choose the port (README: make demo PORT=8080)."""
    done = subprocess.run(["make", "-n", "demo", "PORT=8080"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "belote-table demo --port 8080" in done.stdout
    assert "make demo PORT=8080" in (ROOT / "README.md").read_text()
