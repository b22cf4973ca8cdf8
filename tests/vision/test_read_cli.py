"""``belote-table vision recognize``: the DESIGN contract, through the real command.

The deck is the project's drawn deck with French indices (R, D, V), enrolled
with ``calibrate deck`` from shots of the overhead camera (``vision.render``),
named the ways users name files (``10h.png``, ``QH.jpg``, ``Jh_2.png``).
"""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import card_name, parse_card
from vision.evaluate import overhead_shots
from vision.faces import FACE_SIZE, builtin_faces


def _file_name(card: int) -> str:
    name = card_name(card)
    if name[0] == "T":
        return f"10{name[1]}.png"                 # 10h.png
    if name[0] == "Q":
        return f"Q{name[1].upper()}.jpg"           # QH.jpg
    if name[0] == "J":
        return f"{name}_2.png"                     # Jh_2.png
    return f"{name}.png"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "commands.main", *args], capture_output=True, text=True,
                          timeout=300)


def _joker() -> np.ndarray:
    """A card that is in no Belote deck: must come out as unknown."""
    w, h = FACE_SIZE
    face = np.full((h, w, 3), 245, np.uint8)
    cv2.putText(face, "JOKER", (18, 60), cv2.FONT_HERSHEY_DUPLEX, 1.3, (40, 40, 160), 3)
    cv2.circle(face, (w // 2, h // 2 + 20), 60, (30, 30, 30), 6)
    cv2.putText(face, "?", (w // 2 - 30, h // 2 + 50), cv2.FONT_HERSHEY_DUPLEX, 3, (30, 30, 30), 6)
    return face


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    root = tmp_path_factory.mktemp("recognize")
    faces = builtin_faces(french=True)
    photos = root / "photos"
    photos.mkdir()
    for card, (frame, _) in overhead_shots(faces, seed=21).items():
        cv2.imwrite(str(photos / _file_name(card)), frame)
    done = _cli("calibrate", "deck", "--images", str(photos), "--out", str(root / "deck"))
    assert done.returncode == 0, done.stderr
    shots = overhead_shots({**{c: faces[c] for c in (4, 19, 30)}, 99: _joker()}, seed=22)
    paths = {}
    for card, (frame, truth) in shots.items():
        paths[card] = root / f"scene_{card}.png"
        cv2.imwrite(str(paths[card]), frame)
    return root, paths, shots


def test_json_lines_in_the_order_given_with_canonical_names(table):
    root, paths, shots = table
    order = [paths[30], paths[4], paths[19]]
    done = _cli("vision", "recognize", *map(str, order), "--deck", str(root / "deck"), "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(p) for p in order]      # exactly as given
    assert [[c["card"] for c in line["cards"]] for line in lines] == [["Kc"], ["Js"], ["Td"]]
    for line, card in zip(lines, (30, 4, 19)):
        (only,) = line["cards"]
        assert set(only) == {"card", "confidence", "corners"}
        assert 0.8 <= only["confidence"] <= 1.0              # read: at least 0.8
        corners = np.array(only["corners"])
        truth = shots[card][1]
        assert corners.shape == (4, 2)
        assert min(np.abs(np.roll(truth, k, axis=0) - corners).max() for k in range(4)) < 4.0
    assert "card(s)" in done.stderr                  # progress for people goes to stderr


def test_a_card_it_cannot_read_is_null_never_a_guess(table):
    root, paths, _ = table
    done = _cli("vision", "recognize", str(paths[99]), "--deck", str(root / "deck"), "--json")
    assert done.returncode == 0, done.stderr
    (line,) = [json.loads(x) for x in done.stdout.splitlines()]
    assert [c["card"] for c in line["cards"]] == [None]


def test_unreadable_image_reported_others_still_read_exit_2(table, tmp_path):
    root, paths, _ = table
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"not a jpeg")
    done = _cli("vision", "recognize", str(paths[4]), str(bad), str(paths[19]), "--deck", str(root / "deck"),
                "--json")
    assert done.returncode == 2
    assert "broken.jpg" in done.stderr and "cannot be read" in done.stderr
    assert [json.loads(x)["image"] for x in done.stdout.splitlines()] == [str(paths[4]), str(paths[19])]


def test_plain_text_output_and_missing_deck(table, tmp_path):
    root, paths, _ = table
    done = _cli("vision", "recognize", str(paths[19]), "--deck", str(root / "deck"))
    assert done.returncode == 0
    assert done.stdout.strip() == f"{paths[19]}: Td"
    missing = _cli("vision", "recognize", str(paths[19]), "--deck", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and missing.stdout == ""
    assert "calibrate deck" in missing.stderr


def test_file_names_users_write_are_parsed():
    from vision.enrol import card_from_filename
    assert card_from_filename(Path("10h.png")) == parse_card("Th")
    assert card_from_filename(Path("QH.jpg")) == parse_card("Qh")
    assert card_from_filename(Path("Jh_2.png")) == parse_card("Jh")
    assert card_from_filename(Path("Ts_top.jpg")) == parse_card("Ts")
