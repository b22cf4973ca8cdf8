"""Enrolling a deck: from a folder of photos, or card by card from the table's own camera.

Each shot goes through ``vision.shot.enrolment_sample`` (the card's whole
face, cut cleanly, or a refusal saying what to change); this module runs the
session around it: which card to show next, progress, several shots of a
card kept as several faces, and the deck written with its contact sheet
(``vision.contact_sheet``): the faces side by side and every refused shot
drawn with its reason, so a person sees at a glance what the table learnt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES, CardError, card_name, parse_card

from . import align
from .contact_sheet import write_contact_sheet, write_refusals
from .deck import FACE_SIZE, Deck, DeckError
from .locate import find_cards
from .read import decide, verify
from .shot import Refusal, enrolment_sample

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def card_from_filename(path: Path) -> int:
    """``Jh.jpg``, ``Jh_2.png``, ``10h_top.jpg``, ``QH.jpg`` -> the card."""
    return parse_card(path.stem.split("_", 1)[0])


def enrolment_photos(images_dir: Path) -> tuple[list[tuple[int, Path]], list[str]]:
    """The photos of a directory with the card each shows, and the names that
    are not cards (to report, not to guess)."""
    if not images_dir.is_dir():
        raise DeckError(f"{images_dir} is not a directory of card photos")
    photos, ignored = [], []
    for path in sorted(images_dir.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            photos.append((card_from_filename(path), path))
        except CardError:
            ignored.append(f"{path.name}: not named after a card (write e.g. Jh.jpg, 10h_2.png)")
    return photos, ignored


def finish(faces: dict[int, list[np.ndarray]], out: Optional[str | Path], sources: Optional[dict[str, str]] = None,
           refused: Iterable[tuple[str, np.ndarray, Refusal]] = (),
           progress: Callable[[str], None] = lambda m: None) -> Deck:
    """A deck from accepted faces, and, with ``out``,
    written there with its contact sheet (and the refused shots' sheet)."""
    deck = Deck(faces={c: [cv2.resize(f, FACE_SIZE, interpolation=cv2.INTER_AREA) for f in fs]
                       for c, fs in faces.items()})
    if out is not None:
        deck.save(out, sources)
        sheet = write_contact_sheet(deck, Path(out) / "contact-sheet.png")
        progress(f"contact sheet: {sheet} (check every face is its card, whole and upright)")
        refused = list(refused)
        if refused:
            progress(f"refused shots drawn with their reasons: {write_refusals(refused, Path(out) / 'refused.png')}")
    return deck


def deck_from_faces(faces: dict[int, Iterable[np.ndarray]]) -> Deck:
    """A deck from already rectified faces (tests, rendered decks), not written."""
    return finish({c: list(fs) for c, fs in faces.items()}, None)


def enrol_deck(images_dir: str | Path, out_dir: str | Path,
               progress: Callable[[str], None] = lambda message: None,
               require_all: bool = True) -> tuple[Deck, list[str]]:
    """Enrol the deck photographed in ``images_dir`` and write it to ``out_dir``.

    Every accepted shot of a card is kept (several shots of a card make it
    read under more lights). Returns the deck and the list of problems
    (refused shots, unnamed files). Raises ``DeckError`` when a card is left
    with no usable photo and ``require_all`` (a referee must know every
    card), writing nothing then. ``progress`` receives one line per photo.
    """
    images_dir, out_dir = Path(images_dir), Path(out_dir)
    photos, problems = enrolment_photos(images_dir)
    if not photos:
        raise DeckError(f"no card photo in {images_dir}: name each photo after its card, e.g. Jh.jpg, 10h_2.png")
    faces: dict[int, list[np.ndarray]] = {}
    sources: dict[int, list[str]] = {}
    refused: list[tuple[str, np.ndarray, Refusal]] = []
    for i, (card, path) in enumerate(photos, 1):
        image = cv2.imread(str(path))
        result = enrolment_sample(image) if image is not None else Refusal("cannot be read as an image")
        if isinstance(result, Refusal):
            problems.append(f"{path.name}: refused, {result.reason}")
            progress(f"[{i}/{len(photos)}] {path.name}: refused, {result.reason}")
            if image is not None:
                refused.append((path.name, image, result))
            continue
        faces.setdefault(card, []).append(result)
        sources.setdefault(card, []).append(str(path))
        progress(f"[{i}/{len(photos)}] {path.name}: {card_name(card)} enrolled")
    missing = [CARD_NAMES[c] for c in range(32) if c not in faces]
    if missing and require_all:
        raise DeckError(f"no usable photo for {', '.join(missing)}: photograph "
                        f"{'it' if len(missing) == 1 else 'them'} again (see the refusals above) "
                        f"and re-run; nothing was written")
    rel_sources = {f"faces/{card_name(c)}_{i}.png": src for c, srcs in sources.items() for i, src in enumerate(srcs)}
    deck = finish(faces, out_dir, rel_sources, refused, progress)
    return deck, problems


@dataclass
class Verdict:
    """What a live enrolment says about one frame."""

    accepted: bool
    card: Optional[int]          # the card it was (or would have been) enrolled as
    message: str                 # for the person at the table
    remaining: int


@dataclass
class LiveEnrolment:
    """Show each of the 32 cards to the camera, one at a time, in deck order.

    ``offer(frame)`` checks a frame for the card asked for (``expected``):
    accepted, or refused with a reason (blurred, no card, several cards).
    When ``done``, ``finish(out)`` writes the deck like the folder variant.
    """

    order: list[int] = field(default_factory=lambda: list(range(32)))
    faces: dict[int, list[np.ndarray]] = field(default_factory=dict)
    refused: list = field(default_factory=list)
    #: After a card is taken, the table must be seen empty before the next:
    #: a camera keeps seeing the card just enrolled until it is picked up.
    waiting_clear: bool = False
    #: The card enrolled last: shown again in place of the next one (the
    #: usual slip), it is refused by name. Only that one is compared: two
    #: cards that share a picture and differ by their index's suit are not
    #: told apart reliably by a 60 px table camera, so comparing with every
    #: enrolled card would refuse a jack of clubs as the jack of spades.
    last: Optional[int] = None

    @property
    def expected(self) -> Optional[int]:
        return next((c for c in self.order if c not in self.faces), None)

    @property
    def done(self) -> bool:
        return self.expected is None

    def offer(self, frame_bgr: np.ndarray) -> Verdict:
        card = self.expected
        remaining = sum(1 for c in self.order if c not in self.faces)
        if card is None:
            return Verdict(False, None, "every card is enrolled", 0)
        if self.waiting_clear:
            if find_cards(frame_bgr):
                return Verdict(False, card, f"take the card away, then show {card_name(card)}", remaining)
            self.waiting_clear = False
            return Verdict(False, card, f"now show {card_name(card)}", remaining)
        result = enrolment_sample(frame_bgr)
        if not isinstance(result, Refusal) and self.last is not None:
            twin = _already_enrolled(result, {self.last: self.faces[self.last]})
            if twin is not None:
                result = Refusal(f"this is {card_name(twin)} again (already enrolled): show {card_name(card)}")
        if isinstance(result, Refusal):
            if len(self.refused) < 64:
                self.refused.append((f"{card_name(card)} #{len(self.refused) + 1}", frame_bgr.copy(), result))
            return Verdict(False, card, f"{card_name(card)}: {result.reason}", remaining)
        self.faces[card] = [result]
        self.last = card
        self.waiting_clear = True
        nxt = self.expected
        follow = f"; now show {card_name(nxt)}" if nxt is not None else "; all cards seen"
        return Verdict(True, card, f"{card_name(card)} enrolled ({len(self.order) - remaining + 1}/{len(self.order)})"
                                   f"{follow}", remaining - 1)

    def finish(self, out: str | Path, progress: Callable[[str], None] = lambda m: None) -> Deck:
        if not self.done:
            missing = ", ".join(card_name(c) for c in self.order if c not in self.faces)
            raise DeckError(f"not finished: still to show {missing}")
        return finish(self.faces, out, None, self.refused, progress)


def _already_enrolled(face: np.ndarray, faces: dict[int, list[np.ndarray]]) -> Optional[int]:
    """The card of ``faces`` this face is another shot of, read as the
    reader would read it against them, or None."""
    if not faces:
        return None
    view = cv2.resize(face, (2 * align.SIZE[0], 2 * align.SIZE[1]), interpolation=cv2.INTER_AREA)
    return decide(verify([view], Deck(faces=faces))).card
