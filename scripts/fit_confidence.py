"""Refit the still reader's confidence (``vision.confidence``) on the TUNE halves only.

    .venv/bin/python scripts/fit_confidence.py [--shots 3] [--l2 0.1]

What it reads (nothing of a report half):
- the rendered webcam protocol's tune half on light grey and beige
  (``vision.photo_sets``, bidly's scans), enrolled as a new user
  (``vision.protocols.enrol``), the first ``--shots`` shots of each card
  read but the enrolled one (3: two shots a card);
- the real classic deck's tune half (``vision.evaluate``: enrolled as a new
  user from its single-card photos), every located card, the cards its deck
  lacks and 2-6 included (any read of those is wrong);
- each of those places again with its true card taken out of the
  candidates: an impostor (the deck lacks the card; any read is wrong).

Prints the coefficients and intercept to paste into ``vision.confidence``,
and how the read rule with them fares on those places (all must stay right).
Takes several minutes (SIFT and ECC on a few hundred photos); progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import confidence, protocols  # noqa: E402
from vision.evaluate import dataset_card, default_dataset, load_dataset, new_user_deck, split_half, truth_of  # noqa: E402
from vision.face_match import despeckled, score_place  # noqa: E402
from vision.photo_sets import deck_faces, shots_of_set  # noqa: E402
from vision.recognize import read_places  # noqa: E402


def places(image, deck):
    """(place, every candidate's score) at each place ``recognize`` reads."""
    clean = despeckled(image)
    return [(place, score_place(clean, place, deck)) for place, _ in read_places(image, deck)[0]]


def examples(scores, place, truth, enrolled, out) -> None:
    """The place's evidence (right when its best card is the truth), and the
    same place with the truth taken out (an impostor)."""
    if not scores:
        return
    ev = confidence.Evidence.of(scores, place)
    out.append((ev, enrolled and ev.card == truth))
    others = [s for s in scores if s.card != truth]
    if enrolled and others:
        out.append((confidence.Evidence.of(others, place), False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=3)
    parser.add_argument("--l2", type=float, default=0.1)
    args = parser.parse_args()
    say = lambda m: print(m, file=sys.stderr)  # noqa: E731
    out: list = []
    with tempfile.TemporaryDirectory() as tmp:
        faces = deck_faces("bidly-scans", default_dataset().parent)
        for name in ("webcam-light-grey", "webcam-beige"):
            deck, used, _ = protocols.enrol(name, faces, "tune", Path(tmp) / name, say)
            for where, shot in shots_of_set(name, faces, "tune", args.shots, used):
                truth = shot.cards[0].card
                for place, scores in places(shot.image, deck):
                    examples(scores, place, truth, truth in deck.faces, out)
            say(f"{name}: {len(out)} examples")
        photos = [p for p in load_dataset(None) if p.design() == "classic"]
        deck, used, _ = new_user_deck(photos, Path(tmp) / "classic", say)
        for photo in (p for p in photos if p.name not in used and split_half(p.name) == "tune"):
            image = cv2.imread(str(photo.path))
            scale = (image.shape[1] / 640.0, image.shape[0] / 640.0)
            for place, scores in places(image, deck):
                kind, inside = truth_of(place.quad, photo, scale)
                if kind == "card":
                    truth = dataset_card(next(iter(inside)))
                    examples(scores, place, truth, truth is not None and truth in deck.faces, out)
        say(f"real classic tune half: {len(out)} examples in all")
    evidence, right = zip(*out)
    coefficients, intercept = confidence.fit(evidence, right, l2=args.l2)
    print(f"COEFFICIENTS = {coefficients}\nINTERCEPT = {intercept}")
    confidence.COEFFICIENTS, confidence.INTERCEPT = coefficients, intercept
    passing = [(confidence.probability(e), r) for e, r in out if confidence.readable(e)]
    for floor in (confidence.P_READ, 0.9):
        sure = [r for p, r in passing if p >= floor]
        print(f"places passing the floors: {len(passing)}, at >= {floor}: {len(sure)}, wrong {sure.count(False)}")


if __name__ == "__main__":
    main()
