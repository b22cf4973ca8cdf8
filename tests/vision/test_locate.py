"""Finding cards: on real photos of the labelled set, and on the project's
overhead camera (rendered from real card faces)."""


import cv2
import numpy as np
import pytest

from vision.evaluate import load_dataset, overhead_shots, truth_of
from vision.faces import builtin_faces, photo_faces
from vision.locate import find_cards, order_corners

from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)


@pytest.fixture(scope="module")
def photos():
    return load_dataset(DATASET)


@pytest.fixture(scope="module")
def shots():
    faces = photo_faces(DATASET, per_card=1)
    return overhead_shots({c: f[0] for c, f in list(faces.items())[:6]}, seed=3)


def test_overhead_card_found_where_it_lies_and_markers_ignored(shots):
    for card, (frame, truth) in shots.items():
        quads = find_cards(frame)
        assert len(quads) == 1, f"card {card}: {len(quads)} quads (the table's corner markers are not cards)"
        # Corners within a few pixels of the truth, whatever the start corner.
        err = min(np.abs(np.roll(truth, k, axis=0) - quads[0]).max() for k in range(4))
        assert err < 4.0, f"card {card}: corners off by {err:.1f} px"


def test_a_white_card_on_a_beige_cloth_is_found():
    """The lamp changes the cloth's lightness more than the card differs from
    it; its colour (paper white against beige) still tells them apart."""
    faces = builtin_faces()
    shots = overhead_shots({c: faces[c] for c in range(0, 32, 4)}, seed=5, cloth="beige")
    found = 0
    for card, (frame, truth) in shots.items():
        quads = find_cards(frame)
        found += len(quads) == 1 and min(np.abs(np.roll(truth, k, axis=0) - quads[0]).max() for k in range(4)) < 4.0
    assert found >= 7, f"only {found} of 8 cards found on the beige cloth"


