"""Run every benchmark module in turn (``make bench``), or those named: ``python -m bench referee``."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = argv or sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    for name in names:
        print(f"\n== bench.{name} ==", flush=True)
        importlib.import_module(f"bench.{name}").run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
