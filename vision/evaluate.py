"""How well cards are found and read, measured on real photos (``vision evaluate``).

The labelled set (``shared/datasets/cardcounter_real``, CC BY 4.0, from the
public repository Ammememe/CardCounterML, a Roboflow export) has one YOLO box
per visible *corner index*, not per card. A found quad is matched to the
labelled index boxes whose centres fall inside it: one Belote card -> that is
the truth; none -> an empty quad; two different cards -> the locator merged
cards (counted, not read). Cards labelled but never matched were missed.

Measured as a new user would (``new_user_deck``): for each deck design, the
deck is enrolled by the real ``calibrate deck`` code path from ONE photo per
card, the first single-card photo (in name order) that the shot check
accepts, the next one where it refuses; every other photo is test data,
split by name (``split_half``) into a *tune* half (the reader's constants
were chosen looking at it) and a *report* half (the figures quoted).

Sets reported, real photos first:

- ``real:<design> (report half)`` / ``(tune half)``: the other photos of the
  design's deck (Belote cards of the deck only; 2-6, jokers and cards the
  deck lacks go under ``foreign-cards``: they must abstain);
- ``other-deck``: cards of each other design read with the first design's
  deck (a design that cannot be enrolled, the webcam photos' pack, too):
  every answer but "unknown" is wrong;
- ``real:bidly-deals``: ``shared/datasets/bidly_deals``, the deck enrolled
  from its 32 face scans, the 7 overhead photos of overlapping fans read;
- ``rendered:<set>:<deck> (<half> half)``: the product owner's two protocols
  (``vision.photo_sets``, ``vision.protocols``): the webcam's single cards on
  light grey, beige and white tables, the French protocol's 2-9 cards on a
  dark table and a green cloth (``...:heaps``: the cards of heaps and fans
  whose index corner shows), for each face source (bidly's scans, faces cut
  from cardcounter's photos, the drawn French deck), enrolled and read as
  the protocol says; the *tune* and *report* halves are different photos.

Each set with reads gets a confusion matrix and a reliability plot
(``vision.figures``); ``report.json`` holds everything, including the wrong
reads at confidence >= 0.9 over all real sets.
"""

from __future__ import annotations

import csv
import json
import shutil
import time
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES, card_name, parse_card

from .deck import Deck
from .enrol import deck_from_faces, enrol_deck
from .figures import confusion_png, reliability_png
from .faces import dataset_card  # the set's class names (10H, QS) -> card, or None
from .locate import find_cards
from .recognize import recognize
from .shot import Refusal, enrolment_sample, sharpness

ATTRIBUTION = ("cardcounter_real: photos from Ammememe/CardCounterML (Roboflow 'Card Detection', "
               "universe.roboflow.com/cadyzedevelopmenthub/card-detection-zk7wu), CC BY 4.0")
#: The set's deck designs, told apart by how the photos were named: phone
#: photos IMG_2022* show the classic deck, IMG_77xx/78xx the black-and-gold
#: one. The webcam photos WIN_* show a third pack: its court cards are other
#: drawings (brown and gold robes where the classic deck's are blue and red),
#: and none of them holds a single card, so it cannot be enrolled: its cards
#: are read with the classic deck's faces, where every answer is wrong.
DESIGNS = {"classic": ("IMG_2022",), "black-gold": ("IMG_77", "IMG_78"), "webcam": ("WIN_",)}
#: The design of a photo in another labelled set that names no deck.
SINGLE_DECK = "deck"
#: Where the labelled set's own label is wrong: one row per photo and label
#: (image, label, corrected, evidence), each with what the photo shows. Applied
#: when the set is loaded (``load_dataset``), every read it moves printed
#: (``Tally.fixed``); ``vision evaluate --no-label-fixes`` runs without it.
LABEL_FIXES = Path(__file__).with_name("label_fixes.csv")


class EvaluationError(ValueError):
    """The data set is missing or not in the expected layout."""


@dataclass(frozen=True)
class LabelFix:
    """One label of the data set corrected: ``label`` -> ``corrected`` on
    ``image``, for the reason in ``evidence`` (what the photo shows)."""

    image: str
    label: str
    corrected: str
    evidence: str


