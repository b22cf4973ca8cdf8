"""The index-corner reader (``vision.corner_read``, ``vision.corner_merge``):
cards of trick heaps and fans read from the rank and pip in one corner.

The deck is the drawn French one (R/D/V, aces "1"), enrolled from its faces;
the photos are the French protocol's rendered phone photos of 2-9 cards,
scattered, in heaps and fans, from the *report* half (the reader's
constants were chosen on the tune half and on bidly's deals 1-3)."""

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from referee.cards import card_name, parse_card
from vision.corner_merge import merge
from vision.corner_read import COLOUR_CLEAR, MAX_RATIO, CornerRead, _consistent, _top, anchors, corner_model, \
    read_corners
from vision.deck import Deck
from vision.enrol import deck_from_faces
from vision.faces import builtin_faces, dataset_card
from vision.photo_sets import deck_faces, french_photo
from vision.recognize import recognize

from real_photos import DATASETS   # tests/data: bidly's faces and deals 5 and 6 (MIT)


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    faces = builtin_faces(french=True)
    deck = deck_from_faces({c: [f] for c, f in faces.items()})
    deck.save(tmp_path_factory.mktemp("deck"))
    corner_model(deck)                         # made once, cached in the deck's directory
    return faces, deck


def _index_centre_owner(read: CornerRead, shot):
    centre = tuple(float(v) for v in read.index.mean(axis=0))
    under = [i for i, p in enumerate(shot.cards)
             if cv2.pointPolygonTest(p.corners.reshape(-1, 1, 2), centre, False) >= 0]
    return shot.cards[under[-1]].card if under else None


def test_heaps_and_fans_are_read_from_their_index_corners_and_never_wrongly(french):
    faces, deck = french
    right = wrong = shown = 0
    for k in range(6):
        shot = french_photo(faces, "dark", "report", k)
        reads = read_corners(shot.image, deck)
        named = {}
        for r in reads:
            owner = _index_centre_owner(r, shot)
            if owner != r.card:
                wrong += 1
            named[r.card] = r
        for placed in shot.cards:
            if placed.index_shown:
                shown += 1
                right += placed.card in named
    assert shown >= 25
    assert wrong == 0
    assert right / shown >= 0.6, f"{right} of {shown} cards with an index showing read"


