"""Cards that share a layout (the four aces, a 7 and an 8 of a suit, a 10 and
its other-suit twin) told apart where their faces differ
(``vision.face_match.contrast``, ``vision.confidence.Evidence.differ``).

Real classic deck, photos of the tune half (tests/data, CC BY 4.0): each of
these abstained on the whole face's distance ratio alone (0.45-0.57: an ace's
one pip is most of its ink, and the other aces share everything else). The
drawn French deck, enrolled as its protocol's user does (rendered phone
photos, tune half): its kings of one colour share their picture.
"""

import cv2
import pytest

from referee.cards import card_name, parse_card
from vision import protocols
from vision.confidence import CUT_CAP, MAX_RATIO, Evidence, decide
from vision.enrol import deck_from_faces
from vision.evaluate import split_half
from vision.face_match import despeckled, score_place
from vision.faces import builtin_faces
from vision.photo_sets import french_photo
from vision.recognize import read_places, recognize

from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)

TWINS = {"IMG_20220921_194100.jpg": "Ad", "IMG_20220921_194729.jpg": "Ah", "IMG_20220921_201101.jpg": "Ah",
         "IMG_20220921_195423.jpg": "Td", "IMG_20220921_194516.jpg": "7h"}
#: Of those, the ones the whole face now tells apart (round 19: laid over the photo by ECC also on
#: the grey less its broad light, these two Ah lead the Ad at distance ratios of 0.29 and 0.30;
#: round 23: this 7h leads the 8h at 0.38).
TOLD_WHOLE = {"IMG_20220921_194729.jpg", "IMG_20220921_201101.jpg", "IMG_20220921_194516.jpg"}
#: Of those, the ones where the faces' difference no longer tells them apart: round 22's new user
#: enrols the Th from an earlier shot (194545, not 200523: a square-looking shot is no longer
#: refused), and over the pips that differ the Td leads it at a ratio of 0.403, past ``MAX_RATIO``.
NOT_TOLD = {"IMG_20220921_195423.jpg"}


def _photo(name):
    assert split_half(name) == "tune"
    return cv2.imread(str(DATASET / "images" / name))


def _place_of(image, deck, card):
    """The place read as ``card``, with every candidate's scores there."""
    for place, evidence in read_places(image, deck)[0]:
        if evidence.card == parse_card(card):
            return place, score_place(despeckled(image), place, deck)
    raise AssertionError(f"no place whose best card is {card}")


@pytest.mark.parametrize("name", sorted(set(TWINS) - TOLD_WHOLE - NOT_TOLD))
def test_a_card_is_told_from_its_layout_twin_where_their_faces_differ(classic, name):
    image = _photo(name)
    place, scores = _place_of(image, classic, TWINS[name])
    whole = Evidence.of(scores, place)
    assert whole.ratio > MAX_RATIO and decide(whole)[0] is None, "the whole face alone already told them apart"
    judged = Evidence.of(scores, place, despeckled(image), classic)
    assert judged.differ is not None and judged.differ[1] <= MAX_RATIO, judged
    named = [(e["card"], e["confidence"]) for e in recognize(image, classic) if e["card"]]
    assert TWINS[name] in [c for c, _ in named], named


@pytest.mark.parametrize("name", sorted(NOT_TOLD))
def test_a_card_its_twin_fits_nearly_as_well_is_not_named_as_the_twin(classic, name):
    """Where the difference does not tell them apart, the twin that fits
    nearly as well is not named (the card is left unknown, not misread)."""
    image = _photo(name)
    place, scores = _place_of(image, classic, TWINS[name])
    runner = card_name(Evidence.of(scores, place, despeckled(image), classic).runner)
    assert runner != TWINS[name]
    assert runner not in [e["card"] for e in recognize(image, classic) if e["card"]]


@pytest.mark.parametrize("name", sorted(TOLD_WHOLE))
def test_a_card_the_whole_face_tells_from_its_twin_is_named_surely(classic, name):
    image = _photo(name)
    place, scores = _place_of(image, classic, TWINS[name])
    assert Evidence.of(scores, place).ratio <= MAX_RATIO
    named = dict((e["card"], e["confidence"]) for e in recognize(image, classic) if e["card"])
    assert named.get(TWINS[name], 0.0) >= 0.9, named


