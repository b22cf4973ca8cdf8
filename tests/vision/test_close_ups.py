"""Plain pip cards in real close-ups (``vision.locate.find_cards(close_up=True)``,
``vision.keypoints.matched_in``): a card that fills half the photo is found
whole, and its pips, which the whole photo's keypoint matching leaves
unproven (a 9's pips match the 7's), prove it once matched inside its outline.
Real classic deck, photos of the tune half (tests/data, CC BY 4.0)."""

import cv2
import numpy as np
import pytest

from referee.cards import card_name
from vision.evaluate import load_dataset, split_half
from vision.face_match import despeckled
from vision.keypoints import keypoint_candidates, layout_outlines, matched_in
from vision.locate import find_cards
from vision.recognize import recognize

from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)
from test_corner_trust import classic                  # noqa: F401  (the deck vision evaluate's new user enrols)

#: Close-ups of one plain card on a wooden table, none located before (no
#: outline: the grain joins the card to the table; under 8 keypoint inliers).
CLOSE_UPS = {"IMG_20220921_194224.jpg": "8d", "IMG_20220921_193942.jpg": "9d"}


def _photo(name):
    assert split_half(name) == "tune"
    return cv2.imread(str(DATASET / "images" / name))


@pytest.mark.parametrize("name", sorted(CLOSE_UPS))
def test_a_pip_card_filling_a_close_up_is_found_whole_and_read(classic, name):  # noqa: F811
    image = _photo(name)
    area = image.shape[0] * image.shape[1]
    assert not [q for q in find_cards(despeckled(image)) if cv2.contourArea(q) > 0.2 * area]
    assert not keypoint_candidates(despeckled(image), classic).hits
    whole = [q for q in find_cards(despeckled(image), close_up=True) if cv2.contourArea(q) > 0.2 * area]
    assert len(whole) == 1
    named = [(e["card"], e["confidence"]) for e in recognize(image, classic) if e["card"]]
    # The 8d's own keypoints lead its layout's other cards (35 inliers, the 7d 18) and prove it; the
    # 9d's lead the 9s only 16 to 12, so its outline alone places it, and it is not named: never wrongly.
    assert [c for c, _ in named] == ([CLOSE_UPS[name]] if CLOSE_UPS[name] == "8d" else []), named


def test_keypoints_matched_inside_an_outline_tell_the_card_from_its_layout_neighbours(classic):  # noqa: F811
    image = despeckled(_photo("IMG_20220921_194238.jpg"))         # an 8 of clubs, 11 inliers over the whole photo
    outline = max(find_cards(image, close_up=True), key=cv2.contourArea)
    hits = matched_in(image, outline, classic, turns=True)
    assert card_name(hits[0].card) == "8c", [(card_name(h.card), h.inliers) for h in hits]
    assert hits[0].inliers >= 2 * hits[1].inliers          # the 7s, 7c and 9c share its pips, not their places
    truth = np.float32(outline)
    error = min(float(np.abs(np.roll(hits[0].quad, k, axis=0) - truth).max()) for k in range(4))
    assert error < 0.05 * max(image.shape[:2]), error


#: Close-ups with no card-sized outline on the card (cut by the picture's
#: edge, or greyed by glare), not located before round 8.
NO_OUTLINE = {"IMG_20220921_194141.jpg": "9s", "IMG_20220921_201515.jpg": "7s"}


@pytest.mark.parametrize("name", sorted(NO_OUTLINE))
def test_a_card_with_no_outline_is_found_where_its_layout_lies(classic, name):  # noqa: F811
    """``keypoints.layout_outlines``: the card's own keypoints, matched with
    no ratio test and fitted by one affine map, place it where no outline
    does; proven inside (``matched_in``) it is read, or left unnamed, never
    named wrongly."""
    image = _photo(name)
    photo = next(p for p in load_dataset(DATASET) if p.name == name)
    centres = [xy * np.float32([image.shape[1] / 640, image.shape[0] / 640])
               for label, xy in zip(photo.labels, photo.centres) if label.lower() == NO_OUTLINE[name].lower()]

    def on_card(quad):
        return all(cv2.pointPolygonTest(np.float32(quad).reshape(-1, 1, 2), (float(x), float(y)), False) >= 0
                   for x, y in centres)

    area = image.shape[0] * image.shape[1]
    assert not [q for q in find_cards(despeckled(image), close_up=True)
                if on_card(q) and cv2.contourArea(q) > 0.1 * area]
    assert any(on_card(q) for q in layout_outlines(despeckled(image), classic))
    found = [e for e in recognize(image, classic) if on_card(e["corners"])]
    assert [e["card"] for e in found] == [NO_OUTLINE[name]], found
