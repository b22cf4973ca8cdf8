"""The still-photo backbone (``vision.recognize``: keypoints + RANSAC, ECC,
a lighting-free correlation, a margin): webcam shots of white cards on a
light table read right, the cards a Belote deck lacks refused.

Faces: bidly's real scans (MIT), tests/data; the deck is those 32 faces.
The photos are the *report* half of the rendered webcam protocol
(``vision.photo_sets``); the rule was chosen on the tune half only.
"""


import cv2
import numpy as np
import pytest

from real_photos import DATASETS   # tests/data: bidly faces (MIT)
from referee.cards import parse_card
from vision.confidence import Evidence, decide
from vision.enrol import deck_from_faces
from vision.face_match import neighbours
from vision.keypoints import keypoint_candidates
from vision.photo_sets import deck_faces, webcam_shot
from vision.recognize import recognize

#: Cards with their real confusions in the deck: same pips other suit (8s/8c,
#: Td/Ts), one pip more (7h/8h), court cards of one colour (Kd/Kh).
CARDS = [parse_card(c) for c in ("8s", "Td", "7h", "Kd", "Qc", "Ah")]


@pytest.fixture(scope="module")
def scans():
    folder = DATASETS / "bidly_deals" / "faces"
    return folder


@pytest.fixture(scope="module")
def deck(scans):
    return deck_from_faces({c: [f] for c, f in deck_faces("bidly-scans", DATASETS).items()})


@pytest.mark.parametrize("table", ["light-grey", "beige"])
def test_webcam_shots_on_a_light_table_are_read_right(deck, table):
    faces = deck_faces("bidly-scans", DATASETS)
    named = []
    for card in CARDS:
        shot = webcam_shot(faces, card, table, "report", 1)
        found = recognize(shot.image, deck)
        named.append((card, [(f["card"], f["confidence"]) for f in found if f["card"]]))
    wrong = [(c, n) for c, n in named if any(parse_card(name) != c for name, _ in n)]
    right = [(c, n) for c, n in named if n and all(parse_card(name) == c for name, _ in n)]
    assert not wrong, named
    # Measured on the report half (docs/vision.md): 95-97 % read, none wrong by this reader; here 6 cards
    # chosen for their look-alikes.
    assert len(right) >= 5, named
    assert all(conf >= 0.9 for _, n in right for _, conf in n), named


@pytest.mark.parametrize("table", ["light-grey", "beige"])
def test_aces_on_a_light_table_are_read(deck, table):
    """An ace is one large pip on a blank face: a slight misfit of it used to
    weigh as a missing pip (every ace abstained on the patch of difference).
    The patch is now measured against the strongest ink, not the mean."""
    faces = deck_faces("bidly-scans", DATASETS)
    for k in (0, 1):
        for name in ("As", "Ah", "Ad", "Ac"):
            shot = webcam_shot(faces, parse_card(name), table, "report", k)
            found = [(f["card"], f["confidence"]) for f in recognize(shot.image, deck)]
            assert found == [(name, found[0][1])] and found[0][1] >= 0.9, (name, k, found)


def _foreign_shot(face: np.ndarray, seed_card: int):
    """A webcam shot of a card no Belote deck holds, placed as ``seed_card`` would be."""
    faces = {seed_card: face}
    return webcam_shot(faces, seed_card, "light-grey", "report", 2).image


@pytest.mark.parametrize("name", ["6s", "2h", "5d", "6c"])
def test_a_low_card_of_a_52_card_pack_is_refused(deck, scans, name):
    face = cv2.imread(str(scans / f"{name}.jpg"))
    # placed where the 7 of its suit would lie in its shot: what keypoints and pips share most
    seven = parse_card("7" + name[-1])
    found = recognize(_foreign_shot(face, seven), deck)
    assert found, "the card was not even located"
    assert all(f["card"] is None for f in found), found