def test_keypoints_that_cannot_tell_a_card_from_its_twin_still_back_the_one_its_face_fits(classic):
    """Matched again inside the outline of 200222's Ah, the keypoints find
    the Ad's layout about as often as the Ah's (20 and 18 inliers: no clear
    lead, ``recognize._CLEAR_LEAD``): they propose neither. Until round 23
    the place then had no keypoints behind it at all and the Ah abstained
    (p 0.49); a 7h of 194516 the same way, against the 8h (with round 22's
    deck). The leaders are kept as tied: the one the face fits has its
    keypoints behind it."""
    image = _photo("IMG_20220921_200222.jpg")
    place, scores = _place_of(image, classic, "Ah")
    assert not place.cards and {"Ah", "Ad"} <= {card_name(c) for c, _ in place.tied}, place
    evidence = Evidence.of(scores, place, despeckled(image), classic)
    assert evidence.agrees and evidence.inliers == dict(place.tied)[parse_card("Ah")]
    named = _named(image, classic)
    assert named.get("Ah", 0.0) >= 0.9 and "Ad" not in named, named


@pytest.mark.parametrize("name", sorted(TWINS))
def test_with_the_card_taken_out_its_twin_is_not_named(classic, name):
    """The deck lacks the card (a partial enrolment): its twins share all but
    the pip that differs, and neither may be named for it."""
    image = _photo(name)
    place, scores = _place_of(image, classic, TWINS[name])
    others = [s for s in scores if card_name(s.card) != TWINS[name]]
    assert decide(Evidence.of(others, place, despeckled(image), classic))[0] is None


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """The drawn French deck enrolled as the French protocol's user does
    (one accepted phone shot a card), and photo 16 of the green cloth's tune
    half: a Ks lying alone, whole."""
    faces = builtin_faces(french=True)
    deck, _, _ = protocols.enrol("french-green", faces, "tune", tmp_path_factory.mktemp("drawn"))
    return deck, french_photo(faces, "green", "tune", 16).image


def _named(image, deck):
    return {e["card"]: e["confidence"] for e in recognize(image, deck) if e["card"]}


def test_a_drawn_king_is_told_from_the_king_that_shares_its_picture(drawn):
    """Over the whole face the Ks is at 0.80 of the Kc's distance (one
    picture, another index): too close to judge until round 15
    (``MAX_RATIO_DIFFER`` 0.8), so it abstained; where the two differ it
    leads clearly and fits its own face."""
    deck, image = drawn
    place, scores = _place_of(image, deck, "Ks")
    judged = Evidence.of(scores, place, despeckled(image), deck)
    assert judged.ratio > MAX_RATIO and card_name(judged.runner) == "Kc", judged
    assert judged.differ is not None and judged.differ[1] <= MAX_RATIO, judged
    assert _named(image, deck).get("Ks", 0.0) >= 0.9


@pytest.mark.parametrize("lacking, read", [("Js", "Jc"), ("Kc", "Ks")])
def test_a_deck_that_lacks_a_twin_never_reads_its_card_surely(drawn, lacking, read):
    """Enrolment left a card out. The photo's Js is then read as the Jc (one
    picture, the index's pip aside: at 0.924 before round 15), and its Ks
    read cannot have been told from a Kc that is missing (0.978 before):
    either read is at most ``CUT_CAP``, never sure, while the other cards of
    the photo are named as with the whole deck."""
    deck, image = drawn
    whole = _named(image, deck)
    partial = deck_from_faces({c: fs for c, fs in deck.faces.items() if card_name(c) != lacking})
    named = _named(image, partial)
    assert read in named and named[read] <= CUT_CAP, named
    assert set(named) - {read} == set(whole) - {read, lacking}


@pytest.mark.parametrize("k, card, twin", [(64, "Kd", "Kh"), (41, "Jd", "Jh")])
def test_a_drawn_court_card_is_compared_with_its_twin_where_either_fits_best(drawn, k, card, twin):
    """Photos of the green cloth's tune half where the card's outline was not found and its place is
    a skewed homography. The Kd was read as the Kh at 0.82 in the Kh's own keypoint geometry, where
    only the Kh was compared; the Jd was never compared at its place (the thumbnails' shortlist held
    the Jh, Kd, Kh and Qh). The best card's look-alikes are now compared in the geometry it fits best:
    the card is named surely, its twin not at all."""
    deck, _ = drawn
    named = _named(french_photo(builtin_faces(french=True), "green", "tune", k).image, deck)
    assert named.get(card, 0.0) >= 0.9 and twin not in named, named
