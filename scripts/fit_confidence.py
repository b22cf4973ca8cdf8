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
  candidates and of the keypoints' proposals: an impostor (the deck lacks
  the card; any read is wrong);
- with ``--crops N`` (round 10; 0 by default), cards cut by the photo's
  edge: N whole cards of that tune half read right, each cut 12 ways
  (``scripts/cut_cards.py``; the 7s and 8s that script's stress test cuts
  are left out), with their impostors. They are not in the fit the
  coefficients come from (``vision.confidence.CUT_CAP`` says why).

``--dump FILE`` keeps every example (pickled: the evidence, whether it is
right, where it came from) to look at without reading the photos again.

Prints the coefficients and intercept to paste into ``vision.confidence``,
and how the read rule with them fares on those places (all must stay right).
Takes several minutes (SIFT and ECC on a few hundred photos); progress on stderr.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.recognize  # noqa: E402
from cut_cards import STRESSED, crop_examples  # noqa: E402
from referee.cards import card_name  # noqa: E402
from vision import confidence, protocols  # noqa: E402
from vision.evaluate import dataset_card, default_dataset, load_dataset, new_user_deck, split_half, truth_of  # noqa: E402
from vision.face_match import despeckled  # noqa: E402
from vision.photo_sets import deck_faces, shots_of_set  # noqa: E402


def places(image, deck):
    """(place, every candidate's score) at each place ``recognize`` reads,
    the scores kept as ``read_places`` computes them (each place scored once)."""
    kept = []
    score_place = vision.recognize.score_place

    def keep(image, place, deck):
        kept.append(score_place(image, place, deck))
        return kept[-1]
    vision.recognize.score_place = keep
    try:
        found = vision.recognize.read_places(image, deck)[0]
    finally:
        vision.recognize.score_place = score_place
    return [(place, scores) for (place, _), scores in zip(found, kept)]


def examples(scores, place, truth, enrolled, out, image, deck) -> None:
    """The place's evidence (right when its best card is the truth), and the
    same place with the truth taken out (an impostor), judged as
    ``recognize`` judges them (the photo's close rivals where the faces differ)."""
    if not scores:
        return
    ev = confidence.Evidence.of(scores, place, image, deck)
    out.append((ev, enrolled and ev.card == truth))
    others = [s for s in scores if s.card != truth]
    if enrolled and others:
        # The keypoints of a deck that lacks the card propose the others they matched: their first may
        # well be the impostor (a 7c's photo, the 8c's face: 82 inliers), so the keypoints "agree" with
        # it as often as they do with a right read (round 17: with the truth left among the proposals,
        # no impostor agreed, and agreement weighed as proof).
        lacking = replace(place, cards=tuple(c for c in place.cards if c != truth),
                          tied=tuple((c, n) for c, n in place.tied if c != truth))
        out.append((confidence.Evidence.of(others, lacking, image, deck), False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=3)
    parser.add_argument("--l2", type=float, default=0.1)
    parser.add_argument("--crops", type=int, default=0)
    parser.add_argument("--dump", default=None)
    args = parser.parse_args()
    say = lambda m: print(m, file=sys.stderr)  # noqa: E731
    out: list = []
    origin: list = []       # where each example came from
    real: list = []         # per real photo: its name, labels and places (kind, labels inside, evidence)
    with tempfile.TemporaryDirectory() as tmp:
        faces = deck_faces("bidly-scans", default_dataset().parent)
        for name in ("webcam-light-grey", "webcam-beige"):
            deck, used, _ = protocols.enrol(name, faces, "tune", Path(tmp) / name, say)
            for where, shot in shots_of_set(name, faces, "tune", args.shots, used):
                truth = shot.cards[0].card
                for place, scores in places(shot.image, deck):
                    examples(scores, place, truth, truth in deck.faces, out, despeckled(shot.image), deck)
                origin += [name] * (len(out) - len(origin))
            say(f"{name}: {len(out)} examples")
        photos = [p for p in load_dataset(None) if p.design() == "classic"]
        deck, used, _ = new_user_deck(photos, Path(tmp) / "classic", say)
        whole = []          # whole cards read right: cut by ``--crops``
        for photo in (p for p in photos if p.name not in used and split_half(p.name) == "tune"):
            image = cv2.imread(str(photo.path))
            clean = despeckled(image)
            scale = (image.shape[1] / 640.0, image.shape[0] / 640.0)
            real.append((photo.name, sorted(photo.cards), []))
            for place, scores in places(image, deck):
                kind, inside = truth_of(place.quad, photo, scale)
                real[-1][2].append((kind, sorted(inside), confidence.Evidence.of(scores, place, clean, deck),
                                    place.quad))
                if kind == "card":
                    truth = dataset_card(next(iter(inside)))
                    examples(scores, place, truth, truth is not None and truth in deck.faces, out, clean, deck)
                    origin += [photo.name] * (len(out) - len(origin))
                    ev = real[-1][2][-1][2]
                    if ev.card == truth and confidence.readable(ev) and ev.shown == 1.0 \
                            and card_name(truth) not in STRESSED and len(whole) < args.crops:
                        whole.append((photo.name, clean, place, truth))
        say(f"real classic tune half: {len(out)} examples")
        cut = crop_examples(whole, deck)
        out += cut
        origin += ["crop"] * len(cut)
        say(f"crops of {len(whole)} whole cards: {len(out)} examples in all")
    if args.dump:
        with open(args.dump, "wb") as fh:
            pickle.dump({"examples": [(e, r, o) for (e, r), o in zip(out, origin)], "real": real}, fh)
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
