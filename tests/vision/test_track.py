"""Tracking: the new card on a trick is found from the change since the last still scene,
on any cloth; votes resolve or refuse; a hand resting on the table is not a card."""

import numpy as np
import pytest

from calibration.table_plane import TableLayout, locate_table
from calibration.zones import default_zones
from referee.cards import parse_cards
from vision.faces import builtin_faces
from vision.render import CLOTHS, Effects, HandPass, Play, SceneRenderer, TableScene
from vision.track import Tracker, TablePlane, vote

SIZE, FPS = (1280, 720), 15.0


@pytest.fixture(scope="module")
def faces():
    return builtin_faces()


def _still_frames(renderer, script):
    """The frame just after each truth event's scene became still."""
    frames = list(renderer.frames(script, FPS))
    out = []
    for x in renderer.truth:
        out.append(next(f for t, f in frames if t >= x.t_still + 1 / FPS))
    return frames[0][1], out


@pytest.mark.parametrize("cloth", sorted(CLOTHS))
def test_each_card_of_an_overlapping_trick_is_located_on_any_cloth(faces, cloth):
    scene = TableScene.square(size=SIZE, tilt_deg=30, turn_deg=-5)
    r = SceneRenderer(faces, scene, seed=sorted(CLOTHS).index(cloth), size=SIZE, effects=Effects(cloth=cloth))
    script = [Play(s, c) for s, c in zip("WSEN", parse_cards("As Kd 7c Th"))]
    empty, stills = _still_frames(r, script)
    view = locate_table(empty, TableLayout())
    plane = TablePlane(view.image_to_table, default_zones(), SIZE)
    tracker = Tracker(plane)
    tracker.start(plane.rectify(empty))
    for frame, truth in zip(stills, r.truth):
        rect = plane.rectify(frame)
        found = tracker.analyse(rect)
        assert [c.zone for c in found.cards] == [truth.zone] and not found.cleared and not found.unexplained
        quad = found.cards[0].quad
        # the quad is the card's true outline, within a few pixels at every corner (either way up)
        want = np.array(truth.corners)
        err = min(np.abs(np.roll(quad, k, axis=0) - want).max() for k in range(4))
        assert err < 6, err
        tracker.accept(rect, found)


def test_a_hand_resting_on_the_trick_is_not_a_card(faces):
    scene = TableScene.square(size=SIZE, tilt_deg=20)
    r = SceneRenderer(faces, scene, seed=4, size=SIZE)
    frames = list(r.frames([Play("S", 3), HandPass("N", seconds=2.0)], FPS))
    view = locate_table(frames[0][1], TableLayout())
    plane = TablePlane(view.image_to_table, default_zones(), SIZE)
    tracker = Tracker(plane)
    tracker.start(plane.rectify(frames[0][1]))
    card_still = r.truth[0].t_still
    frame = next(f for t, f in frames if t > card_still + 0.1)
    tracker.accept(plane.rectify(frame), tracker.analyse(plane.rectify(frame)))
    hand_t = card_still + 0.8 + 1.0          # the hand's furthest reach, over the trick
    frame = next(f for t, f in frames if t >= hand_t)
    found = tracker.analyse(plane.rectify(frame))
    assert not found.cards and found.unexplained > 0


def test_votes_resolve_agreement_and_refuse_disagreement():
    jh, qh = parse_cards("Jh Qh")
    assert vote([(jh, 0.9), (jh, 0.95), (jh, 0.9)]).card == jh
    assert vote([(jh, 0.9), (qh, 0.9), (jh, 0.9)]).card == jh               # one misread is outvoted
    split = vote([(jh, 0.9), (qh, 0.9), (None, 0.0)])
    assert split.card is None and split.votes == {str(jh): 1, str(qh): 1, "?": 1}
    assert vote([(jh, 0.3), (jh, 0.35), (jh, 0.3)]).card is None             # agreeing but unsure
    assert vote([(jh, 0.9), (None, 0.2), (None, 0.1)]).card is None           # one read is not a majority
    assert vote([(None, 0.0)] * 3).card is None


def test_cards_are_located_through_a_wide_angle_lens(faces):
    """Barrel distortion bends the table; with the camera model the quads still fit the cards."""
    import cv2

    from calibration.camera import CameraModel

    k = np.array([[820.0, 0, 640], [0, 820.0, 360], [0, 0, 1]])
    dist = np.array([-0.25, 0.07, 0, 0, 0])
    camera = CameraModel(k, dist, SIZE)
    gx, gy = np.meshgrid(np.arange(SIZE[0], dtype=np.float32), np.arange(SIZE[1], dtype=np.float32))
    ideal = camera.undistort_points(np.stack([gx.ravel(), gy.ravel()], 1)).reshape(SIZE[1], SIZE[0], 2)
    ideal = ideal.astype(np.float32)

    def lens(frame):
        return cv2.remap(frame, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR)

    def bend(points):
        p = np.asarray(points, np.float64)
        norm = np.column_stack([(p[:, 0] - 640) / 820, (p[:, 1] - 360) / 820, np.ones(len(p))])
        return cv2.projectPoints(norm, np.zeros(3), np.zeros(3), k, dist)[0].reshape(-1, 2)

    scene = TableScene.square(size=SIZE, tilt_deg=15)
    r = SceneRenderer(faces, scene, seed=9, size=SIZE)
    empty, stills = _still_frames(r, [Play("E", parse_cards("Qh")[0]), Play("N", parse_cards("8s")[0])])
    errors = {}
    for model in (None, camera):
        view = locate_table(lens(empty), TableLayout(), model)
        plane = TablePlane(view.image_to_table, default_zones(), SIZE, camera=model)
        tracker = Tracker(plane)
        tracker.start(plane.rectify(lens(empty)))
        errors[model is not None] = []
        for frame, truth in zip(stills, r.truth):
            frame = lens(frame)
            found = tracker.analyse(plane.rectify(frame))
            tracker.accept(plane.rectify(frame), found)
            if [c.zone for c in found.cards] != [truth.zone]:
                errors[model is not None].append(np.inf)
                continue
            want = bend(truth.corners)
            errors[model is not None].append(
                min(np.abs(np.roll(found.cards[0].quad, i, axis=0) - want).max() for i in range(4)))
    assert max(errors[True]) < 2.5, errors                         # within a couple of pixels
    assert max(errors[True]) < max(errors[False]), errors         # and the lens model is what helps


@pytest.mark.parametrize("cloth", ["green", "white"])
def test_two_cards_put_down_unseen_are_both_found(faces, cloth):
    """A hand hid the table while two players played: both cards appear in one still scene."""
    scene = TableScene.square(size=SIZE, tilt_deg=20)
    r = SceneRenderer(faces, scene, seed=3, size=SIZE, effects=Effects(cloth=cloth))
    empty, stills = _still_frames(r, [Play(s, c) for s, c in zip("SE", parse_cards("Jh 9h"))])
    view = locate_table(empty, TableLayout())
    plane = TablePlane(view.image_to_table, default_zones(), SIZE)
    tracker = Tracker(plane)
    tracker.start(plane.rectify(empty))
    found = tracker.analyse(plane.rectify(stills[-1]))
    assert sorted(c.zone for c in found.cards) == ["play:E", "play:S"] and not found.unexplained
    for c in found.cards:
        want = np.array(next(x.corners for x in r.truth if x.zone == c.zone))
        assert min(np.abs(np.roll(c.quad, k, axis=0) - want).max() for k in range(4)) < 6
