"""The scene renderer: what the tests and the demo see must behave like a camera's video."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import JACK, KING, QUEEN, parse_card, rank_of
from vision.faces import builtin_faces, draw_face, photo_faces
from vision.render import HandPass, Pickup, Play, SceneRenderer, TableScene, Wait
from vision.watch import Watcher

SIZE = (960, 540)
from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)


@pytest.fixture(scope="module")
def faces():
    return builtin_faces()


def _renderer(faces, seed=1, **kw):
    return SceneRenderer(faces, TableScene.square(size=SIZE, tilt_deg=20), seed=seed, size=SIZE, **kw)


def test_same_seed_same_video_and_truth_follows_the_script(faces):
    script = [Play("S", parse_card("Jh")), Play("E", parse_card("9h")), Pickup("EW")]
    a = _renderer(faces)
    fa = [f for _, f in a.frames(script, fps=10)]
    b = _renderer(faces)
    fb = [f for _, f in b.frames(script, fps=10)]
    assert len(fa) == len(fb) and all(np.array_equal(x, y) for x, y in zip(fa, fb))
    assert [(t.kind, t.zone, t.card) for t in a.truth] == [
        ("card", "play:S", parse_card("Jh")), ("card", "play:E", parse_card("9h")),
        ("cleared", "play:E", None), ("cleared", "play:S", None)]
    assert all(t.t_rest < t.t_still for t in a.truth)


def test_a_played_card_stays_where_it_landed_and_a_hand_pass_leaves_no_trace(faces):
    r = _renderer(faces, seed=2)
    script = [Play("N", parse_card("As")), Wait(0.5), HandPass("W"), Wait(0.5)]
    watcher, accepted, moving_after = Watcher(), None, False
    for t, frame in r.frames(script, fps=10):
        look = watcher.look(frame)
        if accepted is None and look.quiet >= 2 and look.changed:
            accepted = t                                 # the card is there, the scene is still
            watcher.accept()
        elif accepted is not None:
            moving_after |= look.moving                  # the hand passing
    assert accepted is not None and r.truth[0].t_rest <= accepted <= r.truth[0].t_still + 0.3
    assert moving_after
    assert not look.changed and not look.moving          # the table is as it was before the hand


def test_noise_and_light_are_there_but_the_idle_table_is_still(faces):
    r = _renderer(faces, seed=3)
    frames = [f for _, f in r.frames([Wait(1.0)], fps=10)]
    diff = cv2.absdiff(frames[2], frames[3])
    assert diff.mean() > 0.5                             # sensor noise changes every frame
    grey = cv2.cvtColor(frames[0], cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    centre = grey[int(h * 0.2):int(h * 0.8), int(w * 0.3):int(w * 0.7)]
    assert np.percentile(centre, 95) - np.percentile(centre, 5) > 15   # uneven light and glare
    watcher = Watcher()
    assert not any(watcher.look(f).moving for f in frames)


def test_french_indices_change_only_the_court_cards_and_the_ace():
    jack, seven, ace = parse_card("Jc"), parse_card("7c"), parse_card("Ac")
    assert not np.array_equal(draw_face(jack), draw_face(jack, french=True))
    assert not np.array_equal(draw_face(ace), draw_face(ace, french=True))      # aces marked "1"
    assert np.array_equal(draw_face(seven), draw_face(seven, french=True))


def test_real_card_faces_are_cut_out_upright_from_the_photos():
    faces = photo_faces(DATASET, per_card=1)
    assert len(faces) >= 24                   # most Belote cards have a clean colour photo of the classic deck
    for card, [face] in faces.items():
        if rank_of(card) in (JACK, QUEEN, KING):
            continue                                     # court pictures print every corner
        grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(float)
        h, w = grey.shape
        ink = lambda a: np.abs(a - np.median(grey)).mean()
        # the indices sit top-left and bottom-right: more print there than in the other two corners
        tl, br = ink(grey[:h // 5, :w // 4]), ink(grey[-h // 5:, -w // 4:])
        tr, bl = ink(grey[:h // 5, -w // 4:]), ink(grey[-h // 5:, :w // 4])
        assert tl + br > 0.8 * (tr + bl)


def test_the_table_looks_the_same_for_every_renderer_and_a_game_continues_call_after_call(faces):
    a, b = _renderer(faces, seed=1), _renderer(faces, seed=2)
    assert np.array_equal(a.background, b.background)        # one table, whatever happens on it
    first = list(a.frames([Play("S", parse_card("7d")), Play("E", parse_card("8d"))], fps=10))
    second = list(a.frames([Play("N", parse_card("9d")), Play("W", parse_card("Td")), Pickup("EW")], fps=10))
    assert [x.zone for x in a.truth if x.kind == "cleared"] == ["play:E", "play:N", "play:S", "play:W"]
    watcher = Watcher()
    watcher.look(first[-1][1])
    assert not watcher.look(second[0][1]).moving             # the second call starts where the first ended
