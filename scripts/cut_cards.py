"""The crop stress test: whole cards of the real classic deck's TUNE half, cut by the photo's edge.

    .venv/bin/python scripts/cut_cards.py [--cards 7h,7s,8s,8h,8d,8c] [--limit 15]

A card the photo shows only in part is read over its part in view
(``vision.face_match``); the confidence must stay honest there too. Each
labelled card of the named ranks that ``recognize`` finds whole and reads
right is cut as if the photo had been taken closer: the photo cut 30, 50 and
70 % across the card's box from each of its four sides (12 crops, about 8 to
70 % of the face in view), each crop decided as ``recognize`` decides, and
again with its true card taken out of the candidates (an impostor: the deck
lacks it, any read is wrong). Prints each crop, then per share in view the
crops, right, wrong, abstained, and the highest confidence a wrong read or
an impostor read reached. ``crop_examples`` gives ``fit_confidence.py`` the
same kind of evidence (from the other cards of the tune half).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.cards import card_name  # noqa: E402
from vision.confidence import Evidence, decide  # noqa: E402
from vision.evaluate import dataset_card, load_dataset, new_user_deck, split_half, truth_of  # noqa: E402
from vision.face_match import _INTERIOR, Place, Score, despeckled, in_view_mask, score_place  # noqa: E402
from vision.recognize import read_places  # noqa: E402

CUTS = (0.3, 0.5, 0.7)
STRESSED = ("7h", "7s", "8s", "8h", "8d", "8c")


def whole_cards(photos, deck, ranks: Iterator[str] | None = None, skip: tuple[str, ...] = ()):
    """(photo name, despeckled image, place, true card) of each labelled card
    of the tune half that ``recognize``'s whole-face reader finds whole in
    view and reads right (so a crop's failure is the crop's)."""
    for photo in photos:
        labels = {dataset_card(c) for c in photo.cards} - {None}
        wanted = {c for c in labels if (ranks is None or card_name(c) in ranks) and card_name(c) not in skip}
        if not wanted:
            continue
        image = despeckled(cv2.imread(str(photo.path)))
        scale = (image.shape[1] / 640.0, image.shape[0] / 640.0)
        for place, evidence in read_places(image, deck)[0]:
            kind, inside = truth_of(np.float32(place.quad), photo, scale)
            truth = dataset_card(next(iter(inside))) if kind == "card" else None
            if truth in wanted and decide(evidence)[0] == truth and in_view_mask(image.shape, place.to_face) is None:
                yield photo.name, image, place, truth


def crops(image: np.ndarray, place: Place) -> Iterator[tuple[str, tuple[int, int, int, int]]]:
    """(how, box x0 y0 x1 y1) of the 12 cuts of the photo across the card."""
    h, w = image.shape[:2]
    (x0, y0), (x1, y1) = np.float32(place.quad).min(axis=0), np.float32(place.quad).max(axis=0)
    for f in CUTS:
        yield f"left {f:.0%}", (int(x0 + f * (x1 - x0)), 0, w, h)
        yield f"right {f:.0%}", (0, 0, int(x1 - f * (x1 - x0)), h)
        yield f"top {f:.0%}", (0, int(y0 + f * (y1 - y0)), w, h)
        yield f"bottom {f:.0%}", (0, 0, w, int(y1 - f * (y1 - y0)))


def cropped_scores(image: np.ndarray, place: Place, deck, box) -> tuple[np.ndarray, Place, list[Score]]:
    """The photo cut to ``box``, the place moved into it, and every
    candidate's score there, as if the photo had been taken that way."""
    x0, y0, x1, y1 = box
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
    moved = dataclasses.replace(place, quad=np.float32(place.quad) - [x0, y0], to_face=shift @ place.to_face,
                                also=tuple(shift @ v for v in place.also))
    cut = image[y0:y1, x0:x1]
    return cut, moved, score_place(cut, moved, deck)


def crop_examples(cards, deck) -> list[tuple[Evidence, bool]]:
    """Evidence of every crop of ``cards`` (``whole_cards``), right when its
    best card is the truth, and of each with its truth taken out (wrong)."""
    out = []
    for _, image, place, truth in cards:
        for _, box in crops(image, place):
            cut, moved, scores = cropped_scores(image, place, deck, box)
            if scores:
                out.append((Evidence.of(scores, moved, cut, deck), scores[0].card == truth))
            others = [s for s in scores if s.card != truth]
            if others:
                out.append((Evidence.of(others, moved, cut, deck), False))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default=",".join(STRESSED))
    parser.add_argument("--limit", type=int, default=15)
    args = parser.parse_args()
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    photos = [p for p in load_dataset(None) if p.design() == "classic"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        deck, used, _ = new_user_deck(photos, Path(tmp) / "classic", say)
        tune = [p for p in photos if p.name not in used and split_half(p.name) == "tune"]
        for k, (name, image, place, truth) in enumerate(whole_cards(tune, deck, args.cards.split(","))):
            if k == args.limit:
                break
            for how, box in crops(image, place):
                cut, moved, scores = cropped_scores(image, place, deck, box)
                read, conf = decide(Evidence.of(scores, moved, cut, deck)) if scores else (None, 0.0)
                others = [s for s in scores if s.card != truth]
                fake, fake_conf = decide(Evidence.of(others, moved, cut, deck)) if others else (None, 0.0)
                mask = in_view_mask((box[3] - box[1], box[2] - box[0]), moved.to_face)
                shown = 1.0 if mask is None else float(mask.sum() / _INTERIOR.sum())
                rows.append((shown, read, conf, truth, fake, fake_conf))
                print(f"{name} {card_name(truth):3} {how:10} in view {shown:4.0%}  read "
                      f"{card_name(read) if read is not None else '-':3} {conf:.3f}  impostor "
                      f"{card_name(fake) if fake is not None else '-':3} {fake_conf:.3f}", flush=True)
    print(f"\n{'in view':10} {'crops':>5} {'right':>5} {'wrong':>5} {'abst.':>5} {'right>=0.9':>10} "
          f"{'max wrong':>9} {'impostor reads':>14} {'max impostor':>12}")
    for lo, hi in ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.01), (0.0, 1.01)):
        sel = [r for r in rows if lo <= r[0] < hi]
        right = [r for r in sel if r[1] == r[3]]
        wrong = [r for r in sel if r[1] is not None and r[1] != r[3]]
        fakes = [r for r in sel if r[4] is not None]
        label = "all" if lo == 0.0 and hi > 1 else f"{lo:.0%}-{min(hi, 1):.0%}"
        print(f"{label:10} {len(sel):5d} {len(right):5d} {len(wrong):5d} {len(sel) - len(right) - len(wrong):5d} "
              f"{sum(r[2] >= 0.9 for r in right):10d} {max([r[2] for r in wrong], default=0):9.3f} "
              f"{len(fakes):14d} {max([r[5] for r in fakes], default=0):12.3f}")


if __name__ == "__main__":
    main()