def label_fixes(path: Path = LABEL_FIXES) -> list[LabelFix]:
    with open(path, newline="") as fh:
        return [LabelFix(row["image"], row["label"], row["corrected"], row["evidence"]) for row in csv.DictReader(fh)]


def default_dataset() -> Path:
    """``shared/datasets/cardcounter_real`` beside the repository (``/work/shared``
    next to ``/work/main``; in CI the clone has ``../shared`` beside it)."""
    return Path(__file__).resolve().parents[2] / "shared" / "datasets" / "cardcounter_real"


@dataclass
class Photo:
    path: Path
    name: str
    labels: list[str]               # dataset class of each index box
    centres: np.ndarray             # (n, 2) pixel centres of the index boxes
    deck: Optional[str] = None      # the manifest's "deck" column, where it has one
    fixes: dict[str, LabelFix] = field(default_factory=dict)   # corrected label -> its fix

    @property
    def cards(self) -> set[str]:
        return set(self.labels)

    def design(self) -> str:
        """Which deck the photo shows: the manifest's ``deck`` column, else
        this set's naming (``DESIGNS``), else one deck for the whole set."""
        if self.deck:
            return self.deck
        return next((d for d, prefixes in DESIGNS.items() if self.name.startswith(prefixes)), SINGLE_DECK)


def load_dataset(root: Optional[str | Path] = None, fixes: Optional[Iterable[LabelFix]] = None) -> list[Photo]:
    """The labelled photos, with ``fixes`` applied (default: ``LABEL_FIXES``;
    ``()`` for the labels as the set gives them). A fix acts only where its
    photo carries its label, so it never touches another set's photo of the
    same name."""
    root = Path(root) if root else default_dataset()
    fixes = {(f.image, f.label): f for f in (label_fixes() if fixes is None else fixes)}
    needed = [root / "manifest.csv", root / "images", root / "labels"]
    missing = [str(p) for p in needed if not p.exists()]
    if missing:
        raise EvaluationError(f"the labelled photo set is not at {root} (missing {', '.join(missing)}): "
                              f"pass --dataset DIR, or put shared/datasets beside the repository")
    classes = _class_names(root)
    photos = []
    with open(root / "manifest.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            path = root / "images" / row["image"]
            labels, centres = [], []
            label_file = root / "labels" / (Path(row["image"]).stem + ".txt")
            size = 640.0
            for line in label_file.read_text().splitlines() if label_file.exists() else []:
                parts = line.split()
                if len(parts) >= 5:
                    labels.append(classes[int(parts[0])].strip())
                    centres.append((float(parts[1]) * size, float(parts[2]) * size))
            fixed = [fixes.get((row["image"], label)) for label in labels]
            applied = {f.corrected: f for f in fixed if f is not None}
            labels = [label if f is None else f.corrected for f, label in zip(fixed, labels)]
            photos.append(Photo(path, row["image"], labels, np.array(centres, np.float32).reshape(-1, 2),
                                (row.get("deck") or row.get("design") or "").strip() or None, applied))
    return photos


def _class_names(root: Path) -> list[str]:
    """The label classes, from ``classes.txt`` (one per line) or, as YOLO
    exports also write them, the ``names: [...]`` line of ``data.yaml``."""
    if (root / "classes.txt").exists():
        return (root / "classes.txt").read_text().split("\n")
    yaml = root / "data.yaml"
    for line in yaml.read_text().splitlines() if yaml.exists() else []:
        if line.strip().startswith("names:") and "[" in line:
            return [name.strip().strip("'\"") for name in line.split("[", 1)[1].rsplit("]", 1)[0].split(",")]
    raise EvaluationError(f"{root} names no label classes: add classes.txt (one class per line, e.g. 10H, QS) "
                          f"or a data.yaml with a names: [...] line")


def truth_of(quad: np.ndarray, photo: Photo, scale: tuple[float, float] = (1.0, 1.0)) -> tuple[str, set[str]]:
    """``("card"|"empty"|"merged", labels inside)`` for a found quad."""
    inside = {label for label, (x, y) in zip(photo.labels, photo.centres)
              if cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(x * scale[0]), float(y * scale[1])), False) >= 0}
    if not inside:
        return "empty", inside
    return ("card" if len(inside) == 1 else "merged"), inside


