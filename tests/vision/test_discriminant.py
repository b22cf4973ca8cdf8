"""The learnt cue: what tells this deck's cards apart, fitted at enrolment."""

import json

import cv2
import numpy as np
import pytest

from referee.cards import parse_card
from vision.deck import Deck, deck_from_faces
from vision.discriminant import Discriminant, camera_copy, features, upside_down
from vision.faces import builtin_faces
from vision.read import MAX_DISSENT, MIN_LEAD, decide, read_card


@pytest.fixture(scope="module")
def drawn():
    faces = builtin_faces()
    return faces, Discriminant.fit({c: [f] for c, f in faces.items()})


def test_tells_the_cards_apart_in_grey_and_at_a_low_resolution(drawn):
    """Copies it was not fitted on (another draw: light, blur, a 45-130 px
    wide card, some in grey, either way up) are ranked first as their own card."""
    faces, learnt = drawn
    rng = np.random.default_rng(99)
    ranked_first = sum(learnt.cards[int(np.argmax(learnt.scores(camera_copy(face, rng))))] == card
                       for card, face in faces.items() for _ in range(3))
    assert ranked_first >= 94, f"only {ranked_first} of 96 copies ranked first as their own card"


def test_saved_with_the_deck_and_refitted_when_stale(drawn, tmp_path):
    faces, learnt = drawn
    learnt.save(tmp_path / "d.npz")
    back = Discriminant.load(tmp_path / "d.npz", learnt.cards)
    assert back is not None and np.allclose(back.weights, learnt.weights)
    assert Discriminant.load(tmp_path / "d.npz", learnt.cards[:-1]) is None      # other cards: refit
    (tmp_path / "bad.npz").write_bytes(b"not numpy")
    assert Discriminant.load(tmp_path / "bad.npz", learnt.cards) is None
    assert Discriminant.load(tmp_path / "missing.npz", learnt.cards) is None


def test_the_two_cues_must_not_contradict_each_other():
    """The indices favour 9c, the shapes 9s: not a read, and the reason names both."""
    faces = builtin_faces()
    deck = deck_from_faces({c: [faces[c]] for c in (parse_card("9s"), parse_card("9c"), parse_card("Kh"))})
    rule = deck.abstain
    nine_s, nine_c = deck.cards.index(parse_card("9s")), deck.cards.index(parse_card("9c"))
    top = rule["min_score"] + 4 * rule["index_gap"]          # both nines correlate well above the floor
    index = np.full(3, rule["min_score"] - 0.3, np.float32)
    learnt = np.zeros(3, np.float32)
    index[nine_c], index[nine_s] = top, top - 3 * rule["index_gap"]
    learnt[nine_s], learnt[nine_c] = 5 * rule["learnt_gap"], 5 * rule["learnt_gap"] - 4 * rule["learnt_gap"]
    reading = decide(index, learnt, deck)
    assert reading.card is None and reading.confidence < 0.5
    assert "9c" in reading.details["abstained"] and "9s" in reading.details["abstained"]
    # Both cues agree, each by more than the required lead: read, and surely.
    learnt[nine_c] = learnt[nine_s] - 4 * rule["learnt_gap"]
    index[nine_s], index[nine_c] = top, top - 3 * rule["index_gap"]
    reading = decide(index, learnt, deck)
    assert reading.card == parse_card("9s") and reading.confidence >= 0.8
    assert MIN_LEAD > MAX_DISSENT > 0


def test_a_face_turned_half_round_is_described_from_its_own_features(drawn):
    faces, _ = drawn
    face = faces[parse_card("Qs")]
    assert np.allclose(upside_down(features(face)), features(cv2.rotate(face, cv2.ROTATE_180)), atol=1e-3)


def test_a_grey_view_of_a_colour_deck_needs_a_clearer_lead():
    """Seen without colour, red against black no longer helps: a lead that
    reads a colour view is not enough (Ah read as Ad on grey shots)."""
    faces = builtin_faces()
    deck = deck_from_faces({c: [faces[c]] for c in (parse_card("Ah"), parse_card("Ad"), parse_card("Ks"))})
    rule = deck.abstain
    ah, ad = deck.cards.index(parse_card("Ah")), deck.cards.index(parse_card("Ad"))
    index = np.full(3, rule["min_score"] - 0.5, np.float32)
    learnt = np.zeros(3, np.float32)
    index[ah], index[ad] = rule["min_score"] + 0.1, rule["min_score"] + 0.1 - 0.25 * rule["index_gap"]
    learnt[ah], learnt[ad] = 5 * rule["learnt_gap"], 5 * rule["learnt_gap"] - 0.25 * rule["learnt_gap"]
    assert decide(index, learnt, deck).card == parse_card("Ah")                 # a lead of 1.0 usual leads
    grey = decide(index, learnt, deck, grey=True)
    assert grey.card is None and "1.20 (seen without colour): too close to call" in grey.details["abstained"]


def test_a_deck_enrolled_by_the_previous_version_still_reads(tmp_path):
    """Its manifest has the old abstention rule and no discriminant file: the
    reader measures the new rule and fits the learnt cue on first use."""
    faces = builtin_faces()
    cards = [parse_card(c) for c in ("7h", "8h", "Qs", "Kd")]
    deck = deck_from_faces({c: [faces[c]] for c in cards})
    deck.save(tmp_path / "deck")
    (tmp_path / "deck" / "discriminant.npz").unlink()
    manifest = json.loads((tmp_path / "deck" / "manifest.json").read_text())
    manifest["abstain"] = {"min_margin": 0.08, "min_score": 0.45, "trials": 24}      # version 1's rule
    (tmp_path / "deck" / "manifest.json").write_text(json.dumps(manifest))
    old = Deck.load(tmp_path / "deck")
    face = faces[parse_card("Qs")]
    image = cv2.copyMakeBorder(face, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(40, 110, 40))
    fh, fw = face.shape[:2]
    quad = np.float32([[40, 40], [40 + fw - 1, 40], [40 + fw - 1, 40 + fh - 1], [40, 40 + fh - 1]])
    assert read_card(image, quad, old)[0] == parse_card("Qs")
    assert {"index_gap", "learnt_gap"} <= set(old.abstain)
