"""Reading cards on real photos: enrol one photo per card, read held-out photos.

Bounds are the figures measured on the held-out photos (docs/vision.md) with a
margin for the smaller sample used here; the rule for abstaining is the one
the enrolment chose, not fitted to these photos.
"""


import cv2
import numpy as np
import pytest

from referee.cards import parse_card
from vision.enrol import deck_from_faces
from vision.evaluate import Photo, dataset_card, enrolment_candidates, load_dataset, truth_of
from vision.locate import find_cards
from vision.read import read_card

from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)


@pytest.fixture(scope="module")
def classic():
    return [p for p in load_dataset(DATASET) if p.design() == "classic"]


@pytest.fixture(scope="module")
def enrolled(classic):
    """One photo per card (the best of the first two usable, as ``vision
    evaluate`` picks), and the names of those photos."""
    candidates = enrolment_candidates(classic, per_card=2)
    # The stricter shot check (vision.shot) finds no clean single-card photo
    # of the 8 of spades in this in-the-wild set, and the 10 of spades only in
    # black and white (refused: its red/black cannot be told); those cards
    # count as foreign.
    assert len(candidates) >= 30, f"only {len(candidates)} cards enrolable from the set"
    deck = deck_from_faces({c: [shots[0][1]] for c, shots in candidates.items()})
    return deck, {shots[0][2] for shots in candidates.values()}


def _reads(photos: list[Photo], deck):
    """(truth card or None for a non-Belote card, read card or None, quad, image) per located card."""
    out = []
    for photo in photos:
        image = cv2.imread(str(photo.path))
        for quad in find_cards(image):
            kind, inside = truth_of(quad, photo)
            if kind == "card":
                card, confidence, details = read_card(image, quad, deck)
                out.append((dataset_card(next(iter(inside))), card, confidence, details, quad, image))
    return out


def test_held_out_photos_read_right_and_rarely_wrong(classic, enrolled):
    deck, used = enrolled
    held_out = [p for p in classic if p.name not in used][::3]
    # A card the deck lacks cannot be read right: foreign, as vision evaluate counts it.
    reads = [r for r in _reads(held_out, deck) if r[0] in deck.faces]
    right = sum(1 for t, c, *_ in reads if c == t)
    wrong = sum(1 for t, c, *_ in reads if c is not None and c != t)
    assert len(reads) >= 25
    # Measured on all held-out photos (docs/vision.md); this third's bounds
    # leave room for its smaller sample.
    assert wrong <= 1, f"{wrong} wrong reads of {len(reads)}"
    # 18 of 46 (39 %) since round 5: the shot check refuses black-and-white
    # shots, so the 9 and K of clubs are enrolled from colour photos, where
    # before they came from the set's black-and-white series, like many of
    # the held-out photos this reader (``read_card``) is tried on here.
    assert right >= 0.35 * len(reads), f"only {right} right of {len(reads)}"
    # Confidence means something: right reads are surer than wrong ones.
    if wrong:
        conf_right = np.median([conf for t, c, conf, *_ in reads if c == t])
        conf_wrong = np.median([conf for t, c, conf, *_ in reads if c is not None and c != t])
        assert conf_right > conf_wrong


def test_cards_of_a_52_card_pack_are_not_read(classic, enrolled):
    """2-6 and jokers lying among the Belote cards: a 6 must not come out as an 8."""
    deck, used = enrolled
    held_out = [p for p in classic if p.name not in used][1::3]
    foreign = [r for r in _reads(held_out, deck) if r[0] is None]
    assert len(foreign) >= 20
    read = [r for r in foreign if r[1] is not None]
    # Measured on all of them: none read (docs/vision.md).
    assert len(read) <= 1, f"{len(read)} of {len(foreign)} foreign cards read as Belote cards"


def test_abstaining_says_why(classic, enrolled):
    deck, used = enrolled
    held_out = [p for p in classic if p.name not in used][1::7]
    abstained = [d for t, c, conf, d, *_ in _reads(held_out, deck) if c is None]
    assert abstained, "expected some unclear cards in real photos"
    assert all("abstained" in d and d["runner_up"] for d in abstained)


def test_cards_of_another_deck_are_not_read(enrolled):
    """The black-and-gold deck was never enrolled: its cards must come out as
    unknown, never as a card of the classic deck."""
    deck, _ = enrolled
    others = [p for p in load_dataset(DATASET) if p.design() == "black-gold"][::3]
    reads = _reads(others, deck)
    assert len(reads) >= 10
    wrong = sum(1 for r in reads if r[1] is not None)
    # Measured on all of them: none read (docs/vision.md).
    assert wrong <= 1, f"{wrong} of {len(reads)} foreign cards read as a classic card"


def test_glare_on_one_corner_falls_back_to_the_other(classic, enrolled):
    deck, used = enrolled
    held_out = [p for p in classic if p.name not in used and len(p.cards) == 1][::4]
    good = [r for r in _reads(held_out, deck) if r[1] is not None and r[1] == r[0]][:4]
    assert good, "no clearly read card to test glare on"
    for truth, _, _, details, quad, image in good:
        glared = image.copy()
        # A white blown-out spot over the corner at quad[0] (an index corner or
        # the other corner: cards read either way up).
        centre = quad[0] + 0.18 * (quad[2] - quad[0])
        radius = int(0.2 * np.linalg.norm(quad[1] - quad[0]))
        cv2.circle(glared, tuple(int(v) for v in centre), radius, (255, 255, 255), -1)
        card, _, d = read_card(glared, quad, deck)
        assert card in (truth, None), f"glare turned {truth} into {card}"
        assert card == truth or "abstained" in d


def test_reads_the_full_resolution_frame(classic, enrolled):
    """The same photo at twice the size (quad scaled) reads the same card."""
    deck, used = enrolled
    held_out = [p for p in classic if p.name not in used and len(p.cards) == 1][2::6]
    good = [r for r in _reads(held_out, deck) if r[1] == r[0] and r[1] is not None][:3]
    assert good
    for truth, _, _, _, quad, image in good:
        big = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        assert read_card(big, quad * 2, deck)[0] == truth


def test_dataset_names_map_to_belote_cards():
    assert dataset_card("10H") == parse_card("Th")
    assert dataset_card("QS") == parse_card("Qs")
    assert dataset_card("5C") is None and dataset_card("BLACK JOKER") is None