@dataclass
class Tally:
    """Reads of one set: right / wrong / abstained, and the confusion."""

    right: int = 0
    wrong: int = 0
    abstained: int = 0
    confusion: Counter = field(default_factory=Counter)   # (truth name, read name or "?")
    wrong_examples: list = field(default_factory=list)
    reads: list = field(default_factory=list)             # (confidence, right) of every card read
    fixed: list = field(default_factory=list)             # each read counted on a corrected label, in words

    def add(self, truth: Optional[int], read: Optional[int], where: str, confidence: float = 0.0) -> None:
        t = card_name(truth) if truth is not None else "foreign"
        r = card_name(read) if read is not None else "?"
        self.confusion[(t, r)] += 1
        if read is not None:
            self.reads.append((float(confidence), read == truth))
        if read is None:
            self.abstained += 1
        elif read == truth:
            self.right += 1
        else:
            self.wrong += 1
            if len(self.wrong_examples) < 20:
                self.wrong_examples.append(f"{where}: {t} read as {r}")

    @property
    def count(self) -> int:
        return self.right + self.wrong + self.abstained

    def summary(self) -> dict:
        n = max(self.count, 1)
        sure_wrong = sum(1 for conf, right in self.reads if conf >= 0.9 and not right)
        return {"count": self.count, "wrong_at_0.9": sure_wrong, "right_pct": round(100 * self.right / n, 2),
                "wrong_pct": round(100 * self.wrong / n, 2), "abstain_pct": round(100 * self.abstained / n, 2),
                "right": self.right, "wrong": self.wrong, "abstained": self.abstained,
                "wrong_examples": self.wrong_examples, "label_fixes": self.fixed}


def colour_photo(face: np.ndarray) -> bool:
    """Shot in colour (part of the set was shot or saved in grey): the
    project's table camera is a colour camera."""
    return float(np.percentile(cv2.cvtColor(face, cv2.COLOR_BGR2HSV)[..., 1], 99)) > 60


def enrolment_candidates(photos: Iterable[Photo], per_card: Optional[int] = None
                         ) -> dict[int, list[tuple[tuple[float, float], np.ndarray, str]]]:
    """Per card, the single-Belote-card photos usable for enrolment, as
    (quality, rectified face, photo name), best first. Usable: the enrolment
    check accepts it, and the card lies whole in the picture with table around
    it (not a close-up cut by the frame, where the "card" found may be an
    index or a picture frame), its top told by the labelled index boxes.
    Best: colour before grey, then sharper. That is
    what a person enrolling would pick. ``per_card`` stops after that many
    usable photos of a card (faster)."""
    found: dict[int, list] = defaultdict(list)
    for photo in photos:
        if len(photo.cards) != 1:
            continue
        card = dataset_card(next(iter(photo.cards)))
        if card is None or (per_card and len(found[card]) >= per_card):
            continue
        image = cv2.imread(str(photo.path))
        if image is None or not _whole_in_view(image, photo):
            continue
        # The labelled index boxes tell the card's top, as a person enrolling
        # would: the set's photos are stretched to squares, so proportions cannot.
        sample = enrolment_sample(image, index_points=photo.centres * [image.shape[1] / 640, image.shape[0] / 640])
        if isinstance(sample, Refusal):
            continue
        found[card].append(((float(colour_photo(sample)), sharpness(sample)), sample, photo.name))
    for shots in found.values():
        shots.sort(key=lambda shot: shot[0], reverse=True)
    return {c: shots for c, shots in found.items() if shots}


def _whole_in_view(image: np.ndarray, photo: Photo) -> bool:
    quads = find_cards(image)
    if len(quads) != 1 or truth_of(quads[0], photo)[0] != "card":
        return False
    h, w = image.shape[:2]
    q = quads[0]
    inside = q[:, 0].min() > 0.03 * w and q[:, 1].min() > 0.03 * h and q[:, 0].max() < 0.97 * w \
        and q[:, 1].max() < 0.97 * h
    return inside and cv2.contourArea(q) / (w * h) <= 0.5


