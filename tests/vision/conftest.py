"""The real classic deck as ``vision evaluate``'s new user enrols it, once
per test session for every vision test that reads the real photos.

Enrolled by the evaluation's own code (``vision.evaluate.new_user_deck``:
per card, the first single-card photo ``calibrate deck``'s check accepts),
not from a list of shots kept here: a list went stale twice when the shot
check changed (a Tc taken from another shot, then four cards more), and the
tests read with a deck the evaluation no longer enrols."""

import pytest

from referee.cards import card_name
from vision.corner_read import corner_model
from vision.evaluate import DESIGNS, label_fixes, load_dataset, new_user_deck

from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)


@pytest.fixture(scope="session")
def classic(tmp_path_factory):
    """The classic deck enrolled from the first accepted shot of each card (all 32 since round 23)."""
    photos = [p for p in load_dataset(DATASET, label_fixes()) if p.name.startswith(DESIGNS["classic"])]
    deck, _, _ = new_user_deck(photos, tmp_path_factory.mktemp("new-user"), lambda message: None)
    assert len(deck.cards) == 32, sorted(card_name(c) for c in deck.cards)
    corner_model(deck)
    return deck
