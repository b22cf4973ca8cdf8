"""The enrolment shot check (``vision.shot``) on the real classic deck's own
photos: the two kinds of shot it let through before, each refused with a
reason a person can act on, drawn in ``refused.png``; the next shot of the
card enrolled instead.

Photos: ``tests/data/cardcounter_real`` (the set's 9 of hearts and 10 of
spades shot in black and white, a 10 of hearts where a blown-up pip was cut
as the card's face; queens of diamonds and a 7 of hearts of 3:4 phone photos
saved as 640 x 640, where a card looks almost square).
"""

import shutil

import cv2
import numpy as np
import pytest

from real_photos import CARDCOUNTER_REAL, DATASETS
from referee.cards import parse_card
from vision.enrol import enrol_deck
from vision.photo_sets import deck_faces, webcam_shot
from vision.shot import Refusal, enrolment_sample

IMAGES = CARDCOUNTER_REAL / "images"


def _photo(name: str):
    image = cv2.imread(str(IMAGES / name))
    assert image is not None, name
    return image


@pytest.mark.parametrize("name", ["IMG_20220921_195916.jpg", "IMG_20220921_195959.jpg"])
def test_a_black_and_white_shot_is_refused(name):
    result = enrolment_sample(_photo(name))
    assert isinstance(result, Refusal) and "black-and-white" in result.reason, result


def test_the_same_shot_in_colour_is_enrolled_and_in_grey_refused():
    faces = deck_faces("bidly-scans", DATASETS)
    shot = webcam_shot(faces, parse_card("9d"), "light-grey", "report", 0).image
    assert not isinstance(enrolment_sample(shot), Refusal)
    grey = cv2.cvtColor(cv2.cvtColor(shot, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    result = enrolment_sample(grey)
    assert isinstance(result, Refusal) and "black-and-white" in result.reason, result


def test_a_face_that_is_not_a_card_is_refused_and_the_next_shot_enrolled(tmp_path):
    shots = tmp_path / "shots"
    shots.mkdir()
    shutil.copy(IMAGES / "IMG_20220921_195458.jpg", shots / "Th.jpg")     # a heart pip cut as the "card"
    shutil.copy(IMAGES / "IMG_20220921_200523.jpg", shots / "Th_2.jpg")   # the next shot of the 10 of hearts
    deck, problems = enrol_deck(shots, tmp_path / "deck", require_all=False)
    assert any(p.startswith("Th.jpg: refused") and "not a card's face" in p for p in problems), problems
    assert deck.cards == [parse_card("Th")] and len(deck.faces[parse_card("Th")]) == 1
    refused = cv2.imread(str(tmp_path / "deck" / "refused.png"))
    assert refused is not None and refused.shape[0] > 100


def _likeness(face, other) -> float:
    """Normalised correlation of two faces' grey thumbnails, either way up."""
    def grey(f):
        g = cv2.cvtColor(cv2.resize(f, (60, 90), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        g = g.astype(np.float32)
        return (g - g.mean()) / g.std()
    return max(float((grey(face) * grey(turned)).mean()) for turned in (other, cv2.rotate(other, cv2.ROTATE_180)))


@pytest.mark.parametrize("shot, reference", [
    ("IMG_20220921_194701.jpg", "IMG_20220921_200425.jpg"),   # Qd at a slant; the reference looks a card as it is
    ("IMG_20220921_201024.jpg", "IMG_20220921_200440.jpg"),   # 7h, the other way up in its frame
])
def test_a_card_squashed_square_by_its_photo_is_enrolled_the_right_way_up(shot, reference):
    """Both photos are 3:4 phone photos saved square: the card's sides look
    within 1.25 of each other, which was refused as "almost square" (4 of
    the 6 cards the new user could not enrol). Made 3:4 again it is a card
    with its corners square, made 16:9 again the other way round its corners
    shear: the face is cut with its top where the frame puts it, the same
    face a shot of that card that looks card-shaped as it is gives (0.75 or
    more alike, against 0.45 or less the other way round)."""
    face, ref = enrolment_sample(_photo(shot)), enrolment_sample(_photo(reference))
    assert not isinstance(face, Refusal) and not isinstance(ref, Refusal), (face, ref)
    assert _likeness(face, ref) > 0.7


def test_a_square_looking_card_square_to_the_picture_is_still_refused():
    """A Qd lying square to a photo saved square is a card made 3:4 again
    one way round and 16:9 the other, its corners square both ways, and its
    print does not tell its top either: refused, with what to do."""
    result = enrolment_sample(_photo("IMG_20220921_201021.jpg"))
    assert isinstance(result, Refusal) and "almost square" in result.reason, result
