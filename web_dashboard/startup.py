"""What starting a table tells the person who started it: progress on
stderr (:func:`say`), and :class:`SetupError` for a problem they can fix.

Every part of the composition root (``launch``, ``server``, ``table_runner``,
``sensors``, ``demo_table``) speaks through these two, and the command prints
a ``SetupError`` and exits 2 before anything is left half started.
"""

from __future__ import annotations

import sys


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class SetupError(Exception):
    """A start-up problem the person can fix (bad option, missing profile, busy
    port); the message says how. The command prints it and exits 2."""
