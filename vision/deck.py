"""The enrolled deck: what each of the 32 cards of *this* deck looks like.

Why enrol rather than ship templates: clubs play with many designs (French
indices R/D/V, jumbo indices, gold-on-black). Enrolment photographs each card
once, lying on the table, and keeps its rectified face. Reading then compares
a seen card to these faces, so nothing is tied to one design.

On disk a deck is a directory::

    DECK/manifest.json    {"format": "belote-table-deck", "version": 1,
                           "face_size": [w, h], "cards": {"Jh": ["faces/Jh_0.png"], ...},
                           "sources": {"faces/Jh_0.png": "photos/Jh.jpg"},
                           "abstain": {...thresholds chosen at enrolment...}}
    DECK/faces/<card>_<n>.png   the rectified card face (portrait, upright or
                                upside down: cards are printed symmetrically)

The faces are the templates; the features ``vision.read`` compares are
computed from them when the deck is loaded (cheap: 32-100 small images), so a
deck written by an older version still loads. What tells the cards apart
(``vision.discriminant``, a few seconds to fit) is saved beside them as
``DECK/discriminant.npz`` and refitted when missing or stale.

Enrolling from a live camera uses the same core as enrolling from files:
``enrolment_sample(frame)`` returns the rectified face or a refusal saying
what to change (blurred, no card, several cards, card cut by the frame).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

import cv2
import numpy as np

from referee.cards import CARD_NAMES, CardError, card_name, parse_card

from .discriminant import FILE as DISCRIMINANT_FILE, Discriminant
from .locate import find_cards

FORMAT = "belote-table-deck"
VERSION = 1
#: Rectified face size (width, height). Between poker (63x88) and piquet
#: (56x87) proportions: a perspective warp absorbs the difference.
FACE_SIZE = (200, 300)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
#: Below this sharpness (variance of the Laplacian of the face at its own size
#: in the frame) a shot is refused as blurred. A coarse check of gross blur
#: only: on the real single-card photos of the data set, 95% of the shots
#: score above 12 and a 2.5-px Gaussian blur brings the median to 9; content
#: (an ace has little print) moves the figure as much as focus does.
MIN_SHARPNESS = 10.0
#: A face narrower than this in the photo holds too few pixels for its indices.
MIN_CARD_WIDTH_PX = 40
#: Below this long/short ratio a quad does not tell its top edge from its side.
AMBIGUOUS_ASPECT = 1.25


class DeckError(ValueError):
    """A deck directory or an enrolment photo that cannot be used; the message says what to do."""


@dataclass(frozen=True)
class Refusal:
    """Why a shot cannot be used, in words for the person holding the card."""

    reason: str


@dataclass
class Deck:
    """The enrolled faces of one deck, by card (int 0-31)."""

    faces: dict[int, list[np.ndarray]]
    abstain: dict = field(default_factory=dict)
    directory: Optional[Path] = None
    _features: Optional[object] = field(default=None, repr=False)
    _discriminant: Optional[Discriminant] = field(default=None, repr=False)

    @property
    def cards(self) -> list[int]:
        return sorted(self.faces)

    def discriminant(self) -> Discriminant:
        """What tells this deck's cards apart: saved with the deck, else fitted now."""
        if self._discriminant is None and self.directory is not None:
            self._discriminant = Discriminant.load(self.directory / DISCRIMINANT_FILE, self.cards)
        if self._discriminant is None:
            self._discriminant = Discriminant.fit(self.faces)
        return self._discriminant

    def missing(self) -> list[int]:
        return [c for c in range(32) if c not in self.faces]

    def partial_note(self) -> Optional[str]:
        """What a user of a deck enrolled with ``--partial`` must know, or None for a whole deck."""
        missing = self.missing()
        if not missing:
            return None
        where = self.directory or "this deck"
        return (f"note: {where} has no face for {', '.join(CARD_NAMES[c] for c in missing)}: such a card is "
                f"reported unknown at best, or read as a look-alike; photograph it and run "
                f"`belote-table calibrate deck` again")

    @classmethod
    def load(cls, directory: str | Path) -> "Deck":
        directory = Path(directory)
        manifest_path = directory / "manifest.json"
        if not manifest_path.is_file():
            raise DeckError(f"{directory} is not an enrolled deck (no manifest.json): "
                            f"create one with `belote-table calibrate deck --images PHOTOS --out {directory}`")
        try:
            manifest = json.loads(manifest_path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise DeckError(f"{manifest_path} cannot be read ({exc}): enrol the deck again") from exc
        if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
            raise DeckError(f"{manifest_path} is not a version-{VERSION} {FORMAT} manifest: enrol the deck again")
        faces: dict[int, list[np.ndarray]] = {}
        for name, paths in manifest.get("cards", {}).items():
            card = parse_card(name)
            for rel in paths:
                img = cv2.imread(str(directory / rel))
                if img is None:
                    raise DeckError(f"{directory / rel} is missing or unreadable: enrol {name} again")
                if (img.shape[1], img.shape[0]) != FACE_SIZE:
                    img = cv2.resize(img, FACE_SIZE, interpolation=cv2.INTER_AREA)
                faces.setdefault(card, []).append(img)
        if not faces:
            raise DeckError(f"{manifest_path} lists no card: enrol the deck again")
        return cls(faces=faces, abstain=manifest.get("abstain", {}), directory=directory)

    def save(self, directory: str | Path, sources: Optional[dict[str, str]] = None) -> Path:
        directory = Path(directory)
        (directory / "faces").mkdir(parents=True, exist_ok=True)
        cards: dict[str, list[str]] = {}
        for card in self.cards:
            for i, face in enumerate(self.faces[card]):
                rel = f"faces/{card_name(card)}_{i}.png"
                if not cv2.imwrite(str(directory / rel), face):
                    raise DeckError(f"cannot write {directory / rel}: check the disk and permissions")
                cards.setdefault(card_name(card), []).append(rel)
        manifest = {"format": FORMAT, "version": VERSION, "face_size": list(FACE_SIZE),
                    "cards": cards, "sources": sources or {}, "abstain": self.abstain}
        self.discriminant().save(directory / DISCRIMINANT_FILE)
        tmp = directory / "manifest.json.tmp"
        tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        tmp.replace(directory / "manifest.json")
        self.directory = directory
        return directory


def warp_face(image_bgr: np.ndarray, quad: np.ndarray, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """The card inside ``quad`` (ordered as ``find_cards`` returns it) as an
    upright-or-upside-down portrait face, from the pixels of ``image_bgr``
    itself (the full-resolution frame: indices are small)."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32).reshape(4, 2), dst)
    return cv2.warpPerspective(image_bgr, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def quad_aspect(quad: np.ndarray) -> float:
    """Long side / short side of a quad as seen (1.0 when it looks square)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return float(max(a, b) / max(min(a, b), 1e-6))


def face_views(image_bgr: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The rectified face both ways a quad can be read: with its first side
    as the card's top (what the quad's proportions suggest), and turned a
    quarter. Proportions lie under a steep angle or in a photo stretched to
    a square, so the reader tries both and keeps the one the deck recognises."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    return [warp_face(image_bgr, q), warp_face(image_bgr, np.roll(q, -1, axis=0))]


def even_border(face_bgr: np.ndarray, band: float = 0.04, tolerance: float = 80.0) -> bool:
    """Whether the four edges of a rectified face are the same stuff: a card's
    margin (white, or black on a black deck) all round. A quad that cut into
    the card or took in some table shows a different colour on one side: on
    the enrolment shots of the evaluation, well-found cards spread up to 57
    Lab units (lamp gradients, court frames near the edge), misfound ones
    over 120."""
    lab = cv2.cvtColor(cv2.medianBlur(face_bgr, 5), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    bh, bw = max(2, int(band * h)), max(2, int(band * w))
    strips = [lab[:bh, bw:-bw], lab[-bh:, bw:-bw], lab[bh:-bh, :bw], lab[bh:-bh, -bw:]]
    colours = np.array([np.median(s.reshape(-1, 3), axis=0) for s in strips])
    spread = max(np.linalg.norm(a - b) for a in colours for b in colours)
    return bool(spread <= tolerance)


def sharpness(face_bgr: np.ndarray) -> float:
    """Variance of the Laplacian over the face: low means blurred."""
    gray = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2GRAY)
    gray = cv2.medianBlur(gray, 3)  # sensor salt-and-pepper is not sharpness
    return float(cv2.Laplacian(gray, cv2.CV_64F).var())


def enrolment_sample(frame_bgr: np.ndarray, index_points: Optional[np.ndarray] = None) -> np.ndarray | Refusal:
    """One shot of one card lying on the table -> its rectified face, or why not.

    The same check serves photos on disk and frames from a live camera: exactly
    one whole card in view, big enough, its top edge known, indices visible,
    and sharp. ``index_points`` (pixels of the card's corner indices, e.g.
    where a person clicked, or a labelled photo's boxes) say which edge is the
    top when the card looks square; without them such a shot is refused.
    """
    if frame_bgr is None or frame_bgr.ndim != 3:
        return Refusal("not a colour image")
    quads = find_cards(frame_bgr)
    if not quads:
        return Refusal("no whole card found: lay one card face up on the table, all four corners in view, "
                       "on a surface of another colour than the card")
    if len(quads) > 1:
        return Refusal(f"{len(quads)} cards in view: show one card at a time")
    quad = quads[0]
    width = min(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[2] - quad[3]))
    if width < MIN_CARD_WIDTH_PX:
        return Refusal(f"the card is only {width:.0f} px wide: bring the camera closer "
                       f"(at least {MIN_CARD_WIDTH_PX} px)")
    if index_points is not None:
        quad = _top_from_indices(quad, np.asarray(index_points, np.float32).reshape(-1, 2))
    elif quad_aspect(quad) < AMBIGUOUS_ASPECT:
        # Printing does not reliably tell the top either (a court card's
        # picture reaches its margins): ask for a better shot rather than guess.
        return Refusal("the card looks almost square (a steep angle, or a stretched picture), so its top "
                       "cannot be told from its side: shoot from straight above")
    face = warp_face(frame_bgr, quad)
    if not even_border(face):
        return Refusal("the card's outline was not found cleanly (part of its edge is not card): "
                       "move it away from other things and shoot again")
    from .read import MIN_INDEX_CONTRAST, corner_contrast
    if max(corner_contrast(face)) < MIN_INDEX_CONTRAST:
        return Refusal("no index in the card's corners: show the card face up, whole, and not washed out by a lamp")
    # Sharpness at the card's own size in the frame: upsampling blurs any card.
    length = max(np.linalg.norm(quad[1] - quad[2]), np.linalg.norm(quad[3] - quad[0]))
    native = (max(int(width), 8), max(int(length), 12))
    sharp = sharpness(cv2.resize(face, native, interpolation=cv2.INTER_AREA))
    if sharp < MIN_SHARPNESS:
        return Refusal(f"blurred (sharpness {sharp:.0f} < {MIN_SHARPNESS:.0f}): hold still and focus, then shoot again")
    return face


def _top_from_indices(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The quarter-turn of ``quad`` that puts the given index points nearest
    the face's top-left and bottom-right corners, where indices are printed."""
    w, h = FACE_SIZE
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)

    def distance(q: np.ndarray) -> float:
        m = cv2.getPerspectiveTransform(q, dst)
        p = cv2.perspectiveTransform(points.reshape(-1, 1, 2), m).reshape(-1, 2)
        return float(sum(min(np.hypot(*pt), np.hypot(*(pt - [w, h]))) for pt in p))
    return min((quad, np.roll(quad, -1, axis=0)), key=distance)


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


def enrol_deck(images_dir: str | Path, out_dir: str | Path,
               progress: Callable[[str], None] = lambda message: None,
               require_all: bool = True) -> tuple[Deck, list[str]]:
    """Enrol the deck photographed in ``images_dir`` and write it to ``out_dir``.

    Returns the deck and the list of problems (refused shots, unnamed files).
    Raises ``DeckError`` when a card is left with no usable photo and
    ``require_all`` (a referee must know every card), writing nothing then.
    ``progress`` receives one line per photo.
    """
    from .read import choose_abstention  # the reader decides its own thresholds

    images_dir, out_dir = Path(images_dir), Path(out_dir)
    photos, problems = enrolment_photos(images_dir)
    if not photos:
        raise DeckError(f"no card photo in {images_dir}: name each photo after its card, e.g. Jh.jpg, 10h_2.png")
    faces: dict[int, list[np.ndarray]] = {}
    sources: dict[int, list[str]] = {}
    for i, (card, path) in enumerate(photos, 1):
        image = cv2.imread(str(path))
        result = enrolment_sample(image) if image is not None else Refusal("cannot be read as an image")
        if isinstance(result, Refusal):
            problems.append(f"{path.name}: refused, {result.reason}")
            progress(f"[{i}/{len(photos)}] {path.name}: refused, {result.reason}")
            continue
        faces.setdefault(card, []).append(result)
        sources.setdefault(card, []).append(str(path))
        progress(f"[{i}/{len(photos)}] {path.name}: {card_name(card)} enrolled")
    missing = [CARD_NAMES[c] for c in range(32) if c not in faces]
    if missing and require_all:
        raise DeckError(f"no usable photo for {', '.join(missing)}: photograph "
                        f"{'it' if len(missing) == 1 else 'them'} again (see the refusals above) "
                        f"and re-run; nothing was written")
    deck = Deck(faces=faces)
    progress("learning what tells these cards apart (a few seconds)...")
    deck.discriminant()
    progress("choosing when to abstain (reading perturbed copies of the enrolled faces)...")
    deck.abstain = choose_abstention(deck)
    rel_sources = {f"faces/{card_name(c)}_{i}.png": src for c, srcs in sources.items() for i, src in enumerate(srcs)}
    deck.save(out_dir, rel_sources)
    return deck, problems


def deck_from_faces(faces: dict[int, Iterable[np.ndarray]]) -> Deck:
    """A deck from already rectified faces (tests, rendered decks)."""
    from .read import choose_abstention

    deck = Deck(faces={c: [cv2.resize(f, FACE_SIZE, interpolation=cv2.INTER_AREA) for f in fs]
                       for c, fs in faces.items()})
    deck.abstain = choose_abstention(deck)
    return deck
