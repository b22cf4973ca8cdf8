"""How well cards are found and read, measured on real photos (``vision evaluate``).

The labelled set (``shared/datasets/cardcounter_real``, CC BY 4.0, from the
public repository Ammememe/CardCounterML, a Roboflow export) has one YOLO box
per visible *corner index*, not per card. A found quad is matched to the
labelled index boxes whose centres fall inside it: one Belote card -> that is
the truth; none -> an empty quad; two different cards -> the locator merged
cards (counted, not read). Cards labelled but never matched were missed.

The split is fixed before looking at any result, and nothing is tuned on the
test photos: for each deck design, the deck is enrolled from ONE single-card
photo per card (the most colourful then sharpest shot that the enrolment
check accepts, as a person enrolling would retake a grey or blurred shot);
every other photo of that design is test data. The abstention rule is the
one the enrolment itself chose (``vision.read.choose_abstention``).

Sets reported:

- ``real:<design>``: the other photos of the design's deck (Belote cards only;
  2-6, jokers and cards with no enrolment photo are counted under ``foreign``:
  they must abstain).
- ``other-deck``: cards of the other design read with this design's deck: a
  deck the table was not taught; every answer but "unknown" is a wrong read.
- ``overhead``: single cards lying on a table seen by the project's overhead
  camera, rendered by ``vision.render`` from real card faces cut from photos
  OTHER than the enrolment photo (``vision.faces.photo_faces``, which checks
  the cut-out against the labelled indices); enrolment is done through the
  same camera from the enrolment photo's face. ``overhead`` uses colour
  shots only (a table camera films in colour; 11 cards have two), and
  ``overhead-incl-grey`` the grey ones too (25 cards).
- ``close-up:overhead...``: the same cards in a close photo (a phone over
  the table: the card ~290 px wide instead of ~60).
- ``overhead:drawn-deck`` (and ``-french``): the project's own drawn deck
  through the same camera, enrolled from one shot per card and read on
  other shots (place, turn, light, noise): what the demo plays with.
"""

from __future__ import annotations

import csv
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES, card_name

from .deck import Deck
from .enrol import deck_from_faces
from .faces import _dataset_card as dataset_card  # the set's class names (10H, QS) -> card, or None
from .locate import find_cards
from .read import read_card
from .shot import Refusal, enrolment_sample, sharpness

ATTRIBUTION = ("cardcounter_real: photos from Ammememe/CardCounterML (Roboflow 'Card Detection', "
               "universe.roboflow.com/cadyzedevelopmenthub/card-detection-zk7wu), CC BY 4.0")
#: A close photo of one card: a 35 cm square of table in a 2400 x 1800
#: picture, so the card is ~290 px wide (the table camera sees it ~60 px wide).
CLOSE_UP = {"size": (2400, 1800), "table_mm": 350}
#: The set's two deck designs, told apart by how the photos were named (the
#: dataset README: phone photos IMG_2022* and webcam photos WIN_* show the
#: classic deck; IMG_77xx/78xx the black-and-gold one).
DESIGNS = {"classic": ("IMG_2022", "WIN_"), "black-gold": ("IMG_77", "IMG_78")}
#: The design of a photo in another labelled set that names no deck.
SINGLE_DECK = "deck"


class EvaluationError(ValueError):
    """The data set is missing or not in the expected layout."""


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

    @property
    def cards(self) -> set[str]:
        return set(self.labels)

    def design(self) -> str:
        """Which deck the photo shows: the manifest's ``deck`` column, else
        this set's naming (``DESIGNS``), else one deck for the whole set."""
        if self.deck:
            return self.deck
        return next((d for d, prefixes in DESIGNS.items() if self.name.startswith(prefixes)), SINGLE_DECK)


def load_dataset(root: Optional[str | Path] = None) -> list[Photo]:
    root = Path(root) if root else default_dataset()
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
            photos.append(Photo(path, row["image"], labels, np.array(centres, np.float32).reshape(-1, 2),
                                (row.get("deck") or row.get("design") or "").strip() or None))
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

    def add(self, truth: Optional[int], read: Optional[int], where: str) -> None:
        t = card_name(truth) if truth is not None else "foreign"
        r = card_name(read) if read is not None else "?"
        self.confusion[(t, r)] += 1
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
        return {"count": self.count, "right_pct": round(100 * self.right / n, 2),
                "wrong_pct": round(100 * self.wrong / n, 2), "abstain_pct": round(100 * self.abstained / n, 2),
                "right": self.right, "wrong": self.wrong, "abstained": self.abstained,
                "wrong_examples": self.wrong_examples}


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
        for quad in find_cards(image):
            kind, inside = truth_of(quad, photo, (sx, sy))
            locator[f"quads_{kind}"] += 1
            if kind != "card":
                continue
            label_name = next(iter(inside))
            matched.add(label_name)
            card, _, _ = read_card(image, quad, deck)
            truth = dataset_card(label_name)
            if truth is not None and truth not in deck.faces:
                truth = None        # a card the deck lacks: for this deck it is foreign
            (tally if truth is not None else foreign).add(truth, card, photo.name)
        belote = {c for c in photo.cards if dataset_card(c) is not None}
        locator["cards_labelled"] += len(belote)
        locator["cards_located"] += len(belote & matched)
        if i % 25 == 0 or i == len(photos):
            rate = i / max(time.monotonic() - t0, 1e-6)
            progress(f"  {label}: {i}/{len(photos)} photos ({rate:.1f}/s), right {tally.right} wrong {tally.wrong} "
                     f"abstained {tally.abstained}")


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


