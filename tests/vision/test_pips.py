"""A card the deck does not hold (a 6 from a 52-card pack) is not read as its Belote neighbour."""

import cv2
import numpy as np

from referee.cards import parse_card
from vision.deck import deck_from_faces
from vision.faces import builtin_faces
from vision.pips import count_pips, countable, expected_pips
from vision.read import decide, read_card


def test_number_cards_show_their_number_of_pips():
    faces = builtin_faces()
    numbers = {c: f for c, f in faces.items() if expected_pips(c) is not None}
    assert {c: count_pips(f) for c, f in numbers.items()} == {c: expected_pips(c) for c in numbers}
    assert set(countable({c: [f] for c, f in faces.items()})) == set(numbers)


def _erase_pips(face: np.ndarray, n: int) -> np.ndarray:
    """The face with ``n`` of its body pips painted over in paper colour: a 6 made from an 8."""
    gray = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    ink = (gray < 150).astype(np.uint8)
    ink[: int(0.3 * h), : int(0.22 * w)] = 0
    ink[h - int(0.3 * h):, w - int(0.22 * w):] = 0
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink)
    pips = sorted(range(1, len(stats)), key=lambda i: -stats[i, cv2.CC_STAT_AREA])[:8]
    out = face.copy()
    for i in pips[:n]:
        out[cv2.dilate((labels == i).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0] = face[h // 2, 3]
    return out


def test_a_six_is_not_read_as_an_eight():
    faces = builtin_faces()
    deck = deck_from_faces({c: [f] for c, f in faces.items()})
    eight = faces[parse_card("8h")]
    six = _erase_pips(eight, 2)
    assert count_pips(six) == 6
    fh, fw = six.shape[:2]
    quad = np.float32([[40, 40], [40 + fw - 1, 40], [40 + fw - 1, 40 + fh - 1], [40, 40 + fh - 1]])

    def on_cloth(face):
        return cv2.copyMakeBorder(face, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(40, 110, 40))
    assert read_card(on_cloth(eight), quad, deck)[0] == parse_card("8h")
    card, confidence, details = read_card(on_cloth(six), quad, deck)
    assert card is None and confidence < 0.5
    assert "6 pips" in details["abstained"]


def test_a_close_call_between_a_seven_and_an_eight_is_settled_by_counting():
    """Indices and shapes lean to 7h by too little to read it; the face's 7 pips
    settle it. The same close call on a face showing 8 pips is not read as 7h."""
    faces = builtin_faces()
    deck = deck_from_faces({c: [f] for c, f in faces.items()})
    rule = deck.abstain
    seven, eight = deck.cards.index(parse_card("7h")), deck.cards.index(parse_card("8h"))
    index = np.full(len(deck.cards), rule["min_score"] - 0.5, np.float32)
    learnt = np.zeros(len(deck.cards), np.float32)
    index[seven], index[eight] = rule["min_score"] + 0.1, rule["min_score"] + 0.1 - 0.15 * rule["index_gap"]
    learnt[seven] = learnt[eight] = 10 * rule["learnt_gap"]
    assert decide(index, learnt, deck).card is None                      # too close to call on its own
    reading = decide(index, learnt, deck, faces[parse_card("7h")])
    assert reading.card == parse_card("7h") and reading.confidence >= 0.8 and reading.details["pips"] == 7
    assert decide(index, learnt, deck, faces[parse_card("8h")]).card is None
