"""Pictures of an enrolment, for a person to check at a glance.

``write_contact_sheet``: the enrolled faces in deck order (a row per suit,
7 to ace), each labelled; a card with no face is a grey box with its name,
so a wrong, skewed or cut face, or a missing card, shows before play.
``write_refusals``: each refused shot, small, its found outline drawn in red
and its reason written under it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import cv2
import numpy as np

from referee.cards import CARD_NAMES

from .deck import Deck

_CELL = (100, 150)
_LABEL = 18
_PAD = 6


def write_contact_sheet(deck: Deck, path: Path) -> Path:
    """The 32 faces (first face of each card), 8 per row, one row per suit."""
    w, h = _CELL
    sheet = np.full((4 * (h + _LABEL + _PAD) + _PAD, 8 * (w + _PAD) + _PAD, 3), 255, np.uint8)
    for card in range(32):
        row, col = divmod(card, 8)
        x, y = _PAD + col * (w + _PAD), _PAD + row * (h + _LABEL + _PAD)
        faces = deck.faces.get(card)
        if faces:
            sheet[y:y + h, x:x + w] = cv2.resize(faces[0], _CELL, interpolation=cv2.INTER_AREA)
            label = CARD_NAMES[card] + (f" x{len(faces)}" if len(faces) > 1 else "")
            colour = (0, 0, 0)
        else:
            cv2.rectangle(sheet, (x, y), (x + w - 1, y + h - 1), (200, 200, 200), -1)
            label, colour = f"{CARD_NAMES[card]} missing", (0, 0, 200)
        cv2.putText(sheet, label, (x + 2, y + h + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), sheet)
    return path


def write_refusals(refused: Iterable[tuple[str, np.ndarray, object]], path: Path, per_row: int = 4) -> Path:
    """Each refused shot (name, picture, ``vision.shot.Refusal``), 320 px
    wide, with the outline it was judged on and its reason."""
    tiles = []
    for name, image, refusal in refused:
        scale = 320.0 / image.shape[1]
        small = cv2.resize(image, (320, max(1, int(round(image.shape[0] * scale)))), interpolation=cv2.INTER_AREA)
        quad = getattr(refusal, "quad", None)
        if quad is not None:
            cv2.polylines(small, [np.round(np.asarray(quad) * scale).astype(np.int32)], True, (0, 0, 255), 2)
        lines = _wrap(f"{name}: {refusal.reason}", 52)
        tile = np.full((small.shape[0] + 16 * len(lines) + 8, 320, 3), 255, np.uint8)
        tile[:small.shape[0]] = small
        for i, line in enumerate(lines):
            cv2.putText(tile, line, (3, small.shape[0] + 14 + 16 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 160),
                        1, cv2.LINE_AA)
        tiles.append(tile)
    rows = []
    for i in range(0, len(tiles), per_row):
        row = tiles[i:i + per_row]
        height = max(t.shape[0] for t in row)
        row = [cv2.copyMakeBorder(t, 0, height - t.shape[0], 0, _PAD, cv2.BORDER_CONSTANT, value=(255, 255, 255))
               for t in row]
        rows.append(np.hstack(row + [np.full((height, (per_row - len(row)) * (320 + _PAD), 3), 255, np.uint8)]))
    sheet = np.vstack([cv2.copyMakeBorder(r, 0, _PAD, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255)) for r in rows])
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), sheet)
    return path


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line] if line else lines