def overhead_set(enrol_faces: dict[int, np.ndarray], test_faces: dict[int, list[np.ndarray]], per_card: int,
                 tally: Tally, progress: Callable[[str], None], seed: int = 11,
                 foreign: Optional[Tally] = None, **camera) -> Deck:
    """Enrol through the overhead camera from ``enrol_faces`` (one face per card),
    then read ``per_card`` shots of each card rendered from its *other* real faces."""
    faces = {}
    for card, (frame, _) in overhead_shots(enrol_faces, seed, **camera).items():
        shot = enrolment_sample(frame)
        if not isinstance(shot, Refusal):
            faces[card] = [shot]
    progress(f"  overhead: enrolled {len(faces)}/{len(enrol_faces)} cards through the camera")
    if len(faces) < 2:
        raise EvaluationError("overhead: too few cards could be enrolled through the rendered camera")
    deck = deck_from_faces(faces)
    for k in range(per_card):
        usable = {c: fs[k % len(fs)] for c, fs in test_faces.items() if fs}
        for card, (frame, truth_quad) in overhead_shots(usable, seed + 100 + k, **camera).items():
            centre = tuple(map(float, truth_quad.mean(axis=0)))
            quads = [q for q in find_cards(frame) if cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0]
            read = read_card(frame, quads[0], deck)[0] if quads else None
            where = f"overhead#{k}:{card_name(card)}" + ("" if quads else " (not found)")
            if card in deck.faces:
                tally.add(card, read, where)
            elif foreign is not None:
                foreign.add(None, read, where)      # its enrolment shot was refused: unknown to the deck
        progress(f"  overhead: round {k + 1}/{per_card}, right {tally.right} wrong {tally.wrong} "
                 f"abstained {tally.abstained}")
    return deck


