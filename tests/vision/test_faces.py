"""Real card faces cut out of the labelled photos: only whole, upright cards get through.

A face cut askew (the outline took in the paper under the card) once became the
9c of the photo deck, and every 9c on the table was read as 9s.
"""

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import parse_card
from vision.faces import cut_out_card, photo_faces

from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)


def _cut(name):
    image = cv2.imread(str(DATASET / "images" / name))
    boxes = np.loadtxt(DATASET / "labels" / (Path(name).stem + ".txt"), ndmin=2)[:, 1:3]
    return cut_out_card(image, boxes * [image.shape[1], image.shape[0]])


@pytest.mark.parametrize("photo, why", [
    ("IMG_20220921_195304.jpg", "9c lying askew on light paper: the outline holds paper and card"),
    ("IMG_20220921_194714.jpg", "Tc whose outline takes in a dark strip of table along one side"),
])
def test_a_cut_out_that_is_not_the_whole_card_is_refused(photo, why):
    assert _cut(photo) is None, why


def test_a_clean_photo_of_the_same_card_is_still_cut_out():
    face = _cut("IMG_20220921_194655.jpg")                         # 9c, flat and square in the picture
    assert face is not None
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    paper = np.median(grey)
    assert min(grey[:8].mean(), grey[-8:].mean(), grey[:, :8].mean(), grey[:, -8:].mean()) > 0.8 * paper


def test_the_photo_deck_takes_its_nine_of_clubs_from_a_clean_photo_only():
    faces = photo_faces(DATASET, per_card=2)
    nine = faces[parse_card("9c")]
    assert len(nine) == 1                                          # the askew photo is left out, not used
    assert np.array_equal(nine[0], _cut("IMG_20220921_194655.jpg"))
