"""Card faces: a deck drawn by the project, and real card faces cut out of photos.

The demo and the tests need card images they are allowed to ship and that
look like a real 32-card Piquet deck: white card, corner indices (rank above a
small suit pip, repeated upside down in the opposite corner), pips laid out
as on real cards, court cards framed. ``french=True`` draws the French indices
R, D, V for king, queen, jack, and "1" for the ace, as on French club decks.

``photo_faces`` cuts real card faces out of the labelled photos of
``shared/datasets/cardcounter_real`` (CC BY 4.0), so tests can also render
scenes from real printed cards: the card is segmented as the bright,
unsaturated blob that holds both labelled corner indices, and rectified to an
upright face.

A face is a BGR ``uint8`` image, portrait, ``FACE_SIZE`` pixels, ratio 56:87.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from referee.cards import (CLUBS, FRENCH_RANKS, JACK, KING, QUEEN, RANKS, SPADES, card_name, make_card, rank_of,
                           suit_of)

from .deck import portrait

FACE_SIZE = (224, 348)               # width, height: 4 px/mm of a 56 x 87 mm card
CARD_MM = (56.0, 87.0)
_RED, _BLACK = (38, 30, 200), (25, 25, 25)
#: Suit colours (s h d c): two-colour as on most decks, or four-colour (blue
#: diamonds, green clubs) as on tournament and streaming decks, which a camera
#: (and a viewer) tells apart at a glance.
_TWO_COLOURS = (_BLACK, _RED, _RED, _BLACK)
_FOUR_COLOURS = (_BLACK, _RED, (180, 90, 10), (40, 130, 20))
# Pip centres on a 0..1 grid of the card's middle area, as laid out on real cards.
_PIPS = {
    0: [(0, 0), (1, 0), (0, .5), (1, .5), (0, 1), (1, 1), (.5, .25)],                                    # 7
    1: [(0, 0), (1, 0), (0, .5), (1, .5), (0, 1), (1, 1), (.5, .25), (.5, .75)],                         # 8
    2: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1), (.5, .5)],       # 9
    3: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1), (.5, 1 / 6),
        (.5, 5 / 6)],                                                                                    # 10
}


def draw_suit(img: np.ndarray, suit: int, centre, size: float, flip: bool = False,
              colours=_TWO_COLOURS) -> None:
    """A filled suit symbol (0 spade, 1 heart, 2 diamond, 3 club), ``size`` px tall."""
    colour = colours[suit]
    cx, cy = centre
    s = size / 2
    sign = -1 if flip else 1

    def p(x, y):  # unit coordinates (y down, -1..1) -> pixels, flipped upside down if asked
        return (int(round(cx + x * s * sign)), int(round(cy + y * s * sign)))

    def lobe_heart(invert):
        k = -1 if invert else 1
        r = 0.5 * s
        for dx in (-0.48, 0.48):
            x, y = p(dx, -0.35 * k)
            cv2.circle(img, (x, y), int(round(r)), colour, -1, cv2.LINE_AA)
        tri = np.array([p(-0.96, -0.2 * k), p(0.96, -0.2 * k), p(0, 0.95 * k)], np.int32)
        cv2.fillConvexPoly(img, tri, colour, cv2.LINE_AA)

    if suit == 1:
        lobe_heart(False)
    elif suit == 0:
        lobe_heart(True)
        stem = np.array([p(0, 0.1), p(0.35, 1.0), p(-0.35, 1.0)], np.int32)
        cv2.fillConvexPoly(img, stem, colour, cv2.LINE_AA)
    elif suit == 2:
        cv2.fillConvexPoly(img, np.array([p(0, -1), p(0.72, 0), p(0, 1), p(-0.72, 0)], np.int32), colour,
                           cv2.LINE_AA)
    else:
        r = int(round(0.4 * s))
        for x, y in ((0, -0.52), (-0.5, 0.12), (0.5, 0.12)):
            cv2.circle(img, p(x, y), r, colour, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([p(0, -0.1), p(0.35, 1.0), p(-0.35, 1.0)], np.int32), colour,
                           cv2.LINE_AA)


def draw_face(card: int, french: bool = False, size: tuple[int, int] = FACE_SIZE,
              four_colour: bool = False) -> np.ndarray:
    """One card face, drawn at 2x and shrunk so edges are anti-aliased like a print."""
    k = 2
    w, h = size[0] * k, size[1] * k
    img = np.full((h, w, 3), 248, np.uint8)
    suit, rank = suit_of(card), rank_of(card)
    colours = _FOUR_COLOURS if four_colour else _TWO_COLOURS
    colour = colours[suit]
    label = (FRENCH_RANKS if french else RANKS)[rank]
    label = "10" if label in "TX" else "1" if french and label == "A" else label
    # corner index, drawn once and rotated into the opposite corner
    idx = np.full((int(h * 0.25), int(w * 0.2), 3), 248, np.uint8)
    font, scale, thick = cv2.FONT_HERSHEY_DUPLEX, w / 250 * (0.85 if len(label) == 2 else 1.1), max(2, w // 90)
    (tw, th), _ = cv2.getTextSize(label, font, scale, thick)
    cv2.putText(idx, label, ((idx.shape[1] - tw) // 2, int(th * 1.15)), font, scale, colour, thick, cv2.LINE_AA)
    draw_suit(idx, suit, (idx.shape[1] / 2, th * 1.2 + idx.shape[1] * 0.45), idx.shape[1] * 0.62, colours=colours)
    y0, x0 = int(h * 0.03), int(w * 0.03)
    img[y0:y0 + idx.shape[0], x0:x0 + idx.shape[1]] = idx
    img[h - y0 - idx.shape[0]:h - y0, w - x0 - idx.shape[1]:w - x0] = idx[::-1, ::-1]
    # middle
    left, right, top, bottom = w * 0.3, w * 0.7, h * 0.16, h * 0.84
    if rank <= 3:
        for gx, gy in _PIPS[rank]:
            draw_suit(img, suit, (left + gx * (right - left), top + gy * (bottom - top)), w * 0.17, flip=gy > 0.5,
                      colours=colours)
    elif rank == 7:
        draw_suit(img, suit, (w / 2, h / 2), w * 0.42, colours=colours)
    else:
        x0, y0, x1, y1 = int(w * 0.24), int(h * 0.14), int(w * 0.76), int(h * 0.86)
        band = (150, 110, 40) if suit in (0, 3) else (40, 150, 220)
        cv2.rectangle(img, (x0, y0), (x1, y1), band, -1)
        cv2.rectangle(img, (x0 + k * 6, y0 + k * 6), (x1 - k * 6, y1 - k * 6), (235, 240, 245), -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, k * 2)
        big = (FRENCH_RANKS if french else RANKS)[rank]
        fs = w / 90
        (tw, th), _ = cv2.getTextSize(big, cv2.FONT_HERSHEY_TRIPLEX, fs, k * 5)
        cv2.putText(img, big, (int((w - tw) / 2), int(h * 0.47)), cv2.FONT_HERSHEY_TRIPLEX, fs, colour, k * 5,
                    cv2.LINE_AA)
        draw_suit(img, suit, (w / 2, h * 0.67), w * 0.2, colours=colours)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (170, 170, 170), k * 2)
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA)


def builtin_faces(french: bool = False, size: tuple[int, int] = FACE_SIZE,
                  four_colour: bool = False) -> dict[int, np.ndarray]:
    """The project's own 32-card deck."""
    return {card: draw_face(card, french, size, four_colour) for card in range(32)}


