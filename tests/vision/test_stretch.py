"""A photo's pixel shape (``vision.stretch``): the one grid and card-shape
test that the keypoint locator and the index-corner reader share."""

import numpy as np
import pytest

from vision import stretch

TURN = np.deg2rad(30)
ROTATION = np.array([[np.cos(TURN), -np.sin(TURN)], [np.sin(TURN), np.cos(TURN)]])
CARD = np.float32([[0, 0], [200, 0], [200, 300], [0, 300]]) @ ROTATION.T + (300, 200)
#: A labelled set's export (640 x 640) and a table camera's frame (1600 x 1200).
SQUARE, FRAME = (640, 640), (1200, 1600)


def test_the_photos_stretch_is_where_its_best_card_is_a_card():
    """A 4:3 photo saved as 640 x 640 stretches its width by 3/4 (or its
    height, 16:9 by 9/16): the fitted stretch undoes it, and a card seen
    square fits within ``MISFIT``."""
    for factor, expected in (((1, 1), 1.0), ((4 / 3, 1), 4 / 3), ((1, 16 / 9), 9 / 16)):
        found, misfit = stretch.fit(CARD * factor, 1.5, SQUARE)
        assert found == pytest.approx(expected, rel=0.03)
        assert misfit <= stretch.MISFIT


def test_a_frame_that_is_not_square_has_square_pixels():
    """An 8c near the corner of a rendered French table photo (1600 x 1200),
    seen in perspective, is sheared: in a square export it would say the
    photo was stretched by 1.26, and the index corners squared by that took
    a 7c for the 7s. A frame that is not square is no stretched export:
    it fits square pixels wherever a card is card-shaped in them (a card
    stretched by 4/3 still is, too far from a card's shape to square
    anything by); a frame squeezed so that its card is no card's shape in
    square pixels keeps its stretch."""
    sheared = np.float32([[1572, 110], [1492, 304], [1182, 228], [1256, 50]])
    assert stretch.fit(sheared, 1.5, SQUARE)[0] == pytest.approx(1.26, rel=0.02)
    assert stretch.fit(sheared, 1.5, FRAME)[0] == 1.0
    assert stretch.fit(CARD * (4 / 3, 1), 1.5, FRAME)[1] > stretch.MISFIT
    squeezed, misfit = stretch.fit(CARD * (0.5625, 1), 1.5, FRAME)     # no card in square pixels
    assert squeezed == pytest.approx(0.5625, rel=0.03) and misfit <= stretch.MISFIT


def test_a_skewed_quad_does_not_fix_the_photos_stretch():
    """A kite passes the loose card-shape test at a few stretches, but far
    from a card's shape: too far to square the photo by; a quad that is a
    card at no stretch gives none."""
    kite = np.float32([[0, 0], [200, 40], [260, 300], [-60, 300]])
    assert len(stretch.card_stretches(kite))
    assert stretch.fit(kite, 1.5, SQUARE)[1] > stretch.MISFIT
    needle = np.float32([[0, 0], [30, 0], [30, 600], [0, 600]])
    assert not len(stretch.card_stretches(needle)) and stretch.fit(needle, 1.5, SQUARE) is None


def test_a_card_is_card_shaped_only_near_the_photos_own_stretch():
    """One photo, one pixel shape: a card at 4/3 is the photo's card at
    4/3 (within ``SAME``), not at square pixels or at 3/4."""
    stretched = stretch.card_stretches(CARD * (4 / 3, 1))
    assert stretch.same(stretched, 4 / 3)
    assert not stretch.same(stretched, 0.75)
    square = stretch.card_stretches(CARD)
    assert stretch.same(square, 1.0) and 1.0 in np.round(square, 6)
    assert not stretch.same(np.array([]), 1.0)
