"""``belote-table calibrate deck`` and the live enrolment: photos of single
cards under the overhead camera (rendered from the project's drawn deck), the
contact sheet, and the shots a club must not be able to enrol from."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision import corner_read
from vision.enrol import LiveEnrolment
from referee.cards import card_name
from vision.deck import Deck
from vision.evaluate import overhead_shots
from vision.faces import builtin_faces


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "commands.main", *args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def shots():
    return overhead_shots(builtin_faces(), seed=31)


def _write(folder, shots, skip=()):
    folder.mkdir(parents=True, exist_ok=True)
    for card, (frame, _) in shots.items():
        if card not in skip:
            cv2.imwrite(str(folder / f"{card_name(card)}.png"), frame)


def test_enrols_the_32_cards_with_progress_on_stderr(shots, tmp_path, monkeypatch):
    _write(tmp_path / "photos", shots)
    (tmp_path / "photos" / "notes.txt").write_text("not a photo")
    (tmp_path / "photos" / "table.png").write_bytes(b"")          # not named after a card
    done = _cli("calibrate", "deck", "--images", str(tmp_path / "photos"), "--out", str(tmp_path / "deck"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "[32/32]" in done.stderr and "table.png: not named after a card" in done.stderr
    manifest = json.loads((tmp_path / "deck" / "manifest.json").read_text())
    assert len(manifest["cards"]) == 32
    deck = Deck.load(tmp_path / "deck")
    assert deck.missing() == []
    # The contact sheet shows the 32 faces for a person to check.
    sheet = cv2.imread(str(tmp_path / "deck" / "contact-sheet.png"))
    assert sheet is not None and sheet.shape[1] > 8 * 100 and sheet.shape[0] > 4 * 150
    assert "contact sheet:" in done.stderr
    # The index-corner model is learnt at enrolment and kept beside the faces:
    # a reader of the deck loads it, it never learns it again (seconds).
    assert (tmp_path / "deck" / "corners.npz").is_file() and "index-corner model kept" in done.stderr

    def learn_again(*args, **kwargs):
        raise AssertionError("the corner model was learnt again instead of loaded")

    monkeypatch.setattr(corner_read.CornerModel, "__init__", learn_again)
    model = corner_read.corner_model(Deck.load(tmp_path / "deck"))
    assert len(model.anchors) >= 30 and len(model.labels) > 0


def test_blurred_and_misplaced_shots_are_refused_and_nothing_written(shots, tmp_path):
    photos = tmp_path / "photos"
    _write(photos, {c: shots[c] for c in (3, 4)})                                     # Ts, Js: fine
    frame0, _ = shots[0]
    cv2.imwrite(str(photos / "7s.png"), cv2.GaussianBlur(frame0, (0, 0), 6))          # blurred
    cv2.imwrite(str(photos / "8s.png"), shots[8][0] // 2 + shots[1][0] // 2)            # two cards in view
    cv2.imwrite(str(photos / "9s.png"), np.full_like(frame0, 90))                      # no card at all
    done = _cli("calibrate", "deck", "--images", str(photos), "--out", str(tmp_path / "deck"))
    assert done.returncode == 2
    assert "7s.png: refused" in done.stderr and ("blurred" in done.stderr or "no whole card" in done.stderr)
    assert "8s.png: refused" in done.stderr
    assert "9s.png: refused, no whole card found" in done.stderr
    assert "no usable photo for 7s, 8s, 9s, Qs" in done.stderr and "nothing was written" in done.stderr
    assert not (tmp_path / "deck").exists()
    # --partial writes what it has and says what will never be read.
    partial = _cli("calibrate", "deck", "--images", str(photos), "--out", str(tmp_path / "deck"), "--partial")
    assert partial.returncode == 0, partial.stderr
    assert "never read (no photo): 7s, 8s, 9s, Qs" in partial.stderr
    # The cards it has look like those (the 10 like the 9, the J like the Q): never read surely.
    assert "never read surely (each looks like one of those): Ts, Js" in partial.stderr
    assert Deck.load(tmp_path / "deck").cards == [3, 4]
    # Each refused shot is drawn with its reason beside the deck.
    assert cv2.imread(str(tmp_path / "deck" / "refused.png")) is not None
    # Reading with such a deck says, every time, which cards it cannot tell.
    seen = _cli("vision", "recognize", str(photos / "Ts.png"), "--deck", str(tmp_path / "deck"))
    assert seen.returncode == 0, seen.stderr
    assert "has no face for 7s, 8s, 9s, Qs" in seen.stderr and "calibrate deck" in seen.stderr


def test_live_enrolment_asks_for_each_card_and_refuses_bad_frames(shots, tmp_path):
    live = LiveEnrolment(order=[5, 12, 30])
    assert live.expected == 5
    blurred = live.offer(cv2.GaussianBlur(shots[5][0], (0, 0), 6))
    empty = live.offer(np.full_like(shots[5][0], 90))
    assert not blurred.accepted and not empty.accepted and live.expected == 5
    assert "no whole card" in empty.message
    empty_table = np.full_like(shots[5][0], 90)
    first = live.offer(shots[5][0])
    assert first.accepted and first.card == 5 and "now show Jh" in first.message and first.remaining == 2
    # The camera still sees the card just taken: it is not taken again as the next one.
    again = live.offer(shots[5][0])
    assert not again.accepted and "take the card away" in again.message
    live.offer(empty_table)
    # The same card shown again in place of the next is refused by name.
    twin = live.offer(shots[5][0])
    assert not twin.accepted and "already enrolled" in twin.message
    live.offer(shots[12][0])
    live.offer(empty_table)
    last = live.offer(shots[30][0])
    assert last.accepted and live.done and last.remaining == 0
    deck = live.finish(tmp_path / "live-deck")
    assert Deck.load(tmp_path / "live-deck").cards == [5, 12, 30] == deck.cards


def test_missing_folder_is_a_clear_error(tmp_path):
    done = _cli("calibrate", "deck", "--images", str(tmp_path / "nope"), "--out", str(tmp_path / "deck"))
    assert done.returncode == 2
    assert "is not a directory of card photos" in done.stderr


def test_live_enrolment_from_the_tables_camera_writes_the_deck(shots, tmp_path):
    """``calibrate deck --live SOURCE``: the camera's frames (here a folder, as
    a recorded camera) show each card in deck order with the empty table
    between; the deck and its contact sheet are written, progress on stderr."""
    frames = tmp_path / "camera"
    frames.mkdir()
    empty = np.full_like(shots[0][0], 90)
    k = 0
    for card in range(32):
        for image in (shots[card][0], shots[card][0], empty):     # the card held a moment, then taken away
            cv2.imwrite(str(frames / f"{k:04d}.png"), image)
            k += 1
    done = _cli("calibrate", "deck", "--live", str(frames), "--out", str(tmp_path / "deck"))
    assert done.returncode == 0, done.stderr
    assert "show 7s face up" in done.stderr and "take the card away, then show 8s" in done.stderr
    assert Deck.load(tmp_path / "deck").missing() == []
    assert (tmp_path / "deck" / "contact-sheet.png").is_file()
    # A camera that stops before the last card writes nothing and says what is left.
    short = tmp_path / "short"
    short.mkdir()
    for name in sorted(frames.iterdir())[:6]:
        (short / name.name).write_bytes(name.read_bytes())
    stopped = _cli("calibrate", "deck", "--live", str(short), "--out", str(tmp_path / "deck2"))
    assert stopped.returncode == 2 and "still to show: 9s" in stopped.stderr
    assert not (tmp_path / "deck2").exists()