def read_photos(photos: list[Photo], deck: Deck, tally: Tally, foreign: Tally, locator: Counter,
                progress: Callable[[str], None], label: str, only_deck: Optional[Deck] = None) -> None:
    t0 = time.monotonic()
    for i, photo in enumerate(photos, 1):
        image = cv2.imread(str(photo.path))
        if image is None:
            raise EvaluationError(f"{photo.path} cannot be read: the data set is damaged")
        sx, sy = image.shape[1] / 640.0, image.shape[0] / 640.0
        matched: set[str] = set()
        for found in recognize(image, deck):
            quad = np.float32(found["corners"])
            kind, inside = truth_of(quad, photo, (sx, sy))
            locator[f"quads_{kind}"] += 1
            if kind != "card":
                continue
            label_name = next(iter(inside))
            matched.add(label_name)
            card = None if found["card"] is None else parse_card(found["card"])
            confidence = found["confidence"]
            truth = _deck_card(label_name, deck)
            counted = tally if truth is not None else foreign
            counted.add(truth, card, photo.name, confidence)
            if label_name in photo.fixes:
                fix = photo.fixes[label_name]
                was = _deck_card(fix.label, deck)
                counted.fixed.append(
                    f"{photo.name}: labelled {fix.label}, corrected to {fix.corrected}; read "
                    f"{found['card'] or '?'} at {confidence:.3f}: {_counted(truth, card)} "
                    f"(without the fix {_counted(was, card)})")
        belote = {c for c in photo.cards if dataset_card(c) is not None}
        locator["cards_labelled"] += len(belote)
        locator["cards_located"] += len(belote & matched)
        if i % 25 == 0 or i == len(photos):
            rate = i / max(time.monotonic() - t0, 1e-6)
            progress(f"  {label}: {i}/{len(photos)} photos ({rate:.1f}/s), right {tally.right} wrong {tally.wrong} "
                     f"abstained {tally.abstained}")


def _deck_card(label_name: str, deck: Deck) -> Optional[int]:
    """The card a label names, or None: a label of no Belote card, or of a
    card ``deck`` lacks (for this deck it is foreign)."""
    card = dataset_card(label_name)
    return card if card is not None and card in deck.faces else None


def _counted(truth: Optional[int], read: Optional[int]) -> str:
    """How ``Tally.add`` counts a read against a truth, in words."""
    if read is None:
        return "abstained"
    if truth is None:
        return "wrong (a card the deck lacks)"
    return "right" if read == truth else "wrong"


