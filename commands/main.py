"""The ``belote-table`` command: one entry point, a sub-command per part.

Each command group is a module of this package with a ``register(subparsers)``
function. Those modules import nothing heavy at the top, so ``belote-table
referee legal`` starts without loading OpenCV or Flask.

Exit codes: 0 success, 1 the check found a problem (e.g. violations when asked
to fail on them), 2 bad input (the message says what to fix), 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys

#: The command groups, in the order ``--help`` lists them.
PARTS = ("commands.referee", "commands.table_referee", "commands.bridge", "commands.vision", "commands.calibrate",
         "commands.web", "commands.hall")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="belote-table",
        description="A card table that referees Belote live.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in PARTS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    # Ctrl-C stops every command cleanly (exit 130), even when a parent shell
    # started us with SIGINT ignored, as shells do for background jobs.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
