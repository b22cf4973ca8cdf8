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

    DECK/contact-sheet.png      the enrolled faces side by side, for a person to check
    DECK/keypoints.npz, DECK/corners.npz
                                caches of what the still reader computes from
                                the faces (``vision.keypoints``, ``vision.corner_read``),
                                remade when the faces change (``Deck.digest``)

The faces are the templates; what ``vision.read`` compares is computed from
them when the deck is first read (cheap: 32-100 small images), so a deck
written by an older version still loads; its rule is measured again then.

Making a deck (checking each shot, the session, the contact sheet) is
``vision.enrol``'s; this module only holds it and stores it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, TypeVar

import cv2
import numpy as np

from referee.cards import CARD_NAMES, card_name, parse_card

FORMAT = "belote-table-deck"
VERSION = 1
#: Rectified face size (width, height). Between poker (63x88) and piquet
#: (56x87) proportions: a perspective warp absorbs the difference.
FACE_SIZE = (200, 300)
#: Below this long/short ratio a quad does not tell its top edge from its side.
AMBIGUOUS_ASPECT = 1.25

T = TypeVar("T")


class DeckError(ValueError):
    """A deck directory or an enrolment photo that cannot be used; the message says what to do."""


@dataclass
class Deck:
    """The enrolled faces of one deck, by card (int 0-31)."""

    faces: dict[int, list[np.ndarray]]
    abstain: dict = field(default_factory=dict)
    directory: Optional[Path] = None
    _features: Optional[object] = field(default=None, repr=False)     # the reader's cache (vision.read)
    _kept: dict = field(default_factory=dict, repr=False)             # ``kept``: file name -> what it holds
    _face_match: Optional[object] = field(default=None, repr=False)   # vision.face_match's cache

    @property
    def cards(self) -> list[int]:
        return sorted(self.faces)

    def digest(self, salt: str) -> str:
        """A fingerprint of the faces (and of ``salt``: what a cache computed
        from them, and how): a cache kept beside the deck under another
        fingerprint is stale."""
        digest = hashlib.sha1(salt.encode())
        for card in self.cards:
            for face in self.faces[card]:
                digest.update(bytes([card]) + face.tobytes())
        return digest.hexdigest()

    def kept(self, file: str, salt: str, make: Callable[["Deck"], T],
             to_arrays: Callable[[T], dict], from_arrays: Callable[[dict], T]) -> T:
        """What ``make`` computes from the faces (a keypoint index, the corner
        model: seconds of work), made once and kept with the deck: in memory,
        and in its directory as ``file`` (an ``.npz`` of ``to_arrays``' arrays
        and the key ``digest(salt)``), read back by ``from_arrays`` while the
        key matches, so each ``vision recognize`` run does not make it again.
        A file under another key, or unreadable, is made again; a deck that
        is not on disk, or cannot be written to, keeps it in memory only."""
        if file not in self._kept:
            path = self.directory / file if self.directory else None
            key = self.digest(salt)
            value = None
            if path is not None and path.exists():
                try:
                    with np.load(path) as data:
                        if str(data["key"]) == key:
                            value = from_arrays(data)
                except (OSError, KeyError, ValueError):
                    value = None
            if value is None:
                value = make(self)
                if path is not None:
                    try:
                        np.savez_compressed(path, key=key, **to_arrays(value))
                    except OSError:
                        pass                   # a read-only deck: it is made again next time
            self._kept[file] = value
        return self._kept[file]

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
    a, b = side_sums(quad)
    return float(max(a, b) / max(min(a, b), 1e-6))


def side_sums(quad: np.ndarray) -> tuple[float, float]:
    """(first + third, second + fourth) side lengths of a quad: its two pairs of opposite sides."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return float(sides[0] + sides[2]), float(sides[1] + sides[3])


def portrait(quad: np.ndarray) -> np.ndarray:
    """The quad's corners (4 x 2) started from the corner after which its first side is a short
    one, so that warped to a portrait face its long sides stand vertical."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    a, b = side_sums(q)
    return np.roll(q, -1, axis=0) if a > b else q