def overhead_shots(faces: dict[int, np.ndarray], seed: int, cloth: Optional[str] = None,
                   size: tuple[int, int] = (1920, 1080), table_mm: float = 900
                   ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """One frame per card of the project's overhead camera (``vision.render``:
    a 90 cm table in a 1080p frame, perspective, uneven light, glare, blur,
    noise) with that card alone in the middle, turned at random; with the
    card's true corners. What ``calibrate deck`` and the tests read."""
    from .faces import FACE_SIZE
    from .render import Effects, SceneRenderer, TableScene

    scene = TableScene.square(table_mm, size=size)
    renderer = SceneRenderer({c: cv2.resize(f, FACE_SIZE, interpolation=cv2.INTER_AREA) for c, f in faces.items()},
                             scene, seed=seed, size=size, effects=Effects(cloth=cloth))
    rng = np.random.default_rng(seed)
    shots = {}
    for card in sorted(faces):
        angle = float(rng.uniform(0, 360))
        frame = renderer.lone_card(card, angle)
        truth = renderer.card_corners((scene.width_mm / 2, scene.height_mm / 2, angle)).astype(np.float32)
        shots[card] = (frame, truth)
    return shots


def split_half(name: str) -> str:
    """Which half of a real set a photo belongs to, fixed by its name before
    any result: ``tune`` (constants were chosen looking at it) or ``report``
    (the figures quoted; nothing was chosen on it)."""
    return "tune" if zlib.crc32(name.encode()) & 1 == 0 else "report"


def new_user_deck(photos: list[Photo], folder: Path, progress: Callable[[str], None]
                  ) -> tuple[Optional[Deck], set[str], list[str]]:
    """Enrol as a new user would: per card, its single-card photos in name
    order, the first one ``calibrate deck``'s check accepts (a refused shot
    is followed by the next, as a person takes another), copied as
    ``<card>.jpg`` and enrolled by the real ``calibrate deck`` code path
    (``vision.enrol.enrol_deck``). Returns the deck (None below 2 cards),
    the photos used and the first-shot refusals."""
    singles: dict[int, list[Photo]] = defaultdict(list)
    for photo in photos:
        if len(photo.cards) == 1 and dataset_card(next(iter(photo.cards))) is not None:
            singles[dataset_card(next(iter(photo.cards)))].append(photo)
    shots = folder / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    used, refusals = set(), []
    for card in sorted(singles):
        for k, photo in enumerate(sorted(singles[card], key=lambda p: p.name)):
            sample = enrolment_sample(cv2.imread(str(photo.path)))
            if isinstance(sample, Refusal):
                if k == 0:
                    refusals.append(f"{card_name(card)} {photo.name}: {sample.reason}")
                continue
            shutil.copy(photo.path, shots / f"{card_name(card)}{photo.path.suffix.lower()}")
            used.add(photo.name)
            break
    if len(used) < 2:
        return None, used, refusals
    deck, _ = enrol_deck(shots, folder / "deck", require_all=False)
    progress(f"  enrolled {len(deck.cards)}/32 cards as a new user ({len(refusals)} first shots refused)")
    return deck, used, refusals


def rendered_protocols(out: Path, shots: int, tallies: dict, report: dict, progress: Callable[[str], None],
                       decks: Optional[Iterable[str]] = None, sets: Optional[Iterable[str]] = None,
                       halves: Iterable[str] = ("report",)) -> None:
    """The product owner's protocols on rendered photos (``vision.protocols``):
    per face source and set, enrolled as a new user and read; ``shots`` per
    card in the webcam sets, ``3 * shots`` photos in the French ones."""
    from . import protocols
    from .photo_sets import DECKS, SETS, deck_faces

    datasets = default_dataset().parent
    for deck_name in decks or DECKS:
        faces = deck_faces(deck_name, datasets)
        for name in sets or SETS:
            for half in halves:
                label = f"rendered:{name}:{deck_name} ({half} half)"
                progress(f"{label}: rendering, enrolling as a new user, reading")
                enrol_dir = out / f"enrol-{name}-{deck_name}-{half}"
                deck, used, refusals = protocols.enrol(name, faces, half, enrol_dir, progress)
                report["enrolment"][label] = {"cards": len(used), "of": len(faces),
                                              "first_shots_refused": len(refusals), "refusals": refusals}
                if deck is None:
                    continue
                count = shots if SETS[name][0] == "webcam" else 3 * shots
                parts = {"whole": Tally(), "heap": Tally()}
                report["enrolment"][label].update(protocols.read(name, deck, faces, half, count, used, parts,
                                                                 progress))
                tallies[label] = parts["whole"]
                if parts["heap"].count:
                    tallies[label.replace(f":{deck_name}", f":{deck_name}:heaps")] = parts["heap"]


def bidly_deals(root: Path, tally: Tally, foreign: Tally, locator: Counter) -> None:
    """``shared/datasets/bidly_deals``: the deck enrolled from its 32 Belote
    face scans (already rectified), the 7 overhead photos of whole
    overlapping deals read; a found card's truth is the labelled index
    (the authors' detector boxes, a guide) whose centre lies in its quad."""
    from .photo_sets import deck_faces
    deck = deck_from_faces({c: [f] for c, f in deck_faces("bidly-scans", root.parent).items()})
    for path in sorted((root / "deals").glob("*.jpg")):
        image = cv2.imread(str(path))
        labels = json.loads(path.with_name(path.stem + "-net1280-labels.json").read_text())
        h, w = image.shape[:2]
        centres = [(entry["name"], entry["relative_coordinates"]["center_x"] * w,
                    entry["relative_coordinates"]["center_y"] * h) for entry in labels]
        for found in recognize(image, deck):
            quad = np.float32(found["corners"])
            if "index" in found:        # read from its index corner: the labelled index inside that box
                index = np.float32(found["index"])
                quad = index.mean(axis=0) + 1.3 * (index - index.mean(axis=0))
            inside = {name for name, x, y in centres
                      if cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (x, y), False) >= 0}
            locator[f"quads_{'card' if len(inside) == 1 else 'empty' if not inside else 'merged'}"] += 1
            card = None if found["card"] is None else parse_card(found["card"])
            confidence = found["confidence"]
            labelled = {dataset_card(name.upper()) for name in inside}
            if card is not None and card in labelled:
                truth = card        # a keypoint quad spans the cards over it: its own index is among those inside
            elif len(inside) == 1:
                truth = dataset_card(next(iter(inside)).upper())
            elif card is not None:
                truth = next((c for c in labelled if c is not None), None)   # read, but none of the cards there
            else:
                continue
            (tally if truth is not None else foreign).add(truth, card, path.name, confidence)
        locator["cards_labelled"] += 32