def card_back(size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """The back of the project's deck (what a picked-up trick shows)."""
    w, h = size
    img = np.full((h, w, 3), 245, np.uint8)
    cv2.rectangle(img, (6, 6), (w - 7, h - 7), (120, 40, 30), -1)
    for x in range(-h, w, 14):
        cv2.line(img, (x, 6), (x + h, h + 6), (160, 80, 60), 3, cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (170, 170, 170), 2)
    return img


def write_faces(faces: dict[int, np.ndarray], out: Path) -> list[Path]:
    """Save faces as ``<card>.png`` (the names ``calibrate deck`` reads)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for card, img in sorted(faces.items()):
        path = out / f"{card_name(card)}.png"
        cv2.imwrite(str(path), img)
        paths.append(path)
    return paths


# -- real faces from the labelled photos ------------------------------------------------------

_DATASET_RANKS = {"7": 0, "8": 1, "9": 2, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}


def dataset_card(label: str) -> int | None:
    """``10H`` -> Th; anything not in the 32-card deck (2-6, jokers, backs) -> None."""
    label = label.strip().upper()
    rank = _DATASET_RANKS.get(label[:-1])
    if rank is None or label[-1] not in "SHDC":
        return None
    return make_card("SHDC".index(label[-1]), rank)


#: The phone photos of one deck (the classic design); the other series show the
#: black-and-gold deck. Enrolling one deck and playing the other would be a test
#: of something no club does.
CLASSIC_SERIES = "IMG_20220921_"


def photo_faces(dataset: Path, per_card: int = 2, size: tuple[int, int] = FACE_SIZE, colour: bool = True,
                keep: Callable[[str], bool] = lambda name: name.startswith(CLASSIC_SERIES)
                ) -> dict[int, list[np.ndarray]]:
    """Real faces of the 32 Belote cards from single-card photos of the dataset.

    Returns card -> up to ``per_card`` faces, each from a different photo, in
    the manifest's order (so callers can enrol from one photo and test on
    another), from the photos whose name ``keep`` accepts (one deck; by
    default this set's phone photos of the classic deck).
    Photos where the card cannot be cut out cleanly are skipped, and with
    ``colour`` the greyscale ones too: a table camera films in colour.
    """
    found: dict[int, list[np.ndarray]] = {}
    with open(dataset / "manifest.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            card = dataset_card(row["cards"]) \
                if row["n_boxes"].strip() == "2" and keep(row["image"]) else None
            if card is None or len(found.get(card, [])) >= per_card:
                continue
            image = cv2.imread(str(dataset / "images" / row["image"]))
            label = dataset / "labels" / (Path(row["image"]).stem + ".txt")
            if image is None or not label.exists():
                continue
            boxes = np.loadtxt(label, ndmin=2)[:, 1:3] * [image.shape[1], image.shape[0]]
            face = cut_out_card(image, boxes, size)
            if face is not None and not (colour and _lost_its_colour(face, card)):
                found.setdefault(card, []).append(face)
    return found


def _lost_its_colour(face: np.ndarray, card: int) -> bool:
    """A greyscale or washed-out shot of a card printed in colour: red pips or
    court pictures without saturated pixels, or a corner index too faint to read.
    (A black number card looks the same in grey.)"""
    h, w = face.shape[:2]
    if cv2.cvtColor(face[: h // 4, : w // 4], cv2.COLOR_BGR2GRAY).std() < 25:
        return True
    if suit_of(card) in (SPADES, CLUBS) and rank_of(card) not in (JACK, QUEEN, KING):
        return False
    return float((cv2.cvtColor(face, cv2.COLOR_BGR2HSV)[:, :, 1] > 90).mean()) < 0.02


def cut_out_card(image: np.ndarray, index_centres: np.ndarray, size: tuple[int, int] = FACE_SIZE):
    """Rectify the card whose corner indices are at ``index_centres`` (pixels) into an
    upright face, or None when no clean four-sided card outline holds them."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    whiteness = cv2.subtract(hsv[:, :, 2], hsv[:, :, 1])
    _, mask = cv2.threshold(cv2.GaussianBlur(whiteness, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((25, 25), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        if not all(cv2.pointPolygonTest(contour, (float(x), float(y)), False) > 0 for x, y in index_centres):
            continue
        hull = cv2.convexHull(contour)
        quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(quad) != 4 or cv2.contourArea(quad) < 0.05 * image.shape[0] * image.shape[1]:
            return None
        quad = portrait(_clockwise_from_top_left(quad.astype(np.float32)))
        w, h = size
        dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
        m = cv2.getPerspectiveTransform(quad, dst)
        face = cv2.warpPerspective(image, m, size, flags=cv2.INTER_AREA)
        idx = cv2.perspectiveTransform(index_centres.reshape(-1, 1, 2).astype(np.float32), m).reshape(-1, 2)
        return face if _is_full_card(face, idx) else None
    return None


def _is_full_card(face: np.ndarray, index_centres: np.ndarray) -> bool:
    """Whether a rectified face is the whole card, edge to edge, and upright.

    The outline found in a photo can take in the light paper the card lies on
    (the face then shows the card askew, its indices pushed inwards) or miss a
    piece of the card (a dark strip of table along one side). Either face
    would enrol or render a card that no camera sees, so both are refused.
    On this deck an index centre lies about 10 % of the width from the side
    and 14 % of the height from the end (at most 17 % and 21 % over all the
    clean cut-outs, all within 35 % of the width of the corner); askew ones are
    25 % of the width or more from the side.
    """
    h, w = face.shape[:2]
    for x, y in index_centres:
        if y > h / 2:                           # the upside-down index: measure from the other corner
            x, y = w - x, h - y
        if not (0 <= x <= 0.21 * w and 0 <= y <= 0.22 * h and np.hypot(x, y) <= 0.35 * w):
            return False
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    dark = grey < 0.6 * float(np.median(grey))  # darker than the card's paper
    b = max(3, w // 25)                         # the plain margin round the print
    return all(float(side.mean()) <= 0.25 for side in (dark[:b], dark[-b:], dark[:, :b], dark[:, -b:]))


def _clockwise_from_top_left(quad: np.ndarray) -> np.ndarray:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]                 # clockwise in image coordinates (y down)
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)