def test_a_joker_and_a_card_of_another_deck_are_refused(deck):
    from vision.faces import builtin_faces
    other = builtin_faces(french=True)
    w, h = 200, 300
    joker = np.full((h, w, 3), 245, np.uint8)
    cv2.putText(joker, "JOKER", (18, 60), cv2.FONT_HERSHEY_DUPLEX, 1.3, (40, 40, 160), 3)
    cv2.circle(joker, (w // 2, h // 2 + 20), 60, (30, 30, 30), 6)
    for face, card in ((joker, parse_card("Kh")), (other[parse_card("Kh")], parse_card("Kh")),
                       (other[parse_card("9c")], parse_card("9c"))):
        found = recognize(_foreign_shot(face, card), deck)
        assert all(f["card"] is None for f in found), found


def test_the_neighbours_are_the_real_confusions():
    assert neighbours(parse_card("8s")) == {parse_card(c) for c in ("8h", "8d", "8c", "7s", "9s")}
    assert neighbours(parse_card("7h")) == {parse_card(c) for c in ("7s", "7d", "7c", "8h")}


def test_a_lead_small_against_how_alike_the_faces_are_is_no_read():
    sure = Evidence(parse_card("8s"), 0.97, 0.9, 0.2, parse_card("8c"), 0.2, 40, True)
    close = Evidence(parse_card("8s"), 0.97, 0.9, 0.2, parse_card("8c"), 0.01, 40, True)
    assert decide(sure)[0] == parse_card("8s") and decide(sure)[1] >= 0.9
    assert decide(close)[0] is None and decide(close)[1] < 0.5


def test_a_patch_of_difference_bars_a_pip_card_not_a_court_card():
    """The pip-sized patch of difference is what tells a 7 from an 8 of a
    suit (or a 52-card pack's 6 on a 7's place); a court card has no such
    neighbour, and its picture a little off leaves a bigger patch: the real
    phone photos' right court reads at 0.53-0.74 abstained on it."""
    def evidence(card: str, blob: float) -> Evidence:
        return Evidence(parse_card(card), 0.93, 0.7, blob, parse_card("7h"), 0.35, 60, True)
    assert decide(evidence("Kc", 0.62))[0] == parse_card("Kc")
    assert decide(evidence("8c", 0.62))[0] is None            # a pip too many or too few
    assert decide(evidence("Kc", 0.9))[0] is None             # a court card with a part of it wrong


def test_a_black_and_white_photo_of_a_red_card_is_not_read_as_black(deck):
    """Colour is compared only where the photo has some: a red 9 photographed
    in black and white matched the black 9's colourless template best before."""
    faces = deck_faces("bidly-scans", DATASETS)
    for name in ("9d", "Th"):
        card = parse_card(name)
        shot = webcam_shot(faces, card, "light-grey", "report", 1)
        grey = cv2.cvtColor(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        named = [f["card"] for f in recognize(grey, deck) if f["card"]]
        assert all(parse_card(n) == card for n in named), (name, named)


@pytest.mark.parametrize("size, card", [((640, 640), "Kd"), ((450, 600), "Qc"), ((450, 600), "Js")])
def test_a_photo_stretched_to_a_square_is_still_read(deck, size, card):
    """A labelled set's export resizes every photo to 640 x 640: a 4:3 frame
    is stretched by 4/3 along one axis, a 16:9 one by 16/9 (here a 4:3 frame
    squeezed to 450 x 600, the same shape of pixels). Each card is stretched
    along the picture's axes: its corners no longer square nor its
    proportions a card's. The keypoints' shape check allows the photo one
    stretch, so the card is still found where it lies, and read."""
    faces = deck_faces("bidly-scans", DATASETS)
    shot = webcam_shot(faces, parse_card(card), "beige", "report", 2)
    image = cv2.resize(shot.image, size, interpolation=cv2.INTER_AREA)
    truth = shot.cards[0].corners * np.float32([size[0] / 800, size[1] / 600])
    found = keypoint_candidates(image, deck)
    hits = found.hits
    assert hits and hits[0].card == parse_card(card), [(h.card, h.inliers) for h in hits]
    # The stretch the keypoints fix is the one the photo was given (the
    # index-corner reader squares the photo by it).
    assert found.stretch == pytest.approx((size[0] / 800) / (size[1] / 600), rel=0.05)
    error = min(float(np.abs(np.roll(hits[0].quad, k, axis=0) - truth).max()) for k in range(4))
    assert error <= 6.0, error        # a few px (RANSAC draws at random: 1.1-4.2 px seen)
    found = [f for f in recognize(image, deck) if f["card"]]
    assert [f["card"] for f in found] == [card], found


def test_the_decks_keypoints_are_kept_on_disk_with_it(deck, tmp_path):
    """``vision recognize`` loads the deck each run: the faces' keypoints are
    described once and kept beside them (``keypoints.npz``), and described
    again when a face changes."""
    from vision.deck import Deck
    from vision.keypoints import _Index, _index

    faces = deck_faces("bidly-scans", DATASETS)
    image = webcam_shot(faces, parse_card("Kd"), "beige", "report", 2).image
    Deck(faces={c: list(f) for c, f in deck.faces.items()}).save(tmp_path / "deck")
    first = keypoint_candidates(image, Deck.load(tmp_path / "deck")).hits
    cache = tmp_path / "deck" / "keypoints.npz"
    assert cache.exists() and first
    stamp = cache.stat().st_mtime_ns
    again = Deck.load(tmp_path / "deck")
    assert [h.card for h in keypoint_candidates(image, again).hits] == [h.card for h in first]
    assert cache.stat().st_mtime_ns == stamp                      # read, not made again
    made = _Index.of(again)
    assert np.array_equal(_index(again).descriptors, made.descriptors) and _index(again).size == made.size
    changed = Deck.load(tmp_path / "deck")
    changed.faces[parse_card("Kd")] = [cv2.flip(changed.faces[parse_card("Kd")][0], 1)]
    assert len(_index(changed).labels) and cache.stat().st_mtime_ns != stamp   # another face: made again


def test_a_photos_read_does_not_depend_on_what_ran_before():
    """A photo's read is a function of the photo and the deck: the matcher's
    randomised trees used to be drawn from OpenCV's global generator, left
    anywhere by whatever ran first (a rendered photo's noise), so the same
    king's inliers were 167 in one process and 172 in another (round 10: a
    real 10 of diamonds read at 0.9997 alone, abstained inside a longer run)."""
    faces = deck_faces("bidly-scans", DATASETS)
    image = webcam_shot(faces, parse_card("Kd"), "beige", "report", 2).image
    reads = []
    for seed in (1, 2):
        cv2.setRNGSeed(seed)                        # what an earlier photo left
        cv2.randn(np.empty((8, 8), np.float32), 0, 1)
        fresh = deck_from_faces({c: [f] for c, f in faces.items()})
        hits = keypoint_candidates(image, fresh).hits
        reads.append(([(h.card, h.inliers, h.homography.tobytes()) for h in hits],
                      [(f["card"], f["confidence"], f["corners"]) for f in recognize(image, fresh)]))
    assert reads[0] == reads[1]


@pytest.mark.parametrize("name", ["9s", "Kd"])
def test_a_place_of_the_wrong_geometry_is_read_in_the_cards_own(deck, name):
    """A place's geometry may be a mark printed on the card (a pip's or a
    picture frame's outline: round 11, the real tune half's wrong-geometry
    places correlate 0.09-0.64 with every face); the card's own keypoints,
    matched to its face alone (``keypoints.own_matches``, the yardstick's
    route), place its face, and the read is made in that geometry."""
    from vision.face_match import Place, face_scale, quad_to_face, score_place
    from vision.keypoints import own_matches

    faces = deck_faces("bidly-scans", DATASETS)
    card = parse_card(name)
    image = webcam_shot(faces, card, "beige", "report", 1).image
    hits = own_matches(image, deck)
    assert hits and hits[0].card == card
    # The card's inner half, as a picture frame's outline would give it.
    quad = hits[0].quad
    inner = quad.mean(axis=0) + 0.5 * (quad - quad.mean(axis=0))
    marked = Place(inner, quad_to_face(inner))
    assert decide(Evidence.of(score_place(image, marked, deck), marked))[0] is None
    own = Place(inner, quad_to_face(inner), own=((card, hits[0].homography @ face_scale(hits[0].face_size)),))
    read, confidence = decide(Evidence.of(score_place(image, own, deck), own))
    assert read == card and confidence >= 0.9
