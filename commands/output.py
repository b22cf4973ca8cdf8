"""What a command tells the person at the terminal, the same way everywhere.

Results go to stdout (so ``--json`` output can be piped); progress, warnings
and errors go to stderr. A refusal is one sentence that says what to fix,
and the command exits 2.
"""

from __future__ import annotations

import sys


def say(text: str) -> None:
    """A line for the person (progress, a warning), flushed at once."""
    print(text, file=sys.stderr, flush=True)


def fail(message: str) -> int:
    """Say what went wrong and what to do; the exit status of bad input."""
    say(f"belote-table: {message}")
    return 2
