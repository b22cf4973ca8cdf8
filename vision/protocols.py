"""The product owner's two protocols, run on rendered photos: enrol as they do, read as they do, count.

``vision.photo_sets`` renders the photos; this module plays the user:

- *enrol*: per card, the shots in order, each offered to ``calibrate deck``'s
  own check (``vision.shot.enrolment_sample``) until one is accepted (at most
  ``ENROL_TRIES``); the shots tried are written as ``<card>_<k>.jpg`` into a
  folder and the deck is made from it by the real ``calibrate deck`` code path
  (``vision.enrol.enrol_deck``), so the refused shots are refused there too
  and drawn in ``refused.png``. First-shot refusals are reported with their
  reasons.
- *read*: every other photo through ``vision.recognize`` (what ``vision
  recognize`` prints), each card's answer compared with the truth:
  one card per photo (webcam): right when the only card named is the card,
  wrong when any other card is named, abstained otherwise; several cards
  (French): each card that shows whole, and each in a heap or fan whose index
  corner shows, counted in its own tally; a card named where no card
  lies is a wrong read.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Optional

import cv2
import numpy as np

from referee.cards import card_name, parse_card

from . import overlap
from .deck import Deck
from .enrol import enrol_deck
from .photo_sets import ENROL_TRIES, SETS, Shot, enrolment_shot, shots_of_set, webcam_shot
from .recognize import recognize
from .shot import Refusal, enrolment_sample

#: A card counts as lying whole in a photo when this share of it shows.
WHOLE = 0.97


def enrol(name: str, faces: dict[int, np.ndarray], half: str, folder: Path,
          progress: Callable[[str], None] = lambda m: None) -> tuple[Optional[Deck], dict[int, int], list[str]]:
    """Enrol set ``name``'s deck as its protocol does -> (deck or None,
    card -> the shot enrolled, first-shot refusals "card: reason")."""
    protocol, table = SETS[name]
    shots = folder / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    used, refusals = {}, []
    for card in sorted(faces):
        for k in range(ENROL_TRIES):
            shot = webcam_shot(faces, card, table, half, k) if protocol == "webcam" \
                else enrolment_shot(faces, card, protocol, half, k)
            path = shots / f"{card_name(card)}_{k}.jpg"
            cv2.imwrite(str(path), shot.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            # Judged as ``calibrate deck`` will judge it: the file, not the picture
            # before JPEG (a shot at the edge of a check can pass one and fail the other,
            # and the card would then be missing from the deck with no next shot tried).
            sample = enrolment_sample(cv2.imread(str(path)))
            if isinstance(sample, Refusal):
                if k == 0:
                    refusals.append(f"{card_name(card)}: {sample.reason}")
                continue
            used[card] = k
            break
    if not used:
        return None, used, refusals
    deck, _ = enrol_deck(shots, folder / "deck", require_all=False)
    progress(f"  {name} ({half}): enrolled {len(deck.cards)}/{len(faces)} cards, {len(refusals)} first shots "
             f"refused")
    return deck, used, refusals


def read(name: str, deck: Deck, faces: dict[int, np.ndarray], half: str, count: int, skip: dict[int, int],
         tallies: dict, progress: Callable[[str], None] = lambda m: None) -> dict:
    """Read set ``name``'s photos into ``tallies`` (``whole``, and for the
    French protocol ``heap``: cards whose index corner only shows); returns
    timing."""
    protocol, _ = SETS[name]
    spent, photos = 0.0, 0
    for where, shot in shots_of_set(name, faces, half, count, skip):
        t0 = time.perf_counter()
        found = recognize(shot.image, deck)
        spent += time.perf_counter() - t0
        photos += 1
        if protocol == "webcam":
            _single(shot, found, tallies["whole"], where)
        else:
            _several(shot, found, tallies, where)
        if photos % 50 == 0:
            w = tallies["whole"]
            progress(f"  {name} ({half}): {photos} photos, whole cards right {w.right} wrong {w.wrong} "
                     f"abstained {w.abstained}")
    return {"photos": photos, "seconds_per_photo": round(spent / max(photos, 1), 3)}


def _single(shot: Shot, found: list[dict], tally, where: str) -> None:
    truth = shot.cards[0].card
    named = [(parse_card(f["card"]), f["confidence"]) for f in found if f["card"]]
    others = [(c, conf) for c, conf in named if c != truth]
    if others:
        tally.add(truth, others[0][0], f"{where}:{card_name(truth)}", others[0][1])
    elif named:
        tally.add(truth, truth, where, max(conf for _, conf in named))
    else:
        tally.add(truth, None, where + (" (not found)" if not found else ""))


def _several(shot: Shot, found: list[dict], tallies: dict, where: str) -> None:
    """Each truth card counted once: right when some answer at its place
    names it, wrong when one names another card, else abstained (missed
    included); cards neither whole nor with an index showing count only
    when read wrong."""
    answers: dict[int, list[tuple[Optional[int], float]]] = {}
    for f in found:
        i = _under(np.float32(f["index"]), shot) if "index" in f else _which(np.float32(f["corners"]), shot)
        read = parse_card(f["card"]) if f["card"] else None
        if i is None:
            if read is not None:
                tallies["whole"].add(None, read, f"{where}: a card named where none lies", f["confidence"])
            continue
        answers.setdefault(i, []).append((read, f["confidence"]))
    for i, placed in enumerate(shot.cards):
        kind = "whole" if placed.shown >= WHOLE else "heap" if placed.index_shown else None
        mine = answers.get(i, [])
        wrong = [(c, conf) for c, conf in mine if c is not None and c != placed.card]
        right = [(c, conf) for c, conf in mine if c == placed.card]
        tally = tallies[kind or "heap"]
        if wrong:
            tally.add(placed.card, wrong[0][0], f"{where}:{card_name(placed.card)}", wrong[0][1])
        elif kind is None:
            continue
        elif right:
            tally.add(placed.card, placed.card, where, max(conf for _, conf in right))
        else:
            tally.add(placed.card, None, where)


def _which(quad: np.ndarray, shot: Shot) -> Optional[int]:
    """The truth card an answer's quad stands for: the one it overlaps most
    (intersection over union at least 0.5), else the topmost card under its
    centre."""
    best, best_iou = None, 0.5
    for i, placed in enumerate(shot.cards):
        iou = overlap.iou(quad, placed.corners)
        if iou >= best_iou:
            best, best_iou = i, iou
    if best is not None:
        return best
    return _under(quad, shot)


def _under(quad: np.ndarray, shot: Shot) -> Optional[int]:
    """The topmost truth card under the centre of ``quad`` (an index box read: its own card's)."""
    centre = tuple(float(v) for v in quad.mean(axis=0))
    under = [i for i, p in enumerate(shot.cards)
             if cv2.pointPolygonTest(p.corners.reshape(-1, 1, 2), centre, False) >= 0]
    return under[-1] if under else None
