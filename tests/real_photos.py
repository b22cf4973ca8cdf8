"""Where the tests find the real photo sets: ``tests/data/`` in the repository
(a subset of ``shared/datasets`` with its licences, see tests/data/README.md),
so a clone from anywhere passes its tests without ``../shared`` beside it.

Imported by the vision tests (``from real_photos import CARDCOUNTER_REAL as
DATASET``); a set that is missing stops them at once with a sentence that says
which folder and what to do, instead of a ``None`` image deep in a test."""

from pathlib import Path

import pytest

#: The folder of the sets, beside this file.
DATA = Path(__file__).resolve().parent / "data"
#: What each set must hold for the tests to read it.
NEEDED = {"cardcounter_real": ("manifest.csv", "classes.txt", "images", "labels"),
          "bidly_deals": ("faces", "deals", "LICENSE")}


def dataset_dir(name: str) -> Path:
    """``tests/data/<name>``, failing the test run with what is missing."""
    root = DATA / name
    missing = [part for part in NEEDED[name] if not (root / part).exists()]
    if missing:
        pytest.fail(f"the real photo set {name} is incomplete: {', '.join(missing)} missing in {root}; "
                    f"it is committed with the repository (git checkout -- tests/data restores it)",
                    pytrace=False)
    return root


CARDCOUNTER_REAL = dataset_dir("cardcounter_real")
#: The folder holding both sets (``vision.photo_sets.deck_faces`` takes it).
DATASETS = dataset_dir("bidly_deals").parent