def confusion_png(tally: Tally, path: Path, title: str) -> Path:
    """A 32x33 confusion matrix (last column: abstained) as a picture."""
    names = list(CARD_NAMES)
    cols = names + ["?"]
    cell, left, top = 18, 40, 70
    img = np.full((top + cell * len(names) + 40, left + cell * len(cols) + 10, 3), 255, np.uint8)
    rows_total = Counter()
    for (t, _), n in tally.confusion.items():
        rows_total[t] += n
    for i, t in enumerate(names):
        cv2.putText(img, t, (4, top + i * cell + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 1)
        for j, r in enumerate(cols):
            n = tally.confusion.get((t, r), 0)
            x, y = left + j * cell, top + i * cell
            if n:
                share = n / max(rows_total[t], 1)
                colour = (0, int(200 * (1 - share)), 0) if r == t else \
                    ((0, 160, 255) if r == "?" else (0, 0, int(155 + 100 * share)))
                cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
                cv2.putText(img, str(n), (x + 2, y + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (255, 255, 255), 1)
            cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), (220, 220, 220), 1)
    for j, r in enumerate(cols):
        cv2.putText(img, r, (left + j * cell + 1, top - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (0, 0, 0), 1)
    s = tally.summary()
    cv2.putText(img, f"{title}: {s['count']} reads, right {s['right_pct']}%, wrong {s['wrong_pct']}%, "
                     f"abstained {s['abstain_pct']}%  (rows: truth, columns: read, ?: abstained)",
                (4, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
    cv2.putText(img, ATTRIBUTION[:110], (4, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (80, 80, 80), 1)
    cv2.putText(img, ATTRIBUTION[110:], (4, 54), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (80, 80, 80), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)
    return path


def run_evaluation(dataset: Optional[str | Path], out: str | Path, limit: Optional[int] = None,
                   rendered_per_card: int = 2, designs: Optional[Iterable[str]] = None,
                   progress: Callable[[str], None] = lambda m: None) -> dict:
    """Enrol, read every held-out photo, write ``report.json`` and the confusion
    PNGs into ``out``; returns the report. ``designs``: the decks to enrol
    (default: every deck of the set, the most photographed first)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    photos = load_dataset(dataset)
    if designs is None:
        designs = [d for d, _ in Counter(p.design() for p in photos).most_common()]
    report: dict = {"dataset": str(Path(dataset) if dataset else default_dataset()), "attribution": ATTRIBUTION,
                    "sets": {}, "locator": {}, "enrolment": {}}
    decks: dict[str, Deck] = {}
    held_out: dict[str, list[Photo]] = {}
    for design in designs:
        mine = [p for p in photos if p.design() == design]
        progress(f"{design}: {len(mine)} photos; choosing one enrolment photo per card")
        candidates = enrolment_candidates(mine)
        faces = {c: shots[0][1] for c, shots in candidates.items()}
        used = {shots[0][2] for shots in candidates.values()}
        progress(f"  enrolment photos chosen for {len(faces)}/32 cards")
        if len(faces) < 2:
            progress(f"{design}: too few enrolable single-card photos, skipped")
            continue
        deck = deck_from_faces({c: [f] for c, f in faces.items()})
        deck.save(out / f"deck-{design}", {})
        decks[design] = deck
        report["enrolment"][design] = {"cards": len(faces), "photos": sorted(used),
                                       "missing": [CARD_NAMES[c] for c in range(32) if c not in faces],
                                       "abstain": {k: v for k, v in deck.abstain.items() if k != "null_margins"}}
        rest = [p for p in mine if p.name not in used]
        held_out[design] = rest[:limit] if limit else rest
    for design, deck in decks.items():
        tally, foreign, locator = Tally(), Tally(), Counter()
        read_photos(held_out[design], deck, tally, foreign, locator, progress, f"real:{design}")
        report["sets"][f"real:{design}"] = tally.summary()
        report["sets"][f"foreign-cards:{design}"] = foreign.summary()
        report["locator"][design] = dict(locator)
        confusion_png(tally, out / f"confusion-real-{design}.png", f"real photos, {design} deck")
    if len(decks) == 2:
        a, b = list(decks)
        tally, foreign, locator = Tally(), Tally(), Counter()
        # Every card of deck b is "foreign" to deck a: any answer is wrong.
        others = held_out[b]
        for photo in others:
            photo_tmp = Photo(photo.path, photo.name, [f"X{l}" for l in photo.labels], photo.centres)
            read_photos([photo_tmp], decks[a], Tally(), tally, locator, lambda m: None, "other-deck")
        report["sets"][f"other-deck:{b}-read-with-{a}"] = tally.summary()
    if rendered_per_card > 0 and decks:
        # Real faces of the most photographed deck, cut out where the labels prove the
        # card's outline and orientation: the first photo's face to enrol,
        # the other photos' faces to render the test shots from. Colour
        # shots only (a table camera films in colour), then also the grey
        # ones, which cover more cards.
        from .faces import photo_faces
        first = next(iter(decks))
        first_deck = {p.name for p in photos if p.design() == first}
        for name, colour in (("overhead", True), ("overhead-incl-grey", False)):
            progress(f"{name}: cutting real card faces out of the labelled photos")
            real = photo_faces(Path(dataset) if dataset else default_dataset(), per_card=1 + rendered_per_card,
                               colour=colour, keep=first_deck.__contains__)
            real = {c: fs for c, fs in real.items() if len(fs) > 1}
            if len(real) < 2:
                continue
            enrol_faces = {c: fs[0] for c, fs in real.items()}
            test_faces = {c: fs[1:] for c, fs in real.items()}
            # The table camera (a card ~60 px wide), and a close photo of the
            # card (~290 px wide, a phone held over the table).
            for camera, settings in (("", {}), ("close-up:", CLOSE_UP)):
                label = camera + name
                report["enrolment"][label] = {"cards": len(enrol_faces),
                                              "missing": [CARD_NAMES[c] for c in range(32) if c not in enrol_faces]}
                tally, foreign = Tally(), Tally()
                overhead_set(enrol_faces, test_faces, rendered_per_card, tally, progress, foreign=foreign, **settings)
                report["sets"][label] = tally.summary()
                report["sets"][f"{label}:not-enrolled"] = foreign.summary()
                confusion_png(tally, out / f"confusion-{label.replace(':', '-')}.png",
                              f"{label}: {'close photo' if camera else 'overhead camera'}, real card photos")
    if rendered_per_card > 0:
        # The project's own drawn deck (what the demo deals), with English and
        # with French indices: the same printed faces enrolled through the
        # camera once and read in other places, turns, light and noise.
        from .faces import builtin_faces
        for name, french in (("overhead:drawn-deck", False), ("overhead:drawn-deck-french", True)):
            faces = builtin_faces(french=french)
            tally = Tally()
            overhead_set(faces, {c: [f] for c, f in faces.items()}, rendered_per_card, tally, progress)
            report["sets"][name] = tally.summary()
            confusion_png(tally, out / f"confusion-{name.replace(':', '-')}.png", f"{name}: overhead camera")
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def format_table(report: dict) -> str:
    lines = [f"{'set':42} {'count':>6} {'right%':>7} {'wrong%':>7} {'abstain%':>8}"]
    for name, s in report["sets"].items():
        lines.append(f"{name:42} {s['count']:6d} {s['right_pct']:7.2f} {s['wrong_pct']:7.2f} {s['abstain_pct']:8.2f}")
    for design, loc in report["locator"].items():
        n = max(loc.get("cards_labelled", 0), 1)
        lines.append(f"locator {design}: {loc.get('cards_located', 0)}/{loc.get('cards_labelled', 0)} Belote cards "
                     f"found whole ({100 * loc.get('cards_located', 0) / n:.1f}%), "
                     f"{loc.get('quads_empty', 0)} quads on no labelled card, {loc.get('quads_merged', 0)} merged")
    lines.append(f"data: {report['attribution']}")
    return "\n".join(lines)