def run_evaluation(dataset: Optional[str | Path], out: str | Path, limit: Optional[int] = None,
                   rendered_per_card: int = 2, designs: Optional[Iterable[str]] = None,
                   progress: Callable[[str], None] = lambda m: None, bidly: Optional[str | Path] = "default",
                   real: bool = True, rendered_decks: Optional[Iterable[str]] = None,
                   rendered_sets: Optional[Iterable[str]] = None, rendered_halves: Iterable[str] = ("report",),
                   fix_labels: bool = True) -> dict:
    """Enrol as a new user, read every held-out photo, write ``report.json``,
    the confusion and reliability PNGs into ``out``; returns the report.
    Real sets first: the labelled set's designs (each split into a tuning
    and a reporting half, ``split_half``), ``bidly_deals`` beside it; then
    the rendered sets (``vision.photo_sets``, the table camera). ``bidly``:
    the ``bidly_deals`` folder; by default the one beside the default
    dataset when no other dataset is given, None for none. ``fix_labels``:
    apply ``LABEL_FIXES`` (listed in the report either way)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    fixes = label_fixes()
    photos = load_dataset(dataset, fixes if fix_labels else ()) if real else []
    if designs is None:
        designs = [d for d, _ in Counter(p.design() for p in photos).most_common()]
    # The figures move with the OpenCV and NumPy they were measured with (5.1 read other figures than
    # 5.0, which pyproject now holds to): the report says which.
    report: dict = {"dataset": str(Path(dataset) if dataset else default_dataset()), "attribution": ATTRIBUTION,
                    "versions": {"opencv": cv2.__version__, "numpy": np.__version__},
                    "sets": {}, "locator": {}, "enrolment": {},
                    "label_fixes": {"applied": fix_labels and real, "file": LABEL_FIXES.name,
                                    "fixes": [vars(f) | {"found": any(f in p.fixes.values() for p in photos)}
                                              for f in fixes]}}
    tallies: dict[str, Tally] = {}
    decks: dict[str, Deck] = {}
    held_out: dict[str, list[Photo]] = {}
    for design in designs:
        mine = [p for p in photos if p.design() == design]
        progress(f"{design}: {len(mine)} photos; enrolling one shot per card as a new user")
        deck, used, refusals = new_user_deck(mine, out / f"enrol-{design}", progress)
        if deck is None:
            progress(f"{design}: too few enrolable single-card photos: read as another deck")
            held_out[design] = mine[:limit] if limit else mine
            continue
        decks[design] = deck
        report["enrolment"][design] = {"cards": len(deck.cards), "photos": sorted(used),
                                       "missing": [CARD_NAMES[c] for c in deck.missing()],
                                       "first_shots_refused": refusals}
        rest = [p for p in mine if p.name not in used]
        held_out[design] = rest[:limit] if limit else rest
    for design, deck in decks.items():
        foreign, locator = Tally(), Counter()
        for half in ("report", "tune"):
            tally = tallies[f"real:{design} ({half} half)"] = Tally()
            read_photos([p for p in held_out[design] if split_half(p.name) == half], deck, tally, foreign, locator,
                        progress, f"real:{design} ({half} half)")
        tallies[f"foreign-cards:{design}"] = foreign
        report["locator"][design] = dict(locator)
    readers = list(decks)
    for b in [d for d in held_out if readers and d != readers[0]]:
        a, tally, locator = readers[0], Tally(), Counter()
        for photo in held_out[b]:
            # Every card of deck b is "foreign" to deck a: any answer is wrong.
            renamed = Photo(photo.path, photo.name, [f"X{label}" for label in photo.labels], photo.centres)
            read_photos([renamed], decks[a], Tally(), tally, locator, lambda m: None, "other-deck")
        tallies[f"other-deck:{b}-read-with-{a}"] = tally
    if bidly == "default":
        bidly = default_dataset().parent / "bidly_deals" if dataset is None else None
    bidly = Path(bidly) if bidly else None
    if real and bidly is not None and (bidly / "deals").is_dir():
        progress("bidly_deals: enrolling the 32 face scans, reading the 7 overlapping deals")
        tally, foreign, locator = Tally(), Tally(), Counter()
        bidly_deals(bidly, tally, foreign, locator)
        tallies["real:bidly-deals (overlapping fans)"] = tally
        tallies["foreign-cards:bidly-deals (2-6)"] = foreign
        report["locator"]["bidly-deals"] = dict(locator)
    if rendered_per_card > 0:
        rendered_protocols(out, rendered_per_card, tallies, report, progress, decks=rendered_decks,
                           sets=rendered_sets, halves=rendered_halves)
    for label, tally in tallies.items():
        report["sets"][label] = tally.summary()
        stem = label.replace(":", "-").replace(" ", "-").replace("(", "").replace(")", "")
        if not label.startswith(("foreign", "other")):
            confusion_png(tally, out / f"confusion-{stem}.png", label, ATTRIBUTION)
            reliability_png(tally.reads, out / f"reliability-{stem}.png", label)
    everything_real = [r for label, t in tallies.items() if label.startswith(("real", "foreign", "other"))
                       for r in t.reads]
    report["wrong_at_0.9_all_real"] = sum(1 for conf, right in everything_real if conf >= 0.9 and not right)
    reliability_png(everything_real, out / "reliability-all-real.png", "all real sets")
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def format_table(report: dict) -> str:
    lines = [f"{'set':48} {'count':>6} {'right%':>7} {'wrong%':>7} {'abstain%':>8} {'wrong>=0.9':>10}"]
    for name, s in report["sets"].items():
        lines.append(f"{name:48} {s['count']:6d} {s['right_pct']:7.2f} {s['wrong_pct']:7.2f} {s['abstain_pct']:8.2f} "
                     f"{s.get('wrong_at_0.9', 0):10d}")
    if "wrong_at_0.9_all_real" in report:
        lines.append(f"wrong reads at confidence >= 0.9 over all real sets: {report['wrong_at_0.9_all_real']}")
    for design, loc in report["locator"].items():
        n = max(loc.get("cards_labelled", 0), 1)
        lines.append(f"locator {design}: {loc.get('cards_located', 0)}/{loc.get('cards_labelled', 0)} Belote cards "
                     f"found whole ({100 * loc.get('cards_located', 0) / n:.1f}%), "
                     f"{loc.get('quads_empty', 0)} quads on no labelled card, {loc.get('quads_merged', 0)} merged")
    fixes = report.get("label_fixes")
    if fixes and any(name.startswith("real:") for name in report["sets"]):     # they touch only real labels
        state = "applied" if fixes["applied"] else "NOT applied (--no-label-fixes)"
        lines.append(f"label fixes ({fixes['file']}): {state}")
        for f in fixes["fixes"]:
            lines.append(f"  {f['image']}: {f['label']} -> {f['corrected']}"
                         f"{'' if f['found'] or not fixes['applied'] else ' (not in this set)'}: {f['evidence']}")
        for name, s in report["sets"].items():
            lines += [f"  moved in {name}: {moved}" for moved in s.get("label_fixes", [])]
    if "versions" in report:
        lines.append("measured with " + ", ".join(f"{k} {v}" for k, v in report["versions"].items()))
    lines.append(f"data: {report['attribution']}")
    return "\n".join(lines)