def test_corner_order_is_clockwise_from_a_short_side(shots):
    frame, _ = next(iter(shots.values()))
    q = find_cards(frame)[0]
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    assert sides[0] + sides[2] < sides[1] + sides[3]          # q0->q1 is a short side
    (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[1]
    cross = ax * by - ay * bx
    assert cross > 0                                            # clockwise on screen (y down)
    assert np.allclose(order_corners(q[::-1]), q) or np.allclose(order_corners(np.roll(q, 1, axis=0)), q)


def test_mask_and_roi_restrict_the_search(shots):
    frame, truth = next(iter(shots.values()))
    x, y, w, h = cv2.boundingRect(truth.astype(np.int32))
    assert len(find_cards(frame, roi=(x - 20, y - 20, w + 40, h + 40))) == 1
    assert find_cards(frame, roi=(0, 0, 200, 200)) == []
    mask = np.zeros(frame.shape[:2], np.uint8)
    mask[:, : frame.shape[1] // 8] = 255                        # a strip with no card in it
    assert find_cards(frame, mask=mask) == []


def test_real_photos_whole_cards_found_and_few_false_quads(photos):
    """Single-card photos: the card found with its labelled indices inside its
    quad. Measured: see docs/vision.md (locator line)."""
    found = total = false = 0
    for photo in photos[::9]:
        image = cv2.imread(str(photo.path))
        quads = find_cards(image)
        for q in quads:
            kind, _ = truth_of(q, photo)
            false += kind == "empty"
        if len(photo.cards) == 1 and len(photo.labels) == 2:
            total += 1
            found += any(truth_of(q, photo)[0] == "card" for q in quads)
    assert total >= 30
    # Many photos of the set are close-ups cut by the frame: no table around the card.
    assert found / total >= 0.3, f"found {found}/{total}"
    # Close-ups whose card runs off the frame leave its pips, and keyboards
    # their keys, looking like small cards (measured: 33 such quads for 26
    # cards found); the reader then answers "unknown" for them, never a card.
    assert false <= 1.5 * found, f"{false} quads on no card for {found} cards found"


def test_not_a_colour_image_is_a_clear_error():
    with pytest.raises(ValueError, match="BGR colour image"):
        find_cards(np.zeros((50, 50), np.uint8))


def test_card_put_on_a_trick_found_with_the_change_mask():
    """White on white barely changes, but the change mask's hull is the new
    card: found where it lies, the cards under it not reported."""
    from vision.faces import builtin_faces
    from vision.render import Play, SceneRenderer, TableScene

    scene = TableScene.square(900, size=(1920, 1080))
    renderer = SceneRenderer(builtin_faces(), scene, seed=5, size=(1920, 1080))
    before = list(renderer.frames([Play("S", 3), Play("E", 12), Play("N", 21)], fps=4))[-1][1]
    after = list(renderer.frames([Play("W", 30)], fps=4))[-1][1]
    truth = renderer.card_corners(renderer.resting[-1].pose).astype(np.float32)
    diff = cv2.absdiff(cv2.cvtColor(before, cv2.COLOR_BGR2GRAY), cv2.cvtColor(after, cv2.COLOR_BGR2GRAY))
    mask = (cv2.GaussianBlur(diff, (5, 5), 0) > 20).astype(np.uint8) * 255
    (quad,) = find_cards(after, mask=mask)
    err = min(np.abs(np.roll(truth, k, axis=0) - quad).max() for k in range(4))
    assert err < 8.0, f"top card's corners off by {err:.1f} px"


def test_a_close_ups_opened_maps_do_not_replace_a_cards_quad():
    """A black 7 of hearts on a white desk, a keyboard's dark band just
    above it (black-gold deck): opening the regions for close-ups keeps the
    band joined to the card, and that quad, larger, used to win over the
    card's own (the cause of a right read round 7 lost). The opened maps now
    only add cards the maps do not find as they are."""
    image = cv2.imread(str(DATASET / "images" / "IMG_7706.jpg"))
    plain = find_cards(image)
    assert len(plain) == 1
    close = find_cards(image, close_up=True)
    assert len(close) == 1 and np.abs(close[0] - plain[0]).max() < 1.0
    photo = next(p for p in load_dataset(DATASET) if p.name == "IMG_7706.jpg")
    assert truth_of(close[0], photo) == ("card", {"7H"})


def test_a_card_holding_its_own_pips_is_a_card_not_their_table():
    """A quad holding a much smaller card-shaped quad is a table (or a mat)
    with a card on it; but a king of diamonds' index pips pass the card-shape
    checks too, and the king was dropped as their table (tune half). A pip
    is ink, not paper: a card holding its own pips is a card (round 10)."""
    name = "IMG_20220921_193929.jpg"
    image = cv2.imread(str(DATASET / "images" / name))
    photo = next(p for p in load_dataset(DATASET) if p.name == name)
    quads = find_cards(image, close_up=True)
    whole = [q for q in quads if cv2.contourArea(q) > 0.3 * image.shape[0] * image.shape[1]]
    assert len(whole) == 1 and truth_of(whole[0], photo) == ("card", {"KD"}), [cv2.contourArea(q) for q in quads]


def test_a_mat_holding_a_card_is_still_the_table():
    """The other side of that rule, drawn: a white card lying on a grey mat
    on a dark table. The mat holds a quad of paper (the card) and is no card."""
    image = np.full((600, 800, 3), 40, np.uint8)
    cv2.rectangle(image, (250, 75), (550, 525), (150, 150, 150), cv2.FILLED)         # the mat, card-shaped
    cv2.rectangle(image, (340, 230), (440, 380), (245, 245, 245), cv2.FILLED)        # the card
    for x, y in ((355, 250), (425, 360)):                                            # its print
        cv2.fillConvexPoly(image, np.int32([[x, y - 12], [x + 9, y], [x, y + 12], [x - 9, y]]), (40, 40, 200))
    cv2.putText(image, "K", (372, 318), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (40, 40, 200), 3)
    quads = find_cards(image)
    assert len(quads) == 1, [cv2.contourArea(q) for q in quads]
    (x0, y0), (x1, y1) = quads[0].min(axis=0), quads[0].max(axis=0)
    assert abs(x0 - 340) < 4 and abs(x1 - 440) < 4 and abs(y0 - 230) < 4 and abs(y1 - 380) < 4