def test_a_rank_the_deck_lacks_is_not_named(french):
    """English court cards and aces (K, Q, J, A) read with the French deck
    (R, D, V, 1): no court card or ace may be named from them."""
    _, deck = french
    english = builtin_faces(french=False)
    canvas = np.full((900, 1400, 3), (40, 38, 36), np.uint8)
    foreign = [parse_card(r + s) for r in "KQJA" for s in "shdc"]
    for i, card in enumerate(foreign):
        face = cv2.resize(english[card], (150, 225))
        centre = (110 + 160 * (i % 8), 180 + 420 * (i // 8) + 40 * (i % 2))
        m = cv2.getRotationMatrix2D((75, 112), 25.0 * i, 1.0)
        m[:, 2] += np.array(centre) - (75, 112)
        mask = cv2.warpAffine(np.full((225, 150), 255, np.uint8), m, canvas.shape[1::-1]) > 0
        canvas[mask] = cv2.warpAffine(face, m, canvas.shape[1::-1])[mask]
    named = [card_name(r.card) for r in read_corners(canvas, deck)]
    assert not [n for n in named if n[0] in "KQJA"], named


def test_the_model_is_kept_in_the_deck_directory(french):
    _, deck = french
    assert (deck.directory / "corners.npz").is_file()
    again = Deck.load(deck.directory)
    model = corner_model(again)
    assert np.array_equal(model.rows, corner_model(deck).rows)
    assert model.gates == corner_model(deck).gates


def test_recognize_reports_a_heap_card_with_its_index_box(french):
    faces, deck = french
    shot = next(s for s in (french_photo(faces, "green", "report", k) for k in range(12))
                if any(p.index_shown and p.shown < 0.9 for p in s.cards))
    found = recognize(shot.image, deck)
    by_index = [f for f in found if "index" in f]
    assert by_index
    for f in by_index:
        assert len(f["corners"]) == 4 and len(f["index"]) == 4
        assert f["confidence"] >= 0.8


def _read(card: str, centre=(100.0, 100.0), confidence=0.95) -> CornerRead:
    x, y = centre
    index = np.float32([[x - 10, y - 15], [x + 10, y - 15], [x + 10, y + 15], [x - 10, y + 15]])
    corners = np.float32([[x - 15, y - 20], [x + 135, y - 20], [x + 135, y + 210], [x - 15, y + 210]])
    frame = np.float32([[x, y - 8], [x, y + 6]])     # its rank glyph's centre over its pip's, 14 px apart
    return CornerRead(parse_card(card), confidence, index, corners, {}, frame=frame)


def _entry(card, quad=((80, 75), (230, 75), (230, 305), (80, 305))):
    return {"card": card, "confidence": 0.9 if card else 0.3, "corners": [list(p) for p in quad]}


def test_a_corner_on_a_found_card_must_agree_with_it():
    assert merge([_entry("Kh")], [_read("Kh")]) == [_entry("Kh")]
    assert merge([_entry("Kh")], [_read("Qh")])[0]["card"] is None        # two cards named: unknown
    filled = merge([_entry(None)], [replace(_read("Qh"), both=True)])      # both its index corners read it
    assert filled[0]["card"] == "Qh" and "index" in filled[0]


def test_a_corner_on_no_found_card_is_a_card_of_its_own_once():
    out = merge([_entry("Kh")], [_read("7s", (600, 400)), _read("Kh", (900, 100))])
    assert [e["card"] for e in out] == ["Kh", "7s"]                    # the Kh is not named twice
    assert out[1]["index"] and len(out[1]["corners"]) == 4


def test_corners_of_a_fan_are_each_their_own_card():
    """A fanned card's whole outline, as its index places it, spans its
    neighbours' indices: they are other cards, not a disagreement."""
    out = merge([], [_read("7d", (100, 100), 0.97), _read("9d", (130, 110), 0.95), _read("Kc", (160, 120), 0.9)])
    assert [e["card"] for e in out] == ["7d", "9d", "Kc"]


def test_an_unknown_outline_holding_several_cards_corners_is_a_heap():
    """The outline locator took a heap for one card (unknown); the corners
    at its corners name two cards: it stays unknown, each is a card."""
    heap = _entry(None)
    other = _read("Js", (205, 280), 0.9)
    other = CornerRead(other.card, 0.9, other.index,
                       np.float32([[225, 300], [75, 300], [75, 80], [225, 80]]), {})   # its index: the far corner
    out = merge([heap], [_read("7h", (100, 100), 0.95), other])
    assert out[0]["card"] is None
    assert sorted(e["card"] for e in out[1:]) == ["7h", "Js"]


def test_an_unknown_outline_holding_another_cards_index_is_a_heap():
    """A heap's outline taken for one card can fill as much of the card its
    one corner read places as a whole card would (0.68 on the rendered tune
    heaps): the other cards' indices read inside it show it is no one card,
    so the corner read needs no second witness (it was dropped before)."""
    out = merge([_entry(None)], [_read("Js", (100, 100), 0.95), _read("7d", (170, 200), 0.94)])
    assert out[0]["card"] is None
    assert sorted(e["card"] for e in out[1:]) == ["7d", "Js"]
    alone = merge([_entry(None)], [_read("Js", (100, 100), 0.95)])   # a whole card: one corner is not enough
    assert [e["card"] for e in alone] == [None]


def test_a_corner_at_a_found_cards_corner_but_off_it_is_another_card():
    """Two cards lying corner to corner: the second's index corner is within
    reach of the first's corner, but its index is not on the first card."""
    beside = CornerRead(parse_card("7s"), 0.95, np.float32([[232, 310], [252, 310], [252, 340], [232, 340]]),
                        np.float32([[232, 308], [382, 308], [382, 538], [232, 538]]), {})
    out = merge([_entry("Kh")], [beside])
    assert [e["card"] for e in out] == ["Kh", "7s"]


def test_two_names_on_one_index_name_nothing():
    """Two corner reads naming two cards whose index boxes are mostly one
    (one of them read or placed wrong: a report-half heap's Jh came out as
    Td that way): neither is named, the place is listed unknown."""
    out = merge([], [_read("Jh", (300, 300), 0.86), _read("Td", (306, 308), 0.85), _read("7c", (600, 300), 0.9)])
    assert sorted(e["card"] or "-" for e in out) == ["-", "7c"]
    assert "index" in next(e for e in out if e["card"] is None)


def test_an_unknown_card_takes_no_name_read_elsewhere():
    elsewhere = _entry("Qh", ((500, 75), (650, 75), (650, 305), (500, 305)))
    out = merge([_entry(None), elsewhere], [_read("Qh")])
    assert [e["card"] for e in out] == [None, "Qh"]


def test_a_sliver_of_table_on_an_enrolled_face_is_no_pip():
    """A face rectified a pixel wide takes in a sliver of table along its
    side; found as the lowest blob of the index box it was taken for the
    pip (the report half's 10 of diamonds), turning every read of the card."""
    face = cv2.resize(builtin_faces(french=True)[parse_card("Td")], (200, 300))
    face[30:84, 0] = 30
    rank, pip, _, _ = anchors(face)
    assert abs(pip[0] - rank[0]) < 5 and pip[1] > rank[1] + 15


def test_an_index_found_askew_is_left_out_of_the_model():
    good = {c: (np.array([25.0, 24.0]), np.array([25.0, 52.0]), 230.0, 350.0) for c in range(5)}
    askew = {**good, 9: (np.array([26.0, 22.0]), np.array([0.0, 47.0]), 250.0, 47.0)}
    assert sorted(_consistent(askew)) == sorted(good)


def _fan(faces, names, shift):
    """A hand fanned to the right, each card on top of the last, turned 4
    degrees about its bottom, with a soft shadow: the index of every card
    but the top one shows in a strip beside the next card's edge."""
    canvas = np.full((700, 900, 3), (36, 38, 40), np.uint8)
    for i, name in enumerate(names):
        face = cv2.GaussianBlur(cv2.resize(faces[parse_card(name)], (160, 240)), (0, 0), 1.0)
        m = cv2.getRotationMatrix2D((80, 240), 4.0 * (len(names) // 2 - i), 1.0)
        m[:, 2] += (300 + shift * i, 200)
        mask = cv2.warpAffine(np.full((240, 160), 255, np.uint8), m, (900, 700)) > 0
        shadow = np.roll(cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 2.5), 2, axis=1)
        canvas = (canvas * (1 - 0.35 * shadow)[..., None]).astype(np.uint8)
        canvas[mask] = cv2.warpAffine(face, m, (900, 700))[mask]
    return canvas


def test_a_tight_fan_is_read_by_its_glyphs_cores(french):
    """The next card's edge and shadow beside each index glyph lower every
    rank's score alike; the glyph's core still tells the rank (without it
    this fan reads 3 of its 6 cards)."""
    faces, deck = french
    hand = ["Qh", "Kc", "Js", "8d", "9h", "7s"]
    named = [card_name(r.card) for r in read_corners(_fan(faces, hand, 22), deck)]
    assert set(named) <= set(hand)
    assert len(named) >= 5, named


def test_a_glyph_whose_side_cell_holds_a_neighbours_edge_is_judged_by_its_core(french):
    """The next card's edge in a side cell of the rank patch fails the worst
    cell though the glyph is clearly its rank (bidly's deals 1-3: a 10, a K,
    a Q refused so); the glyph's core, which holds every stroke, judges
    whether one is missing (without it this fan reads 5 of its 6 cards)."""
    faces, deck = french
    hand = ["Jc", "8s", "Th", "Ac", "Qs", "9d"]
    named = [card_name(r.card) for r in read_corners(_fan(faces, hand, 22), deck)]
    assert sorted(named) == sorted(hand)


def test_a_clearly_red_pip_need_only_lead_the_other_red_suit(french):
    """A diamond's pip at an index's size is as like a club's by shape as a
    heart's; when the pip is clearly red, only the heart competes."""
    _, deck = french
    model = corner_model(deck)
    suits = ["c", "d", "h", "s"]
    scores = np.array([0.93, 0.94, 0.50, 0.60])
    suit = _top(scores, suits)
    assert suit[0] == "d" and suit[3] > MAX_RATIO          # by shape alone: not clearly a diamond
    red, black = model.red_split + 2 * COLOUR_CLEAR, model.red_split - 2 * COLOUR_CLEAR
    clear = model._within_colour(suit, scores, suits, red)
    assert clear[0] == "d" and clear[2] == "h" and clear[3] < 0.2
    assert model._within_colour(suit, scores, suits, model.red_split + 0.5 * COLOUR_CLEAR) == suit  # unclear
    assert model._within_colour(suit, scores, suits, black) == suit  # a black pip: the colour check refuses it
    assert model._within_colour(suit, scores, suits, None) == suit   # a grey photo


def test_a_real_deal_of_tight_fans_is_read_from_its_index_corners():
    """bidly's deal 5 (held out while the reader was tuned): four hands of 13
    cards fanned tight on a cork board. Main before this round read 13 of its
    32 Belote cards from their indices; the pip alone as the suit's patch
    (no neighbour's edge beside it) and the pip's clear colour read 20."""
    deck = deck_from_faces({c: [f] for c, f in deck_faces("bidly-scans", DATASETS).items()})
    image, labels = _deal("deal5")
    right, wrong = _tally(read_corners(image, deck), labels)
    assert not wrong, wrong
    assert len(right) >= 18, sorted(right)


def _deal(name: str) -> tuple[np.ndarray, list]:
    """A bidly deal photo and its detector's index labels (card, x, y in pixels)."""
    path = DATASETS / "bidly_deals" / "deals" / f"{name}-md-sq.jpg"
    image = cv2.imread(str(path))
    h, w = image.shape[:2]
    return image, [(dataset_card(e["name"].upper()), e["relative_coordinates"]["center_x"] * w,
                    e["relative_coordinates"]["center_y"] * h)
                   for e in json.loads(path.with_name(f"{name}-md-sq-net1280-labels.json").read_text())]


def _tally(reads: list[CornerRead], labels: list) -> tuple[set, list]:
    """(cards read whose labelled index lies in their index box, cards read
    on a labelled index of another card)."""
    right, wrong = set(), []
    for r in reads:
        inside = {c for c, x, y in labels if cv2.pointPolygonTest(r.index.reshape(-1, 1, 2), (x, y), False) >= 0}
        if r.card in inside:
            right.add(card_name(r.card))
        elif inside:
            wrong.append(card_name(r.card))
    return right, wrong


def test_a_fanned_rank_with_its_neighbours_index_beside_it_is_read_from_its_own_glyph():
    """bidly's deal 6: in a tight fan the next card's rank lies beside this
    one's, where a 10's second digit would; grouped with it, the rank's
    centre sits between the two glyphs and no patch is like an index. The
    reader also tries the rank's own blob: the three jacks fanned there are
    read (round 15 read none of them), and nothing is named wrong."""
    deck = deck_from_faces({c: [f] for c, f in deck_faces("bidly-scans", DATASETS).items()})
    image, labels = _deal("deal6")
    right, wrong = _tally(read_corners(image, deck), labels)
    assert not wrong, wrong
    assert {"Jc", "Jd", "Js"} <= right, sorted(right)


def test_a_deck_that_knows_one_card_names_no_other(french):
    """A partial deck whose corner model learnt one card (the real
    black-and-gold deck: 3 faces enrolled, one index learnt) has no second
    rank or suit to be clearly nearer than: a queen of clubs, made square
    at its photo's stretch, was read as that deck's queen of spades at 0.99.
    No rival, no lead: nothing is named but where that card lies."""
    faces, _ = french
    queen = parse_card("Qs")
    deck = deck_from_faces({queen: [faces[queen]]})
    assert _top(np.array([0.97]), ["Q"])[3] == 1.0
    for k in range(3):
        shot = french_photo(faces, "dark", "report", k)
        for r in read_corners(shot.image, deck):
            assert _index_centre_owner(r, shot) == queen, card_name(r.card)


def _covered(faces, top: str | None):
    """A Kd lying on a dark table, turned 20 degrees, with (``top``) a card
    over its bottom-right corner, where its second index is."""
    canvas = np.full((800, 900, 3), (40, 42, 38), np.uint8)
    for name, centre, angle in (("Kd", (380, 360), 20.0), (top, (540, 545), -35.0)):
        if name is None:
            continue
        face = cv2.resize(faces[parse_card(name)], (200, 300))
        m = cv2.getRotationMatrix2D((100, 150), angle, 1.0)
        m[:, 2] += np.array(centre) - (100, 150)
        mask = cv2.warpAffine(np.full((300, 200), 255, np.uint8), m, (900, 800)) > 0
        canvas[mask] = cv2.warpAffine(face, m, (900, 800))[mask]
    return canvas


def test_a_card_whose_other_index_is_covered_is_not_taken_for_a_whole_card(french):
    """A card the whole-face reader doubts takes its index's name only with
    a second witness when its other index is in view (a 6 of hearts read as
    an 8 from one corner). Where a card lies over that corner, no index is
    there at all: the card is a heap's, and one index is its read (the
    rendered green tune heaps lost a Kd and a Jc, half covered, so)."""
    faces, deck = french
    whole = [r for r in read_corners(_covered(faces, None), deck) if card_name(r.card) == "Kd"]
    assert whole and whole[0].other_shows
    covered = [r for r in read_corners(_covered(faces, "Jc"), deck) if card_name(r.card) == "Kd"]
    assert covered and not covered[0].other_shows and not covered[0].both
    unknown = _entry(None, [tuple(p) for p in covered[0].corners])
    assert [e["card"] for e in merge([unknown], [replace(covered[0], other_shows=True)])] == [None]
    assert merge([unknown], covered)[0]["card"] == "Kd"


def test_two_fanned_indices_whose_boxes_overlap_are_two_cards():
    """In a tight fan neighbouring cards' index boxes share up to 41 %
    (bidly's deal 3), yet each was read from its own glyph and pip: both are
    named. The same boxes read from one glyph (the frames under a unit apart)
    or running two ways are one index named twice: nothing is named."""
    fan = merge([], [_read("Ac", (300, 300), 0.94), _read("Jd", (312, 300), 0.93)])
    assert sorted(e["card"] for e in fan) == ["Ac", "Jd"]
    one_glyph = merge([], [_read("Ac", (300, 300), 0.94), _read("Jd", (306, 302), 0.93)])
    assert [e["card"] for e in one_glyph] == [None]
    turned = _read("Jd", (312, 300), 0.93)
    turn = np.float32([[0.94, -0.34], [0.34, 0.94]])           # 20 degrees
    centre = np.float32([312, 300])
    turned = replace(turned, index=(turned.index - centre) @ turn.T + centre)
    assert [e["card"] for e in merge([], [_read("Ac", (300, 300), 0.94), turned])] == [None]
